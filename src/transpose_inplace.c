/* In-place transpose: src and dst are one square view. This is the one
 * aliased invocation gltile honours (seed 004): its kernels are built as
 * the aliased variant (no restrict) and bind the view once, read-write. */
#include "gt_internal.h"

static gt_status get(gt_context *ctx, gt_kernel kernel, uint32_t tile, uint32_t group_cols,
                     uint32_t group_rows, uint32_t flags, gt_type elem, const gt_program **out) {
  return gt__program_for(ctx, kernel, tile, group_cols, group_rows, GT_VARIANT_ALIASED | flags, elem, out);
}

/* SIMPLE over the rows x cols of the matrix starting at origin. */
static gt_status run_simple(gt_context *ctx, const gt_program *prog, const gt_bound_view *v,
                            uint32_t origin_row, uint32_t origin_col, uint32_t rows, uint32_t cols) {
  glProgramUniform2ui(prog->name, prog->grid_origin_loc, origin_row, origin_col);
  return gt__dispatch(ctx, prog, v, 1, gt__div_up(cols, GT_SIMPLE_GROUP_COLS),
                      gt__div_up(rows, GT_SIMPLE_GROUP_ROWS),
                      gt__moved_bytes(GT_SIMPLE_GROUP_COLS * GT_SIMPLE_GROUP_ROWS));
}

/* A group swaps a pair of tiles: twice a tile's elements. */
static gt_status run_tiled(gt_context *ctx, const gt_program *prog, const gt_bound_view *v, uint32_t tiles) {
  uint64_t tile = prog->key.tile;
  glProgramUniform1ui(
      prog->name, prog->stripe_tiles_loc,
      gt__stripe_tiles(ctx, (uint64_t)v->view.pitch * gt_type_size(v->view.type), (uint32_t)tile));
  return gt__dispatch(ctx, prog, v, 1, tiles, tiles, gt__moved_bytes(2 * tile * tile));
}

gt_status gt__transpose_inplace(gt_context *ctx, const gt_bound_view *v, gt_strategy strategy, uint32_t tile,
                                uint32_t group_rows) {
  uint32_t n = v->view.rows, m = n / tile * tile;
  gt__log(ctx, GT_LOG_DEBUG, "transpose: src and dst are one %ux%u view: in place, aliased variant", n, n);
  const gt_program *simple = NULL, *tiled = NULL;
  gt_type elem = gt__bits_type(v->view.type); /* a program per element size */
  switch (strategy) {
  case GT_STRATEGY_SIMPLE:
    GT__TRY(get(ctx, GT_KERNEL_TRANSPOSE_INPLACE_SIMPLE, 0, GT_SIMPLE_GROUP_COLS, GT_SIMPLE_GROUP_ROWS, 0,
                elem, &simple));
    return run_simple(ctx, simple, v, 0, 0, n, n);
  case GT_STRATEGY_TILED_EVEN:
    GT__TRY(get(ctx, GT_KERNEL_TRANSPOSE_INPLACE_TILED, tile, tile, group_rows, 0, elem, &tiled));
    return run_tiled(ctx, tiled, v, n / tile);
  case GT_STRATEGY_TRUNCATE_A: {
    GT__TRY(get(ctx, GT_KERNEL_TRANSPOSE_INPLACE_TILED, tile, tile, group_rows, GT_VARIANT_TRUNCATE_A, elem,
                &tiled));
    return run_tiled(ctx, tiled, v, m / tile);
  }
  case GT_STRATEGY_TRUNCATE_B: {
    /* The main square's tile pairs, then the band pairs: a right-band
     * element (r, c) swaps with its bottom-band mirror (c, r), and the
     * corner with itself, so a grid over the right band and corner (the
     * columns from m) reaches every pair once. The two parts touch
     * disjoint elements, so no barrier is needed between them (but for
     * packed elements' shared words: dispatch.c). */
    GT__TRY(get(ctx, GT_KERNEL_TRANSPOSE_INPLACE_TILED, tile, tile, group_rows, 0, elem, &tiled));
    GT__TRY(get(ctx, GT_KERNEL_TRANSPOSE_INPLACE_SIMPLE, 0, GT_SIMPLE_GROUP_COLS, GT_SIMPLE_GROUP_ROWS, 0,
                elem, &simple));
    gt_bound_view main_square = gt__bound_section(v, 0, 0, m, m);
    GT__TRY(run_tiled(ctx, tiled, &main_square, m / tile));
    return m < n ? run_simple(ctx, simple, v, 0, m, n, n - m) : GT_OK;
  }
  default: /* TILED_PAD; AUTO was resolved by the caller */
    GT__TRY(get(ctx, GT_KERNEL_TRANSPOSE_INPLACE_TILED, tile, tile, group_rows, GT_VARIANT_GUARDED, elem,
                &tiled));
    return run_tiled(ctx, tiled, v, gt__div_up(n, tile));
  }
}
