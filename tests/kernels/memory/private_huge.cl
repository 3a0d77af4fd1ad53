/* 4 MiB of private memory per work-item. The stacks of a work-group share a
 * 2.5 GiB window, so at most 640 work-items fit: a NULL local size picks
 * work-groups that fit, an explicit 1024 is CL_OUT_OF_RESOURCES. */
kernel void private_huge(global int *out)
{
  volatile char a[4 << 20];
  int g = (int)get_global_id(0);
  a[g] = (char)g;
  a[(4 << 20) - 1] = 3;
  out[g] = a[g] + a[(4 << 20) - 1];
}
