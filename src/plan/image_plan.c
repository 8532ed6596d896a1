/* The plan of an image transpose or quarter turn: AUTO runs the context's
 * transpose choice as far as images have it. No GL here, so the host
 * tests walk it over every device entry. */
#include "plan/image_plan.h"

#include <stdio.h>
#include <string.h>

static void because(gt_image_choices *p, const char *why) {
  gt__reason_add(p->op.reason, sizeof p->op.reason, why);
}

gt_status gt__image_choose(const gt_context *ctx, gt_image src, uint32_t turns, const gt_transpose_desc *d,
                           gt_image_choices *p) {
  memset(p, 0, sizeof *p);
  uint32_t tile = d->tile ? d->tile : ctx->default_tile;
  bool even = src.width % tile == 0 && src.height % tile == 0;
  /* SIMPLE stays SIMPLE; any tiled choice (TRUNCATE_A and TRUNCATE_B
   * included, which have no image kernels) runs TILED_PAD, or TILED_EVEN
   * where the tile divides both extents, as gt_transpose's AUTO does. */
  gt_strategy strategy = d->strategy;
  if (strategy == GT_STRATEGY_AUTO) {
    because(p, ctx->auto_strategy == ctx->device->transpose ? "device table" : "context desc");
    strategy = ctx->auto_strategy == GT_STRATEGY_SIMPLE ? GT_STRATEGY_SIMPLE
               : even                                   ? GT_STRATEGY_TILED_EVEN
                                                        : GT_STRATEGY_TILED_PAD;
    if (strategy == GT_STRATEGY_TILED_EVEN) because(p, "tile divides: no guards");
  } else {
    because(p, "caller's desc");
  }
  /* A half turn keeps every texel's row and column apart: no tile to
   * transpose through. */
  bool swaps = turns != 2;
  if (!swaps && strategy != GT_STRATEGY_SIMPLE) {
    strategy = GT_STRATEGY_SIMPLE;
    because(p, "half turn: simple");
  }
  /* Shared tile bytes as image_common.glsl lays them out. */
  uint32_t shared_bytes = src.format == GT_FORMAT_RGBA8 ? tile * tile * 16 : tile * (tile + 1) * 4;
  uint32_t group_rows = gt__tiled_group_rows(ctx, tile, shared_bytes);
  if (strategy != GT_STRATEGY_SIMPLE && group_rows == 0) {
    snprintf(p->op.refusal, sizeof p->op.refusal, "tile %u does not fit this device's limits", tile);
    return GT_ERR_UNSUPPORTED;
  }
  if (strategy == GT_STRATEGY_TILED_EVEN && !even) {
    snprintf(p->op.refusal, sizeof p->op.refusal, "tiled_even: tile %u does not divide %ux%u", tile, src.width,
             src.height);
    return GT_ERR_SHAPE_MISMATCH;
  }
  bool simple = strategy == GT_STRATEGY_SIMPLE;
  p->strategy = strategy;
  p->op.keys[0] = (gt_program_key){.kernel = simple ? GT_KERNEL_IMAGE_SIMPLE : GT_KERNEL_IMAGE_TILED,
                            .tile = simple ? 0 : tile,
                            .group_cols = simple ? GT_SIMPLE_GROUP_COLS : tile,
                            .group_rows = simple ? GT_SIMPLE_GROUP_ROWS : group_rows,
                            .variant = (turns << GT_VARIANT_ROTATE_SHIFT) |
                                       (strategy == GT_STRATEGY_TILED_PAD ? GT_VARIANT_GUARDED : 0),
                            .format = src.format};
  p->step_cols = simple ? GT_SIMPLE_GROUP_COLS : tile;
  p->step_rows = simple ? GT_SIMPLE_GROUP_ROWS : tile;
  return GT_OK;
}
