/* Transpose with the five strategies of the C++ AMP sample (seed 003):
 * validation, then the plan (transpose_plan.c), the programs it names,
 * and the one to three dispatches each window's route needs. */
#include "ops/operation.h"
#include "plan/transpose_plan.h"

#include <string.h>

static gt_status run_simple(gt_context *ctx, const gt_program_key *key, gt_bound_view src, gt_bound_view dst) {
  const gt_program *prog;
  GT__TRY(gt__program_get(ctx, key, &prog));
  gt_bound_view views[2] = {src, dst};
  return gt__dispatch(ctx, prog, views, 2, gt__div_up(src.view.cols, GT_SIMPLE_GROUP_COLS),
                      gt__div_up(src.view.rows, GT_SIMPLE_GROUP_ROWS), gt__group_moved_bytes(key));
}

/* A tiled kernel over whole tiles: a guarded kernel gets the padded
 * extent (seed 001), an unguarded one the truncated extent (seed 000). */
static gt_status run_tiled(gt_context *ctx, const gt_program_key *key, gt_bound_view src, gt_bound_view dst) {
  const gt_program *prog;
  GT__TRY(gt__program_get(ctx, key, &prog));
  uint32_t tile = key->tile;
  gt_extent e = {src.view.rows, src.view.cols};
  gt_extent grid = (key->variant & GT_VARIANT_GUARDED) ? gt_extent_pad(e, tile, tile)
                                                            : gt_extent_truncate(e, tile, tile);
  glProgramUniform1ui(prog->name, prog->stripe_tiles_loc,
                      gt__stripe_tiles(ctx, (uint64_t)src.view.pitch * gt_type_size(src.view.type), tile));
  gt_bound_view views[2] = {src, dst};
  return gt__dispatch(ctx, prog, views, 2, grid.cols / tile, grid.rows / tile, gt__group_moved_bytes(key));
}

/* One dispatch of prog, SIMPLE or tiled, over the whole of src. */
static gt_status run_program(gt_context *ctx, const gt_program_key *key, gt_bound_view src, gt_bound_view dst) {
  if (key->kernel == GT_KERNEL_TRANSPOSE_SIMPLE) return run_simple(ctx, key, src, dst);
  return run_tiled(ctx, key, src, dst);
}

/* Seed 000, option B: an even tiled kernel, whole, on the main section M
 * of its tile, and band on the bottom band B and on the right band R (which
 * includes the corner). TRUNCATE_B's bands run SIMPLE; AUTO's run the
 * padded kernel. */
static gt_status run_main_and_bands(gt_context *ctx, const gt_program_key *whole, const gt_program_key *band,
                                    gt_bound_view src, gt_bound_view dst) {
  uint32_t rows = src.view.rows, cols = src.view.cols, tile = whole->tile;
  gt_extent m = gt_extent_truncate((gt_extent){rows, cols}, tile, tile);
  if (m.rows && m.cols) {
    GT__TRY(run_tiled(ctx, whole, gt__bound_section(&src, 0, 0, m.rows, m.cols),
                      gt__bound_section(&dst, 0, 0, m.cols, m.rows)));
  }
  if (m.rows < rows && m.cols) {
    GT__TRY(run_program(ctx, band, gt__bound_section(&src, m.rows, 0, rows - m.rows, m.cols),
                        gt__bound_section(&dst, 0, m.rows, m.cols, rows - m.rows)));
  }
  if (m.cols < cols) {
    GT__TRY(run_program(ctx, band, gt__bound_section(&src, 0, m.cols, rows, cols - m.cols),
                        gt__bound_section(&dst, m.cols, 0, cols - m.cols, rows)));
  }
  return GT_OK;
}

/* The 4x4 blocks by transpose_quads, then the bottom rows and right
 * columns that make no whole invocation's blocks (4 columns by 4 rows, 8
 * with GT_VARIANT_PAIRS) by SIMPLE (seed 000's option B).
 * As uvec4s (both views' rows 16-byte aligned) by the plain program, else
 * by its GT_ELEMENTS variant. */
