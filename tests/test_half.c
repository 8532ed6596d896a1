/* Half-precision matmul: a and b GT_F16, c GT_F16 or GT_F32, against a
 * double-precision product of the same halves, over every strategy,
 * transpose case and the awkward shapes of the f32 suite, with scaling,
 * f16 denormal inputs, K past one K slice (4096) and results past the
 * largest half. c sits at an odd offset and pitch, so its halves share
 * words with guard halves, which must keep their poison. The bound
 * (docs/design.md, "Half-precision matmul"):
 *   c GT_F32: |c - ref| <= 2 (K + 2) 2^-24 S + D
 *   c GT_F16: the same + slices (2^-10 S + 2^-14)
 * with S = |alpha| sum |a b| + |beta c0|, D = |alpha| sum |a b| over the
 * terms with a denormal factor (a device may read those as zero), and
 * `slices` the K slices, each rounding c to half. A reference beyond the
 * largest half by a clear margin must give an infinity of its sign. */
#include "check.h"
#include "half_reference.h"
#include "harness.h"
#include "plan/program.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The shortest K slice one matmul dispatch sums (src/plan/program.h,
 * GT_MATMUL_K_CHUNK; the shared kernel's are longer): c is rounded to half
 * after each, so slices this long count at least the roundings made. */
enum { K_SLICE = 4096 };

static gt_context *ctx;
static uint32_t rng = 777;
/* When set, run_case puts a's and b's rows on 8 bytes (offsets 4 and 8
 * halves; their pitches, the shapes', multiples of 4). */
static bool ab_aligned;
/* When set, run_case and run_batch give a and b pitches that are
 * multiples of 4 halves (rows past K or N padded), and run_batch puts a's,
 * b's and c's rows on 16 bytes (offset 8, pitches multiples of 4). */
static bool pitches_by_4;

/* When set, run_case puts c's rows on 16 bytes (offset 8, pitch a multiple
 * of 4), where a float c may be written as vec4s. */
static bool c_aligned;
/* When set, run_batch rounds its strides up to multiples of 4 elements:
 * every product's rows then lie as product 0's, and the batch runs as
 * layers of one dispatch. */
static bool strides_by_4;
static unsigned long cases;
/* When set, run_case puts a NaN in every 7th element of c (i + j a
 * multiple of 7); scaled, those results must be NaNs: the conversion to a
 * half c keeps them (GLSL ES leaves packHalf2x16 of a NaN undefined). */
static bool nan_in_c;
/* The epilogue run_case asks for: 0 none, 1 a bias per column (1 x N) and
 * RELU, 2 a bias per row (M x 1, pitch 3) and CLAMP to [-0.5, 0.75]. */
static int epilogue;

static bool denormal(uint16_t h) { return ((h >> 10) & 31) == 0 && (h & 1023) != 0; }

/* Half i of a run of words. */
static uint16_t half_at(const uint32_t *w, size_t i) { return (uint16_t)(w[i / 2] >> (i % 2 * 16)); }
static void set_half(uint32_t *w, size_t i, uint16_t h) {
  w[i / 2] = (w[i / 2] & ~(0xFFFFu << (i % 2 * 16))) | ((uint32_t)h << (i % 2 * 16));
}

typedef enum { INPUT_UNIT, INPUT_DENORMALS, INPUT_LARGE } input_kind;

static uint16_t random_half(input_kind kind) {
  uint32_t r = gt_test_rand(&rng);
  double v = (double)(r % 20001) / 10000.0 - 1.0; /* [-1, 1] */
  if (kind == INPUT_DENORMALS && r % 5 == 0) return (uint16_t)((r >> 8) % 1023 + 1) | (r & 0x100 ? 0x8000 : 0);
  if (kind == INPUT_LARGE) v *= 300.0;
  return half_of(v);
}

