/* OpenCL C 2.0: the last work-group in each dimension may be smaller;
 * get_local_size() gives its real size, get_enqueued_local_size() the
 * requested one. */
kernel void partial_groups(global int *out)
{
  size_t x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] = get_local_size(0) * 1000 + get_local_size(1) * 100 +
                                    get_enqueued_local_size(0) * 10 +
                                    get_enqueued_local_size(1) + 10000 * get_local_id(0);
}
