/* User kernels: results under each extent policy on uneven extents and
 * sections (guard words checked), every uniform type, the choice between
 * the aliased and the non-aliased program, and every refused call. */
#include "check.h"
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gt_context *ctx;
static uint32_t rng = 99;

/* out = a * scale + b + bias_i + bias_u + shift.x + shift.w, elementwise,
 * guarded so PAD's extra invocations do nothing. */
static const char axpb_body[] = "void main() {\n"
                                "  uvec2 g = gt_global();\n"
                                "  if (gt_in_domain(g)) {\n"
                                "    float v = a_read(g) * scale + b_read(g);\n"
                                "    res_write(g, v + float(bias_i) + float(bias_u) + shift.x + shift.w);\n"
                                "  }\n"
                                "}\n";

static gt_kernel_desc axpb_desc(uint32_t tile_rows, uint32_t tile_cols) {
  gt_kernel_desc d;
  memset(&d, 0, sizeof d);
  d.body = axpb_body;
  d.tile_rows = tile_rows;
  d.tile_cols = tile_cols;
  d.view_count = 3;
  d.views[0] = (gt_kernel_view){"a", GT_F32, GT_ACCESS_READ};
  d.views[1] = (gt_kernel_view){"b", GT_F32, GT_ACCESS_READ};
  d.views[2] = (gt_kernel_view){"res", GT_F32, GT_ACCESS_WRITE};
  d.uniform_count = 4;
  d.uniforms[0] = (gt_kernel_uniform){"scale", GT_UNIFORM_FLOAT};
  d.uniforms[1] = (gt_kernel_uniform){"bias_i", GT_UNIFORM_INT};
  d.uniforms[2] = (gt_kernel_uniform){"bias_u", GT_UNIFORM_UINT};
  d.uniforms[3] = (gt_kernel_uniform){"shift", GT_UNIFORM_VEC4};
  return d;
}

/* Small integers in floats: every sum below is exact. */
static uint32_t small_float(size_t i, uint32_t seed) {
  float f = (float)(int)(gt_test_noise(i, seed) % 201) - 100.0f;
  uint32_t w;
  memcpy(&w, &f, 4);
  return w;
}

static float word_float(uint32_t w) {
  float f;
  memcpy(&f, &w, 4);
  return f;
}

/* One dispatch of axpb over rows x cols inside buffers with guard words around. */
static void run_axpb(gt_kernel_id k, uint32_t tr, uint32_t tc, gt_policy policy, uint32_t rows,
                     uint32_t cols) {
  uint32_t guard = gt_test_rand_range(&rng, 0, 9), extra = gt_test_rand_range(&rng, 0, 4);
  uint32_t pitch = cols + extra, seed = gt_test_rand(&rng);
  size_t words = 2 * (size_t)guard + (size_t)(rows - 1) * pitch + cols;
  GLuint ba = gt_test_buffer(words, small_float, seed), bb = gt_test_buffer(words, small_float, seed + 1),
         bo = gt_test_buffer(words, gt_test_poison, seed);
  gt_view views[3] = {{ba, guard, rows, cols, pitch, GT_F32},
                      {bb, guard, rows, cols, pitch, GT_F32},
                      {bo, guard, rows, cols, pitch, GT_F32}};
  gt_uniform_value u[4];
  memset(u, 0, sizeof u);
  u[0].f = 3.0f;
  u[1].i = -7;
  u[2].u = 5;
  u[3].v4[0] = 0.5f, u[3].v4[3] = 0.25f;
  gt_dispatch_desc d = {{rows, cols}, policy, views, u};
  gt_dispatch_result res;
  gt_status s = gt_kernel_dispatch(ctx, k, &d, &res);
  bool uneven = rows % tr || cols % tc;
  gt_status want = policy == GT_POLICY_EXACT && uneven ? GT_ERR_SHAPE_MISMATCH : GT_OK;
  CHECK_STATUS(s, want);
  /* What the dispatch covered: everything, or TRUNCATE's whole tiles. */
  uint32_t mr = policy == GT_POLICY_TRUNCATE ? rows / tr * tr : rows;
  uint32_t mc = policy == GT_POLICY_TRUNCATE ? cols / tc * tc : cols;
  if (s == GT_OK) {
    CHECK_EQ_U(res.main.rows, mr);
    CHECK_EQ_U(res.main.cols, mc);
    bool has_bottom = mr < rows && mc > 0, has_right = mc < cols;
    CHECK_EQ_U(res.bottom.rows, has_bottom ? rows - mr : 0);
    CHECK_EQ_U(res.bottom.cols, has_bottom ? mc : 0);
    CHECK_EQ_U(res.right.rows, has_right ? rows : 0);
    CHECK_EQ_U(res.right.cols, has_right ? cols - mc : 0);
  }
  uint32_t *got = malloc(words * 4);
  bool ok = gt_test_read_all(ctx, bo, words, got) == 0;
  for (size_t i = 0; i < words && ok; i++) {
    uint32_t want_word = gt_test_poison(i, seed);
    if (i >= guard && s == GT_OK) {
      uint32_t r = (uint32_t)((i - guard) / pitch), c = (uint32_t)((i - guard) % pitch);
      if (r < mr && c < mc) {
        float v =
            word_float(small_float(i, seed)) * 3.0f + word_float(small_float(i, seed + 1)) - 7 + 5 + 0.75f;
        memcpy(&want_word, &v, 4);
      }
    }
    ok = got[i] == want_word;
    if (!ok) fprintf(stderr, "  word %zu: got %08x, want %08x\n", i, got[i], want_word);
  }
  CHECK(ok);
  if (!ok) fprintf(stderr, "FAILED: axpb %ux%u tile %ux%u policy %d\n", rows, cols, tr, tc, (int)policy);
  free(got);
  glDeleteBuffers(1, &ba);
  glDeleteBuffers(1, &bb);
  glDeleteBuffers(1, &bo);
}

