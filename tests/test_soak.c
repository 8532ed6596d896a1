/* Soak: many mixed random operations on sections of a fixed pool of GL
 * buffers and textures. Every result is checked (exactly, or within a
 * K-scaled bound for matmul) together with a guard band around the
 * destination, refused calls must return their exact code and write
 * nothing, and once every program exists the number of live GL objects
 * and of the library's host blocks must stay the same and the process's
 * resident memory must not keep growing.
 *
 *   test_soak [--min-limits] [--ops N] [--seed S] [--warmup W] [--sample K]
 *             [--rss-bound-kib B] [--only I] [--plant-leak] [--program-slots N]
 *
 * N ops in all (default 3000). The first W of them (default 1000) warm up:
 * they begin with a sweep that runs every kernel variant the soak can reach
 * once, so every program exists before the baseline, then continue with
 * random ops. The baseline of GL objects, host blocks and RSS is taken
 * after the warm-up and sampled again every K ops (default 1000), half-way
 * through the rest and at the end. A leak grows RSS all along: the run
 * fails when RSS grew by B/2 or more (default B 8 MiB) in each half after
 * the warm-up. One step of the driver's heap, in one half, is not a leak.
 *
 * --plant-leak makes a leak to show the checks catch it: every op after
 * the warm-up leaves a 16 KiB buffer undeleted; the run passes only when
 * the GL objects and (outside AddressSanitizer) RSS both flag it.
 * Each op draws from its own generator state, made from the seed and its
 * index, so `--only I` replays op I alone (sweep ops included).
 *
 * The soak reaches every variant a context can build (174 programs with
 * llvmpipe's defaults), so the program table must hold them all: the
 * ctest runs give it 256 slots (--program-slots, read by the harness).
 * With fewer, programs are released and built again in turn, and the
 * driver's compiler heap grows with each build, which RSS cannot tell
 * from a leak of the library's. */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"

/* AddressSanitizer, by gcc's macro or clang's feature test. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum {
  POOL_BUFFERS = 4,
  POOL_WORDS = 128 * 1024, /* 512 KiB a buffer: two 200 x 200 views side by side fit */
  MAX_SIDE = 200,          /* transpose, copy and kernel extents */
  MAX_MATMUL = 96,         /* M, N and K */
  GUARD = 24,              /* words checked before and after a destination's span */
  N_FORMATS = 4,
  TEX_SIDE = 160,
  MAX_IMAGE_SIDE = 128,
  IMAGE_GUARD = 2, /* texels checked around a destination window */
  RECT_TEXELS = (MAX_IMAGE_SIDE + 2 * IMAGE_GUARD) * (MAX_IMAGE_SIDE + 2 * IMAGE_GUARD),
  MAX_REPORTS = 25,
  CENSUS_NAMES = 4096 /* GL names 1..4096 are counted */
};

typedef enum op_kind {
  K_TRANSPOSE,
  K_INPLACE,
  K_COPY,
  K_MATMUL,
  K_IMAGE,
  K_KERNEL,
  K_INVALID,
  K_COUNT
} op_kind;
static const char *const kind_names[K_COUNT] = {"transpose", "in-place", "copy",   "matmul",
                                                "image",     "kernel",   "invalid"};

static const gt_format formats[N_FORMATS] = {GT_FORMAT_R32F, GT_FORMAT_R32I, GT_FORMAT_R32UI,
                                             GT_FORMAT_RGBA8};
static const gt_type types[3] = {GT_F32, GT_I32, GT_U32};
static const uint32_t tiles[4] = {0, 8, 16, 32};

static gt_context *ctx;
static uint32_t default_tile;
static uint32_t rng;
static GLuint pool[POOL_BUFFERS];
static GLuint textures[N_FORMATS][2];
static GLuint fbo;

/* Two user kernels made once: res = a * mul + b + add on uint views. */
static gt_kernel_id kernels[2];
static const uint32_t kernel_tile[2][2] = {{8, 16}, {4, 8}}; /* rows, cols: 128 and 32 invocations */
static const char kernel_body[] = "void main() {\n"
                                  "  uvec2 g = gt_global();\n"
                                  "  if (gt_in_domain(g)) res_write(g, a_read(g) * mul + b_read(g) + add);\n"
                                  "}\n";

static unsigned long failures, op_counts[K_COUNT], op_index;
static char what[384]; /* the op being run, for failure messages */

/* ------------------------------------------------------------------ */
/* Small helpers.                                                      */

static uint32_t rnd(uint32_t lo, uint32_t hi) { return gt_test_rand_range(&rng, lo, hi); }
static int chance(uint32_t percent) { return rnd(0, 99) < percent; }
static double dabs(double x) { return x < 0 ? -x : x; }

static float word_float(uint32_t w) {
  float f;
  memcpy(&f, &w, 4);
  return f;
}

static uint32_t float_word(float f) {
  uint32_t w;
  memcpy(&w, &f, 4);
  return w;
}

static void fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static void fail(const char *fmt, ...) {
  failures++;
  if (failures > MAX_REPORTS) return;
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "FAILED op %lu [%s]: ", op_index, what);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  if (failures == MAX_REPORTS) fprintf(stderr, "(further failures are counted, not printed)\n");
}

static int status_is(gt_status got, gt_status want) {
  if (got == want) return 1;
  fail("got %s, want %s", gt_status_string(got), gt_status_string(want));
  return 0;
}

static uint32_t pitch_of(gt_view v) { return v.pitch ? v.pitch : v.cols; }

/* Words from a view's first element to one past its last (pitches below
 * cols counted as cols, so refused views still get a guard band). */
static size_t span_of(gt_view v) {
  if (v.rows == 0 || v.cols == 0) return 0;
  size_t p = pitch_of(v) < v.cols ? v.cols : pitch_of(v);
  return (size_t)(v.rows - 1) * p + v.cols;
}

static size_t index_of(gt_view v, uint32_t r, uint32_t c) { return v.offset + (size_t)r * pitch_of(v) + c; }

/* Random data: any word, or small integers / short fractions as floats. */
static void fill_words(uint32_t *dst, size_t n) {
  for (size_t i = 0; i < n; i++)
    dst[i] = gt_test_rand(&rng);
}

static void fill_floats(uint32_t *dst, size_t n, int integers) {
  for (size_t i = 0; i < n; i++) {
    float f =
        integers ? (float)((int)rnd(0, 16) - 8) : (float)((int)rnd(0, 1u << 20) - (1 << 19)) / (1 << 19);
    dst[i] = float_word(f);
  }
}

static const char *type_name(gt_type t) { return t == GT_F32 ? "f32" : t == GT_I32 ? "i32" : "u32"; }

static int describe_view(char *buf, size_t size, gt_view v) {
  int b = 0;
  for (int i = 0; i < POOL_BUFFERS; i++)
    if (pool[i] == v.buffer) b = i;
  return snprintf(buf, size, "%ux%u@b%d+%zu/p%u", v.rows, v.cols, b, v.offset, v.pitch);
}

/* Appends to `what`. */
static void say(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static void say(const char *fmt, ...) {
  size_t used = strlen(what);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what + used, sizeof what - used, fmt, ap);
  va_end(ap);
}

static void say_view(const char *name, gt_view v) {
  char buf[96];
  describe_view(buf, sizeof buf, v);
  say(" %s %s", name, buf);
}

/* A side length: a multiple of the tile, a tiny one, or any up to max. */
static uint32_t side(uint32_t max, uint32_t tile) {
  uint32_t t = tile ? tile : default_tile;
  if (chance(30) && max >= t) return rnd(1, max / t) * t;
  if (chance(15)) return rnd(1, 9);
  return rnd(1, max);
}

/* ------------------------------------------------------------------ */
/* Placing views in the pool.                                          */

/* rows x cols at a random pitch and offset of pool buffer b; sometimes
 * made with gt_section from a larger parent, which must agree. */
