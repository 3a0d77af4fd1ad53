/* One basic block of some 2000 loads and stores (the shape of the CTS's
 * vector_creation kernels): each step builds an int16 from vloads of `src`
 * (which may alias `out`, so every store makes the compiler load `src`
 * again), stores it, then adds to a component of an earlier or later step's
 * vector. Past 100 pending memory operations the instruction scheduler
 * merges their dependences (compiler/sg_cc_codegen.c); the program order of
 * the stores and the read-modify-writes must survive. */
#define STEP(k)                                                                \
  out[k] = (int16)(vload3(0, src + (k) % 4), vload4(0, src + 3),               \
                   vload3(0, src + 7), vload2(0, src + 10), src[12],           \
                   vload3(0, src + 13));                                       \
  out[((k) * 7) % 64].s5 += out[k].s0 + (k);
#define STEP4(k) STEP(k) STEP((k) + 1) STEP((k) + 2) STEP((k) + 3)
#define STEP16(k) STEP4(k) STEP4((k) + 4) STEP4((k) + 8) STEP4((k) + 12)

kernel void long_block(global const int *src, global int16 *out)
{
  STEP16(0) STEP16(16) STEP16(32) STEP16(48)
}