/* One product; false on any wrong element or guard. */
static bool run_case(uint32_t m, uint32_t n, uint32_t k, bool ta, bool tb, gt_type c_type, gt_strategy strategy,
                     uint32_t tile, bool scale, input_kind kind) {
  uint32_t ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
  size_t a_off = 1, b_off = 3, c_off = 5, c_pitch = n + 3; /* odd: c's halves share words with guards */
  if (c_aligned) c_off = 8, c_pitch = (n + 7) / 4 * 4;
  if (ab_aligned) a_off = 4, b_off = 8;
  uint32_t a_pitch = pitches_by_4 ? (ac + 3) / 4 * 4 : ac, b_pitch = pitches_by_4 ? (bc + 3) / 4 * 4 : bc;
  size_t a_n = a_off + (size_t)ar * a_pitch, b_n = b_off + (size_t)br * b_pitch,
         c_n = c_off + (size_t)(m - 1) * c_pitch + n + 7;
  size_t a_words = (a_n + 1) / 2, b_words = (b_n + 1) / 2;
  size_t c_words = c_type == GT_F16 ? (c_n + 1) / 2 : c_n;
  uint32_t *a = calloc(a_words, 4), *b = calloc(b_words, 4), *c0 = malloc(c_words * 4), *got = malloc(c_words * 4);
  bool ok = a && b && c0 && got;
  for (size_t i = 0; ok && i < (size_t)ar * a_pitch; i++)
    set_half(a, a_off + i, random_half(kind));
  for (size_t i = 0; ok && i < (size_t)br * b_pitch; i++)
    set_half(b, b_off + i, random_half(kind));
  for (size_t i = 0; ok && i < c_words; i++) /* finite values in c's elements; poison words otherwise */
    c0[i] = c_type == GT_F16 ? (uint32_t)half_of(0.25) * 0x10001u ^ (uint32_t)(i & 0x0F0F) : 0x3E800000u ^ (uint32_t)(i & 0xFF);
  for (uint32_t i = 0; ok && nan_in_c && i < m; i++)
    for (uint32_t j = (7 - i % 7) % 7; j < n; j += 7) {
      size_t e = c_off + (size_t)i * c_pitch + j;
      if (c_type == GT_F16) set_half(c0, e, 0x7E00);
      else c0[e] = 0x7FC00000u;
    }
  GLuint ba = 0, bb = 0, bcn = 0;
  if (ok) {
    ba = gt_test_buffer(a_words, gt_test_poison, 1);
    bb = gt_test_buffer(b_words, gt_test_poison, 1);
    bcn = gt_test_buffer(c_words, gt_test_poison, 1);
    gt_view wa = {ba, 0, 1, (uint32_t)(a_words * 2), 0, GT_F16}, wb = {bb, 0, 1, (uint32_t)(b_words * 2), 0, GT_F16};
    gt_view wc = {bcn, 0, 1, (uint32_t)c_words, 0, GT_U32};
    ok = gt_write(ctx, wa, a, 0) == GT_OK && gt_write(ctx, wb, b, 0) == GT_OK && gt_write(ctx, wc, c0, 0) == GT_OK;
  }
  /* The bias: floats in [-1, 1] from word 2 (f32, as every bias). */
  size_t bias_words = 2 + 3 * ((size_t)m + n);
  float *bias = malloc(bias_words * 4);
  ok = ok && bias != NULL;
  for (size_t i = 0; ok && i < bias_words; i++)
    bias[i] = (float)((int)(gt_test_rand(&rng) % 2001) - 1000) / 1000.0f;
  GLuint bbias = ok && epilogue ? gt_test_buffer_of((const uint32_t *)bias, bias_words) : 0;
  gt_view vbias = {0};
  if (bbias)
    vbias = epilogue == 1 ? (gt_view){bbias, 2, 1, n, 0, GT_F32} : (gt_view){bbias, 2, m, 1, 3, GT_F32};
  float alpha = scale ? -0.75f : 1.0f, beta = scale ? 0.5f : 0.0f;
  gt_matmul_desc d = {.strategy = strategy,
                      .tile = tile,
                      .trans_a = ta,
                      .trans_b = tb,
                      .scale = scale,
                      .alpha = alpha,
                      .beta = beta,
                      .bias = vbias,
                      .act = (gt_activation)epilogue,
                      .act_lo = -0.5f,
                      .act_hi = 0.75f};
  gt_view va = {ba, (uint32_t)a_off, ar, ac, a_pitch, GT_F16},
          vb = {bb, (uint32_t)b_off, br, bc, b_pitch, GT_F16};
  gt_view vc = {bcn, c_off, m, n, (uint32_t)c_pitch, c_type};
  uint32_t t = tile ? tile : gt_context_default_tile(ctx);
  gt_status want_status = gt_test_tiled_matmul_status(&d, GT_F16, false);
  if (want_status == GT_OK && strategy == GT_STRATEGY_TILED_EVEN && (m % t || n % t || k % t))
    want_status = GT_ERR_SHAPE_MISMATCH;
  /* A half c is written with shader atomics (gt_context_has_atomics). */
  if (want_status == GT_OK && c_type == GT_F16 && !gt_context_has_atomics(ctx)) want_status = GT_ERR_UNSUPPORTED;
  gt_status s = ok ? gt_matmul(ctx, va, vb, vc, &d) : GT_ERR_OUT_OF_MEMORY;
  CHECK_STATUS(s, want_status);
  ok = ok && s == want_status;
  gt_view wc = {bcn, 0, 1, (uint32_t)c_words, 0, GT_U32};
  ok = ok && gt_read(ctx, wc, got, 0) == GT_OK;
  uint32_t slices = (k + K_SLICE - 1) / K_SLICE;
  size_t bad = 0;
  /* a's and b's values, converted once rather than once per product. */
  double *a_value = ok ? malloc(a_n * sizeof *a_value) : NULL, *b_value = ok ? malloc(b_n * sizeof *b_value) : NULL;
  ok = ok && a_value && b_value;
  for (size_t i = 0; ok && i < a_n; i++) a_value[i] = half_value(half_at(a, i));
  for (size_t i = 0; ok && i < b_n; i++) b_value[i] = half_value(half_at(b, i));
  for (size_t w = 0; ok && w < c_words; w++) {
    /* Every element of c's buffer: a result within the bound, or the
     * value it held (guards, gaps, and all of c when refused). */
    size_t per = c_type == GT_F16 ? 2 : 1;
    for (size_t e = w * per; e < (w + 1) * per; e++) {
      bool inside = e >= c_off && (e - c_off) % c_pitch < n && (e - c_off) / c_pitch < m && s == GT_OK;
      uint32_t old = c_type == GT_F16 ? half_at(c0, e) : c0[e];
      uint32_t now = c_type == GT_F16 ? half_at(got, e) : got[e];
      if (!inside) {
        if (now != old) bad++;
        continue;
      }
      uint32_t i = (uint32_t)((e - c_off) / c_pitch), j = (uint32_t)((e - c_off) % c_pitch);
      double ref = 0, mag = 0, flush = 0;
      for (uint32_t kk = 0; kk < k; kk++) {
        size_t ai = a_off + (ta ? (size_t)kk * a_pitch + i : (size_t)i * a_pitch + kk);
        size_t bi = b_off + (tb ? (size_t)j * b_pitch + kk : (size_t)kk * b_pitch + j);
        double p = a_value[ai] * b_value[bi];
        ref += p;
        mag += fabs(p);
        if (denormal(half_at(a, ai)) || denormal(half_at(b, bi))) flush += fabs(p);
      }
      float old_float;
      memcpy(&old_float, &old, 4);
      double c_old = c_type == GT_F16 ? half_value((uint16_t)old) : (double)old_float;
      ref = alpha * ref + (beta != 0 ? beta * c_old : 0);
      double big = fabs(alpha) * mag + fabs(beta * c_old);
      if (epilogue) { /* RELU and CLAMP keep the bound; the bias adds its rounding */
        double add = bias[epilogue == 1 ? 2 + j : 2 + (size_t)i * 3];
        big += fabs(add) + fabs(ref);
        ref += add;
        ref = epilogue == 1 ? (ref < 0 ? 0 : ref) : ref < -0.5 ? -0.5 : ref > 0.75 ? 0.75 : ref;
      }
      double bound = 2.0 * (k + 2) * ldexp(1, -24) * big + fabs(alpha) * flush;
      if (c_type == GT_F16) bound += slices * (ldexp(1, -10) * big + ldexp(1, -14));
      double value;
      if (c_type == GT_F16 && isnan(ref)) { /* a NaN of c0 scaled */
        if (!isnan(half_value((uint16_t)now))) bad++;
        continue;
      }
      if (c_type == GT_F16) {
        value = half_value((uint16_t)now);
        if (fabs(ref) > 65520.0 * 1.01) { /* clearly past the largest half */
          if (!(isinf(value) && (value > 0) == (ref > 0))) bad++;
          continue;
        }
        if (isinf(value) && fabs(ref) + bound >= 65504.0) continue; /* a borderline overflow */
      } else {
        float f;
        memcpy(&f, &now, 4);
        value = f;
      }
      if (!(fabs(value - ref) <= bound)) {
        if (bad < 3)
          fprintf(stderr, "  c[%u][%u] = %.9g, want %.9g within %.3g\n", i, j, value, ref, bound);
        bad++;
      }
    }
  }
  ok = ok && bad == 0;
  if (!ok)
    fprintf(stderr, "FAILED: %ux%ux%u%s%s c %s %s tile %u%s inputs %d epilogue %d (%zu wrong)\n", m, n, k,
            ta ? " ta" : "", tb ? " tb" : "", c_type == GT_F16 ? "f16" : "f32", gt_strategy_name(strategy),
            tile, scale ? " scaled" : "", (int)kind, epilogue, bad);
  CHECK(ok);
  cases++;
  GLuint names[4] = {ba, bb, bcn, bbias};
  glDeleteBuffers(bbias ? 4 : 3, names);
  free(a), free(b), free(c0), free(got), free(bias), free(a_value), free(b_value);
  return ok;
}

