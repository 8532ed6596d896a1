/* Matrix multiply on the GPU against a double-precision CPU reference:
 * every strategy x transpose flags x scaling x tile x awkward shape, with
 * each operand a section (offset, pitch) inside a larger buffer.
 *
 * f32 results cannot be compared bit for bit, so each element of c must lie
 * within a bound of the exact result ref = alpha * sum_k a_ik b_kj + beta *
 * c_old:
 *   |c - ref| <= 2 (K + 2) FLT_EPSILON |alpha| sum_k |a_ik b_kj|
 *                + 4 FLT_EPSILON |beta c_old|            (when scaling),
 * a comfortable multiple of the worst case of a sum of K products in f32 in
 * any order. Every other word of c's buffer (guards before and after the
 * view, the gaps between its rows) must keep its bits exactly, and a's and
 * b's buffers must be left as they were. */
#include "check.h"
#include "harness.h"
#include "plan/program.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const gt_strategy strategies[] = {GT_STRATEGY_AUTO, GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_EVEN,
                                         GT_STRATEGY_TILED_PAD, GT_STRATEGY_TRUNCATE_B};
#define N_STRATEGIES (sizeof strategies / sizeof strategies[0])
static const uint32_t tiles[] = {0, 8, 16, 32};
#define N_TILES (sizeof tiles / sizeof tiles[0])

static gt_context *ctx;
static uint32_t rng = 20240607;
static unsigned long cases, block_cases;

/* --sampled: the long sections run a fixed part of their cases (every
 * shape still runs). */
static bool sampled;

#define QUIET_NAN_BITS 0x7FC00000u

/* ------------------------------------------------------------------ */
/* Words, floats and random numbers.                                    */

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

/* A float in [-1, 1): 24 random bits, so exact in f32 and its products
 * never denormal. */
static float rand_float(void) { return (float)((int32_t)(gt_test_rand(&rng) >> 8) - 8388608) / 8388608.0f; }

/* ------------------------------------------------------------------ */
/* Operands: a view inside a buffer whose every word is known.          */

/* How a view sits in its buffer: `before` words ahead of it, `extra` words
 * between rows (pitch = cols + extra, passed as 0 or explicitly when extra
 * is 0), `after` words behind its last element. */
typedef struct layout {
  uint32_t before, after, extra;
  bool explicit_pitch;
} layout;

/* When set, operands whose pitch is a multiple of 4 get this layout
 * instead (AUTO's vec4 loads on llvmpipe need rows 16-byte aligned). */
static const layout *aligned_layout;

static layout random_layout(void) {
  if (aligned_layout) return *aligned_layout;
  layout l = {0, 0, 0, false};
  if (gt_test_rand(&rng) % 4 != 0) { /* mostly sections; sometimes tight: offset 0, pitch 0, no tail */
    l.before = gt_test_rand_range(&rng, 1, 40);
    l.after = gt_test_rand_range(&rng, 1, 40);
    l.extra = gt_test_rand_range(&rng, 0, 7);
    l.explicit_pitch = l.extra != 0 || gt_test_rand(&rng) % 2;
  }
  return l;
}

typedef struct operand {
  gt_view view;
  size_t words;   /* of the whole buffer */
  uint32_t *host; /* every word as uploaded */
  GLuint buffer;
} operand;

static uint32_t pitch_of(gt_view v) { return v.pitch ? v.pitch : v.cols; }

static size_t index_of(gt_view v, uint32_t r, uint32_t c) { return v.offset + (size_t)r * pitch_of(v) + c; }

static bool operand_alloc(operand *x, uint32_t rows, uint32_t cols, layout l) {
  uint32_t pitch = cols + l.extra;
  gt_view v = {0, l.before, rows, cols, l.explicit_pitch ? pitch : 0, GT_F32};
  x->view = v;
  x->words = l.before + (size_t)(rows - 1) * pitch + cols + l.after;
  x->host = malloc(x->words * 4);
  x->buffer = 0;
  return x->host != NULL;
}

/* New buffer objects hold their host words from one glBufferData
 * (gt_test_buffer_of), so no gltile call is involved in making the
 * inputs. */

static bool operand_upload(operand *x) {
  x->buffer = gt_test_buffer_of(x->host, x->words);
  x->view.buffer = x->buffer;
  return x->buffer != 0;
}

static void operand_free(operand *x) {
  free(x->host);
  if (x->buffer) glDeleteBuffers(1, &x->buffer);
  memset(x, 0, sizeof *x);
}

/* How the view of an input is filled. Words outside it are always random
 * 32-bit words (NaN and infinity patterns among them), so a kernel that
 * reads a guard or a gap into a sum shows. */
typedef enum fill {
  FILL_RANDOM,  /* floats in [-1, 1] */
  FILL_MARKERS, /* small floats, with large ones at a few k (see long K) */
  FILL_IDENTITY /* 1 on the diagonal, 0 elsewhere */
} fill;

/* The k at which FILL_MARKERS puts a large value: both ends, the middle,
 * both sides of the library's 4096-long K chunks' first boundary and of
 * Mesa's 65,535-iteration loop cap. */
static bool is_marker(uint32_t k, uint32_t K) {
  return k == 0 || k == K - 1 || k == K / 2 || k == 4095 || k == 4096 || k == 65534 || k == 65535;
}

/* k_is_row: the view's rows run along K (a when trans_a, b when not
 * trans_b). */
static void fill_input(operand *x, fill f, bool k_is_row) {
  uint32_t K = k_is_row ? x->view.rows : x->view.cols;
  for (size_t i = 0; i < x->words; i++)
    x->host[i] = gt_test_rand(&rng);
  for (uint32_t r = 0; r < x->view.rows; r++)
    for (uint32_t c = 0; c < x->view.cols; c++) {
      float v;
      if (f == FILL_IDENTITY) {
        v = r == c ? 1.0f : 0.0f;
      } else if (f == FILL_MARKERS) {
        float u = rand_float();
        if (is_marker(k_is_row ? r : c, K))
          v = (u < 0 ? -0.5f : 0.5f) + u * 0.5f; /* magnitude in [0.5, 1] */
        else
          v = u / 1024.0f;
      } else {
        v = rand_float();
      }
      x->host[index_of(x->view, r, c)] = bits_of(v);
    }
}

/* How c's buffer is filled before the call. */
typedef enum cfill {
  C_POISON, /* poison words everywhere (c is not read) */
  C_RANDOM, /* floats in [-1, 1] everywhere (beta reads the view) */
  C_NAN     /* poison around the view, quiet NaN in it: must never be read */
} cfill;

static void fill_output(operand *x, cfill f) {
  uint32_t seed = gt_test_rand(&rng);
  for (size_t i = 0; i < x->words; i++)
    x->host[i] = f == C_RANDOM ? bits_of(rand_float()) : gt_test_poison(i, seed);
  if (f == C_NAN)
    for (uint32_t r = 0; r < x->view.rows; r++)
      for (uint32_t c = 0; c < x->view.cols; c++)
        x->host[index_of(x->view, r, c)] = QUIET_NAN_BITS;
}

/* ------------------------------------------------------------------ */
/* Reference and checks.                                                */

/* ref and bound (m x n, row-major) of c = alpha op(a) op(b) + beta c_old
 * as d describes, from the host copies. op(a) and op(b) are gathered into
 * dense double arrays first (op(b) transposed) so the inner loop runs over
 * contiguous memory: the random 200-cubed shapes stay cheap. beta = 0
 * drops the c_old term, which may be NaN. Then the epilogue: bias (d->bias's
 * elements in order; NULL for none) and d->act. */
static bool reference_with_bias(const operand *a, const operand *b, const operand *c, const gt_matmul_desc *d,
                                const double *bias, uint32_t m, uint32_t n, uint32_t k, double *ref,
                                double *bound) {
  double *oa = malloc((size_t)m * k * sizeof *oa), *obt = malloc((size_t)n * k * sizeof *obt);
  bool ok = oa != NULL && obt != NULL;
  if (ok) {
    for (uint32_t i = 0; i < m; i++)
      for (uint32_t kk = 0; kk < k; kk++)
        oa[(size_t)i * k + kk] =
            float_of(a->host[d->trans_a ? index_of(a->view, kk, i) : index_of(a->view, i, kk)]);
    for (uint32_t j = 0; j < n; j++)
      for (uint32_t kk = 0; kk < k; kk++)
        obt[(size_t)j * k + kk] =
            float_of(b->host[d->trans_b ? index_of(b->view, j, kk) : index_of(b->view, kk, j)]);
    double alpha = d->scale ? d->alpha : 1.0, beta = d->scale ? d->beta : 0.0;
    for (uint32_t i = 0; i < m; i++)
      for (uint32_t j = 0; j < n; j++) {
        const double *pa = oa + (size_t)i * k, *pb = obt + (size_t)j * k;
        double s = 0, sa = 0;
        for (uint32_t kk = 0; kk < k; kk++) {
          double p = pa[kk] * pb[kk];
          s += p;
          sa += fabs(p);
        }
        double r = alpha * s, bd = 2.0 * (k + 2.0) * FLT_EPSILON * fabs(alpha) * sa;
        if (beta != 0) {
          double old = float_of(c->host[index_of(c->view, i, j)]);
          r += beta * old;
          bd += fabs(beta * old) * FLT_EPSILON * 4;
        }
        if (bias) {
          double add = bias[d->bias.rows == 1 && d->bias.cols == n ? j : i];
          bd += (fabs(r) + fabs(add)) * FLT_EPSILON * 2; /* the one rounding of the sum */
          r += add;
        }
        /* RELU and CLAMP move no two values further apart: the bound holds. */
        if (d->act == GT_ACTIVATION_RELU) r = r < 0 ? 0 : r;
        if (d->act == GT_ACTIVATION_CLAMP) r = r < d->act_lo ? d->act_lo : r > d->act_hi ? d->act_hi : r;
        ref[(size_t)i * n + j] = r;
        bound[(size_t)i * n + j] = bd;
      }
  }
  free(oa);
  free(obt);
  return ok;
}

