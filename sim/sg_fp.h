/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), FP semantics of the F and D extensions:
 * NaN boxing, canonical NaNs, flags, rounding modes, and the parts of the
 * spec that the host FPU does not give directly (fmin/fmax, saturating
 * conversions, fclass, compares, round-to-nearest-max-magnitude). */
#ifndef SG_FP_H
#define SG_FP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum { SG_RNE, SG_RTZ, SG_RDN, SG_RUP, SG_RMM, SG_RM_DYN = 7 };
enum { SG_FF_NX = 1, SG_FF_UF = 2, SG_FF_OF = 4, SG_FF_DZ = 8, SG_FF_NV = 16 };

#define SG_CANON32 0xffffffff7fc00000ull /* boxed canonical single NaN */
#define SG_CANON64 0x7ff8000000000000ull

/* A single is NaN-boxed in a 64-bit register; anything else reads as the
 * canonical NaN. */
static inline uint32_t sg_unbox(uint64_t v) {
  return (v >> 32) == 0xffffffffu ? (uint32_t)v : 0x7fc00000u;
}
static inline float sg_f32(uint64_t v) {
  uint32_t b = sg_unbox(v);
  float f;
  memcpy(&f, &b, 4);
  return f;
}
static inline double sg_f64(uint64_t v) {
  double d;
  memcpy(&d, &v, 8);
  return d;
}
static inline uint64_t sg_box32(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return 0xffffffff00000000ull | b;
}
static inline uint64_t sg_bits64(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  return b;
}
/* Results of arithmetic: any NaN becomes the canonical NaN. */
static inline uint64_t sg_canon32(float f) { return f != f ? SG_CANON32 : sg_box32(f); }
static inline uint64_t sg_canon64(double d) { return d != d ? SG_CANON64 : sg_bits64(d); }

static inline bool sg_snan32(uint64_t v) {
  uint32_t b = sg_unbox(v);
  return (b & 0x7fc00000u) == 0x7f800000u && (b & 0x003fffffu);
}
static inline bool sg_snan64(uint64_t v) {
  return (v & 0x7ff8000000000000ull) == 0x7ff0000000000000ull && (v & 0x0007ffffffffffffull);
}

/* Host-FPU operations evaluated under a rounding mode with exact flags. */
enum sg_fop { SG_FOP_ADD, SG_FOP_SUB, SG_FOP_MUL, SG_FOP_DIV, SG_FOP_SQRT, SG_FOP_FMA, SG_FOP_CVT };
/* a, b, c: operands; src: the exact source value of SG_FOP_CVT. */
float sg_fp_slow32(unsigned op, unsigned rm, float a, float b, float c, long double src,
                   unsigned *flags);
double sg_fp_slow64(unsigned op, unsigned rm, double a, double b, double c, long double src,
                    unsigned *flags);

uint64_t sg_fminmax32(uint64_t a, uint64_t b, bool max, unsigned *flags);
uint64_t sg_fminmax64(uint64_t a, uint64_t b, bool max, unsigned *flags);
/* cmp: 0 eq (quiet), 1 lt, 2 le (signalling) */
uint64_t sg_fcmp(double a, double b, bool snan, unsigned cmp, unsigned *flags);
uint64_t sg_fclass32(uint64_t v);
uint64_t sg_fclass64(uint64_t v);
/* Saturating FP -> integer of `bits` (32 or 64) bits, sign-extended to 64. */
uint64_t sg_fcvt_int(long double v, unsigned rm, bool is_signed, unsigned bits, unsigned *flags);

#endif