static void test_combinations(bool sampled) {
  static const gt_strategy strategies[] = {GT_STRATEGY_AUTO, GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_EVEN,
                                           GT_STRATEGY_TILED_PAD, GT_STRATEGY_TRUNCATE_B};
  static const uint32_t shapes[][3] = {{1, 1, 1},   {1, 37, 5},  {29, 1, 7},   {17, 33, 9},
                                       {33, 17, 65}, {16, 16, 16}, {32, 32, 32}, {31, 33, 35}};
  for (size_t si = 0; si < sizeof strategies / sizeof strategies[0]; si++)
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
      for (int tr = 0; tr < 4; tr++) {
        if (!gt_test_runs(sampled)) continue;
        gt_type c_type = (sh + (size_t)tr) % 2 ? GT_F16 : GT_F32;
        uint32_t tile = strategies[si] == GT_STRATEGY_TILED_EVEN ? 16 : 0;
        epilogue =
            sampled ? 0 : (int)((sh + si + (size_t)tr) % 3); /* test_edges has two in a sampled run */
        run_case(shapes[sh][0], shapes[sh][1], shapes[sh][2], tr & 1, tr & 2, c_type, strategies[si], tile,
                 (sh + si) % 3 == 0, (sh + (size_t)tr) % 3 == 0 ? INPUT_DENORMALS : INPUT_UNIT);
        epilogue = 0;
      }
}

/* K past one slice (c rounded to half between slices), overflow to
 * infinity (and none with c float), NaNs of c scaled into a half c,
 * denormal inputs, tiles 8 and 32. */
