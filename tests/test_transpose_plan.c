/* The transpose planner (src/plan/transpose_plan.c), on the host: over every
 * device-table entry, three sets of limits (a desktop GPU, the ES 3.1
 * minimums, and storage blocks small enough to cut views into blocks),
 * every element type and strategy, and generated views (even, uneven,
 * 1xN, Nx1, aligned or not, in place), the plan keeps its invariants:
 * every program it names fits the device (that it is on the program list
 * the build checks is test_program_list's), TILED_EVEN's tile
 * divides, blocks fit a binding, every window's route has its programs,
 * and atomics are asked for exactly where a kernel writes part of a word.
 * The image planner (src/plan/image_plan.c) over the same entries, every format
 * and turn. Then a table of expected choices for named cases. */
#include "check.h"
#include "harness.h"
#include "plan/image_plan.h"
#include "plan/transpose_plan.h"
#include "plan_contexts.h"

#include <stdio.h>
#include <string.h>

static uint32_t rng = 2024;

/* The key of a route's program slot is planned. */
static bool has(const gt_program_key keys[GT_TRANSPOSE_SLOTS], int slot) {
  return keys[slot].group_cols != 0;
}

static unsigned long routes_seen[GT_ROUTE_WORDS_UVEC4 + 1];

/* One window's route has the programs it runs (its edges included). */
static void check_route(const gt_transpose_choices *p, const gt_program_key keys[GT_TRANSPOSE_SLOTS],
                        const gt_bound_view *s, const gt_bound_view *t) {
  gt_transpose_route r = gt__transpose_route(p, s, t);
  routes_seen[r]++;
  uint32_t pack = gt__pack(s->view.type);
  bool whole_words = s->view.rows % pack == 0 && s->view.cols % pack == 0;
  switch (r) {
  case GT_ROUTE_SIMPLE: CHECK(has(keys, GT_TRANSPOSE_SIMPLE)); break;
  case GT_ROUTE_QUADS: CHECK(has(keys, GT_TRANSPOSE_QUADS) && has(keys, GT_TRANSPOSE_SIMPLE)); break;
  case GT_ROUTE_QUAD_ELEMENTS:
    CHECK(has(keys, GT_TRANSPOSE_QUAD_ELEMENTS) && has(keys, GT_TRANSPOSE_SIMPLE));
    break;
  case GT_ROUTE_TILED: CHECK(has(keys, GT_TRANSPOSE_TILED)); break;
  case GT_ROUTE_MAIN_AND_BANDS: CHECK(has(keys, GT_TRANSPOSE_TILED) && has(keys, GT_TRANSPOSE_SIMPLE)); break;
  case GT_ROUTE_BIG_AND_BANDS: CHECK(has(keys, GT_TRANSPOSE_BIG) && has(keys, GT_TRANSPOSE_TILED)); break;
  case GT_ROUTE_WORDS_UVEC4: CHECK(has(keys, GT_TRANSPOSE_WORDS_UVEC4)); /* fall through */
  case GT_ROUTE_WORDS:
    CHECK(has(keys, GT_TRANSPOSE_WORDS));
    /* Bands of fewer than a word's elements go through the tiled kernel. */
    if (!whole_words) CHECK(has(keys, GT_TRANSPOSE_TILED));
    break;
  }
}

static unsigned long plans, refusals, in_blocks, in_place;

