/* The plan of a transpose: the strategy that runs, its tile and group,
 * the programs it needs, whether the views go in blocks, and for each
 * window the route it takes (which kernel, and how the edges are done),
 * with the reason for each choice. A pure function of the validated
 * views, the description and the context's device entry and limits: no GL
 * here, so the host tests walk it over every device entry and the tools
 * ask it what AUTO will do (gt_transpose_plan). gt_transpose validates,
 * plans, builds what the plan names and runs it. */
#include "plan/transpose_plan.h"
#include "plan/plan.h"

#include <stdio.h>
#include <string.h>

/* Whether v's rows start on words of `pack` elements: offset and pitch
 * multiples of it. */
static bool view_on_words(gt_view v, uint32_t pack) {
  return v.offset % pack == 0 && gt__view_pitch(v) % pack == 0;
}

/* Adds a reason to the plan's. */
static void because(gt_transpose_choices *p, const char *why) { gt__plan_because(&p->op, why); }

static bool divides(uint32_t tile, gt_view v) { return v.rows % tile == 0 && v.cols % tile == 0; }

/* The square blocks of whole tiles that views longer than a storage block
 * go in; TILED_EVEN's blocks stay even. */
static gt_status plan_blocks(const gt_context *ctx, gt_view src, gt_view dst, gt_transpose_choices *p) {
  const uint32_t granule[2] = {p->tile, p->tile};
  uint32_t least = p->strategy == GT_STRATEGY_TILED_EVEN ? p->tile : 0;
  return gt__plan_view_blocks(ctx, src, dst, true, granule, least, &p->op);
}

static gt_program_key key(gt_kernel kernel, uint32_t tile, uint32_t group_cols, uint32_t group_rows,
                          uint32_t variant, gt_type elem) {
  return (gt_program_key){kernel, tile, group_cols, group_rows, variant, elem, 0};
}

