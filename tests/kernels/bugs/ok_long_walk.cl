/* Correct: two full warps walk a __local array of longs with a pointer
 * stepped in place, and read 64-bit values through buffer pointers. */
kernel void ok_long_walk(global const long *in, global long *out)
{
  local long t[64];
  size_t l = get_local_id(0);
  t[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  local const long *p = t;
  long s = 0;
  for (int k = 0; k < 64; k++)
    s += *p++;
  out[get_global_id(0)] = s + (long)l;
}
