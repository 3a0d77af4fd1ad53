/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4): private state shared by decode, execute,
 * the SIMT stack and the warp scheduler. Not part of the sim/ interface. */
#ifndef SG_SIM_IMPL_H
#define SG_SIM_IMPL_H

#include "sg_sim.h"

/* Integer results written to x0 go to this scratch row, so x0 reads as zero
 * without a check on every write. */
#define SG_XSINK 32

/* unimp (csrrw x0, cycle, x0): what __builtin_trap and unreachable code
 * compile to; a trap, not a CSR write. */
#define SG_UNIMP 0xc0001073u
#define SG_NXREGS 33

struct sg_code {
  uint64_t base;
  size_t n;              /* words */
  struct sg_uop *uops;   /* decoded, rd == x0 redirected to SG_XSINK */
  uint64_t *reconv;      /* per word: reconvergence PC of a branch there */
  bool track_fflags;     /* the program reads fflags/fcsr, so keep them exact */
  /* Registers any instruction names (over-approximated: every register
   * field of every word, in both banks). Only these are zeroed per CTA;
   * the others are never read. */
  uint64_t x_used, f_used;
};

/* ---- SIMT stack (reconvergence policy behind an ops struct) ------------ */

/* A path of a warp is at (pc, frame): frame is its call depth, 0 in the
 * kernel's entry wrapper, one more per call not yet returned. A
 * reconvergence point is such a pair too, so a branch in a function that is
 * called in a loop or from several places waits for its own frame. */
struct sg_simt_entry {
  uint64_t pc, reconv_pc, mask;
  uint32_t frame, reconv_frame;
  bool deferred; /* set aside at a barrier so its sibling path runs first */
};

/* The reconvergence PC of a branch inside a called function whose paths
 * only rejoin by returning (its post-dominator is the function's exit): the
 * paths reconverge at the return address, in the caller's frame. It is not
 * known until the first path returns (sg_reconv_ops.returned). */
#define SG_RECONV_RETURN (UINT64_MAX - 1)

/* IPDOM: each divergence splits a mask into two non-empty parts, so a warp
 * of n lanes never needs more than 2n - 1 entries above the bottom one. */
#define SG_SIMT_DEPTH (2 * SG_MAX_WARP_SIZE + 1)
struct sg_simt_stack {
  uint32_t depth;
  struct sg_simt_entry e[SG_SIMT_DEPTH];
};

struct sg_reconv_ops {
  const char *name;
  void (*init)(struct sg_simt_stack *s, uint64_t pc, uint64_t mask);
  /* The top's lanes disagree at a branch in call frame `frame`: taken
   * lanes go to target, the others to fallthrough; reconv is the branch's
   * reconvergence PC from the table (SG_RECONV_EXIT: the function's exit). */
  void (*diverge)(struct sg_simt_stack *s, uint64_t taken, uint64_t target,
                  uint64_t fallthrough, uint64_t reconv, uint32_t frame);
  /* The top, whose reconvergence point is SG_RECONV_RETURN, returned to
   * target in its reconvergence frame: that is where its siblings rejoin. */
  void (*returned)(struct sg_simt_stack *s, uint64_t target);
  /* Pops entries that reached their reconvergence point or whose lanes all
   * exited. The warp is done when the depth drops to 0. */
  void (*settle)(struct sg_simt_stack *s, uint64_t exited);
  /* The top reached a barrier with only part of the warp's live lanes. If a
   * sibling path still has to run (say, the lanes taking an early return),
   * sets the top aside and lets it run first; false if there is none, which
   * makes the barrier divergent. */
  bool (*defer)(struct sg_simt_stack *s);
  /* The top waits at a barrier and no sibling can run first: true when
   * every live lane (live) is on a path waiting at a barrier, so the warp
   * has arrived (paths at different barriers: undefined, but survivable);
   * false when some lanes wait to rejoin the top, a deadlock. */
  bool (*at_barrier)(const struct sg_simt_stack *s, uint64_t live);
  /* The barrier the warp waited at was released: paths set aside at a
   * barrier go on after it. */
  void (*release)(struct sg_simt_stack *s);
};
extern const struct sg_reconv_ops sg_reconv_ipdom;

/* ---- Warps and the core ------------------------------------------------ */

enum sg_warp_state { SG_WARP_READY, SG_WARP_BARRIER, SG_WARP_DONE, SG_WARP_FAULT };

struct sg_warp {
  uint64_t x[SG_NXREGS][SG_MAX_WARP_SIZE]; /* lane-contiguous */
  uint64_t f[32][SG_MAX_WARP_SIZE];        /* singles NaN-boxed */
  uint32_t fcsr[SG_MAX_WARP_SIZE];         /* frm << 5 | fflags */
  uint64_t lr_addr[SG_MAX_WARP_SIZE], lr_val[SG_MAX_WARP_SIZE];
  uint64_t lr_valid;
  uint64_t lanes;    /* lanes that run (init mask) */
  uint64_t exited;   /* lanes that executed sg.exit */
  bool frm_any;      /* some lane has a non-zero frm: dynamic rm is slow */
  uint32_t id;
  enum sg_warp_state state;
  uint64_t barrier_pc; /* the barrier it waits at (state SG_WARP_BARRIER) */
  struct sg_simt_stack stack;
};

struct sg_core {
  struct sg_sim_config cfg;
  const struct sg_reconv_ops *reconv;
  struct sg_warp **warps;    /* allocated lazily, up to SG_MAX_CTA_WARPS */
  uint32_t nwarps_alloc;
  /* the CTA being run */
  const struct sg_code *code;
  const struct sg_cta_desc *cta;
  const struct sg_memmap *mem;
  const struct sg_region *last; /* translation cache: last region hit */
  struct sg_fault *fault;
  struct sg_findings *findings; /* NULL: every finding ends the CTA */
  uint64_t cta_index;           /* linear index of the CTA being run */
  struct sg_stats stats;
  uint64_t insns;               /* warp instructions of this CTA */
};

/* Runs warp w for at most budget instructions; returns its new state
 * (READY when the budget ran out). */
enum sg_warp_state sg_warp_run(struct sg_core *c, struct sg_warp *w, uint64_t budget);

/* Fills c->fault for warp w at pc (lane-specific when lane < warp size;
 * else the first active lane). */
void sg_core_fault(struct sg_core *c, const struct sg_warp *w, enum sg_fault_kind kind,
                   uint64_t pc, unsigned lane, uint64_t addr, uint32_t size,
                   const char *fmt, ...) __attribute__((format(printf, 8, 9)));
/* A finding under the diagnostics rule (sg_fault.def): a survivable one is
 * counted at its site and true is returned (the lane goes on); a fatal one,
 * or any one in strict mode, fills c->fault and returns false. */
bool sg_core_report(struct sg_core *c, const struct sg_warp *w, enum sg_fault_kind kind,
                    uint64_t pc, unsigned lane, uint64_t addr, uint32_t size, const char *fmt,
                    ...) __attribute__((format(printf, 8, 9)));

/* SFU helpers named by sg_sfu.def that libm lacks. */
float sg_exp10f(float x);
double sg_exp10(double x);
float sg_rsqrtf(float x);
double sg_rsqrt(double x);
double sg_cbrt(double x);
float sg_sinpif(float x);
double sg_sinpi(double x);
float sg_cospif(float x);
double sg_cospi(double x);
float sg_tanpif(float x);
double sg_tanpi(double x);

#endif
