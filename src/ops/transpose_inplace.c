/* In-place transpose: src and dst are one square view. This is the one
 * aliased invocation gltile honours (seed 004): its kernels are built as
 * the aliased variant (no restrict) and bind the view once, read-write. */
#include "ops/operation.h"

/* SIMPLE over the rows x cols of the matrix starting at origin. */
static gt_status run_simple(gt_context *ctx, const gt_program_key *key, const gt_bound_view *v,
                            uint32_t origin_row, uint32_t origin_col, uint32_t rows, uint32_t cols) {
  const gt_program *prog;
  GT__TRY(gt__program_get(ctx, key, &prog));
  glProgramUniform2ui(prog->name, prog->grid_origin_loc, origin_row, origin_col);
  return gt__dispatch(ctx, prog, v, 1, gt__div_up(cols, GT_SIMPLE_GROUP_COLS),
                      gt__div_up(rows, GT_SIMPLE_GROUP_ROWS), gt__group_moved_bytes(key));
}

/* A group swaps a pair of tiles. */
static gt_status run_tiled(gt_context *ctx, const gt_program_key *key, const gt_bound_view *v, uint32_t tiles) {
  const gt_program *prog;
  GT__TRY(gt__program_get(ctx, key, &prog));
  uint64_t tile = key->tile;
  glProgramUniform1ui(
      prog->name, prog->stripe_tiles_loc,
      gt__stripe_tiles(ctx, (uint64_t)v->view.pitch * gt_type_size(v->view.type), (uint32_t)tile));
  return gt__dispatch(ctx, prog, v, 1, tiles, tiles, gt__group_moved_bytes(key));
}

gt_status gt__transpose_inplace(gt_context *ctx, const gt_bound_view *v, gt_strategy strategy,
                                const gt_program_key *simple, const gt_program_key *tiled) {
  uint32_t n = v->view.rows;
  gt__log(ctx, GT_LOG_DEBUG, "transpose: src and dst are one %ux%u view: in place, aliased variant", n, n);
  if (strategy == GT_STRATEGY_SIMPLE) return run_simple(ctx, simple, v, 0, 0, n, n);
  uint32_t tile = tiled->tile, m = n / tile * tile;
  switch (strategy) {
  case GT_STRATEGY_TILED_EVEN: return run_tiled(ctx, tiled, v, n / tile);
  case GT_STRATEGY_TRUNCATE_A: return run_tiled(ctx, tiled, v, m / tile);
  case GT_STRATEGY_TRUNCATE_B: {
    /* The main square's tile pairs, then the band pairs: a right-band
     * element (r, c) swaps with its bottom-band mirror (c, r), and the
     * corner with itself, so a grid over the right band and corner (the
     * columns from m) reaches every pair once. The two parts touch
     * disjoint elements, so no barrier is needed between them (but for
     * packed elements' shared words: dispatch.c). */
    gt_bound_view main_square = gt__bound_section(v, 0, 0, m, m);
    GT__TRY(run_tiled(ctx, tiled, &main_square, m / tile));
    return m < n ? run_simple(ctx, simple, v, 0, m, n, n - m) : GT_OK;
  }
  default: /* TILED_PAD */ return run_tiled(ctx, tiled, v, gt__div_up(n, tile));
  }
}