static void test_policies(void) {
  static const uint32_t tiles[][2] = {{8, 8}, {4, 16}, {16, 8}};
  static const uint32_t shapes[][2] = {{1, 1}, {16, 16}, {17, 33}, {64, 48}, {3, 100}, {100, 3}};
  for (size_t t = 0; t < 3; t++) {
    gt_kernel_desc d = axpb_desc(tiles[t][0], tiles[t][1]);
    gt_kernel_id k = 0;
    CHECK_STATUS(gt_kernel_create(ctx, &d, &k), GT_OK);
    CHECK(k != 0);
    for (size_t s = 0; s < 6; s++)
      for (int p = GT_POLICY_EXACT; p <= GT_POLICY_TRUNCATE; p++)
        run_axpb(k, tiles[t][0], tiles[t][1], (gt_policy)p, shapes[s][0], shapes[s][1]);
    gt_kernel_destroy(ctx, k);
  }
}

/* The aliased program is chosen, and says so, exactly when a written view
 * overlaps another bound view. */
static unsigned aliased_messages;
static void count_aliased(int level, const char *msg, void *user) {
  (void)user;
  if (level == GT_LOG_DEBUG && strstr(msg, "aliased variant")) aliased_messages++;
}

static void test_aliasing(bool min_limits) {
  gt_context_desc cd;
  memset(&cd, 0, sizeof cd);
  cd.logger.log = count_aliased;
  cd.min_limits = min_limits;
  gt_context *logged = NULL;
  CHECK_STATUS(gt_context_init(NULL, 0, &cd, &logged), GT_OK);
  if (logged == NULL) return;
  /* y = 2 x, x and y as separate slots: bound to one view it doubles in
   * place, which a sequential reading of the kernel gives too (each
   * invocation reads and writes only its own element). */
  gt_kernel_desc d;
  memset(&d, 0, sizeof d);
  d.body = "void main() { uvec2 g = gt_global(); if (gt_in_domain(g)) y_write(g, x_read(g) * 2.0); }\n";
  d.tile_rows = d.tile_cols = 8;
  d.view_count = 2;
  d.views[0] = (gt_kernel_view){"x", GT_F32, GT_ACCESS_READ};
  d.views[1] = (gt_kernel_view){"y", GT_F32, GT_ACCESS_WRITE};
  gt_kernel_id k = 0;
  CHECK_STATUS(gt_kernel_create(logged, &d, &k), GT_OK);
  size_t n = 37 * 29;
  GLuint a = gt_test_buffer(n, small_float, 3), b = gt_test_buffer(n, small_float, 4);
  gt_view va = {a, 0, 37, 29, 0, GT_F32}, vb = {b, 0, 37, 29, 0, GT_F32};

  gt_view distinct[2] = {va, vb};
  gt_dispatch_desc dd = {{37, 29}, GT_POLICY_PAD, distinct, NULL};
  CHECK_STATUS(gt_kernel_dispatch(logged, k, &dd, NULL), GT_OK);
  CHECK_EQ_U(aliased_messages, 0);

  gt_view same[2] = {va, va};
  dd.views = same;
  CHECK_STATUS(gt_kernel_dispatch(logged, k, &dd, NULL), GT_OK);
  CHECK_EQ_U(aliased_messages, 1);
  uint32_t *got = malloc(n * 4);
  bool ok = gt_test_read_all(logged, a, n, got) == 0;
  for (size_t i = 0; i < n && ok; i++)
    ok = word_float(got[i]) == 2.0f * word_float(small_float(i, 3));
  CHECK(ok);

  /* Read-read overlap is not aliasing: a and b of axpb the same view. */
  gt_kernel_desc ad = axpb_desc(8, 8);
  gt_kernel_id axpb = 0;
  CHECK_STATUS(gt_kernel_create(logged, &ad, &axpb), GT_OK);
  gt_view rr[3] = {vb, vb, va};
  gt_uniform_value u[4];
  memset(u, 0, sizeof u);
  u[0].f = 1.0f;
  gt_dispatch_desc rd = {{37, 29}, GT_POLICY_PAD, rr, u};
  CHECK_STATUS(gt_kernel_dispatch(logged, axpb, &rd, NULL), GT_OK);
  CHECK_EQ_U(aliased_messages, 1);
  ok = gt_test_read_all(logged, a, n, got) == 0;
  /* b holds 2 x (a as it was) from the first dispatch: res = b + b. */
  for (size_t i = 0; i < n && ok; i++)
    ok = word_float(got[i]) == 4.0f * word_float(small_float(i, 3));
  CHECK(ok);
  free(got);
  glDeleteBuffers(1, &a);
  glDeleteBuffers(1, &b);
  gt_context_release(logged);
}

/* Compile errors reach the logger with the body's own line numbers. */
static char last_error[4096];
static void keep_error(int level, const char *msg, void *user) {
  (void)user;
  if (level == GT_LOG_ERROR) snprintf(last_error, sizeof last_error, "%s", msg);
}

