/* The benchmark behind `gltile bench` and `gltile demo`: for each case a
 * GLSL copy of the same bytes runs in the same process as the ceiling, each
 * strategy is timed (median of several runs after a warm-up that is also
 * verified against the CPU), and the results go to a table, CSV and SVG. */
#include "bench_arith.h"
#include "bench_calls.h"
#include "bench_clblast.h"
#include "bench_loop.h"
#include "csv.h"
#include "quantized_reference.h"
#include "timing.h"
#include "tool.h"
#include "xml_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef GT_HAVE_CBLAS
#include <cblas.h>
#endif

/* ---- the operations, as op_fn ---------------------------------------- */

typedef struct op_args {
  gt_view a, b, c;
  gt_transpose_desc t;
  gt_matmul_desc m;
} op_args;

static gt_status run_transpose(gt_context *ctx, const void *p) {
  const op_args *o = p;
  return gt_transpose(ctx, o->a, o->b, &o->t);
}
static gt_status run_copy(gt_context *ctx, const void *p) {
  const op_args *o = p;
  return gt_copy(ctx, o->a, o->b);
}
static gt_status run_matmul(gt_context *ctx, const void *p) {
  const op_args *o = p;
  return gt_matmul(ctx, o->a, o->b, o->c, &o->m);
}

/* A batch: one gt_matmul_batched call, or its products one by one. */
typedef struct batch_args {
  op_args one;
  gt_batch batch;
} batch_args;

static gt_status run_batched(gt_context *ctx, const void *p) {
  const batch_args *o = p;
  return gt_matmul_batched(ctx, o->one.a, o->one.b, o->one.c, o->batch, &o->one.m);
}
static gt_status run_one_by_one(gt_context *ctx, const void *p) {
  const batch_args *o = p;
  for (uint32_t i = 0; i < o->batch.count; i++) {
    gt_view a = o->one.a, b = o->one.b, c = o->one.c;
    a.offset += i * o->batch.stride_a;
    b.offset += i * o->batch.stride_b;
    c.offset += i * o->batch.stride_c;
    gt_status s = gt_matmul(ctx, a, b, c, &o->one.m);
    if (s != GT_OK) return s;
  }
  return GT_OK;
}

/* ---- results ------------------------------------------------------- */

#define MAX_RESULTS 512
static tool_result results[MAX_RESULTS];
static unsigned result_count;

static tool_result *add_result(const char *op, const char *strategy, const char *type, uint32_t rows,
                               uint32_t cols, uint32_t k) {
  static tool_result overflow;
  tool_result *r = result_count < MAX_RESULTS ? &results[result_count++] : &overflow;
  memset(r, 0, sizeof *r);
  r->op = op;
  snprintf(r->strategy, sizeof r->strategy, "%s", strategy);
  r->type = type;
  r->rows = rows;
  r->cols = cols;
  r->k = k;
  r->ms = -1;
  r->verified = "skipped";
  return r;
}

/* The ceiling given by --peak-gbs, or 0; whether CLBlast was loaded. */
static double peak_gb_per_s;
static bool have_clblast;

/* A second comparison column: of peak (transposes and copies, with
 * --peak-gbs) or of clblast (matmul, always: '-' without it). */
static bool second_column;

static void print_header(const char *of, const char *second) {
  second_column = second != NULL;
  printf("  %-24s %10s %10s %10s %8s  %s%s%s\n", "strategy", "ms", "GB/s", "GFLOP/s", of,
         second ? second : "", second ? "  " : "", "verified");
}

static void print_row(const tool_result *r) {
  double second = strcmp(r->op, "matmul") == 0 ? r->pct_of_clblast : r->pct_of_peak;
  char peak[16] = "";
  if (second_column && second > 0)
    snprintf(peak, sizeof peak, "%9.1f%%  ", second);
  else if (second_column)
    snprintf(peak, sizeof peak, "%10s  ", "-");
  if (r->ms < 0) {
    printf("  %-24s %10s %10s %10s %8s  %s%s\n", r->strategy, "-", "-", "-", "-", peak, r->verified);
    return;
  }
  char gb[16] = "-", gflop[16] = "-";
  if (strcmp(r->op, "matmul") == 0)
    snprintf(gflop, sizeof gflop, "%.2f", r->gflop_per_s);
  else
    snprintf(gb, sizeof gb, "%.2f", r->gb_per_s);
  /* 0 of the peer: the peer did not run (no OpenBLAS in this build). */
  char of[16] = "-";
  if (r->pct_of_copy > 0) snprintf(of, sizeof of, "%.1f%%", r->pct_of_copy);
  printf("  %-24s %10.3f %10s %10s %8s  %s%s\n", r->strategy, r->ms, gb, gflop, of, peak, r->verified);
}

static const char *type_name(gt_type t) { return tool_type_name(t); }

/* ---- cases --------------------------------------------------------- */

static uint32_t next_word(uint32_t *x) {
  *x = *x * 1664525u + 1013904223u;
  return *x;
}

/* At least `bytes` bytes of pseudo-random words (room for a partial last
 * word included). */
static void fill_words(unsigned char *p, size_t bytes, uint32_t seed) {
  for (size_t i = 0; i < bytes; i += 4) {
    uint32_t w = next_word(&seed);
    memcpy(p + i, &w, 4);
  }
}

/* A float in [-1, 1) from the state; the same bits serve every type. */
static float next_float(uint32_t *x) { return (float)(next_word(x) >> 8) / 8388608.0f - 1.0f; }

static bool strategy_wanted(const tool_bench_options *o, gt_strategy s) {
  return o->strategy == NULL || strcmp(o->strategy, "all") == 0 ||
         strcmp(o->strategy, gt_strategy_name(s)) == 0;
}

/* Poisons the destination of the verifying run. A poison write that
 * failed unseen would leave the timed runs' result there, and a run that
 * wrote nothing would pass the check; so its failure fails the row. */
static gt_status poison(gt_context *ctx, gt_view dst, const void *host, const char *what) {
  gt_status s = gt_write(ctx, dst, host, 0);
  if (s != GT_OK) fprintf(stderr, "gltile: %s: poisoning the destination: %s\n", what, gt_status_string(s));
  return s;
}

