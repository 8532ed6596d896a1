/* GL faults, with the library built for fault injection: for each
 * operation, every GL call it makes is made to fail in turn, first with
 * GL_OUT_OF_MEMORY, then as a lost context. Each must return its own
 * status (GT_ERR_OUT_OF_MEMORY; GT_ERR_SHADER_BUILD when a compile or link
 * status is the call that failed; GT_ERR_CONTEXT_LOST), leave the words
 * around the destination alone, leak no shader or program, and leave a
 * context that works: the same one after GL_OUT_OF_MEMORY, a new one on
 * the same memory after a loss. Operations are walked cold (programs not
 * yet built) and warm. A last check loses a real EGL context and brings
 * the gt_context back up on a new one. */
#include "check.h"
#include "gl/fault_injection.h"
#include "harness.h"

#include <EGL/egl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WORDS = 4096 };

typedef struct fixture {
  gt_context *ctx;
  GLuint a, b, c; /* buffers of WORDS words: inputs a and c, output b */
  GLuint tex_src, tex_dst;
  gt_kernel_id kernel; /* made by the cold path of ops that need it */
} fixture;

static fixture fx;
static uint64_t ctx_mem[(1u << 20) / 8]; /* caller memory for every context */
static gt_context_desc ctx_desc;

/* Views the operations use: uneven sections with pitches. */
static gt_view view(GLuint buffer, uint32_t rows, uint32_t cols, size_t offset, uint32_t pitch) {
  gt_view v = {buffer, offset, rows, cols, pitch, GT_F32};
  return v;
}
static gt_view src_view(void) { return view(fx.a, 19, 23, 7, 30); }
static gt_view dst_view(void) { return view(fx.b, 23, 19, 3, 21); }
static gt_view square_view(void) { return view(fx.b, 21, 21, 5, 25); }
static gt_view copy_dst(void) { return view(fx.b, 19, 23, 9, 27); }
static gt_view mm_a(void) { return view(fx.a, 13, 37, 1, 40); }  /* 13 x 37 */
static gt_view mm_b(void) { return view(fx.c, 37, 11, 0, 12); }  /* 37 x 11 */
static gt_view mm_bt(void) { return view(fx.c, 11, 37, 2, 39); } /* its transpose */
static gt_view mm_c(void) { return view(fx.b, 13, 11, 4, 17); }

static const char double_body[] = "void main() {\n"
                                  "  uvec2 g = gt_global();\n"
                                  "  if (gt_in_domain(g)) twice_write(g, 2.0 * x_read(g));\n"
                                  "}\n";

static gt_kernel_desc double_desc(void) {
  gt_kernel_desc d;
  memset(&d, 0, sizeof d);
  d.body = double_body;
  d.tile_rows = 8;
  d.tile_cols = 8;
  d.view_count = 2;
  d.views[0] = (gt_kernel_view){"x", GT_F32, GT_ACCESS_READ};
  d.views[1] = (gt_kernel_view){"twice", GT_F32, GT_ACCESS_WRITE};
  return d;
}

/* ---- the operations ---------------------------------------------- */

static gt_status transpose_with(gt_strategy s, uint32_t tile) {
  gt_transpose_desc d = {s, tile};
  return gt_transpose(fx.ctx, src_view(), dst_view(), &d);
}
static gt_status op_simple(void) { return transpose_with(GT_STRATEGY_SIMPLE, 0); }
static gt_status op_pad(void) { return transpose_with(GT_STRATEGY_TILED_PAD, 8); }
static gt_status op_truncate_a(void) { return transpose_with(GT_STRATEGY_TRUNCATE_A, 8); }
static gt_status op_truncate_b(void) { return transpose_with(GT_STRATEGY_TRUNCATE_B, 8); }
static gt_status op_auto(void) { return transpose_with(GT_STRATEGY_AUTO, 0); }
static gt_status op_even(void) {
  gt_transpose_desc d = {GT_STRATEGY_TILED_EVEN, 8};
  return gt_transpose(fx.ctx, view(fx.a, 16, 24, 6, 26), view(fx.b, 24, 16, 2, 16), &d);
}
static gt_status op_inplace(void) {
  gt_transpose_desc d = {GT_STRATEGY_TILED_PAD, 8};
  return gt_transpose(fx.ctx, square_view(), square_view(), &d);
}
static gt_status op_copy(void) { return gt_copy(fx.ctx, src_view(), copy_dst()); }
static gt_status op_matmul(void) { return gt_matmul(fx.ctx, mm_a(), mm_b(), mm_c(), NULL); }
static gt_status op_matmul_truncate_b(void) {
  gt_matmul_desc d = {.strategy = GT_STRATEGY_TRUNCATE_B, .tile = 8, .trans_b = true};
  return gt_matmul(fx.ctx, mm_a(), mm_bt(), mm_c(), &d);
}
/* Rows 16-byte aligned, K and N multiples of 4: the texels kernel where
 * the context has it (its texture calls), the registers kernel elsewhere. */
