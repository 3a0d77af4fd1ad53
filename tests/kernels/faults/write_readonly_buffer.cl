/* A store into a CL_MEM_READ_ONLY buffer faults on SoftGPU. */
kernel void write_readonly_buffer(global int *ro, global int *out)
{
  size_t i = get_global_id(0);
  ro[i] = 5;
  out[i] = 1;
}
