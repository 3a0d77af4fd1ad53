/* __local pointer arguments of odd sizes, each followed by one of a wider
 * type: every pointer must be aligned to the size of what it points to
 * (OpenCL C 6.3.5), as the CTS's basic/kernel_memory_alignment_local checks.
 * out[i] is the remainder of argument i's address by its pointee's size; the
 * address goes through a volatile so that the compiler, which takes the
 * alignment as given, cannot fold the remainder to 0. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void local_arg_align(local char *a, local short16 *b, local char3 *c, local long16 *d,
                            local uchar *e, local double16 *f, local int3 *g, local float16 *h,
                            global ulong *out) {
  if (get_local_id(0) != 0)
    return;
  volatile ulong addr[8];
  addr[0] = (ulong)a, addr[1] = (ulong)b, addr[2] = (ulong)c, addr[3] = (ulong)d;
  addr[4] = (ulong)e, addr[5] = (ulong)f, addr[6] = (ulong)g, addr[7] = (ulong)h;
  out[0] = addr[0] % sizeof(*a);
  out[1] = addr[1] % sizeof(*b);
  out[2] = addr[2] % sizeof(*c);
  out[3] = addr[3] % sizeof(*d);
  out[4] = addr[4] % sizeof(*e);
  out[5] = addr[5] % sizeof(*f);
  out[6] = addr[6] % sizeof(*g);
  out[7] = addr[7] % sizeof(*h);
}