static void test_edges(void) {
  nan_in_c = true;
  run_case(9, 7, 600, false, true, GT_F16, GT_STRATEGY_AUTO, 0, true, INPUT_UNIT);
  run_case(9, 7, 20, true, false, GT_F16, GT_STRATEGY_SIMPLE, 0, true, INPUT_UNIT);
  run_case(40, 36, 20, false, false, GT_F16, GT_STRATEGY_TILED_PAD, 16, true, INPUT_UNIT);
  nan_in_c = false;
  run_case(5, 3, 5000, false, false, GT_F16, GT_STRATEGY_AUTO, 0, true, INPUT_UNIT);
  run_case(5, 3, 5000, true, true, GT_F32, GT_STRATEGY_SIMPLE, 0, false, INPUT_UNIT);
  run_case(9, 7, 600, false, true, GT_F16, GT_STRATEGY_AUTO, 0, false, INPUT_LARGE);
  run_case(9, 7, 600, false, false, GT_F32, GT_STRATEGY_TILED_PAD, 8, false, INPUT_LARGE);
  run_case(64, 64, 64, true, false, GT_F16, GT_STRATEGY_TILED_EVEN, 32, true, INPUT_DENORMALS);
  run_case(67, 45, 40, false, false, GT_F32, GT_STRATEGY_TRUNCATE_B, 8, false, INPUT_DENORMALS);
  run_case(130, 70, 50, false, false, GT_F16, GT_STRATEGY_AUTO, 0, false, INPUT_UNIT);
  /* The epilogue once, after the last of several slices. */
  epilogue = 2;
  run_case(5, 3, 5000, false, false, GT_F16, GT_STRATEGY_AUTO, 0, true, INPUT_UNIT);
  epilogue = 1;
  run_case(131, 68, 4100, true, false, GT_F16, GT_STRATEGY_AUTO, 0, true, INPUT_UNIT);
  epilogue = 0;
}

/* Words of random halves in [-1, 1] (both halves of each word). */
static uint32_t half_noise(size_t i, uint32_t seed) {
  (void)i, (void)seed;
  return (uint32_t)random_half(INPUT_UNIT) | (uint32_t)random_half(INPUT_UNIT) << 16;
}

/* One batch of `count` half products against the same products run one
 * by one with gt_matmul (which the cases above check against the
 * reference), word for word over c's whole buffer: results, guards and
 * the gaps between products. Strides in elements: packed with odd gaps
 * (every row parity), or a shared (0). */
static void run_batch(uint32_t m, uint32_t n, uint32_t k, uint32_t count, bool ta, bool tb, gt_type c_type,
                      gt_strategy strategy, bool share_a) {
  uint32_t ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
  gt_view a = {0, 3, ar, ac, ac + 1, GT_F16}, b = {0, 1, br, bc, 0, GT_F16}, c = {0, 5, m, n, n + 3, c_type};
  if (pitches_by_4) {
    a = (gt_view){0, 8, ar, ac, (ac + 3) / 4 * 4, GT_F16};
    b = (gt_view){0, 8, br, bc, (bc + 3) / 4 * 4, GT_F16};
    c = (gt_view){0, 8, m, n, (n + 3) / 4 * 4, c_type};
  }
  size_t span_a = (size_t)(ar - 1) * a.pitch + ac, span_b = (size_t)(br - 1) * (b.pitch ? b.pitch : bc) + bc,
         span_c = (size_t)(m - 1) * c.pitch + n;
  gt_batch batch = {count, share_a ? 0 : span_a + 1, span_b + 3, span_c + 1};
  if (strides_by_4) {
    batch.stride_a = (batch.stride_a + 3) / 4 * 4;
    batch.stride_b = (batch.stride_b + 3) / 4 * 4;
    batch.stride_c = (batch.stride_c + 3) / 4 * 4;
  }
  size_t a_words = (a.offset + (count - 1) * batch.stride_a + span_a + 2) / 2 + 1;
  size_t b_words = (b.offset + (count - 1) * batch.stride_b + span_b + 2) / 2 + 1;
  size_t c_elems = c.offset + (count - 1) * batch.stride_c + span_c + 7;
  size_t c_words = c_type == GT_F16 ? (c_elems + 1) / 2 : c_elems;
  a.buffer = gt_test_buffer(a_words, half_noise, 0);
  b.buffer = gt_test_buffer(b_words, half_noise, 0);
  uint32_t *c0 = malloc(c_words * 4), *batched = malloc(c_words * 4), *alone = malloc(c_words * 4);
  bool ok = c0 && batched && alone;
  for (size_t i = 0; ok && i < c_words; i++)
    c0[i] = c_type == GT_F16 ? half_noise(i, 0) : 0x3E800000u ^ (uint32_t)(i & 0xFF);
  GLuint cb = ok ? gt_test_buffer_of(c0, c_words) : 0, co = ok ? gt_test_buffer_of(c0, c_words) : 0;
  gt_matmul_desc d = {.strategy = strategy,
                      .tile = strategy == GT_STRATEGY_TILED_PAD ? 8 : 0,
                      .trans_a = ta,
                      .trans_b = tb,
                      .scale = true,
                      .alpha = 0.5f,
                      .beta = -1.25f};
  gt_status want = gt_test_tiled_matmul_status(&d, GT_F16, true);
  if (want == GT_OK && c_type == GT_F16 && !gt_context_has_atomics(ctx)) want = GT_ERR_UNSUPPORTED;
  c.buffer = cb;
  gt_status s = ok ? gt_matmul_batched(ctx, a, b, c, batch, &d) : GT_ERR_OUT_OF_MEMORY;
  CHECK_STATUS(s, want);
  c.buffer = co;
  for (uint32_t i = 0; ok && s == GT_OK && i < count; i++) {
    gt_view ai = a, bi = b, ci = c;
    ai.offset += i * batch.stride_a;
    bi.offset += i * batch.stride_b;
    ci.offset += i * batch.stride_c;
    CHECK_STATUS(gt_matmul(ctx, ai, bi, ci, &d), GT_OK);
  }
  ok = ok && gt_test_read_all(ctx, cb, c_words, batched) == 0 &&
       gt_test_read_all(ctx, co, c_words, alone) == 0;
  size_t bad = 0;
  for (size_t w = 0; ok && w < c_words; w++)
    if (batched[w] != alone[w] || (s != GT_OK && batched[w] != c0[w])) bad++;
  /* Something was computed: some result of every product moved (one
   * half in 65,536 may keep its bits by chance, not all of a product's). */
  for (uint32_t i = 0; ok && s == GT_OK && i < count; i++) {
    size_t moved = 0;
    for (uint32_t r = 0; r < m; r++)
      for (uint32_t col = 0; col < n; col++) {
        size_t e = c.offset + i * batch.stride_c + (size_t)r * c.pitch + col;
        uint32_t now = c_type == GT_F16 ? half_at(batched, e) : batched[e];
        moved += now != (c_type == GT_F16 ? half_at(c0, e) : c0[e]);
      }
    if (moved == 0) bad++;
  }
  ok = ok && bad == 0;
  if (!ok)
    fprintf(stderr, "FAILED: batch of %u %ux%ux%u%s%s c %s %s%s (%zu wrong)\n", count, m, n, k,
            ta ? " ta" : "", tb ? " tb" : "", c_type == GT_F16 ? "f16" : "f32", gt_strategy_name(strategy),
            share_a ? " a shared" : "", bad);
  CHECK(ok);
  cases++;
  GLuint names[4] = {a.buffer, b.buffer, cb, co};
  glDeleteBuffers(4, names);
  free(c0), free(batched), free(alone);
}