/* Copy of rows x cols: the ceiling the transpose rows are compared with. */
static double bench_copy(gt_context *ctx, const tool_bench_options *o, GLuint src, GLuint dst,
                         const unsigned char *host, unsigned char *back, uint32_t rows, uint32_t cols,
                         double *scratch, bool print) {
  size_t bytes = (size_t)rows * cols * gt_type_size(o->type);
  op_args args;
  memset(&args, 0, sizeof args);
  args.a = (gt_view){src, 0, rows, cols, 0, o->type};
  args.b = (gt_view){dst, 0, rows, cols, 0, o->type};
  tool_result *r = add_result("copy", "copy", type_name(o->type), rows, cols, 0);
  gt_status s = tool_time_median(ctx, run_copy, &args, o->reps, scratch, &r->ms);
  if (s == GT_OK && o->verify) {
    /* One more run into a poisoned destination, checked word for word. */
    memset(back, 0xA5, bytes);
    char what[64];
    snprintf(what, sizeof what, "copy %ux%u", rows, cols);
    s = poison(ctx, args.b, back, what);
    if (s == GT_OK) s = run_copy(ctx, &args);
    if (s == GT_OK) s = gt_read(ctx, args.b, back, 0);
    r->verified = s == GT_OK && memcmp(back, host, bytes) == 0 ? "yes" : "NO";
  }
  if (s != GT_OK) {
    r->ms = -1;
    r->verified = gt_status_string(s);
    if (print) print_row(r);
    return -1;
  }
  r->gb_per_s = 2.0 * (double)bytes / (r->ms * 1e6);
  r->pct_of_peak = peak_gb_per_s > 0 ? 100.0 * r->gb_per_s / peak_gb_per_s : 0;
  r->pct_of_copy = 100.0;
  if (print) print_row(r);
  return r->ms;
}


static int bench_transpose_case(gt_context *ctx, const tool_bench_options *o, uint32_t rows, uint32_t cols,
                                double *scratch) {
  static const gt_strategy strategies[] = {GT_STRATEGY_SIMPLE,     GT_STRATEGY_TILED_EVEN,
                                           GT_STRATEGY_TILED_PAD,  GT_STRATEGY_TRUNCATE_A,
                                           GT_STRATEGY_TRUNCATE_B, GT_STRATEGY_AUTO};
  size_t n = (size_t)rows * cols, size = gt_type_size(o->type), bytes = n * size;
  unsigned char *host = malloc(bytes + 4), *want = malloc(bytes), *back = malloc(bytes);
  if (!host || !want || !back) {
    free(host), free(want), free(back);
    fprintf(stderr, "gltile: out of memory for %ux%u\n", rows, cols);
    return 1;
  }
  fill_words(host, bytes, 12345);
  for (uint32_t r = 0; r < rows; r++)
    for (uint32_t c = 0; c < cols; c++)
      memcpy(want + ((size_t)c * rows + r) * size, host + ((size_t)r * cols + c) * size, size);
  GLuint src = tool_buffer_bytes(bytes, host), dst = tool_buffer_bytes(bytes, NULL);
  printf("\ntranspose %u x %u %s\n", rows, cols, type_name(o->type));
  print_header("of copy", peak_gb_per_s > 0 ? "   of peak" : NULL);
  int failures = 0;
  unsigned first_row = result_count;
  op_args args;
  memset(&args, 0, sizeof args);
  args.a = (gt_view){src, 0, rows, cols, 0, o->type};
  args.b = (gt_view){dst, 0, cols, rows, 0, o->type};
  gt_plan plan;
  for (size_t k = 0; k < sizeof strategies / sizeof strategies[0]; k++) {
    gt_strategy s = strategies[k];
    if (!strategy_wanted(o, s)) continue;
    char name[sizeof plan.kernels + 8];
    if (s == GT_STRATEGY_AUTO && gt_transpose_plan(ctx, args.a, args.b, NULL, &plan) == GT_OK)
      snprintf(name, sizeof name, "auto=%s", plan.kernels);
    else
      snprintf(name, sizeof name, "%s", gt_strategy_name(s));
    tool_result *r = add_result("transpose", name, type_name(o->type), rows, cols, 0);
    args.t = (gt_transpose_desc){s, o->tile};
    gt_status st = tool_time_median(ctx, run_transpose, &args, o->reps, scratch, &r->ms);
    /* TILED_EVEN refusing an extent its tile does not divide is the
     * documented behaviour, not a failure. */
    bool refused = s == GT_STRATEGY_TILED_EVEN && st == GT_ERR_SHAPE_MISMATCH;
    if (st == GT_OK && o->verify) {
      memset(back, 0xA5, bytes);
      char what[112];
      snprintf(what, sizeof what, "transpose %ux%u %s", rows, cols, name);
      st = poison(ctx, args.b, back, what);
      if (st == GT_OK) st = run_transpose(ctx, &args);
      if (st == GT_OK) st = gt_read(ctx, args.b, back, 0);
      r->verified = memcmp(back, want, bytes) == 0 ? "yes" : "NO";
      failures += st == GT_OK && r->verified[0] == 'N';
    }
    if (st != GT_OK) {
      r->ms = -1;
      r->verified =
          refused ? "refused: the tile does not divide the extent (expected)" : gt_status_string(st);
      failures += !refused;
      continue;
    }
    r->gb_per_s = 2.0 * (double)bytes / (r->ms * 1e6);
    r->pct_of_peak = peak_gb_per_s > 0 ? 100.0 * r->gb_per_s / peak_gb_per_s : 0;
  }
  /* The copy of the same bytes, in the same buffers, after the strategies. */
  unsigned last_row = result_count;
  double copy_ms = bench_copy(ctx, o, src, dst, host, back, rows, cols, scratch, false);
  print_row(&results[result_count - 1]);
  failures += copy_ms < 0 || strcmp(results[result_count - 1].verified, "NO") == 0;
  for (unsigned i = first_row; i < last_row; i++) {
    if (results[i].ms > 0 && copy_ms > 0) results[i].pct_of_copy = 100.0 * copy_ms / results[i].ms;
    print_row(&results[i]);
  }
  glDeleteBuffers(1, &src);
  glDeleteBuffers(1, &dst);
  free(host), free(want), free(back);
  return failures;
}

/* Checks c = op(a) op(b) (a stored k x m when ta, b n x k when tb) against
 * a double-precision product, with the bound
 * |c - ref| <= 2 (k + 2) eps sum |a b|. Every element when the product is
 * small enough for the CPU, else 4096 random elements plus the last row
 * and column (where edge handling lives). Returns "yes", "sampled" or "NO". */
