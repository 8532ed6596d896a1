/* Half-precision sums (gt_matmul_desc.precision): GT_F16 a and b summed in
 * half rather than f32, on AUTO and SIMPLE in every transpose case and c
 * type; the tiled strategies refuse them and write nothing.
 *
 * Where the device table does not say half is faster (llvmpipe, desktop
 * GPUs) GT_PRECISION_HALF rounds each sum to half, so every result is
 * known exactly: acc = half(f32(acc + a b)) in k order within each K
 * slice (the product of two halves is exact in f32), each slice then added
 * to c in f32. There the test wants those bits, which differ from f32
 * sums; where half is native it wants gt_precision's bound against a
 * double reference. Both also hold the bound, every guard element keeps
 * its poison, a sum past 65,504 stays infinite though later terms cancel
 * it, HALF_IF_FASTER equals FLOAT where half is not faster, and
 * precisions that do not apply are refused with nothing written. */
#include "check.h"
#include "half_reference.h"
#include "harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The K slice one matmul dispatch sums (src/plan/program.h, GT_MATMUL_K_CHUNK). */
enum { K_SLICE = 4096 };

static gt_context *ctx;
static uint32_t rng = 4242;
static unsigned long cases;

/* Half i of a run of words. */
static uint16_t half_at(const uint32_t *w, size_t i) { return (uint16_t)(w[i / 2] >> (i % 2 * 16)); }
static void set_half(uint32_t *w, size_t i, uint16_t h) {
  w[i / 2] = (w[i / 2] & ~(0xFFFFu << (i % 2 * 16))) | ((uint32_t)h << (i % 2 * 16));
}

static float rounded_to_half(float v) { return (float)half_value(half_of(v)); }

/* Which values fill a and b: halves in [-1, 1] of either sign; or a all
 * 16 and b +16 for its first 300 k and -16 after, so every sum passes
 * 65,504 at k = 256 and then comes back to 0 in exact arithmetic; or
 * whole numbers -2 .. 2, whose sums stay exact in half in any order; or
 * halves of either sign from 2^-13 to 2^-6, whose sums fall among the
 * half denormals (below 2^-14) and round there. */
typedef enum { VALUES_UNIT, VALUES_OVERFLOW, VALUES_INTS, VALUES_TINY } values;

typedef struct product {
  uint32_t m, n, k;
  bool ta, tb;
  gt_type c_type;
  gt_strategy strategy;
  uint32_t tile;
  gt_precision precision;
  bool epilogue; /* alpha -0.75, beta 0.5, a bias per column, RELU */
  bool c_aligned; /* c's rows on 16 bytes, where a float c may be written as vec4s */
  values values;
} product;

/* What run() gives back: the call's status, the inputs it wrote (a and b
 * as halves, the bias), c's whole buffer before (c0) and after (got), as
 * words, and where c lies in it. */
typedef struct run_result {
  gt_status status;
  uint32_t *a, *b, *c0, *got;
  float *bias;
  size_t c_off, c_pitch, c_words;
} run_result;

static uint16_t input(const product *p, bool is_a, uint32_t kk) {
  if (p->values == VALUES_OVERFLOW) return is_a || kk < 300 ? 0x4C00 : 0xCC00; /* 16, -16 */
  uint32_t r = gt_test_rand(&rng);
  if (p->values == VALUES_INTS) return half_of((double)(r % 5) - 2.0);
  if (p->values == VALUES_TINY) return half_of(ldexp(1.0 + (r >> 8) % 1024 / 1024.0, -13 + (int)(r % 7)) * (r & 128 ? -1 : 1));
  return half_of((double)(r % 20001) / 10000.0 - 1.0);
}

/* One product on fresh buffers: a, b and c at odd offsets (c's rows on
 * 16 bytes where c_aligned), c's pitch leaving guard elements between
 * rows; write, multiply, read back. */