static bool reference(const operand *a, const operand *b, const operand *c, const gt_matmul_desc *d,
                      uint32_t m, uint32_t n, uint32_t k, double *ref, double *bound) {
  return reference_with_bias(a, b, c, d, NULL, m, n, k, ref, bound);
}

/* Checks every word of c's buffer as read back in `got`: with `written`,
 * each element of the view within its bound of ref (a NaN never passes),
 * and every other word exactly as uploaded; without, every word as
 * uploaded. Prints the first bad word under `what`. */
static bool check_output(const operand *c, const uint32_t *got, const double *ref, const double *bound,
                         bool written, const char *what) {
  uint32_t pitch = pitch_of(c->view);
  for (size_t i = 0; i < c->words; i++) {
    uint32_t r = 0, col = 0;
    bool in_view = false;
    if (written && i >= c->view.offset) {
      size_t rel = i - c->view.offset;
      r = (uint32_t)(rel / pitch);
      col = (uint32_t)(rel % pitch);
      in_view = rel / pitch < c->view.rows && col < c->view.cols;
    }
    if (in_view) {
      size_t e = (size_t)r * c->view.cols + col;
      double g = float_of(got[i]);
      if (!(fabs(g - ref[e]) <= bound[e])) {
        fprintf(stderr, "FAILED %s: c(%u, %u) (word %zu): got %.9g (0x%08x), want %.9g, bound %.3g\n", what,
                r, col, i, g, (unsigned)got[i], ref[e], bound[e]);
        return false;
      }
    } else if (got[i] != c->host[i]) {
      fprintf(stderr, "FAILED %s: word %zu of c's buffer (%s) changed: got 0x%08x, want 0x%08x\n", what, i,
              written ? "outside the view" : "nothing may be written", (unsigned)got[i],
              (unsigned)c->host[i]);
      return false;
    }
  }
  return true;
}

/* The whole buffer of x still holds exactly what was uploaded. `got` has
 * room for x->words. */
static bool check_unchanged(const operand *x, const char *name, const char *what, uint32_t *got) {
  if (gt_test_read_all(ctx, x->buffer, x->words, got) != 0) return false;
  for (size_t i = 0; i < x->words; i++)
    if (got[i] != x->host[i]) {
      fprintf(stderr, "FAILED %s: word %zu of %s's buffer changed: got 0x%08x, want 0x%08x\n", what, i, name,
              (unsigned)got[i], (unsigned)x->host[i]);
      return false;
    }
  return true;
}

static size_t max3(size_t a, size_t b, size_t c) {
  size_t m = a > b ? a : b;
  return m > c ? m : c;
}

/* ------------------------------------------------------------------ */
/* One multiply, checked word for word.                                 */

typedef struct mm_case {
  gt_strategy strategy;
  uint32_t tile;
  bool trans_a, trans_b, scale;
  float alpha, beta;
  uint32_t m, n, k;
  fill fill_a, fill_b;
  cfill fill_c;
  bool exact;   /* bound 0: results that f32 gives exactly (identity) */
  bool same_ab; /* a and b the very same view of one buffer (m = n = k) */
  int bias;     /* the epilogue: 0 none, 1 a bias per row (M x 1), 2 per column (1 x N) */
  gt_activation act;
} mm_case;

/* CLAMP's bounds in the tests: inside the range of the results, so some
 * are clamped at each end. */
static const float clamp_lo = -0.25f, clamp_hi = 0.5f;

/* Epilogue i of the 9 (bias kind i % 3, activation i / 3 % 3) on cs. */
static void with_epilogue(mm_case *cs, int i) {
  cs->bias = i % 3;
  cs->act = (gt_activation)(i / 3 % 3);
}

static void describe(const mm_case *cs, char *buf, size_t size) {
  static const char *const bias[] = {"", " bias per row", " bias per column"};
  static const char *const act[] = {"", " relu", " clamp"};
  snprintf(buf, size, "%s tile %u trans_a %d trans_b %d scale %d (alpha %g beta %g) M %u N %u K %u%s%s%s%s",
           gt_strategy_name(cs->strategy), cs->tile, cs->trans_a, cs->trans_b, cs->scale,
           cs->scale ? cs->alpha : 1.0, cs->scale ? cs->beta : 0.0, cs->m, cs->n, cs->k,
           cs->same_ab ? " a=b" : "", cs->fill_c == C_NAN ? " c=NaN" : "", bias[cs->bias], act[cs->act]);
}

/* The status a valid call must give: the tiled strategies refuse an
 * epilogue (their kernel has none), TILED_EVEN extents its tile (the
 * context's default tile for 0) does not divide. */
static gt_status expected_status(const mm_case *cs) {
  gt_strategy s = cs->strategy;
  uint32_t t = cs->tile ? cs->tile : gt_context_default_tile(ctx);
  bool tiled = s == GT_STRATEGY_TILED_EVEN || s == GT_STRATEGY_TILED_PAD || s == GT_STRATEGY_TRUNCATE_B;
  if (tiled && (cs->bias || cs->act)) return GT_ERR_UNSUPPORTED;
  return s == GT_STRATEGY_TILED_EVEN && (cs->m % t || cs->n % t || cs->k % t) ? GT_ERR_SHAPE_MISMATCH : GT_OK;
}

static bool run_case(const mm_case *cs) {
  char what[256];
  describe(cs, what, sizeof what);
  operand a, b, c, bias;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  memset(&c, 0, sizeof c);
  memset(&bias, 0, sizeof bias);
  operand *pb = cs->same_ab ? &a : &b;
  size_t mn = (size_t)cs->m * cs->n;
  double *ref = malloc(mn * sizeof *ref), *bound = malloc(mn * sizeof *bound);
  double *bias_values = malloc(((size_t)cs->m + cs->n) * sizeof *bias_values);
  uint32_t *got = NULL;
  bool ok = ref != NULL && bound != NULL && bias_values != NULL;
  if (cs->bias) {
    ok = ok && operand_alloc(&bias, cs->bias == 1 ? cs->m : 1, cs->bias == 1 ? 1 : cs->n, random_layout());
    if (ok) {
      fill_input(&bias, FILL_RANDOM, false);
      ok = operand_upload(&bias);
      for (uint32_t i = 0; ok && i < (cs->bias == 1 ? cs->m : cs->n); i++)
        bias_values[i] =
            float_of(bias.host[cs->bias == 1 ? index_of(bias.view, i, 0) : index_of(bias.view, 0, i)]);
    }
  }
  ok = ok && operand_alloc(&a, cs->trans_a ? cs->k : cs->m, cs->trans_a ? cs->m : cs->k, random_layout());
  if (!cs->same_ab)
    ok = ok && operand_alloc(&b, cs->trans_b ? cs->n : cs->k, cs->trans_b ? cs->k : cs->n, random_layout());
  ok = ok && operand_alloc(&c, cs->m, cs->n, random_layout());
  if (ok) {
    fill_input(&a, cs->fill_a, cs->trans_a);
    if (!cs->same_ab) fill_input(&b, cs->fill_b, !cs->trans_b);
    fill_output(&c, cs->fill_c);
    ok = operand_upload(&a) && (cs->same_ab || operand_upload(&b)) && operand_upload(&c);
    got = malloc(max3(max3(a.words, b.words, c.words), bias.words, 1) * 4);
    ok = ok && got != NULL;
  }
  if (ok) {
    gt_matmul_desc d = {.strategy = cs->strategy,
                        .tile = cs->tile,
                        .trans_a = cs->trans_a,
                        .trans_b = cs->trans_b,
                        .scale = cs->scale,
                        .alpha = cs->alpha,
                        .beta = cs->beta,
                        .bias = bias.view,
                        .act = cs->act,
                        .act_lo = clamp_lo,
                        .act_hi = clamp_hi};
    gt_status want = expected_status(cs);
    /* Views cut into blocks (--max-storage-block): TILED_EVEN's blocks
     * are whole tiles at least. */
    uint32_t t = cs->tile ? cs->tile : gt_context_default_tile(ctx);
    if (want == GT_OK && cs->strategy == GT_STRATEGY_TILED_EVEN &&
        (!gt_test_window_fits(ctx, a.view, t, t) || !gt_test_window_fits(ctx, pb->view, t, t) ||
         !gt_test_window_fits(ctx, c.view, t, t)))
      want = GT_ERR_UNSUPPORTED;
    gt_status s = gt_matmul(ctx, a.view, pb->view, c.view, &d);
    gt_limits l = gt_context_limits(ctx);
    if (!gt_test_window_fits(ctx, a.view, a.view.rows, a.view.cols) ||
        !gt_test_window_fits(ctx, pb->view, pb->view.rows, pb->view.cols) ||
        !gt_test_window_fits(ctx, c.view, c.view.rows, c.view.cols) ||
        2.0 * cs->m * cs->n * cs->k > (double)l.max_dispatch_flops)
      block_cases++;
    CHECK_STATUS(s, want);
    if (s != want) {
      fprintf(stderr, "FAILED %s: status %s\n", what, gt_status_string(s));
      ok = false;
    }
    ok =
        reference_with_bias(&a, pb, &c, &d, cs->bias ? bias_values : NULL, cs->m, cs->n, cs->k, ref, bound) &&
        ok;
    if (cs->exact)
      for (size_t i = 0; i < mn; i++)
        bound[i] = 0;
    ok = gt_test_read_all(ctx, c.buffer, c.words, got) == 0 &&
         check_output(&c, got, ref, bound, want == GT_OK, what) && ok;
    ok = check_unchanged(&a, cs->same_ab ? "a (= b)" : "a", what, got) && ok;
    if (!cs->same_ab) ok = check_unchanged(&b, "b", what, got) && ok;
    if (cs->bias) ok = check_unchanged(&bias, "the bias", what, got) && ok;
  }
  CHECK(ok);
  cases++;
  free(ref);
  free(bound);
  free(bias_values);
  free(got);
  operand_free(&a);
  if (!cs->same_ab) operand_free(&b);
  operand_free(&c);
  operand_free(&bias);
  return ok;
}

