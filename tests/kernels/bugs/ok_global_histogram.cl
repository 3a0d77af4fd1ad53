/* Every work-item of every work-group counts into __global bins with
 * atomic_inc: atomics across work-groups are not races. */
kernel void ok_global_histogram(global const uint *in, global uint *bins)
{
  atomic_inc(&bins[in[get_global_id(0)] % 8]);
}
