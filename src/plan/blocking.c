/* Blocks of work that fit the device: each view's window within one
 * storage-block binding, and each matmul dispatch within its FLOP budget. */
#include "plan/blocking.h"

/* Side lengths at least this large are cut at multiples of it: a multiple
 * of every tile and of the register-blocked kernels' 32 and 128. */
enum { COARSE_GRANULE = 128 };

uint64_t gt__max_bound_elements(const gt_limits *l) {
  /* Binding from the aligned byte below a view's start can add up to
   * alignment - 4 bytes in front of it. */
  uint64_t slack = l->storage_offset_alignment - 4;
  if (l->max_storage_block_bytes <= slack) return 0;
  uint64_t elements = (l->max_storage_block_bytes - slack) / 4;
  return elements < UINT32_MAX ? elements : UINT32_MAX;
}

static uint64_t window_span(const gt_block_plan *p, const gt_block_window *w) {
  uint64_t rows = p->block[w->row_dim], cols = p->block[w->col_dim];
  return (rows - 1) * w->pitch + cols;
}

static uint32_t round_down(uint32_t x, uint32_t granule) {
  if (x >= COARSE_GRANULE) return x / COARSE_GRANULE * COARSE_GRANULE;
  return x >= granule ? x / granule * granule : x;
}

/* Halves dimension d, rounded down to the granule; false when it is at its
 * minimum already. */
static bool shrink(gt_block_plan *p, uint32_t d) {
  uint32_t x = p->block[d];
  if (x <= p->min[d]) return false;
  uint32_t half = round_down(x / 2 + x % 2, p->granule[d]);
  if (half >= x) half = x - 1;
  p->block[d] = half < p->min[d] ? p->min[d] : half;
  return true;
}

/* The same number of blocks, as even as the granule allows: 4099 rows in
 * blocks of 1920 become 1408 + 1408 + 1283 rather than 1920 + 1920 + 259. */
static void balance(gt_block_plan *p, uint32_t d) {
  uint32_t x = p->extent[d], b = p->block[d];
  uint32_t count = gt__div_up(x, b);
  uint32_t even = gt__div_up(x, count);
  uint32_t g = b >= COARSE_GRANULE ? COARSE_GRANULE : p->granule[d];
  if (b % g == 0) even = gt__div_up(even, g) * g; /* still <= b */
  if (even >= p->min[d] && even <= b) p->block[d] = even;
}

/* The dimension to cut for less work: the largest block side, weighted. */
static uint32_t heaviest(const gt_block_plan *p) {
  uint32_t best = 0;
  uint64_t best_weight = 0;
  for (uint32_t d = 0; d < p->dims; d++) {
    uint64_t w = (uint64_t)p->block[d] * (p->weight[d] ? p->weight[d] : 1);
    if (p->block[d] > p->min[d] && w > best_weight) {
      best = d;
      best_weight = w;
    }
  }
  return best;
}

gt_status gt__block_plan(gt_block_plan *p) {
  for (uint32_t d = 0; d < p->dims; d++) {
    p->block[d] = p->extent[d];
    if (p->limit[d] && p->block[d] > p->limit[d]) p->block[d] = round_down(p->limit[d], p->granule[d]);
    if (p->min[d] == 0) p->min[d] = 1;
  }
  for (;;) {
    bool shrunk = false, fits = true;
    for (uint32_t i = 0; i < p->window_count && fits; i++) {
      const gt_block_window *w = &p->windows[i];
      if (window_span(p, w) <= p->max_elements) continue;
      fits = false;
      /* The rows times the pitch make most of the span. */
      shrunk = shrink(p, w->row_dim) || shrink(p, w->col_dim);
    }
    if (fits && p->max_work) {
      uint64_t work = 2;
      for (uint32_t d = 0; d < p->dims; d++)
        work *= p->block[d];
      if (work > p->max_work) {
        fits = false;
        shrunk = shrink(p, heaviest(p));
      }
    }
    if (fits) break;
    if (!shrunk) return GT_ERR_UNSUPPORTED;
  }
  for (uint32_t d = 0; d < p->dims; d++)
    balance(p, d);
  return GT_OK;
}

bool gt__block_next(const gt_block_plan *p, uint32_t at[3]) {
  for (int d = (int)p->dims - 1; d >= 0; d--) {
    at[d] += p->block[d];
    if (at[d] < p->extent[d]) return true;
    at[d] = 0;
  }
  return false;
}

void gt__block_sides(const gt_block_plan *p, const uint32_t at[3], uint32_t sides[3]) {
  for (uint32_t d = 0; d < 3; d++)
    sides[d] = d < p->dims ? gt__min_u32(p->block[d], p->extent[d] - at[d]) : 0;
}