static gt_view mm_texels_c(void) { return view(fx.b, 13, 12, 4, 17); }
static gt_status op_matmul_texels(void) {
  return gt_matmul(fx.ctx, view(fx.a, 13, 36, 0, 40), view(fx.c, 36, 12, 0, 12), mm_texels_c(), NULL);
}
/* Two products whose c rows follow on at one pitch: the batch strides
 * (glProgramUniform4ui), and one view covers what they write. */
static gt_view mm_batched_c(void) { return view(fx.b, 26, 11, 4, 17); }
static gt_status op_matmul_batched(void) {
  gt_batch batch = {2, 13 * 40, 37 * 12, 13 * 17};
  return gt_matmul_batched(fx.ctx, mm_a(), mm_b(), mm_c(), batch, NULL);
}
static gt_status op_write(void) {
  static float host[19 * 23];
  for (size_t i = 0; i < 19 * 23; i++)
    host[i] = (float)i;
  return gt_write(fx.ctx, copy_dst(), host, 0);
}
static gt_status op_read(void) {
  static float host[19 * 23];
  return gt_read(fx.ctx, src_view(), host, 0);
}
static gt_status op_read_back(void) {
  static float host[19 * 23];
  gt_status s = gt_read_begin(fx.ctx, src_view());
  if (s != GT_OK) return s;
  return gt_read_end(fx.ctx, host, 0, UINT64_MAX);
}
static gt_status op_fence(void) {
  gt_fence f;
  gt_status s = gt_fence_insert(fx.ctx, &f);
  if (s != GT_OK) return s;
  s = gt_fence_wait(fx.ctx, &f, UINT64_MAX);
  gt_fence_release(fx.ctx, &f);
  return s;
}
static gt_status op_image(void) {
  gt_image s = {fx.tex_src, 0, 1, 2, 13, 9, GT_FORMAT_R32F};
  gt_image t = {fx.tex_dst, 0, 0, 3, 9, 13, GT_FORMAT_R32F};
  return gt_image_transpose(fx.ctx, s, t, NULL);
}
static gt_status op_kernel_create(void) {
  gt_kernel_desc d = double_desc();
  gt_kernel_id id = 0;
  gt_status s = gt_kernel_create(fx.ctx, &d, &id);
  if (s == GT_OK) gt_kernel_destroy(fx.ctx, id);
  return s;
}
static gt_status op_kernel_dispatch(void) {
  if (fx.kernel == 0) {
    /* Made before counting starts (see prepare). */
    return GT_ERR_INVALID_ARGUMENT;
  }
  gt_view views[2] = {src_view(), copy_dst()};
  gt_dispatch_desc d = {{19, 23}, GT_POLICY_PAD, views, NULL};
  return gt_kernel_dispatch(fx.ctx, fx.kernel, &d, NULL);
}
static gt_status op_finish(void) { return gt_finish(fx.ctx); }
static gt_status op_denormals(void) {
  bool flushes;
  return gt_context_flushes_denormals(fx.ctx, &flushes);
}

/* A cache of the programs SIMPLE and TILED_PAD use, made once. */
static unsigned char cache[1 << 18];
static size_t cache_bytes;
static gt_status op_cache_save(void) {
  static unsigned char out[sizeof cache];
  size_t written = 0;
  return gt_program_cache_save(fx.ctx, out, sizeof out, &written);
}
static gt_status op_cache_load(void) {
  uint32_t loaded = 0;
  return gt_program_cache_load(fx.ctx, cache, cache_bytes, &loaded);
}

typedef struct op {
  const char *name;
  gt_status (*run)(void);
  gt_view (*written)(void); /* the destination, or NULL when none in b */
  bool needs_kernel;
  bool builds_simple; /* prepare builds SIMPLE's program first (cold too) */
  bool refusal_ok;    /* a failed link status is a refused binary: GT_OK */
} op;

