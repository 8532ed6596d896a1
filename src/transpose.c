/* Transpose with the five strategies of the C++ AMP sample (seed 003):
 * validation, the choice of kernel variant, and the one to three
 * dispatches each strategy needs. */
#include "gt_internal.h"

#include <string.h>

/* transpose_quads: 16 x 8 invocations, each a 4x4 block. transpose_words
 * in registers: the same group; through shared memory: tiles of 32 x 32
 * blocks. */
enum { QUADS_GROUP_COLS = 16, QUADS_GROUP_ROWS = 8, WORDS_TILE = 32 };

/* Transposes move bits: a program per element size (gt__bits_type). */
static gt_status get_simple(gt_context *ctx, uint32_t variant, gt_type elem, const gt_program **out) {
  return gt__program_for(ctx, GT_KERNEL_TRANSPOSE_SIMPLE, 0, GT_SIMPLE_GROUP_COLS, GT_SIMPLE_GROUP_ROWS,
                         variant, elem, out);
}

static gt_status get_tiled(gt_context *ctx, gt_kernel kernel, uint32_t tile, uint32_t group_rows,
                           uint32_t variant, gt_type elem, const gt_program **out) {
  return gt__program_for(ctx, kernel, tile, tile, group_rows, variant, elem, out);
}

uint32_t gt__stripe_tiles(const gt_context *ctx, uint64_t src_row_bytes, uint32_t tile) {
  uint64_t tiles = ((uint64_t)1 << ctx->device->stripe_bytes_log2) / src_row_bytes / tile;
  return tiles < 1 ? 1 : tiles > UINT32_MAX ? UINT32_MAX : (uint32_t)tiles;
}

static gt_status run_simple(gt_context *ctx, const gt_program *prog, gt_bound_view src, gt_bound_view dst) {
  gt_bound_view views[2] = {src, dst};
  return gt__dispatch(ctx, prog, views, 2, gt__div_up(src.view.cols, GT_SIMPLE_GROUP_COLS),
                      gt__div_up(src.view.rows, GT_SIMPLE_GROUP_ROWS),
                      gt__moved_bytes(GT_SIMPLE_GROUP_COLS * GT_SIMPLE_GROUP_ROWS));
}

/* A tiled kernel over whole tiles: a guarded kernel gets the padded
 * extent (seed 001), an unguarded one the truncated extent (seed 000). */
static gt_status run_tiled(gt_context *ctx, const gt_program *prog, gt_bound_view src, gt_bound_view dst) {
  uint32_t tile = prog->key.tile;
  gt_extent e = {src.view.rows, src.view.cols};
  gt_extent grid = (prog->key.variant & GT_VARIANT_GUARDED) ? gt_extent_pad(e, tile, tile)
                                                            : gt_extent_truncate(e, tile, tile);
  glProgramUniform1ui(prog->name, prog->stripe_tiles_loc,
                      gt__stripe_tiles(ctx, (uint64_t)src.view.pitch * gt_type_size(src.view.type), tile));
  gt_bound_view views[2] = {src, dst};
  return gt__dispatch(ctx, prog, views, 2, grid.cols / tile, grid.rows / tile,
                      gt__moved_bytes((uint64_t)tile * tile));
}

/* One dispatch of prog, SIMPLE or tiled, over the whole of src. */
static gt_status run_program(gt_context *ctx, const gt_program *prog, gt_bound_view src, gt_bound_view dst) {
  if (prog->key.kernel == GT_KERNEL_TRANSPOSE_SIMPLE) return run_simple(ctx, prog, src, dst);
  return run_tiled(ctx, prog, src, dst);
}

/* Seed 000, option B: an even tiled kernel, whole, on the main section M
 * of its tile, and band on the bottom band B and on the right band R (which
 * includes the corner). TRUNCATE_B's bands run SIMPLE; AUTO's run the
 * padded kernel. */