static gt_view place(uint32_t b, uint32_t rows, uint32_t cols, gt_type type) {
  uint32_t pitch = cols + (chance(40) ? 0 : rnd(1, 24));
  gt_view v = {pool[b], 0, rows, cols, (pitch == cols && chance(50)) ? 0 : pitch, type};
  v.offset = rnd(0, (uint32_t)(POOL_WORDS - span_of(v)));
  if (chance(25) && v.offset >= 3 * (size_t)pitch + 5) {
    /* The same window as a section at (3, 5) of a parent that starts
     * three rows and five columns before it. */
    gt_view parent = {pool[b], v.offset - 3 * (size_t)pitch - 5, rows + 3, cols + 5, pitch, type};
    if (pitch >= cols + 5) {
      gt_view s = gt_section(parent, 3, 5, rows, cols);
      if (s.offset != v.offset || pitch_of(s) != pitch || s.rows != rows || s.cols != cols)
        fail("gt_section(3, 5, %u, %u) of a %ux%u parent: offset %zu pitch %u, want %zu %u", rows, cols,
             parent.rows, parent.cols, s.offset, pitch_of(s), v.offset, pitch);
      v = s;
    }
  }
  return v;
}

static int spans_overlap(gt_view a, gt_view b) {
  return a.buffer == b.buffer && a.offset < b.offset + span_of(b) && b.offset < a.offset + span_of(a);
}

/* A view whose words are apart from those of the n others. */
static gt_view place_apart(uint32_t rows, uint32_t cols, gt_type type, const gt_view *others, int n) {
  for (int tries = 0; tries < 40; tries++) {
    gt_view v = place(rnd(0, POOL_BUFFERS - 1), rows, cols, type);
    int ok = 1;
    for (int i = 0; i < n; i++)
      ok = ok && !spans_overlap(v, others[i]);
    if (ok) return v;
  }
  for (uint32_t b = 0; b < POOL_BUFFERS; b++) {
    int used = 0;
    for (int i = 0; i < n; i++)
      used = used || others[i].buffer == pool[b];
    if (!used) return place(b, rows, cols, type);
  }
  return place(0, rows, cols, type); /* not reached: at most 3 others */
}

/* Two sections of one matrix side by side: their spans interleave but
 * they share no element. */
static void place_side_by_side(uint32_t r1, uint32_t c1, uint32_t r2, uint32_t c2, gt_type type,
                               gt_view *left, gt_view *right) {
  uint32_t gap = rnd(0, 8), pitch = c1 + gap + c2 + rnd(0, 8), rows = r1 > r2 ? r1 : r2;
  size_t span = (size_t)(rows - 1) * pitch + c1 + gap + c2;
  uint32_t b = rnd(0, POOL_BUFFERS - 1);
  size_t offset = rnd(0, (uint32_t)(POOL_WORDS - span));
  gt_view l = {pool[b], offset, r1, c1, pitch, type}, r = {pool[b], offset + c1 + gap, r2, c2, pitch, type};
  *left = l;
  *right = r;
}

/* ------------------------------------------------------------------ */
/* The checked range of a buffer: a destination's span and a guard band
 * on each side. It is poisoned first; every host write that lands in it
 * and every result expected there is recorded in `shadow`, which must
 * equal what is read back afterwards. */

static struct {
  GLuint buffer;
  size_t lo, hi;
  gt_view dst;
} range;
static uint32_t shadow[POOL_WORDS], back[POOL_WORDS];

static void begin_range(gt_view dst) {
  size_t span = span_of(dst);
  range.buffer = dst.buffer;
  range.dst = dst;
  range.lo = dst.offset > GUARD ? dst.offset - GUARD : 0;
  range.hi = dst.offset + span + GUARD;
  if (range.hi > POOL_WORDS) range.hi = POOL_WORDS;
  uint32_t seed = gt_test_rand(&rng);
  for (size_t i = range.lo; i < range.hi; i++)
    shadow[i] = gt_test_noise(i, seed);
  gt_view all = {range.buffer, range.lo, 1, (uint32_t)(range.hi - range.lo), 0, GT_U32};
  gt_status s = gt_write(ctx, all, shadow + range.lo, 0);
  if (s != GT_OK) fail("poisoning %zu words: %s", range.hi - range.lo, gt_status_string(s));
}

/* Writes host (rows x cols, packed) into v and records what lands in the
 * checked range. */
static void put(gt_view v, const uint32_t *host) {
  gt_status s = gt_write(ctx, v, host, 0);
  if (s != GT_OK) {
    fail("gt_write of an input: %s", gt_status_string(s));
    return;
  }
  if (v.buffer != range.buffer) return;
  for (uint32_t r = 0; r < v.rows; r++)
    for (uint32_t c = 0; c < v.cols; c++) {
      size_t i = index_of(v, r, c);
      if (i >= range.lo && i < range.hi) shadow[i] = host[(size_t)r * v.cols + c];
    }
}

static void expect(gt_view v, uint32_t r, uint32_t c, uint32_t word) { shadow[index_of(v, r, c)] = word; }

static int read_range(void) {
  gt_view all = {range.buffer, range.lo, 1, (uint32_t)(range.hi - range.lo), 0, GT_U32};
  gt_status s = gt_read(ctx, all, back + range.lo, 0);
  if (s != GT_OK) fail("reading back %zu words: %s", range.hi - range.lo, gt_status_string(s));
  return s == GT_OK;
}

/* Every word of the range as recorded. */
static void compare_range(void) {
  size_t bad = 0, first = 0;
  for (size_t i = range.lo; i < range.hi; i++)
    if (back[i] != shadow[i] && bad++ == 0) first = i;
  if (bad == 0) return;
  gt_view d = range.dst;
  long rel = (long)first - (long)d.offset;
  uint32_t p = pitch_of(d) ? pitch_of(d) : 1;
  fail("%zu of %zu words differ; first at dst%+ld (row %ld, col %ld): got %08x, want %08x", bad,
       range.hi - range.lo, rel, rel >= 0 ? rel / (long)p : -1, rel >= 0 ? rel % (long)p : rel,
       (unsigned)back[first], (unsigned)shadow[first]);
}

static void check_range(void) {
  if (read_range()) compare_range();
}

/* ------------------------------------------------------------------ */
/* Transpose, in place or not, and copy.                               */

static uint32_t host_a[MAX_SIDE * MAX_SIDE], host_b[MAX_SIDE * MAX_SIDE], host_c[MAX_SIDE * MAX_SIDE];

typedef struct transpose_case {
  gt_type type;
  gt_strategy strategy;
  uint32_t tile, rows, cols;
  int in_place;
} transpose_case;

static void run_transpose(const transpose_case *k) {
  gt_view src, dst;
  uint32_t rows = k->rows, cols = k->in_place ? k->rows : k->cols;
  if (k->in_place) {
    src = dst = place(rnd(0, POOL_BUFFERS - 1), rows, rows, k->type);
  } else if (chance(20)) {
    if (chance(50))
      place_side_by_side(rows, cols, cols, rows, k->type, &src, &dst);
    else
      place_side_by_side(cols, rows, rows, cols, k->type, &dst, &src);
  } else {
    src = place(rnd(0, POOL_BUFFERS - 1), rows, cols, k->type);
    dst = place_apart(cols, rows, k->type, &src, 1);
  }
  say("%s %s %s tile %u", k->in_place ? "in-place transpose" : "transpose", type_name(k->type),
      gt_strategy_name(k->strategy), k->tile);
  say_view("src", src);
  say_view("dst", dst);
  uint32_t t = k->tile ? k->tile : default_tile;
  gt_status want =
      k->strategy == GT_STRATEGY_TILED_EVEN && (rows % t || cols % t) ? GT_ERR_SHAPE_MISMATCH : GT_OK;

  begin_range(dst);
  fill_words(host_a, (size_t)rows * cols);
  put(src, host_a);
  gt_transpose_desc d = {k->strategy, k->tile};
  gt_status s = gt_transpose(ctx, src, dst, &d);
  if (status_is(s, want) && s == GT_OK)
    for (uint32_t r = 0; r < rows; r++)
      for (uint32_t c = 0; c < cols; c++)
        expect(dst, c, r, host_a[(size_t)r * cols + c]);
  check_range();
}

static void random_transpose(int in_place) {
  transpose_case k;
  k.type = types[rnd(0, 2)];
  k.strategy = (gt_strategy)rnd(GT_STRATEGY_AUTO, GT_STRATEGY_TRUNCATE_B);
  k.tile = tiles[rnd(0, 3)];
  k.rows = side(MAX_SIDE, k.tile);
  k.cols = side(MAX_SIDE, k.tile);
  k.in_place = in_place;
  run_transpose(&k);
}