static void test_refusals(bool min_limits) {
  gt_context_desc cd;
  memset(&cd, 0, sizeof cd);
  cd.logger.log = keep_error;
  cd.min_limits = min_limits;
  gt_context *c = NULL;
  CHECK_STATUS(gt_context_init(NULL, 0, &cd, &c), GT_OK);
  if (c == NULL) return;
  gt_kernel_id k = 0;
  gt_kernel_desc d = axpb_desc(8, 8);
  CHECK_STATUS(gt_kernel_create(NULL, &d, &k), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_kernel_create(c, NULL, &k), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_kernel_create(c, &d, NULL), GT_ERR_INVALID_ARGUMENT);
  static const char *const bad_names[] = {
      "", "gt_a", "gl_a", "1a", "a-b", "a__b", "abcdefghijklmnopqrstuvwxyz012345"};
  for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++) {
    gt_kernel_desc e = axpb_desc(8, 8);
    e.views[0].name = bad_names[i];
    CHECK_STATUS(gt_kernel_create(c, &e, &k), GT_ERR_INVALID_ARGUMENT);
    CHECK(k == 0);
  }
  gt_kernel_desc e = axpb_desc(8, 8);
  e.uniforms[0].name = "a"; /* the name of a view */
  CHECK_STATUS(gt_kernel_create(c, &e, &k), GT_ERR_INVALID_ARGUMENT);
  e = axpb_desc(8, 8), e.views[1].name = NULL;
  CHECK_STATUS(gt_kernel_create(c, &e, &k), GT_ERR_INVALID_ARGUMENT);
  e = axpb_desc(8, 8), e.views[1].type = (gt_type)9;
  CHECK_STATUS(gt_kernel_create(c, &e, &k), GT_ERR_INVALID_ARGUMENT);
  e = axpb_desc(8, 8), e.views[1].access = (gt_access)0;
  CHECK_STATUS(gt_kernel_create(c, &e, &k), GT_ERR_INVALID_ARGUMENT);
  e = axpb_desc(8, 8), e.uniforms[1].type = (gt_uniform_type)7;
  CHECK_STATUS(gt_kernel_create(c, &e, &k), GT_ERR_INVALID_ARGUMENT);
  e = axpb_desc(8, 8), e.view_count = GT_KERNEL_MAX_VIEWS + 1;
  CHECK_STATUS(gt_kernel_create(c, &e, &k), GT_ERR_INVALID_ARGUMENT);
  e = axpb_desc(8, 8), e.body = "";
  CHECK_STATUS(gt_kernel_create(c, &e, &k), GT_ERR_INVALID_ARGUMENT);
  /* Beyond the device: a 64 x 64 group; under the ES 3.1 minimums also
   * 16 x 16 (256 invocations) and 5 views (4 storage blocks). */
  e = axpb_desc(64, 64);
  CHECK_STATUS(gt_kernel_create(c, &e, &k), GT_ERR_UNSUPPORTED);
  gt_kernel_desc five;
  memset(&five, 0, sizeof five);
  five.body = "void main() {}\n";
  five.view_count = 5;
  const char *names[] = {"v0", "v1", "v2", "v3", "v4"};
  for (int i = 0; i < 5; i++)
    five.views[i] = (gt_kernel_view){names[i], GT_F32, GT_ACCESS_READ};
  five.tile_rows = five.tile_cols = 8;
  gt_limits lim = gt_context_limits(c);
  gt_status want_five = lim.max_storage_blocks < 5 ? GT_ERR_UNSUPPORTED : GT_OK;
  CHECK_STATUS(gt_kernel_create(c, &five, &k), want_five);
  if (k) gt_kernel_destroy(c, k);
  e = axpb_desc(16, 16);
  CHECK_STATUS(gt_kernel_create(c, &e, &k), lim.max_invocations < 256 ? GT_ERR_UNSUPPORTED : GT_OK);
  if (k) gt_kernel_destroy(c, k);

  /* barrier() after an early return in main(): refused before compiling;
   * returns in other functions, and after the last barrier, are fine. */
  e = axpb_desc(8, 8);
  e.body = "shared float t[8][8];\nvoid main() {\n  uvec2 g = gt_global();\n"
           "  if (!gt_in_domain(g)) return;\n  barrier();\n  res_write(g, 1.0);\n}\n";
  CHECK_STATUS(gt_kernel_create(c, &e, &k), GT_ERR_INVALID_ARGUMENT);
  e.body = "float one() { return 1.0; }\nvoid main() {\n  uvec2 g = gt_global();\n  barrier();\n"
           "  if (!gt_in_domain(g)) return;\n  res_write(g, one());\n}\n";
  CHECK_STATUS(gt_kernel_create(c, &e, &k), GT_OK);
  if (k) gt_kernel_destroy(c, k);

  /* A body that does not compile: GT_ERR_SHADER_BUILD, and the log points
   * at the body's line 3. */
  e = axpb_desc(8, 8);
  e.body = "void main() {\n  uvec2 g = gt_global();\n  undefined_function(g);\n}\n";
  last_error[0] = '\0';
  CHECK_STATUS(gt_kernel_create(c, &e, &k), GT_ERR_SHADER_BUILD);
  CHECK(k == 0);
  /* Drivers write it their own way: Mesa "0:3(2)" for this error (the
   * source number is lost in a later pass) and "2:3(..)" for syntax
   * errors, NVIDIA "2(3)". The line must be 3. */
  bool line3 = strstr(last_error, ":3(") || strstr(last_error, ":3:") || strstr(last_error, "2(3)");
  CHECK(line3);
  if (!line3) fprintf(stderr, "  log: %s\n", last_error);

  /* The table holds 16 kernels; a 17th is refused; destroy frees a slot. */
  gt_kernel_id ids[16];
  e = axpb_desc(8, 8);
  for (int i = 0; i < 16; i++)
    CHECK_STATUS(gt_kernel_create(c, &e, &ids[i]), GT_OK);
  CHECK_STATUS(gt_kernel_create(c, &e, &k), GT_ERR_OUT_OF_MEMORY);
  gt_kernel_destroy(c, ids[5]);
  CHECK_STATUS(gt_kernel_create(c, &e, &k), GT_OK);
  /* The freed slot's new kernel has an id of its own: no two alike. */
  for (int i = 0; i < 16; i++)
    CHECK(k != ids[i]);

  /* Dispatch refusals, with the output left as it was. */
  GLuint a = gt_test_buffer(64, small_float, 1), o = gt_test_buffer(64, gt_test_poison, 2);
  gt_view v[3] = {{a, 0, 8, 8, 0, GT_F32}, {a, 0, 8, 8, 0, GT_F32}, {o, 0, 8, 8, 0, GT_F32}};
  gt_uniform_value u[4];
  memset(u, 0, sizeof u);
  gt_dispatch_desc dd = {{8, 8}, GT_POLICY_EXACT, v, u};
  CHECK_STATUS(gt_kernel_dispatch(NULL, k, &dd, NULL), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_kernel_dispatch(c, k, NULL, NULL), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_kernel_dispatch(c, 0, &dd, NULL), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_kernel_dispatch(c, 999, &dd, NULL), GT_ERR_INVALID_ARGUMENT);
  gt_dispatch_desc bad = dd;
  bad.extent.rows = 0;
  CHECK_STATUS(gt_kernel_dispatch(c, k, &bad, NULL), GT_ERR_INVALID_ARGUMENT);
  bad = dd, bad.policy = (gt_policy)7;
  CHECK_STATUS(gt_kernel_dispatch(c, k, &bad, NULL), GT_ERR_INVALID_ARGUMENT);
  bad = dd, bad.views = NULL;
  CHECK_STATUS(gt_kernel_dispatch(c, k, &bad, NULL), GT_ERR_INVALID_ARGUMENT);
  bad = dd, bad.uniforms = NULL;
  CHECK_STATUS(gt_kernel_dispatch(c, k, &bad, NULL), GT_ERR_INVALID_ARGUMENT);
  bad = dd, bad.extent = (gt_extent){9, 8};
  CHECK_STATUS(gt_kernel_dispatch(c, k, &bad, NULL), GT_ERR_SHAPE_MISMATCH);
  gt_view wrong_type[3] = {v[0], v[1], v[2]};
  wrong_type[2].type = GT_U32;
  bad = dd, bad.views = wrong_type;
  CHECK_STATUS(gt_kernel_dispatch(c, k, &bad, NULL), GT_ERR_SHAPE_MISMATCH);
  gt_view past[3] = {v[0], v[1], v[2]};
  past[2].offset = 1; /* one element past the 64-word buffer */
  bad = dd, bad.views = past;
  CHECK_STATUS(gt_kernel_dispatch(c, k, &bad, NULL), GT_ERR_OUT_OF_RANGE);
  uint32_t back[64];
  bool same = gt_test_read_all(c, o, 64, back) == 0;
  for (int i = 0; i < 64 && same; i++)
    same = back[i] == gt_test_poison((size_t)i, 2);
  CHECK(same);
  glDeleteBuffers(1, &a);
  glDeleteBuffers(1, &o);
  gt_context_release(c);
}

