/* A histogram-style count kept with ++ on __global memory: races within
 * each work-group and between work-groups. */
kernel void global_counter(global int *count)
{
  count[0]++;
}