/* The programs the windows may take, by slot. */
static void plan_programs(const gt_context *ctx, gt_view src, gt_view dst, bool auto_,
                          gt_transpose_choices *p) {
  gt_strategy s = p->strategy;
  gt_type elem = p->elem;
  bool packed = elem != GT_U32;
  gt_program_key *keys = p->op.keys;
  gt_extent main_area = gt_extent_truncate((gt_extent){src.rows, src.cols}, p->tile, p->tile);
  bool main_empty = main_area.rows == 0 || main_area.cols == 0;
  bool simple = s == GT_STRATEGY_SIMPLE || s == GT_STRATEGY_TRUNCATE_B ||
                (s == GT_STRATEGY_TRUNCATE_A && (main_empty || p->op.in_blocks));
  uint32_t tiled_variant = (s == GT_STRATEGY_TILED_PAD ? GT_VARIANT_GUARDED : 0) |
                           (s == GT_STRATEGY_TRUNCATE_A ? GT_VARIANT_TRUNCATE_A : 0);
  bool vec4s = !ctx->device->quad_elements;
  if (auto_ && ctx->auto_quads && !packed) {
    bool pairs = ctx->device->quad_pairs;
    uint32_t quads_cols = pairs ? GT_PAIRS_GROUP : GT_QUADS_GROUP_COLS,
             quads_rows = pairs ? GT_PAIRS_GROUP : GT_QUADS_GROUP_ROWS;
    uint32_t quads_variant = pairs ? GT_VARIANT_PAIRS : 0;
    if (vec4s)
      keys[GT_TRANSPOSE_QUADS] = key(GT_KERNEL_TRANSPOSE_QUADS, 0, quads_cols, quads_rows, quads_variant, GT_U32);
    /* Views cut into blocks are checked block by block, so they take it
     * whatever their alignment. */
    gt_bound_view bs, bt;
    if (!vec4s || p->op.in_blocks || gt__view_bind(ctx, src, &bs) != GT_OK ||
        gt__view_bind(ctx, dst, &bt) != GT_OK || !(gt__bound_rows_aligned(&bs) && gt__bound_rows_aligned(&bt)))
      keys[GT_TRANSPOSE_QUAD_ELEMENTS] = key(GT_KERNEL_TRANSPOSE_QUADS, 0, quads_cols, quads_rows,
                                             quads_variant | GT_VARIANT_ELEMENTS, GT_U32);
  }
  /* AUTO's blocks of words, where it runs the tiled kernels (not on a
   * context whose AUTO truncates) and they fit the device: a block per
   * invocation where AUTO moves 4x4 blocks and the entry moves words so
   * too (words_uvec4: as uvec4s too) or the entry says so
   * (words_in_registers: no uvec4s), else through shared tiles. They
   * write whole words only: a transpose they cover whole (both views'
   * rows on words, whole blocks, so no bands, in one binding each, since
   * blocks of views cut to fit one may leave bands) needs no atomics, and builds no kernel that has them. */
  uint32_t pack = gt__pack(elem);
  uint32_t words_rows = gt__tiled_group_rows(ctx, GT_WORDS_TILE, GT_WORDS_TILE * GT_WORDS_TILE * pack * 4);
  bool tiled_strategy = s == GT_STRATEGY_TILED_PAD || s == GT_STRATEGY_TILED_EVEN;
  bool quad_words = ctx->auto_quads && ctx->device->words_uvec4;
  bool in_registers = quad_words || ctx->device->words_in_registers;
  if (auto_ && packed && !p->in_place && tiled_strategy && (in_registers || words_rows)) {
    if (in_registers) {
      uint32_t registers = GT_VARIANT_REGISTERS;
      keys[GT_TRANSPOSE_WORDS] =
          key(GT_KERNEL_TRANSPOSE_WORDS, 0, GT_QUADS_GROUP_COLS, GT_QUADS_GROUP_ROWS, registers, elem);
      if (quad_words && vec4s)
        keys[GT_TRANSPOSE_WORDS_UVEC4] = key(GT_KERNEL_TRANSPOSE_WORDS, 0, GT_QUADS_GROUP_COLS,
                                             GT_QUADS_GROUP_ROWS, registers | GT_VARIANT_UVEC4, elem);
    } else {
      keys[GT_TRANSPOSE_WORDS] =
          key(GT_KERNEL_TRANSPOSE_WORDS, GT_WORDS_TILE, GT_WORDS_TILE, words_rows, 0, elem);
    }
    p->words_only = !p->op.in_blocks && view_on_words(src, pack) && view_on_words(dst, pack) &&
                    src.rows % pack == 0 && src.cols % pack == 0;
  }
  p->op.needs_atomics = packed && !p->words_only;
  bool tiled = s != GT_STRATEGY_SIMPLE && !(s == GT_STRATEGY_TRUNCATE_A && main_empty) && !p->words_only;
  if (simple)
    keys[GT_TRANSPOSE_SIMPLE] =
        key(GT_KERNEL_TRANSPOSE_SIMPLE, 0, GT_SIMPLE_GROUP_COLS, GT_SIMPLE_GROUP_ROWS, 0, elem);
  if (tiled)
    keys[GT_TRANSPOSE_TILED] =
        key(GT_KERNEL_TRANSPOSE_TILED, p->tile, p->tile, p->group_rows, tiled_variant, elem);
}

gt_status gt__transpose_check(const gt_transpose_desc *d, gt_view src, gt_view dst) {
  GT__TRY(gt__desc_check(d->strategy, d->tile,
                         GT__STRATEGIES_TILED | GT__STRATEGY(GT_STRATEGY_TRUNCATE_A) |
                             GT__STRATEGY(GT_STRATEGY_TRUNCATE_B)));
  GT__TRY(gt__view_check_fields(src));
  GT__TRY(gt__view_check_fields(dst));
  GT__CHECK(src.type == dst.type, GT_ERR_SHAPE_MISMATCH);
  GT__CHECK(dst.rows == src.cols && dst.cols == src.rows, GT_ERR_SHAPE_MISMATCH);
  return GT_OK;
}

