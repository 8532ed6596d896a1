/* Transpose with the five strategies of the C++ AMP sample (seed 003):
 * validation, the choice of kernel variant, and the one to three
 * dispatches each strategy needs. */
#include "gt_internal.h"

/* SIMPLE's group: 32 invocations along a source row keep its reads
 * contiguous; 4 rows make 128 invocations, the ES 3.1 minimum. */
enum { SIMPLE_GROUP_COLS = 32, SIMPLE_GROUP_ROWS = 4 };

static gt_status get_simple(gt_context *ctx, uint32_t variant, const gt_program **out) {
  gt_program_key key = {.kernel = GT_KERNEL_TRANSPOSE_SIMPLE,
                        .group_cols = SIMPLE_GROUP_COLS,
                        .group_rows = SIMPLE_GROUP_ROWS,
                        .variant = variant,
                        .elem = GT_U32};
  return gt__program_get(ctx, &key, out);
}

static gt_status get_tiled(gt_context *ctx, gt_kernel kernel, uint32_t tile, uint32_t group_rows,
                           uint32_t variant, const gt_program **out) {
  gt_program_key key = {.kernel = kernel,
                        .tile = tile,
                        .group_cols = tile,
                        .group_rows = group_rows,
                        .variant = variant,
                        .elem = GT_U32};
  return gt__program_get(ctx, &key, out);
}

static gt_status run_simple(gt_context *ctx, const gt_program *prog, gt_bound_view src, gt_bound_view dst) {
  gt_bound_view views[2] = {src, dst};
  return gt__dispatch(ctx, prog, views, 2, gt__div_up(src.view.cols, SIMPLE_GROUP_COLS),
                      gt__div_up(src.view.rows, SIMPLE_GROUP_ROWS));
}

/* A tiled kernel over whole tiles: a guarded kernel gets the padded
 * extent (seed 001), an unguarded one the truncated extent (seed 000). */
static gt_status run_tiled(gt_context *ctx, const gt_program *prog, gt_bound_view src, gt_bound_view dst) {
  uint32_t tile = prog->key.tile;
  gt_extent e = {src.view.rows, src.view.cols};
  gt_extent grid = (prog->key.variant & GT_VARIANT_GUARDED) ? gt_extent_pad(e, tile, tile)
                                                            : gt_extent_truncate(e, tile, tile);
  gt_bound_view views[2] = {src, dst};
  return gt__dispatch(ctx, prog, views, 2, grid.cols / tile, grid.rows / tile);
}

/* Seed 000, option B: TILED_EVEN on the main section M, SIMPLE on the
 * bottom band B and on the right band R (which includes the corner). */
static gt_status run_truncate_b(gt_context *ctx, const gt_program *tiled, const gt_program *simple,
                                gt_bound_view src, gt_bound_view dst) {
  uint32_t rows = src.view.rows, cols = src.view.cols, tile = tiled->key.tile;
  gt_extent m = gt_extent_truncate((gt_extent){rows, cols}, tile, tile);
  if (m.rows && m.cols) {
    GT__TRY(run_tiled(ctx, tiled, gt__bound_section(&src, 0, 0, m.rows, m.cols),
                      gt__bound_section(&dst, 0, 0, m.cols, m.rows)));
  }
  if (m.rows < rows && m.cols) {
    GT__TRY(run_simple(ctx, simple, gt__bound_section(&src, m.rows, 0, rows - m.rows, m.cols),
                       gt__bound_section(&dst, 0, m.rows, m.cols, rows - m.rows)));
  }
  if (m.cols < cols) {
    GT__TRY(run_simple(ctx, simple, gt__bound_section(&src, 0, m.cols, rows, cols - m.cols),
                       gt__bound_section(&dst, m.cols, 0, cols - m.cols, rows)));
  }
  return GT_OK;
}