/* Batches of 1, 2 and 7 half products, every transpose case, AUTO and
 * SIMPLE (TILED_PAD, which runs no batch, refuses them, writing
 * nothing); and a long one of tiny products, one layer of
 * groups each: 2 past the group-count limit where that is 70,000 or less
 * (split over dispatches there), else 300. */
static void test_batches(bool sampled) {
  static const uint32_t shapes[][3] = {{1, 1, 1}, {17, 33, 9}, {31, 5, 40}, {64, 32, 16}};
  static const gt_strategy strategies[] = {GT_STRATEGY_AUTO, GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_PAD};
  static const uint32_t counts[] = {1, 2, 7};
  unsigned n = 0;
  for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
    for (size_t st = 0; st < sizeof strategies / sizeof strategies[0]; st++)
      for (int tr = 0; tr < 4; tr++) {
        n++; /* count, c's type and a shared drawn apart from the transposes */
        run_batch(shapes[sh][0], shapes[sh][1], shapes[sh][2], counts[n % 3], tr & 1, tr & 2,
                  (n / 4 + sh) % 2 ? GT_F16 : GT_F32, strategies[st], n % 5 == 0);
      }
  gt_limits l = gt_context_limits(ctx);
  uint32_t long_count = sampled || l.max_group_count[2] > 70000 ? 300 : l.max_group_count[2] + 2;
  run_batch(2, 4, 2, long_count, false, true, GT_F16, GT_STRATEGY_AUTO, false);
  run_batch(3, 2, 5, long_count, true, false, GT_F32, GT_STRATEGY_AUTO, true);
}

/* Counts the builds of the shared kernel's half-precision programs
 * (variant bit 12, GT_VARIANT_HALF in the library), [0] all of them, [1]
 * those reading a's or b's quads as whole words (bits 7, 8:
 * GT_VARIANT_VEC4_A, _B), [2] those writing a half c's quads as uvec2s
 * (bits 13 and 9: GT_VARIANT_HALF_C and _VEC4_C), [3] those stepping 16 k
 * from whole words: both bits 7 and 8, and b transposed (bit 3) or a b
 * (neither bit 2 nor 3) into a half c. */
static void count_shared_half_builds(int level, const char *msg, void *user) {
  const char *v = strstr(msg, "variant ");
  unsigned long variant = v ? strtoul(v + 8, NULL, 10) : 0;
  if (level == GT_LOG_DEBUG && strncmp(msg, "built matmul_blocked_shared.comp", 32) == 0 &&
      (variant & (1u << 12))) {
    ((unsigned *)user)[0]++;
    if (variant & (3u << 7)) ((unsigned *)user)[1]++;
    if ((variant & (1u << 13)) && (variant & (1u << 9))) ((unsigned *)user)[2]++;
    bool words_layout = (variant & (1u << 3)) || ((variant & (1u << 13)) && !(variant & (3u << 2)));
    if (words_layout && (variant & (3u << 7)) == (3u << 7)) ((unsigned *)user)[3]++;
    if (variant & (1u << 27)) ((unsigned *)user)[4]++; /* 16 k a step from rows at any alignment */
  }
}

