/* What every operation does on entry and on exit, in one place: the
 * context check and the strategy and tile checks first; the barriers later
 * work needs and the GL status last, where the first error wins. */
#include "ops/operation.h"

gt_status gt__operation_begin(gt_context *ctx, gt_strategy strategy, uint32_t tile, uint32_t strategies) {
  GT__TRY(gt__context_check(ctx));
  return gt__desc_check(strategy, tile, strategies);
}

gt_status gt__operation_end(gt_context *ctx, gt_status status, GLbitfield barriers, const char *what) {
  /* ES 3.1, "Shader Memory Access Synchronization": later dispatches,
   * transfers or texture reads see these writes only after the barrier. */
  glMemoryBarrier(barriers);
  gt_status gl = gt__gl_status(ctx, what);
  return status != GT_OK ? status : gl;
}

gt_status gt__plan_build(gt_context *ctx, const gt_op_plan *p, const char *what) {
  if (p->needs_atomics) GT__TRY(gt__need_atomics(ctx, what));
  return gt__programs_build(ctx, p->keys, GT_PLAN_SLOTS);
}
