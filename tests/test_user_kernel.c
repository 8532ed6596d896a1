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
                                "    float v = a[a_index(g)] * scale + b[b_index(g)];\n"
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
/* Names and bodies the library refuses before compiling.             */

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
  test_name_clashes();
  gt_test_close(&env);
  return CHECK_SUMMARY();
}