static mm_case make_case(gt_strategy s, uint32_t tile, bool ta, bool tb, bool scale, uint32_t m, uint32_t n,
                         uint32_t k) {
  mm_case cs;
  memset(&cs, 0, sizeof cs);
  cs.strategy = s;
  cs.tile = tile;
  cs.trans_a = ta;
  cs.trans_b = tb;
  cs.scale = scale;
  cs.alpha = 1.5f;
  cs.beta = -0.75f;
  cs.m = m;
  cs.n = n;
  cs.k = k;
  cs.fill_a = cs.fill_b = FILL_RANDOM;
  cs.fill_c = scale ? C_RANDOM : C_POISON;
  return cs;
}

/* ------------------------------------------------------------------ */
/* The sections of the test.                                            */

/* Every strategy x trans_a x trans_b x scale x tile on shapes around the
 * tile: 1x1x1, tile - 1 / tile / tile + 1 in each dimension, shapes where
 * exactly one of M, N, K is not a multiple of the tile (TILED_EVEN must
 * check all three), twice and three times the tile, primes, and two
 * random shapes per tile with each dimension up to 200. */
static void test_all_combinations(void) {
  enum { FIXED = 10, RANDOM = 2 };
  uint32_t shapes[FIXED + RANDOM][3];
  for (size_t ti = 0; ti < N_TILES; ti++) {
    uint32_t t = tiles[ti] ? tiles[ti] : gt_context_default_tile(ctx);
    uint32_t fixed[FIXED][3] = {{1, 1, 1},     {t - 1, t + 1, t}, {t, t, t},         {t + 1, t - 1, t + 1},
                                {t, t, t + 1}, {t, t - 1, 2 * t}, {t + 1, 2 * t, t}, {2 * t, t, 3 * t},
                                {17, 33, 13},  {67, 45, 33}};
    memcpy(shapes, fixed, sizeof fixed);
    for (int i = 0; i < RANDOM; i++)
      for (int j = 0; j < 3; j++)
        shapes[FIXED + i][j] = gt_test_rand_range(&rng, 1, 200);
    for (size_t si = 0; si < FIXED + RANDOM; si++)
      for (size_t st = 0; st < N_STRATEGIES; st++)
        for (int flags = 0; flags < 8; flags++) {
          if (!gt_test_runs(sampled)) continue;
          mm_case cs = make_case(strategies[st], tiles[ti], flags & 1, (flags >> 1) & 1, (flags >> 2) & 1,
                                 shapes[si][0], shapes[si][1], shapes[si][2]);
          run_case(&cs);
        }
  }
}

/* beta = 0 never reads c, and without scaling c is never read: c's view
 * holds NaN, which any read (0 * NaN = NaN) would carry into the result. */
/* Layouts whose rows start 16-byte aligned: tight, and two sections. */
static const layout aligned_layouts[] = {{0, 0, 0, false}, {8, 4, 4, true}, {4, 12, 8, true}};

/* AUTO on each shape, with a and b stored transposed or not (ta, tb), in
 * each aligned layout, with and without scaling; K past one 4096-long
 * slice with marker fills. In a sampled run each shape runs once, the
 * layout and the scaling turning with the shape. */
static void run_aligned(const uint32_t (*shapes)[3], size_t count, bool ta, bool tb) {
  size_t layouts = sizeof aligned_layouts / sizeof aligned_layouts[0];
  for (size_t i = 0; i < count; i++)
    for (size_t j = 0; j < layouts; j++)
      for (int scale = 0; scale < 2; scale++) {
        if (sampled && (j != i % layouts || scale != (int)(i % 2))) continue;
        aligned_layout = &aligned_layouts[j];
        mm_case cs =
            make_case(GT_STRATEGY_AUTO, 0, ta, tb, scale != 0, shapes[i][0], shapes[i][1], shapes[i][2]);
        if (shapes[i][2] > 4096) cs.fill_a = cs.fill_b = FILL_MARKERS;
        /* The scaled half ends in an epilogue (not in a sampled run,
         * where each program costs a compile of minutes). */
        if (scale && !sampled) with_epilogue(&cs, 1 + (int)((i + j) % 8));
        run_case(&cs);
      }
  aligned_layout = NULL;
}

/* AUTO with rows 16-byte aligned and K, N whole vec4s: on llvmpipe the
 * texels kernel, with uneven M, N past a block, several K slices, scaling. */
static void test_vec4_aligned(void) {
  static const uint32_t shapes[][3] = {{4, 4, 4},    {1, 8, 4},    {37, 36, 12},  {64, 64, 64},
                                       {33, 100, 8}, {70, 4, 260}, {5, 132, 4100}};
  run_aligned(shapes, sizeof shapes / sizeof shapes[0], false, false);
}

static void test_beta_zero_does_not_read_c(void) {
  static const uint32_t shapes[][3] = {{16, 24, 40}, {37, 29, 23}};
  for (size_t si = 0; si < 2; si++)
    for (size_t st = 0; st < N_STRATEGIES; st++)
      for (int scale = 0; scale < 2; scale++) {
        mm_case cs = make_case(strategies[st], 8, false, st % 2 == 1, scale, shapes[si][0], shapes[si][1],
                               shapes[si][2]);
        cs.beta = 0.0f;
        cs.fill_c = C_NAN;
        run_case(&cs);
      }
}

/* a I = a and I b = b exactly: each sum has one nonzero product, x * 1,
 * and adding zeros to it is exact in any order. */
static void test_identity(void) {
  static const gt_strategy s[] = {GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_PAD, GT_STRATEGY_AUTO};
  static const uint32_t sizes[] = {37, 64};
  for (size_t zi = 0; zi < 2; zi++)
    for (size_t st = 0; st < 3; st++)
      for (int flags = 0; flags < 8; flags++) {
        uint32_t n = sizes[zi];
        mm_case cs = make_case(s[st], 0, flags & 1, (flags >> 1) & 1, false, n, n, n);
        if (flags & 4)
          cs.fill_a = FILL_IDENTITY;
        else
          cs.fill_b = FILL_IDENTITY;
        cs.exact = true;
        run_case(&cs);
      }
}

/* a and b the very same view (read-read overlap is allowed): c = a a. */
static void test_read_read(void) {
  for (size_t st = 0; st < N_STRATEGIES; st++)
    for (int flags = 0; flags < 8; flags++) {
      mm_case cs = make_case(strategies[st], 8, flags & 1, (flags >> 1) & 1, (flags >> 2) & 1, 29, 29, 29);
      cs.same_ab = true;
      run_case(&cs);
    }
}

/* Long K: Mesa silently stops a shader's loops after 65,535 iterations, so
 * a kernel summing all of K in one loop would drop the tail. With most
 * terms small (about 1/1024) and large markers at the K chunk and loop-cap
 * boundaries and at the end, the bound stays far below a single marker
 * product (>= 0.25): a dropped or doubled marker term fails. */
static void test_long_k(void) {
  static const uint32_t shapes[][3] = {{3, 5, 65535}, {3, 5, 65536}, {2, 3, 70000}};
  static const gt_strategy s[] = {GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_PAD, GT_STRATEGY_AUTO};
  for (size_t si = 0; si < 3; si++)
    for (size_t st = 0; st < 3; st++)
      for (int scale = 0; scale < 2; scale++) {
        /* Transposes on the last shape, so the long walk also runs down a
         * column of a and along a row of b. */
        mm_case cs = make_case(s[st], s[st] == GT_STRATEGY_TILED_PAD ? 8 : 0, si == 2, si == 2, scale,
                               shapes[si][0], shapes[si][1], shapes[si][2]);
        cs.fill_a = cs.fill_b = FILL_MARKERS;
        run_case(&cs);
      }
}

