/* Every kind of access to another work-item's private memory is caught:
 * odd work-items aim 32- and 64-bit integer and FP loads and stores and
 * atomics (AMO, LR, SC)
 * at a[0] of the work-item below them, one private stack slot down. Each is
 * reported once with its count; loads, AMOs and LR read zero, SC fails,
 * and every array keeps what its own work-item wrote. */
kernel void private_access_kinds(global int *out, local ulong *where)
{
  volatile long a[4];
  size_t l = get_local_id(0), g = get_global_id(0);
  for (int k = 0; k < 4; k++)
    a[k] = (long)g * 10 + k;
  where[l] = (ulong)&a[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  int seen[7] = {0, 0, 0, 0, 0, 0, 0};
  if (l & 1) {
    ulong other = where[l - 1];
    volatile int *i = (volatile int *)other;
    volatile float *f = (volatile float *)other;
    volatile long *q = (volatile long *)other;
    volatile double *d = (volatile double *)other;
    *i = -1;
    seen[0] = *i;
    *q = -(long)l;
    seen[1] = (int)*q;
    *f = (float)l + 0.5f;
    seen[2] = (int)*f;
    *d = (double)l + 0.5;
    seen[3] = (int)*d;
    seen[4] = atomic_fetch_add_explicit((volatile atomic_int *)i, 5, memory_order_relaxed);
    int r, fail;
    __asm__ volatile("lr.w %0, (%1)" : "=r"(r) : "r"(i) : "memory");
    __asm__ volatile("sc.w %0, %2, (%1)" : "=r"(fail) : "r"(i), "r"(7) : "memory");
    seen[5] = r;
    seen[6] = fail != 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[8 * g] = (int)(a[0] + a[1] + a[2] + a[3]);
  for (int k = 0; k < 7; k++)
    out[8 * g + 1 + k] = seen[k];
}
