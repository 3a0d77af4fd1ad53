/* SPDX-License-Identifier: MIT */
/* compiler/devlib: the texture unit's instructions (docs/isa.md, "Texture
 * unit") for the image built-ins of image.cl, and the conversions of images
 * and samplers to the values the unit takes. Written in C rather than OpenCL
 * C: the instructions take and give register pairs, which inline assembly
 * can only name through local register variables, and OpenCL C has no
 * `register` storage class (docs/decisions.md, "Images go through a texture
 * unit"). Images and samplers arrive as the pointers clang lowers them to:
 * image.cl declares these functions per image type with an asm label. */
#include <stdint.h>

#include "sg_abi.h"

#define AS_GLOBAL __attribute__((address_space(1)))
#define AS_CONSTANT __attribute__((address_space(2)))

/* clang calls this for every sampler_t literal (a program-scope or local
 * constant sampler) with the literal's CLK_* bits: the unit's sampler word
 * has the same bits (sim/sg_sim.h), so the value is the word itself. */
AS_CONSTANT void *__translate_sampler_initializer(int bits) {
  return (AS_CONSTANT void *)(uintptr_t)(uint32_t)bits;
}

/* A sampler argument's slot holds the sampler word (device/). */
uint64_t sg_sampler_word(AS_CONSTANT const void *sampler) {
  return (uintptr_t)sampler;
}

/* An image argument's slot holds its descriptor's device address. */
uint64_t sg_image_desc(AS_GLOBAL const void *image) {
  return (uintptr_t)image;
}

/* The register pairs: a0:a1 for the four 32-bit components of a result or
 * of data to store, a2:a3 for the coordinates (x | y << 32, z). */
typedef unsigned __int128 sg_u128;
#define PAIR(v) ((sg_u128)(v##1) << 64 | (v##0))

/* Reads of read-only images are pure: the image cannot change while the
 * kernel runs, so LLVM may merge or drop them. Reads of read-write images
 * and all writes are ordered with the kernel's other memory accesses. The
 * sampler-less load has no sampler operand (x0 in the rs3 field). */
#define TEX_READ(fn, insn, kind, qual, clobber)                                                    \
  sg_u128 fn(uint64_t desc, uint64_t sampler, uint64_t xy, uint64_t z) {                           \
    register uint64_t r0 __asm__("a0"), r1 __asm__("a1");                                          \
    register uint64_t c0 __asm__("a2") = xy, c1 __asm__("a3") = z;                                 \
    if (SG_F3_##insn == SG_F3_TEX_LOAD)                                                            \
      __asm__ qual(SG_INSN_R4(insn, kind) ", a0, %2, a2, x0"                                       \
                   : "=r"(r0), "=r"(r1)                                                            \
                   : "r"(desc), "r"(c0), "r"(c1)clobber);                                          \
    else                                                                                           \
      __asm__ qual(SG_INSN_R4(insn, kind) ", a0, %2, a2, %3"                                       \
                   : "=r"(r0), "=r"(r1)                                                            \
                   : "r"(desc), "r"(sampler), "r"(c0), "r"(c1)clobber);                            \
    return PAIR(r);                                                                                \
  }
#define NOTHING
#define MEMORY : "memory"
#define TEX_READS(kind, k)                                                                         \
  TEX_READ(sg_tex_sample_##k, TEX_SAMPLE, kind, NOTHING, NOTHING)                                  \
  TEX_READ(sg_tex_samplei_##k, TEX_SAMPLEI, kind, NOTHING, NOTHING)                                \
  TEX_READ(sg_tex_load_##k, TEX_LOAD, kind, NOTHING, NOTHING)                                      \
  TEX_READ(sg_tex_load_rw_##k, TEX_LOAD, kind, volatile, MEMORY)
TEX_READS(SG_TEX_KIND_FLOAT, f)
TEX_READS(SG_TEX_KIND_INT, i)
TEX_READS(SG_TEX_KIND_UINT, u)

/* image[xy, z] = data: the data pair in the rd field, x0 in rs3. */
#define TEX_WRITE(kind, k)                                                                         \
  void sg_tex_store_##k(uint64_t desc, uint64_t xy, uint64_t z, uint64_t lo, uint64_t hi) {        \
    register uint64_t d0 __asm__("a0") = lo, d1 __asm__("a1") = hi;                                \
    register uint64_t c0 __asm__("a2") = xy, c1 __asm__("a3") = z;                                 \
    __asm__ volatile(SG_INSN_R4(TEX_STORE, kind) ", a0, %0, a2, x0"                                \
                     :                                                                             \
                     : "r"(desc), "r"(d0), "r"(d1), "r"(c0), "r"(c1)                               \
                     : "memory");                                                                  \
  }
TEX_WRITE(SG_TEX_KIND_FLOAT, f)
TEX_WRITE(SG_TEX_KIND_INT, i)
TEX_WRITE(SG_TEX_KIND_UINT, u)