/* (A B)^T = B^T A^T: C = A B with gt_matmul, C^T with gt_transpose, and
 * D = B^T A^T from the same two buffers through the trans flags; C^T and D
 * must agree within the bound, and each must agree with the reference. */
/* The epilogue on every strategy: each of the 9 bias x activation
 * choices with each transpose case, scaled and not, on shapes with rows
 * and columns of one (a 1 x 1 bias serving as either kind), around the
 * tile and uneven; then K past one slice, where only the dispatch of the
 * last slice may add the bias and activate (AUTO's blocks, and TRUNCATE_B's
 * tiles with SIMPLE's K leftover). */
static void test_epilogue(void) {
  uint32_t t = gt_context_default_tile(ctx);
  const uint32_t shapes[][3] = {{1, 1, 3},   {1, 9, 5}, {7, 1, 6}, {t, t, t}, {t + 1, 2 * t - 1, t + 3},
                                {37, 29, 23}};
  for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
    for (size_t st = 0; st < N_STRATEGIES; st++)
      for (int e = 1; e < 9; e++) {
        if (sampled && (e + (int)st + (int)si) % 8 != 0) continue;
        int flags = (e + (int)si) % 8;
        mm_case cs = make_case(strategies[st], 0, flags & 1, (flags >> 1) & 1, (flags >> 2) & 1,
                               shapes[si][0], shapes[si][1], shapes[si][2]);
        with_epilogue(&cs, e);
        run_case(&cs);
      }
  static const gt_strategy long_k[] = {GT_STRATEGY_AUTO, GT_STRATEGY_TRUNCATE_B, GT_STRATEGY_SIMPLE};
  for (size_t st = 0; st < sizeof long_k / sizeof long_k[0]; st++) {
    /* The library sums K in slices of 4096. */
    mm_case cs = make_case(long_k[st], 0, st == 1, false, true, 2 * t + 1, t + 2, 4096 + 37);
    cs.fill_a = cs.fill_b = FILL_MARKERS;
    with_epilogue(&cs, st == 1 ? 8 : 5); /* per column with CLAMP, per row with RELU */
    run_case(&cs);
  }
}

static void test_transpose_of_product(void) {
  static const uint32_t shapes[][3] = {{45, 67, 33}, {31, 17, 50}};
  static const gt_strategy s[] = {GT_STRATEGY_AUTO, GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_PAD,
                                  GT_STRATEGY_TRUNCATE_B};
  static const uint32_t t[] = {0, 0, 16, 8};
  for (size_t si = 0; si < 2; si++)
    for (size_t st = 0; st < 4; st++) {
      uint32_t m = shapes[si][0], n = shapes[si][1], k = shapes[si][2];
      char what[160];
      snprintf(what, sizeof what, "(AB)^T = B^T A^T: %s tile %u M %u N %u K %u", gt_strategy_name(s[st]),
               t[st], m, n, k);
      operand A, B, C, CT, D;
      memset(&A, 0, sizeof A);
      memset(&B, 0, sizeof B);
      memset(&C, 0, sizeof C);
      memset(&CT, 0, sizeof CT);
      memset(&D, 0, sizeof D);
      size_t mn = (size_t)m * n;
      double *ref = malloc(mn * sizeof *ref), *bound = malloc(mn * sizeof *bound);
      double *reft = malloc(mn * sizeof *reft), *boundt = malloc(mn * sizeof *boundt);
      double *ct_want = malloc(mn * sizeof *ct_want), *zero = calloc(mn, sizeof *zero);
      uint32_t *got = NULL, *got_ct = NULL;
      bool ok = ref && bound && reft && boundt && ct_want && zero;
      ok = ok && operand_alloc(&A, m, k, random_layout()) && operand_alloc(&B, k, n, random_layout()) &&
           operand_alloc(&C, m, n, random_layout()) && operand_alloc(&CT, n, m, random_layout()) &&
           operand_alloc(&D, n, m, random_layout());
      if (ok) {
        fill_input(&A, FILL_RANDOM, false);
        fill_input(&B, FILL_RANDOM, true);
        fill_output(&C, C_POISON);
        fill_output(&CT, C_POISON);
        fill_output(&D, C_POISON);
        ok = operand_upload(&A) && operand_upload(&B) && operand_upload(&C) && operand_upload(&CT) &&
             operand_upload(&D);
        size_t most = max3(max3(A.words, B.words, C.words), CT.words, D.words);
        got = malloc(most * 4);
        got_ct = malloc(most * 4);
        ok = ok && got && got_ct;
      }
      if (ok) {
        gt_matmul_desc d1 = {.strategy = s[st], .tile = t[st]};
        gt_matmul_desc d2 = {.strategy = s[st], .tile = t[st], .trans_a = true, .trans_b = true};
        gt_status s1 = gt_matmul(ctx, A.view, B.view, C.view, &d1);
        gt_status s2 = gt_transpose(ctx, C.view, CT.view, NULL);
        gt_status s3 = gt_matmul(ctx, B.view, A.view, D.view, &d2);
        CHECK_STATUS(s1, GT_OK);
        CHECK_STATUS(s2, GT_OK);
        CHECK_STATUS(s3, GT_OK);
        ok = s1 == GT_OK && s2 == GT_OK && s3 == GT_OK;
        ok = reference(&A, &B, &C, &d1, m, n, k, ref, bound) && ok;
        ok = reference(&B, &A, &D, &d2, n, m, k, reft, boundt) && ok;
        /* C against the reference. */
        ok = gt_test_read_all(ctx, C.buffer, C.words, got) == 0 &&
             check_output(&C, got, ref, bound, true, what) && ok;
        /* C^T is C's bits moved: exact. */
        for (uint32_t i = 0; i < m; i++)
          for (uint32_t j = 0; j < n; j++)
            ct_want[(size_t)j * m + i] = float_of(got[index_of(C.view, i, j)]);
        ok = gt_test_read_all(ctx, CT.buffer, CT.words, got_ct) == 0 &&
             check_output(&CT, got_ct, ct_want, zero, true, what) && ok;
        /* D against its own reference, then against C^T. */
        ok = gt_test_read_all(ctx, D.buffer, D.words, got) == 0 &&
             check_output(&D, got, reft, boundt, true, what) && ok;
        bool agree = true;
        for (uint32_t j = 0; j < n && agree; j++)
          for (uint32_t i = 0; i < m && agree; i++) {
            double ct = float_of(got_ct[index_of(CT.view, j, i)]), dv = float_of(got[index_of(D.view, j, i)]);
            double bd = boundt[(size_t)j * m + i];
            if (!(fabs(ct - dv) <= bd)) {
              fprintf(stderr, "FAILED %s: C^T(%u, %u) = %.9g but D = %.9g, bound %.3g\n", what, j, i, ct, dv,
                      bd);
              agree = false;
            }
          }
        ok = agree && ok;
        ok = check_unchanged(&A, "A", what, got) && check_unchanged(&B, "B", what, got) && ok;
      }
      CHECK(ok);
      cases += 2;
      free(ref);
      free(bound);
      free(reft);
      free(boundt);
      free(ct_want);
      free(zero);
      free(got);
      free(got_ct);
      operand_free(&A);
      operand_free(&B);
      operand_free(&C);
      operand_free(&CT);
      operand_free(&D);
    }
}

/* c overlapping a or b is refused with nothing written; c beside a in the
 * same buffer (side-by-side sections, rows interleaved, no shared element)
 * is not an overlap and must work. One buffer X holds a 16 x 16 a at
 * column 0 of a 16-row region of pitch 36; b is a buffer of its own. */
static void test_aliasing(void) {
  enum { N = 16, PITCH = 36, BEFORE = 10 };
  for (size_t st = 0; st < N_STRATEGIES; st++) {
    char what[160];
    operand X, B, CX;
    memset(&X, 0, sizeof X);
    memset(&B, 0, sizeof B);
    /* Room behind a for a c shifted 5 rows down: every c view tried is
     * inside X, so only the overlap is wrong with it. */
    layout lx = {BEFORE, 6 * PITCH, PITCH - N, true};
    bool ok = operand_alloc(&X, N, N, lx) && operand_alloc(&B, N, N, random_layout());
    uint32_t *got = NULL;
    if (ok) {
      /* Every word of X is a float, so a c view anywhere in it is valid input for beta. */
      for (size_t i = 0; i < X.words; i++)
        X.host[i] = bits_of(rand_float());
      fill_input(&B, FILL_RANDOM, true);
      ok = operand_upload(&X) && operand_upload(&B);
      got = malloc(max3(X.words, B.words, 1) * 4);
      ok = ok && got != NULL;
    }
    if (ok) {
      gt_view va = X.view, vb = B.view;
      gt_view same = va, shifted = va, one_col = va, beside = va;
      shifted.offset += 5 * PITCH + 3;
      one_col.offset += N - 1; /* shares a's last column */
      beside.offset += N + 2;  /* columns 18..33: next to a, sharing nothing */
      const gt_view bad_c[] = {same, shifted, one_col, vb};
      const char *bad_name[] = {"c = a", "c overlaps a (shifted)", "c shares a's last column", "c = b"};
      gt_matmul_desc d = {
          .strategy = strategies[st], .tile = 8, .scale = true, .alpha = 1.5f, .beta = -0.75f};
      for (size_t i = 0; i < 4; i++) {
        snprintf(what, sizeof what, "aliasing %s, %s tile 8", bad_name[i], gt_strategy_name(strategies[st]));
        gt_status s = gt_matmul(ctx, va, vb, bad_c[i], &d);
        CHECK_STATUS(s, GT_ERR_ALIASED);
        if (s != GT_ERR_ALIASED) fprintf(stderr, "FAILED %s: status %s\n", what, gt_status_string(s));
        bool unchanged = check_unchanged(&X, "X", what, got) && check_unchanged(&B, "b", what, got);
        CHECK(unchanged);
        cases++;
      }
      /* Side by side: allowed. */
      snprintf(what, sizeof what, "c beside a in one buffer, %s tile 8", gt_strategy_name(strategies[st]));
      CHECK(!gt_views_alias(va, beside));
      CX = X;
      CX.view = beside;
      double ref[N * N], bound[N * N];
      bool good = reference(&X, &B, &CX, &d, N, N, N, ref, bound);
      gt_status s = gt_matmul(ctx, va, vb, beside, &d);
      CHECK_STATUS(s, GT_OK);
      if (s != GT_OK) fprintf(stderr, "FAILED %s: status %s\n", what, gt_status_string(s));
      /* Checking CX checks all of X: the c view within the bound, a's
       * elements and every other word unchanged. */
      good = good && gt_test_read_all(ctx, X.buffer, X.words, got) == 0 &&
             check_output(&CX, got, ref, bound, s == GT_OK, what);
      good = check_unchanged(&B, "b", what, got) && good;
      CHECK(good);
      cases++;
    }
    CHECK(ok);
    free(got);
    operand_free(&X);
    operand_free(&B);
  }
}

