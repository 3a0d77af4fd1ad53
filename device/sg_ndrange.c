/* SPDX-License-Identifier: MIT */
/* DESIGN.md 3, "ND-range to hardware": the grid of CTAs, each CTA's 3-D ids
 * and size, its split into warps (threads x fastest, then y, then z) and the
 * initial lane masks that keep tail threads from ever executing. */
#include <assert.h>
#include <string.h>

#include "sg_device.h"

/* (A launch builds every CTA's descriptor on the thread that runs it, a few
 * tens of nanoseconds of a small work-group: the divisions below are
 * skipped where a size is 1, as unused dimensions' are.) */
void sg_ndrange_grid(const struct sg_ndrange *nd, uint64_t grid[3]) {
  for (int d = 0; d < 3; d++) {
    assert(nd->local_size[d] > 0);
    grid[d] = nd->local_size[d] == 1 ? nd->global_size[d]
                                     : nd->global_size[d] / nd->local_size[d] +
                                           (nd->global_size[d] % nd->local_size[d] != 0);
  }
}

/* Work-items of CTA `ctaid` in dimension d that exist in the ND-range: the
 * local size, or less in the last CTA of a dimension the local size does not
 * divide. (The global offset shifts ids, not which ones exist.) */
static uint64_t real_extent(const struct sg_ndrange *nd, int d, uint64_t ctaid) {
  uint64_t first = ctaid * nd->local_size[d];
  uint64_t left = nd->global_size[d] - first;
  return left < nd->local_size[d] ? left : nd->local_size[d];
}

/* Sets the bits of the count threads from warp w, lane lane on. */
static void set_lanes(uint64_t *mask, uint64_t w, uint64_t lane, uint64_t count,
                      uint32_t warp_size) {
  for (; count; w++, lane = 0) {
    uint64_t n = count < warp_size - lane ? count : warp_size - lane;
    mask[w] |= (n == 64 ? ~0ull : (1ull << n) - 1) << lane;
    count -= n;
  }
}

/* Thread (w, lane) moves on by n threads, without a division. */
static void advance(uint64_t *w, uint64_t *lane, uint64_t n, uint32_t warp_size) {
  for (*lane += n; *lane >= warp_size; (*w)++)
    *lane -= warp_size;
}

void sg_ndrange_cta(const struct sg_ndrange *nd, uint32_t warp_size, uint64_t linear,
                    struct sg_cta_desc *cta) {
  uint64_t grid[3], real[3];
  sg_ndrange_grid(nd, grid);
  assert(warp_size >= 1 && warp_size <= SG_MAX_WARP_SIZE);
  assert(linear < grid[0] * grid[1] * grid[2]);

  /* CTA ids: x fastest, as the seed's increment_x_then_y_then_z. */
  uint64_t ctaid[3] = {linear, 0, 0};
  if (grid[1] > 1 || grid[2] > 1) {
    uint64_t rows = linear / grid[0];
    ctaid[0] = linear - rows * grid[0];
    ctaid[1] = grid[2] == 1 ? rows : rows % grid[1];
    ctaid[2] = grid[2] == 1 ? 0 : rows / grid[1];
  }
  for (int d = 0; d < 3; d++) {
    real[d] = real_extent(nd, d, ctaid[d]);
    cta->ctaid[d] = (uint32_t)ctaid[d];
    cta->nctaid[d] = (uint32_t)grid[d];
    /* A partial group is really smaller; otherwise the CTA keeps the
     * enqueued shape and the threads past the end are masked below. */
    cta->ntid[d] = (uint32_t)(nd->partial_groups ? real[d] : nd->local_size[d]);
  }
  cta->num_threads = cta->ntid[0] * cta->ntid[1] * cta->ntid[2];
  assert(cta->num_threads >= 1 && cta->num_threads <= SG_MAX_CTA_THREADS);
  cta->num_warps = warp_size & (warp_size - 1)
                      ? (cta->num_threads + warp_size - 1) / warp_size
                      : (cta->num_threads + warp_size - 1) >> __builtin_ctz(warp_size);

  /* Thread t of the CTA is lane t % warp_size of warp t / warp_size. A row
   * of the CTA (fixed y, z) holds threads t0 .. t0 + ntid.x - 1, of which
   * the first real.x run; rows past real.y or real.z do not run at all. Lanes
   * past num_threads (the last warp's tail) never get a bit. */
  memset(cta->init_mask, 0, cta->num_warps * sizeof cta->init_mask[0]);
  if (real[0] == cta->ntid[0] && real[1] == cta->ntid[1] && real[2] == cta->ntid[2]) {
    set_lanes(cta->init_mask, 0, 0, cta->num_threads, warp_size); /* all of it runs */
    return;
  }
  /* row by row, the first thread's warp and lane carried from one row to
   * the next */
  uint64_t w = 0, lane = 0;
  for (uint64_t z = 0; z < real[2]; z++) {
    for (uint64_t y = 0; y < real[1]; y++) {
      set_lanes(cta->init_mask, w, lane, real[0], warp_size);
      advance(&w, &lane, cta->ntid[0], warp_size);
    }
    /* past the rows of this z that do not run */
    advance(&w, &lane, (cta->ntid[1] - real[1]) * cta->ntid[0], warp_size);
  }
}