static gt_view whole_dst(void) { return dst_view(); }
static gt_view even_dst(void) { return view(fx.b, 24, 16, 2, 16); }

static const op ops[] = {
    {"transpose SIMPLE", op_simple, whole_dst, false, false, false},
    {"transpose TILED_EVEN", op_even, even_dst, false, false, false},
    {"transpose TILED_PAD", op_pad, whole_dst, false, false, false},
    {"transpose TRUNCATE_A", op_truncate_a, whole_dst, false, false, false},
    {"transpose TRUNCATE_B", op_truncate_b, whole_dst, false, false, false},
    {"transpose AUTO", op_auto, whole_dst, false, false, false},
    {"transpose in place", op_inplace, square_view, false, false, false},
    {"copy", op_copy, copy_dst, false, false, false},
    {"matmul AUTO", op_matmul, mm_c, false, false, false},
    {"matmul TRUNCATE_B trans_b", op_matmul_truncate_b, mm_c, false, false, false},
    {"matmul AUTO texels", op_matmul_texels, mm_texels_c, false, false, false},
    {"matmul batched", op_matmul_batched, mm_batched_c, false, false, false},
    {"write", op_write, copy_dst, false, false, false},
    {"read", op_read, NULL, false, false, false},
    {"read-back", op_read_back, NULL, false, false, false},
    {"fence", op_fence, NULL, false, false, false},
    {"image transpose", op_image, NULL, false, false, false},
    {"kernel create", op_kernel_create, NULL, false, false, false},
    {"kernel dispatch", op_kernel_dispatch, copy_dst, true, false, false},
    {"finish", op_finish, NULL, false, false, false},
    {"denormal probe", op_denormals, NULL, false, false, false},
    {"program cache save", op_cache_save, NULL, false, true, false},
    {"program cache load", op_cache_load, NULL, false, false, true},
};

/* ---- set-up ------------------------------------------------------- */

static uint32_t fill_value(size_t i, uint32_t seed) {
  float f = (float)((i * 7 + seed) % 13) - 6.0f; /* small integers: exact sums */
  uint32_t w;
  memcpy(&w, &f, 4);
  return w;
}

static GLuint make_buffer(uint32_t seed, bool poison) {
  return gt_test_buffer(WORDS, poison ? gt_test_poison : fill_value, seed);
}

/* Inputs back to their values, the output buffer back to poison. */
static void reset_buffers(void) {
  GLuint buffers[3] = {fx.a, fx.b, fx.c};
  for (int i = 0; i < 3; i++) {
    uint32_t *words = malloc(WORDS * 4);
    for (size_t j = 0; j < WORDS; j++)
      words[j] = i == 1 ? gt_test_poison(j, 0) : fill_value(j, (uint32_t)i);
    glBindBuffer(GL_COPY_WRITE_BUFFER, buffers[i]);
    glBufferSubData(GL_COPY_WRITE_BUFFER, 0, WORDS * 4, words);
    free(words);
  }
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
}

static GLuint make_texture(uint32_t w, uint32_t h) {
  float *data = malloc((size_t)w * h * 4);
  for (size_t i = 0; i < (size_t)w * h; i++)
    data[i] = (float)i;
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_R32F, (GLsizei)w, (GLsizei)h);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, (GLsizei)w, (GLsizei)h, GL_RED, GL_FLOAT, data);
  glBindTexture(GL_TEXTURE_2D, 0);
  free(data);
  return t;
}

/* A new gt_context on the same memory, with no fault armed. */
static bool open_context(void) {
  gt__fault_arm(0, GL_NO_ERROR);
  fx.ctx = NULL;
  fx.kernel = 0;
  gt_status s = gt_context_init(ctx_mem, sizeof ctx_mem, &ctx_desc, &fx.ctx);
  CHECK_STATUS(s, GT_OK);
  return s == GT_OK;
}

static void close_context(void) {
  gt__fault_arm(0, GL_NO_ERROR);
  gt_context_release(fx.ctx);
  fx.ctx = NULL;
}

/* What the op must return when call n failed with error. */
static gt_status expected(const op *o, GLenum error) {
  if (error == GL_CONTEXT_LOST) return GT_ERR_CONTEXT_LOST;
  const char *failed = gt__fault_failed_call();
  bool link = failed && !strcmp(failed, "glGetProgramiv(GL_LINK_STATUS)");
  if (link && o->refusal_ok) return GT_OK;
  if (link || (failed && !strcmp(failed, "glGetShaderiv(GL_COMPILE_STATUS)"))) return GT_ERR_SHADER_BUILD;
  return GT_ERR_OUT_OF_MEMORY;
}

