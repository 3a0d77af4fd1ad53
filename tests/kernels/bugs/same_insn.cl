/* Two work-items store different values to one element in the same
 * instruction: which one lands is up to the hardware. */
kernel void same_insn(global int *out)
{
  size_t l = get_global_id(0);
  out[l / 2] = (int)l;
}