static run_result run(const product *p) {
  run_result r;
  memset(&r, 0, sizeof r);
  uint32_t m = p->m, n = p->n, k = p->k;
  uint32_t ar = p->ta ? k : m, ac = p->ta ? m : k, br = p->tb ? n : k, bc = p->tb ? k : n;
  size_t a_off = 1, b_off = 3;
  r.c_off = p->c_aligned ? 8 : 5;
  r.c_pitch = p->c_aligned ? (n + 7) / 4 * 4 : n + 3;
  size_t a_n = a_off + (size_t)ar * ac, b_n = b_off + (size_t)br * bc;
  size_t c_n = r.c_off + (size_t)(m - 1) * r.c_pitch + n + 7;
  size_t a_words = (a_n + 1) / 2, b_words = (b_n + 1) / 2;
  r.c_words = p->c_type == GT_F16 ? (c_n + 1) / 2 : c_n;
  r.a = calloc(a_words, 4), r.b = calloc(b_words, 4), r.c0 = malloc(r.c_words * 4), r.got = malloc(r.c_words * 4);
  r.bias = malloc(((size_t)n + 2) * 4);
  if (!r.a || !r.b || !r.c0 || !r.got || !r.bias) {
    r.status = GT_ERR_OUT_OF_MEMORY;
    return r;
  }
  for (size_t i = 0; i < (size_t)ar * ac; i++)
    set_half(r.a, a_off + i, input(p, true, (uint32_t)(p->ta ? i / ac : i % ac)));
  for (size_t i = 0; i < (size_t)br * bc; i++)
    set_half(r.b, b_off + i, input(p, false, (uint32_t)(p->tb ? i % bc : i / bc)));
  /* c: finite values (beta reads them) that are poison to the guards. */
  for (size_t i = 0; i < r.c_words; i++)
    r.c0[i] = p->c_type == GT_F16 ? (uint32_t)half_of(0.25) * 0x10001u ^ (uint32_t)(i & 0x0F0F)
                                  : 0x3E800000u ^ (uint32_t)(i & 0xFF);
  for (size_t i = 0; i < (size_t)n + 2; i++)
    r.bias[i] = (float)((int)(gt_test_rand(&rng) % 2001) - 1000) / 1000.0f;
  GLuint names[4] = {gt_test_buffer_of(r.a, a_words), gt_test_buffer_of(r.b, b_words),
                     gt_test_buffer_of(r.c0, r.c_words), gt_test_buffer_of((const uint32_t *)r.bias, (size_t)n + 2)};
  gt_matmul_desc d = {.strategy = p->strategy,
                      .tile = p->tile,
                      .trans_a = p->ta,
                      .trans_b = p->tb,
                      .scale = p->epilogue,
                      .alpha = -0.75f,
                      .beta = 0.5f,
                      .bias = p->epilogue ? (gt_view){names[3], 2, 1, n, 0, GT_F32} : (gt_view){0},
                      .act = p->epilogue ? GT_ACTIVATION_RELU : GT_ACTIVATION_NONE,
                      .precision = p->precision};
  gt_view va = {names[0], a_off, ar, ac, 0, GT_F16}, vb = {names[1], b_off, br, bc, 0, GT_F16};
  gt_view vc = {names[2], r.c_off, m, n, (uint32_t)r.c_pitch, p->c_type};
  r.status = gt_matmul(ctx, va, vb, vc, &d);
  gt_view whole = {names[2], 0, 1, (uint32_t)r.c_words, 0, GT_U32};
  if (gt_read(ctx, whole, r.got, 0) != GT_OK) r.status = GT_ERR_GL;
  glDeleteBuffers(4, names);
  return r;
}

static void run_free(run_result *r) { free(r->a), free(r->b), free(r->c0), free(r->got), free(r->bias); }

