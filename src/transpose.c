/* Transpose with the five strategies of the C++ AMP sample (seed 003):
 * validation, then the plan (transpose_plan.c), the programs it names,
 * and the one to three dispatches each window's route needs. */
#include "operation.h"
#include "transpose_plan.h"

#include <string.h>

static gt_status run_simple(gt_context *ctx, const gt_program_key *key, gt_bound_view src, gt_bound_view dst) {
  const gt_program *prog;
  GT__TRY(gt__program_get(ctx, key, &prog));
  gt_bound_view views[2] = {src, dst};
  return gt__dispatch(ctx, prog, views, 2, gt__div_up(src.view.cols, GT_SIMPLE_GROUP_COLS),
                      gt__div_up(src.view.rows, GT_SIMPLE_GROUP_ROWS),
                      gt__moved_bytes(GT_SIMPLE_GROUP_COLS * GT_SIMPLE_GROUP_ROWS));
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
  return gt__dispatch(ctx, prog, views, 2, grid.cols / tile, grid.rows / tile,
                      gt__moved_bytes((uint64_t)tile * tile));
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
 * columns that make no whole block by SIMPLE (seed 000's option B).
 * As uvec4s (both views' rows 16-byte aligned) by the plain program, else
 * by its GT_ELEMENTS variant. */
static gt_status run_quads(gt_context *ctx, const gt_program_key *key, const gt_program_key *simple,
                           bool uvec4s, gt_bound_view s, gt_bound_view t) {
  const gt_program *quads;
  GT__TRY(gt__program_get(ctx, key, &quads));
  uint32_t rows = s.view.rows, cols = s.view.cols, rows4 = rows / 4 * 4, cols4 = cols / 4 * 4;
  gt_bound_view views[2] = {gt__bound_section(&s, 0, 0, rows4, cols4),
                            gt__bound_section(&t, 0, 0, cols4, rows4)};
  for (int i = 0; i < 2 && uvec4s; i++) {
    /* cols, offset and pitch in uvec4s; rows stay elements. */
    views[i].view.cols /= 4;
    views[i].view.pitch /= 4;
    views[i].elem_offset /= 4;
  }
  GT__TRY(gt__dispatch(ctx, quads, views, 2, gt__div_up(cols4 / 4, GT_QUADS_GROUP_COLS),
                       gt__div_up(rows4 / 4, GT_QUADS_GROUP_ROWS),
                       gt__moved_bytes(GT_QUADS_GROUP_COLS * GT_QUADS_GROUP_ROWS * 16)));
  if (rows4 < rows)
    GT__TRY(run_simple(ctx, simple, gt__bound_section(&s, rows4, 0, rows - rows4, cols4),
                       gt__bound_section(&t, 0, rows4, cols4, rows - rows4)));
  if (cols4 < cols)
    GT__TRY(run_simple(ctx, simple, gt__bound_section(&s, 0, cols4, rows, cols - cols4),
                       gt__bound_section(&t, cols4, 0, cols - cols4, rows)));
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
  const gt_program_key *k = plan->keys;
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
static gt_status execute(gt_context *ctx, const gt_transpose_choices *plan, gt_view src, gt_view dst) {
  gt_bound_view s, t;
  if (!plan->in_blocks) {
    GT__TRY(gt__view_bind(ctx, src, &s));
    GT__TRY(gt__view_bind(ctx, dst, &t));
    return run_window(ctx, plan, s, t);
  }
  const uint32_t *block = plan->blocks.block;
  for (uint32_t r = 0; r < src.rows; r += block[0]) {
    for (uint32_t c = 0; c < src.cols; c += block[1]) {
      uint32_t h = gt__min_u32(block[0], src.rows - r), w = gt__min_u32(block[1], src.cols - c);
      GT__TRY(gt__view_bind(ctx, gt_section(src, r, c, h, w), &s));
      GT__TRY(gt__view_bind(ctx, gt_section(dst, c, r, w, h), &t));
      GT__TRY(run_window(ctx, plan, s, t));
    }
  }
  return GT_OK;
}

gt_status gt_transpose(gt_context *ctx, gt_view src, gt_view dst, const gt_transpose_desc *d) {
  static const gt_transpose_desc defaults;
  if (d == NULL) d = &defaults;
  GT__TRY(gt__context_check(ctx));
  GT__TRY(gt__transpose_check(d, src, dst));
  gt_transpose_choices plan;
  gt_status planned = gt__transpose_choose(ctx, src, dst, d, &plan);
  if (planned != GT_OK) {
    gt__log(ctx, GT_LOG_ERROR, "transpose: %s", plan.refusal);
    return planned;
  }
  /* Views inside their buffers first: the overlap test walks rows, and a
   * view far larger than its buffer would make it slow. The one aliasing
   * honoured: src and dst the very same square view, transposed in place
   * (the shape check makes it square). Any other overlap would make the
   * result depend on the order invocations run in. */
  GT__TRY(gt__view_check_buffer(ctx, src));
  if (!plan.in_place) GT__TRY(gt__view_check_buffer(ctx, dst));
  if (!plan.in_place && gt_views_alias(src, dst)) {
    gt__log(ctx, GT_LOG_ERROR, "transpose: dst overlaps src in buffer %u but is not the same view",
            src.buffer);
    return GT_ERR_ALIASED;
  }
  if (plan.needs_atomics) GT__TRY(gt__need_atomics(ctx, "a transpose of 2- or 1-byte elements"));
  gt_bound_view v;
  if (plan.in_place) GT__TRY(gt__view_bind(ctx, src, &v)); /* a view over one binding only */
  if (plan.in_blocks)
    gt__log(ctx, GT_LOG_DEBUG, "transpose: views longer than a storage block: blocks of %ux%u",
            plan.blocks.block[0], plan.blocks.block[1]);
  GT__TRY(gt__programs_build(ctx, plan.keys, GT_TRANSPOSE_SLOTS));
  if (plan.in_place)
    return gt__operation_end(ctx,
                             gt__transpose_inplace(ctx, &v, plan.strategy, &plan.keys[GT_TRANSPOSE_SIMPLE],
                                                   &plan.keys[GT_TRANSPOSE_TILED]),
                             GT__BUFFER_WRITE_BARRIERS, "gt_transpose");
  return gt__operation_end(ctx, execute(ctx, &plan, src, dst), GT__BUFFER_WRITE_BARRIERS, "gt_transpose");
}
