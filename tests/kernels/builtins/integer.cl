/* Integer built-ins on int, uint, char and long, scalar and vector. */
kernel void integer(global const int *a, global const int *b, global int *r,
                    global uint *u, global char *c, global long *l)
{
  size_t i = get_global_id(0);
  int x = a[i], y = b[i];
  global int *ri = r + i * 14;
  ri[0] = abs(x);
  ri[1] = abs_diff(x, y);
  ri[2] = add_sat(x, y);
  ri[3] = sub_sat(x, y);
  ri[4] = hadd(x, y);
  ri[5] = rhadd(x, y);
  ri[6] = clz(x);
  ri[7] = popcount(x);
  ri[8] = mul_hi(x, y);
  ri[9] = mad_sat(x, y, 5);
  ri[10] = rotate(x, y);
  ri[11] = clamp(x, -100, 100);
  ri[12] = min(x, y) + max(x, y) / 2;
  ri[13] = mad24(x & 0xfff, y & 0xfff, 3);
  uint ux = (uint)x, uy = (uint)y;
  global uint *ui = u + i * 4;
  ui[0] = add_sat(ux, uy);
  ui[1] = sub_sat(ux, uy);
  ui[2] = mul_hi(ux, uy);
  ui[3] = rhadd(ux, uy);
  char4 cx = (char4)((char)x, (char)(x >> 8), (char)y, (char)(y >> 8));
  char4 cy = (char4)((char)y, (char)(y >> 8), (char)x, (char)(x >> 8));
  vstore4(add_sat(cx, cy), 2 * i, c);
  vstore4(as_char4(abs(cx)), 2 * i + 1, c);
  long lx = (long)x * 1000003, ly = (long)y * 999983;
  l[i * 3] = mul_hi(lx << 20, ly << 20);
  l[i * 3 + 1] = as_long(upsample((uint)x, (uint)y));
  l[i * 3 + 2] = sub_sat(lx * 0x7fffff, -ly * 0x7fffff);
}
