/* Bug: `out` is created CL_MEM_WRITE_ONLY but the kernel reads it (+=).
 * GPUs do not enforce write-only: the read happens and is reported. */
kernel void read_write_only(global const int *in, global int *out)
{
  size_t i = get_global_id(0);
  out[i] += in[i];
}