static gt_status run_main_and_bands(gt_context *ctx, const gt_program *whole, const gt_program *band,
                                    gt_bound_view src, gt_bound_view dst) {
  uint32_t rows = src.view.rows, cols = src.view.cols, tile = whole->key.tile;
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

/* A view with a whole 4x4 block. */
static bool quads_fit(const gt_bound_view *v) { return v->view.rows >= 4 && v->view.cols >= 4; }

/* The 4x4 blocks by transpose_quads, then the bottom rows and right
 * columns that make no whole block by SIMPLE (seed 000's option B).
 * quads moves uvec4s and needs both views' rows to start 16-byte aligned;
 * elements is its GT_ELEMENTS variant, for rows at any alignment. */
static gt_status run_quads(gt_context *ctx, const gt_program *quads, const gt_program *elements,
                           const gt_program *simple, gt_bound_view s, gt_bound_view t) {
  uint32_t rows = s.view.rows, cols = s.view.cols, rows4 = rows / 4 * 4, cols4 = cols / 4 * 4;
  gt_bound_view views[2] = {gt__bound_section(&s, 0, 0, rows4, cols4),
                            gt__bound_section(&t, 0, 0, cols4, rows4)};
  bool aligned = gt__bound_rows_aligned(&s) && gt__bound_rows_aligned(&t);
  if (!aligned) quads = elements;
  for (int i = 0; i < 2 && aligned; i++) {
    /* cols, offset and pitch in uvec4s; rows stay elements. */
    views[i].view.cols /= 4;
    views[i].view.pitch /= 4;
    views[i].elem_offset /= 4;
  }
  GT__TRY(gt__dispatch(ctx, quads, views, 2, gt__div_up(cols4 / 4, QUADS_GROUP_COLS),
                       gt__div_up(rows4 / 4, QUADS_GROUP_ROWS),
                       gt__moved_bytes(QUADS_GROUP_COLS * QUADS_GROUP_ROWS * 16)));
  if (rows4 < rows)
    GT__TRY(run_simple(ctx, simple, gt__bound_section(&s, rows4, 0, rows - rows4, cols4),
                       gt__bound_section(&t, 0, rows4, cols4, rows - rows4)));
  if (cols4 < cols)
    GT__TRY(run_simple(ctx, simple, gt__bound_section(&s, 0, cols4, rows, cols - cols4),
                       gt__bound_section(&t, cols4, 0, cols - cols4, rows)));
  return GT_OK;
}

/* The programs one transpose runs: tiled is the strategy's tiled kernel;
 * big, AUTO's even kernel with the device table's tile where that tile
 * does not divide the extent; quads and quad_elements, AUTO's 4x4 blocks
 * for rows 16-byte aligned and for any rows; words and words_uvec4,
 * AUTO's blocks of words for 2- and 1-byte rows on words, and on 16
 * bytes. */
typedef struct {
  const gt_program *tiled, *simple, *quads, *quad_elements, *big, *words, *words_uvec4;
} transpose_programs;

/* Whether v's rows start on words of `pack` elements: offset and pitch
 * multiples of it. */
static bool view_on_words(gt_view v, uint32_t pack) {
  return v.offset % pack == 0 && gt__view_pitch(v) % pack == 0;
}

/* Whether both views' rows start on a multiple of `unit` elements of
 * their bindings: offsets and pitches multiples of it. (Indices count
 * from the binding's start, so a uvec4 index is exact whatever the
 * binding's alignment.) */
static bool rows_on(const gt_bound_view *s, const gt_bound_view *t, uint32_t unit) {
  return s->elem_offset % unit == 0 && s->view.pitch % unit == 0 && t->elem_offset % unit == 0 &&
         t->view.pitch % unit == 0;
}

/* AUTO's 2- and 1-byte transposes whose rows lie on words (transpose_words):
 * the main section, whose rows and columns are multiples of the unit, as
 * blocks of words, then the bands beside it (seed 000's option B): by
 * words again where the main section moved uvec4s, else by the packed
 * tiled kernel. The main section's words hold none of the bands'
 * elements, so no word is written twice. The unit: a word's elements, or
 * 4 words' where transpose_words moves uvec4s (both views' rows 16-byte
 * aligned). */
static gt_status run_words(gt_context *ctx, const transpose_programs *p, gt_bound_view s, gt_bound_view t,
                           bool uvec4s) {
  uint32_t pack = gt__pack(s.view.type), rows = s.view.rows, cols = s.view.cols;
  uvec4s = uvec4s && p->words_uvec4 && rows_on(&s, &t, 4 * pack);
  const gt_program *words = uvec4s ? p->words_uvec4 : p->words;
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
      /* A tile spans WORDS_TILE * pack source rows. */
      glProgramUniform1ui(
          words->name, words->stripe_tiles_loc,
          gt__stripe_tiles(ctx, (uint64_t)s.view.pitch * gt_type_size(s.view.type), WORDS_TILE * pack));
      GT__TRY(gt__dispatch(ctx, words, views, 2, gt__div_up(unit_cols, WORDS_TILE),
                           gt__div_up(unit_rows, WORDS_TILE),
                           gt__moved_bytes((uint64_t)WORDS_TILE * WORDS_TILE * pack * 4)));
    }
  }
  gt_bound_view band_src[2] = {gt__bound_section(&s, main_rows, 0, rows - main_rows, main_cols),
                               gt__bound_section(&s, 0, main_cols, rows, cols - main_cols)};
  gt_bound_view band_dst[2] = {gt__bound_section(&t, 0, main_rows, main_cols, rows - main_rows),
                               gt__bound_section(&t, main_cols, 0, cols - main_cols, rows)};
  for (int i = 0; i < 2; i++) {
    if (band_src[i].view.rows == 0 || band_src[i].view.cols == 0) continue;
    GT__TRY(uvec4s ? run_words(ctx, p, band_src[i], band_dst[i], false)
                   : run_program(ctx, p->tiled, band_src[i], band_dst[i]));
  }
  return GT_OK;
}