static void run_copy(gt_type type, uint32_t rows, uint32_t cols, int packed) {
  gt_view src, dst;
  if (packed) {
    /* Gapless views starting on 16 bytes, in two buffers: the vec4
     * kernel's case. */
    uint32_t b = rnd(0, POOL_BUFFERS - 1), b2 = (b + rnd(1, POOL_BUFFERS - 1)) % POOL_BUFFERS;
    size_t words = (size_t)rows * cols;
    gt_view s = {pool[b], rnd(0, (uint32_t)(POOL_WORDS - words)) & ~3u, rows, cols, 0, type};
    gt_view d = {pool[b2], rnd(0, (uint32_t)(POOL_WORDS - words)) & ~3u, rows, cols, 0, type};
    src = s;
    dst = d;
  } else if (chance(20)) {
    place_side_by_side(rows, cols, rows, cols, type, &src, &dst);
    if (chance(50)) {
      gt_view x = src;
      src = dst;
      dst = x;
    }
  } else {
    src = place(rnd(0, POOL_BUFFERS - 1), rows, cols, type);
    dst = place_apart(rows, cols, type, &src, 1);
  }
  say("copy %s", type_name(type));
  say_view("src", src);
  say_view("dst", dst);
  begin_range(dst);
  fill_words(host_a, (size_t)rows * cols);
  put(src, host_a);
  if (status_is(gt_copy(ctx, src, dst), GT_OK))
    for (uint32_t r = 0; r < rows; r++)
      for (uint32_t c = 0; c < cols; c++)
        expect(dst, r, c, host_a[(size_t)r * cols + c]);
  check_range();
}

/* ------------------------------------------------------------------ */
/* Matmul against a double reference.                                  */

typedef struct matmul_case {
  gt_strategy strategy;
  uint32_t tile, m, n, k;
  int trans_a, trans_b, scale, integers, same_ab;
  float alpha, beta;
} matmul_case;

/* Where the sweep places a matmul's a, b and c itself: bit i of aligned
 * says whether view i's rows start 16-byte aligned, each view in a buffer
 * of its own; -1: placed at random. */
static int placed_aligned = -1;

static gt_view place_rows(uint32_t b, uint32_t rows, uint32_t cols, bool aligned) {
  gt_view v = {pool[b], aligned ? 4 : 1, rows, cols, aligned ? (cols + 3) / 4 * 4 : cols | 1, GT_F32};
  return v;
}

static void run_matmul(const matmul_case *q) {
  uint32_t m = q->m, n = q->n, kk = q->k;
  uint32_t ar = q->trans_a ? kk : m, ac = q->trans_a ? m : kk;
  uint32_t br = q->trans_b ? n : kk, bc = q->trans_b ? kk : n;
  int same = q->same_ab && ar == br && ac == bc;
  gt_view a, b, c;
  if (placed_aligned >= 0) {
    a = place_rows(0, ar, ac, placed_aligned & 1);
    b = place_rows(1, br, bc, placed_aligned & 2);
    c = place_rows(2, m, n, placed_aligned & 4);
    same = 0;
  } else {
    a = place(rnd(0, POOL_BUFFERS - 1), ar, ac, GT_F32);
    b = same ? a : place(rnd(0, POOL_BUFFERS - 1), br, bc, GT_F32); /* may overlap a: read-read */
    gt_view ab[2] = {a, b};
    c = place_apart(m, n, GT_F32, ab, 2);
  }
  say("matmul %ux%ux%u %s tile %u%s%s", m, n, kk, gt_strategy_name(q->strategy), q->tile,
      q->trans_a ? " a^T" : "", q->trans_b ? " b^T" : "");
  if (q->scale) say(" alpha %g beta %g", (double)q->alpha, (double)q->beta);
  say("%s%s", q->integers ? " integers" : " fractions", same ? " b=a" : "");
  say_view("a", a);
  say_view("b", b);
  say_view("c", c);
  uint32_t t = q->tile ? q->tile : default_tile;
  gt_status want =
      q->strategy == GT_STRATEGY_TILED_EVEN && (m % t || n % t || kk % t) ? GT_ERR_SHAPE_MISMATCH : GT_OK;
  int reads_c = q->scale && q->beta != 0.0f;

  begin_range(c);
  fill_floats(host_a, (size_t)ar * ac, q->integers);
  if (same)
    memcpy(host_b, host_a, (size_t)ar * ac * 4);
  else
    fill_floats(host_b, (size_t)br * bc, q->integers);
  put(b, host_b);
  put(a, host_a);
  if (!same && spans_overlap(a, b)) {
    /* a and b share words (read-read): a was written last, so b's
     * elements that fall on a's hold a's values. */
    for (uint32_t r = 0; r < br; r++)
      for (uint32_t col = 0; col < bc; col++) {
        size_t i = index_of(b, r, col);
        for (uint32_t ra = 0; ra < ar; ra++) {
          size_t row_start = index_of(a, ra, 0);
          if (i >= row_start && i < row_start + ac)
            host_b[(size_t)r * bc + col] = host_a[(size_t)ra * ac + (i - row_start)];
        }
      }
  }
  /* c holds quiet NaNs when it must not be read: reading it would show. */
  if (reads_c) {
    fill_floats(host_c, (size_t)m * n, q->integers);
  } else {
    for (size_t i = 0; i < (size_t)m * n; i++)
      host_c[i] = 0x7FC00000u | (gt_test_rand(&rng) & 0xFFFF);
  }
  put(c, host_c);

  gt_matmul_desc d = {.strategy = q->strategy,
                      .tile = q->tile,
                      .trans_a = q->trans_a != 0,
                      .trans_b = q->trans_b != 0,
                      .scale = q->scale != 0,
                      .alpha = q->alpha,
                      .beta = q->beta};
  gt_status s = gt_matmul(ctx, a, b, c, &d);
  if (!read_range()) return;
  if (status_is(s, want) && s == GT_OK) {
    double alpha = q->scale ? q->alpha : 1.0;
    size_t bad = 0;
    for (uint32_t i = 0; i < m; i++)
      for (uint32_t j = 0; j < n; j++) {
        double sum = 0, mag = 0;
        for (uint32_t p = 0; p < kk; p++) {
          double x = word_float(host_a[q->trans_a ? (size_t)p * ac + i : (size_t)i * ac + p]);
          double y = word_float(host_b[q->trans_b ? (size_t)j * bc + p : (size_t)p * bc + j]);
          sum += x * y;
          mag += dabs(x * y);
        }
        double ref = alpha * sum, bound = dabs(alpha) * mag;
        if (reads_c) {
          double c0 = word_float(host_c[(size_t)i * n + j]);
          ref += q->beta * c0;
          bound += dabs(q->beta * c0);
        }
        bound *= (kk + 2) * (double)FLT_EPSILON;
        size_t at = index_of(c, i, j);
        double got = word_float(back[at]);
        if (!(dabs(got - ref) <= bound) && bad++ == 0)
          fail("c(%u, %u) = %.9g, want %.9g within %.3g", i, j, got, ref, bound);
        shadow[at] = back[at]; /* checked here; the guard band below */
      }
    if (bad > 1) fail("%zu elements of c out of bound", bad);
  }
  compare_range();
}

static const float alphas[] = {1.0f, -1.0f, 0.5f, 2.0f, -1.5f, 0.25f, 0.0f, 3.0f};
static const float betas[] = {0.0f, 1.0f, -1.0f, 0.5f, 2.0f};

static void random_matmul(void) {
  static const gt_strategy strategies[] = {GT_STRATEGY_AUTO, GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_EVEN,
                                           GT_STRATEGY_TILED_PAD, GT_STRATEGY_TRUNCATE_B};
  matmul_case q;
  q.strategy = strategies[rnd(0, 4)];
  q.tile = tiles[rnd(0, 3)];
  q.m = side(MAX_MATMUL, q.tile);
  q.n = side(MAX_MATMUL, q.tile);
  q.k = side(MAX_MATMUL, q.tile);
  q.trans_a = chance(50);
  q.trans_b = chance(50);
  q.scale = chance(50);
  q.integers = chance(75);
  q.alpha = alphas[rnd(0, 7)];
  q.beta = betas[rnd(0, 4)];
  q.same_ab = chance(10);
  if (q.same_ab) q.n = q.k = q.m;
  run_matmul(&q);
}

/* ------------------------------------------------------------------ */
/* Images: windows of a few preallocated textures, read back through a
 * framebuffer: the destination window and a guard margin.             */

typedef struct format_io {
  GLenum internal, upload_format, upload_type, read_format, read_type;
} format_io;

