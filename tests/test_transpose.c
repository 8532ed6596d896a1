/* Transpose (and copy) on the GPU against the CPU, bit for bit: every strategy x type
 * x tile x awkward shape, as sections with offsets and pitch inside larger
 * buffers. The destination buffer is poisoned first, and every word of it
 * is checked afterwards: the transposed view, and the guard elements around
 * and between its rows that must keep the poison.
 *
 * `--packed` runs the same cases on the 2- and 1-byte types, whose
 * elements share 32-bit words: odd offsets and pitches put a view's edges
 * inside words whose other elements must not change. */
#include "check.h"
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const gt_strategy strategies[] = {GT_STRATEGY_AUTO,       GT_STRATEGY_SIMPLE,
                                         GT_STRATEGY_TILED_EVEN, GT_STRATEGY_TILED_PAD,
                                         GT_STRATEGY_TRUNCATE_A, GT_STRATEGY_TRUNCATE_B};
static const gt_type types_32[] = {GT_F32, GT_I32, GT_U32};
/* Every packing (2 and 4 per word) among the first three, which the
 * combinations run; the sample and layout cases cycle through all five. */
static const gt_type types_packed[] = {GT_U8, GT_F16, GT_I8, GT_U16, GT_I16};
static const gt_type *types = types_32;
static size_t type_count = 3;
static const uint32_t tiles[] = {0, 8, 16, 32};

static gt_context *ctx;
/* --sampled: the combinations and the striped shapes run a third of
 * their cases (gt_test_runs). */
static bool sampled;
static uint32_t rng = 12345;
static unsigned long cases, block_cases;

/* How a view sits in its buffer: `guard` elements before it, `extra`
 * elements between rows (pitch = cols + extra), `guard` elements after it. */
typedef struct layout {
  uint32_t guard, extra;
} layout;

/* When set, every view gets this layout (cases that need an alignment). */
static const layout *forced_layout;

static layout random_layout(void) {
  if (forced_layout) return *forced_layout;
  layout l = {0, 0};
  if (gt_test_rand(&rng) % 4 != 0) { /* mostly sections, sometimes tight */
    l.guard = gt_test_rand_range(&rng, 1, 70);
    l.extra = gt_test_rand_range(&rng, 0, 9);
  }
  return l;
}

/* The buffer's 32-bit words: the layout's elements, rounded up. */
static size_t buffer_words(gt_extent e, layout l, gt_type t) {
  size_t elements = (size_t)l.guard * 2 + (size_t)(e.rows - 1) * (e.cols + l.extra) + e.cols;
  return (elements * gt_type_size(t) + 3) / 4;
}

static gt_view view_in(GLuint buffer, gt_extent e, layout l, gt_type t) {
  gt_view v = {buffer, l.guard, e.rows, e.cols, l.extra ? e.cols + l.extra : 0, t};
  return v;
}

/* One transpose (or, with copy set, one gt_copy), checked word for word;
 * returns false on a mismatch so the caller can name the case once. */