gt_status gt__transpose_choose(const gt_context *ctx, gt_view src, gt_view dst, const gt_transpose_desc *d,
                               gt_transpose_choices *p) {
  memset(p, 0, sizeof *p);
  bool auto_ = d->strategy == GT_STRATEGY_AUTO;
  gt_strategy strategy = auto_ ? ctx->auto_strategy : d->strategy;
  because(p, auto_ ? (ctx->auto_strategy == ctx->device->transpose ? "device table" : "context desc")
                   : "caller's desc");
  /* 2- and 1-byte elements: SIMPLE writes each with two atomics, the
   * tiled kernels write whole words, so AUTO runs those (and never the
   * 4x4 blocks, which move 32-bit elements). A program per element size. */
  p->elem = gt__bits_type(src.type);
  bool packed = p->elem != GT_U32;
  if (auto_ && packed && strategy == GT_STRATEGY_SIMPLE) {
    strategy = GT_STRATEGY_TILED_PAD;
    because(p, "2-/1-byte elements: tiled, whole words");
  }
  p->in_place = gt__same_view(src, dst);
  uint32_t tile = d->tile ? d->tile : ctx->default_tile;
  /* AUTO's big tile is the device table's, beyond the public tiles: on
   * the H100 a 64-tile touches half the pages per byte moved of a 32-tile.
   * Where it divides the extent it is AUTO's tile; where it does not, AUTO's
   * padded strategy may run it on the main section (the route), since
   * padded over the whole extent it ran far behind the 32-tile
   * (docs/notes/2026-11-nvidia-transpose.md, "AUTO's 64-tile and stripes
   * sized in bytes"). Not in place, where a group holds two tiles, nor for
   * 2- and 1-byte elements: on the H100 the 64-tile moved them slower than
   * the 32-tile (the same note, "Packed tiled transpose, first version"). */
  uint32_t auto_tile = ctx->device->auto_tile;
  uint32_t big_rows = auto_tile ? gt__tiled_group_rows(ctx, auto_tile, auto_tile * (auto_tile + 1) * 4) : 0;
  bool big_fits = auto_ && d->tile == 0 && big_rows != 0 && !p->in_place && !packed;
  bool big_divides = big_fits && divides(auto_tile, src);
  if (big_divides) {
    tile = auto_tile;
    because(p, "auto_tile divides the extent");
  }
  /* AUTO's padded kernel drops its guards when the tile divides the
   * extent: guards slow every access (docs/notes/2026-11-nvidia-transpose.md,
   * "NVIDIA H100: the first transpose table", tiled_pad against tiled_even). */
  if (auto_ && strategy == GT_STRATEGY_TILED_PAD && divides(tile, src)) {
    strategy = GT_STRATEGY_TILED_EVEN;
    because(p, "tile divides: no guards");
  }
  p->strategy = strategy;
  p->tile = tile;
  p->group_rows = gt__tiled_group_rows(ctx, tile, tile * (tile + 1) * 4);
  if (strategy != GT_STRATEGY_SIMPLE && p->group_rows == 0) {
    snprintf(p->op.refusal, sizeof p->op.refusal, "tile %u does not fit this device's limits", tile);
    return GT_ERR_UNSUPPORTED;
  }
  if (strategy == GT_STRATEGY_TILED_EVEN && !divides(tile, src)) {
    snprintf(p->op.refusal, sizeof p->op.refusal, "tiled_even: tile %u does not divide %ux%u", tile, src.rows,
             src.cols);
    return GT_ERR_SHAPE_MISMATCH;
  }
  if (p->in_place) {
    /* No whole tile: all of it is leftover, which SIMPLE does. */
    bool truncates = strategy == GT_STRATEGY_TRUNCATE_A || strategy == GT_STRATEGY_TRUNCATE_B;
    if (truncates && src.rows < tile) {
      p->strategy = GT_STRATEGY_SIMPLE;
      because(p, "no whole tile: simple");
    }
    p->op.needs_atomics = packed;
    /* The aliased variants (seed 004): SIMPLE alone or on TRUNCATE_B's
     * bands, the tiled kernel swapping pairs of tiles. */
    gt_strategy s = p->strategy;
    uint32_t aliased = GT_VARIANT_ALIASED;
    uint32_t variant = aliased | (s == GT_STRATEGY_TILED_PAD ? GT_VARIANT_GUARDED : 0) |
                       (s == GT_STRATEGY_TRUNCATE_A ? GT_VARIANT_TRUNCATE_A : 0);
    if (s == GT_STRATEGY_SIMPLE || s == GT_STRATEGY_TRUNCATE_B)
      p->op.keys[GT_TRANSPOSE_SIMPLE] = key(GT_KERNEL_TRANSPOSE_INPLACE_SIMPLE, 0, GT_SIMPLE_GROUP_COLS,
                                         GT_SIMPLE_GROUP_ROWS, aliased, p->elem);
    if (s != GT_STRATEGY_SIMPLE)
      p->op.keys[GT_TRANSPOSE_TILED] =
          key(GT_KERNEL_TRANSPOSE_INPLACE_TILED, p->tile, p->tile, p->group_rows, variant, p->elem);
    return GT_OK;
  }
  p->op.in_blocks = !gt__view_fits(ctx, src) || !gt__view_fits(ctx, dst);
  if (p->op.in_blocks) GT__TRY(plan_blocks(ctx, src, dst, p));
  plan_programs(ctx, src, dst, auto_, p);
  if (big_fits && !big_divides && strategy == GT_STRATEGY_TILED_PAD)
    p->op.keys[GT_TRANSPOSE_BIG] = key(GT_KERNEL_TRANSPOSE_TILED, auto_tile, auto_tile, big_rows, 0, p->elem);
  return GT_OK;
}