/* One window of src onto dst with the strategy's programs (AUTO's SIMPLE
 * may move 4x4 blocks instead, AUTO's TILED_PAD the big tiles). */
static gt_status run_strategy(gt_context *ctx, gt_strategy strategy, const transpose_programs *p,
                              gt_bound_view s, gt_bound_view t) {
  uint32_t tile = p->tiled ? p->tiled->key.tile : 0;
  switch (strategy) {
  case GT_STRATEGY_SIMPLE:
    if (p->quads && quads_fit(&s)) return run_quads(ctx, p->quads, p->quad_elements, p->simple, s, t);
    return run_simple(ctx, p->simple, s, t);
  case GT_STRATEGY_TRUNCATE_B: return run_main_and_bands(ctx, p->tiled, p->simple, s, t);
  case GT_STRATEGY_TRUNCATE_A:
    if (p->tiled == NULL || s.view.rows < tile || s.view.cols < tile) return run_simple(ctx, p->simple, s, t);
    return run_tiled(ctx, p->tiled, s, t);
  default:
    if (p->words && rows_on(&s, &t, gt__pack(s.view.type))) return run_words(ctx, p, s, t, true);
    /* On the H100, where rows start 16-byte aligned the padded 32-tile
     * kernel ran 93% of a copy at 8200x5468 as one dispatch; elsewhere
     * (8199x5467, 4099x4097) it ran 71-80% and the big tiles on the main
     * section 85-86% (docs/performance.md). */
    if (p->big && !(gt__bound_rows_aligned(&s) && gt__bound_rows_aligned(&t)))
      return run_main_and_bands(ctx, p->big, p->tiled, s, t);
    return run_tiled(ctx, p->tiled, s, t);
  }
}

