/* 8-bit quantised matmul (gt_quantization): GT_U8 and GT_I8 a and b with
 * zero points into a GT_I32 c, or requantised into a c of their type,
 * bit for bit against the integer reference (quantized_reference.h),
 * over AUTO and SIMPLE in every transpose case and the awkward shapes of
 * the f32 suite (the tiled strategies refuse them), K past a slice, the extremes where a 32-bit sum just fits and
 * just does not, batches, and a write → multiply → read loop. Operands and
 * c sit at odd offsets and pitches, so their bytes share words with guard
 * bytes, which must keep their poison; refused calls write nothing. */
#include "check.h"
#include "harness.h"
#include "quantized_reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gt_context *ctx;
static uint32_t rng = 4242;
static unsigned long cases;
/* When set, product_make puts a's and b's rows on whole words. */
static bool words_aligned;
/* The epilogue run_case adds: 0 none; 1 an I32 bias per column and RELU;
 * 2 a bias per row (pitch 3) and CLAMP. With per_column an 8-bit c takes
 * each column's multiplier and shift from views. */
static int epilogue;
static bool per_column;
/* Their values for the case running: bias[2 + j] per column, bias[2 + 3 i]
 * per row; multipliers[1 + j], shifts[1 + j]; CLAMP's bounds. */
static struct {
  int32_t *bias, *multipliers, *shifts;
  int32_t lo, hi;
} extra;

typedef enum { BYTES_RANDOM, BYTES_EXTREME } bytes_kind;

/* Element i of a run of c's words: a GT_I32 word, or a byte of c_type. */
static int32_t c_at(const uint32_t *w, size_t i, gt_type c_type) {
  return c_type == GT_I32 ? (int32_t)w[i] : quantized_at(w, i, c_type);
}

/* Words enough for `elements` elements of type t. */
static size_t words_of(size_t elements, gt_type t) { return t == GT_I32 ? elements : (elements + 3) / 4; }

/* The operands, c and its guards of one product; c's elements start at
 * c_off with pitch c_pitch. */
typedef struct product {
  uint32_t m, n, k;
  bool ta, tb;
  gt_type type, c_type;
  uint32_t *a, *b, *c0;
  size_t a_off, a_pitch, b_off, b_pitch, c_off, c_pitch;
  size_t a_words, b_words, c_words;
} product;

static void product_free(product *p) {
  free(p->a);
  free(p->b);
  free(p->c0);
}

/* Fills a product: random bytes, or every byte an extreme of the type
 * (the value farthest from the zero point: 255 or 0, 127 or -128). */
static bool product_make(product *p, uint32_t m, uint32_t n, uint32_t k, bool ta, bool tb, gt_type type,
                         gt_type c_type, bytes_kind kind, const gt_quantization *q) {
  memset(p, 0, sizeof *p);
  p->m = m, p->n = n, p->k = k, p->ta = ta, p->tb = tb, p->type = type, p->c_type = c_type;
  uint32_t ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
  p->a_off = 1, p->a_pitch = ac + 2, p->b_off = 3, p->b_pitch = bc + 1;
  if (words_aligned) /* rows on whole words: the registers kernel's quads are words */
    p->a_off = 8, p->a_pitch = (ac + 7) / 4 * 4, p->b_off = 4, p->b_pitch = (bc + 3) / 4 * 4 + 4;
  p->c_off = 5, p->c_pitch = n + 3;
  p->a_words = words_of(p->a_off + (ar - 1) * p->a_pitch + ac + 2, type);
  p->b_words = words_of(p->b_off + (br - 1) * p->b_pitch + bc + 2, type);
  p->c_words = words_of(p->c_off + (m - 1) * p->c_pitch + n + 5, c_type);
  p->a = malloc(p->a_words * 4), p->b = malloc(p->b_words * 4), p->c0 = malloc(p->c_words * 4);
  if (!p->a || !p->b || !p->c0) return false;
  int32_t lo = type == GT_I8 ? -128 : 0, hi = type == GT_I8 ? 127 : 255;
  uint32_t far_a = (uint32_t)(q->zero_a - lo > hi - q->zero_a ? lo : hi);
  uint32_t far_b = (uint32_t)(q->zero_b - lo > hi - q->zero_b ? lo : hi);
  for (size_t i = 0; i < p->a_words; i++)
    p->a[i] = kind == BYTES_EXTREME ? far_a * 0x01010101u : gt_test_rand(&rng);
  for (size_t i = 0; i < p->b_words; i++)
    p->b[i] = kind == BYTES_EXTREME ? far_b * 0x01010101u : gt_test_rand(&rng);
  for (size_t i = 0; i < p->c_words; i++)
    p->c0[i] = gt_test_rand(&rng);
  return true;
}