static bool run_op(gt_extent e, gt_type type, gt_strategy strategy, uint32_t tile, bool copy) {
  layout ls = random_layout(), ld = random_layout();
  gt_extent et = copy ? e : (gt_extent){e.cols, e.rows};
  size_t ns = buffer_words(e, ls, type), nd = buffer_words(et, ld, type), size = gt_type_size(type);
  uint32_t seed = gt_test_rand(&rng);
  GLuint bs = gt_test_buffer(ns, gt_test_noise, seed);
  GLuint bd = gt_test_buffer(nd, gt_test_poison, seed);
  uint32_t *src = malloc(ns * 4), *got = malloc((ns > nd ? ns : nd) * 4), *want = malloc(nd * 4);
  bool ok = bs && bd && src && got && want;
  if (ok) {
    gt_view vs = view_in(bs, e, ls, type), vd = view_in(bd, et, ld, type);
    gt_transpose_desc d = {strategy, tile};
    gt_status s = copy ? gt_copy(ctx, vs, vd) : gt_transpose(ctx, vs, vd, &d);
    if (!gt_test_window_fits(ctx, vs, vs.rows, vs.cols) || !gt_test_window_fits(ctx, vd, vd.rows, vd.cols))
      block_cases++;
    uint32_t t = tile ? tile : gt_context_default_tile(ctx);
    bool uneven = e.rows % t || e.cols % t;
    gt_status want_status =
        !copy && strategy == GT_STRATEGY_TILED_EVEN && uneven ? GT_ERR_SHAPE_MISMATCH : GT_OK;
    /* Views cut into blocks (--max-storage-block): TILED_EVEN's blocks
     * are whole tiles at least. */
    if (want_status == GT_OK && !copy && strategy == GT_STRATEGY_TILED_EVEN &&
        (!gt_test_window_fits(ctx, vs, t, t) || !gt_test_window_fits(ctx, vd, t, t)))
      want_status = GT_ERR_UNSUPPORTED;
    /* Packed kernels need shader atomics (gt_context_has_atomics), but
     * for AUTO's blocks of words covering the whole transpose: both
     * views' rows on words, whole blocks, each view in one binding. */
    uint32_t pack = (uint32_t)(4 / size);
    bool one_binding = gt_test_view_fits(ctx, vs) && gt_test_view_fits(ctx, vd);
    gt_strategy auto_is = gt_context_auto_strategy(ctx); /* SIMPLE turns TILED_PAD for packed types */
    bool auto_tiled = auto_is != GT_STRATEGY_TRUNCATE_A && auto_is != GT_STRATEGY_TRUNCATE_B;
    bool words_only = !copy && strategy == GT_STRATEGY_AUTO && auto_tiled && one_binding &&
                      ls.guard % pack == 0 && (e.cols + ls.extra) % pack == 0 && ld.guard % pack == 0 &&
                      (et.cols + ld.extra) % pack == 0 && e.rows % pack == 0 && e.cols % pack == 0;
    if (want_status == GT_OK && size < 4 && !words_only && !gt_context_has_atomics(ctx))
      want_status = GT_ERR_UNSUPPORTED;
    CHECK_STATUS(s, want_status);
    ok = s == want_status;
    /* Expected destination: poison everywhere, the transpose in the view
     * (unless the call was refused, when nothing may change). */
    for (size_t i = 0; i < ns; i++)
      src[i] = gt_test_noise(i, seed);
    for (size_t i = 0; i < nd; i++)
      want[i] = gt_test_poison(i, seed);
    if (want_status == GT_OK) {
      /* Element by element, as bytes: little-endian hosts and GPUs keep
       * a word's first element in its low bytes. */
      uint32_t ps = e.cols + ls.extra, pd = et.cols + ld.extra;
      unsigned char *wb = (unsigned char *)want;
      const unsigned char *sb = (const unsigned char *)src;
      for (uint32_t r = 0; r < e.rows; r++)
        for (uint32_t c = 0; c < e.cols; c++)
          memcpy(wb + (ld.guard + (copy ? (size_t)r * pd + c : (size_t)c * pd + r)) * size,
                 sb + (ls.guard + (size_t)r * ps + c) * size, size);
    }
    ok = ok && gt_test_read_all(ctx, bd, nd, got) == 0 && memcmp(got, want, nd * 4) == 0;
    /* The source must be left as it was. */
    ok = ok && gt_test_read_all(ctx, bs, ns, got) == 0 && memcmp(got, src, ns * 4) == 0;
    if (!ok) {
      size_t bad = 0;
      while (bad < nd && got[bad] == want[bad])
        bad++;
      fprintf(stderr, "  first differing word %zu\n", bad);
    }
  }
  CHECK(ok);
  cases++;
  free(src);
  free(got);
  free(want);
  glDeleteBuffers(1, &bs);
  glDeleteBuffers(1, &bd);
  return ok;
}

static bool run_case(gt_extent e, gt_type type, gt_strategy strategy, uint32_t tile) {
  return run_op(e, type, strategy, tile, false);
}

static void report(bool ok, gt_extent e, gt_type type, gt_strategy s, uint32_t tile) {
  if (!ok)
    fprintf(stderr, "FAILED: %ux%u type %d %s tile %u\n", e.rows, e.cols, (int)type, gt_strategy_name(s),
            tile);
}

/* Shapes for one tile size: the corners of the problem (1x1, one row, one
 * column), tile - 1 / tile / tile + 1 in each dimension, primes, random. */
