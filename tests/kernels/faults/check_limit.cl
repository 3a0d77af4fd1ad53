/* One work-group writes 2 MiB of __global memory: more than the race
 * checker may shadow with check_memory = 1 MiB, so it stops checking and
 * says so, once; the launch goes on. */
kernel void check_limit(global int *out)
{
  size_t l = get_local_id(0);
  for (size_t i = l; i < 512 * 1024; i += 64)
    out[i] = (int)i;
}