static bool has(const gt_transpose_choices *p, int slot) { return p->op.keys[slot].group_cols != 0; }

/* Whether both views' rows start on a multiple of `unit` elements of
 * their bindings: offsets and pitches multiples of it. (Indices count
 * from the binding's start, so a uvec4 index is exact whatever the
 * binding's alignment.) */
bool gt__rows_on(const gt_bound_view *s, const gt_bound_view *t, uint32_t unit) {
  return s->elem_offset % unit == 0 && s->view.pitch % unit == 0 && t->elem_offset % unit == 0 &&
         t->view.pitch % unit == 0;
}

gt_transpose_route gt__transpose_route(const gt_transpose_choices *p, const gt_bound_view *s,
                                       const gt_bound_view *t) {
  bool aligned = gt__bound_rows_aligned(s) && gt__bound_rows_aligned(t);
  switch (p->strategy) {
  case GT_STRATEGY_SIMPLE:
    /* AUTO's SIMPLE moves 4x4 blocks where the window has one: as uvec4s
     * where its rows allow and the plan has them, else as elements. */
    if (s->view.rows >= 4 && s->view.cols >= 4) {
      if (has(p, GT_TRANSPOSE_QUADS) && aligned) return GT_ROUTE_QUADS;
      if (has(p, GT_TRANSPOSE_QUAD_ELEMENTS)) return GT_ROUTE_QUAD_ELEMENTS;
    }
    return GT_ROUTE_SIMPLE;
  case GT_STRATEGY_TRUNCATE_B: return GT_ROUTE_MAIN_AND_BANDS;
  case GT_STRATEGY_TRUNCATE_A:
    if (!has(p, GT_TRANSPOSE_TILED) || s->view.rows < p->tile || s->view.cols < p->tile)
      return GT_ROUTE_SIMPLE;
    return GT_ROUTE_TILED;
  default: {
    uint32_t pack = gt__pack(s->view.type);
    if (has(p, GT_TRANSPOSE_WORDS) && gt__rows_on(s, t, pack))
      return has(p, GT_TRANSPOSE_WORDS_UVEC4) && gt__rows_on(s, t, 4 * pack) ? GT_ROUTE_WORDS_UVEC4
                                                                             : GT_ROUTE_WORDS;
    /* On the H100, where rows start 16-byte aligned the padded 32-tile
     * kernel alone runs near the copy; elsewhere row pieces straddle
     * sectors, and the big tile on the main section, the padded 32-tile on
     * the bands, ran faster than it (docs/performance.md, "Transpose and
     * copy"; the trial:
     * docs/notes/2026-11-nvidia-transpose.md, "The 64-tile on the main
     * section, the padded 32-tile on the bands"). */
    if (has(p, GT_TRANSPOSE_BIG) && !aligned) return GT_ROUTE_BIG_AND_BANDS;
    return GT_ROUTE_TILED;
  }
  }
}

