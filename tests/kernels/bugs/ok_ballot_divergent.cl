/* The non-uniform sub-group functions (cl_khr_subgroup_ballot) may be called
 * in divergent code: no finding. */
#pragma OPENCL EXTENSION cl_khr_subgroup_ballot : enable
kernel void ok_ballot_divergent(global int *out)
{
  size_t l = get_local_id(0);
  int r = -1;
  if (l % 4 == 0) {
    uint4 b = sub_group_ballot(1);
    r = (int)sub_group_ballot_bit_count(b) + sub_group_broadcast_first((int)l) * 0;
  }
  out[l] = r;
}