static gt_view view_a(const product *p, GLuint buffer) {
  return (gt_view){buffer, p->a_off, p->ta ? p->k : p->m, p->ta ? p->m : p->k, (uint32_t)p->a_pitch, p->type};
}
static gt_view view_b(const product *p, GLuint buffer) {
  return (gt_view){buffer, p->b_off, p->tb ? p->n : p->k, p->tb ? p->k : p->n, (uint32_t)p->b_pitch, p->type};
}
static gt_view view_c(const product *p, GLuint buffer) {
  return (gt_view){buffer, p->c_off, p->m, p->n, (uint32_t)p->c_pitch, p->c_type};
}

/* The exact sum of c[i][j]; the caller's zero points keep it in 32 bits. */
static int32_t reference_sum(const product *p, uint32_t i, uint32_t j, const gt_quantization *q) {
  int64_t sum = 0;
  for (uint32_t kk = 0; kk < p->k; kk++) {
    size_t ai = p->a_off + (p->ta ? (size_t)kk * p->a_pitch + i : (size_t)i * p->a_pitch + kk);
    size_t bi = p->b_off + (p->tb ? (size_t)j * p->b_pitch + kk : (size_t)kk * p->b_pitch + j);
    sum += (int64_t)(quantized_at(p->a, ai, p->type) - q->zero_a) * (quantized_at(p->b, bi, p->type) - q->zero_b);
  }
  CHECK(sum >= INT32_MIN && sum <= INT32_MAX);
  return (int32_t)sum;
}

/* c[i][j] as the library defines it: the sum, plus the bias (wrapping),
 * requantised for an 8-bit c (per column with per_column, whose shifts
 * count as -31..30), then activated in c's values. */
static int32_t expected(const product *p, uint32_t i, uint32_t j, const gt_quantization *q) {
  int32_t v = reference_sum(p, i, j, q), floor = 0;
  if (epilogue) v = (int32_t)((uint32_t)v + (uint32_t)extra.bias[epilogue == 1 ? 2 + j : 2 + 3 * (size_t)i]);
  if (p->c_type != GT_I32) {
    gt_quantization r = *q;
    if (per_column) {
      int32_t shift = extra.shifts[1 + j];
      r.multiplier = extra.multipliers[1 + j];
      r.shift = shift < -31 ? -31 : shift > 30 ? 30 : shift;
    }
    v = quantized_requantize(v, &r, p->c_type);
    floor = q->zero_c;
  }
  if (epilogue == 1) v = v < floor ? floor : v;
  if (epilogue == 2) v = v < extra.lo ? extra.lo : v > extra.hi ? extra.hi : v;
  return v;
}

/* Compares c's words after a call that returned s: every element of c the
 * reference (s == GT_OK), every other byte or word as it was. */
static size_t wrong_elements(const product *p, const uint32_t *got, gt_status s, const gt_quantization *q) {
  size_t bad = 0, elements = p->c_type == GT_I32 ? p->c_words : p->c_words * 4;
  for (size_t e = 0; e < elements; e++) {
    bool inside = s == GT_OK && e >= p->c_off && (e - p->c_off) % p->c_pitch < p->n &&
                  (e - p->c_off) / p->c_pitch < p->m;
    int32_t want = c_at(p->c0, e, p->c_type);
    if (inside) {
      uint32_t i = (uint32_t)((e - p->c_off) / p->c_pitch), j = (uint32_t)((e - p->c_off) % p->c_pitch);
      want = expected(p, i, j, q);
    }
    if (c_at(got, e, p->c_type) != want && bad++ < 3)
      fprintf(stderr, "  c element %zu: %d, want %d%s\n", e, c_at(got, e, p->c_type), want,
              inside ? "" : " (outside c)");
  }
  return bad;
}