static void read_b(uint32_t *out) { gt_test_read_all(fx.ctx, fx.b, WORDS, out); }

/* true when every word of b outside v is still poison. */
static bool outside_untouched(const uint32_t *words, gt_view v) {
  uint32_t pitch = v.pitch ? v.pitch : v.cols;
  for (size_t i = 0; i < WORDS; i++) {
    bool inside = false;
    if (i >= v.offset) {
      size_t rel = i - v.offset;
      inside = rel / pitch < v.rows && rel % pitch < v.cols;
    }
    if (!inside && words[i] != gt_test_poison(i, 0)) return false;
  }
  return true;
}

/* Makes the op's prerequisites (not counted); warm also runs it once. */
static bool prepare(const op *o, bool warm) {
  if (o->builds_simple && op_simple() != GT_OK) return false;
  reset_buffers();
  if (o->needs_kernel) {
    gt_kernel_desc d = double_desc();
    if (gt_kernel_create(fx.ctx, &d, &fx.kernel) != GT_OK) return false;
  }
  if (warm) {
    if (o->run() != GT_OK) return false;
    reset_buffers();
  }
  return true;
}

static unsigned long faults_injected, faults_survived;

/* Walks every GL call of one operation; returns how many it makes. */
static uint64_t walk(const op *o, bool warm) {
  static uint32_t golden[WORDS], words[WORDS];
  if (!open_context() || !prepare(o, warm)) {
    fprintf(stderr, "%s: set-up failed\n", o->name);
    check_failed++;
    return 0;
  }
  gt__fault_arm(0, GL_NO_ERROR);
  gt_status s = o->run();
  uint64_t calls = gt__fault_calls();
  CHECK_STATUS(s, GT_OK);
  read_b(golden);
  close_context();
  CHECK_EQ_U(gt__fault_live_objects(), 0);

  const GLenum errors[2] = {GL_OUT_OF_MEMORY, GL_CONTEXT_LOST};
  for (int e = 0; e < 2; e++) {
    for (uint64_t n = 1; n <= calls; n++) {
      if (!open_context() || !prepare(o, warm)) {
        check_failed++;
        continue;
      }
      gt__fault_arm(n, errors[e]);
      s = o->run();
      gt_status want = expected(o, errors[e]);
      const char *failed = gt__fault_failed_call();
      gt__fault_arm(0, GL_NO_ERROR);
      faults_injected++;
      if (s != want) {
        fprintf(stderr, "%s (%s): call %llu (%s) failed with 0x%04x: got %s, want %s\n", o->name,
                warm ? "warm" : "cold", (unsigned long long)n, failed ? failed : "none", errors[e],
                gt_status_string(s), gt_status_string(want));
        check_failed++;
      } else {
        check_passed++;
      }
      if (errors[e] == GL_OUT_OF_MEMORY) {
        /* The same context carries on: the op again gives the golden result. */
        read_b(words);
        bool kept = o->written == NULL || outside_untouched(words, o->written());
        CHECK(kept);
        reset_buffers();
        gt_status again = o->run();
        CHECK_STATUS(again, GT_OK);
        read_b(words);
        bool same = memcmp(words, golden, sizeof words) == 0;
        CHECK(same);
        if (s == want && kept && again == GT_OK && same) faults_survived++;
        close_context();
      } else {
        /* Lost for good: every call says so until a new context. */
        CHECK_STATUS(op_finish(), GT_ERR_CONTEXT_LOST);
        close_context();
        gt__fault_reset(); /* the objects went with the lost context */
        bool ok = open_context() && prepare(o, warm) && o->run() == GT_OK;
        if (ok) {
          read_b(words);
          ok = memcmp(words, golden, sizeof words) == 0;
        }
        CHECK(ok);
        if (s == want && ok) faults_survived++;
        close_context();
      }
      CHECK_EQ_U(gt__fault_live_objects(), 0);
    }
  }
  return calls;
}

