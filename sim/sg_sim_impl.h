/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4): private state shared by decode, execute,
 * the SIMT stack and the warp scheduler. Not part of the sim/ interface. */
#ifndef SG_SIM_IMPL_H
#define SG_SIM_IMPL_H

#include "sg_sim.h"

#include <fenv.h>

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
  /* Per word: registers (x, f) some path from there reads before writing. */
  uint64_t (*live)[2];
  struct sg_jit *jit;    /* its translation (sg_jit.c), made on first use */
  uint64_t id;           /* sg_code_id */
};
/* Registers live at pc (a kernel's entry: those a warp must zero). */
void sg_code_live_in(const struct sg_code *code, uint64_t pc, uint64_t *x, uint64_t *f);

/* ---- The translated fast path (sg_jit.c, docs/engine.md) ---------------- */

struct sg_core;
struct sg_warp;
/* A translated block at a word: runs up to len instructions on the lanes of
 * mask (the others' registers and memory untouched) and returns how many
 * ran (fewer when a memory access needs the interpreter's lane-by-lane
 * path, or a consumer's limit stops it: lim, NULL when no consumer is
 * attached; sg_block_ops), with
 * SG_JIT_TAKEN when its last instruction is a branch or jump it took (a
 * branch the lanes disagree on is left to the interpreter); a block that
 * ends with sg.exit leaves retiring the lanes to its caller. dyn_rm: it
 * holds FP arithmetic with the dynamic rounding mode, so it runs only while
 * every lane's frm is round-to-nearest. */
#define SG_JIT_TAKEN 0x80000000u /* a block's count: it ended with a branch taken */
struct sg_jit_entry {
  uint32_t (*fn)(struct sg_core *c, struct sg_warp *w, const struct sg_block_limit *lim,
                 uint64_t mask);
  uint32_t len;
  bool dyn_rm;
};
struct sg_jit;
/* The translation of code (decoded from words, its reconvergence table
 * set), made on first use; destroying it may keep what it translated for
 * a later program with the same code. */
enum sg_status sg_jit_create(const struct sg_code *code, const uint32_t *words,
                             struct sg_jit **out);
void sg_jit_destroy(struct sg_jit *j);
/* The program's blocks, indexed by word; the blocks reachable from the
 * kernel entry at entry_pc are translated once its CTAs have run
 * jit_threshold / launches warp instructions in the interpreter
 * (sg_jit_ran: the CTAs' instructions, and the launches counted by their
 * first CTA). NULL while nothing is translated, or when the program stays
 * interpreted. */
const struct sg_jit_entry *sg_jit_entries(struct sg_core *c, const struct sg_code *code,
                                          uint64_t entry_pc);
void sg_jit_ran(const struct sg_code *code, unsigned ws, uint64_t entry_pc, uint64_t insns,
                bool first_cta);
/* What translated blocks call (sg_execute.c): the warp's span check of an
 * access by the lanes of mask at x[rs1] + imm whose addresses lie in
 * [lo, hi] (the host address of lo, or NULL: let the interpreter do it;
 * the region goes to the CTA's hit[slot]), and the value of a CSR that is
 * the same for every lane. */
uint8_t *sg_exec_span(struct sg_core *c, struct sg_warp *w, uint32_t rs1, int64_t imm,
                      uint32_t size, uint32_t perm, uint64_t lo, uint64_t hi, uint32_t slot,
                      uint64_t mask);
uint64_t sg_exec_csr_value(struct sg_core *c, struct sg_warp *w, uint32_t csr);
/* An AMO, LR or SC by the lanes of mask whose addresses addr[] lie in
 * [lo, lo + span] of one region, lo at host address h, checked and aligned:
 * the lanes' results to rd[], as the interpreter's. */
void sg_exec_amo(struct sg_warp *w, uint32_t op, uint64_t mask, const uint64_t *addr,
                 const uint64_t *src, uint64_t *rd, uint8_t *h, uint64_t lo, uint32_t size);