static format_io io_of(gt_format f) {
  switch (f) {
  case GT_FORMAT_R32F: return (format_io){GL_R32F, GL_RED, GL_FLOAT, GL_RGBA, GL_FLOAT};
  case GT_FORMAT_R32I: return (format_io){GL_R32I, GL_RED_INTEGER, GL_INT, GL_RGBA_INTEGER, GL_INT};
  case GT_FORMAT_R32UI:
    return (format_io){GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, GL_RGBA_INTEGER, GL_UNSIGNED_INT};
  default: return (format_io){GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, GL_RGBA, GL_UNSIGNED_BYTE};
  }
}

static const char *format_name(gt_format f) {
  switch (f) {
  case GT_FORMAT_R32F: return "r32f";
  case GT_FORMAT_R32I: return "r32i";
  case GT_FORMAT_R32UI: return "r32ui";
  default: return "rgba8";
  }
}

/* A texel that survives its format exactly: finite floats for r32f
 * (imageLoad may quiet a NaN), any word otherwise. */
static uint32_t texel(gt_format f) {
  uint32_t w = gt_test_rand(&rng);
  if (f == GT_FORMAT_R32F) w = float_word((float)((int32_t)(w % 2000001u) - 1000000) / 64.0f);
  return w;
}

static void tex_put(GLuint t, gt_format f, uint32_t x, uint32_t y, uint32_t w, uint32_t h,
                    const uint32_t *data) {
  format_io io = io_of(f);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexSubImage2D(GL_TEXTURE_2D, 0, (GLint)x, (GLint)y, (GLsizei)w, (GLsizei)h, io.upload_format,
                  io.upload_type, data);
  glBindTexture(GL_TEXTURE_2D, 0);
}

static uint32_t four[RECT_TEXELS * 4];

/* One 32-bit word a texel: the red channel, or rgba8's four bytes. */
static int tex_get(GLuint t, gt_format f, uint32_t x, uint32_t y, uint32_t w, uint32_t h, uint32_t *out) {
  format_io io = io_of(f);
  /* ES 3.1, "Shader Memory Access Synchronization": reads through a
   * framebuffer of what imageStore wrote need the framebuffer barrier. */
  glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
  int ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  if (ok) {
    if (f == GT_FORMAT_RGBA8) {
      glReadPixels((GLint)x, (GLint)y, (GLsizei)w, (GLsizei)h, GL_RGBA, GL_UNSIGNED_BYTE, out);
    } else {
      glReadPixels((GLint)x, (GLint)y, (GLsizei)w, (GLsizei)h, io.read_format, io.read_type, four);
      for (size_t i = 0; i < (size_t)w * h; i++)
        out[i] = four[4 * i];
    }
  }
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 0, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  GLenum e = glGetError();
  if (!ok || e != GL_NO_ERROR)
    fail("reading texture %u back: complete %d, GL error 0x%04x", t, ok, (unsigned)e);
  return ok && e == GL_NO_ERROR;
}

static struct {
  GLuint texture;
  gt_format format;
  uint32_t x, y, w, h;
  gt_image dst;
} rect;
static uint32_t rect_shadow[RECT_TEXELS], rect_back[RECT_TEXELS], texels[MAX_IMAGE_SIDE * MAX_IMAGE_SIDE];

static void begin_rect(gt_image dst) {
  rect.texture = dst.texture;
  rect.format = dst.format;
  rect.dst = dst;
  rect.x = dst.x > IMAGE_GUARD ? dst.x - IMAGE_GUARD : 0;
  rect.y = dst.y > IMAGE_GUARD ? dst.y - IMAGE_GUARD : 0;
  uint32_t x1 = dst.x + dst.width + IMAGE_GUARD, y1 = dst.y + dst.height + IMAGE_GUARD;
  if (x1 > TEX_SIDE) x1 = TEX_SIDE;
  if (y1 > TEX_SIDE) y1 = TEX_SIDE;
  rect.w = x1 - rect.x;
  rect.h = y1 - rect.y;
  for (size_t i = 0; i < (size_t)rect.w * rect.h; i++)
    rect_shadow[i] = texel(dst.format);
  tex_put(rect.texture, rect.format, rect.x, rect.y, rect.w, rect.h, rect_shadow);
}

/* Texel (r, c) of window im, in the rectangle's shadow; NULL outside. */
static uint32_t *rect_at(gt_image im, uint32_t r, uint32_t c) {
  uint32_t x = im.x + c, y = im.y + r;
  if (im.texture != rect.texture || x < rect.x || y < rect.y || x >= rect.x + rect.w || y >= rect.y + rect.h)
    return NULL;
  return &rect_shadow[(size_t)(y - rect.y) * rect.w + (x - rect.x)];
}

static void image_put(gt_image im, const uint32_t *data) {
  tex_put(im.texture, im.format, im.x, im.y, im.width, im.height, data);
  for (uint32_t r = 0; r < im.height; r++)
    for (uint32_t c = 0; c < im.width; c++) {
      uint32_t *s = rect_at(im, r, c);
      if (s) *s = data[(size_t)r * im.width + c];
    }
}

static void check_rect(void) {
  if (!tex_get(rect.texture, rect.format, rect.x, rect.y, rect.w, rect.h, rect_back)) return;
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < (size_t)rect.w * rect.h; i++)
    if (rect_back[i] != rect_shadow[i] && bad++ == 0) first = i;
  if (bad)
    fail("%zu of %ux%u texels differ; first at texel (%u, %u): got %08x, want %08x", bad, rect.w, rect.h,
         rect.x + (unsigned)(first % rect.w), rect.y + (unsigned)(first / rect.w), (unsigned)rect_back[first],
         (unsigned)rect_shadow[first]);
}

typedef struct image_case {
  gt_format format;
  uint32_t turns; /* 0 = transpose */
  gt_strategy strategy;
  uint32_t tile, rows, cols; /* the source window's height and width */
} image_case;

static int windows_overlap(gt_image a, gt_image b) {
  return a.texture == b.texture && a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height &&
         b.y < a.y + a.height;
}

static void run_image(const image_case *k) {
  uint32_t R = k->rows, C = k->cols, DR = k->turns == 2 ? R : C, DC = k->turns == 2 ? C : R;
  int fi = 0;
  while (formats[fi] != k->format)
    fi++;
  uint32_t which = rnd(0, 1);
  gt_image src = {textures[fi][which], 0, rnd(0, TEX_SIDE - C), rnd(0, TEX_SIDE - R), C, R, k->format};
  gt_image dst = {
      textures[fi][1 - which], 0, rnd(0, TEX_SIDE - DC), rnd(0, TEX_SIDE - DR), DC, DR, k->format};
  if (chance(15)) {
    /* One texture, windows apart. */
    for (int tries = 0; tries < 20; tries++) {
      gt_image d = dst;
      d.texture = src.texture;
      d.x = rnd(0, TEX_SIDE - DC);
      d.y = rnd(0, TEX_SIDE - DR);
      if (!windows_overlap(src, d)) {
        dst = d;
        break;
      }
    }
  }
  say("image %s %s %s tile %u src %ux%u@t%u(%u,%u) dst @t%u(%u,%u)", k->turns ? "rotate" : "transpose",
      format_name(k->format), gt_strategy_name(k->strategy), k->tile, R, C, src.texture, src.x, src.y,
      dst.texture, dst.x, dst.y);
  if (k->turns) say(" turns %u", k->turns);
  uint32_t t = k->tile ? k->tile : default_tile;
  gt_status want = k->strategy == GT_STRATEGY_TILED_EVEN && k->turns != 2 && (R % t || C % t)
                       ? GT_ERR_SHAPE_MISMATCH
                       : GT_OK;

  begin_rect(dst);
  for (size_t i = 0; i < (size_t)R * C; i++)
    texels[i] = texel(k->format);
  image_put(src, texels);
  gt_transpose_desc d = {k->strategy, k->tile};
  gt_status s =
      k->turns ? gt_image_rotate(ctx, src, dst, k->turns, &d) : gt_image_transpose(ctx, src, dst, &d);
  if (status_is(s, want) && s == GT_OK)
    for (uint32_t r = 0; r < R; r++)
      for (uint32_t c = 0; c < C; c++) {
        uint32_t dr, dc;
        switch (k->turns) {
        case 0: dr = c, dc = r; break;
        case 1: dr = c, dc = R - 1 - r; break;
        case 2: dr = R - 1 - r, dc = C - 1 - c; break;
        default: dr = C - 1 - c, dc = r; break;
        }
        *rect_at(dst, dr, dc) = texels[(size_t)r * C + c];
      }
  check_rect();
}

