/* Values 0, 1 and 2 ulp above 1.0f (and 3 ulp, at index 3) compared with
 * "ulp 2" against 1.0: only index 3 may be reported. */
kernel void ulp(global float *out)
{
  uint i = get_global_id(0);
  out[i] = as_float(as_uint(1.0f) + i);
}