/* A kernel that writes one constant over its domain. */
static gt_kernel_desc constant_desc(const char *body) {
  gt_kernel_desc d;
  memset(&d, 0, sizeof d);
  d.body = body;
  d.tile_rows = d.tile_cols = 8;
  d.view_count = 1;
  d.views[0] = (gt_kernel_view){"res", GT_F32, GT_ACCESS_WRITE};
  return d;
}

/* Whether every word of an 8 x 8 buffer is the poison word of seed, or
 * (poison false) the float `value`. */
static bool buffer_holds(GLuint buffer, bool poison, float value, uint32_t seed) {
  uint32_t back[64];
  bool same = gt_test_read_all(ctx, buffer, 64, back) == 0;
  for (int i = 0; i < 64 && same; i++)
    same = poison ? back[i] == gt_test_poison((size_t)i, seed) : word_float(back[i]) == value;
  return same;
}

/* An id kept past gt_kernel_destroy names no kernel: create A, destroy A,
 * create B in the slot A had; A's id is refused (and writes nothing) while
 * B's runs B. An id of another context is refused too, and destroying a
 * stale id leaves B alone. */
static void test_stale_ids(void) {
  static const char one[] = "void main() { uvec2 g = gt_global(); if (gt_in_domain(g)) res_write(g, 1.0); }\n";
  static const char two[] = "void main() { uvec2 g = gt_global(); if (gt_in_domain(g)) res_write(g, 2.0); }\n";
  gt_kernel_desc da = constant_desc(one), db = constant_desc(two);
  gt_kernel_id a = 0, b = 0, other_id = 0;
  CHECK_STATUS(gt_kernel_create(ctx, &da, &a), GT_OK);
  gt_kernel_destroy(ctx, a);
  CHECK_STATUS(gt_kernel_create(ctx, &db, &b), GT_OK);
  CHECK(a != 0 && b != 0 && a != b);
  GLuint o = gt_test_buffer(64, gt_test_poison, 5);
  gt_view v = {o, 0, 8, 8, 0, GT_F32};
  gt_dispatch_desc dd = {{8, 8}, GT_POLICY_EXACT, &v, NULL};
  CHECK_STATUS(gt_kernel_dispatch(ctx, a, &dd, NULL), GT_ERR_INVALID_ARGUMENT);
  CHECK(buffer_holds(o, true, 0.0f, 5));
  gt_kernel_destroy(ctx, a); /* stale: a no-op */
  CHECK_STATUS(gt_kernel_dispatch(ctx, b, &dd, NULL), GT_OK);
  CHECK(buffer_holds(o, false, 2.0f, 5));

  gt_context_desc cd;
  memset(&cd, 0, sizeof cd);
  gt_context *other = NULL;
  CHECK_STATUS(gt_context_init(NULL, 0, &cd, &other), GT_OK);
  if (other) {
    CHECK_STATUS(gt_kernel_create(other, &da, &other_id), GT_OK);
    CHECK(other_id != b);
    CHECK_STATUS(gt_kernel_dispatch(ctx, other_id, &dd, NULL), GT_ERR_INVALID_ARGUMENT);
    CHECK(buffer_holds(o, false, 2.0f, 5));
    gt_kernel_destroy(other, other_id);
    gt_context_release(other);
  }
  gt_kernel_destroy(ctx, b);
  CHECK_STATUS(gt_kernel_dispatch(ctx, b, &dd, NULL), GT_ERR_INVALID_ARGUMENT);
  glDeleteBuffers(1, &o);
}

/* ------------------------------------------------------------------ */
/* Kernels reach their own views only.                                 */

static bool min_limits_run;

/* A context whose logger keeps the last error, for the refusal ids. */
static gt_context *logged_context(void) {
  gt_context_desc cd;
  memset(&cd, 0, sizeof cd);
  cd.logger.log = keep_error;
  cd.min_limits = min_limits_run;
  gt_context *c = NULL;
  CHECK_STATUS(gt_context_init(NULL, 0, &cd, &c), GT_OK);
  return c;
}