/* AUTO on a context whose matmul kernel is the shared one, whatever the
 * device: c of 64 blocks of 128 x 128 or more, so the shared kernel runs
 * (its builds are counted: the cases cannot pass through another
 * kernel). Odd offsets and K give quads of halves that start on a word
 * and quads that do not; c's odd pitch gives half quads owning their two
 * words and quads sharing words with their neighbours. It needs 256
 * invocations, which the ES 3.1 minimums do not give. In a sampled run
 * (under qemu each product takes minutes), one transpose case and no long K.
 * Not where it would repeat another run (repeats): its context of its
 * own ignores the run's choices (gt_test_env.own_contexts_repeat), and the
 * device entries give it the same programs too. */
static void test_shared_kernel(bool min_limits, bool repeats, bool sampled) {
  if (min_limits || repeats) return;
  unsigned builds[5] = {0, 0, 0, 0, 0};
  gt_context_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.matmul_kernel = GT_MATMUL_KERNEL_SHARED;
  desc.logger.log = count_shared_half_builds;
  desc.logger.user = builds;
  gt_context *saved = ctx, *shared = NULL;
  gt_status s = gt_context_init(NULL, 0, &desc, &shared);
  if (s == GT_ERR_UNSUPPORTED) return; /* fewer than 256 invocations: no shared kernel here */
  CHECK_STATUS(s, GT_OK);
  if (shared == NULL) return;
  ctx = shared;
  /* A program per transpose case and type of c run (a half c refused
   * where the context has no atomics). */
  unsigned want = 0, half_c = gt_context_has_atomics(shared) ? 1 : 0;
  for (int tr = sampled ? 3 : 0; tr < 4; tr++) {
    run_case(1031, 1030, 19, tr & 1, tr & 2, tr % 2 ? GT_F16 : GT_F32, GT_STRATEGY_AUTO, 0, tr < 2,
             INPUT_UNIT);
    want += tr % 2 ? half_c : 1;
    if (sampled) continue;
    run_case(1025, 1090, 8, tr & 1, tr & 2, tr % 2 ? GT_F32 : GT_F16, GT_STRATEGY_AUTO, 0, tr >= 2,
             INPUT_DENORMALS);
    want += tr % 2 ? 1 : half_c;
  }
  if (!sampled) run_case(1024, 1024, 300, false, false, GT_F16, GT_STRATEGY_AUTO, 0, false, INPUT_LARGE);
  /* NaNs of c scaled: quads owning their words, quads sharing them. */
  nan_in_c = true;
  if (!sampled && half_c)
    run_case(1025, 1090, 8, false, true, GT_F16, GT_STRATEGY_AUTO, 0, true, INPUT_UNIT);
  nan_in_c = false;
  /* Each epilogue where a half c's last quads of a row lie partly past
   * its columns (N = 1090): those results are finished one by one. */
  for (epilogue = 1; epilogue <= 2 && !sampled && half_c; epilogue++)
    run_case(1025, 1090, 8, false, true, GT_F16, GT_STRATEGY_AUTO, 0, epilogue == 2, INPUT_UNIT);
  epilogue = 0;
  /* A half c's last quad of a row with 1 or 3 of its halves inside (N of
   * 1033 and 1035: past whole blocks by more than a band, which the kernel
   * pads), its first half on a word (c's rows on 16 bytes) and not, scaled,
   * with a bias per column, which the columns past N must not read. */
  for (int i = 0; i < 4 && !sampled && half_c; i++) {
    c_aligned = i >= 2, epilogue = 1;
    run_case(1025, i % 2 ? 1035 : 1033, 8, false, true, GT_F16, GT_STRATEGY_AUTO, 0, true, INPUT_UNIT);
  }
  c_aligned = false, epilogue = 0;
  /* a and b on 8 bytes: quads of halves across K as one uvec2 each (a^T
   * b: both; a b: b's), M and N past whole blocks, K past whole steps. */
  ab_aligned = true;
  run_case(1028, 1032, 21, true, false, GT_F32, GT_STRATEGY_AUTO, 0, true, INPUT_UNIT);
  want++;
  if (!sampled) {
    run_case(1032, 1028, 13, false, false, GT_F16, GT_STRATEGY_AUTO, 0, false, INPUT_DENORMALS);
    want += half_c;
  }
  /* K a multiple of 4 but not of the step: rows on 8 bytes along K too,
   * in every layout, M and N past whole blocks by more than a band (the
   * program pads them), and one step's worth of K or less. With b
   * transposed, and a b into a half c, 16 k a step from whole words: 4
   * programs (2 where the context cannot write a half c); at K = 4, which
   * 16 k a step would pad by 12, 8 k a step (the plan's short K). */
  unsigned words_want = sampled ? 0 : 2 + 2 * half_c;
  for (int tr = 0; tr < 4 && !sampled; tr++) {
    run_case(1044, 1040, 44, tr & 1, tr & 2, tr % 2 ? GT_F16 : GT_F32, GT_STRATEGY_AUTO, 0, tr >= 2,
             tr % 2 ? INPUT_DENORMALS : INPUT_UNIT);
    run_case(1040, 1044, 12, tr & 1, tr & 2, GT_F32, GT_STRATEGY_AUTO, 0, tr < 2, INPUT_UNIT);
    run_case(1040, 1044, 4, tr & 1, tr & 2, GT_F32, GT_STRATEGY_AUTO, 0, tr >= 2, INPUT_UNIT);
  }
  if (half_c && !sampled)
    run_case(1044, 1040, 44, false, false, GT_F16, GT_STRATEGY_AUTO, 0, true, INPUT_DENORMALS);
  /* 16 k a step with the operand across K unaligned (a^T b^T at M = 1031,
   * a b into a half c at N = 1031), those along K on 8 bytes. */
  unsigned unaligned_want = 0;
  if (!sampled) {
    run_case(1031, 1030, 80, true, true, GT_F32, GT_STRATEGY_AUTO, 0, true, INPUT_DENORMALS);
    unaligned_want++;
  }
  if (half_c && !sampled) {
    run_case(1030, 1031, 80, false, false, GT_F16, GT_STRATEGY_AUTO, 0, true, INPUT_UNIT);
    run_case(1030, 1031, 76, true, true, GT_F16, GT_STRATEGY_AUTO, 0, false, INPUT_UNIT);
    unaligned_want += 2;
  }
  ab_aligned = false;
  unsigned pairs_want = sampled ? 1 : 1 + half_c, half_c_vec4 = sampled ? 0 : half_c;
  /* c on 16 bytes: a float c written as vec4s, a half c as uvec2s (its
   * whole blocks; the bands beside them take atomics), each scaled (beta
   * reads c); and a batch of products that each run the shared kernel, as
   * layers of one dispatch. */
  c_aligned = true;
  run_case(1031, 1032, 12, false, true, GT_F32, GT_STRATEGY_AUTO, 0, true, INPUT_UNIT);
  want++;
  if (half_c && !sampled) {
    run_case(1031, 1032, 12, false, true, GT_F16, GT_STRATEGY_AUTO, 0, true, INPUT_UNIT);
    run_case(1031, 1032, 300, false, true, GT_F16, GT_STRATEGY_AUTO, 0, false, INPUT_LARGE); /* infinities */
    nan_in_c = true; /* NaNs through the uvec2 stores and the bands beside them */
    run_case(1031, 1032, 12, false, true, GT_F16, GT_STRATEGY_AUTO, 0, true, INPUT_UNIT);
    nan_in_c = false;
    want++;
  }
  c_aligned = false;
  if (!sampled) {
    strides_by_4 = true;
    run_batch(1024, 1024, 8, 2, true, false, GT_F16, GT_STRATEGY_AUTO, false);
    run_batch(1024, 1040, 5, 2, false, false, GT_F32, GT_STRATEGY_AUTO, true);
    strides_by_4 = false;
    want += half_c + 1;
  }
  ctx = saved;
  gt_context_release(shared);
  bool built = builds[0] >= want && builds[1] >= pairs_want && builds[2] >= half_c_vec4 &&
               builds[3] >= words_want && builds[4] >= unaligned_want;
  if (!built)
    printf("FAILED: the shared kernel built %u half-precision programs (%u on words, %u writing uvec2s, %u "
           "16 k a step, %u of them from rows at any alignment), want %u (%u, %u, %u, %u)\n",
           builds[0], builds[1], builds[2], builds[3], builds[4], want, pairs_want, half_c_vec4, words_want,
           unaligned_want);
  CHECK(built);
}

