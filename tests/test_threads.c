/* Threads: a gt_context used from a thread on which its GL context is not
 * current. Every call that needs GL must return GT_ERR_NO_CONTEXT before
 * touching anything (no buffer, texture or host memory written): first
 * with no context current on that thread, then with another ES context
 * current there. The owning thread, whose context stayed current all
 * along, then carries on as before. */
#include "check.h"
#include "harness.h"

#include <EGL/egl.h>
#include <pthread.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROWS = 37, COLS = 23, WORDS = 2048, TEX = 16 };

static gt_context *ctx;
static GLuint src_buf, dst_buf, tex_src, tex_dst;
static gt_kernel_id kernel;
static gt_view S, D, E, A, B, C; /* E: ROWS x COLS over D's words */
static EGLDisplay display;

/* The calls a worker makes, and what each returned. */
enum {
  CALL_TRANSPOSE,
  CALL_IN_PLACE,
  CALL_COPY,
  CALL_MATMUL,
  CALL_WRITE,
  CALL_READ,
  CALL_FINISH,
  CALL_DISPATCH,
  CALL_IMAGE,
  CALL_KERNEL_CREATE,
  N_CALLS
};
static const char *const call_names[N_CALLS] = {"gt_transpose",
                                                "gt_transpose in place",
                                                "gt_copy",
                                                "gt_matmul",
                                                "gt_write",
                                                "gt_read",
                                                "gt_finish",
                                                "gt_kernel_dispatch",
                                                "gt_image_transpose",
                                                "gt_kernel_create"};

typedef struct worker {
  int other_context;                            /* make another ES context current first */
  int other_made;                               /* it was made and current */
  int had_context;                              /* a context was current when the calls began */
  GLint other_program, other_ssbo, other_image; /* the other context's state after the calls */
  GLenum other_error;
  gt_status got[N_CALLS];
  uint32_t host[ROWS * COLS]; /* gt_read's destination: must keep its sentinel */
  gt_kernel_id created;       /* gt_kernel_create's output: must stay 0 */
} worker;

static const char body[] = "void main() {\n"
                           "  uvec2 g = gt_global();\n"
                           "  if (gt_in_domain(g)) res_write(g, a_read(g) + 1u);\n"
                           "}\n";

static gt_kernel_desc kernel_desc(void) {
  gt_kernel_desc d;
  memset(&d, 0, sizeof d);
  d.body = body;
  d.tile_rows = 8;
  d.tile_cols = 8;
  d.view_count = 2;
  d.views[0] = (gt_kernel_view){"a", GT_U32, GT_ACCESS_READ};
  d.views[1] = (gt_kernel_view){"res", GT_U32, GT_ACCESS_WRITE};
  return d;
}

/* Another ES 3.1 context on the shared display, current on the calling
 * thread: without a config and surface where the display allows, else on
 * a 1x1 pbuffer. Returns 0 when the display offers neither. */
static int make_other_context(EGLContext *out_ctx, EGLSurface *out_surf) {
  static const EGLint ctx_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE};
  const char *exts = eglQueryString(display, EGL_EXTENSIONS);
  *out_ctx = EGL_NO_CONTEXT;
  *out_surf = EGL_NO_SURFACE;
  if (!eglBindAPI(EGL_OPENGL_ES_API)) return 0;
  if (exts && strstr(exts, "EGL_KHR_no_config_context") && strstr(exts, "EGL_KHR_surfaceless_context")) {
    EGLContext c = eglCreateContext(display, (EGLConfig)0, EGL_NO_CONTEXT, ctx_attribs);
    if (c != EGL_NO_CONTEXT && eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) {
      *out_ctx = c;
      return 1;
    }
    if (c != EGL_NO_CONTEXT) eglDestroyContext(display, c);
  }
  static const EGLint cfg_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                       EGL_OPENGL_ES3_BIT, EGL_NONE};
  static const EGLint pb_attribs[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
  EGLConfig cfg;
  EGLint n = 0;
  if (!eglChooseConfig(display, cfg_attribs, &cfg, 1, &n) || n < 1) return 0;
  EGLSurface s = eglCreatePbufferSurface(display, cfg, pb_attribs);
  if (s == EGL_NO_SURFACE) return 0;
  EGLContext c = eglCreateContext(display, cfg, EGL_NO_CONTEXT, ctx_attribs);
  if (c != EGL_NO_CONTEXT && eglMakeCurrent(display, s, s, c)) {
    *out_ctx = c;
    *out_surf = s;
    return 1;
  }
  if (c != EGL_NO_CONTEXT) eglDestroyContext(display, c);
  eglDestroySurface(display, s);
  return 0;
}