static size_t shapes_for(uint32_t t, gt_extent *out) {
  size_t n = 0;
  out[n++] = (gt_extent){1, 1};
  out[n++] = (gt_extent){1, 37};
  out[n++] = (gt_extent){45, 1};
  out[n++] = (gt_extent){t - 1, t + 1};
  out[n++] = (gt_extent){t, t};
  out[n++] = (gt_extent){t + 1, t - 1};
  out[n++] = (gt_extent){2 * t, 3 * t};
  out[n++] = (gt_extent){3 * t + 1, 2 * t};
  out[n++] = (gt_extent){17, 33};
  out[n++] = (gt_extent){67, 45};
  for (int i = 0; i < 2; i++)
    out[n++] = (gt_extent){gt_test_rand_range(&rng, 1, 300), gt_test_rand_range(&rng, 1, 300)};
  return n;
}

static void test_all_combinations(void) {
  gt_extent shapes[16];
  for (size_t ti = 0; ti < sizeof tiles / sizeof tiles[0]; ti++) {
    uint32_t t = tiles[ti] ? tiles[ti] : gt_context_default_tile(ctx);
    for (size_t si = 0; si < sizeof strategies / sizeof strategies[0]; si++) {
      for (size_t yi = 0; yi < 3; yi++) {
        size_t n = shapes_for(t, shapes);
        for (size_t k = 0; k < n; k++)
          if (gt_test_runs(sampled))
            report(run_case(shapes[k], types[yi], strategies[si], tiles[ti]), shapes[k], types[yi],
                   strategies[si], tiles[ti]);
      }
    }
  }
}

/* The sample's own size, once per strategy and tile. */
static void test_sample_size(void) {
  gt_extent e = {999, 666};
  for (size_t ti = 0; ti < sizeof tiles / sizeof tiles[0]; ti++)
    for (size_t si = 0; si < sizeof strategies / sizeof strategies[0]; si++) {
      gt_type type = types[(ti + si) % type_count];
      report(run_case(e, type, strategies[si], tiles[ti]), e, type, strategies[si], tiles[ti]);
    }
}

/* Sources of 12288 rows or more: the tiled kernels take their groups in
 * stripes of source rows spanning the device table's stripe bytes (1 MiB
 * on llvmpipe: about 2,500 rows of these shapes, so several whole stripes
 * and a partial one at the bottom of 385, 770 or 1540 tile rows; on the
 * H100, 256 MiB, one stripe). Every word of the destination is checked,
 * so a group order that missed or repeated a tile fails. TRUNCATE_A's edge threads work
 * from the tile their group moved: 12289 x 70 has bands beside whole
 * stripes, 12325 x 45 a bottom band under a partial stripe (385, 770 or
 * 1540 tile rows) and a right band of 13 or 5 columns. */
static void test_striped_order(void) {
  static const gt_extent shapes[] = {{12320, 96}, {12289, 70}, {12325, 45}, {12288, 1}};
  /* With storage blocks of a few KiB (the blocks run) these would be
   * hundreds of blocks each, and blocks do not change the group order. */
  if (gt_context_limits(ctx).max_storage_block_bytes < ((uint64_t)1 << 20)) return;
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
    for (size_t ti = 0; ti < sizeof tiles / sizeof tiles[0]; ti++)
      for (size_t si = 0; si < sizeof strategies / sizeof strategies[0]; si++) {
        if (!gt_test_runs(sampled)) continue;
        gt_type type = types[(i + ti + si) % type_count];
        report(run_case(shapes[i], type, strategies[si], tiles[ti]), shapes[i], type, strategies[si],
               tiles[ti]);
      }
}

/* More groups than one dispatch may have (65,535 per dimension at the ES
 * minimum): the grid must be split with a group base. */
