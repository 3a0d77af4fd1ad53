/* Bug: idx[1] is never set, and even work-items use it as an index. Built
 * with -cl-opt-disable: at -O3 LLVM folds the undefined value away. */
kernel void uninit_address(global const int *in, global int *out)
{
  size_t i = get_global_id(0);
  int idx[2];
  if (i & 1)
    idx[0] = (int)i;
  out[i] = in[idx[i & 1 ? 0 : 1] & 7];
}
