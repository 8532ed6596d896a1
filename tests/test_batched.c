/* Batched matmul: gt_matmul_batched against the same products run one by
 * one with gt_matmul, bit for bit, and against a double-precision CPU
 * reference within test_matmul's bound
 *   |c - ref| <= 2 (K + 2) FLT_EPSILON |alpha| sum_k |a_ik b_kj|
 *                + 4 FLT_EPSILON |beta c_old|.
 * Batches of 1, 2 and 7 products and one past the group-count limit, over
 * every strategy and transpose case, with strides that pack the products,
 * leave odd gaps (products of every row alignment), share a or b (stride
 * 0), or interleave c's products as columns of one matrix. Every word of
 * c's buffer outside the products keeps its bits, and a refused call
 * changes nothing. And a user's loop: gt_write, the batch, gt_read, again. */
#include "check.h"
#include "harness.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gt_context *ctx;
static uint32_t rng = 20261124;
static unsigned long cases;

static uint32_t bits_of(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static float float_of(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* A float in [-1, 1) with 24 random bits: exact, products never denormal. */
static float rand_float(void) { return (float)((int32_t)(gt_test_rand(&rng) >> 8) - 8388608) / 8388608.0f; }

/* One operand: the view of product 0 and the stride to the next. */
typedef struct operand {
  gt_view view;
  size_t stride;
  size_t words; /* of its buffer */
} operand;

static size_t span(gt_view v) { return (size_t)(v.rows - 1) * (v.pitch ? v.pitch : v.cols) + v.cols; }

/* Where the stride puts product i's view of x. */
static gt_view product_view(const operand *x, uint32_t i) {
  gt_view v = x->view;
  v.offset += (size_t)i * x->stride;
  return v;
}

/* Element (r, c) of view v as stored. */
static size_t at(gt_view v, uint32_t r, uint32_t c) {
  return v.offset + (size_t)r * (v.pitch ? v.pitch : v.cols) + c;
}

typedef struct batch_case {
  uint32_t m, n, k, count;
  bool trans_a, trans_b, scale;
  gt_strategy strategy;
  uint32_t tile;
  int stride_kind; /* 0 packed, 1 odd gap, 2 a shared, 3 b shared, 4 c interleaved as columns,
                      5 product 0 aligned, odd strides */
  uint32_t sample; /* 0: every product also runs one by one; else every sample-th, the
                      first and last 8 and those around 65,536 (the rest: the reference only) */
  int epilogue;    /* 0 none, 1 a bias per column and RELU, 2 a bias per row (pitch 2) and
                      CLAMP to [-0.25, 0.5]: the same bias for every product */
} batch_case;

/* Whether product i of t runs one by one too. */
static bool runs_alone(const batch_case *t, uint32_t i) {
  return t->sample == 0 || i % t->sample == 0 || i < 8 || i + 8 >= t->count || (i >= 65528 && i < 65544);
}

/* A fresh buffer of `words` words: data (random floats) or poison. */
static GLuint new_buffer(size_t words, uint32_t *host, bool data) {
  for (size_t i = 0; i < words; i++)
    host[i] = data ? bits_of(rand_float()) : gt_test_poison(i, (uint32_t)words);
  return gt_test_buffer_of(host, words);
}

/* Lays out the operands of c: product 0's views and strides. */
static void lay_out(const batch_case *t, operand *a, operand *b, operand *c) {
  uint32_t ar = t->trans_a ? t->k : t->m, ac = t->trans_a ? t->m : t->k;
  uint32_t br = t->trans_b ? t->n : t->k, bc = t->trans_b ? t->k : t->n;
  uint32_t gap = t->stride_kind == 1 ? 3 : 0, extra = t->stride_kind == 1 ? 1 : 0;
  a->view = (gt_view){0, 5, ar, ac, ac + extra, GT_F32};
  b->view = (gt_view){0, 2 + extra, br, bc, bc + 2 * extra, GT_F32};
  c->view = (gt_view){0, 7, t->m, t->n, t->n + extra, GT_F32};
  a->stride = span(a->view) + gap;
  b->stride = span(b->view) + 2 * gap;
  c->stride = span(c->view) + gap;
  if (t->stride_kind == 5) { /* product 0's rows 16-byte aligned, the next ones' not */
    a->view.offset = 8;
    b->view.offset = 4;
    c->view.offset = 0;
    a->view.pitch = (ac + 3) / 4 * 4;
    b->view.pitch = (bc + 3) / 4 * 4;
    c->view.pitch = (t->n + 3) / 4 * 4;
    a->stride = span(a->view) + 1;
    b->stride = span(b->view) + 2;
    c->stride = span(c->view) + 3;
  }
  if (t->stride_kind == 2) a->stride = 0;
  if (t->stride_kind == 3) b->stride = 0;
  if (t->stride_kind == 4) { /* c_i is columns [i n, (i + 1) n) of one m x count n matrix */
    c->view.pitch = t->n * t->count + 1;
    c->stride = t->n;
  }
  operand *ops[3] = {a, b, c};
  for (int i = 0; i < 3; i++) {
    operand *x = ops[i];
    x->words = x->view.offset + (size_t)(t->count - 1) * x->stride + span(x->view) + 9;
  }
}

/* The product whose c holds word w of c's buffer, or -1 (a guard). */
static int64_t product_of(const operand *c, uint32_t count, size_t w) {
  size_t pitch = c->view.pitch ? c->view.pitch : c->view.cols;
  if (c->stride >= span(c->view)) { /* products one after another: one candidate */
    if (w < c->view.offset) return -1;
    size_t i = (w - c->view.offset) / c->stride, first = c->view.offset + i * c->stride;
    return i < count && w - first < span(c->view) && (w - first) % pitch < c->view.cols ? (int64_t)i : -1;
  }
  for (uint32_t i = 0; i < count; i++) {
    size_t first = c->view.offset + (size_t)i * c->stride;
    if (w < first || w >= first + span(c->view)) continue;
    if ((w - first) % pitch < c->view.cols) return i;
  }
  return -1;
}

static void run_case(const batch_case *t) {
  operand a, b, c;
  lay_out(t, &a, &b, &c);
  uint32_t *ha = malloc(a.words * 4), *hb = malloc(b.words * 4), *hc = malloc(c.words * 4);
  uint32_t *got = malloc(c.words * 4), *one = malloc(c.words * 4);
  /* The bias: 1 x N, or M x 1 with a pitch of 2, from word 3. */
  size_t bias_words = 3 + 2 * ((size_t)t->m + t->n) + 9;
  uint32_t *hbias = malloc(bias_words * 4);
  gt_view bias = {0};
  if (!ha || !hb || !hc || !got || !one || !hbias) {
    CHECK(!"host memory");
    goto out;
  }
  a.view.buffer = new_buffer(a.words, ha, true);
  b.view.buffer = new_buffer(b.words, hb, true);
  /* c holds data (read when beta != 0) in every word, guards included. */
  GLuint c_batched = new_buffer(c.words, hc, true);
  c.view.buffer = gt_test_buffer_of(hc, c.words);

  if (t->epilogue) {
    bias = t->epilogue == 1 ? (gt_view){0, 3, 1, t->n, 0, GT_F32} : (gt_view){0, 3, t->m, 1, 2, GT_F32};
    bias.buffer = new_buffer(bias_words, hbias, true);
  }
  gt_matmul_desc d = {.strategy = t->strategy,
                      .tile = t->tile,
                      .trans_a = t->trans_a,
                      .trans_b = t->trans_b,
                      .scale = t->scale,
                      .alpha = 0.75f,
                      .beta = t->scale ? -1.5f : 0.0f,
                      .bias = bias,
                      .act = (gt_activation)t->epilogue,
                      .act_lo = -0.25f,
                      .act_hi = 0.5f};
  gt_batch batch = {t->count, a.stride, b.stride, c.stride};
  gt_view cb = c.view;
  cb.buffer = c_batched;
  gt_status s = gt_matmul_batched(ctx, a.view, b.view, cb, batch, &d);
  gt_status want = gt_test_tiled_matmul_status(&d, GT_F32, true);
  CHECK_STATUS(s, want);
  if (want != GT_OK) { /* refused: c's buffer as it was, every word */
    unsigned long changed = 0;
    CHECK(gt_test_read_all(ctx, c_batched, c.words, got) == 0);
    for (size_t w = 0; w < c.words; w++)
      changed += got[w] != hc[w];
    CHECK_EQ_U(changed, 0);
    goto buffers;
  }
  bool all_ok = s == GT_OK;
  for (uint32_t i = 0; i < t->count && all_ok; i++) {
    if (!runs_alone(t, i)) continue;
    gt_status one_s = gt_matmul(ctx, product_view(&a, i), product_view(&b, i), product_view(&c, i), &d);
    if (one_s != GT_OK) {
      CHECK_STATUS(one_s, GT_OK);
      all_ok = false;
    }
  }
  if (!all_ok || gt_test_read_all(ctx, c_batched, c.words, got) != 0 ||
      gt_test_read_all(ctx, c.view.buffer, c.words, one) != 0) {
    CHECK(!"runs and read-backs");
    goto buffers;
  }
  unsigned long bad = 0;
  for (size_t w = 0; w < c.words; w++) {
    int64_t product = product_of(&c, t->count, w);
    bool inside = product >= 0;
    if ((got[w] != one[w] && (!inside || runs_alone(t, (uint32_t)product))) || (!inside && got[w] != hc[w])) {
      if (bad++ < 3)
        fprintf(stderr, "  word %zu: batched %08x, one by one %08x, before %08x (%s)\n", w, got[w], one[w],
                hc[w], inside ? "in a product" : "guard");
    }
  }
  /* The reference: a wrong layer or stride would pass the comparison
   * above only if gt_matmul made the same mistake. */
  for (uint32_t i = 0; i < t->count; i++) {
    gt_view va = product_view(&a, i), vb = product_view(&b, i), vc = product_view(&c, i);
    for (uint32_t r = 0; r < t->m; r++)
      for (uint32_t col = 0; col < t->n; col++) {
        double sum = 0, mag = 0;
        for (uint32_t q = 0; q < t->k; q++) {
          double x = float_of(ha[t->trans_a ? at(va, q, r) : at(va, r, q)]);
          double y = float_of(hb[t->trans_b ? at(vb, col, q) : at(vb, q, col)]);
          sum += x * y;
          mag += fabs(x * y);
        }
        double old = float_of(hc[at(vc, r, col)]);
        double ref = t->scale ? 0.75 * sum - 1.5 * old : sum;
        double bound = 2.0 * (t->k + 2) * FLT_EPSILON * (t->scale ? 0.75 : 1.0) * mag +
                       (t->scale ? 4.0 * FLT_EPSILON * 1.5 * fabs(old) : 0.0);
        if (t->epilogue) { /* the bias's one rounding; RELU and CLAMP keep the bound */
          double add = float_of(hbias[t->epilogue == 1 ? at(bias, 0, col) : at(bias, r, 0)]);
          bound += (fabs(ref) + fabs(add)) * 2 * FLT_EPSILON;
          ref += add;
          ref = t->epilogue == 1 ? (ref < 0 ? 0 : ref) : ref < -0.25 ? -0.25 : ref > 0.5 ? 0.5 : ref;
        }
        double g = float_of(got[at(vc, r, col)]);
        if (!(fabs(g - ref) <= bound) && bad++ < 3)
          fprintf(stderr, "  product %u (%u, %u): %.9g, reference %.9g\n", i, r, col, g, ref);
      }
  }
  cases++;
  CHECK_EQ_U(bad, 0);
  if (bad)
    fprintf(stderr,
            "  case: %ux%ux%u x %u, trans %d%d, scale %d, strategy %d, tile %u, strides %d, epilogue %d\n",
            t->m, t->n, t->k, t->count, t->trans_a, t->trans_b, t->scale, (int)t->strategy, t->tile,
            t->stride_kind, t->epilogue);
  if (bias.buffer) {
    uint32_t *back = malloc(bias_words * 4);
    CHECK(back != NULL && gt_test_read_all(ctx, bias.buffer, bias_words, back) == 0 &&
          memcmp(back, hbias, bias_words * 4) == 0); /* the bias is only read */
    free(back);
  }
buffers:
  if (bias.buffer) glDeleteBuffers(1, &bias.buffer);
  glDeleteBuffers(1, &a.view.buffer);
  glDeleteBuffers(1, &b.view.buffer);
  glDeleteBuffers(1, &c.view.buffer);
  glDeleteBuffers(1, &c_batched);
out:
  free(hbias);
  free(ha);
  free(hb);
  free(hc);
  free(got);
  free(one);
}

/* Every strategy and transpose case over awkward shapes (the last with
 * whole 32 x 32 tiles and bands past them in both directions, for
 * Adreno's interior program) and each kind of stride, for 1, 2 and 7
 * products; the tiled strategies, whose kernel
 * runs one product at a time, refuse every batch. */
static void test_products(bool sampled) {
  static const uint32_t shapes[][3] = {{1, 1, 1},    {1, 37, 5},  {29, 1, 3},   {31, 33, 17},  {16, 16, 16},
                                       {33, 65, 9}, {64, 32, 64}, {7, 5, 130}, {68, 100, 33}};
  static const gt_strategy strategies[] = {GT_STRATEGY_AUTO, GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_EVEN,
                                           GT_STRATEGY_TILED_PAD, GT_STRATEGY_TRUNCATE_B};
  static const uint32_t counts[] = {1, 2, 7};
  unsigned n = 0;
  for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
    for (size_t st = 0; st < sizeof strategies / sizeof strategies[0]; st++)
      for (uint32_t trans = 0; trans < 4; trans++) {
        batch_case t = {shapes[si][0],
                        shapes[si][1],
                        shapes[si][2],
                        1,
                        trans & 1,
                        trans & 2,
                        false,
                        strategies[st],
                        8,
                        0,
                        0,
                        0};
        if (t.strategy == GT_STRATEGY_TILED_EVEN && (t.m % 8 || t.n % 8 || t.k % 8)) continue;
        if (t.strategy == GT_STRATEGY_AUTO || t.strategy == GT_STRATEGY_SIMPLE) t.tile = 0;
        /* Count, strides and scaling drawn apart from one another; a
         * sampled run takes a third of the cases (gt_test_runs). */
        uint32_t h = ++n * 2654435761u;
        if (!gt_test_runs(sampled)) continue;
        t.count = counts[(h >> 4) % 3];
        t.stride_kind = (int)((h >> 8) % 6);
        t.scale = (h >> 12) & 1;
        t.epilogue = sampled ? 0 : (int)((h >> 13) % 3); /* test_long_batch has two in a sampled run */
        run_case(&t);
        /* And the other counts with packed strides, for AUTO. */
        if (t.strategy == GT_STRATEGY_AUTO && !sampled)
          for (int c = 0; c < 3; c++) {
            batch_case u = t;
            u.count = counts[c];
            u.stride_kind = c == 2 ? 5 : c + 1;
            run_case(&u);
          }
      }
}

/* More products than one dispatch's layers may hold: split at the group
 * count (tiny products, past the ES minimum of 65,535 layers), and at the
 * FLOP budget (7 products of 262,144 FLOP: 4 layers a dispatch with the
 * harness's --max-dispatch-flops 1048576, the least a context takes). */
static void test_long_batch(bool sampled) {
  gt_limits l = gt_context_limits(ctx);
  uint32_t count = l.max_group_count[2] + 2;
  if (sampled || count > 70000) {
    /* Too slow in a sampled run, or past a larger device limit: no
     * group-count split then. */
    count = 300;
  }
  batch_case f = {64, 32, 64, 7, false, false, true, GT_STRATEGY_AUTO, 0, 0, 0, 2};
  run_case(&f);
  f.strategy = GT_STRATEGY_SIMPLE;
  f.stride_kind = 5;
  run_case(&f);
  /* Strides of 4, 8 and 8 elements: one series, so one layer per product. */
  batch_case t = {2, 4, 2, count, false, true, true, GT_STRATEGY_AUTO, 0, 0, 61, 1};
  run_case(&t);
  t.stride_kind = 1;
  t.strategy = GT_STRATEGY_SIMPLE;
  run_case(&t);
}

/* A user's loop: new operands (and every other round a new bias) through
 * gt_write, the batch, c back through gt_read, on the same buffers each
 * round, against the reference; c's buffer is poisoned before each round
 * so a missed product shows. */
static void test_user_loop(void) {
  enum { COUNT = 5, M = 24, N = 20, K = 12, ROUNDS = 12 };
  enum { A_WORDS = COUNT * M * K, B_WORDS = COUNT * K * N, C_WORDS = COUNT * M * N + 8 };
  static float ha[A_WORDS], hb[B_WORDS], hbias[N];
  static uint32_t hc[C_WORDS], poison[C_WORDS];
  GLuint bufs[4];
  glGenBuffers(4, bufs);
  const size_t sizes[4] = {A_WORDS, B_WORDS, C_WORDS, N};
  for (int i = 0; i < 4; i++) {
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, bufs[i]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(sizes[i] * 4), NULL, GL_DYNAMIC_DRAW);
  }
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  for (size_t i = 0; i < C_WORDS; i++)
    poison[i] = gt_test_poison(i, 7);
  gt_view a = {bufs[0], 0, M, K, 0, GT_F32}, b = {bufs[1], 0, K, N, 0, GT_F32};
  gt_view c = {bufs[2], 4, M, N, 0, GT_F32}; /* 4 guard words before, 4 after */
  gt_batch batch = {COUNT, M * K, K * N, M * N};
  unsigned long bad = 0;
  for (int round = 0; round < ROUNDS; round++) {
    for (size_t i = 0; i < A_WORDS; i++)
      ha[i] = rand_float();
    for (size_t i = 0; i < B_WORDS; i++)
      hb[i] = rand_float();
    gt_view all_a = {bufs[0], 0, 1, A_WORDS, 0, GT_F32}, all_b = {bufs[1], 0, 1, B_WORDS, 0, GT_F32};
    gt_view all_c = {bufs[2], 0, 1, C_WORDS, 0, GT_U32};
    CHECK_STATUS(gt_write(ctx, all_a, ha, 0), GT_OK);
    CHECK_STATUS(gt_write(ctx, all_b, hb, 0), GT_OK);
    CHECK_STATUS(gt_write(ctx, all_c, poison, 0), GT_OK);
    /* Odd rounds end in an epilogue: a new bias per column, and RELU. */
    bool epilogue = round % 2 == 1;
    gt_matmul_desc d = {.strategy = GT_STRATEGY_AUTO};
    if (epilogue) {
      for (size_t i = 0; i < N; i++)
        hbias[i] = rand_float();
      d.bias = (gt_view){bufs[3], 0, 1, N, 0, GT_F32};
      d.act = GT_ACTIVATION_RELU;
      CHECK_STATUS(gt_write(ctx, d.bias, hbias, 0), GT_OK);
    }
    CHECK_STATUS(gt_matmul_batched(ctx, a, b, c, batch, &d), GT_OK);
    CHECK_STATUS(gt_read(ctx, all_c, hc, 0), GT_OK);
    for (size_t w = 0; w < C_WORDS; w++) {
      if (w < 4 || w >= 4 + (size_t)COUNT * M * N) {
        if (hc[w] != poison[w] && bad++ < 3)
          fprintf(stderr, "  round %d: guard word %zu changed\n", round, w);
        continue;
      }
      size_t e = w - 4, p = e / (M * N), r = e % (M * N) / N, col = e % N;
      double sum = 0, mag = 0;
      for (size_t q = 0; q < K; q++) {
        double x = ha[p * M * K + r * K + q], y = hb[p * K * N + q * N + col];
        sum += x * y;
        mag += fabs(x * y);
      }
      if (epilogue) { /* the bias's one rounding; RELU keeps the bound */
        mag += fabs(sum) + fabs(hbias[col]);
        sum += hbias[col];
        sum = sum < 0 ? 0 : sum;
      }
      double g = float_of(hc[w]);
      if (!(fabs(g - sum) <= 2.0 * (K + 2) * FLT_EPSILON * mag) && bad++ < 3)
        fprintf(stderr, "  round %d: product %zu (%zu, %zu) = %.9g, reference %.9g\n", round, p, r, col, g,
                sum);
    }
  }
  CHECK_EQ_U(bad, 0);
  glDeleteBuffers(4, bufs);
}

/* Refusals: each leaves c as it was. */
static void test_refusals(void) {
  enum { WORDS = 4096 };
  static uint32_t host[WORDS], back[WORDS];
  GLuint buf = new_buffer(WORDS, host, true);
  GLuint other = new_buffer(WORDS, back, true);
  memcpy(back, host, sizeof host);
  gt_view a = {other, 0, 4, 3, 0, GT_F32}, b = {other, 100, 3, 5, 0, GT_F32};
  gt_view c = {buf, 0, 4, 5, 0, GT_F32};
  static const struct {
    gt_batch batch;
    gt_status want;
  } refused[] = {
      {{0, 12, 15, 20}, GT_ERR_INVALID_ARGUMENT},       /* no product */
      {{2, 12, 15, 0}, GT_ERR_ALIASED},                 /* one c for two products */
      {{3, 12, 15, 7}, GT_ERR_ALIASED},                 /* c_1 overlaps c_0's rows */
      {{300, 12, 15, 20}, GT_ERR_OUT_OF_RANGE},         /* the last b and c pass their buffers */
      {{3, 12, SIZE_MAX / 2, 20}, GT_ERR_OUT_OF_RANGE}, /* b's moves overflow */
  };
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
    CHECK_STATUS(gt_matmul_batched(ctx, a, b, c, refused[i].batch, NULL), refused[i].want);
  /* c_1 overlaps a_0 (same buffer): refused; c_i beside a_j: accepted. */
  gt_view a_same = {buf, 2000, 4, 3, 0, GT_F32};
  gt_view c_near = {buf, 2000 - 40, 4, 5, 0, GT_F32};
  gt_batch into_a = {2, 12, 15, 40};
  CHECK_STATUS(gt_matmul_batched(ctx, a_same, b, c_near, into_a, NULL), GT_ERR_ALIASED);
  CHECK_EQ_U(gt_test_read_all(ctx, buf, WORDS, back), 0);
  CHECK(memcmp(back, host, sizeof host) == 0);
  gt_batch beside = {2, 0, 15, 20}; /* a shared, c_0 and c_1 just before it */
  CHECK_STATUS(gt_matmul_batched(ctx, a_same, b, c_near, beside, NULL), GT_OK);
  /* A NULL context and a c whose moves wrap past 2^64. */
  gt_batch ok = {2, 12, 15, 20};
  CHECK_STATUS(gt_matmul_batched(NULL, a, b, c, ok, NULL), GT_ERR_INVALID_ARGUMENT);
  gt_batch wrap = {3, 12, 15, (size_t)-1};
  CHECK_STATUS(gt_matmul_batched(ctx, a, b, c, wrap, NULL), GT_ERR_OUT_OF_RANGE);
  glDeleteBuffers(1, &buf);
  glDeleteBuffers(1, &other);
}

/* AUTO's shared kernel on batches whose c has thin bands past its whole
 * 128 x 128 blocks (3 rows and 6 columns): the bands kernel runs them
 * as layers (a b, packed), and product by product (a^T b^T, odd gaps,
 * scaled, with an epilogue). Through gt_context_desc.matmul_kernel,
 * whatever the device; the ES 3.1 minimums cannot run the shared kernel,
 * and in a sampled run its programs take too long to build.
 * gt_matmul_plan says the bands kernel runs, so the cases cannot pass
 * through another route. Not where it repeats another run's cases
 * (gt_test_env.own_contexts_repeat). */
static void test_shared_bands(bool sampled, bool min_limits, bool repeats) {
  if (min_limits || sampled || repeats) return;
  gt_context_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.matmul_kernel = GT_MATMUL_KERNEL_SHARED;
  gt_context *saved = ctx, *other = NULL;
  CHECK_STATUS(gt_context_init(NULL, 0, &desc, &other), GT_OK);
  if (other == NULL) return;
  ctx = other;
  gt_view a = {1, 0, 1027, 20, 0, GT_F32}, b = {2, 0, 20, 1030, 0, GT_F32}, c = {3, 0, 1027, 1030, 0, GT_F32};
  gt_plan plan;
  CHECK_STATUS(gt_matmul_plan(ctx, a, b, c, NULL, &plan), GT_OK);
  CHECK(strstr(plan.kernels, "bands") != NULL);
  for (int i = 0; i < 2; i++) {
    batch_case t = {.m = 1027,
                    .n = 1030,
                    .k = 20,
                    .count = 3,
                    .trans_a = i,
                    .trans_b = i,
                    .scale = i,
                    .strategy = GT_STRATEGY_AUTO,
                    .stride_kind = i,
                    .epilogue = i};
    run_case(&t);
  }
  ctx = saved;
  gt_context_release(other);
}

int main(int argc, char **argv) {
  gt_test_env env;
  int rc = gt_test_open(argc, argv, &env);
  if (rc != 0) return rc;
  ctx = env.ctx;
  test_refusals();
  test_user_loop();
  test_products(env.sampled);
  test_long_batch(env.sampled);
  test_shared_bands(env.sampled, env.min_limits, env.own_contexts_repeat);
  printf("%lu batched cases\n", cases);
  gt_test_close(&env);
  return CHECK_SUMMARY();
}