static void random_image(void) {
  static const gt_strategy strategies[] = {GT_STRATEGY_AUTO, GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_EVEN,
                                           GT_STRATEGY_TILED_PAD};
  image_case k;
  k.format = formats[rnd(0, N_FORMATS - 1)];
  k.turns = rnd(0, 3);
  k.strategy = strategies[rnd(0, 3)];
  k.tile = tiles[rnd(0, 3)];
  k.rows = side(MAX_IMAGE_SIDE, k.tile);
  k.cols = side(MAX_IMAGE_SIDE, k.tile);
  run_image(&k);
}

/* ------------------------------------------------------------------ */
/* The user kernels.                                                   */

typedef struct kernel_case {
  int which;
  gt_policy policy;
  uint32_t rows, cols;
  int res_is_a; /* the written view is a itself: the aliased program */
} kernel_case;

static void run_kernel(const kernel_case *k) {
  uint32_t rows = k->rows, cols = k->cols, tr = kernel_tile[k->which][0], tc = kernel_tile[k->which][1];
  gt_view v[3];
  v[0] = place(rnd(0, POOL_BUFFERS - 1), rows, cols, GT_U32);
  v[1] = place_apart(rows, cols, GT_U32, v, 1);
  v[2] = k->res_is_a ? v[0] : place_apart(rows, cols, GT_U32, v, 2);
  static const char *const policy_names[] = {"exact", "pad", "truncate"};
  say("kernel %d (tile %ux%u) %s %ux%u%s", k->which, tr, tc, policy_names[k->policy], rows, cols,
      k->res_is_a ? " res=a" : "");
  say_view("a", v[0]);
  say_view("b", v[1]);
  say_view("res", v[2]);
  gt_status want = k->policy == GT_POLICY_EXACT && (rows % tr || cols % tc) ? GT_ERR_SHAPE_MISMATCH : GT_OK;
  uint32_t mr = k->policy == GT_POLICY_TRUNCATE ? rows / tr * tr : rows;
  uint32_t mc = k->policy == GT_POLICY_TRUNCATE ? cols / tc * tc : cols;
  gt_uniform_value u[2];
  u[0].u = gt_test_rand(&rng);
  u[1].u = gt_test_rand(&rng);

  begin_range(v[2]);
  fill_words(host_a, (size_t)rows * cols);
  fill_words(host_b, (size_t)rows * cols);
  put(v[0], host_a);
  put(v[1], host_b);
  gt_dispatch_desc d = {{rows, cols}, k->policy, v, u};
  gt_dispatch_result res;
  memset(&res, 0xAB, sizeof res);
  gt_status s = gt_kernel_dispatch(ctx, kernels[k->which], &d, &res);
  if (status_is(s, want) && s == GT_OK) {
    int has_bottom = mr < rows && mc > 0, has_right = mc < cols;
    gt_dispatch_result w = {{mr, mc},
                            {has_bottom ? rows - mr : 0, has_bottom ? mc : 0},
                            {has_right ? rows : 0, has_right ? cols - mc : 0}};
    if (memcmp(&res, &w, sizeof res) != 0)
      fail("result main %ux%u bottom %ux%u right %ux%u, want %ux%u %ux%u %ux%u", res.main.rows, res.main.cols,
           res.bottom.rows, res.bottom.cols, res.right.rows, res.right.cols, w.main.rows, w.main.cols,
           w.bottom.rows, w.bottom.cols, w.right.rows, w.right.cols);
    for (uint32_t r = 0; r < mr; r++)
      for (uint32_t c = 0; c < mc; c++) {
        size_t i = (size_t)r * cols + c;
        expect(v[2], r, c, host_a[i] * u[0].u + host_b[i] + u[1].u);
      }
  }
  check_range();
}

static void random_kernel(void) {
  kernel_case k;
  k.which = (int)rnd(0, 1);
  k.policy = (gt_policy)rnd(GT_POLICY_EXACT, GT_POLICY_TRUNCATE);
  /* A kernel tile is not square: multiples of its rows and cols. */
  uint32_t tr = kernel_tile[k.which][0], tc = kernel_tile[k.which][1];
  if (chance(30)) {
    k.rows = rnd(1, MAX_SIDE / tr) * tr;
    k.cols = rnd(1, MAX_SIDE / tc) * tc;
  } else {
    k.rows = side(MAX_SIDE, 8);
    k.cols = side(MAX_SIDE, 8);
  }
  k.res_is_a = chance(15);
  run_kernel(&k);
}

/* ------------------------------------------------------------------ */
/* Refused calls: the exact code, and nothing written.                 */

