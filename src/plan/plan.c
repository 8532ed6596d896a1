/* What every operation's plan shares (plan.h): its reasons, its refusal
 * logged, the checks of a desc's strategy and tile. */
#include "plan/plan.h"

void gt__plan_because(gt_op_plan *p, const char *why) { gt__reason_add(p->reason, sizeof p->reason, why); }

gt_status gt__plan_taken(gt_context *ctx, const char *what, gt_status s, const gt_op_plan *p) {
  if (s != GT_OK && p->refusal[0]) gt__log(ctx, GT_LOG_ERROR, "%s: %s", what, p->refusal);
  return s;
}

bool gt__tile_valid(uint32_t tile) { return tile == 0 || tile == 8 || tile == 16 || tile == 32; }

gt_status gt__desc_check(gt_strategy strategy, uint32_t tile, uint32_t strategies) {
  GT__CHECK((unsigned)strategy < 32 && (strategies >> (unsigned)strategy & 1u), GT_ERR_INVALID_ARGUMENT);
  GT__CHECK(gt__tile_valid(tile), GT_ERR_INVALID_ARGUMENT);
  return GT_OK;
}
