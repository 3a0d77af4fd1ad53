/* Bug: the index is scaled by the wrong stride, so most work-items read far
 * past the end of `in` (16 ints). The reads land in the next allocation
 * (`out`), not in unmapped memory: only per-buffer bounds catch them. */
kernel void overrun_next_buffer(global const int *in, global int *out, int stride)
{
  size_t i = get_global_id(0);
  out[i] = in[i * stride];
}