/* The interior program of half a and b (the Mali Bifrost and Valhall
 * entries): whole tiles of 32 x 32 of a float c, rows of a, b and c on
 * 8 or 16 bytes, a's two k as one word and b's rows of 4 as uvec2s; the
 * rows and columns past the tiles by the guarded program. Shapes of whole
 * tiles only and with bands below, beside or both; K of 1, even, odd and
 * past a 4096-long slice; scaling and an epilogue; batches whose layers
 * keep the alignment (one dispatch) and whose products each run it. The
 * debug log shows the program built where the entry has it and nowhere
 * else; transposed layouts, a half c and a's rows off a word (odd
 * offset) do not build it. Not in a sampled run: a context of its own
 * builds every program again, minutes each under qemu. */
static void test_interior(bool sampled) {
  if (sampled) return;
  static const uint32_t shapes[][3] = {{32, 32, 1},  {32, 32, 2}, {64, 96, 7},   {100, 68, 33},
                                       {37, 64, 64}, {64, 36, 5}, {96, 64, 4101}};
  gt_test_build_counter builds = {"matmul_blocked.comp", GT_VARIANT_INTERIOR, 0};
  gt_context *saved = ctx, *other = NULL;
  CHECK_STATUS(gt_test_counting_context(&builds, &other), GT_OK);
  if (other == NULL) return;
  ctx = other;
  ab_aligned = c_aligned = pitches_by_4 = true;
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
    for (int scale = 0; scale < 2; scale++) {
      epilogue = scale ? 1 + (int)(i % 2) : 0;
      run_case(shapes[i][0], shapes[i][1], shapes[i][2], false, false, GT_F32, GT_STRATEGY_AUTO, 0,
               scale != 0, i % 3 == 0 ? INPUT_DENORMALS : INPUT_UNIT);
      epilogue = 0;
    }
  strides_by_4 = true;
  run_batch(64, 32, 9, 3, false, false, GT_F32, GT_STRATEGY_AUTO, false);
  strides_by_4 = false;
  run_batch(33, 64, 6, 2, false, false, GT_F32, GT_STRATEGY_AUTO, true);
  const char *name = gt_context_device_name(ctx);
  bool entry = strcmp(name, "Mali Bifrost") == 0 || strcmp(name, "Mali Valhall") == 0;
  if (entry ? builds.count == 0 : builds.count != 0) {
    printf("FAILED: %u half interior builds on the %s entry\n", builds.count, name);
    CHECK(false);
  }
  unsigned interior = builds.count;
  run_case(64, 64, 8, true, false, GT_F32, GT_STRATEGY_AUTO, 0, false, INPUT_UNIT);
  run_case(64, 64, 8, false, true, GT_F32, GT_STRATEGY_AUTO, 0, false, INPUT_UNIT);
  run_case(64, 64, 8, false, false, GT_F16, GT_STRATEGY_AUTO, 0, true, INPUT_UNIT);
  ab_aligned = false; /* a at offset 1: its rows start inside a word */
  run_case(64, 64, 8, false, false, GT_F32, GT_STRATEGY_AUTO, 0, false, INPUT_UNIT);
  c_aligned = pitches_by_4 = false;
  CHECK_EQ_U(builds.count, interior);
  printf("half interior program: %u builds\n", interior);
  ctx = saved;
  gt_context_release(other);
}