static void check_plan(const gt_context *ctx, gt_view src, gt_view dst, const gt_transpose_desc *d) {
  gt_transpose_choices p;
  gt_status s = gt__transpose_choose(ctx, src, dst, d, &p);
  if (s != GT_OK) {
    refusals++;
    CHECK(s == GT_ERR_UNSUPPORTED || s == GT_ERR_SHAPE_MISMATCH);
    CHECK(p.op.refusal[0] != '\0');
    if (s == GT_ERR_SHAPE_MISMATCH) CHECK(d->strategy == GT_STRATEGY_TILED_EVEN);
    return;
  }
  plans++;
  const gt_limits *l = &ctx->limits;
  bool packed = gt_type_size(src.type) < 4;
  CHECK(p.strategy != GT_STRATEGY_AUTO);
  CHECK(p.op.reason[0] != '\0');
  if (d->strategy != GT_STRATEGY_AUTO && !p.in_place) CHECK(p.strategy == d->strategy);
  if (p.strategy == GT_STRATEGY_TILED_EVEN) CHECK(src.rows % p.tile == 0 && src.cols % p.tile == 0);
  CHECK(p.op.needs_atomics == (packed && !p.words_only));
  const gt_program_key *keys = p.op.keys;
  if (p.words_only) CHECK(!has(keys, GT_TRANSPOSE_TILED) && !has(keys, GT_TRANSPOSE_SIMPLE));
  if (p.in_place) {
    in_place++;
    bool truncates = p.strategy == GT_STRATEGY_TRUNCATE_A || p.strategy == GT_STRATEGY_TRUNCATE_B;
    CHECK(!truncates || src.rows >= p.tile);
    CHECK(p.strategy == GT_STRATEGY_SIMPLE || (p.group_rows && p.tile * p.group_rows <= l->max_invocations));
    /* The aliased variants: SIMPLE alone or on TRUNCATE_B's bands, the
     * tiled kernel for every other strategy; nothing else. */
    CHECK(has(keys, GT_TRANSPOSE_SIMPLE) ==
          (p.strategy == GT_STRATEGY_SIMPLE || p.strategy == GT_STRATEGY_TRUNCATE_B));
    CHECK(has(keys, GT_TRANSPOSE_TILED) == (p.strategy != GT_STRATEGY_SIMPLE));
    for (int i = 0; i < GT_TRANSPOSE_SLOTS; i++) {
      if (!has(keys, i)) continue;
      CHECK(i == GT_TRANSPOSE_SIMPLE || i == GT_TRANSPOSE_TILED);
      CHECK(keys[i].variant & GT_VARIANT_ALIASED);
      CHECK(keys[i].group_cols * keys[i].group_rows <= l->max_invocations);
    }
    return;
  }
  for (int i = 0; i < GT_TRANSPOSE_SLOTS; i++) {
    if (!has(keys, i)) continue;
    const gt_program_key *k = &keys[i];
    CHECK(k->group_cols * k->group_rows <= l->max_invocations);
    CHECK(k->group_cols <= l->max_group_size[0] && k->group_rows <= l->max_group_size[1]);
    uint32_t budget = ctx->device->barrier_invocations ? ctx->device->barrier_invocations : 256;
    if (k->tile) CHECK(k->group_cols * k->group_rows <= budget);
  }
  if (!p.op.in_blocks) {
    gt_bound_view bs, bt;
    CHECK(gt__view_bind(ctx, src, &bs) == GT_OK && gt__view_bind(ctx, dst, &bt) == GT_OK);
    check_route(&p, keys, &bs, &bt);
    return;
  }
  /* Every block's windows fit one binding and have their route's
   * programs; the blocks keep TILED_EVEN even. */
  in_blocks++;
  CHECK(!p.words_only);
  const uint32_t *block = p.op.blocks.block;
  for (uint32_t r = 0; r < src.rows; r += block[0])
    for (uint32_t c = 0; c < src.cols; c += block[1]) {
      uint32_t h = gt__min_u32(block[0], src.rows - r), w = gt__min_u32(block[1], src.cols - c);
      if (p.strategy == GT_STRATEGY_TILED_EVEN) CHECK(h % p.tile == 0 && w % p.tile == 0);
      gt_bound_view bs, bt;
      gt_status bound = gt__view_bind(ctx, gt_section(src, r, c, h, w), &bs);
      if (bound == GT_OK) bound = gt__view_bind(ctx, gt_section(dst, c, r, w, h), &bt);
      CHECK_STATUS(bound, GT_OK);
      if (bound == GT_OK) check_route(&p, keys, &bs, &bt);
    }
}

