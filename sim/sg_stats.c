/* SPDX-License-Identifier: MIT */
/* SIMT core (DESIGN.md section 4), statistics: per-launch counters summed
 * over CTAs and host threads. */
#include "sg_sim.h"

void sg_stats_add(struct sg_stats *into, const struct sg_stats *from) {
  into->warp_insns += from->warp_insns;
  into->thread_insns += from->thread_insns;
  into->lane_slots += from->lane_slots;
  into->branches += from->branches;
  into->divergent_branches += from->divergent_branches;
  into->barriers += from->barriers;
  into->ctas += from->ctas;
  into->warps += from->warps;
}
