#include "plan_contexts.h"

#include "harness.h"
#include "plan/matmul_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gt_status plan_context(gt_context *ctx, const gt_device_entry *entry, int limits, gt_strategy transpose) {
  gt_context_desc d;
  memset(&d, 0, sizeof d);
  d.transpose_strategy = transpose;
  return gt__context_for_plans(ctx, entry, limits, &d, true);
}

uint32_t plan_extent(uint32_t *rng) {
  static const uint32_t sides[] = {1,  2,  3,  4,  5,  7,  8,   9,   15,  16, 17,
                                   31, 32, 33, 63, 64, 65, 100, 128, 129, 200};
  return sides[gt_test_rand(rng) % (sizeof sides / sizeof sides[0])];
}

gt_view plan_view(uint32_t *rng, gt_gl_name buffer, uint32_t rows, uint32_t cols, gt_type type) {
  gt_view v = {buffer, 0, rows, cols, 0, type};
  switch (gt_test_rand(rng) % 4) {
  case 0: break;
  case 1: v.offset = gt_test_rand(rng) % 7; break;
  case 2: v.pitch = cols + gt_test_rand(rng) % 5; break;
  default:
    v.offset = 64 * (gt_test_rand(rng) % 3);
    v.pitch = (cols + 15) / 16 * 16;
    break;
  }
  return v;
}

bool plan_is(gt_status s, const gt_plan *plan, const char *what, const char *kernels) {
  if (s != GT_OK) {
    fprintf(stderr, "%s: %s; expected the plan \"%s\"\n", what, gt_status_string(s), kernels);
    return false;
  }
  if (strcmp(plan->kernels, kernels) != 0) {
    fprintf(stderr, "%s: plans \"%s\" (%s); expected \"%s\"\n", what, plan->kernels, plan->reason, kernels);
    return false;
  }
  return true;
}