/* The shortest K slice a matmul dispatch sums (the library's chunk; the
 * shared kernel's are longer): a half c is rounded after each, so slices
 * this long count at least the roundings made. Half sums (the registers
 * kernel) run in slices of exactly this. */
#define GT_MATMUL_K_SLICE 4096u

/* check_matmul with c rounded to half after each of `slices` K slices
 * (0 for a float c): the bound grows by slices (2^-10 S + 2^-14). With a
 * bias (n values, one per column), c = RELU(op(a) op(b) + bias). */
/* The elements a product's check visits: every one where m n k <= 3e9
 * (full), else 4096 random ones, the last column and the last row.
 * Element s of `count`, x the random state. */
static size_t checked_count(bool full, uint32_t m, uint32_t n) { return full ? (size_t)m * n : 4096 + m + n; }
static void checked_element(size_t s, bool full, uint32_t m, uint32_t n, uint32_t *x, uint32_t *i,
                            uint32_t *j) {
  if (full) {
    *i = (uint32_t)(s / n), *j = (uint32_t)(s % n);
  } else if (s < 4096) {
    *i = next_word(x) % m, *j = next_word(x) % n;
  } else if (s < 4096 + (size_t)m) {
    *i = (uint32_t)(s - 4096), *j = n - 1;
  } else {
    *i = m - 1, *j = (uint32_t)(s - 4096 - m);
  }
}

static const char *check_product(const float *a, const float *b, const float *c, uint32_t m, uint32_t n,
                                 uint32_t k, bool ta, bool tb, uint32_t slices, const float *bias) {
  bool full = (double)m * n * k <= 3e9;
  uint32_t x = 777;
  for (size_t s = 0; s < checked_count(full, m, n); s++) {
    uint32_t i, j;
    checked_element(s, full, m, n, &x, &i, &j);
    double sum = 0, mag = 0;
    for (uint32_t q = 0; q < k; q++) {
      double p = (double)a[ta ? (size_t)q * m + i : (size_t)i * k + q] *
                 b[tb ? (size_t)j * k + q : (size_t)q * n + j];
      sum += p;
      mag += fabs(p);
    }
    if (bias) { /* RELU keeps the bound; the bias adds one rounding */
      mag += fabs(bias[j]) + fabs(sum);
      sum += bias[j];
      sum = sum < 0 ? 0 : sum;
    }
    double err = fabs(c[(size_t)i * n + j] - sum);
    if (!(err <= 2.0 * (k + 2) * 1.1920929e-7 * mag + slices * (mag / 1024 + 1.0 / 16384))) return "NO";
  }
  return full ? "yes" : "sampled";
}

/* Half sums rounded at each step (GT_PRECISION_HALF where the device
 * table does not say half is faster), K in one slice: c holds exactly the
 * sums of a b in k order, each rounded to half. "-" where K is longer
 * (several slices, added in an order not modelled here). */
static const char *check_half_sums(const float *a, const float *b, const float *c, uint32_t m, uint32_t n,
                                   uint32_t k, bool ta, bool tb) {
  if (k > GT_MATMUL_K_SLICE) return "-";
  bool full = (double)m * n * k <= 3e9;
  uint32_t x = 777;
  for (size_t s = 0; s < checked_count(full, m, n); s++) {
    uint32_t i, j;
    checked_element(s, full, m, n, &x, &i, &j);
    float sum = 0;
    for (uint32_t q = 0; q < k; q++)
      sum = gt_half_to_float(gt_half_from_float(sum + a[ta ? (size_t)q * m + i : (size_t)i * k + q] *
                                                          b[tb ? (size_t)j * k + q : (size_t)q * n + j]));
    if (c[(size_t)i * n + j] != sum) return "NO";
  }
  return full ? "yes" : "sampled";
}

static const char *check_matmul(const float *a, const float *b, const float *c, uint32_t m, uint32_t n,
                                uint32_t k, bool ta, bool tb) {
  return check_product(a, b, c, m, n, k, ta, tb, 0, NULL);
}

/* The buffers and host copies of a matmul case. */
static void release_operands(GLuint ba, GLuint bb, GLuint bc, float *a, float *b, float *c) {
  glDeleteBuffers(1, &ba);
  glDeleteBuffers(1, &bb);
  glDeleteBuffers(1, &bc);
  free(a), free(b), free(c);
}

/* o->batch products of m x n x k, packed, with AUTO: one gt_matmul_batched
 * call against the same products one gt_matmul call each. Every product
 * of the batched run is checked. */