static void run_invalid(uint32_t which) {
  uint32_t rows = rnd(2, 120), cols = rnd(2, 120);
  gt_type type = types[rnd(0, 2)];
  gt_status want = GT_OK, s = GT_OK;
  gt_view src, dst;
  gt_transpose_desc td = {(gt_strategy)rnd(GT_STRATEGY_AUTO, GT_STRATEGY_SIMPLE), 0};
  switch (which) {
  case 0: /* transpose: dst overlaps src but is not the same view */
  case 1: /* copy: dst overlaps src */
    src = place(rnd(0, POOL_BUFFERS - 1), rows, cols, type);
    dst = which == 0 ? (gt_view){src.buffer, 0, cols, rows, 0, type}
                     : (gt_view){src.buffer, 0, rows, cols, 0, type};
    /* dst's first element is src's last. */
    dst.offset = index_of(src, rows - 1, cols - 1);
    if (dst.offset + span_of(dst) > POOL_WORDS) {
      /* or dst's last element is src's first */
      dst.offset = src.offset >= span_of(dst) - 1 ? src.offset - (span_of(dst) - 1) : src.offset + 1;
    }
    if (!gt_views_alias(src, dst)) fail("gt_views_alias: overlapping views reported apart");
    want = GT_ERR_ALIASED;
    say("invalid: %s into an overlapping view", which == 0 ? "transpose" : "copy");
    break;
  case 2: /* transpose: dst not cols x rows */
    if (rows == cols) cols++;
    src = place(rnd(0, POOL_BUFFERS - 1), rows, cols, type);
    dst = place_apart(rows, cols, type, &src, 1);
    want = GT_ERR_SHAPE_MISMATCH;
    say("invalid: transpose into a dst of src's extent");
    break;
  case 3: /* transpose: types differ */
    src = place(rnd(0, POOL_BUFFERS - 1), rows, cols, type);
    dst = place_apart(cols, rows, types[(rnd(1, 2) + (uint32_t)(type - GT_F32)) % 3], &src, 1);
    want = GT_ERR_SHAPE_MISMATCH;
    say("invalid: transpose %s into %s", type_name(src.type), type_name(dst.type));
    break;
  case 4: /* dst one word past the buffer's end */
    src = place(rnd(0, POOL_BUFFERS - 1), rows, cols, type);
    dst = place_apart(cols, rows, type, &src, 1);
    dst.offset = POOL_WORDS - span_of(dst) + 1;
    if (spans_overlap(src, dst)) dst.buffer = src.buffer == pool[0] ? pool[1] : pool[0];
    want = GT_ERR_OUT_OF_RANGE;
    say("invalid: transpose into a view past the buffer's end");
    break;
  case 5: /* dst pitch below cols */
    src = place(rnd(0, POOL_BUFFERS - 1), rows, cols, type);
    dst = place_apart(cols, rows, type, &src, 1);
    dst.pitch = dst.cols - 1;
    want = GT_ERR_INVALID_ARGUMENT;
    say("invalid: transpose into a view whose pitch is below its cols");
    break;
  case 6: /* tile not 0/8/16/32, or an unknown strategy */
    src = place(rnd(0, POOL_BUFFERS - 1), rows, cols, type);
    dst = place_apart(cols, rows, type, &src, 1);
    if (chance(50))
      td.tile = chance(50) ? 12 : 64;
    else
      td.strategy = (gt_strategy)(GT_STRATEGY_TRUNCATE_B + rnd(1, 50));
    want = GT_ERR_INVALID_ARGUMENT;
    say("invalid: transpose with strategy %d tile %u", (int)td.strategy, td.tile);
    break;
  case 7: /* a section outside its parent: a zero extent */
    src = place(rnd(0, POOL_BUFFERS - 1), rows, cols, type);
    dst = place_apart(cols, rows, type, &src, 1);
    dst = gt_section(dst, rnd(1, 5), 0, cols, rows);
    if (dst.rows != 0 || dst.cols != 0) fail("gt_section past its parent gave %ux%u", dst.rows, dst.cols);
    want = GT_ERR_INVALID_ARGUMENT;
    say("invalid: transpose into a section outside its parent");
    break;
  default: break;
  }
  if (which <= 7) {
    say_view("src", src);
    say_view("dst", dst);
    begin_range(dst.rows ? dst : src);
    fill_words(host_a, (size_t)rows * cols);
    put(src, host_a);
    s = which == 1 ? gt_copy(ctx, src, dst) : gt_transpose(ctx, src, dst, &td);
    status_is(s, want);
    check_range();
    return;
  }
  if (which <= 11) {
    /* matmul: c overlapping a or b, inner dimensions that differ, integer
     * views, TRUNCATE_A */
    uint32_t m = rnd(1, 40), n = rnd(1, 40), kk = rnd(1, 40);
    gt_type mt = which == 10 ? (chance(50) ? GT_I32 : GT_U32) : GT_F32;
    gt_view a = place(rnd(0, POOL_BUFFERS - 1), m, kk, mt);
    gt_view b = place_apart(which == 9 ? kk + 1 : kk, n, mt, &a, 1);
    gt_view ab[2] = {a, b};
    gt_view c = place_apart(m, n, mt, ab, 2);
    gt_matmul_desc md = {.strategy = GT_STRATEGY_AUTO, .alpha = 1.0f};
    if (which == 8) {
      gt_view over = chance(50) ? a : b;
      c.buffer = over.buffer;
      c.offset = index_of(over, over.rows - 1, over.cols - 1); /* c starts on its last element */
      if (c.offset + span_of(c) > POOL_WORDS)
        c.offset = over.offset >= span_of(c) ? over.offset - span_of(c) + 1 : over.offset;
      want = GT_ERR_ALIASED;
    } else if (which == 9) {
      want = GT_ERR_SHAPE_MISMATCH;
    } else if (which == 10) {
      want = GT_ERR_UNSUPPORTED;
    } else {
      md.strategy = GT_STRATEGY_TRUNCATE_A;
      want = GT_ERR_INVALID_ARGUMENT;
    }
    say("invalid matmul %d", (int)which);
    say_view("a", a);
    say_view("b", b);
    say_view("c", c);
    begin_range(c);
    fill_words(host_a, (size_t)a.rows * a.cols);
    fill_words(host_b, (size_t)b.rows * b.cols);
    put(a, host_a);
    put(b, host_b);
    s = gt_matmul(ctx, a, b, c, &md);
    status_is(s, want);
    check_range();
    return;
  }
  if (which == 12) {
    /* image windows sharing texels of one texture */
    gt_format f = formats[rnd(0, N_FORMATS - 1)];
    int fi = 0;
    while (formats[fi] != f)
      fi++;
    uint32_t R = rnd(1, 64), C = rnd(1, 64);
    gt_image si = {textures[fi][0], 0, rnd(0, TEX_SIDE - C), rnd(0, TEX_SIDE - R), C, R, f};
    gt_image di = {si.texture, 0, 0, 0, R, C, f};
    /* dst's window covers src's first texel */
    di.x = si.x - (si.x < R ? rnd(0, si.x) : rnd(0, R - 1));
    di.y = si.y - (si.y < C ? rnd(0, si.y) : rnd(0, C - 1));
    if (di.x + R > TEX_SIDE) di.x = TEX_SIDE - R;
    if (di.y + C > TEX_SIDE) di.y = TEX_SIDE - C;
    if (!gt_images_alias(si, di)) fail("gt_images_alias: overlapping windows reported apart");
    say("invalid: image transpose %s %ux%u (%u,%u) into overlapping (%u,%u)", format_name(f), R, C, si.x,
        si.y, di.x, di.y);
    begin_rect(di);
    for (size_t i = 0; i < (size_t)R * C; i++)
      texels[i] = texel(f);
    image_put(si, texels);
    s = chance(50) ? gt_image_transpose(ctx, si, di, NULL)
                   : gt_image_rotate(ctx, si, di, chance(50) ? 1 : 3, NULL);
    status_is(s, GT_ERR_ALIASED);
    check_rect();
    return;
  }
  /* 13: a user kernel given an f32 view for a uint slot */
  {
    gt_view v[3];
    v[0] = place(rnd(0, POOL_BUFFERS - 1), rows, cols, GT_U32);
    v[1] = place_apart(rows, cols, GT_U32, v, 1);
    v[2] = place_apart(rows, cols, GT_U32, v, 2);
    v[rnd(0, 2)].type = GT_F32;
    gt_uniform_value u[2];
    u[0].u = 3;
    u[1].u = 1;
    gt_dispatch_desc d = {{rows, cols}, GT_POLICY_PAD, v, u};
    say("invalid: kernel dispatch with an f32 view");
    say_view("res", v[2]);
    begin_range(v[2]);
    fill_words(host_a, (size_t)rows * cols);
    put(v[0], host_a);
    status_is(gt_kernel_dispatch(ctx, kernels[rnd(0, 1)], &d, NULL), GT_ERR_SHAPE_MISMATCH);
    check_range();
  }
}

#define N_INVALID 14

/* ------------------------------------------------------------------ */
/* The sweep: every variant once, on shapes each tile divides and on
 * shapes none does (and larger than every tile, so the truncating
 * strategies have a main section and bands).                         */

static const gt_strategy sweep_transpose[] = {GT_STRATEGY_TILED_EVEN, GT_STRATEGY_TILED_PAD,
                                              GT_STRATEGY_TRUNCATE_A, GT_STRATEGY_TRUNCATE_B};
static const gt_strategy sweep_matmul[] = {GT_STRATEGY_TILED_EVEN, GT_STRATEGY_TILED_PAD,
                                           GT_STRATEGY_TRUNCATE_B};
static const gt_strategy sweep_image[] = {GT_STRATEGY_TILED_EVEN, GT_STRATEGY_TILED_PAD};

/* Ops in each part of the sweep. Each part runs through (strategy, tile)
 * pairs: AUTO and SIMPLE, then each tiled strategy with tiles 8, 16, 32. */
enum {
  SWEEP_TRANSPOSE = 2 * (2 + 4 * 3) * 2, /* (AUTO, SIMPLE, 4 tiled x 3 tiles) x 2 shapes x in place or not */
  SWEEP_COPY = 2,
  SWEEP_MATMUL = 4 * (2 + 3 * 3) * 2, /* trans cases x (AUTO, SIMPLE, 3 x 3) x 2 shapes */
  /* AUTO on every choice of operands that may move as vec4s: trans cases
   * x (a, b, c rows aligned or not) x (M, N, K multiples of 4 or not). */
  SWEEP_VEC4 = 4 * 64,
  /* The same on c of 1 and 4 rows (the stream kernel's two row counts),
   * with a's and b's rows aligned or not, N and K multiples of 4 or not. */
  SWEEP_STREAM = 4 * 16,
  SWEEP_IMAGE = N_FORMATS * 4 * (2 + 2 * 3) * 2,
  SWEEP_KERNEL = 2 * 3 * 2,
  SWEEP_OPS = SWEEP_TRANSPOSE + SWEEP_COPY + SWEEP_MATMUL + SWEEP_VEC4 + SWEEP_STREAM + SWEEP_IMAGE + SWEEP_KERNEL
};

/* Pair i of that order. */
static void strategy_tile(uint32_t i, const gt_strategy *tiled, gt_strategy *s, uint32_t *tile) {
  if (i < 2) {
    *s = i == 0 ? GT_STRATEGY_AUTO : GT_STRATEGY_SIMPLE;
    *tile = 0;
  } else {
    *s = tiled[(i - 2) / 3];
    *tile = tiles[1 + (i - 2) % 3];
  }
}

/* AUTO on m x n x k in transpose case `trans` (bit 0 a, bit 1 b), the
 * views placed as placed_aligned says. */
static void run_auto_placed(uint32_t m, uint32_t n, uint32_t k, uint32_t trans, int aligned) {
  matmul_case q;
  memset(&q, 0, sizeof q);
  q.strategy = GT_STRATEGY_AUTO;
  q.m = m;
  q.n = n;
  q.k = k;
  q.trans_a = (int)(trans & 1);
  q.trans_b = (int)(trans >> 1);
  q.integers = 1;
  q.alpha = 1.0f;
  placed_aligned = aligned;
  run_matmul(&q);
  placed_aligned = -1;
}

