/* work_group_broadcast from one work-item of a 2-D work-group, named the
 * same way by all: no finding. */
kernel void ok_broadcast_2d(global const int *in, global int *out)
{
  size_t g = get_global_id(1) * get_global_size(0) + get_global_id(0);
  out[g] = work_group_broadcast(in[g], 3, 2);
}