static void *run_worker(void *arg) {
  worker *w = arg;
  EGLContext other = EGL_NO_CONTEXT;
  EGLSurface other_surf = EGL_NO_SURFACE;
  if (w->other_context) w->other_made = make_other_context(&other, &other_surf);
  w->had_context = eglGetCurrentContext() != EGL_NO_CONTEXT;

  uint32_t in[ROWS * COLS];
  for (size_t i = 0; i < ROWS * COLS; i++)
    in[i] = 0xA5000000u + (uint32_t)i;
  gt_view sq = gt_section(D, 0, 0, COLS, COLS); /* a square view for in place */
  gt_matmul_desc md = {.strategy = GT_STRATEGY_AUTO, .scale = true, .alpha = 1.0f, .beta = 1.0f};
  gt_view kv[2] = {S, E};
  gt_dispatch_desc dd = {{ROWS, COLS}, GT_POLICY_PAD, kv, NULL};
  gt_image is = {tex_src, 0, 0, 0, TEX, TEX, GT_FORMAT_R32UI},
           id = {tex_dst, 0, 0, 0, TEX, TEX, GT_FORMAT_R32UI};
  gt_kernel_desc kd = kernel_desc();

  w->got[CALL_TRANSPOSE] = gt_transpose(ctx, S, D, NULL);
  w->got[CALL_IN_PLACE] = gt_transpose(ctx, sq, sq, NULL);
  w->got[CALL_COPY] = gt_copy(ctx, S, E);
  w->got[CALL_MATMUL] = gt_matmul(ctx, A, B, C, &md);
  w->got[CALL_WRITE] = gt_write(ctx, D, in, 0);
  w->got[CALL_READ] = gt_read(ctx, S, w->host, 0);
  w->got[CALL_FINISH] = gt_finish(ctx);
  w->got[CALL_DISPATCH] = gt_kernel_dispatch(ctx, kernel, &dd, NULL);
  w->got[CALL_IMAGE] = gt_image_transpose(ctx, is, id, NULL);
  w->got[CALL_KERNEL_CREATE] = gt_kernel_create(ctx, &kd, &w->created);
  /* Not current here: a no-op, the kernel must still work afterwards. */
  gt_kernel_destroy(ctx, kernel);

  if (other != EGL_NO_CONTEXT) {
    /* Nothing reached the context that is current here either. */
    glGetIntegerv(GL_CURRENT_PROGRAM, &w->other_program);
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &w->other_ssbo);
    glGetIntegeri_v(GL_IMAGE_BINDING_NAME, 1, &w->other_image);
    w->other_error = glGetError();
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display, other);
    if (other_surf != EGL_NO_SURFACE) eglDestroySurface(display, other_surf);
  }
  eglReleaseThread();
  return NULL;
}

/* Buffers and textures as they were made, read back on the main thread. */
static uint32_t src_words[WORDS], dst_words[WORDS], tex_words[TEX * TEX];

static int buffer_is(GLuint b, const uint32_t *want, const char *what) {
  static uint32_t got[WORDS];
  if (gt_test_read_all(ctx, b, WORDS, got) != 0) return 0;
  for (size_t i = 0; i < WORDS; i++)
    if (got[i] != want[i]) {
      fprintf(stderr, "%s: buffer %u word %zu is %08x, want %08x\n", what, b, i, (unsigned)got[i],
              (unsigned)want[i]);
      return 0;
    }
  return 1;
}