/* A block's note to the consumer following it (sg_block_ops.note) about
 * its memory instruction at pc, the index-th of the block. (Translated code
 * holds no pointer into the program: it may serve a later one, sg_jit.c.) */
const struct sg_block_limit *sg_exec_note(struct sg_core *c, uint64_t pc, uint32_t index,
                                          uint64_t lo, uint64_t hi, uint32_t lane, uint64_t first);

/* ---- Reconvergence policies (sg_reconv_ipdom.c, sg_reconv_multipath.c) -- */

/* A path of a warp: lanes at pc in call frame `frame` (0 in the kernel's
 * entry wrapper, one more per call not yet returned), and where they rejoin
 * other lanes: reconv_pc in reconv_frame. A reconvergence point is a
 * (pc, frame) pair, so a branch in a function that is called in a loop or
 * from several places waits for its own frame. */
struct sg_path {
  uint64_t pc, mask, reconv_pc;
  uint32_t frame, reconv_frame;
};

/* The reconvergence PC of a branch inside a called function whose paths
 * only rejoin by returning (its post-dominator is the function's exit): the
 * paths reconverge at the return address, in the caller's frame. It is not
 * known until the first path returns (sg_reconv_ops.returned). */
#define SG_RECONV_RETURN (UINT64_MAX - 1)

enum sg_reconv_next {
  SG_NEXT_RUN,      /* run path *p */
  SG_NEXT_BARRIER,  /* every live lane waits at a barrier: *p is the path that
                       waited last (its pc is the barrier); when its mask is not
                       every live lane, other paths wait at other barriers */
  SG_NEXT_DONE,     /* every lane exited */
  SG_NEXT_DEADLOCK  /* no path can run: path *p waits at a barrier while other
                       live lanes wait to rejoin it */
};

/* What a policy did, for the consumers: filled only by the observed loop
 * (NULL otherwise). Events of kinds SG_EV_PATHS, SG_EV_RECONVERGE,
 * SG_EV_PATH_SWITCH and SG_EV_PATH_COUNT; the core adds time, CTA and warp. */
#define SG_RECONV_LOG_MAX 8
struct sg_reconv_log {
  uint32_t n;
  struct sg_event e[SG_RECONV_LOG_MAX];
};
void sg_reconv_log_add(struct sg_reconv_log *log, enum sg_event_kind kind, uint64_t pc,
                       uint64_t mask, uint64_t arg, uint64_t arg2);

/* A policy keeps an opaque per-warp state of state_size bytes that nothing
 * outside its file reads or writes. The execute loop asks it which lanes
 * run next at which PC, tells it where the running path stopped, and
 * reports divergence, returns and barriers. */
struct sg_reconv_ops {
  const char *name;
  size_t state_size;
  void (*init)(void *st, uint64_t pc, uint64_t mask);
  /* Settles paths that reached their reconvergence point or whose lanes all
   * left `live` (they exited), then says what the warp does next. */
  enum sg_reconv_next (*next)(void *st, uint64_t live, struct sg_path *p,
                              struct sg_reconv_log *log);
  /* The running path stopped at pc in frame: where it goes on. */
  void (*park)(void *st, uint64_t pc, uint32_t frame);
  /* The running path's lanes disagree at a branch in frame `frame`: taken
   * lanes go to target, the others to fallthrough; reconv is the branch's
   * reconvergence PC from the table (SG_RECONV_EXIT: the function's exit). */
  void (*diverge)(void *st, uint64_t taken, uint64_t target, uint64_t fallthrough,
                  uint64_t reconv, uint32_t frame, struct sg_reconv_log *log);
  /* The running path, whose reconvergence point is SG_RECONV_RETURN,
   * returned to target in its reconvergence frame: that is where its
   * siblings rejoin it. */
  void (*returned)(void *st, uint64_t target);
  /* The running path waits at the barrier it is parked at. */
  void (*wait)(void *st);
  /* The barrier the warp waited at was released: every waiting path goes on
   * after its barrier instruction. */
  void (*release)(void *st);
  /* Sets the running path aside for another that can run (a timing model
   * hides a path's latency with another's); false when there is none.
   * NULL for a policy that runs one path at a time. */
  bool (*yield)(void *st, uint64_t live);
};
extern const struct sg_reconv_ops sg_reconv_ipdom, sg_reconv_multipath;
/* The ops of a policy (sg_sim_config.reconv). */
const struct sg_reconv_ops *sg_reconv_policy_ops(enum sg_reconv_policy policy);