static gt_status run_quads(gt_context *ctx, const gt_program_key *key, const gt_program_key *simple,
                           bool uvec4s, gt_bound_view s, gt_bound_view t) {
  const gt_program *quads;
  GT__TRY(gt__program_get(ctx, key, &quads));
  uint32_t block_rows = gt__program_elements(key) / 4; /* an invocation's source rows, 4 columns wide */
  uint32_t rows = s.view.rows, cols = s.view.cols;
  uint32_t main_rows = rows / block_rows * block_rows, main_cols = cols / 4 * 4;
  gt_bound_view views[2] = {gt__bound_section(&s, 0, 0, main_rows, main_cols),
                            gt__bound_section(&t, 0, 0, main_cols, main_rows)};
  for (int i = 0; i < 2 && uvec4s; i++) {
    /* cols, offset and pitch in uvec4s; rows stay elements. */
    views[i].view.cols /= 4;
    views[i].view.pitch /= 4;
    views[i].elem_offset /= 4;
  }
  GT__TRY(gt__dispatch(ctx, quads, views, 2, gt__div_up(main_cols / 4, key->group_cols),
                       gt__div_up(main_rows / block_rows, key->group_rows), gt__group_moved_bytes(key)));
  if (main_rows < rows)
    GT__TRY(run_simple(ctx, simple, gt__bound_section(&s, main_rows, 0, rows - main_rows, main_cols),
                       gt__bound_section(&t, 0, main_rows, main_cols, rows - main_rows)));
  if (main_cols < cols)
    GT__TRY(run_simple(ctx, simple, gt__bound_section(&s, 0, main_cols, rows, cols - main_cols),
                       gt__bound_section(&t, main_cols, 0, cols - main_cols, rows)));
  return GT_OK;
}

/* AUTO's 2- and 1-byte transposes whose rows lie on words (transpose_words):
 * the main section, whose rows and columns are multiples of the unit, as
 * blocks of words, then the bands beside it (seed 000's option B): by
 * words again where the main section moved uvec4s, else by the packed
 * tiled kernel. The main section's words hold none of the bands'
 * elements, so no word is written twice. The unit: a word's elements, or
 * 4 words' where transpose_words moves uvec4s (both views' rows 16-byte
 * aligned). */
static gt_status run_words(gt_context *ctx, const gt_program_key *keys, gt_bound_view s, gt_bound_view t,
                           bool uvec4s) {
  uint32_t pack = gt__pack(s.view.type), rows = s.view.rows, cols = s.view.cols;
  const gt_program *words;
  GT__TRY(gt__program_get(ctx, &keys[uvec4s ? GT_TRANSPOSE_WORDS_UVEC4 : GT_TRANSPOSE_WORDS], &words));
  uint32_t unit = uvec4s ? 4 * pack : pack, main_rows = rows / unit * unit, main_cols = cols / unit * unit;
  if (main_rows && main_cols) {
    gt_bound_view views[2] = {gt__bound_section(&s, 0, 0, main_rows, main_cols),
                              gt__bound_section(&t, 0, 0, main_cols, main_rows)};
    for (int i = 0; i < 2; i++) { /* cols, offset and pitch in units; rows stay elements */
      views[i].view.cols /= unit;
      views[i].view.pitch /= unit;
      views[i].elem_offset /= unit;
    }
    uint32_t unit_rows = main_rows / unit, unit_cols = main_cols / unit;
    uint32_t group_cols = words->key.group_cols, group_rows = words->key.group_rows;
    if (words->key.variant & GT_VARIANT_REGISTERS) {
      GT__TRY(gt__dispatch(
          ctx, words, views, 2, gt__div_up(unit_cols, group_cols), gt__div_up(unit_rows, group_rows),
          gt__moved_bytes((uint64_t)group_cols * group_rows * unit * unit * gt_type_size(s.view.type))));
    } else {
      /* A tile spans GT_WORDS_TILE * pack source rows. */
      glProgramUniform1ui(
          words->name, words->stripe_tiles_loc,
          gt__stripe_tiles(ctx, (uint64_t)s.view.pitch * gt_type_size(s.view.type), GT_WORDS_TILE * pack));
      GT__TRY(gt__dispatch(ctx, words, views, 2, gt__div_up(unit_cols, GT_WORDS_TILE),
                           gt__div_up(unit_rows, GT_WORDS_TILE),
                           gt__moved_bytes((uint64_t)GT_WORDS_TILE * GT_WORDS_TILE * pack * 4)));
    }
  }
  gt_bound_view band_src[2] = {gt__bound_section(&s, main_rows, 0, rows - main_rows, main_cols),
                               gt__bound_section(&s, 0, main_cols, rows, cols - main_cols)};
  gt_bound_view band_dst[2] = {gt__bound_section(&t, 0, main_rows, main_cols, rows - main_rows),
                               gt__bound_section(&t, main_cols, 0, cols - main_cols, rows)};
  for (int i = 0; i < 2; i++) {
    if (band_src[i].view.rows == 0 || band_src[i].view.cols == 0) continue;
    GT__TRY(uvec4s ? run_words(ctx, keys, band_src[i], band_dst[i], false)
                   : run_program(ctx, &keys[GT_TRANSPOSE_TILED], band_src[i], band_dst[i]));
  }
  return GT_OK;
}