static op_kind sweep_op(uint32_t i) {
  if (i < SWEEP_TRANSPOSE) {
    transpose_case k;
    uint32_t pair = i % 14, even = (i / 14) % 2;
    k.in_place = (int)(i / 28);
    strategy_tile(pair, sweep_transpose, &k.strategy, &k.tile);
    k.type = types[i % 3];
    k.rows = even ? 64 : 45;
    k.cols = even ? 64 : 37; /* 64: AUTO's 64-tile, where it has one, unguarded */
    run_transpose(&k);
    return k.in_place ? K_INPLACE : K_TRANSPOSE;
  }
  i -= SWEEP_TRANSPOSE;
  if (i < SWEEP_COPY) {
    run_copy(GT_U32, 64, 64, i == 0);
    return K_COPY;
  }
  i -= SWEEP_COPY;
  if (i < SWEEP_MATMUL) {
    matmul_case q;
    memset(&q, 0, sizeof q);
    uint32_t pair = i % 11, even = (i / 11) % 2, trans = i / 22;
    strategy_tile(pair, sweep_matmul, &q.strategy, &q.tile);
    q.m = even ? 64 : 37;
    q.n = even ? 32 : 45;
    q.k = even ? 96 : 41;
    q.trans_a = (int)(trans & 1);
    q.trans_b = (int)(trans >> 1);
    q.integers = 1;
    q.scale = (int)(i & 1);
    q.alpha = 2.0f;
    q.beta = 0.5f;
    run_matmul(&q);
    return K_MATMUL;
  }
  i -= SWEEP_MATMUL;
  if (i < SWEEP_VEC4) {
    uint32_t bits = i % 64;
    run_auto_placed(bits & 8 ? 36 : 37, bits & 16 ? 44 : 45, bits & 32 ? 40 : 41, i / 64, (int)(bits & 7));
    return K_MATMUL;
  }
  i -= SWEEP_VEC4;
  if (i < SWEEP_STREAM) {
    uint32_t bits = i % 16;
    run_auto_placed(bits & 4 ? 1 : 4, bits & 8 ? 44 : 45, bits & 8 ? 40 : 41, i / 16, (int)(bits & 3));
    return K_MATMUL;
  }
  i -= SWEEP_STREAM;
  if (i < SWEEP_IMAGE) {
    image_case k;
    uint32_t pair = i % 8, even = (i / 8) % 2, turns = (i / 16) % 4;
    k.format = formats[i / 64];
    k.turns = turns;
    strategy_tile(pair, sweep_image, &k.strategy, &k.tile);
    k.rows = even ? 64 : 45;
    k.cols = even ? 32 : 37;
    run_image(&k);
    return K_IMAGE;
  }
  i -= SWEEP_IMAGE;
  {
    kernel_case k;
    k.which = (int)(i % 2);
    k.policy = (gt_policy)((i / 2) % 3);
    k.res_is_a = (int)(i / 6);
    k.rows = 64;
    k.cols = k.policy == GT_POLICY_EXACT ? 64 : 45;
    run_kernel(&k);
    return K_KERNEL;
  }
}

static op_kind random_op(void) {
  uint32_t x = rnd(0, 99);
  if (x < 25) return random_transpose(0), K_TRANSPOSE;
  if (x < 35) return random_transpose(1), K_INPLACE;
  if (x < 45) {
    uint32_t rows = side(MAX_SIDE, 0), cols = side(MAX_SIDE, 0);
    run_copy(types[rnd(0, 2)], rows, cols, chance(30));
    return K_COPY;
  }
  if (x < 63) return random_matmul(), K_MATMUL;
  if (x < 78) return random_image(), K_IMAGE;
  if (x < 95) return random_kernel(), K_KERNEL;
  run_invalid(rnd(0, N_INVALID - 1));
  return K_INVALID;
}

static void run_op(unsigned long i, uint32_t seed) {
  op_index = i;
  what[0] = '\0';
  rng = gt_test_noise(i, seed) | 1u;
  op_kind kind = i < SWEEP_OPS ? sweep_op((uint32_t)i) : random_op();
  op_counts[kind]++;
}

/* ------------------------------------------------------------------ */
/* Live GL objects and resident memory.                               */

enum { CENSUS_KINDS = 11 };
static const char *const census_kinds[CENSUS_KINDS] = {
    "buffers",          "programs",      "shaders",  "textures",      "queries",
    "framebuffers",     "renderbuffers", "samplers", "vertex arrays", "transform feedbacks",
    "program pipelines"};

typedef struct census {
  unsigned long n[CENSUS_KINDS], total;
} census;

static census take_census(void) {
  census c;
  memset(&c, 0, sizeof c);
  for (GLuint name = 1; name <= CENSUS_NAMES; name++) {
    c.n[0] += glIsBuffer(name) == GL_TRUE;
    c.n[1] += glIsProgram(name) == GL_TRUE;
    c.n[2] += glIsShader(name) == GL_TRUE;
    c.n[3] += glIsTexture(name) == GL_TRUE;
    c.n[4] += glIsQuery(name) == GL_TRUE;
    c.n[5] += glIsFramebuffer(name) == GL_TRUE;
    c.n[6] += glIsRenderbuffer(name) == GL_TRUE;
    c.n[7] += glIsSampler(name) == GL_TRUE;
    c.n[8] += glIsVertexArray(name) == GL_TRUE;
    c.n[9] += glIsTransformFeedback(name) == GL_TRUE;
    c.n[10] += glIsProgramPipeline(name) == GL_TRUE;
  }
  for (int k = 0; k < CENSUS_KINDS; k++)
    c.total += c.n[k];
  return c;
}

static void print_census(const char *label, census c) {
  printf("%s: %lu GL objects (", label, c.total);
  int first = 1;
  for (int k = 0; k < CENSUS_KINDS; k++)
    if (c.n[k]) {
      printf("%s%lu %s", first ? "" : ", ", c.n[k], census_kinds[k]);
      first = 0;
    }
  printf(")\n");
}

/* --plant-leak: a 16 KiB buffer of data, never deleted. */
static void leak_a_buffer(void) {
  static uint32_t words[4096];
  static uint32_t n;
  n++;
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    words[i] = (uint32_t)i * 2654435761u + n;
  GLuint b = 0;
  glGenBuffers(1, &b);
  glBindBuffer(GL_COPY_WRITE_BUFFER, b);
  glBufferData(GL_COPY_WRITE_BUFFER, sizeof words, words, GL_STATIC_DRAW);
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
}

