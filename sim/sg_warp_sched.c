/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), timing mode: warp scheduling policies
 * (config key sched). Each issue scheduler owns the warp slots
 * w = s, s + n, s + 2n ... (n schedulers per core) and, every cycle, tries
 * its resident warps in the order its policy gives, issuing from the first
 * that can issue:
 * - lrr: loose round robin, from the warp after the one that issued last;
 * - gto: greedy then oldest, the warp that issued last while it can, then
 *   the oldest (GPGPU-Sim);
 * - two_level: round robin over a small active set; a warp that waits on
 *   memory leaves it for the oldest pending warp (Narasiman et al. and
 *   GPGPU-Sim's two_level_active);
 * - vortex: seed 003's masks: each cycle a warp from the visible mask, which
 *   is refilled from the active, unstalled, not barrier-bound warps when it
 *   runs empty. */
#include "sg_timing.h"

#define TWO_LEVEL_ACTIVE 6 /* GPGPU-Sim's two_level_active:6 */

const char *sg_sched_policy_name(uint32_t policy) {
  static const char *const names[] = {
#define X(e, n) #n,
      SG_SCHED_POLICIES(X)
#undef X
  };
  return policy < SG_SCHED_NUM ? names[policy] : NULL;
}

void sg_sched_init(struct sg_sched *s, uint32_t policy, uint32_t nslots) {
  *s = (struct sg_sched){.policy = policy, .nslots = nslots, .last = -1};
}

/* Slots of `live` from `from` on, wrapping. */
static uint32_t round_robin(uint64_t live, uint32_t nslots, uint32_t from, uint32_t *order) {
  uint32_t n = 0;
  for (uint32_t k = 0; k < nslots; k++) {
    uint32_t i = (from + k) % nslots;
    if (live >> i & 1)
      order[n++] = i;
  }
  return n;
}

/* Slots of `live` from oldest to youngest (ties: lower slot first). */
static uint32_t oldest_first(uint64_t live, const uint64_t *age, uint32_t *order) {
  uint32_t n = 0;
  for (uint64_t m = live; m; m &= m - 1) {
    uint32_t i = (uint32_t)__builtin_ctzll(m), k = n++;
    for (; k > 0 && age[order[k - 1]] > age[i]; k--)
      order[k] = order[k - 1];
    order[k] = i;
  }
  return n;
}

uint32_t sg_sched_order(struct sg_sched *s, uint64_t live, uint64_t barrier, const uint64_t *age,
                        uint32_t *order) {
  switch (s->policy) {
  case SG_SCHED_LRR:
    return round_robin(live, s->nslots, s->last < 0 ? 0 : (uint32_t)s->last + 1, order);
  case SG_SCHED_GTO: {
    uint32_t n = 0;
    if (s->last >= 0 && (live >> s->last & 1)) {
      order[n++] = (uint32_t)s->last;
      live &= ~(1ull << s->last);
    }
    return n + oldest_first(live, age, order + n);
  }
  case SG_SCHED_TWO_LEVEL: {
    /* Drop finished warps from the active set, fill it from the oldest. */
    uint32_t k = 0;
    uint64_t in = 0;
    for (uint32_t i = 0; i < s->nactive; i++)
      if (live >> s->active[i] & 1) {
        s->active[k++] = s->active[i];
        in |= 1ull << s->active[i];
      }
    s->nactive = k;
    uint32_t rest[64], nrest = oldest_first(live & ~in, age, rest);
    for (uint32_t i = 0; i < nrest && s->nactive < TWO_LEVEL_ACTIVE; i++)
      s->active[s->nactive++] = rest[i];
    for (uint32_t i = 0; i < s->nactive; i++)
      order[i] = s->active[i];
    return s->nactive;
  }
  default: { /* SG_SCHED_VORTEX */
    if (!(s->visible & live))
      s->visible = live & ~barrier & ~s->stalled;
    if (!(s->visible & live))
      s->visible = live & ~barrier;
    uint32_t n = 0;
    for (uint64_t m = s->visible & live; m; m &= m - 1)
      order[n++] = (uint32_t)__builtin_ctzll(m);
    /* the rest still counts for the stall reason of an empty visible set */
    for (uint64_t m = live & ~s->visible; m; m &= m - 1)
      order[n++] = (uint32_t)__builtin_ctzll(m);
    return n;
  }
  }
}

void sg_sched_update(struct sg_sched *s, int32_t issued, uint64_t blocked, uint64_t long_stall) {
  if (issued >= 0)
    s->last = issued;
  switch (s->policy) {
  case SG_SCHED_TWO_LEVEL: {
    /* Warps waiting on memory make room for pending ones; the issuing warp
     * goes to the back of the active round robin. */
    uint32_t k = 0, moved[64], nmoved = 0;
    for (uint32_t i = 0; i < s->nactive; i++) {
      uint32_t w = s->active[i];
      if (long_stall >> w & 1)
        continue;
      if ((int32_t)w == issued)
        moved[nmoved++] = w;
      else
        s->active[k++] = w;
    }
    for (uint32_t i = 0; i < nmoved; i++)
      s->active[k++] = moved[i];
    s->nactive = k;
    break;
  }
  case SG_SCHED_VORTEX:
    if (issued >= 0)
      s->visible &= ~(1ull << issued);
    s->stalled = blocked;
    break;
  default:
    break;
  }
}