static int bench_batch_case(gt_context *ctx, const tool_bench_options *o, uint32_t m, uint32_t n, uint32_t k,
                            double *scratch) {
  uint32_t count = o->batch;
  size_t sa = (size_t)m * k, sb = (size_t)k * n, sc = (size_t)m * n;
  double most = (double)(sa > sb ? (sa > sc ? sa : sc) : (sb > sc ? sb : sc)) * count * 4;
  if ((uint64_t)m * count > UINT32_MAX || most > (double)SIZE_MAX) {
    fprintf(stderr, "gltile: %u products of %ux%ux%u do not fit this host\n", count, m, n, k);
    return 1;
  }
  float *a = malloc(sa * count * 4), *b = malloc(sb * count * 4), *c = malloc(sc * count * 4);
  if (!a || !b || !c) {
    free(a), free(b), free(c);
    fprintf(stderr, "gltile: out of memory for %u products of %ux%ux%u\n", count, m, n, k);
    return 1;
  }
  uint32_t x = 2463534242u;
  for (size_t i = 0; i < sa * count; i++)
    a[i] = next_float(&x);
  for (size_t i = 0; i < sb * count; i++)
    b[i] = next_float(&x);
  GLuint ba = tool_buffer(sa * count, a), bb = tool_buffer(sb * count, b), bc = tool_buffer(sc * count, NULL);
  printf("\nmatmul batch of %u x (%u x %u x %u) f32 (c = %s %s)\n", count, m, n, k, o->trans_a ? "a^T" : "a",
         o->trans_b ? "b^T" : "b");
  print_header("of 1 by 1", NULL);
  batch_args args;
  memset(&args, 0, sizeof args);
  args.one.a = o->trans_a ? (gt_view){ba, 0, k, m, 0, GT_F32} : (gt_view){ba, 0, m, k, 0, GT_F32};
  args.one.b = o->trans_b ? (gt_view){bb, 0, n, k, 0, GT_F32} : (gt_view){bb, 0, k, n, 0, GT_F32};
  args.one.c = (gt_view){bc, 0, m, n, 0, GT_F32};
  args.one.m = (gt_matmul_desc){
      .strategy = GT_STRATEGY_AUTO, .tile = o->tile, .trans_a = o->trans_a, .trans_b = o->trans_b};
  args.batch = (gt_batch){count, sa, sb, sc};
  double flop = 2.0 * m * n * k * count, one_ms = -1;
  int failures = 0;
  for (int batched = 0; batched < 2; batched++) {
    tool_result *r = add_result("matmul", batched ? "batched" : "one by one", "f32", m, n, k);
    gt_status st =
        tool_time_median(ctx, batched ? run_batched : run_one_by_one, &args, o->reps, scratch, &r->ms);
    if (st == GT_OK && batched && o->verify) {
      for (size_t i = 0; i < sc * count; i++)
        c[i] = NAN;
      gt_view all = {bc, 0, m * count, n, 0, GT_F32}; /* every product's c, as rows */
      st = poison(ctx, all, c, "matmul batch");
      if (st == GT_OK) st = run_batched(ctx, &args);
      if (st == GT_OK) st = gt_read(ctx, all, c, 0);
      r->verified = "yes";
      for (uint32_t i = 0; st == GT_OK && i < count && r->verified[0] != 'N'; i++) {
        const char *v = check_matmul(a + i * sa, b + i * sb, c + i * sc, m, n, k, o->trans_a, o->trans_b);
        if (v[0] != 'y') r->verified = v; /* "sampled" for large products, or "NO" */
      }
      failures += st == GT_OK && r->verified[0] == 'N';
    }
    if (st != GT_OK) {
      r->ms = -1;
      r->verified = gt_status_string(st);
      failures++;
    } else {
      r->gflop_per_s = flop / (r->ms * 1e6);
      if (!batched) one_ms = r->ms;
      r->pct_of_copy = one_ms > 0 ? 100.0 * one_ms / r->ms : 0;
    }
    print_row(r);
  }
  release_operands(ba, bb, bc, a, b, c);
  return failures;
}

/* With --type f16: AUTO on a and b rounded to halves, into a float c
 * and into a half c, after the float rows of the same product. a and b
 * are rounded in place (the float rows are done); c is scratch. */
static int bench_half_rows(gt_context *ctx, const tool_bench_options *o, uint32_t m, uint32_t n, uint32_t k,
                           float *a, float *b, float *c, double blas_ms, double clblast_ms, double *scratch) {
  size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
  uint16_t *ha = malloc(na * 2), *hb = malloc(nb * 2), *hc = malloc(nc * 2);
  if (!ha || !hb || !hc) {
    free(ha), free(hb), free(hc);
    return 1;
  }
  for (size_t i = 0; i < na; i++)
    a[i] = gt_half_to_float(ha[i] = gt_half_from_float(a[i]));
  for (size_t i = 0; i < nb; i++)
    b[i] = gt_half_to_float(hb[i] = gt_half_from_float(b[i]));
  GLuint ba = tool_buffer_bytes(na * 2, ha), bb = tool_buffer_bytes(nb * 2, hb);
  GLuint bc[2] = {tool_buffer_bytes(nc * 4, NULL), tool_buffer_bytes(nc * 2, NULL)};
  op_args args;
  memset(&args, 0, sizeof args);
  args.a = o->trans_a ? (gt_view){ba, 0, k, m, 0, GT_F16} : (gt_view){ba, 0, m, k, 0, GT_F16};
  args.b = o->trans_b ? (gt_view){bb, 0, n, k, 0, GT_F16} : (gt_view){bb, 0, k, n, 0, GT_F16};
  args.m = (gt_matmul_desc){
      .strategy = GT_STRATEGY_AUTO, .tile = o->tile, .trans_a = o->trans_a, .trans_b = o->trans_b};
  int failures = 0;
  /* f32 sums into a float and a half c, then half sums likewise. */
  static const char *const names[] = {"auto f16>f32", "auto f16>f16", "auto f16>f32 half",
                                      "auto f16>f16 half"};
  for (int row = 0; row < 4; row++) {
    int half_c = row & 1;
    bool half_sums = row >= 2;
    args.m.precision = half_sums ? GT_PRECISION_HALF : GT_PRECISION_FLOAT;
    args.c = (gt_view){bc[half_c], 0, m, n, 0, half_c ? GT_F16 : GT_F32};
    tool_result *r = add_result("matmul", names[row], "f16", m, n, k);
    gt_status st = tool_time_median(ctx, run_matmul, &args, o->reps, scratch, &r->ms);
    if (st == GT_OK && o->verify) {
      /* One more run into a poisoned c, read back as floats. */
      for (size_t i = 0; i < nc; i++)
        c[i] = NAN, hc[i] = 0x7E00;
      st = poison(ctx, args.c, half_c ? (const void *)hc : (const void *)c, "matmul f16");
      if (st == GT_OK) st = run_matmul(ctx, &args);
      if (st == GT_OK) st = gt_read(ctx, args.c, half_c ? (void *)hc : (void *)c, 0);
      for (size_t i = 0; half_c && i < nc; i++)
        c[i] = gt_half_to_float(hc[i]);
      uint32_t slices = half_c ? (k + GT_MATMUL_K_SLICE - 1) / GT_MATMUL_K_SLICE : 0;
      if (!half_sums)
        r->verified = check_product(a, b, c, m, n, k, o->trans_a, o->trans_b, slices, NULL);
      else if (gt_context_half_is_faster(ctx))
        r->verified = "-"; /* native half: only gt_precision's bound, which says little */
      else
        r->verified = check_half_sums(a, b, c, m, n, k, o->trans_a, o->trans_b);
      failures += st == GT_OK && r->verified[0] == 'N';
    }
    if (st != GT_OK) {
      r->ms = -1;
      r->verified = gt_status_string(st);
      failures++;
    } else {
      r->gflop_per_s = 2.0 * m * n * k / (r->ms * 1e6);
      r->pct_of_copy = blas_ms > 0 ? 100.0 * blas_ms / r->ms : 0;
      r->pct_of_clblast = clblast_ms > 0 ? 100.0 * clblast_ms / r->ms : 0;
    }
    print_row(r);
  }
  glDeleteBuffers(1, &ba);
  glDeleteBuffers(1, &bb);
  glDeleteBuffers(2, bc);
  free(ha), free(hb), free(hc);
  return failures;
}