gt_status gt_transpose(gt_context *ctx, gt_view src, gt_view dst, const gt_transpose_desc *d) {
  static const gt_transpose_desc defaults;
  GT__TRY(gt__context_check(ctx));
  if (d == NULL) d = &defaults;
  GT__CHECK((unsigned)d->strategy <= GT_STRATEGY_TRUNCATE_B, GT_ERR_INVALID_ARGUMENT);
  GT__CHECK(d->tile == 0 || d->tile == 8 || d->tile == 16 || d->tile == 32, GT_ERR_INVALID_ARGUMENT);
  GT__TRY(gt__view_check_fields(src));
  GT__TRY(gt__view_check_fields(dst));
  GT__CHECK(src.type == dst.type, GT_ERR_SHAPE_MISMATCH);
  GT__CHECK(dst.rows == src.cols && dst.cols == src.rows, GT_ERR_SHAPE_MISMATCH);

  gt_strategy strategy = d->strategy == GT_STRATEGY_AUTO ? ctx->auto_strategy : d->strategy;
  uint32_t tile = d->tile ? d->tile : ctx->default_tile;
  /* AUTO's padded kernel drops its guards when the tile divides the
   * extent: on the H100 TILED_EVEN ran 100% of the copy at 4096^2 where
   * TILED_PAD ran 81%. */
  if (d->strategy == GT_STRATEGY_AUTO && strategy == GT_STRATEGY_TILED_PAD && src.rows % tile == 0 &&
      src.cols % tile == 0)
    strategy = GT_STRATEGY_TILED_EVEN;
  uint32_t group_rows = gt__tiled_group_rows(&ctx->limits, tile, tile * (tile + 1) * 4);
  if (strategy != GT_STRATEGY_SIMPLE && group_rows == 0) {
    gt__log(ctx, GT_LOG_ERROR, "tile %u does not fit this device's limits", tile);
    return GT_ERR_UNSUPPORTED;
  }
  if (strategy == GT_STRATEGY_TILED_EVEN && (src.rows % tile || src.cols % tile)) {
    gt__log(ctx, GT_LOG_ERROR, "tiled_even: tile %u does not divide %ux%u", tile, src.rows, src.cols);
    return GT_ERR_SHAPE_MISMATCH;
  }
  /* The one aliasing honoured: src and dst the very same square view,
   * transposed in place (dst's shape check above makes it square). Any
   * other overlap would make the result depend on the order invocations
   * run in. */
  bool in_place = gt__same_view(src, dst);
  if (!in_place && gt_views_alias(src, dst)) {
    gt__log(ctx, GT_LOG_ERROR, "transpose: dst overlaps src in buffer %u but is not the same view",
            src.buffer);
    return GT_ERR_ALIASED;
  }
  gt_bound_view s, t;
  GT__TRY(gt__view_prepare(ctx, src, &s));
  if (in_place) {
    gt_status status = gt__transpose_inplace(ctx, &s, strategy, tile, group_rows);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    gt_status gl = gt__gl_status(ctx, "gt_transpose");
    return status != GT_OK ? status : gl;
  }
  GT__TRY(gt__view_prepare(ctx, dst, &t));

  /* Validation is over. Every program the strategy needs is built before
   * the first dispatch, so a build failure writes nothing. */
  uint32_t variant = 0; /* non-aliased: aliased views were refused above */
  gt_extent main_area = gt_extent_truncate((gt_extent){src.rows, src.cols}, tile, tile);
  bool main_empty = main_area.rows == 0 || main_area.cols == 0;
  const gt_program *simple = NULL, *tiled = NULL;
  switch (strategy) {
  case GT_STRATEGY_SIMPLE: GT__TRY(get_simple(ctx, variant, &simple)); break;
  case GT_STRATEGY_TILED_EVEN:
    GT__TRY(get_tiled(ctx, GT_KERNEL_TRANSPOSE_TILED, tile, group_rows, variant, &tiled));
    break;
  case GT_STRATEGY_AUTO: /* resolved above */
  case GT_STRATEGY_TILED_PAD:
    GT__TRY(
        get_tiled(ctx, GT_KERNEL_TRANSPOSE_TILED, tile, group_rows, variant | GT_VARIANT_GUARDED, &tiled));
    break;
  case GT_STRATEGY_TRUNCATE_A:
    /* With no whole tile there is no main area whose edge could do the
     * leftovers: everything is leftover, which SIMPLE does. */
    if (main_empty)
      GT__TRY(get_simple(ctx, variant, &simple));
    else
      GT__TRY(get_tiled(ctx, GT_KERNEL_TRANSPOSE_TRUNCATE_A, tile, group_rows, variant, &tiled));
    break;
  case GT_STRATEGY_TRUNCATE_B:
    GT__TRY(get_simple(ctx, variant, &simple));
    GT__TRY(get_tiled(ctx, GT_KERNEL_TRANSPOSE_TILED, tile, group_rows, variant, &tiled));
    break;
  }

  gt_status status;
  if (strategy == GT_STRATEGY_TRUNCATE_B)
    status = run_truncate_b(ctx, tiled, simple, s, t);
  else if (tiled != NULL)
    status = run_tiled(ctx, tiled, s, t);
  else
    status = run_simple(ctx, simple, s, t);
  /* ES 3.1, "Shader Memory Access Synchronization": later dispatches and
   * buffer reads must see these writes. */
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  gt_status gl = gt__gl_status(ctx, "gt_transpose");
  return status != GT_OK ? status : gl;
}