/* x READ, y WRITE, z READ_WRITE (all f32) and a float uniform k, tile 8 x 8. */
static gt_kernel_desc xyz_desc(const char *body) {
  gt_kernel_desc d;
  memset(&d, 0, sizeof d);
  d.body = body;
  d.tile_rows = d.tile_cols = 8;
  d.view_count = 3;
  d.views[0] = (gt_kernel_view){"x", GT_F32, GT_ACCESS_READ};
  d.views[1] = (gt_kernel_view){"y", GT_F32, GT_ACCESS_WRITE};
  d.views[2] = (gt_kernel_view){"z", GT_F32, GT_ACCESS_READ_WRITE};
  d.uniform_count = 1;
  d.uniforms[0] = (gt_kernel_uniform){"k", GT_UNIFORM_FLOAT};
  return d;
}

/* Creates d, which must be refused with GT_ERR_INVALID_ARGUMENT and a log
 * line naming the check `id`. Returns the kernel when it was made after
 * all (0 when refused), so the caller can show what it would touch. */
static gt_kernel_id expect_refused(gt_context *c, const gt_kernel_desc *d, const char *id) {
  gt_kernel_id k = 0;
  last_error[0] = '\0';
  gt_status s = gt_kernel_create(c, d, &k);
  CHECK_STATUS(s, GT_ERR_INVALID_ARGUMENT);
  char want[64];
  snprintf(want, sizeof want, "(%s)", id);
  bool named = strstr(last_error, want) != NULL;
  CHECK(named);
  if (s != GT_ERR_INVALID_ARGUMENT || !named)
    fprintf(stderr, "  body or name refused for %s:\n%s\n  got %s, log: %s\n", id, d->body,
            gt_status_string(s), last_error);
  return s == GT_OK ? k : 0;
}

/* Whether buffer holds words [0, n) as want says. */
static bool buffer_words(gt_context *c, GLuint buffer, size_t n, uint32_t (*want)(size_t i, uint32_t seed),
                         uint32_t seed) {
  uint32_t got[256];
  bool same = n <= 256 && gt_test_read_all(c, buffer, n, got) == 0;
  for (size_t i = 0; i < n && same; i++) {
    same = got[i] == want(i, seed);
    if (!same) fprintf(stderr, "  word %zu: %08x, want %08x\n", i, got[i], want(i, seed));
  }
  return same;
}

/* A body may not declare a storage block of its own. The two found at
 * work: one over slot 2, where an earlier gt_matmul left the
 * application's c bound, and one over slot 0, where a gt_write of
 * unaligned bytes left the context's staging buffer bound while a
 * read-back waited in it. Both are refused; were either made, it is
 * dispatched, and c and the read-back are checked byte for byte. */
static void test_foreign_bindings(void) {
  gt_context *c = logged_context();
  if (c == NULL) return;
  GLuint a = gt_test_buffer(64, small_float, 1), b = gt_test_buffer(64, small_float, 2),
         cc = gt_test_buffer(64, gt_test_poison, 3), x = gt_test_buffer(64, small_float, 4),
         y = gt_test_buffer(64, gt_test_poison, 5);
  gt_view va = {a, 0, 8, 8, 0, GT_F32}, vb = {b, 0, 8, 8, 0, GT_F32}, vc = {cc, 0, 8, 8, 0, GT_F32};
  CHECK_STATUS(gt_matmul(c, va, vb, vc, NULL), GT_OK);
  uint32_t product[64];
  CHECK(gt_test_read_all(c, cc, 64, product) == 0);
  GLint at2 = 0;
  glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, 2, &at2);
  /* Where the product's kernel used another slot, the application's own
   * binding puts c there. */
  if ((GLuint)at2 != cc) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, cc);

  gt_kernel_desc d;
  memset(&d, 0, sizeof d);
  d.body = "layout(std430, binding = 2) buffer evil_block { uint evil[]; };\n"
           "void main() {\n"
           "  uvec2 g = gt_global();\n"
           "  if (gt_in_domain(g)) { y_write(g, x_read(g)); evil[g.x * 8u + g.y] = 0xDEADBEEFu; }\n"
           "}\n";
  d.tile_rows = d.tile_cols = 8;
  d.view_count = 2;
  d.views[0] = (gt_kernel_view){"x", GT_F32, GT_ACCESS_READ};
  d.views[1] = (gt_kernel_view){"y", GT_F32, GT_ACCESS_WRITE};
  gt_kernel_id k = expect_refused(c, &d, "MEMORY");
  if (k) {
    gt_view v[2] = {{x, 0, 8, 8, 0, GT_F32}, {y, 0, 8, 8, 0, GT_F32}};
    gt_dispatch_desc dd = {{8, 8}, GT_POLICY_EXACT, v, NULL};
    gt_kernel_dispatch(c, k, &dd, NULL);
    gt_kernel_destroy(c, k);
  }
  uint32_t after[64];
  CHECK(gt_test_read_all(c, cc, 64, after) == 0 && memcmp(after, product, sizeof after) == 0);

  /* Unaligned bytes go in through the staging buffer and the copy kernel;
   * then a read-back waits in the staging buffer. */
  if (gt_context_has_atomics(c)) {
    GLuint bytes = gt_test_buffer(16, gt_test_poison, 6), r = gt_test_buffer(64, gt_test_noise, 7);
    uint8_t host[5 * 7];
    for (size_t i = 0; i < sizeof host; i++)
      host[i] = (uint8_t)(i * 37u);
    gt_view vu8 = {bytes, 3, 5, 7, 9, GT_U8};
    CHECK_STATUS(gt_write(c, vu8, host, 0), GT_OK);
    gt_view vr = {r, 0, 8, 8, 0, GT_U32};
    CHECK_STATUS(gt_read_begin(c, vr), GT_OK);
    gt_kernel_desc e;
    memset(&e, 0, sizeof e);
    e.body = "layout(std430, binding = 0) buffer staging_block { uint staged[]; };\n"
             "void main() { staged[gt_local().x * 8u + gt_local().y] = 0xDEADBEEFu; }\n";
    e.tile_rows = e.tile_cols = 8;
    k = expect_refused(c, &e, "MEMORY");
    if (k) {
      gt_dispatch_desc dd = {{8, 8}, GT_POLICY_EXACT, NULL, NULL};
      gt_kernel_dispatch(c, k, &dd, NULL);
      gt_kernel_destroy(c, k);
    }
    uint32_t got[64];
    CHECK_STATUS(gt_read_end(c, got, 0, UINT64_MAX), GT_OK);
    unsigned wrong = 0;
    for (size_t i = 0; i < 64; i++)
      wrong += got[i] != gt_test_noise(i, 7);
    CHECK_EQ_U(wrong, 0);
    glDeleteBuffers(1, &bytes);
    glDeleteBuffers(1, &r);
  }
  GLuint all[5] = {a, b, cc, x, y};
  glDeleteBuffers(5, all);
  gt_context_release(c);
}