/* Whether c (I32, or 8-bit of the operands' type) holds the quantised
 * product of a and b (bytes, row-major as stored): every element where
 * m n k <= 3e9, else 4096 random ones. Returns "yes", "sampled" or "NO". */
static const char *check_quantized(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t m,
                                   uint32_t n, uint32_t k, bool ta, bool tb, gt_type type, gt_type c_type,
                                   const gt_quantization *q) {
  bool full = (double)m * n * k <= 3e9;
  uint32_t x = 777;
  size_t count = full ? (size_t)m * n : 4096;
  for (size_t s = 0; s < count; s++) {
    uint32_t i = full ? (uint32_t)(s / n) : next_word(&x) % m,
             j = full ? (uint32_t)(s % n) : next_word(&x) % n;
    int64_t sum = 0;
    for (uint32_t p = 0; p < k; p++)
      sum += (int64_t)(quantized_at(a, ta ? (size_t)p * m + i : (size_t)i * k + p, type) - q->zero_a) *
             (quantized_at(b, tb ? (size_t)j * k + p : (size_t)p * n + j, type) - q->zero_b);
    size_t e = (size_t)i * n + j;
    int32_t got = c_type == GT_I32 ? (int32_t)c[e] : quantized_at(c, e, c_type);
    if (got != (c_type == GT_I32 ? (int32_t)sum : quantized_requantize((int32_t)sum, q, c_type))) return "NO";
  }
  return full ? "yes" : "sampled";
}

/* With --type u8 or i8: AUTO on random bytes with zero points, into an
 * I32 c and requantised into a c of the operands' type, after the float
 * rows of the same product; GOP/s (2 per multiply-add) in the GFLOP/s
 * column, and the ratios against the same peers. A K past what the
 * library takes is its refusal, printed as expected. */
static int bench_quantized_rows(gt_context *ctx, const tool_bench_options *o, uint32_t m, uint32_t n,
                                uint32_t k, double blas_ms, double clblast_ms, double *scratch) {
  gt_type type = o->type;
  size_t wa = ((size_t)m * k + 3) / 4, wb = ((size_t)k * n + 3) / 4, nc = (size_t)m * n;
  uint32_t *ha = malloc(wa * 4), *hb = malloc(wb * 4), *hc = malloc(nc * 4);
  if (!ha || !hb || !hc) {
    free(ha), free(hb), free(hc);
    return 1;
  }
  fill_words((unsigned char *)ha, wa * 4, 31);
  fill_words((unsigned char *)hb, wb * 4, 32);
  gt_quantization q = {.zero_a = type == GT_I8 ? -3 : 131,
                       .zero_b = type == GT_I8 ? 5 : 120,
                       .multiplier = 0x5A827999,
                       .shift = -16,
                       .zero_c = type == GT_I8 ? 0 : 128};
  GLuint ba = tool_buffer(wa, ha), bb = tool_buffer(wb, hb), bc = tool_buffer(nc, NULL);
  op_args args;
  memset(&args, 0, sizeof args);
  args.a = o->trans_a ? (gt_view){ba, 0, k, m, 0, type} : (gt_view){ba, 0, m, k, 0, type};
  args.b = o->trans_b ? (gt_view){bb, 0, n, k, 0, type} : (gt_view){bb, 0, k, n, 0, type};
  int failures = 0;
  for (int requantized = 0; requantized < 2; requantized++) {
    gt_type c_type = requantized ? type : GT_I32;
    args.c = (gt_view){bc, 0, m, n, 0, c_type};
    args.m = (gt_matmul_desc){.trans_a = o->trans_a, .trans_b = o->trans_b, .quant = q};
    if (!requantized) args.m.quant.multiplier = args.m.quant.shift = args.m.quant.zero_c = 0;
    char name[32];
    snprintf(name, sizeof name, "auto %s>%s", type_name(type), type_name(c_type));
    tool_result *r = add_result("matmul", name, type_name(type), m, n, k);
    gt_status st = tool_time_median(ctx, run_matmul, &args, o->reps, scratch, &r->ms);
    if (st == GT_OK && o->verify) {
      memset(hc, 0xA5, nc * 4);
      st = poison(ctx, (gt_view){bc, 0, 1, (uint32_t)(requantized ? (nc + 3) / 4 : nc), 0, GT_U32}, hc,
                  "matmul quantised");
      if (st == GT_OK) st = run_matmul(ctx, &args);
      if (st == GT_OK) st = gt_read(ctx, args.c, hc, 0);
      r->verified = check_quantized(ha, hb, hc, m, n, k, o->trans_a, o->trans_b, type, c_type, &args.m.quant);
      failures += st == GT_OK && r->verified[0] == 'N';
    }
    if (st != GT_OK) {
      bool expected = st == GT_ERR_UNSUPPORTED && k > (requantized ? 4096u : 33025u);
      r->ms = -1;
      r->verified =
          expected ? "refused: K past what 32-bit sums or one slice take (expected)" : gt_status_string(st);
      failures += !expected;
    } else {
      r->gflop_per_s = 2.0 * m * n * k / (r->ms * 1e6);
      r->pct_of_copy = blas_ms > 0 ? 100.0 * blas_ms / r->ms : 0;
      r->pct_of_clblast = clblast_ms > 0 ? 100.0 * clblast_ms / r->ms : 0;
    }
    print_row(r);
  }
  GLuint buffers[3] = {ba, bb, bc};
  glDeleteBuffers(3, buffers);
  free(ha), free(hb), free(hc);
  return failures;
}

/* A matmul case's operands and peers, for its rows. */
typedef struct matmul_row_case {
  op_args *args;      /* the call, args->m set per row */
  const float *a, *b; /* the host operands */
  float *c;           /* room for c, read back for the check */
  const float *bias;  /* args->m's bias per column (with RELU), or NULL */
  uint32_t m, n, k;
  double blas_ms, clblast_ms; /* the peers' times, < 0 when not run */
} matmul_row_case;

/* Times args->m as the row `name`, checks it (c poisoned first) and prints
 * it. Returns 1 on a failure, 0 otherwise (TILED_EVEN's expected refusal
 * included). */