/* ---- Warps, CTAs and the core ---------------------------------------- */

#define SG_JIT_SLOTS 32

enum sg_warp_state { SG_WARP_READY, SG_WARP_BARRIER, SG_WARP_DONE, SG_WARP_FAULT };

struct sg_cta_slot;

struct sg_warp {
  uint64_t x[SG_NXREGS][SG_MAX_WARP_SIZE]; /* lane-contiguous */
  uint64_t f[32][SG_MAX_WARP_SIZE];        /* singles NaN-boxed */
  uint32_t fcsr[SG_MAX_WARP_SIZE];         /* frm << 5 | fflags */
  uint64_t lr_addr[SG_MAX_WARP_SIZE], lr_val[SG_MAX_WARP_SIZE];
  uint64_t lr_valid;
  uint64_t lanes;    /* lanes that run (init mask) */
  uint64_t exited;   /* lanes that executed sg.exit */
  bool frm_any;      /* some lane has a non-zero frm: dynamic rm is slow */
  uint32_t id;       /* index in its CTA */
  struct sg_cta_slot *cta;
  enum sg_warp_state state;
  uint64_t barrier_pc; /* the barrier it waits at (state SG_WARP_BARRIER) */
  _Alignas(16) unsigned char reconv[]; /* the policy's state */
};

/* A CTA resident on the core: its ids, its view of memory (local window and
 * stacks are its own), its warps, and its entry in the core's barrier table
 * (seed 003: how many of its warps wait at its barrier, out of those still
 * running). */
struct sg_cta_slot {
  const struct sg_cta_desc *desc;
  struct sg_memmap mem;
  const struct sg_region *last; /* translation cache: last region hit */
  /* Translated blocks' translation cache: the region each memory
   * instruction hit last (by its slot, SG_JIT_SLOTS), NULL when none yet:
   * a warp reading two buffers and writing a third would miss `last` at
   * every access. */
  const struct sg_region *hit[SG_JIT_SLOTS];
  uint64_t index;               /* linear CTA index */
  uint32_t ntid_recip[2];       /* ceil(2^31 / ntid[d]), d = x, y: local ids without a
                                 * division in translated blocks (sg_jit.c) */
  uint64_t insns;               /* warp instructions it ran (watchdog, CSR cycle) */
  uint64_t jit_counted;         /* of those, how many counted toward translation */
  uint32_t slot;                /* its number on the core: its barrier's id */
  uint32_t first_warp, num_warps; /* its warps: core->warps[first_warp ..] */
  uint32_t running, at_barrier; /* warps not done; of those, waiting at the barrier */
};