/* Bodies that would reach memory they were not given, or hide a word from
 * the check, each refused before compiling with the check that fired. */
static void test_hostile_bodies(void) {
  gt_context *c = logged_context();
  if (c == NULL) return;
  static const struct {
    const char *id, *body;
  } hostile[] = {
      /* The preprocessor can make or hide any word. */
      {"DIRECTIVE",
       "#define LEAVE return\nshared float t[64];\n"
       "void main() { if (!gt_in_domain(gt_global())) LEAVE; barrier(); y_write(gt_global(), 1.0); }\n"},
      {"DIRECTIVE", "#define CAT(a, b) a##b\nCAT(buf, fer) b_block { float w[]; };\nvoid main() {}\n"},
      {"DIRECTIVE", "void main() {\n#ifdef GT_ALIASED\n  x_read(gt_global());\n#endif\n}\n"},
      {"DIRECTIVE", "#extension GL_OES_texture_buffer : enable\nvoid main() {}\n"},
      {"DIRECTIVE", "  # pragma optimize(off)\nvoid main() {}\n"},
      {"BACKSLASH", "lay\\\nout(std430, binding = 3) buffer b_block { float w[]; };\nvoid main() {}\n"},
      {"BACKSLASH", "/* *\\\n/ layout(binding = 3) buffer b_block { float w[]; }; /* */\nvoid main() {}\n"},
      {"COMMENT_OPEN", "void main() {}\n/* never closed\n"},
      {"CHARACTER", "void main() { float v = 1.0; } \"/*\"\n"},
      {"CHARACTER", "void main() {} \xc2\xa0\n"},
      /* A line comment ends where a driver may end a line: a Unicode line
       * separator too. */
      {"CHARACTER",
       "// \xe2\x80\xa8layout(std430, binding = 2) buffer b_block { float w[]; };\nvoid main() {}\n"},
      {"NUMBER_NAME", "void main() { float v = 1buffer; }\n"},
      /* A line a driver may end at a carriage return. */
      {"MEMORY",
       "// a comment\rlayout(std430, binding = 2) buffer b_block { float w[]; };\nvoid main() {}\n"},
      /* Memory of its own. */
      {"MEMORY", "layout(std430, binding = 5) buffer b_block { float w[]; };\nvoid main() { w[0] = 1.0; }\n"},
      {"MEMORY", "buffer b_block { float w[]; };\nvoid main() {}\n"},
      {"MEMORY", "uniform u_block { vec4 u; };\nvoid main() {}\n"},
      {"MEMORY", "uniform float extra;\nvoid main() {}\n"},
      {"MEMORY", "void f(sampler2D s) {}\nvoid main() {}\n"},
      {"MEMORY", "void main() { imageStore(im, ivec2(0), vec4(0.0)); }\n"},
      {"MEMORY", "void main() { atomicCounterIncrement(counter); }\n"},
      /* The library's storage and helpers, and views by name. */
      {"LIBRARY_NAME", "void main() { gt_view_1[0] = 1.0; }\n"},
      {"LIBRARY_NAME", "void main() { guarded_write(w, 1u, uvec2(0u), 1.0); }\n"},
      {"LIBRARY_NAME", "void main() { uvec4 v = gt_views[1]; }\n"},
      {"LIBRARY_NAME", "void main() { float v = GT_ELEM(0); }\n"},
      {"VIEW_NAME", "void main() { y[0] = 1.0; }\n"},
      {"VIEW_NAME", "void main() { uint i = y_index(gt_global()); }\n"},
      {"READ_OF_WRITE_VIEW", "void main() { float v = y_read(gt_global()); }\n"},
      {"WRITE_OF_READ_VIEW", "void main() { x_write(gt_global(), 1.0); }\n"},
      {"BARRIER_AFTER_RETURN", "void main() {\n  if (gt_global().x > 0u) { return; }\n  barrier();\n}\n"},
  };
  for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
    gt_kernel_desc d = xyz_desc(hostile[i].body);
    gt_kernel_id k = expect_refused(c, &d, hostile[i].id);
    if (k) gt_kernel_destroy(c, k);
  }
  /* What the check must leave alone: words in comments, the library's
   * documented names, a return after the last barrier. */
  gt_kernel_desc d =
      xyz_desc("// layout, buffer, uniform and #define in a comment; /* too */\n"
               "/* buffer x[]; // layout, caf\xc3\xa9 */\n"
               "void main() {\n"
               "  uvec2 g = gt_global(), t = gt_tile() * uvec2(GT_TILE_ROWS, GT_TILE_COLS);\n"
               "  barrier();\n"
               "  if (!gt_in_domain(g) || t != gt_tile_origin() || gt_domain.x == 0u) return;\n"
               "  y_write(g + gt_local() * 0u, x_read(g) + z_read(g) * k + float(.5e1f));\n"
               "  z_write(g, 0x1Fu == 31u ? 1.0 : 0.0);\n"
               "}\n");
  gt_kernel_id k = 0;
  CHECK_STATUS(gt_kernel_create(c, &d, &k), GT_OK);
  if (k) gt_kernel_destroy(c, k);
  /* A comment splits words as it does for the driver: this is two words,
   * and no block; the compiler refuses it. */
  d = xyz_desc("buf/**/fer b_block { float w[]; };\nvoid main() {}\n");
  gt_status s = gt_kernel_create(c, &d, &k);
  CHECK(s == GT_ERR_SHADER_BUILD || s == GT_ERR_INVALID_ARGUMENT);
  gt_context_release(c);
}