static int bench_matmul_row(gt_context *ctx, const tool_bench_options *o, const matmul_row_case *q,
                            const char *name, double *scratch) {
  uint32_t m = q->m, n = q->n, k = q->k;
  tool_result *r = add_result("matmul", name, "f32", m, n, k);
  gt_status st = tool_time_median(ctx, run_matmul, q->args, o->reps, scratch, &r->ms);
  bool refused = q->args->m.strategy == GT_STRATEGY_TILED_EVEN && st == GT_ERR_SHAPE_MISMATCH;
  int failures = 0;
  if (st == GT_OK && o->verify) {
    for (size_t i = 0; i < (size_t)m * n; i++)
      q->c[i] = NAN;
    char what[96];
    snprintf(what, sizeof what, "matmul %ux%ux%u %s", m, n, k, name);
    st = poison(ctx, q->args->c, q->c, what);
    if (st == GT_OK) st = run_matmul(ctx, q->args);
    if (st == GT_OK) st = gt_read(ctx, q->args->c, q->c, 0);
    r->verified = check_product(q->a, q->b, q->c, m, n, k, o->trans_a, o->trans_b, 0, q->bias);
    failures += st == GT_OK && r->verified[0] == 'N';
  }
  if (st != GT_OK) {
    r->ms = -1;
    r->verified = refused ? "refused: the tile does not divide the extent (expected)" : gt_status_string(st);
    print_row(r);
    return refused ? 0 : 1;
  }
  r->gflop_per_s = 2.0 * m * n * k / (r->ms * 1e6);
  r->pct_of_copy = q->blas_ms > 0 ? 100.0 * q->blas_ms / r->ms : 0;
  r->pct_of_clblast = q->clblast_ms > 0 ? 100.0 * q->clblast_ms / r->ms : 0;
  print_row(r);
  return failures;
}

static int bench_matmul_case(gt_context *ctx, const tool_bench_options *o, uint32_t m, uint32_t n, uint32_t k,
                             double *scratch) {
  static const gt_strategy strategies[] = {GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_EVEN, GT_STRATEGY_TILED_PAD,
                                           GT_STRATEGY_TRUNCATE_B, GT_STRATEGY_AUTO};
  float *a = malloc((size_t)m * k * 4), *b = malloc((size_t)k * n * 4), *c = malloc((size_t)m * n * 4);
  if (!a || !b || !c) {
    free(a), free(b), free(c);
    fprintf(stderr, "gltile: out of memory for %ux%ux%u\n", m, n, k);
    return 1;
  }
  uint32_t x = 2463534242u;
  for (size_t i = 0; i < (size_t)m * k; i++)
    a[i] = next_float(&x);
  for (size_t i = 0; i < (size_t)k * n; i++)
    b[i] = next_float(&x);
  GLuint ba = tool_buffer((size_t)m * k, a), bb = tool_buffer((size_t)k * n, b);
  GLuint bc = tool_buffer((size_t)m * n, NULL);
  double flop = 2.0 * m * n * k;
  printf("\nmatmul %u x %u x %u f32 (c = %s %s)\n", m, n, k, o->trans_a ? "a^T" : "a",
         o->trans_b ? "b^T" : "b");
  print_header("of blas", "of clblast");
  op_args args;
  memset(&args, 0, sizeof args);
  args.a = o->trans_a ? (gt_view){ba, 0, k, m, 0, GT_F32} : (gt_view){ba, 0, m, k, 0, GT_F32};
  args.b = o->trans_b ? (gt_view){bb, 0, n, k, 0, GT_F32} : (gt_view){bb, 0, k, n, 0, GT_F32};
  args.c = (gt_view){bc, 0, m, n, 0, GT_F32};
  int failures = 0;
  double blas_ms = -1;
#ifdef GT_HAVE_CBLAS
  {
    /* The CPU peer, timed the same way (median after a warm-up). */
    tool_result *r = add_result("matmul", "openblas", "f32", m, n, k);
    for (unsigned rep = 0; rep <= o->reps; rep++) {
      double t0 = tool_now_ms();
      cblas_sgemm(CblasRowMajor, o->trans_a ? CblasTrans : CblasNoTrans,
                  o->trans_b ? CblasTrans : CblasNoTrans, (int)m, (int)n, (int)k, 1.0f, a,
                  (int)(o->trans_a ? m : k), b, (int)(o->trans_b ? k : n), 0.0f, c, (int)n);
      if (rep > 0) scratch[rep - 1] = tool_now_ms() - t0;
    }
    r->ms = blas_ms = tool_median(scratch, o->reps);
    r->gflop_per_s = flop / (r->ms * 1e6);
    r->pct_of_copy = 100.0;
    r->verified = o->verify ? check_matmul(a, b, c, m, n, k, o->trans_a, o->trans_b) : "skipped";
    print_row(r);
  }
#endif
  double clblast_ms = -1;
  if (have_clblast) {
    /* The OpenCL peer on its own device, timed by the wall clock. */
    tool_result *r = add_result("matmul", "clblast", "f32", m, n, k);
    for (size_t i = 0; i < (size_t)m * n; i++)
      c[i] = NAN;
    if (tool_clblast_sgemm(m, n, k, o->trans_a, o->trans_b, a, b, c, o->reps, scratch, &r->ms) == 0) {
      clblast_ms = r->ms;
      r->gflop_per_s = flop / (r->ms * 1e6);
      r->pct_of_copy = blas_ms > 0 ? 100.0 * blas_ms / r->ms : 0;
      r->pct_of_clblast = 100.0;
      r->verified = o->verify ? check_matmul(a, b, c, m, n, k, o->trans_a, o->trans_b) : "skipped";
      failures += r->verified[0] == 'N';
    } else {
      r->ms = -1;
      r->verified = "failed";
      failures++;
    }
    print_row(r);
  }
  matmul_row_case rc = {&args, a, b, c, NULL, m, n, k, blas_ms, clblast_ms};
  for (size_t s = 0; s < sizeof strategies / sizeof strategies[0]; s++) {
    if (!strategy_wanted(o, strategies[s])) continue;
    args.m = (gt_matmul_desc){
        .strategy = strategies[s], .tile = o->tile, .trans_a = o->trans_a, .trans_b = o->trans_b};
    gt_plan plan;
    char name[sizeof plan.kernels + 8];
    if (strategies[s] == GT_STRATEGY_AUTO &&
        gt_matmul_plan(ctx, args.a, args.b, args.c, &args.m, &plan) == GT_OK)
      snprintf(name, sizeof name, "auto=%s", plan.kernels);
    else
      snprintf(name, sizeof name, "%s", gt_strategy_name(strategies[s]));
    failures += bench_matmul_row(ctx, o, &rc, name, scratch);
  }
  if (o->epilogue && strategy_wanted(o, GT_STRATEGY_AUTO)) {
    /* The same product with the epilogue in its dispatches. */
    float *bias = malloc((size_t)n * 4);
    for (uint32_t j = 0; bias && j < n; j++)
      bias[j] = next_float(&x);
    GLuint bbias = bias ? tool_buffer(n, bias) : 0;
    args.m = (gt_matmul_desc){.strategy = GT_STRATEGY_AUTO,
                              .trans_a = o->trans_a,
                              .trans_b = o->trans_b,
                              .bias = (gt_view){bbias, 0, 1, n, 0, GT_F32},
                              .act = GT_ACTIVATION_RELU};
    rc.bias = bias;
    failures += bias ? bench_matmul_row(ctx, o, &rc, "auto+bias,relu", scratch) : 1;
    glDeleteBuffers(1, &bbias);
    free(bias);
  }
  bool bytes = o->type == GT_U8 || o->type == GT_I8;
  if (o->type == GT_F16 || bytes)
    failures += bench_half_rows(ctx, o, m, n, k, a, b, c, blas_ms, clblast_ms, scratch);
  if (bytes) failures += bench_quantized_rows(ctx, o, m, n, k, blas_ms, clblast_ms, scratch);
  release_operands(ba, bb, bc, a, b, c);
  return failures;
}