struct sg_core {
  struct sg_sim_config cfg;
  uint32_t id;
  const struct sg_reconv_ops *reconv;
  struct sg_warp **warps;       /* warp slots, allocated as CTAs need them */
  uint32_t nwarps_alloc;
  uint32_t nwarps_bound;        /* slots given a CTA since the last sg_core_bind */
  struct sg_cta_slot *ctas;     /* CTA slots (cfg.cta_slots); desc NULL when free */
  struct sg_cta_slot *cur;      /* the CTA whose warp runs (consumers' findings) */
  bool timed;                   /* records carry `now` (sg_core_set_time) */
  uint64_t now;
  const struct sg_code *code;
  uint64_t zero_x, zero_f;      /* registers warp set-up zeroes (live at the entry) */
  bool init_sp;                 /* ... and whether it sets sp (read before written) */
  const struct sg_jit_entry *jit; /* the fast loop's translated blocks, or NULL */
  /* The kernel (program sg_code.id, entry) whose translation this core
   * last got, and its blocks: CTAs of a launch on several host threads
   * would otherwise contend for the program's translation lock. */
  uint64_t jit_code, jit_entry_pc;
  const struct sg_jit_entry *jit_entries;
  struct sg_fault *fault;
  struct sg_findings *findings; /* NULL: every finding ends the CTA */
  struct sg_hook *const *hooks; /* consumers: the observed loop calls them */
  uint32_t nhooks;
  /* Every consumer follows translated blocks (sg_block_ops): the observed
   * loop runs them too. The block running follows the limits of one of
   * them (block_hook, which its notes go to); two that limit it would each
   * want it to stop where the other lets it go on, so they get the
   * interpreter. block_log: its memory accesses, when a consumer asks for
   * them (the block writes them, sg_jit.c). */
  bool follow_blocks;
  bool fence_flags; /* a consumer reads sg.barrier records' data */
  struct sg_hook *block_hook;
  struct sg_block_log *block_log, *log_room; /* (log_room: kept from launch to launch) */
  uint32_t events;              /* the event kinds some consumer wants (SG_EV_BIT) */
  struct sg_insn_record rec;    /* the observed loop's record */
  bool stopped;                 /* a consumer's finding ends the CTA (c->fault filled) */
  bool fp_held;                 /* sg_core_hold_fp: the host's FP environment is in host_env */
  fenv_t host_env;
};

/* Runs warp w for at most budget instructions; returns its new state
 * (READY when the budget ran out). */
enum sg_warp_state sg_warp_run(struct sg_core *c, struct sg_warp *w, uint64_t budget);
/* The PC and lanes warp w runs next (READY), or the state it reached. */
enum sg_warp_state sg_warp_peek(struct sg_core *c, struct sg_warp *w, uint64_t *pc,
                                uint64_t *mask);
/* Performs deferred atomic r of warp w (sg_core_atomic_complete). */
void sg_warp_atomics(struct sg_warp *w, const struct sg_insn_record *r);

/* Hands event e of CTA cs to the consumers, its ids and w's filled in (w
 * NULL: CTA-wide). */
void sg_core_emit(struct sg_core *c, const struct sg_cta_slot *cs, const struct sg_warp *w,
                  struct sg_event *e);
/* Does a consumer want events of kind k? Checked before one is built. */
/* Fills r->lo, hi and bits from the addresses of its lanes in mask. */
static inline void sg_record_span(struct sg_insn_record *r, uint64_t mask) {
  uint64_t lo = UINT64_MAX, hi = 0, bits = 0;
  for (uint64_t m = mask; m; m &= m - 1) {
    uint64_t a = r->addr[__builtin_ctzll(m)];
    lo = a < lo ? a : lo;
    hi = a > hi ? a : hi;
    bits |= a;
  }
  r->lo = lo, r->hi = hi, r->bits = bits;
}

static inline bool sg_core_wants(const struct sg_core *c, enum sg_event_kind k) {
  return c->nhooks && (c->events & SG_EV_BIT(k));
}

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

/* One lane's access of size bytes at a by a unit other than the load/store
 * path (the texture unit): checked as loads and stores are, with the same
 * findings (`what` names the access: "image read"). Returns the host
 * pointer, or NULL to skip the access (a read then sees zeros); *stop is
 * set when the CTA must end. */
uint8_t *sg_core_access(struct sg_core *c, const struct sg_warp *w, uint64_t pc, unsigned lane,
                        uint64_t a, unsigned size, uint32_t perm, const char *what, bool *stop);

/* The texture unit (sg_tex.c): executes one image instruction u at pc for
 * the lanes of mask; with rec (the observed loop) it notes the texels each
 * lane touched. False when the CTA must end (c->fault is filled). */
bool sg_tex_exec(struct sg_core *c, struct sg_warp *w, const struct sg_uop *u, uint64_t pc,
                 uint64_t mask, struct sg_insn_record *rec);

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