static void test_group_count_split(void) {
  gt_limits l = gt_context_limits(ctx);
  uint32_t cols = 0;
  /* SIMPLE groups are 32 wide; 8-tiles are 8 wide. Aim past the limit. */
  if (l.max_group_count[0] <= 65535) cols = l.max_group_count[0] * 8 + 13;
  if (cols == 0) {
    printf("group-count split: limit %u too large to reach cheaply, not run\n", l.max_group_count[0]);
    return;
  }
  gt_extent row = {1, cols}, column = {cols, 1};
  report(run_case(row, types[0], GT_STRATEGY_TILED_PAD, 8), row, types[0], GT_STRATEGY_TILED_PAD, 8);
  report(run_case(column, types[2], GT_STRATEGY_TRUNCATE_B, 8), column, types[2], GT_STRATEGY_TRUNCATE_B, 8);
  /* Split in y while the tiled kernel takes its groups in stripes (the
   * destination's rows are longer than 12288): stripes restart per dispatch. */
  gt_extent tall = {cols, 17};
  if (l.max_storage_block_bytes >= ((uint64_t)1 << 20)) /* else thousands of blocks */
    report(run_case(tall, types[0], GT_STRATEGY_TILED_PAD, 8), tall, types[0], GT_STRATEGY_TILED_PAD, 8);
  gt_extent wide = {1, l.max_group_count[0] * 32 + 5};
  report(run_case(wide, types[1], GT_STRATEGY_SIMPLE, 0), wide, types[1], GT_STRATEGY_SIMPLE, 0);
}

/* gt_copy on the same awkward shapes and layouts: exact, guards intact. */
static void test_copy(void) {
  gt_extent shapes[16];
  size_t n = shapes_for(16, shapes);
  for (size_t k = 0; k < n; k++)
    for (size_t yi = 0; yi < type_count; yi++)
      if (!run_op(shapes[k], types[yi], GT_STRATEGY_AUTO, 0, true))
        fprintf(stderr, "FAILED: copy %ux%u type %d\n", shapes[k].rows, shapes[k].cols, (int)types[yi]);
  gt_extent big = {999, 666};
  if (!run_op(big, types[0], GT_STRATEGY_AUTO, 0, true)) fprintf(stderr, "FAILED: copy 999x666\n");
}

/* Transposing twice gives the input back, across two strategies. */
static void test_twice_is_identity(void) {
  gt_extent e = {123, 77};
  size_t n = (size_t)e.rows * e.cols;
  GLuint a = gt_test_buffer(n, gt_test_noise, 7), b = gt_test_buffer(n, gt_test_poison, 7),
         c = gt_test_buffer(n, gt_test_poison, 8);
  uint32_t *want = malloc(n * 4), *got = malloc(n * 4);
  gt_view va = {a, 0, e.rows, e.cols, 0, GT_F32}, vb = {b, 0, e.cols, e.rows, 0, GT_F32},
          vc = {c, 0, e.rows, e.cols, 0, GT_F32};
  gt_transpose_desc d1 = {GT_STRATEGY_TRUNCATE_A, 16}, d2 = {GT_STRATEGY_TILED_PAD, 32};
  CHECK_STATUS(gt_transpose(ctx, va, vb, &d1), GT_OK);
  CHECK_STATUS(gt_transpose(ctx, vb, vc, &d2), GT_OK);
  for (size_t i = 0; i < n; i++)
    want[i] = gt_test_noise(i, 7);
  CHECK(gt_test_read_all(ctx, c, n, got) == 0 && memcmp(got, want, n * 4) == 0);
  free(want);
  free(got);
  glDeleteBuffers(1, &a);
  glDeleteBuffers(1, &b);
  glDeleteBuffers(1, &c);
}

/* Views whose rows start 16-byte aligned (guard and pitch multiples of 16
 * bytes), where AUTO on llvmpipe moves 4x4 blocks as uvec4s (of 4-byte
 * elements, or of blocks of words of packed ones), and SIMPLE, words or
 * the packed tiled kernel do the rows and columns left over. */
static void test_aligned_auto(void) {
  static const gt_extent shapes[] = {{4, 4},  {8, 12}, {64, 96},  {67, 48},   {45, 45},
                                     {3, 64}, {64, 3}, {129, 77}, {256, 260}, {301, 517}};
  static const layout layouts[] = {{0, 0}, {8, 4}, {4, 8}, {16, 0}};
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
    for (size_t j = 0; j < sizeof layouts / sizeof layouts[0]; j++) {
      /* Guard and pitch cols + extra multiples of 16 bytes for the
       * blocks (of 16 elements for every packed type, 4 words for u8). */
      uint32_t align = types == types_packed ? 16 : 4;
      layout l = layouts[j];
      l.guard *= align / 4;
      l.extra *= align / 4;
      l.extra += (align - shapes[i].cols % align) % align;
      forced_layout = &l;
      for (size_t t = 0; t < type_count; t++)
        if (!run_op(shapes[i], types[t], GT_STRATEGY_AUTO, 0, false))
          printf("FAILED: aligned %ux%u guard %u extra %u\n", shapes[i].rows, shapes[i].cols, l.guard,
                 l.extra);
      forced_layout = NULL;
    }
}