/* gt_context_init itself: each of its GL calls failing. */
static void walk_init(void) {
  gt__fault_arm(0, GL_NO_ERROR);
  gt_context *c = NULL;
  CHECK_STATUS(gt_context_init(ctx_mem, sizeof ctx_mem, &ctx_desc, &c), GT_OK);
  uint64_t calls = gt__fault_calls();
  gt_context_release(c);
  for (uint64_t n = 1; n <= calls; n++) {
    for (int lose = 0; lose < 2; lose++) {
      gt__fault_arm(n, lose ? GL_CONTEXT_LOST : GL_OUT_OF_MEMORY);
      c = (gt_context *)1;
      gt_status s = gt_context_init(ctx_mem, sizeof ctx_mem, &ctx_desc, &c);
      faults_injected++;
      CHECK_STATUS(s, lose ? GT_ERR_CONTEXT_LOST : GT_ERR_OUT_OF_MEMORY);
      CHECK(c == NULL);
      gt__fault_reset();
      CHECK(open_context());
      if (s != GT_OK && c == NULL && fx.ctx && op_simple() == GT_OK) faults_survived++;
      close_context();
    }
  }
  printf("context init: %llu GL calls walked\n", (unsigned long long)calls);
}

/* A real loss of the EGL context: the gt_context on it is released and
 * initialised again, on the same memory, on a new GL context. */
static void real_new_context(gt_test_env *env) {
  CHECK(open_context());
  CHECK_STATUS(op_simple(), GT_OK);
  EGLDisplay dpy = (EGLDisplay)env->egl.display;
  EGLContext old = (EGLContext)env->egl.context;
  EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE};
  EGLConfig cfg = 0;
  EGLint n = 0;
  const EGLint cfg_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                EGL_NONE};
  if (!eglChooseConfig(dpy, cfg_attribs, &cfg, 1, &n) || n < 1) cfg = 0;
  EGLContext fresh = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, attribs);
  CHECK(fresh != EGL_NO_CONTEXT);
  if (fresh == EGL_NO_CONTEXT) return;
  /* The old context goes away with the gt_context's programs in it. */
  CHECK(eglMakeCurrent(dpy, (EGLSurface)env->egl.surface, (EGLSurface)env->egl.surface, fresh));
  CHECK_STATUS(gt_finish(fx.ctx), GT_ERR_NO_CONTEXT);
  gt_context_release(fx.ctx);
  eglDestroyContext(dpy, old);
  env->egl.context = fresh;
  gt__fault_reset();
  fx.a = make_buffer(0, false);
  fx.b = make_buffer(0, true);
  fx.c = make_buffer(2, false);
  CHECK(open_context());
  CHECK_STATUS(op_simple(), GT_OK);
  uint32_t *words = malloc(WORDS * 4);
  read_b(words);
  gt_view s = src_view(), d = dst_view();
  bool exact = true;
  for (uint32_t r = 0; r < s.rows; r++)
    for (uint32_t c = 0; c < s.cols; c++)
      exact &= words[d.offset + (size_t)c * d.pitch + r] == fill_value(s.offset + (size_t)r * s.pitch + c, 0);
  CHECK(exact);
  free(words);
  close_context();
  printf("a new EGL context: gt_context_init on the same memory %s\n", exact ? "works" : "FAILS");
}

int main(int argc, char **argv) {
  gt_test_env env;
  int rc = gt_test_open(argc, argv, &env);
  if (rc != 0) return rc;
  ctx_desc.min_limits = env.min_limits;
  /* The harness's own context: not the one under test. */
  gt_context_release(env.ctx);
  env.ctx = NULL;
  if (gt_context_size(&ctx_desc) > sizeof ctx_mem) {
    fprintf(stderr, "context larger than the test's memory\n");
    return 1;
  }
  fx.a = make_buffer(0, false);
  fx.b = make_buffer(0, true);
  fx.c = make_buffer(2, false);
  fx.tex_src = make_texture(16, 16);
  fx.tex_dst = make_texture(16, 16);

  /* The cache the load op reads: SIMPLE's and TILED_PAD's programs. */
  if (open_context()) {
    bool ok = op_simple() == GT_OK && op_pad() == GT_OK &&
              gt_program_cache_save(fx.ctx, cache, sizeof cache, &cache_bytes) == GT_OK;
    CHECK(ok);
    close_context();
  }
  walk_init();
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    uint64_t cold = walk(&ops[i], false);
    uint64_t warm = walk(&ops[i], true);
    printf("%-28s %3llu GL calls cold, %3llu warm\n", ops[i].name, (unsigned long long)cold,
           (unsigned long long)warm);
  }
  printf("faults injected: %lu, survived: %lu\n", faults_injected, faults_survived);
  real_new_context(&env);
  gt_test_close(&env);
  return CHECK_SUMMARY();
}