/* One window of src onto dst by the route the plan gives it. */
static gt_status run_window(gt_context *ctx, const gt_transpose_choices *plan, gt_bound_view s, gt_bound_view t) {
  const gt_program_key *k = plan->op.keys;
  switch (gt__transpose_route(plan, &s, &t)) {
  case GT_ROUTE_SIMPLE: return run_simple(ctx, &k[GT_TRANSPOSE_SIMPLE], s, t);
  case GT_ROUTE_QUADS: return run_quads(ctx, &k[GT_TRANSPOSE_QUADS], &k[GT_TRANSPOSE_SIMPLE], true, s, t);
  case GT_ROUTE_QUAD_ELEMENTS:
    return run_quads(ctx, &k[GT_TRANSPOSE_QUAD_ELEMENTS], &k[GT_TRANSPOSE_SIMPLE], false, s, t);
  case GT_ROUTE_MAIN_AND_BANDS:
    return run_main_and_bands(ctx, &k[GT_TRANSPOSE_TILED], &k[GT_TRANSPOSE_SIMPLE], s, t);
  case GT_ROUTE_BIG_AND_BANDS:
    return run_main_and_bands(ctx, &k[GT_TRANSPOSE_BIG], &k[GT_TRANSPOSE_TILED], s, t);
  case GT_ROUTE_WORDS: return run_words(ctx, k, s, t, false);
  case GT_ROUTE_WORDS_UVEC4: return run_words(ctx, k, s, t, true);
  default: return run_tiled(ctx, &k[GT_TRANSPOSE_TILED], s, t);
  }
}

/* Every window the plan has: the views whole, or their blocks. */
/* Every window the plan has: the views whole, or their blocks; in place,
 * the one view. */
static gt_status execute(gt_context *ctx, const gt_transpose_choices *plan, gt_view src, gt_view dst) {
  gt_bound_view s, t;
  if (plan->in_place) {
    GT__TRY(gt__view_bind(ctx, src, &s));
    return gt__transpose_inplace(ctx, &s, plan->strategy, &plan->op.keys[GT_TRANSPOSE_SIMPLE],
                                 &plan->op.keys[GT_TRANSPOSE_TILED]);
  }
  if (!plan->op.in_blocks) {
    GT__TRY(gt__view_bind(ctx, src, &s));
    GT__TRY(gt__view_bind(ctx, dst, &t));
    return run_window(ctx, plan, s, t);
  }
  gt__log(ctx, GT_LOG_DEBUG, "transpose: views longer than a storage block: blocks of %ux%u",
          plan->op.blocks.block[0], plan->op.blocks.block[1]);
  uint32_t at[3] = {0, 0, 0}, size[3];
  do {
    gt__block_sides(&plan->op.blocks, at, size);
    GT__TRY(gt__view_bind(ctx, gt_section(src, at[0], at[1], size[0], size[1]), &s));
    GT__TRY(gt__view_bind(ctx, gt_section(dst, at[1], at[0], size[1], size[0]), &t));
    GT__TRY(run_window(ctx, plan, s, t));
  } while (gt__block_next(&plan->op.blocks, at));
  return GT_OK;
}

/* The checks that need the buffers, after the plan: views inside their
 * buffers first (the overlap test walks rows, and a view far larger than
 * its buffer would make it slow), then aliasing. The one aliasing
 * honoured: src and dst the very same square view, transposed in place
 * (the shape check makes it square), over one binding. Any other overlap
 * would make the result depend on the order invocations run in. */
static gt_status check_buffers(gt_context *ctx, const gt_transpose_choices *plan, gt_view src, gt_view dst) {
  GT__TRY(gt__view_check_buffer(ctx, src));
  if (plan->in_place) {
    gt_bound_view v;
    return gt__view_bind(ctx, src, &v);
  }
  GT__TRY(gt__view_check_buffer(ctx, dst));
  if (gt_views_alias(src, dst)) {
    gt__log(ctx, GT_LOG_ERROR, "transpose: dst overlaps src in buffer %u but is not the same view",
            src.buffer);
    return GT_ERR_ALIASED;
  }
  return GT_OK;
}

gt_status gt_transpose(gt_context *ctx, gt_view src, gt_view dst, const gt_transpose_desc *d) {
  static const gt_transpose_desc defaults;
  if (d == NULL) d = &defaults;
  GT__TRY(gt__context_check(ctx));
  GT__TRY(gt__transpose_check(d, src, dst));
  gt_transpose_choices plan;
  GT__TRY(gt__plan_taken(ctx, "transpose", gt__transpose_choose(ctx, src, dst, d, &plan), &plan.op));
  GT__TRY(check_buffers(ctx, &plan, src, dst));
  GT__TRY(gt__plan_build(ctx, &plan.op, "a transpose of 2- or 1-byte elements"));
  return gt__operation_end(ctx, execute(ctx, &plan, src, dst), GT__BUFFER_WRITE_BARRIERS, "gt_transpose");
}