static GLuint make_texture(uint32_t seed, uint32_t *words) {
  GLuint t = 0;
  for (size_t i = 0; i < TEX * TEX; i++)
    words[i] = gt_test_noise(i, seed);
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_R32UI, TEX, TEX);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, TEX, TEX, GL_RED_INTEGER, GL_UNSIGNED_INT, words);
  glBindTexture(GL_TEXTURE_2D, 0);
  return t;
}

static int texture_is(GLuint t, const uint32_t *want) {
  static uint32_t four[TEX * TEX * 4];
  GLuint fbo = 0;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
  int ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  if (ok) {
    glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT);
    glReadPixels(0, 0, TEX, TEX, GL_RGBA_INTEGER, GL_UNSIGNED_INT, four);
    ok = glGetError() == GL_NO_ERROR;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  for (size_t i = 0; i < TEX * TEX && ok; i++)
    ok = four[4 * i] == want[i];
  return ok;
}

/* Runs the calls on a new thread and checks that each was refused and
 * that nothing was written. */
static void refused_from_thread(int other_context) {
  worker *w = calloc(1, sizeof *w);
  CHECK(w != NULL);
  if (w == NULL) return;
  w->other_context = other_context;
  for (size_t i = 0; i < ROWS * COLS; i++)
    w->host[i] = 0x5A5A0000u + (uint32_t)i;
  pthread_t t;
  int created = pthread_create(&t, NULL, run_worker, w) == 0;
  CHECK(created);
  if (created) CHECK(pthread_join(t, NULL) == 0);
  if (created && other_context && !w->other_made) {
    printf("another context on the worker thread could not be made: that case skipped\n");
    free(w);
    return;
  }
  if (created) {
    CHECK_EQ_U(w->had_context, other_context);
    for (int i = 0; i < N_CALLS; i++) {
      if (w->got[i] != GT_ERR_NO_CONTEXT)
        fprintf(stderr, "%s from a thread%s: %s\n", call_names[i],
                other_context ? " with another context current" : " without a context",
                gt_status_string(w->got[i]));
      CHECK_STATUS(w->got[i], GT_ERR_NO_CONTEXT);
    }
    CHECK_EQ_U(w->created, 0);
    if (other_context) {
      CHECK_EQ_U(w->other_program, 0);
      CHECK_EQ_U(w->other_ssbo, 0);
      CHECK_EQ_U(w->other_image, 0);
      CHECK_EQ_U(w->other_error, GL_NO_ERROR);
    }
    int host_ok = 1;
    for (size_t i = 0; i < ROWS * COLS; i++)
      host_ok = host_ok && w->host[i] == 0x5A5A0000u + (uint32_t)i;
    CHECK(host_ok);
    printf("worker thread %s: %d calls refused\n",
           other_context ? "with another context current" : "without a context", N_CALLS);
  }
  /* Back on the owning thread: its context is still current, and the
   * refused calls left everything as it was. */
  CHECK(eglGetCurrentContext() != EGL_NO_CONTEXT);
  CHECK(buffer_is(src_buf, src_words, "src after the worker"));
  CHECK(buffer_is(dst_buf, dst_words, "dst after the worker"));
  CHECK(texture_is(tex_dst, tex_words));
  free(w);
}

/* The owning thread's work after the refusals: a transpose and a kernel
 * dispatch, both exact; then every call the workers made, which must be
 * valid here (so context was the only reason they were refused). */