static void walk(void) {
  static const gt_strategy strategies[] = {GT_STRATEGY_AUTO,       GT_STRATEGY_SIMPLE,
                                           GT_STRATEGY_TILED_EVEN, GT_STRATEGY_TILED_PAD,
                                           GT_STRATEGY_TRUNCATE_A, GT_STRATEGY_TRUNCATE_B};
  static const gt_strategy context_strategies[] = {GT_STRATEGY_AUTO, GT_STRATEGY_TRUNCATE_A};
  static const uint32_t tiles[] = {0, 8, 16, 32};
  const gt_device_entry *entry;
  for (size_t e = 0; (entry = gt__device_entry_at(e)) != NULL; e++)
    for (int limits = 0; limits < PLAN_LIMIT_SETS; limits++)
      for (size_t cs = 0; cs < 2; cs++) {
        gt_context ctx;
        CHECK_STATUS(plan_context(&ctx, entry, limits, context_strategies[cs]), GT_OK);
        for (int n = 0; n < 400; n++) {
          gt_type type = (gt_type)gt_test_rand_range(&rng, 1, GT_TYPE_COUNT);
          uint32_t rows = plan_extent(&rng), cols = plan_extent(&rng);
          gt_view src = plan_view(&rng, 1, rows, cols, type), dst = plan_view(&rng, 2, cols, rows, type);
          if (n % 8 == 0) { /* in place: one square view */
            dst = src = plan_view(&rng, 1, rows, rows, type);
          }
          gt_transpose_desc d = {strategies[gt_test_rand(&rng) % 6], tiles[gt_test_rand(&rng) % 4]};
          if (n % 2 == 0) d = (gt_transpose_desc){GT_STRATEGY_AUTO, 0};
          check_plan(&ctx, src, dst, &d);
        }
      }
}

static unsigned long image_plans, image_refusals;

/* The image planner over every entry and limit set, format, turn,
 * strategy and tile: its program fits the device, a half
 * turn runs SIMPLE, TILED_EVEN's tile divides, AUTO follows the context's
 * transpose choice. */
static void walk_images(void) {
  static const gt_strategy strategies[] = {GT_STRATEGY_AUTO, GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_EVEN,
                                           GT_STRATEGY_TILED_PAD};
  static const uint32_t tiles[] = {0, 8, 16, 32};
  const gt_device_entry *entry;
  for (size_t e = 0; (entry = gt__device_entry_at(e)) != NULL; e++)
    for (int limits = 0; limits < PLAN_LIMIT_SETS; limits++) {
      gt_context ctx;
      CHECK_STATUS(plan_context(&ctx, entry, limits, GT_STRATEGY_AUTO), GT_OK);
      for (int n = 0; n < 100; n++) {
        gt_image src = {1,
                        0,
                        0,
                        0,
                        plan_extent(&rng),
                        plan_extent(&rng),
                        (gt_format)gt_test_rand_range(&rng, 1, GT_FORMAT_COUNT)};
        uint32_t turns = gt_test_rand(&rng) % 4;
        gt_transpose_desc d = {strategies[gt_test_rand(&rng) % 4], tiles[gt_test_rand(&rng) % 4]};
        gt_image_choices p;
        gt_status s = gt__image_choose(&ctx, src, turns, &d, &p);
        if (s != GT_OK) {
          image_refusals++;
          CHECK(s == GT_ERR_UNSUPPORTED ||
                (s == GT_ERR_SHAPE_MISMATCH && d.strategy == GT_STRATEGY_TILED_EVEN));
          CHECK(p.op.refusal[0] != '\0');
          continue;
        }
        image_plans++;
        const gt_program_key *k = &p.op.keys[0];
        CHECK(k->group_cols * k->group_rows <= ctx.limits.max_invocations);
        uint32_t budget = entry->barrier_invocations ? entry->barrier_invocations : 256;
        if (k->tile) CHECK(k->group_cols * k->group_rows <= budget);
        CHECK(k->format == src.format && (k->variant >> GT_VARIANT_ROTATE_SHIFT) % 4 == turns);
        CHECK(p.op.reason[0] != '\0');
        if (turns == 2) CHECK(p.strategy == GT_STRATEGY_SIMPLE);
        if (d.strategy == GT_STRATEGY_AUTO && ctx.auto_strategy == GT_STRATEGY_SIMPLE)
          CHECK(p.strategy == GT_STRATEGY_SIMPLE);
        if (d.strategy != GT_STRATEGY_AUTO && turns != 2) CHECK(p.strategy == d.strategy);
        bool simple = p.strategy == GT_STRATEGY_SIMPLE;
        CHECK(simple == (k->kernel == GT_KERNEL_IMAGE_SIMPLE));
        CHECK(((k->variant & GT_VARIANT_GUARDED) != 0) == (p.strategy == GT_STRATEGY_TILED_PAD));
        if (p.strategy == GT_STRATEGY_TILED_EVEN)
          CHECK(src.width % k->tile == 0 && src.height % k->tile == 0);
        CHECK(p.step_cols == (simple ? k->group_cols : k->tile) &&
              p.step_rows == (simple ? k->group_rows : k->tile));
      }
    }
}