/* One call that must be refused with `want`, after which a, b and c (and
 * the extra operand, when given) must be exactly as uploaded. */
static void expect_refused(const char *what, gt_context *c_ctx, gt_view a, gt_view b, gt_view c,
                           const gt_matmul_desc *d, gt_status want, const operand *const *ops, size_t nops,
                           uint32_t *got) {
  gt_status s = gt_matmul(c_ctx, a, b, c, d);
  CHECK_STATUS(s, want);
  if (s != want)
    fprintf(stderr, "FAILED %s: got %s, want %s\n", what, gt_status_string(s), gt_status_string(want));
  bool ok = true;
  for (size_t i = 0; i < nops; i++)
    ok = check_unchanged(ops[i], "an operand", what, got) && ok;
  CHECK(ok);
  cases++;
}

/* The exact status of each invalid call, with nothing written. a is
 * 12 x 10, b 10 x 14, c 12 x 14 (poison); further operands of the wrong
 * shapes. */
static void test_validation(void) {
  enum { M = 12, K = 10, N = 14 };
  operand a, b, c, b_rows, c_cols, c_rows, c_t;
  operand *all[] = {&a, &b, &c, &b_rows, &c_cols, &c_rows, &c_t};
  for (size_t i = 0; i < 7; i++)
    memset(all[i], 0, sizeof *all[i]);
  bool ok = operand_alloc(&a, M, K, random_layout()) && operand_alloc(&b, K, N, random_layout()) &&
            operand_alloc(&c, M, N, random_layout()) && operand_alloc(&b_rows, K + 1, N, random_layout()) &&
            operand_alloc(&c_cols, M, N - 1, random_layout()) &&
            operand_alloc(&c_rows, M + 1, N, random_layout()) && operand_alloc(&c_t, N, M, random_layout());
  uint32_t *got = NULL;
  if (ok) {
    fill_input(&a, FILL_RANDOM, false);
    fill_input(&b, FILL_RANDOM, true);
    fill_input(&b_rows, FILL_RANDOM, true);
    fill_output(&c, C_RANDOM);
    fill_output(&c_cols, C_RANDOM);
    fill_output(&c_rows, C_RANDOM);
    fill_output(&c_t, C_RANDOM);
    for (size_t i = 0; i < 7; i++)
      ok = operand_upload(all[i]) && ok;
    size_t most = 0;
    for (size_t i = 0; i < 7; i++)
      most = all[i]->words > most ? all[i]->words : most;
    got = malloc(most * 4);
    ok = ok && got != NULL;
  }
  CHECK(ok);
  if (!ok) goto done;
  {
    const operand *const ops[] = {&a, &b, &c, &b_rows, &c_cols, &c_rows, &c_t};
    const size_t nops = 7;
    gt_matmul_desc plain = {.strategy = GT_STRATEGY_AUTO, .scale = true, .alpha = 1.5f, .beta = -0.75f};
    gt_view va = a.view, vb = b.view, vc = c.view;

    for (size_t st = 0; st < N_STRATEGIES; st++) {
      gt_matmul_desc d = plain;
      char what[128];
      d.strategy = strategies[st];
      snprintf(what, sizeof what, "%s: inner dimensions 10 vs 11", gt_strategy_name(d.strategy));
      expect_refused(what, ctx, va, b_rows.view, vc, &d, GT_ERR_SHAPE_MISMATCH, ops, nops, got);
      d.trans_b = true; /* op(b) = 14 x 10: K 10 vs 14 */
      snprintf(what, sizeof what, "%s: trans_b makes the inner dimensions 10 vs 14",
               gt_strategy_name(d.strategy));
      expect_refused(what, ctx, va, vb, vc, &d, GT_ERR_SHAPE_MISMATCH, ops, nops, got);
      d.trans_b = false;
      d.trans_a = true; /* op(a) = 10 x 12: K 12 vs 10 */
      snprintf(what, sizeof what, "%s: trans_a makes the inner dimensions 12 vs 10",
               gt_strategy_name(d.strategy));
      expect_refused(what, ctx, va, vb, vc, &d, GT_ERR_SHAPE_MISMATCH, ops, nops, got);
      d.trans_a = false;
      snprintf(what, sizeof what, "%s: c 12 x 13", gt_strategy_name(d.strategy));
      expect_refused(what, ctx, va, vb, c_cols.view, &d, GT_ERR_SHAPE_MISMATCH, ops, nops, got);
      snprintf(what, sizeof what, "%s: c 13 x 14", gt_strategy_name(d.strategy));
      expect_refused(what, ctx, va, vb, c_rows.view, &d, GT_ERR_SHAPE_MISMATCH, ops, nops, got);
      snprintf(what, sizeof what, "%s: c 14 x 12 (transposed)", gt_strategy_name(d.strategy));
      expect_refused(what, ctx, va, vb, c_t.view, &d, GT_ERR_SHAPE_MISMATCH, ops, nops, got);
    }

    gt_matmul_desc d = plain;
    d.strategy = GT_STRATEGY_TRUNCATE_A;
    expect_refused("strategy TRUNCATE_A", ctx, va, vb, vc, &d, GT_ERR_INVALID_ARGUMENT, ops, nops, got);
    d.strategy = (gt_strategy)99;
    expect_refused("strategy 99", ctx, va, vb, vc, &d, GT_ERR_INVALID_ARGUMENT, ops, nops, got);
    d = plain;
    d.strategy = GT_STRATEGY_TILED_PAD;
    d.tile = 12;
    expect_refused("tile 12", ctx, va, vb, vc, &d, GT_ERR_INVALID_ARGUMENT, ops, nops, got);
    d.tile = 64;
    expect_refused("tile 64", ctx, va, vb, vc, &d, GT_ERR_INVALID_ARGUMENT, ops, nops, got);
    d = plain;
    expect_refused("NULL ctx", NULL, va, vb, vc, &d, GT_ERR_INVALID_ARGUMENT, ops, nops, got);

    /* Types: GT_I32 / GT_U32 throughout are unsupported; mixed types are a
     * mismatch. */
    gt_view ia = va, ib = vb, ic = vc;
    ia.type = ib.type = ic.type = GT_I32;
    expect_refused("GT_I32 views", ctx, ia, ib, ic, &d, GT_ERR_UNSUPPORTED, ops, nops, got);
    ia.type = ib.type = ic.type = GT_U32;
    expect_refused("GT_U32 views", ctx, ia, ib, ic, &d, GT_ERR_UNSUPPORTED, ops, nops, got);
    ia.type = GT_I32;
    expect_refused("a GT_I32, b and c GT_F32", ctx, ia, vb, vc, &d, GT_ERR_SHAPE_MISMATCH, ops, nops, got);

    /* Views past their buffer's end: one element too far. */
    gt_view far_a = va, far_b = vb, far_c = vc;
    far_a.offset = a.words - ((size_t)(M - 1) * pitch_of(va) + K) + 1;
    far_b.offset = b.words - ((size_t)(K - 1) * pitch_of(vb) + N) + 1;
    far_c.offset = c.words - ((size_t)(M - 1) * pitch_of(vc) + N) + 1;
    expect_refused("a past its buffer", ctx, far_a, vb, vc, &d, GT_ERR_OUT_OF_RANGE, ops, nops, got);
    expect_refused("b past its buffer", ctx, va, far_b, vc, &d, GT_ERR_OUT_OF_RANGE, ops, nops, got);
    expect_refused("c past its buffer", ctx, va, vb, far_c, &d, GT_ERR_OUT_OF_RANGE, ops, nops, got);

    /* Malformed views. */
    gt_view z_a = va, z_c = vc, p_a = va, n_a = va, x_a = va;
    z_a.rows = 0;
    z_c.rows = 0; /* M = 0 throughout, so only the zero extent is wrong */
    expect_refused("zero extent", ctx, z_a, vb, z_c, &d, GT_ERR_INVALID_ARGUMENT, ops, nops, got);
    p_a.pitch = K - 1;
    expect_refused("pitch < cols", ctx, p_a, vb, vc, &d, GT_ERR_INVALID_ARGUMENT, ops, nops, got);
    n_a.buffer = 0;
    expect_refused("buffer 0", ctx, n_a, vb, vc, &d, GT_ERR_INVALID_ARGUMENT, ops, nops, got);
    x_a.buffer = 987654;
    expect_refused("not a buffer", ctx, x_a, vb, vc, &d, GT_ERR_INVALID_ARGUMENT, ops, nops, got);

    /* The epilogue's fields. b's first row is a bias of the right shape
     * (1 x N) and type. */
    gt_view row_of_b = vb;
    row_of_b.rows = 1;
    d = plain;
    d.bias = row_of_b;
    d.bias.rows = 2;
    expect_refused("bias 2 x N", ctx, va, vb, vc, &d, GT_ERR_SHAPE_MISMATCH, ops, nops, got);
    d.bias = row_of_b;
    d.bias.cols = N - 1;
    d.bias.pitch = pitch_of(vb);
    expect_refused("bias 1 x (N - 1)", ctx, va, vb, vc, &d, GT_ERR_SHAPE_MISMATCH, ops, nops, got);
    d.bias = row_of_b;
    d.bias.type = GT_I32;
    expect_refused("bias GT_I32", ctx, va, vb, vc, &d, GT_ERR_UNSUPPORTED, ops, nops, got);
    d.bias = row_of_b;
    d.bias.offset = b.words - N + 1;
    expect_refused("bias past its buffer", ctx, va, vb, vc, &d, GT_ERR_OUT_OF_RANGE, ops, nops, got);
    d.bias = row_of_b;
    d.bias.pitch = N - 1;
    expect_refused("bias pitch < cols", ctx, va, vb, vc, &d, GT_ERR_INVALID_ARGUMENT, ops, nops, got);
    d.bias = vc;
    d.bias.rows = 1;
    expect_refused("bias inside c", ctx, va, vb, vc, &d, GT_ERR_ALIASED, ops, nops, got);
    d = plain;
    d.act = (gt_activation)3;
    expect_refused("act 3", ctx, va, vb, vc, &d, GT_ERR_INVALID_ARGUMENT, ops, nops, got);
    d.act = GT_ACTIVATION_CLAMP;
    d.act_lo = 1.0f;
    d.act_hi = 0.5f;
    expect_refused("CLAMP to [1, 0.5]", ctx, va, vb, vc, &d, GT_ERR_INVALID_ARGUMENT, ops, nops, got);
    d.act_lo = NAN;
    expect_refused("CLAMP to [NaN, 0.5]", ctx, va, vb, vc, &d, GT_ERR_INVALID_ARGUMENT, ops, nops, got);
    d.act_lo = 0.0f;
    d.act_hi = NAN;
    expect_refused("CLAMP to [0, NaN]", ctx, va, vb, vc, &d, GT_ERR_INVALID_ARGUMENT, ops, nops, got);
    d = plain;

    /* And after all that, a NULL desc: c = a b with AUTO. */
    {
      double ref[M * N], bound[M * N];
      gt_matmul_desc none = {.strategy = GT_STRATEGY_AUTO};
      bool good = reference(&a, &b, &c, &none, M, N, K, ref, bound);
      gt_status s = gt_matmul(ctx, va, vb, vc, NULL);
      CHECK_STATUS(s, GT_OK);
      good = good && gt_test_read_all(ctx, c.buffer, c.words, got) == 0 &&
             check_output(&c, got, ref, bound, s == GT_OK, "NULL desc");
      good = check_unchanged(&a, "a", "NULL desc", got) && check_unchanged(&b, "b", "NULL desc", got) && good;
      CHECK(good);
      cases++;
    }
  }
done:
  free(got);
  for (size_t i = 0; i < 7; i++)
    operand_free(all[i]);
}