/* A view's elements are reached through NAME_read and NAME_write only,
 * which stay inside the view: not the elements before its offset in the
 * binding, nor those between its rows, nor a READ view's in the aliased
 * program. y is 4 x 4 at offset 5, pitch 6, in a 64-word buffer whose
 * other words must keep their poison. */
static void test_view_bounds(void) {
  gt_context *c = logged_context();
  if (c == NULL) return;
  GLuint buf = gt_test_buffer(64, gt_test_poison, 8);
  gt_view vy = {buf, 5, 4, 4, 6, GT_F32};
  gt_kernel_desc d;
  memset(&d, 0, sizeof d);
  d.tile_rows = d.tile_cols = 4;
  d.view_count = 1;
  d.views[0] = (gt_kernel_view){"y", GT_F32, GT_ACCESS_WRITE};
  gt_dispatch_desc dd = {{4, 4}, GT_POLICY_EXACT, &vy, NULL};
  /* y[0] is the first word of the binding, one before the view. */
  d.body = "void main() { if (gt_global() == uvec2(0u)) y[0] = 7.0; }\n";
  gt_kernel_id k = expect_refused(c, &d, "VIEW_NAME");
  if (k) {
    gt_kernel_dispatch(c, k, &dd, NULL);
    gt_kernel_destroy(c, k);
  }
  CHECK(buffer_words(c, buf, 64, gt_test_poison, 8));

  /* An index with a side effect is taken once: (0, 3) is written, not
   * (0, 4), a word between the rows. */
  d.body = "void main() {\n"
           "  if (gt_global() == uvec2(0u)) { uint col = 3u; y_write(uvec2(0u, col++), 7.0); }\n"
           "}\n";
  CHECK_STATUS(gt_kernel_create(c, &d, &k), GT_OK);
  if (k) {
    CHECK_STATUS(gt_kernel_dispatch(c, k, &dd, NULL), GT_OK);
    gt_kernel_destroy(c, k);
    uint32_t got[64];
    bool ok = gt_test_read_all(c, buf, 64, got) == 0;
    for (size_t i = 0; i < 64 && ok; i++) {
      uint32_t want = gt_test_poison(i, 8);
      if (i == 5 + 3) {
        float seven = 7.0f;
        memcpy(&want, &seven, 4);
      }
      ok = got[i] == want;
      if (!ok) fprintf(stderr, "  word %zu: %08x, want %08x\n", i, got[i], want);
    }
    CHECK(ok);
  }
  glDeleteBuffers(1, &buf);

  /* x READ on rows 0-3, y WRITE on rows 2-5 of one buffer: the aliased
   * program runs, and x's rows 0-1 are nobody's to write. */
  buf = gt_test_buffer(64, small_float, 9);
  gt_view xy[2] = {{buf, 0, 4, 8, 0, GT_F32}, {buf, 16, 4, 8, 0, GT_F32}};
  gt_kernel_desc e;
  memset(&e, 0, sizeof e);
  e.tile_rows = e.tile_cols = 4;
  e.view_count = 2;
  e.views[0] = (gt_kernel_view){"x", GT_F32, GT_ACCESS_READ};
  e.views[1] = (gt_kernel_view){"y", GT_F32, GT_ACCESS_WRITE};
  e.body = "void main() {\n"
           "  uvec2 g = gt_global();\n"
           "#ifdef GT_ALIASED\n"
           "  if (g == uvec2(0u)) x[x_index(uvec2(0u))] = 99.0;\n"
           "#endif\n"
           "  if (gt_in_domain(g)) y_write(g, x_read(g));\n"
           "}\n";
  k = expect_refused(c, &e, "DIRECTIVE");
  if (k) {
    gt_dispatch_desc ad = {{4, 8}, GT_POLICY_EXACT, xy, NULL};
    gt_kernel_dispatch(c, k, &ad, NULL);
    gt_kernel_destroy(c, k);
  }
  uint32_t rows01[16];
  CHECK(gt_test_read_all(c, buf, 16, rows01) == 0);
  bool kept = true;
  for (size_t i = 0; i < 16; i++)
    kept = kept && rows01[i] == small_float(i, 9);
  CHECK(kept);
  glDeleteBuffers(1, &buf);
  gt_context_release(c);
}

/* In the aliased program a READ view is readonly, and its reads still
 * follow the stores to an overlapping view in program order: x and z the
 * same view, z = x + (x + 1) read back after the first store. */
static void test_aliased_order(void) {
  gt_kernel_desc d;
  memset(&d, 0, sizeof d);
  d.tile_rows = d.tile_cols = 8;
  d.view_count = 2;
  d.views[0] = (gt_kernel_view){"x", GT_F32, GT_ACCESS_READ};
  d.views[1] = (gt_kernel_view){"z", GT_F32, GT_ACCESS_READ_WRITE};
  d.body = "void main() {\n"
           "  uvec2 g = gt_global();\n"
           "  if (gt_in_domain(g)) {\n"
           "    float first = x_read(g);\n"
           "    z_write(g, first + 1.0);\n"
           "    float second = x_read(g);\n"
           "    z_write(g, first + second);\n"
           "  }\n"
           "}\n";
  gt_kernel_id k = 0;
  CHECK_STATUS(gt_kernel_create(ctx, &d, &k), GT_OK);
  GLuint buf = gt_test_buffer(64, small_float, 10);
  gt_view same[2] = {{buf, 0, 8, 8, 0, GT_F32}, {buf, 0, 8, 8, 0, GT_F32}};
  gt_dispatch_desc dd = {{8, 8}, GT_POLICY_EXACT, same, NULL};
  CHECK_STATUS(gt_kernel_dispatch(ctx, k, &dd, NULL), GT_OK);
  uint32_t got[64];
  bool ok = gt_test_read_all(ctx, buf, 64, got) == 0;
  for (size_t i = 0; i < 64 && ok; i++) {
    ok = word_float(got[i]) == 2.0f * word_float(small_float(i, 10)) + 1.0f;
    if (!ok)
      fprintf(stderr, "  element %zu: %g from %g\n", i, word_float(got[i]), word_float(small_float(i, 10)));
  }
  CHECK(ok);
  gt_kernel_destroy(ctx, k);
  glDeleteBuffers(1, &buf);
}

