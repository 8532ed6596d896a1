/* What every operation's plan shares (plan.h): its reasons, its refusal
 * logged, the checks of a desc's strategy and tile. */
#include "plan/plan.h"
#include "plan/context.h"

#include <stdio.h>

void gt__plan_because(gt_op_plan *p, const char *why) { gt__reason_add(p->reason, sizeof p->reason, why); }

gt_status gt__plan_view_blocks(const gt_context *ctx, gt_view src, gt_view dst, bool transposed,
                               const uint32_t granule[2], uint32_t least, gt_op_plan *op) {
  gt_block_plan *b = &op->blocks;
  b->dims = 2;
  b->extent[0] = src.rows;
  b->extent[1] = src.cols;
  b->granule[0] = granule[0];
  b->granule[1] = granule[1];
  b->min[0] = b->min[1] = least;
  b->windows[0] = (gt_block_window){0, 1, gt__view_pitch(src)};
  b->windows[1] = transposed ? (gt_block_window){1, 0, gt__view_pitch(dst)}
                             : (gt_block_window){0, 1, gt__view_pitch(dst)};
  b->window_count = 2;
  b->max_elements = gt__max_bound_elements(&ctx->limits);
  if (gt__block_plan(b) != GT_OK) {
    snprintf(op->refusal, sizeof op->refusal, "no block of %ux%u fits a %llu-byte storage block", src.rows,
             src.cols, (unsigned long long)ctx->limits.max_storage_block_bytes);
    return GT_ERR_UNSUPPORTED;
  }
  return GT_OK;
}

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
