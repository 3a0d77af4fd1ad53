/* A chain of five calls, each frame with a 4 KiB array: 20 KiB of private
 * memory per work-item, more than the default stack_per_lane (16 KiB). The
 * chain is known, so each work-item gets exactly what the chain needs. */
#define LEVEL(name, next)                                                  \
  __attribute__((noinline)) int name(int g, int d)                         \
  {                                                                        \
    volatile int a[1024];                                                  \
    for (int k = 0; k < 1024; k++)                                         \
      a[k] = g + d * k;                                                    \
    return a[(g + d) % 1024] + next(g, d + 1);                             \
  }
__attribute__((noinline)) int last(int g, int d) { return g * d; }
LEVEL(l4, last)
LEVEL(l3, l4)
LEVEL(l2, l3)
LEVEL(l1, l2)
LEVEL(l0, l1)

kernel void private_call_chain(global int *out)
{
  int g = (int)get_global_id(0);
  out[g] = l0(g, 1);
}
