/* Bug: the kernel scales its input in place, but the host created it
 * CL_MEM_READ_ONLY. The store lands (as on GPUs) and is reported. */
kernel void write_read_only(global int *in, global int *out)
{
  size_t i = get_global_id(0);
  in[i] *= 2;
  out[i] = in[i];
}