static void main_thread_still_works(void) {
  static uint32_t got[WORDS];
  CHECK_STATUS(gt_transpose(ctx, S, D, NULL), GT_OK);
  CHECK(gt_test_read_all(ctx, dst_buf, WORDS, got) == 0);
  int ok = 1;
  for (uint32_t r = 0; r < ROWS; r++)
    for (uint32_t c = 0; c < COLS; c++)
      ok = ok && got[D.offset + (size_t)c * D.pitch + r] == src_words[S.offset + (size_t)r * S.pitch + c];
  CHECK(ok);

  gt_view kv[2] = {S, E};
  gt_dispatch_desc dd = {{ROWS, COLS}, GT_POLICY_PAD, kv, NULL};
  CHECK_STATUS(gt_kernel_dispatch(ctx, kernel, &dd, NULL), GT_OK);
  CHECK(gt_test_read_all(ctx, dst_buf, WORDS, got) == 0);
  ok = 1;
  for (uint32_t r = 0; r < ROWS; r++)
    for (uint32_t c = 0; c < COLS; c++)
      ok =
          ok && got[D.offset + (size_t)r * D.pitch + c] == src_words[S.offset + (size_t)r * S.pitch + c] + 1u;
  CHECK(ok);

  static uint32_t host[ROWS * COLS];
  gt_view sq = gt_section(D, 0, 0, COLS, COLS);
  gt_matmul_desc md = {.strategy = GT_STRATEGY_AUTO, .scale = true, .alpha = 1.0f, .beta = 1.0f};
  gt_image is = {tex_src, 0, 0, 0, TEX, TEX, GT_FORMAT_R32UI},
           id = {tex_dst, 0, 0, 0, TEX, TEX, GT_FORMAT_R32UI};
  gt_kernel_desc kd = kernel_desc();
  gt_kernel_id second = 0;
  CHECK_STATUS(gt_transpose(ctx, sq, sq, NULL), GT_OK);
  CHECK_STATUS(gt_copy(ctx, S, E), GT_OK);
  CHECK_STATUS(gt_matmul(ctx, A, B, C, &md), GT_OK);
  CHECK_STATUS(gt_write(ctx, D, host, 0), GT_OK);
  CHECK_STATUS(gt_read(ctx, S, host, 0), GT_OK);
  CHECK_STATUS(gt_image_transpose(ctx, is, id, NULL), GT_OK);
  CHECK_STATUS(gt_kernel_create(ctx, &kd, &second), GT_OK);
  CHECK(second != 0);
  gt_kernel_destroy(ctx, second);
  CHECK_STATUS(gt_finish(ctx), GT_OK);
}

int main(int argc, char **argv) {
  gt_test_env env;
  int rc = gt_test_open(argc, argv, &env);
  if (rc != 0) return rc;
  ctx = env.ctx;
  display = (EGLDisplay)env.egl.display;

  for (size_t i = 0; i < WORDS; i++) {
    src_words[i] = gt_test_noise(i, 1);
    dst_words[i] = gt_test_poison(i, 2);
  }
  src_buf = gt_test_buffer(WORDS, gt_test_noise, 1);
  dst_buf = gt_test_buffer(WORDS, gt_test_poison, 2);
  tex_src = make_texture(3, tex_words);
  tex_dst = make_texture(4, tex_words);
  gt_view sp = {src_buf, 5, 40, 30, 0, GT_U32}, dp = {dst_buf, 9, 40, 40, 0, GT_U32};
  S = gt_section(sp, 1, 2, ROWS, COLS);
  D = gt_section(dp, 1, 1, COLS, ROWS);
  E = gt_section(dp, 1, 1, ROWS, COLS);
  /* Matmul views in the same two buffers: a and b read src, c is in dst. */
  A = gt_section(sp, 0, 0, 8, 8);
  B = gt_section(sp, 8, 8, 8, 8);
  C = gt_section(dp, 30, 0, 8, 8);
  A.type = B.type = C.type = GT_F32;
  gt_kernel_desc kd = kernel_desc();
  CHECK_STATUS(gt_kernel_create(ctx, &kd, &kernel), GT_OK);
  CHECK(src_buf && dst_buf && tex_src && tex_dst && glGetError() == GL_NO_ERROR);

  refused_from_thread(0);
  refused_from_thread(1);
  main_thread_still_works();

  gt_kernel_destroy(ctx, kernel);
  glDeleteTextures(1, &tex_src);
  glDeleteTextures(1, &tex_dst);
  glDeleteBuffers(1, &src_buf);
  glDeleteBuffers(1, &dst_buf);
  gt_test_close(&env);
  return CHECK_SUMMARY();
}
