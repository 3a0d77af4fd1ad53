/* Correct: eight buffer arguments live at once (the pointers are spilled
 * to the private stack and reloaded). */
kernel void ok_many_pointers(global int *a, global int *b, global int *c, global int *d,
                             global int *e, global int *f, global int *g, global int *h)
{
  size_t i = get_global_id(0);
  for (int k = 0; k < 4; k++) {
    a[i] += b[i] + k;
    b[i] += c[i];
    c[i] += d[i];
    d[i] += e[i];
    e[i] += f[i];
    f[i] += g[i];
    g[i] += h[i];
  }
}