/* The variant a "built ..." debug message names, or UINT32_MAX. */
static uint32_t built_variant(const char *msg) {
  const char *v = strstr(msg, "variant ");
  return v ? (uint32_t)strtoul(v + 8, NULL, 10) : UINT32_MAX;
}

/* The registers and shared kernels' variant bits for operands moved as
 * vec4s (GT_VARIANT_VEC4_A, _B, _C in the library). */
enum { VEC4_A = 1u << 7, VEC4_B = 1u << 8, VEC4_C = 1u << 9, VEC4_ALL = VEC4_A | VEC4_B | VEC4_C };

/* Counts the builds of the registers kernel (builds[0]) and of the shared
 * one (builds[1]) without vec4 operands, from the library's debug log. */
static void count_builds(int level, const char *msg, void *user) {
  unsigned *builds = user;
  if (level != GT_LOG_DEBUG) return;
  if (strncmp(msg, "built matmul_blocked.comp", 25) == 0 && (built_variant(msg) & VEC4_ALL) == 0) builds[0]++;
  if (strncmp(msg, "built matmul_blocked_shared.comp", 32) == 0 && (built_variant(msg) & VEC4_ALL) == 0)
    builds[1]++;
}

/* AUTO runs the kernel chosen at init; both kernels are checked here
 * whatever the device, through gt_context_desc.matmul_kernel: shapes around
 * their 32- and 128-wide blocks, every transpose and scaling case, and a
 * long K. The shared kernel runs only where c has enough blocks of
 * 128 x 128 (the device table's shared_min_blocks, 64 in every entry), so
 * its shapes are wide, on both sides of 64; the debug log shows which
 * kernel was built. It needs 256 invocations, which the ES 3.1 minimums
 * do not give: init must then refuse it. */
static void test_each_auto_kernel(bool min_limits) {
  static const gt_matmul_kernel kernels[] = {GT_MATMUL_KERNEL_REGISTERS, GT_MATMUL_KERNEL_SHARED,
                                             GT_MATMUL_KERNEL_REGISTERS_K1};
  static const uint32_t small[][3] = {{9, 1, 1},     {31, 33, 7},     {127, 129, 9},
                                      {128, 128, 8}, {200, 131, 257}, {9, 5, 70000}};
  /* Blocks of 128 x 128 in c: 9 x 8, 8 x 8 (exactly 64, counted with
   * partial blocks), 8 x 10, which run the shared kernel, then 1 x 63 and
   * 8 x 7, which run the registers kernel (on every device-table entry:
   * all take 64); K of whole and partial 8-wide steps. */
  static const uint32_t wide[][3] = {
      {1025, 1023, 9}, {1023, 897, 8}, {897, 1153, 19}, {128, 8064, 2}, {1023, 895, 5}};
  static const size_t wide_shared = 3;
  /* In a sampled run: of the wide shapes the first (shared) and 1 x 63
   * blocks, and of the 8 cases per shape the 4 transposes, the last one
   * scaled. */
  static const size_t sampled_wide[] = {0, 3};
  /* Rows that never start 16-byte aligned: every case runs a plain
   * variant (no vec4 operands), so each shape builds its kernel's four
   * transpose variants and nothing else, whatever the shape. */
  static const layout misaligned = {1, 3, 1, true};
  gt_context *saved = ctx;
  /* In a sampled run REGISTERS_K1 is left to batched_k1: its long K
   * took the armhf half of this suite past its time limit. */
  size_t kernel_count = sizeof kernels / sizeof kernels[0] - (sampled ? 1 : 0);
  for (size_t ki = 0; ki < kernel_count; ki++) {
    bool shared = kernels[ki] == GT_MATMUL_KERNEL_SHARED;
    unsigned builds[2] = {0, 0};
    gt_context_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.min_limits = min_limits;
    desc.matmul_kernel = kernels[ki];
    desc.logger.log = count_builds;
    desc.logger.user = builds;
    gt_context *other = NULL;
    gt_status s = gt_context_init(NULL, 0, &desc, &other);
    if (min_limits && shared) {
      CHECK_STATUS(s, GT_ERR_UNSUPPORTED);
      CHECK(other == NULL);
      continue;
    }
    CHECK_STATUS(s, GT_OK);
    if (s != GT_OK) continue;
    CHECK(gt_context_matmul_kernel(other) == kernels[ki]);
    CHECK(gt_matmul_auto_kernel(NULL, 4096, 4096) == GT_MATMUL_KERNEL_REGISTERS);
    ctx = other;
    const uint32_t(*shapes)[3] = shared ? wide : small;
    aligned_layout = &misaligned;
    size_t count = shared ? sizeof wide / sizeof wide[0] : sizeof small / sizeof small[0];
    for (size_t si = 0; si < count; si++) {
      if (sampled && shared && si != sampled_wide[0] && si != sampled_wide[1]) continue;
      unsigned before[2] = {builds[0], builds[1]};
      for (int flags = 0; flags < 8; flags++) {
        if (shapes[si][2] > 10000 && flags != 0 && flags != 7) continue; /* long K: two cases */
        if (sampled && flags > 2 && flags != 7) continue;
        mm_case cs = make_case(GT_STRATEGY_AUTO, 0, flags & 1, (flags >> 1) & 1, (flags >> 2) & 1,
                               shapes[si][0], shapes[si][1], shapes[si][2]);
        if (shapes[si][2] > 10000) cs.fill_a = cs.fill_b = FILL_MARKERS;
        if ((flags & 4) && !sampled)
          with_epilogue(&cs, 1 + (int)((si + flags) % 8)); /* scaled: an epilogue too */
        run_case(&cs);
      }
      /* The kernel this shape runs is built in its transpose variants by
       * now, and the other kernel not built by it. */
      bool runs_shared =
          shared && gt_matmul_auto_kernel(ctx, shapes[si][0], shapes[si][1]) == GT_MATMUL_KERNEL_SHARED;
      if (shared && runs_shared != (si < wide_shared)) {
        printf("FAILED: AUTO on %ux%u runs the %s kernel\n", shapes[si][0], shapes[si][1],
               runs_shared ? "shared" : "registers");
        CHECK(false);
      }
      /* 4 transpose cases, each with and without the epilogue (the
       * scaled cases carry one); in a sampled run without. */
      unsigned ran = runs_shared ? 1 : 0, want = sampled ? 4u : 8u;
      if (builds[ran] != want || builds[1 - ran] != before[1 - ran]) {
        printf("FAILED: AUTO on %ux%ux%u with the %s context built %u registers and %u shared programs "
               "(before: %u, %u)\n",
               shapes[si][0], shapes[si][1], shapes[si][2], shared ? "shared" : "registers", builds[0],
               builds[1], before[0], before[1]);
        CHECK(false);
      }
    }
    aligned_layout = NULL;
    ctx = saved;
    gt_context_release(other);
  }
}