static const char *route_name(gt_transpose_route r) {
  switch (r) {
  case GT_ROUTE_SIMPLE: return "simple";
  case GT_ROUTE_QUADS: return "quads";
  case GT_ROUTE_QUAD_ELEMENTS: return "quads of elements";
  case GT_ROUTE_TILED: return "tiled";
  case GT_ROUTE_MAIN_AND_BANDS: return "main and bands";
  case GT_ROUTE_BIG_AND_BANDS: return "big and bands";
  case GT_ROUTE_WORDS: return "words";
  case GT_ROUTE_WORDS_UVEC4: return "words as uvec4s";
  }
  return "unknown";
}

/* Why a window takes its route: its bindings' alignment, or the device
 * table's choice of single elements. */
static const char *route_reason(const gt_transpose_choices *p, gt_transpose_route r) {
  switch (r) {
  case GT_ROUTE_QUADS:
  case GT_ROUTE_WORDS_UVEC4: return "rows on 16 bytes";
  case GT_ROUTE_QUAD_ELEMENTS: return has(p, GT_TRANSPOSE_QUADS) ? "rows off 16 bytes" : "as elements";
  case GT_ROUTE_BIG_AND_BANDS: return "rows off 16 bytes";
  case GT_ROUTE_WORDS: return "rows on words";
  case GT_ROUTE_TILED: return has(p, GT_TRANSPOSE_BIG) ? "rows on 16 bytes" : NULL;
  default: return NULL;
  }
}

/* The kernels of a route, with their tiles. */
static void describe(const gt_transpose_choices *p, gt_transpose_route r, char *out, size_t size) {
  const char *strategy = gt_strategy_name(p->strategy);
  switch (r) {
  case GT_ROUTE_TILED: snprintf(out, size, "%s %u", strategy, p->tile); break;
  case GT_ROUTE_MAIN_AND_BANDS: snprintf(out, size, "tiled_even %u + simple bands", p->tile); break;
  case GT_ROUTE_BIG_AND_BANDS:
    snprintf(out, size, "big %u + %s %u", p->op.keys[GT_TRANSPOSE_BIG].tile, strategy, p->tile);
    break;
  case GT_ROUTE_WORDS:
    snprintf(out, size, "%s",
             (p->op.keys[GT_TRANSPOSE_WORDS].variant & GT_VARIANT_REGISTERS) ? "words in registers" : "words");
    break;
  default: snprintf(out, size, "%s", route_name(r)); break;
  }
}

gt_status gt_transpose_plan(const gt_context *ctx, gt_view src, gt_view dst, const gt_transpose_desc *d,
                            gt_plan *out) {
  static const gt_transpose_desc defaults;
  if (d == NULL) d = &defaults;
  GT__CHECK(ctx != NULL && out != NULL, GT_ERR_INVALID_ARGUMENT);
  GT__TRY(gt__transpose_check(d, src, dst));
  gt_transpose_choices p;
  GT__TRY(gt__transpose_choose(ctx, src, dst, d, &p));
  gt_plan plan;
  memset(&plan, 0, sizeof plan);
  plan.strategy = p.strategy;
  plan.tile = p.strategy == GT_STRATEGY_SIMPLE ? 0 : p.tile;
  gt_bound_view s, t;
  if (p.in_place) {
    snprintf(plan.kernels, sizeof plan.kernels, "in place %s", gt_strategy_name(p.strategy));
  } else if (p.op.in_blocks || gt__view_bind(ctx, src, &s) != GT_OK || gt__view_bind(ctx, dst, &t) != GT_OK) {
    /* Each block takes its own route. */
    snprintf(plan.kernels, sizeof plan.kernels, "blocks of %ux%u", p.op.blocks.block[0], p.op.blocks.block[1]);
  } else {
    gt_transpose_route route = gt__transpose_route(&p, &s, &t);
    describe(&p, route, plan.kernels, sizeof plan.kernels);
    if (route_reason(&p, route)) because(&p, route_reason(&p, route));
  }
  snprintf(plan.reason, sizeof plan.reason, "%s", p.op.reason);
  *out = plan;
  return GT_OK;
}