/* Element e of c's buffer, as a double, and its bits. */
static uint32_t bits_at(const product *p, const uint32_t *w, size_t e) {
  return p->c_type == GT_F16 ? half_at(w, e) : w[e];
}
static double value_of(const product *p, uint32_t bits) {
  if (p->c_type == GT_F16) return half_value((uint16_t)bits);
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

/* The rounded sums' result for c(i, j): half sums in k order within each
 * slice, each slice added to c in f32, then the epilogue in f32. */
static float emulated(const product *p, const run_result *r, uint32_t i, uint32_t j) {
  uint32_t m = p->m, n = p->n, k = p->k;
  float c = 0;
  for (uint32_t k0 = 0; k0 < k; k0 += K_SLICE) {
    float acc = 0;
    for (uint32_t kk = k0; kk < k && kk < k0 + K_SLICE; kk++) {
      size_t ai = 1 + (p->ta ? (size_t)kk * m + i : (size_t)i * k + kk);
      size_t bi = 3 + (p->tb ? (size_t)j * k + kk : (size_t)kk * n + j);
      float product_value = (float)half_value(half_at(r->a, ai)) * (float)half_value(half_at(r->b, bi));
      acc = rounded_to_half(acc + product_value);
    }
    c = k0 == 0 ? acc : acc + c;
    if (p->c_type == GT_F16 && k0 + K_SLICE < k) c = rounded_to_half(c);
  }
  return c;
}

/* Checks every element of c's buffer; false on any wrong one. With
 * `exact`, results must be the rounded sums' bits (within a last f32 bit
 * of their epilogue); otherwise within gt_precision's bound. */
static bool check(const product *p, const run_result *r, bool exact) {
  size_t per = p->c_type == GT_F16 ? 2 : 1, bad = 0;
  const double u = ldexp(1, -10);
  double steps = p->k + 3.0, gamma = steps * u < 1 ? steps * u / (1 - steps * u) : INFINITY;
  for (size_t e = 0; e < r->c_words * per; e++) {
    uint32_t old = bits_at(p, r->c0, e), now = bits_at(p, r->got, e);
    bool inside = e >= r->c_off && (e - r->c_off) % r->c_pitch < p->n && (e - r->c_off) / r->c_pitch < p->m;
    if (!inside || r->status != GT_OK) {
      if (now != old && bad++ < 3) fprintf(stderr, "  guard %zu: %08x, was %08x\n", e, now, old);
      continue;
    }
    uint32_t i = (uint32_t)((e - r->c_off) / r->c_pitch), j = (uint32_t)((e - r->c_off) % r->c_pitch);
    double c_old = value_of(p, old), got = value_of(p, now);
    double ref = 0, mag = 0;
    for (uint32_t kk = 0; kk < p->k; kk++) {
      size_t ai = 1 + (p->ta ? (size_t)kk * p->m + i : (size_t)i * p->k + kk);
      size_t bi = 3 + (p->tb ? (size_t)j * p->k + kk : (size_t)kk * p->n + j);
      double t = half_value(half_at(r->a, ai)) * half_value(half_at(r->b, bi));
      ref += t;
      mag += fabs(t);
    }
    double bias = p->epilogue ? r->bias[2 + j] : 0, alpha = p->epilogue ? -0.75 : 1;
    double beta_c = p->epilogue ? 0.5 * c_old : 0;
    double want = alpha * ref + beta_c + bias, big = fabs(alpha) * mag + fabs(beta_c) + fabs(bias);
    if (p->epilogue && want < 0) want = 0;
    double slack = gamma * big;
    if (p->c_type == GT_F16) slack += (p->k + K_SLICE - 1) / K_SLICE * (u * (big + slack) + ldexp(1, -14));
    bool ok = fabs(got - want) <= slack; /* also false for an infinity where the bound is finite */
    if (exact) {
      double sum = emulated(p, r, i, j), close;
      if (p->epilogue) { /* in f32: each of its 3 operations rounds once */
        double v = alpha * sum + beta_c + bias;
        close = ldexp(1, -22) * (fabs(alpha * sum) + fabs(beta_c) + fabs(bias));
        want = v < 0 ? 0 : v;
        if (p->c_type == GT_F16) close += u * fabs(want);
      } else {
        want = p->c_type == GT_F16 ? half_value(half_of(sum)) : sum, close = 0;
      }
      ok = ok && (got == want || fabs(got - want) <= close || (isinf(got) && got == want));
    }
    if (!ok && bad++ < 3)
      fprintf(stderr, "  c(%u, %u) = %.9g, want %.9g (exact sum %.9g, bound %.3g)\n", i, j, got, want, ref,
              slack);
  }
  return bad == 0;
}

static const char *describe(const product *p) {
  static char text[160];
  snprintf(text, sizeof text, "%ux%ux%u%s%s c %s %s tile %u precision %d%s", p->m, p->n, p->k,
           p->ta ? " ta" : "", p->tb ? " tb" : "", p->c_type == GT_F16 ? "f16" : "f32",
           gt_strategy_name(p->strategy), p->tile, (int)p->precision, p->epilogue ? " epilogue" : "");
  return text;
}

/* The status p's call gives: the tiled strategies refuse sums in half
 * and an epilogue; a half c is refused without shader atomics. */
static gt_status expected_status(const product *p) {
  gt_matmul_desc d = {.strategy = p->strategy,
                      .precision = p->precision,
                      .act = p->epilogue ? GT_ACTIVATION_RELU : GT_ACTIVATION_NONE};
  gt_status tiled = gt_test_tiled_matmul_status(&d, GT_F16, false);
  if (tiled != GT_OK) return tiled;
  return p->c_type == GT_F16 && !gt_context_has_atomics(ctx) ? GT_ERR_UNSUPPORTED : GT_OK;
}

/* Runs p and checks it (c untouched where refused). */
static void run_checked(const product *p) {
  bool rounded = p->precision == GT_PRECISION_HALF && !gt_context_half_is_faster(ctx);
  run_result r = run(p);
  gt_status want = expected_status(p);
  CHECK_STATUS(r.status, want);
  bool ok = (r.status == want || r.status == GT_OK) && r.got && check(p, &r, rounded);
  if (!ok) fprintf(stderr, "FAILED: %s\n", describe(p));
  CHECK(ok);
  cases++;
  run_free(&r);
}

/* Every strategy, transpose case and c type on awkward shapes, K up to
 * past one slice. */
static void test_combinations(bool sampled) {
  static const uint32_t shapes[][3] = {{1, 1, 1}, {37, 29, 70}, {64, 64, 64}, {5, 130, 333}, {33, 17, 1019},
                                       {16, 24, 4200}};
  static const gt_strategy strategies[] = {GT_STRATEGY_AUTO, GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_EVEN,
                                           GT_STRATEGY_TILED_PAD, GT_STRATEGY_TRUNCATE_B};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (size_t st = 0; st < sizeof strategies / sizeof strategies[0]; st++)
      for (int t = 0; t < 8; t++) {
        product p = {shapes[s][0], shapes[s][1], shapes[s][2], t & 1, (t & 2) != 0, t & 4 ? GT_F16 : GT_F32,
                     strategies[st], 16, GT_PRECISION_HALF, false, s % 2 == 0 && !(t & 4), VALUES_UNIT};
        if (p.strategy == GT_STRATEGY_TILED_EVEN) {
          p.tile = 8;
          if (p.m % 8 || p.n % 8 || p.k % 8) continue;
        }
        if (p.strategy == GT_STRATEGY_AUTO || p.strategy == GT_STRATEGY_SIMPLE) p.tile = 0;
        /* Sums split over several dispatches (K slices, or TRUNCATE_B's
         * band of K) are added in an order the test does not model: there
         * the values keep every sum exact. */
        if (p.k > K_SLICE || (p.strategy == GT_STRATEGY_TRUNCATE_B && p.k % p.tile)) p.values = VALUES_INTS;
        if (!gt_test_runs(sampled)) continue;
        run_checked(&p);
      }
  /* Sums among the half denormals. */
  for (size_t st = 0; st < sizeof strategies / sizeof strategies[0]; st++)
    for (int c = 0; c < 2; c++) {
      product p = {16, 24, 40, c, c, c ? GT_F16 : GT_F32, strategies[st], 8, GT_PRECISION_HALF, false, false,
                   VALUES_TINY};
      run_checked(&p);
    }
  /* The epilogue and scaling, in every kernel AUTO and the others run. */
  for (size_t st = 0; st < sizeof strategies / sizeof strategies[0]; st++)
    for (int c = 0; c < 2; c++) {
      product p = {40, 24, 96, c, !c, c ? GT_F16 : GT_F32, strategies[st], 8, GT_PRECISION_HALF, true, !c,
                   VALUES_UNIT};
      run_checked(&p);
    }
}

/* A batch of 3 through AUTO, each product against its own reference:
 * the batched variant sums in half too. */
static void test_batch(void) {
  const uint32_t m = 9, n = 13, k = 150, count = 3;
  size_t a_len = (size_t)m * k, b_len = (size_t)k * n, c_len = (size_t)m * n;
  uint32_t *a = calloc((count * a_len + 1) / 2, 4), *b = calloc((count * b_len + 1) / 2, 4);
  float *c = malloc(count * c_len * 4);
  CHECK(a && b && c);
  if (!a || !b || !c) goto done;
  for (size_t i = 0; i < count * a_len; i++)
    set_half(a, i, half_of((double)(gt_test_rand(&rng) % 2001) / 1000.0 - 1.0));
  for (size_t i = 0; i < count * b_len; i++)
    set_half(b, i, half_of((double)(gt_test_rand(&rng) % 2001) / 1000.0 - 1.0));
  for (size_t i = 0; i < count * c_len; i++)
    c[i] = NAN;
  GLuint names[3] = {gt_test_buffer_of(a, (count * a_len + 1) / 2), gt_test_buffer_of(b, (count * b_len + 1) / 2),
                     gt_test_buffer_of((const uint32_t *)c, count * c_len)};
  gt_matmul_desc d = {.precision = GT_PRECISION_HALF};
  gt_batch batch = {count, a_len, b_len, c_len};
  gt_status s = gt_matmul_batched(ctx, (gt_view){names[0], 0, m, k, 0, GT_F16},
                                  (gt_view){names[1], 0, k, n, 0, GT_F16}, (gt_view){names[2], 0, m, n, 0, GT_F32},
                                  batch, &d);
  CHECK_STATUS(s, GT_OK);
  CHECK_STATUS(gt_read(ctx, (gt_view){names[2], 0, 1, (uint32_t)(count * c_len), 0, GT_F32}, c, 0), GT_OK);
  bool rounded = !gt_context_half_is_faster(ctx);
  size_t bad = 0;
  for (uint32_t l = 0; l < count; l++)
    for (uint32_t i = 0; i < m; i++)
      for (uint32_t j = 0; j < n; j++) {
        float acc = 0;
        double ref = 0, mag = 0;
        for (uint32_t kk = 0; kk < k; kk++) {
          double x = half_value(half_at(a, l * a_len + (size_t)i * k + kk));
          double y = half_value(half_at(b, l * b_len + (size_t)kk * n + j));
          acc = rounded_to_half(acc + (float)x * (float)y);
          ref += x * y, mag += fabs(x * y);
        }
        float got = c[l * c_len + (size_t)i * n + j];
        double steps = k + 3.0, u = ldexp(1, -10);
        bool ok = fabs(got - ref) <= steps * u / (1 - steps * u) * mag && (!rounded || got == acc);
        if (!ok && bad++ < 3) fprintf(stderr, "  product %u c(%u, %u) = %.9g, want %.9g\n", l, i, j, got, acc);
      }
  CHECK_EQ_U(bad, 0);
  cases += count;
  glDeleteBuffers(3, names);
done:
  free(a), free(b), free(c);
}

/* Sums that pass the largest half become infinite and stay so: a row of
 * 16s times a column of 300 16s and 300 -16s is 0 in f32, +infinity in
 * half (from k = 256 on; with a negated, -infinity). Where half is native
 * a device may also give the exact value (its mediump may be f32). */
static void test_overflow(void) {
  static const gt_strategy strategies[] = {GT_STRATEGY_AUTO, GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_PAD};
  for (size_t st = 0; st < 3; st++)
    for (int precision = 0; precision < 3; precision += 2) {
      product p = {6, 5, 600, false, false, GT_F32, strategies[st], 16, (gt_precision)precision, false, false,
                   VALUES_OVERFLOW};
      run_result r = run(&p);
      CHECK_STATUS(r.status, expected_status(&p));
      bool native = gt_context_half_is_faster(ctx);
      size_t bad = 0;
      for (uint32_t i = 0; r.status == GT_OK && i < p.m; i++)
        for (uint32_t j = 0; j < p.n; j++) {
          double got = value_of(&p, r.got[r.c_off + i * r.c_pitch + j]);
          bool ok = precision == GT_PRECISION_FLOAT ? got == 0 : (isinf(got) && got > 0) || (native && got == 0);
          if (!ok && bad++ < 3) fprintf(stderr, "  overflow c(%u, %u) = %g, precision %d\n", i, j, got, precision);
        }
      if (bad) fprintf(stderr, "FAILED: %s\n", describe(&p));
      CHECK_EQ_U(bad, 0);
      cases++;
      run_free(&r);
    }
}

/* HALF_IF_FASTER: where the table says half is not faster, the same bits
 * as f32 sums; where it is, the half sums' bound. */
static void test_if_faster(void) {
  for (int t = 0; t < 4; t++) {
    product p = {21, 36, 500, t & 1, (t & 2) != 0, GT_F32, GT_STRATEGY_AUTO, 0, GT_PRECISION_FLOAT, false, true,
                 VALUES_UNIT};
    uint32_t seed = rng;
    run_result f = run(&p);
    rng = seed; /* the same inputs */
    p.precision = GT_PRECISION_HALF_IF_FASTER;
    run_result h = run(&p);
    CHECK_STATUS(f.status, GT_OK);
    CHECK_STATUS(h.status, GT_OK);
    if (gt_context_half_is_faster(ctx))
      CHECK(check(&p, &h, false));
    else
      CHECK(f.got && h.got && memcmp(f.got, h.got, f.c_words * 4) == 0);
    cases += 2;
    run_free(&f);
    run_free(&h);
  }
}

/* Precisions that do not apply: refused, c's buffer untouched. */
static void test_refusals(void) {
  GLuint b = gt_test_buffer(256, gt_test_noise, 3);
  uint32_t before[256], after[256];
  CHECK_STATUS(gt_test_read_all(ctx, b, 256, before) == 0 ? GT_OK : GT_ERR_GL, GT_OK);
  gt_view h = {b, 0, 4, 4, 0, GT_F16}, f = {b, 16, 4, 4, 0, GT_F32}, u8 = {b, 128, 4, 4, 0, GT_U8};
  gt_view hc = {b, 200, 4, 4, 0, GT_F32}, ic = {b, 220, 4, 4, 0, GT_I32};
  gt_matmul_desc half = {.precision = GT_PRECISION_HALF}, faster = {.precision = GT_PRECISION_HALF_IF_FASTER};
  gt_matmul_desc unknown = {.precision = (gt_precision)3};
  CHECK_STATUS(gt_matmul(ctx, f, f, hc, &half), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_matmul(ctx, f, f, hc, &faster), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_matmul(ctx, u8, u8, ic, &half), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_matmul(ctx, h, h, hc, &unknown), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_test_read_all(ctx, b, 256, after) == 0 ? GT_OK : GT_ERR_GL, GT_OK);
  CHECK(memcmp(before, after, sizeof before) == 0);
  glDeleteBuffers(1, &b);
}

int main(int argc, char **argv) {
  gt_test_env env;
  int rc = gt_test_open(argc, argv, &env);
  if (rc != 0) return rc;
  ctx = env.ctx;
  printf("half sums %s on this device\n",
         gt_context_half_is_faster(ctx) ? "native (mediump)" : "rounded to half each step");
  test_refusals();
  test_overflow();
  test_if_faster();
  test_batch();
  test_combinations(env.sampled);
  printf("%lu half-sum products checked element by element, guards too\n", cases);
  gt_test_close(&env);
  return CHECK_SUMMARY();
}