/* Records which variants of the shared kernel were built: seen[v] for
 * variant v (its transposes and vec4 operands). */
static void record_shared_builds(int level, const char *msg, void *user) {
  bool *seen = user;
  uint32_t v = built_variant(msg);
  if (level == GT_LOG_DEBUG && strncmp(msg, "built matmul_blocked_shared.comp", 32) == 0 && v < 4096)
    seen[v] = true;
}

/* AUTO's shared kernel with operands moved as vec4s where their views
 * allow (rows 16-byte aligned, stored across K, and no vec4 across an
 * edge: M for a transposed, N for b untransposed and c), whatever the
 * device, through
 * gt_context_desc.matmul_kernel: c wide enough for the shared kernel (64
 * blocks of 128 x 128 or more), M and N past whole blocks, K of one step,
 * of a step and a half (the loads past the K slice must be zeros), and of
 * several steps; every transpose; scaling (c read as vec4s). The debug
 * log shows which variants were built: every operand as vec4s on the
 * aligned layout where the extents allow, none on the misaligned one, so
 * the cases cannot pass through another variant. The context has the
 * device's limits whatever the suite's: cut into the suite's smallest
 * blocks, these products run thousands of dispatches. In a sampled run
 * only the first shape runs, scaled in the last transpose case. */
static void test_shared_vec4(bool min_limits) {
  static const uint32_t shapes[][3] = {{1024, 1024, 8}, {1025, 1028, 12}, {1153, 1028, 36}};
  static const layout layouts[] = {{1, 3, 1, true}, {8, 4, 4, true}}; /* misaligned, aligned */
  if (min_limits) return; /* the shared kernel needs 256 invocations */
  bool seen[4096] = {false};
  gt_context_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.matmul_kernel = GT_MATMUL_KERNEL_SHARED;
  desc.logger.log = record_shared_builds;
  desc.logger.user = seen;
  gt_context *saved = ctx, *other = NULL;
  CHECK_STATUS(gt_context_init(NULL, 0, &desc, &other), GT_OK);
  if (other == NULL) return;
  ctx = other;
  for (int trans = 0; trans < 4; trans++) {
    bool ta = trans & 1, tb = trans & 2;
    uint32_t t_bits = (ta ? 1u << 2 : 0) | (tb ? 1u << 3 : 0); /* GT_VARIANT_TRANS_A, _B */
    for (size_t j = 0; j < sizeof layouts / sizeof layouts[0]; j++) {
      memset(seen, 0, sizeof seen);
      for (size_t i = 0; i < (sampled ? 1 : sizeof shapes / sizeof shapes[0]); i++) {
        aligned_layout = &layouts[j];
        bool scale = sampled ? trans == 3 : i == 2;
        mm_case cs = make_case(GT_STRATEGY_AUTO, 0, ta, tb, scale, shapes[i][0], shapes[i][1], shapes[i][2]);
        /* Natively the third shape, whose variant the check below does
         * not need, ends in an epilogue. */
        if (scale && !sampled) with_epilogue(&cs, 1 + (trans * 3 + (int)j) % 8);
        run_case(&cs);
        aligned_layout = NULL;
      }
      /* The misaligned layout runs (and builds) the plain variant and no
       * other; on the aligned one 1024 x 1024 x 8 allows c and every
       * operand stored across K (a transposed, b not) as vec4s: the
       * kernel reads quads along K as 4 rows' floats. */
      uint32_t across = (ta ? VEC4_A : 0) | (tb ? 0 : VEC4_B) | VEC4_C;
      bool any_vec4 = false;
      for (uint32_t v = 0; v < 4096; v++)
        any_vec4 = any_vec4 || (seen[v] && (v & VEC4_ALL) != 0);
      if (j == 0 ? any_vec4 || !seen[t_bits] : !seen[t_bits | across]) {
        printf("FAILED: shared vec4 variants for transposes %d, layout %zu\n", trans, j);
        CHECK(false);
      }
    }
  }
  ctx = saved;
  gt_context_release(other);
}

/* The registers kernel's interior program (Adreno's entry): f32 a b on
 * whole tiles of 32 x 32, the rows and columns past them by the guarded
 * program, in every aligned layout, with scaling and an epilogue. Shapes
 * of whole tiles only and with bands below, beside or both; K of 1, even,
 * odd (a pass of two k and one left) and past a 4096-long slice (the
 * second slice starts at k 4096). The debug log shows the program was
 * built where the entry has it and nowhere else; the transposed layouts,
 * which it does not take, run as before. */
static void test_interior(void) {
  static const uint32_t shapes[][3] = {{32, 32, 1}, {32, 32, 2},  {64, 96, 7}, {100, 68, 33},
                                       {37, 64, 64}, {64, 36, 5}, {96, 64, 4101}};
  gt_test_build_counter builds = {"matmul_blocked.comp", GT_VARIANT_INTERIOR, 0};
  gt_context *saved = ctx, *other = NULL;
  CHECK_STATUS(gt_test_counting_context(&builds, &other), GT_OK);
  if (other == NULL) return;
  ctx = other;
  size_t count = sizeof shapes / sizeof shapes[0] - (sampled ? 1 : 0);
  run_aligned(shapes, count, false, false);
  bool adreno = strcmp(gt_context_device_name(ctx), "Adreno") == 0;
  if (adreno ? builds.count == 0 : builds.count != 0) {
    printf("FAILED: %u interior builds on the %s entry\n", builds.count, gt_context_device_name(ctx));
    CHECK(false);
  }
  unsigned interior = builds.count;
  run_aligned(shapes, 3, true, false);
  run_aligned(shapes, 3, false, true);
  CHECK_EQ_U(builds.count, interior);
  printf("interior program: %u builds\n", interior);
  ctx = saved;
  gt_context_release(other);
}

static void count_stream_builds(int level, const char *msg, void *user) {
  unsigned *builds = user;
  if (level != GT_LOG_DEBUG) return;
  if (strncmp(msg, "built matmul_stream.comp", 24) == 0) builds[0]++;
  if (strncmp(msg, "built matmul_", 13) == 0 && strncmp(msg, "built matmul_stream.comp", 24) != 0) builds[1]++;
}

/* Runs the stream test's shapes in every transpose case, aligned and
 * misaligned. */
static void run_stream_shapes(const uint32_t (*shapes)[3], size_t count) {
  static const layout misaligned = {1, 3, 1, true};
  for (int trans = 0; trans < 4; trans++) {
    bool ta = trans & 1, tb = trans & 2;
    run_aligned(shapes, count, ta, tb);
    aligned_layout = &misaligned;
    for (size_t i = 0; i < count; i++) {
      if (sampled && i % 2 != (size_t)trans % 2) continue;
      mm_case cs = make_case(GT_STRATEGY_AUTO, 0, ta, tb, i % 2 == 0, shapes[i][0], shapes[i][1], shapes[i][2]);
      if (shapes[i][2] > 4096) cs.fill_a = cs.fill_b = FILL_MARKERS;
      if (i % 2 == 0 && !sampled) with_epilogue(&cs, 1 + (int)(i % 8));
      run_case(&cs);
    }
    aligned_layout = NULL;
  }
}

/* The stream kernel on a registers context (llvmpipe's own context keeps
 * floats on the texels kernel): c of 1 row, which every device entry
 * streams, then of 2, 3, 7 and 8 (on CPUs and desktop GPUs; the mobile
 * entries' registers kernel); N past and inside its groups of 4 and 32
 * columns, K of single k, of whole and partial quads and past a
 * 4096-long slice; every transpose case, scaled or not, with an
 * epilogue, in aligned layouts (its vec4 programs) and misaligned ones
 * (its plain ones). One row builds stream programs only. */