/* What AUTO chooses in named cases, as gt_transpose_plan tells it. */
static void expect(const char *renderer, int limits, uint32_t rows, uint32_t cols, uint32_t pitch,
                   gt_type type, bool same, const char *kernels) {
  gt_context ctx;
  CHECK_STATUS(plan_context(&ctx, gt__device_entry(renderer), limits, GT_STRATEGY_AUTO), GT_OK);
  gt_view src = {1, 0, rows, cols, pitch, type}, dst = {2, 0, cols, rows, 0, type};
  if (same) dst = src;
  gt_plan plan;
  char what[96];
  snprintf(what, sizeof what, "%s %ux%u (pitch %u) type %d", renderer, rows, cols, pitch, (int)type);
  CHECK(plan_is(gt_transpose_plan(&ctx, src, dst, NULL, &plan), &plan, what, kernels));
}

static void named_cases(void) {
  /* NVIDIA: the 64-tile where it divides; where it does not and rows are
   * unaligned, the 64-tile on the main section and the padded 32-tile on
   * the bands; aligned rows, the padded 32-tile whole (docs/performance.md,
   * "Transpose and copy"). */
  expect("NVIDIA H100", 0, 4096, 4096, 0, GT_F32, false, "tiled_even 64");
  expect("NVIDIA H100", 0, 4099, 4097, 0, GT_F32, false, "big 64 + tiled_pad 32");
  expect("NVIDIA H100", 0, 8200, 5468, 0, GT_F32, false, "tiled_pad 32");
  expect("NVIDIA H100", 0, 4096, 4096, 0, GT_U8, false, "words");
  expect("NVIDIA H100", 0, 64, 64, 0, GT_F32, true, "in place tiled_even");
  /* llvmpipe: 4x4 blocks as uvec4s where rows are 16-byte aligned, of
   * elements elsewhere; 2- and 1-byte rows as blocks of words. */
  expect("llvmpipe (LLVM 15.0.6, 256 bits)", 0, 1024, 1024, 0, GT_F32, false, "quads");
  expect("llvmpipe (LLVM 15.0.6, 256 bits)", 0, 1023, 1025, 0, GT_F32, false, "quads of elements");
  expect("llvmpipe (LLVM 15.0.6, 256 bits)", 0, 1024, 1024, 0, GT_U16, false, "words as uvec4s");
  /* Bifrost and Valhall: 4x4 blocks as uvec4s, of elements where rows
   * are off 16 bytes; Adreno and V3D always of elements; Midgard: SIMPLE
   * with no 4x4 blocks (the compilers' statistics:
   * docs/notes/2026-12-mobile-transposes.md). */
  expect("FD630", 1, 100, 100, 0, GT_F32, false, "quads of elements");
  expect("Mali-G52 r1 (Panfrost)", 1, 1024, 1024, 0, GT_F32, false, "quads");
  expect("Mali-G610 (Panfrost)", 1, 1023, 1025, 0, GT_F32, false, "quads of elements");
  expect("V3D 4.2.14.0", 1, 1024, 1024, 0, GT_F32, false, "quads of elements");
  /* Their 2- and 1-byte elements: through shared tiles of words but on
   * Adreno. */
  expect("Mali-G52 r1 (Panfrost)", 1, 1024, 1024, 0, GT_U8, false, "words");
  expect("V3D 4.2.14.0", 1, 1024, 1024, 0, GT_U16, false, "words");
  /* Adreno's 1- and 2-byte elements: blocks of words in registers, never
   * as uvec4s (its compiler's registers: docs/notes/2026-11-mobile-compilers.md,
   * "Adreno's transposes of 1- and 2-byte elements"). */
  expect("FD630", 1, 1024, 1024, 0, GT_U8, false, "words in registers");
  expect("FD630", 1, 1024, 1024, 0, GT_U16, false, "words in registers");
  expect("llvmpipe (LLVM 15.0.6, 256 bits)", 0, 1022, 1022, 0, GT_U16, false, "words in registers");
  expect("Mali-T860", 1, 100, 100, 0, GT_F32, false, "simple");
  /* Views longer than a storage block go in blocks. */
  /* 4 KiB blocks at 256-byte alignment bind 960 elements: 4 rows of a
   * 200-element pitch each way. */
  expect("NVIDIA H100", 2, 200, 200, 0, GT_F32, false, "blocks of 4x4");
}