/* The conversions the test trusts, on values with known bits. */
static void test_conversions(void) {
  CHECK(half_of(1.0) == 0x3C00 && half_of(-2.0) == 0xC000 && half_of(65504.0) == 0x7BFF);
  CHECK(half_of(65519.0) == 0x7BFF && half_of(65520.0) == 0x7C00 && half_of(ldexp(1, -24)) == 0x0001);
  CHECK(half_of(ldexp(1, -25)) == 0x0000 && half_of(ldexp(3, -26)) == 0x0001 && half_of(1.0 + ldexp(1, -11)) == 0x3C00);
  CHECK(half_value(0x3C00) == 1.0 && half_value(0x0001) == ldexp(1, -24) && half_value(0x7BFF) == 65504.0);
  CHECK(isinf(half_value(0xFC00)) && half_value(0xFC00) < 0);
}

/* What half-precision matmul refuses. */
static void test_refusals(void) {
  GLuint b = gt_test_buffer(256, gt_test_noise, 2);
  gt_view h = {b, 0, 4, 4, 0, GT_F16}, f = {b, 64, 4, 4, 0, GT_F32}, u16 = {b, 128, 4, 4, 0, GT_U16};
  CHECK_STATUS(gt_matmul(ctx, h, f, (gt_view){b, 160, 4, 4, 0, GT_F32}, NULL), GT_ERR_SHAPE_MISMATCH);
  CHECK_STATUS(gt_matmul(ctx, f, f, (gt_view){b, 160, 4, 4, 0, GT_F16}, NULL), GT_ERR_SHAPE_MISMATCH);
  CHECK_STATUS(gt_matmul(ctx, u16, u16, (gt_view){b, 160, 4, 4, 0, GT_U16}, NULL), GT_ERR_UNSUPPORTED);
  /* A batch's float c over its half a, compared by bytes: c_1's floats
   * 216-231 are halves 432-463, over a_0's 440-455 (c_0, floats 200-215,
   * misses a_0 and a_1, halves 480-495). */
  gt_batch batch = {2, 40, 0, 16};
  CHECK_STATUS(gt_matmul_batched(ctx, (gt_view){b, 440, 4, 4, 0, GT_F16}, (gt_view){b, 300, 4, 4, 0, GT_F16},
                                 (gt_view){b, 200, 4, 4, 0, GT_F32}, batch, NULL),
               GT_ERR_ALIASED);
  /* c 20 floats earlier: halves 360-423, clear of every a and b. */
  CHECK_STATUS(gt_matmul_batched(ctx, (gt_view){b, 440, 4, 4, 0, GT_F16}, (gt_view){b, 300, 4, 4, 0, GT_F16},
                                 (gt_view){b, 180, 4, 4, 0, GT_F32}, batch, NULL),
               GT_OK);
  glDeleteBuffers(1, &b);
}

int main(int argc, char **argv) {
  gt_test_env env;
  int rc = gt_test_open(argc, argv, &env);
  if (rc != 0) return rc;
  ctx = env.ctx;
  test_conversions();
  test_refusals();
  test_combinations(env.sampled);
  test_edges();
  test_batches(env.sampled);
  test_interior(env.sampled);
  bool repeats = env.own_contexts_repeat || gt_test_flag(argc, argv, "--device-entry");
  test_shared_kernel(env.min_limits, repeats, env.sampled);
  printf("%lu half-precision products checked element by element, guards too\n", cases);
  gt_test_close(&env);
  return CHECK_SUMMARY();
}