static void test_stream(bool min_limits) {
  static const uint32_t one_row[][3] = {{1, 1, 1}, {1, 37, 5}, {1, 68, 4100}, {1, 130, 68}};
  static const uint32_t rows[][3] = {{2, 5, 3}, {7, 33, 70}, {8, 64, 4}, {8, 130, 68}, {3, 4, 8196}};
  unsigned builds[2] = {0, 0};
  gt_context_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.min_limits = min_limits;
  desc.matmul_kernel = GT_MATMUL_KERNEL_REGISTERS;
  desc.logger.log = count_stream_builds;
  desc.logger.user = builds;
  gt_context *saved = ctx, *other = NULL;
  CHECK_STATUS(gt_context_init(NULL, 0, &desc, &other), GT_OK);
  if (other == NULL) return;
  ctx = other;
  run_stream_shapes(one_row, sizeof one_row / sizeof one_row[0]);
  CHECK(builds[0] > 0);
  CHECK_EQ_U(builds[1], 0);
  run_stream_shapes(rows, sizeof rows / sizeof rows[0]);
  ctx = saved;
  gt_context_release(other);
}

static void count_texel_builds(int level, const char *msg, void *user) {
  if (level == GT_LOG_DEBUG && strncmp(msg, "built matmul_texels.comp", 24) == 0) (*(unsigned *)user)++;
}

/* The texels kernel through gt_context_desc.matmul_kernel, whatever the
 * device's own choice, for each transpose: rows 16-byte aligned, K a
 * multiple of 4 and M (a transposed) or N (b untransposed) too, on shapes
 * around its 8-wide invocation blocks and 64-wide groups (4 past a
 * multiple of 8, past a group), K past the 4096-long slices (to 65,536
 * and 70,000), scaling; odd M where a is untransposed, odd N where b is
 * transposed; then shapes it cannot take, which run the fallback kernel.
 * One program per transpose case. ES 3.1 has no texture buffers: under
 * the minimum limits init refuses it. */
static void test_texels(bool min_limits) {
  static const uint32_t whole[][3] = {{4, 4, 4},    {8, 8, 8},      {64, 68, 12},
                                      {68, 60, 36}, {200, 132, 64}, {132, 196, 4100}};
  static const uint32_t long_k[][3] = {{4, 8, 8196}, {8, 8, 65536}, {4, 4, 70000}};
  static const uint32_t odd_m[][3] = {{1, 4, 4}, {63, 68, 12}, {65, 60, 36}, {7, 4, 8196}};
  static const uint32_t odd_n[][3] = {{4, 1, 4}, {68, 63, 12}, {60, 65, 36}};
  static const uint32_t others[][3] = {{37, 29, 23}, {64, 66, 64}, {64, 64, 66}, {129, 130, 131}};
  unsigned builds = 0;
  gt_context_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.min_limits = min_limits;
  desc.matmul_kernel = GT_MATMUL_KERNEL_TEXELS;
  desc.logger.log = count_texel_builds;
  desc.logger.user = &builds;
  gt_context *saved = ctx, *other = NULL;
  gt_status s = gt_context_init(NULL, 0, &desc, &other);
  if (min_limits || s == GT_ERR_UNSUPPORTED) {
    if (min_limits) CHECK_STATUS(s, GT_ERR_UNSUPPORTED);
    CHECK(other == NULL);
    printf("texels kernel: %s\n",
           min_limits ? "refused under the ES 3.1 minimums" : "no ES 3.2 here, skipped");
    return;
  }
  CHECK_STATUS(s, GT_OK);
  if (s != GT_OK) return;
  CHECK(gt_context_matmul_kernel(other) == GT_MATMUL_KERNEL_TEXELS);
  CHECK(gt_matmul_auto_kernel(other, 1, 1) == GT_MATMUL_KERNEL_TEXELS);
  ctx = other;
  for (int trans = 0; trans < 4; trans++) {
    bool ta = trans & 1, tb = trans & 2;
    run_aligned(whole, sizeof whole / sizeof whole[0], ta, tb);
    /* Under qemu the long sums take minutes each: in a sampled run they
     * run once per transpose case, in one layout. */
    if (!sampled) run_aligned(long_k, sizeof long_k / sizeof long_k[0], ta, tb);
    for (size_t i = 0; sampled && i < sizeof long_k / sizeof long_k[0]; i++) {
      aligned_layout = &aligned_layouts[1];
      mm_case cs = make_case(GT_STRATEGY_AUTO, 0, ta, tb, i == 0, long_k[i][0], long_k[i][1], long_k[i][2]);
      cs.fill_a = cs.fill_b = FILL_MARKERS;
      run_case(&cs);
      aligned_layout = NULL;
    }
    if (!ta) run_aligned(odd_m, sizeof odd_m / sizeof odd_m[0], ta, tb);
    if (tb) run_aligned(odd_n, sizeof odd_n / sizeof odd_n[0], ta, tb);
    /* With and without the epilogue; in a sampled run without. */
    CHECK_EQ_U(builds, (sampled ? 1u : 2u) * ((unsigned)trans + 1));
  }
  for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
    for (int flags = 0; flags < 8; flags++) {
      mm_case cs = make_case(GT_STRATEGY_AUTO, 0, flags & 1, (flags >> 1) & 1, (flags >> 2) & 1, others[i][0],
                             others[i][1], others[i][2]);
      run_case(&cs);
    }
  CHECK_EQ_U(builds, sampled ? 4u : 8u);
  ctx = saved;
  gt_context_release(other);
}

/* gt_context_flushes_denormals agrees with what matmul does: 2^-70 times
 * 2^-70 is the denormal 2^-140, which a 1 x 1 x 1 product keeps exactly
 * or flushes to zero as the probe said; every strategy. A second question
 * answers the same without running the probe again. */
static void test_denormals(void) {
  bool flushes = true, again = false;
  CHECK_STATUS(gt_context_flushes_denormals(ctx, &flushes), GT_OK);
  CHECK_STATUS(gt_context_flushes_denormals(ctx, &again), GT_OK);
  CHECK(flushes == again);
  CHECK_STATUS(gt_context_flushes_denormals(ctx, NULL), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_context_flushes_denormals(NULL, &again), GT_ERR_INVALID_ARGUMENT);
  float tiny = 1.0f, kept = 1.0f;
  for (int i = 0; i < 70; i++)
    tiny *= 0.5f;
  for (int i = 0; i < 140; i++)
    kept *= 0.5f;
  uint32_t words[3] = {bits_of(tiny), bits_of(tiny), 0xFFFFFFFFu};
  GLuint buffer = gt_test_buffer_of(words, 3);
  gt_view a = {buffer, 0, 1, 1, 0, GT_F32}, b = {buffer, 1, 1, 1, 0, GT_F32}, c = {buffer, 2, 1, 1, 0, GT_F32};
  for (size_t st = 0; st < N_STRATEGIES; st++) {
    if (strategies[st] == GT_STRATEGY_TILED_EVEN) continue; /* no tile divides 1 */
    gt_matmul_desc d = {.strategy = strategies[st], .alpha = 1};
    uint32_t got[3];
    CHECK_STATUS(gt_matmul(ctx, a, b, c, &d), GT_OK);
    CHECK(gt_test_read_all(ctx, buffer, 3, got) == 0);
    uint32_t want = flushes ? 0u : bits_of(kept);
    if (got[2] != want)
      printf("FAILED: %s: 2^-70 * 2^-70 gave 0x%08x, the probe says %s\n", gt_strategy_name(strategies[st]),
             got[2], flushes ? "flushed" : "kept");
    CHECK(got[2] == want && got[0] == words[0] && got[1] == words[1]);
  }
  printf("f32 denormals: %s, and matmul agrees\n", flushes ? "flushed" : "kept");
  glDeleteBuffers(1, &buffer);
}

/* --part 1 or --part 2 runs about half of the suite each (by time), so
 * that under an emulator each half stays well inside a test's time limit;
 * no --part runs all of it. */
static int part_of(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i++)
    if (strcmp(argv[i], "--part") == 0) return atoi(argv[i + 1]);
  return 0;
}

int main(int argc, char **argv) {
  gt_test_env env;
  int rc = gt_test_open(argc, argv, &env);
  if (rc != 0) return rc;
  ctx = env.ctx;
  sampled = env.sampled;
  int part = part_of(argc, argv);
  /* Each AUTO kernel, the shared kernel's vec4 operands and the texels
   * kernel run on contexts of their own (the device entries do change
   * their programs). */
  bool repeats = env.own_contexts_repeat;
  if (part != 2) {
    test_validation();
    test_denormals();
    test_all_combinations();
    test_beta_zero_does_not_read_c();
    test_vec4_aligned();
    test_interior();
    test_identity();
    test_read_read();
    test_aliasing();
    test_transpose_of_product();
    test_long_k();
    test_epilogue();
    if (!repeats) test_each_auto_kernel(env.min_limits);
  }
  if (part != 1 && !repeats) {
    test_stream(env.min_limits);
    test_shared_vec4(env.min_limits);
    test_texels(env.min_limits);
  }
  printf("%lu matmul calls checked, every word of c's buffer; %lu cut into blocks by the storage-block or "
         "dispatch limits\n",
         cases, block_cases);
  gt_test_close(&env);
  return CHECK_SUMMARY();
}
