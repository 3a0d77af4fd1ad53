/* Each work-item names its own source work-item: the broadcast's local id
 * must be the same for the whole work-group. */
kernel void wg_broadcast_args(global const int *in, global int *out)
{
  size_t l = get_local_id(0);
  out[l] = work_group_broadcast(in[l], l % 2);
}
