/* A loop whose trip count differs between work-items: its back edge is a
 * divergent branch whose paths rejoin before the store. */
kernel void squares(global int *out, int n)
{
  int s = 0;
  for (int j = 0; j < (int)(get_global_id(0) % n); j++)
    s += j * j;
  out[get_global_id(0)] = s;
}