/* AUTO over every shape x layout, a type each in turn; what names the
 * cases in a failure. */
static void run_auto_layouts(const char *what, const gt_extent *shapes, size_t shape_count,
                             const layout *layouts, size_t layout_count) {
  for (size_t i = 0; i < shape_count; i++)
    for (size_t j = 0; j < layout_count; j++) {
      forced_layout = &layouts[j];
      gt_type type = types[(i + j) % type_count];
      if (!run_op(shapes[i], type, GT_STRATEGY_AUTO, 0, false))
        printf("FAILED: %s %ux%u guard %u extra %u\n", what, shapes[i].rows, shapes[i].cols, layouts[j].guard,
               layouts[j].extra);
      forced_layout = NULL;
    }
}

/* Views whose rows start at every alignment (odd guards and pitches),
 * where AUTO on llvmpipe moves 4x4 blocks of single elements, and SIMPLE
 * the rows and columns left over. */
static void test_unaligned_auto(void) {
  static const gt_extent shapes[] = {{4, 4}, {5, 7}, {8, 12}, {67, 48}, {129, 77}, {3, 64}};
  static const layout layouts[] = {{1, 1}, {2, 3}, {3, 0}, {5, 2}};
  run_auto_layouts("unaligned", shapes, sizeof shapes / sizeof shapes[0], layouts,
                   sizeof layouts / sizeof layouts[0]);
}

/* Shapes around the device table's big tile (64 on NVIDIA), with rows
 * 16-byte aligned or not: where the big tile does not divide the extent,
 * AUTO's padded strategy runs it on the main section and the padded kernel
 * on the bands, or the padded kernel alone where rows are aligned. */
static void test_big_tile_sections(void) {
  static const gt_extent shapes[] = {{64, 65}, {65, 64}, {127, 129}, {130, 200}, {200, 132}, {63, 300}};
  static const layout layouts[] = {{0, 0}, {4, 4}, {3, 1}, {8, 0}};
  run_auto_layouts("big-tile sections", shapes, sizeof shapes / sizeof shapes[0], layouts,
                   sizeof layouts / sizeof layouts[0]);
}

/* AUTO on a context whose AUTO truncates (gt_context_desc
 * .transpose_strategy): views on words and off them, every type; packed
 * types run the truncating strategy's kernels, not the blocks of words. */
static void test_truncating_contexts(bool min_limits) {
  static const gt_strategy truncating[] = {GT_STRATEGY_TRUNCATE_A, GT_STRATEGY_TRUNCATE_B};
  static const gt_extent shapes[] = {{64, 64}, {67, 48}, {3, 64}, {40, 36}};
  static const layout layouts[] = {{0, 0}, {16, 16}, {3, 1}};
  gt_context *saved = ctx;
  for (int i = 0; i < 2; i++) {
    gt_context_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.transpose_strategy = truncating[i];
    desc.min_limits = min_limits;
    CHECK_STATUS(gt_context_init(NULL, 0, &desc, &ctx), GT_OK);
    if (ctx == NULL) break;
    run_auto_layouts(gt_strategy_name(truncating[i]), shapes, sizeof shapes / sizeof shapes[0], layouts,
                     sizeof layouts / sizeof layouts[0]);
    gt_context_release(ctx);
  }
  ctx = saved;
}

int main(int argc, char **argv) {
  gt_test_env env;
  int rc = gt_test_open(argc, argv, &env);
  if (rc != 0) return rc;
  ctx = env.ctx;
  sampled = env.sampled;
  if (gt_test_flag(argc, argv, "--packed")) {
    types = types_packed;
    type_count = sizeof types_packed / sizeof types_packed[0];
  }
  test_all_combinations();
  test_sample_size();
  test_striped_order();
  test_group_count_split();
  test_twice_is_identity();
  test_copy();
  test_aligned_auto();
  test_unaligned_auto();
  test_big_tile_sections();
  test_truncating_contexts(env.min_limits);
  printf("%lu transposes and copies checked word for word, %lu of them on views longer than a storage "
         "block\n",
         cases, block_cases);
  gt_test_close(&env);
  return CHECK_SUMMARY();
}
