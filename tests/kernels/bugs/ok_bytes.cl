/* Neighbouring work-items write neighbouring bytes of one word, in __local
 * and __global memory: different bytes never race. */
kernel void ok_bytes(global uchar *out)
{
  local uchar s[64];
  size_t l = get_local_id(0), g = get_global_id(0);
  s[l] = (uchar)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = s[l ^ 3] + 1;
}