/* Renderer strings, as drivers write them, to the entry they take: a
 * model number matches whole (the G310 is Valhall, the G31 Bifrost). */
static void entries_by_renderer(void) {
  static const char *const cases[][2] = {
      {"llvmpipe (LLVM 15.0.6, 256 bits)", "llvmpipe"},
      {"NVIDIA H200/PCIe/SSE2", "NVIDIA"},
      {"Mali-T860 (Panfrost)", "Mali Midgard"},
      {"Mali-G31 (Panfrost)", "Mali Bifrost"},
      {"Mali-G52 r1 (Panfrost)", "Mali Bifrost"},
      {"Mali-G57 (Panfrost)", "Mali Valhall"},
      {"Mali-G310 (Panfrost)", "Mali Valhall"},
      {"Mali-G610 (Panfrost)", "Mali Valhall"},
      {"Mali-G710", "Mali Valhall"},
      {"FD630", "Adreno"},
      {"FD750", "Adreno"},
      {"Adreno (TM) 740", "Adreno"},
      {"V3D 4.2.14.0", "VideoCore"},
      {"VideoCore VI", "VideoCore"},
      {"some other GPU", "fallback"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *name = gt__device_entry(cases[i][0])->name;
    if (strcmp(name, cases[i][1]) != 0) {
      fprintf(stderr, "renderer \"%s\": entry \"%s\", not \"%s\"\n", cases[i][0], name, cases[i][1]);
      check_failed++;
    } else {
      check_passed++;
    }
  }
}

int main(void) {
  entries_by_renderer();
  walk();
  walk_images();
  named_cases();
  printf("%lu image plans checked, %lu refused\n", image_plans, image_refusals);
  printf("%lu plans checked (%lu in place, %lu in blocks), %lu refused; routes:", plans, in_place, in_blocks,
         refusals);
  for (int r = 0; r <= GT_ROUTE_WORDS_UVEC4; r++)
    printf(" %lu", routes_seen[r]);
  printf("\n");
  /* The walk reaches every route. */
  for (int r = 0; r <= GT_ROUTE_WORDS_UVEC4; r++)
    CHECK(routes_seen[r] > 0);
  return CHECK_SUMMARY();
}