gt_status gt_transpose(gt_context *ctx, gt_view src, gt_view dst, const gt_transpose_desc *d) {
  static const gt_transpose_desc defaults;
  if (d == NULL) d = &defaults;
  GT__TRY(gt__operation_begin(ctx, d->strategy, d->tile,
                              GT__STRATEGIES_TILED | GT__STRATEGY(GT_STRATEGY_TRUNCATE_A) |
                                  GT__STRATEGY(GT_STRATEGY_TRUNCATE_B)));
  GT__TRY(gt__view_check_fields(src));
  GT__TRY(gt__view_check_fields(dst));
  GT__CHECK(src.type == dst.type, GT_ERR_SHAPE_MISMATCH);
  GT__CHECK(dst.rows == src.cols && dst.cols == src.rows, GT_ERR_SHAPE_MISMATCH);

  gt_strategy strategy = d->strategy == GT_STRATEGY_AUTO ? ctx->auto_strategy : d->strategy;
  /* 2- and 1-byte elements: SIMPLE writes each with two atomics, the
   * tiled kernels write whole words, so AUTO runs those (and never the
   * 4x4 blocks, which move 32-bit elements). */
  gt_type elem = gt__bits_type(src.type);
  bool packed = elem != GT_U32;
  if (d->strategy == GT_STRATEGY_AUTO && packed && strategy == GT_STRATEGY_SIMPLE)
    strategy = GT_STRATEGY_TILED_PAD;
  uint32_t tile = d->tile ? d->tile : ctx->default_tile;
  /* AUTO's big tile is the device table's, beyond the public tiles: on
   * the H100 a 64-tile touches half the pages per byte moved of a 32-tile.
   * Where it divides the extent it is AUTO's tile; where it does not, AUTO's
   * padded strategy may run it on the main section (run_strategy), since
   * padded it ran at 32-40% of a copy (docs/performance.md). Not in place,
   * where a group holds two tiles. */
  uint32_t auto_tile = ctx->device->auto_tile;
  uint32_t big_rows = auto_tile ? gt__tiled_group_rows(ctx, auto_tile, auto_tile * (auto_tile + 1) * 4) : 0;
  /* Not for 2- and 1-byte elements either: on the H100 the 64-tile moved
   * them at half the 32-tile's speed (docs/performance.md). */
  bool big_fits =
      d->strategy == GT_STRATEGY_AUTO && d->tile == 0 && big_rows != 0 && !gt__same_view(src, dst) && !packed;
  bool big_divides = big_fits && src.rows % auto_tile == 0 && src.cols % auto_tile == 0;
  if (big_divides) tile = auto_tile;
  /* AUTO's padded kernel drops its guards when the tile divides the
   * extent: guards cost a fifth of the speed (docs/performance.md). */
  if (d->strategy == GT_STRATEGY_AUTO && strategy == GT_STRATEGY_TILED_PAD && src.rows % tile == 0 &&
      src.cols % tile == 0)
    strategy = GT_STRATEGY_TILED_EVEN;
  uint32_t group_rows = gt__tiled_group_rows(ctx, tile, tile * (tile + 1) * 4);
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
  /* Views inside their buffers first: the overlap test walks rows, and a
   * view far larger than its buffer would make it slow. */
  GT__TRY(gt__view_check_buffer(ctx, src));
  if (!in_place) GT__TRY(gt__view_check_buffer(ctx, dst));
  if (!in_place && gt_views_alias(src, dst)) {
    gt__log(ctx, GT_LOG_ERROR, "transpose: dst overlaps src in buffer %u but is not the same view",
            src.buffer);
    return GT_ERR_ALIASED;
  }
  /* AUTO's blocks of words (run_words), where it runs the tiled kernels
   * (not on a context whose AUTO truncates) and they fit the device. */
  uint32_t pack = gt__pack(elem);
  uint32_t words_rows = gt__tiled_group_rows(ctx, WORDS_TILE, WORDS_TILE * WORDS_TILE * pack * 4);
  bool words = d->strategy == GT_STRATEGY_AUTO && packed && !in_place &&
               (strategy == GT_STRATEGY_TILED_PAD || strategy == GT_STRATEGY_TILED_EVEN) &&
               (ctx->auto_quads || words_rows);
  /* They write whole words only: a transpose they cover whole (both
   * views' rows on words, whole blocks, so no bands, in one binding each,
   * since blocks of views cut to fit one may leave bands) needs no
   * atomics, and builds no kernel that has them. */
  bool in_blocks = !gt__view_fits(ctx, src) || !gt__view_fits(ctx, dst);
  bool words_only = words && !in_blocks && view_on_words(src, pack) && view_on_words(dst, pack) &&
                    src.rows % pack == 0 && src.cols % pack == 0;
  if (packed && !words_only) GT__TRY(gt__need_atomics(ctx, "a transpose of 2- or 1-byte elements"));
  if (in_place) {
    gt_bound_view v;
    GT__TRY(gt__view_bind(ctx, src, &v)); /* a view over one binding only */
    gt_status status = gt__transpose_inplace(ctx, &v, strategy, tile, group_rows);
    return gt__operation_end(ctx, status, GT__BUFFER_WRITE_BARRIERS, "gt_transpose");
  }
  gt_block_plan plan;
  if (in_blocks) {
    /* Square blocks of whole tiles; TILED_EVEN's blocks stay even. */
    memset(&plan, 0, sizeof plan);
    plan.dims = 2;
    plan.extent[0] = src.rows;
    plan.extent[1] = src.cols;
    plan.granule[0] = plan.granule[1] = tile;
    if (strategy == GT_STRATEGY_TILED_EVEN) plan.min[0] = plan.min[1] = tile;
    plan.windows[0] = (gt_block_window){0, 1, gt__view_pitch(src)};
    plan.windows[1] = (gt_block_window){1, 0, gt__view_pitch(dst)};
    plan.window_count = 2;
    plan.max_elements = gt__max_bound_elements(&ctx->limits);
    if (gt__block_plan(&plan) != GT_OK) {
      gt__log(ctx, GT_LOG_ERROR, "transpose: no block of %ux%u fits a %llu-byte storage block", src.rows,
              src.cols, (unsigned long long)ctx->limits.max_storage_block_bytes);
      return GT_ERR_UNSUPPORTED;
    }
    gt__log(ctx, GT_LOG_DEBUG, "transpose: views longer than a storage block: blocks of %ux%u", plan.block[0],
            plan.block[1]);
  }

  /* Validation is over. Every program the strategy needs is built before
   * the first dispatch, so a build failure writes nothing. A block of
   * TRUNCATE_A without a whole tile is all leftover, which SIMPLE does. */
  uint32_t variant = 0; /* non-aliased: aliased views were refused above */
  gt_extent main_area = gt_extent_truncate((gt_extent){src.rows, src.cols}, tile, tile);
  bool main_empty = main_area.rows == 0 || main_area.cols == 0;
  bool need_simple = strategy == GT_STRATEGY_SIMPLE || strategy == GT_STRATEGY_TRUNCATE_B ||
                     (strategy == GT_STRATEGY_TRUNCATE_A && (main_empty || in_blocks));
  uint32_t tiled_variant = variant | (strategy == GT_STRATEGY_TILED_PAD ? GT_VARIANT_GUARDED : 0) |
                           (strategy == GT_STRATEGY_TRUNCATE_A ? GT_VARIANT_TRUNCATE_A : 0);
  /* Views in one binding each are bound now: whether their rows start
   * aligned picks the 4x4 blocks' program. */
  gt_bound_view s, t;
  if (!in_blocks) {
    GT__TRY(gt__view_bind(ctx, src, &s));
    GT__TRY(gt__view_bind(ctx, dst, &t));
  }
  transpose_programs p = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
  if (need_simple) GT__TRY(get_simple(ctx, variant, elem, &p.simple));
  if (d->strategy == GT_STRATEGY_AUTO && ctx->auto_quads && !packed) {
    GT__TRY(gt__program_for(ctx, GT_KERNEL_TRANSPOSE_QUADS, 0, QUADS_GROUP_COLS, QUADS_GROUP_ROWS, 0, GT_U32,
                            &p.quads));
    /* Views cut into blocks are checked block by block, so they fetch it
     * whatever their alignment. */
    if (in_blocks || !(gt__bound_rows_aligned(&s) && gt__bound_rows_aligned(&t)))
      GT__TRY(gt__program_for(ctx, GT_KERNEL_TRANSPOSE_QUADS, 0, QUADS_GROUP_COLS, QUADS_GROUP_ROWS,
                              GT_VARIANT_ELEMENTS, GT_U32, &p.quad_elements));
  }
  if (words) {
    /* Fetched whatever the views' alignment (blocks are checked one by
     * one): a block per invocation where AUTO moves 4x4 blocks, else
     * through shared tiles. */
    if (ctx->auto_quads) {
      GT__TRY(gt__program_for(ctx, GT_KERNEL_TRANSPOSE_WORDS, 0, QUADS_GROUP_COLS, QUADS_GROUP_ROWS,
                              GT_VARIANT_REGISTERS, elem, &p.words));
      GT__TRY(gt__program_for(ctx, GT_KERNEL_TRANSPOSE_WORDS, 0, QUADS_GROUP_COLS, QUADS_GROUP_ROWS,
                              GT_VARIANT_REGISTERS | GT_VARIANT_UVEC4, elem, &p.words_uvec4));
    } else
      GT__TRY(gt__program_for(ctx, GT_KERNEL_TRANSPOSE_WORDS, WORDS_TILE, WORDS_TILE, words_rows, 0, elem,
                              &p.words));
  }
  if (strategy != GT_STRATEGY_SIMPLE && !(strategy == GT_STRATEGY_TRUNCATE_A && main_empty) && !words_only)
    GT__TRY(get_tiled(ctx, GT_KERNEL_TRANSPOSE_TILED, tile, group_rows, tiled_variant, elem, &p.tiled));
  if (big_fits && !big_divides && strategy == GT_STRATEGY_TILED_PAD)
    GT__TRY(get_tiled(ctx, GT_KERNEL_TRANSPOSE_TILED, auto_tile, big_rows, variant, elem, &p.big));

  gt_status status = GT_OK;
  if (!in_blocks) status = run_strategy(ctx, strategy, &p, s, t);
  for (uint32_t r = 0; in_blocks && r < src.rows && status == GT_OK; r += plan.block[0]) {
    for (uint32_t c = 0; c < src.cols && status == GT_OK; c += plan.block[1]) {
      uint32_t h = gt__min_u32(plan.block[0], src.rows - r), w = gt__min_u32(plan.block[1], src.cols - c);
      status = gt__view_bind(ctx, gt_section(src, r, c, h, w), &s);
      if (status == GT_OK) status = gt__view_bind(ctx, gt_section(dst, c, r, w, h), &t);
      if (status == GT_OK) status = run_strategy(ctx, strategy, &p, s, t);
    }
  }
  return gt__operation_end(ctx, status, GT__BUFFER_WRITE_BARRIERS, "gt_transpose");
}