/* One product through gt_matmul; false on any wrong element or guard. */
static bool run_case(uint32_t m, uint32_t n, uint32_t k, bool ta, bool tb, gt_type type, gt_type c_type,
                     gt_strategy strategy, uint32_t tile, const gt_quantization *q, bytes_kind kind,
                     gt_status want) {
  product p;
  bool ok = product_make(&p, m, n, k, ta, tb, type, c_type, kind, q);
  GLuint ba = ok ? gt_test_buffer_of(p.a, p.a_words) : 0, bb = ok ? gt_test_buffer_of(p.b, p.b_words) : 0;
  GLuint bc = ok ? gt_test_buffer_of(p.c0, p.c_words) : 0;
  gt_matmul_desc d = {.strategy = strategy, .tile = tile, .trans_a = ta, .trans_b = tb, .quant = *q};
  /* The epilogue's and per-column views, from word 2 and word 1. */
  size_t bias_words = 2 + 3 * ((size_t)m + n);
  extra.bias = malloc(bias_words * 4), extra.multipliers = malloc((n + 1) * 4),
  extra.shifts = malloc((n + 1) * 4);
  ok = ok && extra.bias && extra.multipliers && extra.shifts;
  for (size_t i = 0; ok && i < bias_words; i++)
    extra.bias[i] = (int32_t)gt_test_rand_range(&rng, 0, 400000) - 200000;
  if (ok) extra.bias[2] = INT32_MAX; /* column or row 0 wraps */
  for (uint32_t j = 0; ok && j <= n; j++) {
    extra.multipliers[j] = (int32_t)(0x40000000u + gt_test_rand(&rng) % 0x40000000u);
    /* Past -31..30 now and then: a shift of 32 or more is no shift on
     * some CPUs and GPUs, so an unclamped one shows. */
    extra.shifts[j] = j % 7 == 3 ? (j % 2 ? 31 : -33) : q->shift + (int32_t)(j % 3) - 1;
  }
  int32_t lo = c_type == GT_I8 ? -100 : c_type == GT_U8 ? 20 : -3000000;
  extra.lo = lo, extra.hi = c_type == GT_I8 ? 90 : c_type == GT_U8 ? 230 : 4000000;
  GLuint bbias = ok && epilogue ? gt_test_buffer_of((const uint32_t *)extra.bias, bias_words) : 0;
  GLuint bm = ok && per_column ? gt_test_buffer_of((const uint32_t *)extra.multipliers, n + 1) : 0;
  GLuint bs = ok && per_column ? gt_test_buffer_of((const uint32_t *)extra.shifts, n + 1) : 0;
  if (bbias) {
    d.bias = epilogue == 1 ? (gt_view){bbias, 2, 1, n, 0, GT_I32} : (gt_view){bbias, 2, m, 1, 3, GT_I32};
    d.act = epilogue == 1 ? GT_ACTIVATION_RELU : GT_ACTIVATION_CLAMP;
    d.act_lo = (float)extra.lo, d.act_hi = (float)extra.hi;
  }
  if (bm) {
    d.quant.multiplier = d.quant.shift = 0;
    d.quant.multipliers = (gt_view){bm, 1, 1, n, 0, GT_I32};
    d.quant.shifts = (gt_view){bs, 1, 1, n, 0, GT_I32};
  }
  uint32_t t = tile ? tile : gt_context_default_tile(ctx);
  /* In the order the library checks: the fields, the plan, the device. */
  gt_limits limits = gt_context_limits(ctx);
  if (want == GT_OK && per_column && limits.max_storage_blocks < 6) want = GT_ERR_UNSUPPORTED;
  if (want == GT_OK) want = gt_test_tiled_matmul_status(&d, type, false);
  if (want == GT_OK && strategy == GT_STRATEGY_TILED_EVEN && (m % t || n % t || k % t))
    want = GT_ERR_SHAPE_MISMATCH;
  if (want == GT_OK && c_type != GT_I32 && !gt_context_has_atomics(ctx)) want = GT_ERR_UNSUPPORTED;
  gt_status s = ok ? gt_matmul(ctx, view_a(&p, ba), view_b(&p, bb), view_c(&p, bc), &d) : GT_ERR_OUT_OF_MEMORY;
  CHECK_STATUS(s, want);
  uint32_t *got = malloc(p.c_words * 4);
  ok = ok && got && s == want && gt_test_read_all(ctx, bc, p.c_words, got) == 0;
  size_t bad = ok ? wrong_elements(&p, got, s, q) : 0;
  if (!ok || bad)
    fprintf(stderr, "quantized %ux%ux%u ta=%d tb=%d type=%d c=%d strategy=%d tile=%u zero=(%d,%d): %zu wrong\n",
            m, n, k, ta, tb, type, c_type, strategy, tile, q->zero_a, q->zero_b, bad);
  CHECK(ok && bad == 0);
  cases++;
  GLuint buffers[6] = {ba, bb, bc, bbias, bm, bs};
  glDeleteBuffers(6, buffers);
  free(got);
  free(extra.bias), free(extra.multipliers), free(extra.shifts);
  product_free(&p);
  return ok && bad == 0;
}

/* A requantisation with a random multiplier in [2^30, 2^31) and a shift
 * that keeps sums of `k` terms in range for most of c's values. */