static int bench_copy_case(gt_context *ctx, const tool_bench_options *o, uint32_t rows, uint32_t cols,
                           double *scratch) {
  size_t bytes = (size_t)rows * cols * gt_type_size(o->type);
  unsigned char *host = malloc(bytes + 4), *back = malloc(bytes);
  if (!host || !back) {
    free(host), free(back);
    return 1;
  }
  fill_words(host, bytes, 99);
  GLuint src = tool_buffer_bytes(bytes, host), dst = tool_buffer_bytes(bytes, NULL);
  printf("\ncopy %u x %u %s\n", rows, cols, type_name(o->type));
  print_header("of copy", peak_gb_per_s > 0 ? "   of peak" : NULL);
  double ms = bench_copy(ctx, o, src, dst, host, back, rows, cols, scratch, true);
  glDeleteBuffers(1, &src);
  glDeleteBuffers(1, &dst);
  free(host), free(back);
  return ms < 0 || strcmp(results[result_count - 1].verified, "NO") == 0;
}

/* ---- CSV and SVG --------------------------------------------------- */

static int write_csv(const char *path) {
  static const char *const header[] = {
      "op",       "strategy",    "type",        "rows",        "cols",           "k",       "ms",
      "gb_per_s", "gflop_per_s", "pct_of_copy", "pct_of_peak", "pct_of_clblast", "verified"};
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    perror(path);
    return 1;
  }
  csv_writer w = csv_on(f);
  csv_header(&w, header, sizeof header / sizeof header[0]);
  for (unsigned i = 0; i < result_count; i++) {
    const tool_result *r = &results[i];
    csv_text(&w, r->op);
    csv_text(&w, r->strategy);
    csv_text(&w, r->type);
    csv_count(&w, r->rows);
    csv_count(&w, r->cols);
    csv_count(&w, r->k);
    csv_number(&w, "%.4f", r->ms);
    csv_number(&w, "%.3f", r->gb_per_s);
    csv_number(&w, "%.3f", r->gflop_per_s);
    csv_number(&w, "%.1f", r->pct_of_copy);
    csv_number(&w, "%.1f", r->pct_of_peak);
    csv_number(&w, "%.1f", r->pct_of_clblast);
    csv_text(&w, r->verified);
    csv_end_row(&w);
  }
  int failed = ferror(f) != 0;
  if (fclose(f) != 0) failed = 1;
  return failed;
}

/* One panel per operation: throughput against problem size (elements of
 * the matrix, or m n k for matmul) on a log scale, a line per strategy
 * with its points sorted by size. Returns the height used (0 when the
 * operation has no results). */
typedef struct svg_point {
  double x, y;
} svg_point;

static double result_x(const tool_result *r) { return (double)r->rows * r->cols * (r->k ? r->k : 1); }
static double result_y(const tool_result *r) {
  return strcmp(r->op, "matmul") == 0 ? r->gflop_per_s : r->gb_per_s;
}
static int compare_point(const void *a, const void *b) {
  double x = ((const svg_point *)a)->x, y = ((const svg_point *)b)->x;
  return (x > y) - (x < y);
}

/* A <text> at x, y with further attributes; every text goes through here
 * so that a label or renderer with &, < or quotes cannot break the file. */
static void svg_text(FILE *f, double x, double y, const char *attributes, const char *text) {
  fprintf(f, "<text x='%g' y='%g' %s>", x, y, attributes);
  xml_text(f, text);
  fputs("</text>\n", f);
}

