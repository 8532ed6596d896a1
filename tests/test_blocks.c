/* The block planner (src/plan/blocking.c), on the host: over random problems,
 * every block it picks fits each window and the work budget, keeps the
 * minimums and granules, and is not needlessly small. */
#include "check.h"
#include "harness.h"
#include "plan/blocking.h"

#include <stdio.h>
#include <string.h>

static uint32_t rng = 4242;

static uint64_t span(const gt_block_window *w, const uint32_t *block) {
  return (uint64_t)(block[w->row_dim] - 1) * w->pitch + block[w->col_dim];
}

static bool fits(const gt_block_plan *p, const uint32_t *block) {
  for (uint32_t i = 0; i < p->window_count; i++)
    if (span(&p->windows[i], block) > p->max_elements) return false;
  if (p->max_work) {
    double work = 2.0;
    for (uint32_t d = 0; d < p->dims; d++)
      work *= block[d];
    if (work > (double)p->max_work) return false;
  }
  return true;
}

static void random_plan(gt_block_plan *p) {
  memset(p, 0, sizeof *p);
  p->dims = gt_test_rand_range(&rng, 2, 3);
  uint32_t granule = 1u << gt_test_rand_range(&rng, 0, 5);
  bool even = gt_test_rand(&rng) % 4 == 0;
  for (uint32_t d = 0; d < p->dims; d++) {
    p->extent[d] = gt_test_rand_range(&rng, 1, 1u << gt_test_rand_range(&rng, 1, 16));
    if (even) p->extent[d] = (p->extent[d] / granule + 1) * granule;
    p->granule[d] = granule;
    p->min[d] = even ? granule : 0;
    p->weight[d] = d < 2 ? 2 : 1;
  }
  p->limit[p->dims - 1] = gt_test_rand(&rng) % 2 ? 4096 : 0;
  p->window_count = gt_test_rand_range(&rng, 1, 3);
  for (uint32_t i = 0; i < p->window_count; i++) {
    uint32_t r = gt_test_rand(&rng) % p->dims, c = (r + 1 + gt_test_rand(&rng) % (p->dims - 1)) % p->dims;
    p->windows[i] = (gt_block_window){r, c, p->extent[c] + gt_test_rand_range(&rng, 0, 100)};
  }
  p->max_elements = gt_test_rand_range(&rng, 1, 1u << 22);
  p->max_work = gt_test_rand(&rng) % 2 ? (uint64_t)gt_test_rand_range(&rng, 1, 1u << 30) << 4 : 0;
}

int main(void) {
  unsigned long planned = 0, refused = 0;
  for (int n = 0; n < 20000; n++) {
    gt_block_plan p;
    random_plan(&p);
    bool even = p.min[0] != 0; /* TILED_EVEN-like: blocks of whole granules */
    gt_status s = gt__block_plan(&p);
    /* Refused only when the smallest block allowed does not fit. */
    uint32_t smallest[3];
    for (uint32_t d = 0; d < p.dims; d++)
      smallest[d] = p.min[d] ? (p.min[d] < p.extent[d] ? p.min[d] : p.extent[d]) : 1;
    if (s != GT_OK) {
      CHECK_STATUS(s, GT_ERR_UNSUPPORTED);
      CHECK(!fits(&p, smallest));
      refused++;
      continue;
    }
    planned++;
    CHECK(fits(&p, p.block));
    for (uint32_t d = 0; d < p.dims; d++) {
      uint32_t b = p.block[d];
      CHECK(b >= 1 && b <= p.extent[d]);
      if (p.limit[d]) CHECK(b <= p.limit[d]);
      if (p.min[d]) CHECK(b >= p.min[d] || b == p.extent[d]);
      /* Whole granules, unless the block is the whole extent. */
      if (even && b != p.extent[d] && b % p.granule[d] != 0) {
        fprintf(stderr, "dim %u: block %u of %u, granule %u, min %u\n", d, b, p.extent[d], p.granule[d],
                p.min[d]);
        check_failed++;
      }
      /* Not needlessly small: doubling a cut side (within its extent)
       * would break a window or the budget, or the side was cut for
       * another reason (balance keeps the count of blocks). */
      if (b < p.extent[d] && b < 64) {
        uint32_t bigger[3] = {p.block[0], p.block[1], p.block[2]};
        uint32_t count = (p.extent[d] + b - 1) / b;
        bigger[d] = (p.extent[d] + count - 2) / (count - 1 ? count - 1 : 1);
        if (bigger[d] > p.extent[d]) bigger[d] = p.extent[d];
        if (p.limit[d] && bigger[d] > p.limit[d]) continue;
        if (fits(&p, bigger) && !even && bigger[d] >= 4 * b) {
          fprintf(stderr, "block side %u of %u is needlessly small\n", b, p.extent[d]);
          check_failed++;
        }
      }
    }
  }
  printf("%lu plans checked, %lu refused\n", planned, refused);
  return CHECK_SUMMARY();
}