/* Resident set in KiB from /proc/self/statm; -1 without /proc. */
static long rss_kib(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  if (f == NULL) return -1;
  long size = 0, resident = 0;
  int ok = fscanf(f, "%ld %ld", &size, &resident) == 2;
  fclose(f);
  long page = sysconf(_SC_PAGESIZE);
  return ok && page > 0 ? resident * (page / 1024) : -1;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------ */

static int setup(void) {
  for (int b = 0; b < POOL_BUFFERS; b++) {
    pool[b] = gt_test_buffer(POOL_WORDS, gt_test_noise, (uint32_t)b + 1);
    if (pool[b] == 0) return 0;
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  static uint32_t init[TEX_SIDE * TEX_SIDE];
  rng = 12345;
  for (int f = 0; f < N_FORMATS; f++)
    for (int i = 0; i < 2; i++) {
      glGenTextures(1, &textures[f][i]);
      glBindTexture(GL_TEXTURE_2D, textures[f][i]);
      glTexStorage2D(GL_TEXTURE_2D, 1, io_of(formats[f]).internal, TEX_SIDE, TEX_SIDE);
      for (size_t t = 0; t < TEX_SIDE * TEX_SIDE; t++)
        init[t] = texel(formats[f]);
      tex_put(textures[f][i], formats[f], 0, 0, TEX_SIDE, TEX_SIDE, init);
    }
  glGenFramebuffers(1, &fbo);
  for (int k = 0; k < 2; k++) {
    gt_kernel_desc d;
    memset(&d, 0, sizeof d);
    d.body = kernel_body;
    d.tile_rows = kernel_tile[k][0];
    d.tile_cols = kernel_tile[k][1];
    d.view_count = 3;
    d.views[0] = (gt_kernel_view){"a", GT_U32, GT_ACCESS_READ};
    d.views[1] = (gt_kernel_view){"b", GT_U32, GT_ACCESS_READ};
    d.views[2] = (gt_kernel_view){"res", GT_U32, GT_ACCESS_WRITE};
    d.uniform_count = 2;
    d.uniforms[0] = (gt_kernel_uniform){"mul", GT_UNIFORM_UINT};
    d.uniforms[1] = (gt_kernel_uniform){"add", GT_UNIFORM_UINT};
    gt_status s = gt_kernel_create(ctx, &d, &kernels[k]);
    if (s != GT_OK) {
      fprintf(stderr, "gt_kernel_create %d: %s\n", k, gt_status_string(s));
      return 0;
    }
  }
  GLenum e = glGetError();
  if (e != GL_NO_ERROR) fprintf(stderr, "setting up: GL error 0x%04x\n", (unsigned)e);
  return e == GL_NO_ERROR;
}

static void teardown(void) {
  for (int k = 0; k < 2; k++)
    gt_kernel_destroy(ctx, kernels[k]);
  glDeleteFramebuffers(1, &fbo);
  for (int f = 0; f < N_FORMATS; f++)
    glDeleteTextures(2, textures[f]);
  glDeleteBuffers(POOL_BUFFERS, pool);
}

static unsigned long arg_number(const char *s) { return strtoul(s, NULL, 0); }

int main(int argc, char **argv) {
  unsigned long ops = 3000, warmup = 1000, sample = 1000, only = 0;
  unsigned long rss_bound = 8 * 1024;
  uint32_t seed = 1;
  int replay = 0, plant_leak = 0;
  for (int i = 1; i < argc; i++) {
    int more = i + 1 < argc;
    if (strcmp(argv[i], "--ops") == 0 && more)
      ops = arg_number(argv[++i]);
    else if (strcmp(argv[i], "--seed") == 0 && more)
      seed = (uint32_t)arg_number(argv[++i]);
    else if (strcmp(argv[i], "--warmup") == 0 && more)
      warmup = arg_number(argv[++i]);
    else if (strcmp(argv[i], "--sample") == 0 && more)
      sample = arg_number(argv[++i]);
    else if (strcmp(argv[i], "--rss-bound-kib") == 0 && more)
      rss_bound = arg_number(argv[++i]);
    else if (strcmp(argv[i], "--only") == 0 && more)
      only = arg_number(argv[++i]), replay = 1;
    else if (strcmp(argv[i], "--plant-leak") == 0)
      plant_leak = 1;
    else if ((strcmp(argv[i], "--max-dispatch-bytes") == 0 || strcmp(argv[i], "--staging-bytes") == 0 ||
              strcmp(argv[i], "--program-slots") == 0) &&
             more)
      i++; /* the harness reads them */
    else if (strcmp(argv[i], "--min-limits") != 0) {
      fprintf(stderr,
              "usage: %s [--min-limits] [--ops N] [--seed S] [--warmup W] [--sample K] [--rss-bound-kib B] "
              "[--only I] [--plant-leak] [--max-dispatch-bytes N] [--staging-bytes N] [--program-slots N]\n",
              argv[0]);
      return 2;
    }
  }
  if (sample == 0) sample = 1000;
  if (warmup < SWEEP_OPS) warmup = SWEEP_OPS;

  gt_test_env env;
  int rc = gt_test_open(argc, argv, &env);
  if (rc != 0) return rc;
  ctx = env.ctx;
  default_tile = gt_context_default_tile(ctx);
  if (!setup()) {
    gt_test_close(&env);
    return 1;
  }
  printf("seed %u, %lu ops, warm-up %lu (a sweep of %d variants first), default tile %u, auto %s\n",
         (unsigned)seed, ops, warmup, SWEEP_OPS, (unsigned)default_tile,
         gt_strategy_name(gt_context_auto_strategy(ctx)));
  fflush(stdout);

  if (replay) {
    run_op(only, seed);
    printf("op %lu [%s]: %s\n", only, what, failures ? "FAILED" : "ok");
    teardown();
    gt_test_close(&env);
    return failures ? 1 : 0;
  }

  census base = {{0}, 0}, last = {{0}, 0};
  long rss_base = -1, rss_mid = -1, rss_last = -1, rss_max = -1, blocks_base = 0;
  int measured = 0, objects_flat = 1, blocks_flat = 1, rss_flat = 1;
  unsigned long mid = warmup + (ops > warmup ? (ops - warmup) / 2 : 0);
  double t0 = now_s(), t_base = t0;
  for (unsigned long i = 0; i < ops; i++) {
    run_op(i, seed);
    unsigned long done = i + 1;
    if (plant_leak && done > warmup) leak_a_buffer();
    int at_base = done == warmup, at_mid = done > warmup && done == mid;
    int at_sample = done > warmup && ((done - warmup) % sample == 0 || done == ops || at_mid);
    if (!at_base && !at_sample) continue;
    gt_finish(ctx);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) fail("GL error 0x%04x by op %lu", (unsigned)e, i);
    last = take_census();
    rss_last = rss_kib();
    if (rss_last > rss_max) rss_max = rss_last;
    if (at_mid) rss_mid = rss_last;
    if (at_base) {
      base = last;
      rss_base = rss_last;
      blocks_base = gt_test_live_blocks();
      measured = 1;
      t_base = now_s();
      print_census("after warm-up", base);
      printf("after warm-up: RSS %ld KiB, %.1f s\n", rss_base, t_base - t0);
    } else {
      printf("op %lu: %lu GL objects, RSS %ld KiB (%+ld), %lu failures, %.1f s\n", done, last.total, rss_last,
             rss_last - rss_base, failures, now_s() - t0);
    }
    fflush(stdout);
  }
  double t_end = now_s();

  int rss_checked = 0;
  if (measured && ops > warmup) {
    for (int k = 0; k < CENSUS_KINDS; k++)
      if (last.n[k] != base.n[k]) {
        fprintf(stderr, "%s: %s after warm-up %lu, at the end %lu\n", plant_leak ? "caught" : "FAILED",
                census_kinds[k], base.n[k], last.n[k]);
        objects_flat = 0;
      }
    print_census("at the end", last);
    long blocks = gt_test_live_blocks();
    if (blocks != blocks_base) {
      fprintf(stderr, "FAILED: the library's host blocks after warm-up %ld, at the end %ld\n", blocks_base,
              blocks);
      blocks_flat = 0;
    }
    long first_half = rss_mid - rss_base, second_half = rss_last - rss_mid;
    if (rss_base < 0) {
      printf("no /proc/self/statm: resident memory not checked\n");
    } else if (UNDER_ASAN) {
      /* Its quarantine holds freed blocks (256 MiB by default) and its
       * leak checker covers what this bound is for. */
      printf("under AddressSanitizer: resident memory not bounded (%ld KiB grown)\n", rss_last - rss_base);
    } else {
      rss_checked = 1;
      if (first_half >= (long)rss_bound / 2 && second_half >= (long)rss_bound / 2) {
        fprintf(stderr, "%s: RSS grew %ld KiB and then %ld KiB (from %ld to %ld KiB, peak %ld), bound %lu KiB "
                "a half\n", plant_leak ? "caught" : "FAILED", first_half, second_half, rss_base, rss_last,
                rss_max, rss_bound / 2);
        rss_flat = 0;
      }
    }
  } else {
    printf("fewer ops than the warm-up: objects and memory not checked\n");
  }

  printf("soak: %lu ops in %.1f s (%.0f ops/s after warm-up):", ops, t_end - t0,
         ops > warmup && t_end > t_base ? (double)(ops - warmup) / (t_end - t_base) : 0.0);
  for (int k = 0; k < K_COUNT; k++)
    printf(" %s %lu%s", kind_names[k], op_counts[k], k + 1 < K_COUNT ? "," : ";");
  printf(" %lu failures; GL objects %lu -> %lu; RSS %ld -> %ld -> %ld KiB (peak %ld, bound +%lu a half)\n",
         failures, base.total, last.total, rss_base, rss_mid, rss_last, rss_max, rss_bound / 2);

  teardown();
  gt_test_close(&env);
  if (plant_leak) {
    int caught = !objects_flat && (!rss_checked || !rss_flat);
    printf("planted leak: %s by the GL objects, %s by RSS\n", objects_flat ? "missed" : "caught",
           !rss_checked ? "not checked" : rss_flat ? "missed" : "caught");
    return failures || !blocks_flat || !caught ? 1 : 0;
  }
  return failures || !objects_flat || !blocks_flat || !rss_flat ? 1 : 0;
}