static double svg_panel(FILE *f, const char *op, double y0, const char *unit) {
  static const char *colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                  "#9467bd", "#8c564b", "#e377c2"};
  const double left = 70, width = 560, height = 220;
  double xmin = 1e300, xmax = 0, ymax = 0;
  for (unsigned i = 0; i < result_count; i++) {
    const tool_result *r = &results[i];
    if (strcmp(r->op, op) || r->ms <= 0) continue;
    xmin = result_x(r) < xmin ? result_x(r) : xmin;
    xmax = result_x(r) > xmax ? result_x(r) : xmax;
    ymax = result_y(r) > ymax ? result_y(r) : ymax;
  }
  if (ymax <= 0) return 0;
  if (xmax <= xmin) xmax = xmin * 2;
  char text[160];
  snprintf(text, sizeof text, "%s: %s against size", op, unit);
  svg_text(f, left, y0 - 8, "font-size='14'", text);
  fprintf(f, "<rect x='%g' y='%g' width='%g' height='%g' fill='none' stroke='#888'/>\n", left, y0, width,
          height);
  snprintf(text, sizeof text, "%.4g", ymax);
  svg_text(f, left - 4, y0 + 10, "font-size='10' text-anchor='end'", text);
  svg_text(f, left - 4, y0 + height, "font-size='10' text-anchor='end'", "0");
  snprintf(text, sizeof text, "%.3g", xmin);
  svg_text(f, left, y0 + height + 14, "font-size='10'", text);
  snprintf(text, sizeof text, "%.3g %s (log scale)", xmax, strcmp(op, "matmul") == 0 ? "m n k" : "elements");
  svg_text(f, left + width, y0 + height + 14, "font-size='10' text-anchor='end'", text);
  unsigned series = 0;
  for (unsigned i = 0; i < result_count; i++) {
    const tool_result *r = &results[i];
    if (strcmp(r->op, op) || r->ms <= 0) continue;
    bool seen = false;
    for (unsigned j = 0; j < i && !seen; j++)
      seen = strcmp(results[j].op, op) == 0 && results[j].ms > 0 &&
             strcmp(results[j].strategy, r->strategy) == 0;
    if (seen) continue;
    svg_point points[MAX_RESULTS];
    unsigned n = 0;
    for (unsigned j = i; j < result_count; j++) {
      const tool_result *q = &results[j];
      if (strcmp(q->op, op) == 0 && q->ms > 0 && strcmp(q->strategy, r->strategy) == 0)
        points[n++] = (svg_point){left + width * (log(result_x(q)) - log(xmin)) / (log(xmax) - log(xmin)),
                                  y0 + height - height * result_y(q) / ymax};
    }
    qsort(points, n, sizeof points[0], compare_point);
    const char *colour = colours[series % 7];
    fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='2' points='", colour);
    for (unsigned j = 0; j < n; j++)
      fprintf(f, "%.1f,%.1f ", points[j].x, points[j].y);
    fprintf(f, "'/>\n");
    for (unsigned j = 0; j < n; j++)
      fprintf(f, "<circle cx='%.1f' cy='%.1f' r='3' fill='%s'/>\n", points[j].x, points[j].y, colour);
    char attributes[48];
    snprintf(attributes, sizeof attributes, "font-size='11' fill='%s'", colour);
    svg_text(f, left + width + 10, y0 + 14 + 14.0 * series, attributes, r->strategy);
    series++;
  }
  return height + 60;
}

static int write_svg(const char *path, const char *renderer) {
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    perror(path);
    return 1;
  }
  /* The panels go into a group; the size is known once they are drawn. */
  fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='800' height='%d' font-family='sans-serif'>\n",
          70 + 3 * 280);
  fprintf(f, "<rect width='100%%' height='100%%' fill='white'/>\n");
  char title[512];
  snprintf(title, sizeof title, "gltile bench on %s", renderer);
  svg_text(f, 20, 24, "font-size='15'", title);
  double y = 70;
  y += svg_panel(f, "transpose", y, "GB/s (read + written)");
  y += svg_panel(f, "copy", y, "GB/s (read + written)");
  y += svg_panel(f, "matmul", y, "GFLOP/s");
  fprintf(f, "</svg>\n");
  return fclose(f) != 0;
}

/* ---- driver -------------------------------------------------------- */

static bool op_wanted(const tool_bench_options *o, const char *op) {
  return strcmp(o->ops, "all") == 0 || strcmp(o->ops, op) == 0;
}

int tool_bench(const tool_bench_options *o) {
  gt_egl egl;
  gt_context *ctx;
  gt_context_desc desc = tool_desc(o->min_limits, o->matmul_kernel);
  desc.max_dispatch_bytes = o->max_dispatch_bytes;
  if (tool_open(&desc, &egl, &ctx)) return 1;
  tool_timer_init(gt_context_renderer(ctx));
  peak_gb_per_s = o->peak_gb_per_s;
  double *scratch = malloc((o->reps + 1) * sizeof *scratch);
  if (scratch == NULL) return 1;
  printf("gltile %s on %s; tile %u; median of %u runs after %d ms of warm-up, then a CPU check\n", o->title,
         gt_context_renderer(ctx), o->tile ? o->tile : gt_context_default_tile(ctx), o->reps,
         TOOL_WARM_UP_MS);
  int failures = 0;
  if (strcmp(o->ops, "loop") == 0) failures += tool_bench_loop(ctx, o);
  if (strcmp(o->ops, "arith") == 0) failures += tool_bench_arith(ctx, o->reps, scratch, NULL);
  if (op_wanted(o, "matmul")) {
    char why[256];
    have_clblast = tool_clblast_open(why, sizeof why);
    if (have_clblast)
      printf("matmul peer: CLBlast on %s (OpenCL; wall clock around clFinish)\n", tool_clblast_device());
    else
      printf("matmul peer: CLBlast not run (%s)\n", why);
  }
  char sizes[1024];
  snprintf(sizes, sizeof sizes, "%s", o->sizes);
  for (char *save = NULL, *tok = strtok_r(sizes, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    uint32_t d[3] = {0, 0, 0};
    int count = sscanf(tok, "%ux%ux%u", &d[0], &d[1], &d[2]);
    if (count < 1 || !d[0] || (count > 1 && !d[1]) || (count > 2 && !d[2])) {
      fprintf(stderr, "gltile: bad size '%s' (N, RxC or MxNxK)\n", tok);
      failures++;
      continue;
    }
    /* N is for every op; RxC for transpose and copy; MxNxK for matmul. */
    uint32_t rows = d[0], cols = count > 1 ? d[1] : d[0], k = count > 2 ? d[2] : cols;
    if (count < 3 && strcmp(o->ops, "copy") == 0) failures += bench_copy_case(ctx, o, rows, cols, scratch);
    if (count < 3 && op_wanted(o, "transpose")) failures += bench_transpose_case(ctx, o, rows, cols, scratch);
    if (count != 2 && op_wanted(o, "matmul")) {
      failures += bench_matmul_case(ctx, o, rows, cols, k, scratch);
      if (o->batch > 1) failures += bench_batch_case(ctx, o, rows, cols, k, scratch);
    }
  }
  printf("\ntimes from %s\n", tool_timer_source());
  if (strcmp(o->title, "bench") == 0 && op_wanted(o, "calls")) {
    failures += tool_bench_calls(ctx);
    failures += tool_bench_startup(o->min_limits);
  }
  if (o->csv && write_csv(o->csv)) failures++;
  if (o->svg && write_svg(o->svg, gt_context_renderer(ctx))) failures++;
  free(scratch);
  if (have_clblast) tool_clblast_close();
  have_clblast = false;
  tool_close(&egl, ctx);
  if (failures) printf("\n%d case%s failed\n", failures, failures == 1 ? "" : "s");
  return failures;
}
