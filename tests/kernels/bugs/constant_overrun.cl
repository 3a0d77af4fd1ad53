/* Bug: the coefficient table has 8 entries but the kernel reads 16; the
 * reads past its end land in the next allocation (`out`). */
kernel void constant_overrun(constant int *coef, global int *out, int stride)
{
  size_t i = get_global_id(0);
  out[i] = coef[i * stride];
}
