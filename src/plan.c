/* The steps every operation's plan takes between planning and running:
 * its refusal logged, its programs built (plan.h). */
#include "operation.h"
#include "plan.h"

void gt__plan_because(gt_op_plan *p, const char *why) { gt__reason_add(p->reason, sizeof p->reason, why); }

gt_status gt__plan_taken(gt_context *ctx, const char *what, gt_status s, const gt_op_plan *p) {
  if (s != GT_OK && p->refusal[0]) gt__log(ctx, GT_LOG_ERROR, "%s: %s", what, p->refusal);
  return s;
}

gt_status gt__plan_build(gt_context *ctx, const gt_op_plan *p, const char *what) {
  if (p->needs_atomics) GT__TRY(gt__need_atomics(ctx, what));
  return gt__programs_build(ctx, p->keys, GT_PLAN_SLOTS);
}
