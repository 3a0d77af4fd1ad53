/* Double buffering: each step reads one __local buffer and writes the
 * other, so one barrier per step is enough. */
kernel void ok_ping_pong(global const int *in, global int *out)
{
  local int buf[2][64];
  size_t l = get_local_id(0);
  buf[0][l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  int cur = 0;
  for (int it = 0; it < 6; it++) {
    buf[1 - cur][l] = buf[cur][(l + 1) % 64] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    cur = 1 - cur;
  }
  out[get_global_id(0)] = buf[cur][l];
}