/* Names that clash with GLSL, the library or another view's helpers are
 * refused up front, the log naming the clash. */
static void test_name_clashes(void) {
  gt_context *c = logged_context();
  if (c == NULL) return;
  static const struct {
    const char *name, *id;
  } clashes[] = {
      {"buffer", "NAME_RESERVED"},      {"max", "NAME_RESERVED"},        {"main", "NAME_RESERVED"},
      {"sampler2D", "NAME_RESERVED"},   {"texture", "NAME_RESERVED"},    {"out", "NAME_RESERVED"},
      {"GT_ELEM", "NAME_LIBRARY"},      {"GT_RESTRICT", "NAME_LIBRARY"}, {"GL_ES", "NAME_LIBRARY"},
      {"guarded_read", "NAME_LIBRARY"}, {"x_read", "NAME_HELPER"},       {"y_index", "NAME_HELPER"},
      {"z_extent", "NAME_HELPER"},      {"x_write", "NAME_HELPER"}};
  for (size_t i = 0; i < sizeof clashes / sizeof clashes[0]; i++)
    for (int as_view = 0; as_view < 2; as_view++) {
      gt_kernel_desc d = xyz_desc("void main() {}\n");
      if (as_view) {
        d.view_count = 4;
        d.views[3] = (gt_kernel_view){clashes[i].name, GT_F32, GT_ACCESS_READ};
      } else {
        d.uniforms[0].name = clashes[i].name;
      }
      gt_kernel_id k = expect_refused(c, &d, clashes[i].id);
      if (k) gt_kernel_destroy(c, k);
      char quoted[48];
      snprintf(quoted, sizeof quoted, "'%s'", clashes[i].name);
      CHECK(strstr(last_error, quoted) != NULL);
    }
  gt_context_release(c);
}

/* The body's limits: GT_KERNEL_MAX_BODY bytes, and GT_KERNEL_MAX_TOKENS
 * tokens once its functions' calls are counted in. A body at each limit
 * is taken (and runs); one past it, or a few hundred bytes whose functions
 * call the one before twice (4096 copies once inlined, seconds of
 * compiling), is refused before compiling. */
static void test_body_limits(void) {
  gt_context *c = logged_context();
  if (c == NULL) return;
  static char body[GT_KERNEL_MAX_BODY + 2];
  static const char tail[] = "void main() { y_write(gt_global(), 1.0); }\n";
  gt_kernel_desc d = xyz_desc(body);
  size_t n = GT_KERNEL_MAX_BODY - (sizeof tail - 1);
  memset(body, ' ', n);
  body[0] = '/', body[1] = '*', body[n - 2] = '*', body[n - 1] = '/';
  memcpy(body + n, tail, sizeof tail);
  gt_kernel_id k = 0;
  CHECK_STATUS(gt_kernel_create(c, &d, &k), GT_OK);
  if (k) gt_kernel_destroy(c, k);
  memmove(body + 1, body, GT_KERNEL_MAX_BODY + 1);
  body[0] = ' ';
  k = expect_refused(c, &d, "BODY_LONG");
  if (k) gt_kernel_destroy(c, k);

  /* 10 tokens, then 6 a statement, then y_write's call: 10 + 16 for the
   * helper. */
  uint32_t most = (GT_KERNEL_MAX_TOKENS - 36) / 6;
  for (uint32_t statements = most; statements <= most + 1; statements++) {
    size_t used = (size_t)snprintf(body, sizeof body, "void main(){float s=0.0;");
    for (uint32_t i = 0; i < statements && used + 16 < sizeof body; i++)
      used += (size_t)snprintf(body + used, sizeof body - used, "s=s+1.0;");
    snprintf(body + used, sizeof body - used, "y_write(gt_global(),s);}");
    if (statements > most) {
      k = expect_refused(c, &d, "BODY_LARGE");
      if (k) gt_kernel_destroy(c, k);
      continue;
    }
    k = 0;
    CHECK_STATUS(gt_kernel_create(c, &d, &k), GT_OK);
    GLuint buf = gt_test_buffer(64, gt_test_poison, 11);
    gt_view v[3] = {{buf, 0, 8, 8, 0, GT_F32}, {buf, 0, 8, 8, 0, GT_F32}, {buf, 0, 8, 8, 0, GT_F32}};
    gt_uniform_value u;
    memset(&u, 0, sizeof u);
    gt_dispatch_desc dd = {{8, 8}, GT_POLICY_EXACT, v, &u};
    if (k) CHECK_STATUS(gt_kernel_dispatch(c, k, &dd, NULL), GT_OK);
    uint32_t got[64];
    CHECK(gt_test_read_all(c, buf, 64, got) == 0 && word_float(got[63]) == (float)statements);
    if (k) gt_kernel_destroy(c, k);
    glDeleteBuffers(1, &buf);
  }

  size_t used = (size_t)snprintf(body, sizeof body, "float f0(float v) { return v * 1.5 + 2.0; }\n");
  for (int i = 1; i <= 12; i++)
    used += (size_t)snprintf(body + used, sizeof body - used,
                             "float f%d(float v) { return f%d(v) + f%d(v * 0.5); }\n", i, i - 1, i - 1);
  snprintf(body + used, sizeof body - used, "void main() { y_write(gt_global(), f12(1.0)); }\n");
  k = expect_refused(c, &d, "BODY_LARGE");
  if (k) gt_kernel_destroy(c, k);
  gt_context_release(c);
}

int main(int argc, char **argv) {
  gt_test_env env;
  int rc = gt_test_open(argc, argv, &env);
  if (rc != 0) return rc;
  ctx = env.ctx;
  test_policies();
  test_aliasing(env.min_limits);
  test_refusals(env.min_limits);
  test_stale_ids();
  min_limits_run = env.min_limits;
  test_foreign_bindings();
  test_hostile_bodies();
  test_view_bounds();
  test_aliased_order();
  test_name_clashes();
  test_body_limits();
  gt_test_close(&env);
  return CHECK_SUMMARY();
}