static gt_quantization random_quantization(gt_type type, uint32_t k) {
  gt_quantization q = {0};
  int32_t lo = type == GT_I8 ? -128 : 0;
  q.zero_a = lo + (int32_t)gt_test_rand_range(&rng, 0, 255);
  q.zero_b = lo + (int32_t)gt_test_rand_range(&rng, 0, 255);
  q.zero_c = lo + (int32_t)gt_test_rand_range(&rng, 0, 255);
  q.multiplier = (int32_t)(0x40000000u + gt_test_rand(&rng) % 0x40000000u);
  int bits = 0; /* about log2 of a typical sum: 2^14 per term, sqrt(k) terms' worth */
  while ((1u << bits) < k) bits++;
  q.shift = -(14 + bits / 2 - 7);
  return q;
}

static const gt_strategy strategies[] = {GT_STRATEGY_AUTO, GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_EVEN,
                                         GT_STRATEGY_TILED_PAD, GT_STRATEGY_TRUNCATE_B};
enum { STRATEGIES = sizeof strategies / sizeof strategies[0] };

/* Every strategy and transpose case on the suite's awkward shapes, both
 * operand types, c GT_I32 and 8-bit. */
static void test_shapes(bool sampled) {
  static const uint32_t shapes[][3] = {{1, 1, 1},    {1, 37, 5},   {37, 1, 5},  {16, 16, 16}, {15, 17, 33},
                                       {33, 31, 17}, {7, 13, 129}, {64, 48, 32}, {3, 70, 4}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (int t = 0; t < 4; t++)
      for (int st = 0; st < STRATEGIES; st++)
        for (int o = 0; o < 4; o++) {
          if (!gt_test_runs(sampled)) continue;
          gt_type type = o & 1 ? GT_I8 : GT_U8, c_type = o & 2 ? type : GT_I32;
          uint32_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
          gt_quantization q = random_quantization(type, k);
          if (c_type == GT_I32) q.multiplier = q.shift = q.zero_c = 0;
          run_case(m, n, k, t & 1, t & 2, type, c_type, strategies[st], st ? 16 : 0, &q, BYTES_RANDOM, GT_OK);
        }
}

/* Operands whose rows start on whole words, with M, N and K multiples of
 * 4 and not: AUTO's registers kernel reads their quads of bytes as words
 * (along K and across it, by the transposes), with one k per step too. */
static void test_word_quads(bool sampled) {
  static const uint32_t shapes[][3] = {{4, 4, 4}, {32, 64, 36}, {36, 20, 100}, {33, 31, 40}, {8, 12, 13}};
  words_aligned = true;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (int t = 0; t < 4; t++)
      for (int o = 0; o < 4; o++) {
        if (!gt_test_runs(sampled)) continue;
        gt_type type = o & 1 ? GT_I8 : GT_U8, c_type = o & 2 ? type : GT_I32;
        gt_quantization q = random_quantization(type, shapes[s][2]);
        if (c_type == GT_I32) q.multiplier = q.shift = q.zero_c = 0;
        run_case(shapes[s][0], shapes[s][1], shapes[s][2], t & 1, t & 2, type, c_type, GT_STRATEGY_AUTO, 0,
                 &q, BYTES_RANDOM, GT_OK);
      }
  words_aligned = false;
}

/* The tiled strategies, whose kernel sums floats, refuse 8-bit operands
 * at every tile and write nothing; K past one slice (4096) into a GT_I32
 * c, which the slices after the first add to, on AUTO and SIMPLE. */
static void test_tiles_and_slices(bool sampled) {
  for (uint32_t tile = 8; tile <= 32; tile *= 2)
    for (int st = 2; st < STRATEGIES; st++) {
      gt_quantization q = random_quantization(GT_U8, 40);
      run_case(tile + 1, 2 * tile, tile * 2 + 3, false, true, GT_U8, GT_U8, strategies[st], tile, &q, BYTES_RANDOM,
               GT_ERR_UNSUPPORTED);
    }
  gt_quantization q = {.zero_a = 3, .zero_b = 250};
  for (int st = 0; st < 2; st++)
    run_case(9, 18, sampled ? 4099 : 4133, st & 1, false, GT_U8, GT_I32, strategies[st], 0, &q, BYTES_RANDOM,
             GT_OK);
  gt_quantization s = {.zero_a = -5, .zero_b = 0, .multiplier = 0x5A000000, .shift = -20, .zero_c = 3};
  run_case(5, 6, 4096, true, true, GT_I8, GT_I8, GT_STRATEGY_AUTO, 0, &s, BYTES_RANDOM, GT_OK);
}

/* The epilogue in integers (an I32 bias per column with RELU, per row
 * with CLAMP) into each kind of c, per-tensor and per-column
 * requantisation, on every strategy (refused by the tiled ones) and
 * transpose case; and K past a
 * slice, where only the last slice's dispatch may add the bias. */
static void test_epilogue(bool sampled) {
  static const uint32_t shapes[][3] = {{1, 1, 1}, {13, 17, 33}, {32, 32, 32}};
  for (int st = 0; st < STRATEGIES; st++)
    for (int o = 0; o < 6; o++)
      for (int e = 1; e <= 2; e++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
          if (!gt_test_runs(sampled)) continue;
          int t = (st + o + e + (int)s) % 4;
          gt_type type = o & 1 ? GT_I8 : GT_U8, c_type = o >= 2 ? type : GT_I32;
          uint32_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
          gt_quantization q = random_quantization(type, k);
          if (c_type == GT_I32) q.multiplier = q.shift = q.zero_c = 0;
          epilogue = e, per_column = o >= 4;
          run_case(m, n, k, t & 1, t & 2, type, c_type, strategies[st], st ? 8 : 0, &q, BYTES_RANDOM, GT_OK);
        }
  per_column = false;
  gt_quantization q = {.zero_a = 100, .zero_b = 7};
  for (int e = 1; e <= 2; e++) {
    epilogue = e;
    run_case(5, 9, sampled ? 4099 : 4133, e == 2, false, GT_U8, GT_I32,
             e == 1 ? GT_STRATEGY_AUTO : GT_STRATEGY_SIMPLE, 0, &q, BYTES_RANDOM, GT_OK);
  }
  epilogue = 0;
}

/* Where a 32-bit sum just fits: every term at its extreme, K at the most
 * the zero points allow (33,025 for differences of 255, 131,071 for
 * zero points in the middle), and one more refused; an 8-bit c past one
 * slice refused. */
static void test_extremes(bool sampled) {
  gt_quantization u = {.zero_a = 0, .zero_b = 0}, i = {.zero_a = 127, .zero_b = -128};
  gt_quantization middle = {.zero_a = 128, .zero_b = 128};
  run_case(2, 3, 33025, false, false, GT_U8, GT_I32, GT_STRATEGY_AUTO, 0, &u, BYTES_EXTREME, GT_OK);
  run_case(2, 3, 33026, false, false, GT_U8, GT_I32, GT_STRATEGY_AUTO, 0, &u, BYTES_EXTREME, GT_ERR_UNSUPPORTED);
  run_case(3, 2, 33025, true, true, GT_I8, GT_I32, GT_STRATEGY_SIMPLE, 0, &i, BYTES_EXTREME, GT_OK);
  if (!sampled)
    run_case(1, 2, 131071, false, true, GT_U8, GT_I32, GT_STRATEGY_SIMPLE, 0, &middle, BYTES_EXTREME, GT_OK);
  run_case(1, 2, 131072, false, true, GT_U8, GT_I32, GT_STRATEGY_AUTO, 0, &middle, BYTES_EXTREME,
           GT_ERR_UNSUPPORTED);
  /* Saturation: the largest sums clamp to the top of c's range, negative
   * ones to the bottom; the extreme multipliers and shifts. */
  gt_quantization big = {.zero_a = 0, .zero_b = 0, .multiplier = INT32_MAX, .shift = 0, .zero_c = 10};
  run_case(4, 5, 64, false, false, GT_U8, GT_U8, GT_STRATEGY_AUTO, 0, &big, BYTES_EXTREME, GT_OK);
  gt_quantization low = {.zero_a = 127, .zero_b = -128, .multiplier = 1 << 30, .shift = 30, .zero_c = -128};
  run_case(4, 5, 64, false, false, GT_I8, GT_I8, GT_STRATEGY_SIMPLE, 0, &low, BYTES_EXTREME, GT_OK);
  gt_quantization tiny = {.zero_a = 7, .zero_b = 200, .multiplier = 1, .shift = -31, .zero_c = 255};
  run_case(4, 5, 64, true, false, GT_U8, GT_U8, GT_STRATEGY_SIMPLE, 0, &tiny, BYTES_RANDOM, GT_OK);
  for (int r = 0; r < 8; r++) { /* random multipliers, shifts both ways, random bytes */
    gt_quantization q = random_quantization(r & 1 ? GT_I8 : GT_U8, 50);
    q.shift = (int32_t)gt_test_rand_range(&rng, 0, 40) - 31;
    run_case(6, 7, 50, r & 2, r & 4, r & 1 ? GT_I8 : GT_U8, r & 1 ? GT_I8 : GT_U8, GT_STRATEGY_AUTO, 0, &q,
             BYTES_RANDOM, GT_OK);
  }
  /* The roundings' halfway points: multiplier 1/2 makes every odd sum
   * one, and the shift by 7 every sum 64 past a multiple of 128. */
  for (int r = 0; r < 2; r++) {
    gt_type type = r ? GT_I8 : GT_U8;
    gt_quantization half = {.zero_a = r ? 0 : 128, .zero_b = r ? 0 : 128, .multiplier = 1 << 30,
                            .shift = r ? 0 : -7, .zero_c = r ? -1 : 128};
    if (r) half.multiplier = 1 << 30, half.shift = -5;
    run_case(16, 64, 1, false, false, type, type, GT_STRATEGY_SIMPLE, 0, &half, BYTES_RANDOM, GT_OK);
  }
  gt_quantization s = random_quantization(GT_U8, 4096);
  run_case(2, 3, 4097, false, false, GT_U8, GT_U8, GT_STRATEGY_AUTO, 0, &s, BYTES_RANDOM, GT_ERR_UNSUPPORTED);
}

/* Fields a quantised product refuses, c untouched each time. */
static void test_refusals(void) {
  gt_quantization ok8 = {.zero_a = 1, .zero_b = 2, .multiplier = 1 << 30, .shift = -3, .zero_c = 4};
  struct {
    gt_type type, c_type;
    gt_quantization q;
    gt_status want;
  } cases_[] = {
      {GT_U8, GT_I32, {.zero_a = 256}, GT_ERR_INVALID_ARGUMENT},
      {GT_U8, GT_I32, {.zero_b = -1}, GT_ERR_INVALID_ARGUMENT},
      {GT_I8, GT_I32, {.zero_a = 128}, GT_ERR_INVALID_ARGUMENT},
      {GT_U8, GT_I32, {.multiplier = 1 << 30}, GT_ERR_INVALID_ARGUMENT}, /* requantising an I32 c */
      {GT_U8, GT_U8, {.multiplier = 0}, GT_ERR_INVALID_ARGUMENT},
      {GT_U8, GT_U8, {.multiplier = 1, .shift = 31}, GT_ERR_INVALID_ARGUMENT},
      {GT_U8, GT_U8, {.multiplier = 1, .shift = -32}, GT_ERR_INVALID_ARGUMENT},
      {GT_I8, GT_I8, {.multiplier = 1, .zero_c = 200}, GT_ERR_INVALID_ARGUMENT},
      {GT_U8, GT_I8, ok8, GT_ERR_SHAPE_MISMATCH},  /* c of the other signedness */
      {GT_U8, GT_F32, {0}, GT_ERR_SHAPE_MISMATCH}, /* a float c */
  };
  for (size_t i = 0; i < sizeof cases_ / sizeof cases_[0]; i++)
    run_case(3, 5, 7, false, false, cases_[i].type, cases_[i].c_type, GT_STRATEGY_AUTO, 0, &cases_[i].q,
             BYTES_RANDOM, cases_[i].want);

  /* Scaling is float-only; an epilogue's bias is I32 and CLAMP's bounds
   * whole values of c; quantisation on floats is refused. */
  product p;
  gt_quantization none = {0};
  CHECK(product_make(&p, 3, 4, 5, false, false, GT_U8, GT_I32, BYTES_RANDOM, &none));
  GLuint ba = gt_test_buffer_of(p.a, p.a_words), bb = gt_test_buffer_of(p.b, p.b_words);
  GLuint bc = gt_test_buffer_of(p.c0, p.c_words), bf = gt_test_buffer(64, gt_test_noise, 5);
  gt_view va = view_a(&p, ba), vb = view_b(&p, bb), vc = view_c(&p, bc);
  gt_matmul_desc scaled = {.scale = true, .alpha = 1, .beta = 1};
  CHECK_STATUS(gt_matmul(ctx, va, vb, vc, &scaled), GT_ERR_UNSUPPORTED);
  gt_matmul_desc biased = {.bias = {bf, 0, 1, 4, 0, GT_F32}};
  CHECK_STATUS(gt_matmul(ctx, va, vb, vc, &biased), GT_ERR_UNSUPPORTED);
  gt_matmul_desc fraction = {.act = GT_ACTIVATION_CLAMP, .act_lo = -1.5f, .act_hi = 2};
  CHECK_STATUS(gt_matmul(ctx, va, vb, vc, &fraction), GT_ERR_INVALID_ARGUMENT);
  gt_matmul_desc huge = {.act = GT_ACTIVATION_CLAMP, .act_lo = 0, .act_hi = 3e9f};
  CHECK_STATUS(gt_matmul(ctx, va, vb, vc, &huge), GT_ERR_INVALID_ARGUMENT);
  gt_matmul_desc columns_on_i32 = {.quant.multipliers = {bf, 0, 1, 4, 0, GT_I32},
                                   .quant.shifts = {bf, 4, 1, 4, 0, GT_I32}};
  CHECK_STATUS(gt_matmul(ctx, va, vb, vc, &columns_on_i32), GT_ERR_INVALID_ARGUMENT);
  gt_view c8 = {bc, 0, 3, 4, 0, GT_U8};
  gt_matmul_desc wide = {.act = GT_ACTIVATION_CLAMP, .act_lo = 0, .act_hi = 256, .quant.multiplier = 1 << 30};
  CHECK_STATUS(gt_matmul(ctx, va, vb, c8, &wide), GT_ERR_INVALID_ARGUMENT);
  gt_matmul_desc both = {.quant = {.multiplier = 1,
                                   .multipliers = {bf, 0, 1, 4, 0, GT_I32},
                                   .shifts = {bf, 4, 1, 4, 0, GT_I32}}};
  CHECK_STATUS(gt_matmul(ctx, va, vb, c8, &both), GT_ERR_INVALID_ARGUMENT);
  gt_matmul_desc half_columns = {.quant = {.multipliers = {bf, 0, 1, 4, 0, GT_I32}}};
  CHECK_STATUS(gt_matmul(ctx, va, vb, c8, &half_columns), GT_ERR_INVALID_ARGUMENT);
  gt_matmul_desc short_columns = {
      .quant = {.multipliers = {bf, 0, 1, 3, 0, GT_I32}, .shifts = {bf, 4, 1, 4, 0, GT_I32}}};
  CHECK_STATUS(gt_matmul(ctx, va, vb, c8, &short_columns), GT_ERR_SHAPE_MISMATCH);
  gt_matmul_desc float_columns = {
      .quant = {.multipliers = {bf, 0, 1, 4, 0, GT_F32}, .shifts = {bf, 4, 1, 4, 0, GT_I32}}};
  CHECK_STATUS(gt_matmul(ctx, va, vb, c8, &float_columns), GT_ERR_UNSUPPORTED);
  gt_view c_words = {bc, 0, 1, 4, 0, GT_I32};
  gt_matmul_desc on_c = {.quant = {.multipliers = c_words, .shifts = {bf, 4, 1, 4, 0, GT_I32}}};
  gt_status want_on_c = gt_context_has_atomics(ctx) ? GT_ERR_ALIASED : GT_ERR_UNSUPPORTED;
  if (gt_context_limits(ctx).max_storage_blocks < 6) want_on_c = GT_ERR_UNSUPPORTED;
  CHECK_STATUS(gt_matmul(ctx, va, vb, c8, &on_c), want_on_c);
  gt_view fa = {bf, 0, 3, 5, 0, GT_F32}, fb = {bf, 16, 5, 4, 0, GT_F32}, fc = {bf, 40, 3, 4, 0, GT_F32};
  gt_matmul_desc zeroed = {.quant = {.zero_a = 1}};
  CHECK_STATUS(gt_matmul(ctx, fa, fb, fc, &zeroed), GT_ERR_INVALID_ARGUMENT);
  gt_view mixed = vb;
  mixed.type = GT_I8;
  CHECK_STATUS(gt_matmul(ctx, va, mixed, vc, NULL), GT_ERR_SHAPE_MISMATCH);
  uint32_t *got = malloc(p.c_words * 4);
  CHECK(got && gt_test_read_all(ctx, bc, p.c_words, got) == 0 && memcmp(got, p.c0, p.c_words * 4) == 0);
  free(got);
  GLuint buffers[4] = {ba, bb, bc, bf};
  glDeleteBuffers(4, buffers);
  product_free(&p);
}

/* Batches: every product's c equals gt_matmul's of the same views, which
 * equal the reference (run_case's products); odd strides included. */
static void test_batches(void) {
  for (int r = 0; r < 4; r++) {
    gt_type type = r & 1 ? GT_I8 : GT_U8, c_type = r & 2 ? type : GT_I32;
    gt_quantization q = random_quantization(type, 21);
    if (c_type == GT_I32) q.multiplier = q.shift = q.zero_c = 0;
    uint32_t m = 13, n = 10, k = 21, count = 3;
    size_t sa = (size_t)m * k + (r & 1), sb = r == 2 ? 0 : (size_t)k * n + 3, sc = (size_t)m * n + 1 + r;
    gt_type ct = c_type;
    size_t a_words = words_of(sa * count + 8, type), b_words = words_of(sb * count + (size_t)k * n + 8, type);
    size_t c_words = words_of(sc * count + 8, ct);
    GLuint ba = gt_test_buffer(a_words, gt_test_noise, 11 + r), bb = gt_test_buffer(b_words, gt_test_noise, 12 + r);
    GLuint batched = gt_test_buffer(c_words, gt_test_poison, 1), single = gt_test_buffer(c_words, gt_test_poison, 1);
    gt_view va = {ba, 1, m, k, 0, type}, vb = {bb, 2, k, n, 0, type}, vc = {batched, 3, m, n, 0, ct};
    gt_matmul_desc d = {.strategy = r == 3 ? GT_STRATEGY_SIMPLE : GT_STRATEGY_AUTO, .quant = q};
    gt_batch batch = {count, sa, sb, sc};
    gt_status want = c_type != GT_I32 && !gt_context_has_atomics(ctx) ? GT_ERR_UNSUPPORTED : GT_OK;
    CHECK_STATUS(gt_matmul_batched(ctx, va, vb, vc, batch, &d), want);
    for (uint32_t i = 0; i < count && want == GT_OK; i++) {
      gt_view v[3] = {va, vb, vc};
      v[0].offset += i * sa;
      v[1].offset += i * sb;
      v[2].offset += i * sc;
      v[2].buffer = single;
      CHECK_STATUS(gt_matmul(ctx, v[0], v[1], v[2], &d), GT_OK);
    }
    uint32_t *x = malloc(c_words * 4), *y = malloc(c_words * 4);
    CHECK(x && y && gt_test_read_all(ctx, batched, c_words, x) == 0 &&
          gt_test_read_all(ctx, single, c_words, y) == 0 && memcmp(x, y, c_words * 4) == 0);
    free(x);
    free(y);
    GLuint buffers[4] = {ba, bb, batched, single};
    glDeleteBuffers(4, buffers);
  }
}

/* The way an application runs it: new operands written, multiplied, read,
 * round after round on the same buffers. */
static void test_user_loop(void) {
  uint32_t m = 19, n = 23, k = 45;
  gt_quantization q = random_quantization(GT_U8, k);
  product p;
  CHECK(product_make(&p, m, n, k, false, true, GT_U8, GT_U8, BYTES_RANDOM, &q));
  GLuint ba = gt_test_buffer(p.a_words, gt_test_poison, 1), bb = gt_test_buffer(p.b_words, gt_test_poison, 1);
  GLuint bc = gt_test_buffer(p.c_words, gt_test_poison, 1);
  gt_view wa = {ba, 0, 1, (uint32_t)p.a_words, 0, GT_U32}, wb = {bb, 0, 1, (uint32_t)p.b_words, 0, GT_U32};
  gt_view wc = {bc, 0, 1, (uint32_t)p.c_words, 0, GT_U32};
  uint32_t *got = malloc(p.c_words * 4);
  for (int round = 0; round < 4 && got; round++) {
    for (size_t i = 0; i < p.a_words; i++)
      p.a[i] = gt_test_rand(&rng);
    for (size_t i = 0; i < p.b_words; i++)
      p.b[i] = gt_test_rand(&rng);
    CHECK_STATUS(gt_write(ctx, wa, p.a, 0), GT_OK);
    CHECK_STATUS(gt_write(ctx, wb, p.b, 0), GT_OK);
    CHECK_STATUS(gt_write(ctx, wc, p.c0, 0), GT_OK);
    gt_matmul_desc d = {.trans_b = true, .quant = q};
    gt_status want = gt_context_has_atomics(ctx) ? GT_OK : GT_ERR_UNSUPPORTED;
    gt_status s = gt_matmul(ctx, view_a(&p, ba), view_b(&p, bb), view_c(&p, bc), &d);
    CHECK_STATUS(s, want);
    CHECK_STATUS(gt_read(ctx, wc, got, 0), GT_OK);
    CHECK_EQ_U(wrong_elements(&p, got, s, &q), 0);
    q.zero_c = (q.zero_c + 77) % 256;
  }
  free(got);
  GLuint buffers[3] = {ba, bb, bc};
  glDeleteBuffers(3, buffers);
  product_free(&p);
}

int main(int argc, char **argv) {
  gt_test_env env;
  int rc = gt_test_open(argc, argv, &env);
  if (rc != 0) return rc;
  ctx = env.ctx;
  test_refusals();
  test_shapes(env.sampled);
  test_word_quads(env.sampled);
  test_epilogue(env.sampled);
  test_tiles_and_slices(env.sampled);
  test_extremes(env.sampled);
  test_batches();
  test_user_loop();
  printf("%lu quantised products checked element by element, guards too\n", cases);
  gt_test_close(&env);
  return CHECK_SUMMARY();
}
