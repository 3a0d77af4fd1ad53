/* A store into a program-scope __constant table faults: program constants
 * are mapped read-only. */
constant int table[16] = {1, 2, 3};

kernel void write_program_constant(global int *out)
{
  size_t i = get_global_id(0);
  global int *p = (global int *)(uintptr_t)table;
  p[i] = 5;
  out[i] = table[i];
}
