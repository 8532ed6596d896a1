/* gt_egl_open and gt_egl_close. EGL hands every caller in a process the
 * same display for the same platform and device, and eglTerminate ends
 * every context on it: closing one gt_egl must leave another on the same
 * display, and a display the application initialised, working. Many opens
 * and closes in a row must all succeed. A context from gt_egl_open asks for
 * reset notification where the display offers it, and
 * gt_context_reports_resets must agree with what GL says. */
#include "check.h"
#include "harness.h"

#include "gl/egl_displays.h" /* gt__egl_use_display_references */
#include "gl/gl_api.h" /* gt__has_extension, the ES 3.2 reset names */

#include <EGL/egl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GL_RESET_NOTIFICATION_STRATEGY and GL_LOSE_CONTEXT_ON_RESET come with
 * gt_internal.h. */
#ifndef GL_NO_RESET_NOTIFICATION
#define GL_NO_RESET_NOTIFICATION 0x8261
#endif

enum { ROWS = 5, COLS = 7 };

static bool make_current(const gt_egl *egl) {
  EGLSurface s = egl->surface ? (EGLSurface)egl->surface : EGL_NO_SURFACE;
  return eglMakeCurrent((EGLDisplay)egl->display, s, s, (EGLContext)egl->context) == EGL_TRUE;
}

/* A 5 x 7 transpose on the current context through ctx, checked word for
 * word. */
static void small_transpose(gt_context *ctx, const char *what) {
  uint32_t in[ROWS * COLS], out[ROWS * COLS];
  for (uint32_t i = 0; i < ROWS * COLS; i++)
    in[i] = gt_test_noise(i, 7);
  memset(out, 0, sizeof out);
  GLuint src = gt_test_buffer(ROWS * COLS, gt_test_poison, 1);
  GLuint dst = gt_test_buffer(ROWS * COLS, gt_test_poison, 2);
  gt_view s = {src, 0, ROWS, COLS, 0, GT_U32}, d = {dst, 0, COLS, ROWS, 0, GT_U32};
  CHECK_STATUS(gt_write(ctx, s, in, 0), GT_OK);
  CHECK_STATUS(gt_transpose(ctx, s, d, NULL), GT_OK);
  CHECK_STATUS(gt_read(ctx, d, out, 0), GT_OK);
  bool exact = true;
  for (uint32_t r = 0; r < ROWS; r++)
    for (uint32_t c = 0; c < COLS; c++)
      exact &= out[c * ROWS + r] == in[r * COLS + c];
  CHECK(exact);
  printf("%s: transpose %s\n", what, exact ? "exact" : "WRONG");
  glDeleteBuffers(1, &src);
  glDeleteBuffers(1, &dst);
}

/* A context of the application's own on dpy, made as gt_egl_open makes
 * its own there: with a 1x1 pbuffer (*surf) when pbuffer is set, else
 * without config or surface. No reset notification asked. */
static EGLContext own_context(EGLDisplay dpy, bool pbuffer, EGLSurface *surf) {
  static const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE};
  static const EGLint cfg_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE,
                                       EGL_PBUFFER_BIT, EGL_NONE};
  static const EGLint pb_attribs[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
  EGLConfig cfg = 0;
  EGLint n = 0;
  *surf = EGL_NO_SURFACE;
  CHECK(eglBindAPI(EGL_OPENGL_ES_API));
  if (pbuffer) {
    CHECK(eglChooseConfig(dpy, cfg_attribs, &cfg, 1, &n) && n == 1);
    *surf = eglCreatePbufferSurface(dpy, cfg, pb_attribs);
    CHECK(*surf != EGL_NO_SURFACE);
  }
  EGLContext c = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, attribs);
  CHECK(c != EGL_NO_CONTEXT);
  return c;
}

/* Two gt_egl on one display; a gltile context on the second. Closing the
 * first leaves the second current, and it can be made current again and
 * used: the display was not terminated under it. */
static void close_one_of_two(const char *what) {
  gt_egl first, second;
  CHECK_STATUS(gt_egl_open(&first), GT_OK);
  CHECK_STATUS(gt_egl_open(&second), GT_OK);
  /* Both come from the same path, hence the same display: what is tested. */
  CHECK(first.display != NULL && first.display == second.display);
  gt_context *ctx = NULL;
  CHECK_STATUS(gt_context_init(NULL, 0, NULL, &ctx), GT_OK);
  if (ctx == NULL) {
    gt_egl_close(&first);
    gt_egl_close(&second);
    return;
  }
  gt_egl_close(&first);
  CHECK(first.display == NULL && first.context == NULL && first.surface == NULL);
  CHECK(eglGetCurrentContext() == (EGLContext)second.context);
  CHECK(eglMakeCurrent((EGLDisplay)second.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  CHECK(make_current(&second));
  small_transpose(ctx, what);
  gt_context_release(ctx);
  gt_egl_close(&second);
  CHECK(eglGetCurrentContext() == EGL_NO_CONTEXT);
}

/* A display the application initialised before gt_egl_open is left
 * initialised by gt_egl_close, with the application's context on it. */
static void application_display(const char *what) {
  gt_egl probe, egl;
  CHECK_STATUS(gt_egl_open(&probe), GT_OK);
  EGLDisplay dpy = (EGLDisplay)probe.display;
  bool pbuffer = probe.surface != NULL;
  gt_egl_close(&probe);
  /* The handle outlives the termination; the application initialises it
   * and makes a context of its own there. */
  EGLint major, minor;
  CHECK(eglInitialize(dpy, &major, &minor));
  EGLSurface surf;
  EGLContext own = own_context(dpy, pbuffer, &surf);

  CHECK_STATUS(gt_egl_open(&egl), GT_OK);
  CHECK(egl.display == (void *)dpy);
  gt_egl_close(&egl);
  CHECK(eglQueryString(dpy, EGL_VERSION) != NULL);
  CHECK(eglMakeCurrent(dpy, surf, surf, own));
  gt_context *ctx = NULL;
  CHECK_STATUS(gt_context_init(NULL, 0, NULL, &ctx), GT_OK);
  if (ctx) small_transpose(ctx, what);
  gt_context_release(ctx);
  eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(dpy, own);
  if (surf != EGL_NO_SURFACE) eglDestroySurface(dpy, surf);
  eglTerminate(dpy);
}

/* Opens and closes in a row. Under qemu-arm, 32-bit Mesa llvmpipe
 * crashed at the 29th initialisation of a display in one process (x86-64
 * ran 100 with a flat resident size, arm64 50), so 32-bit builds run 16. */
enum { CYCLES = sizeof(void *) == 4 ? 16 : 50 };

static void open_close_many(void) {
  int failures = 0;
  for (int i = 0; i < CYCLES; i++) {
    gt_egl egl;
    gt_status s = gt_egl_open(&egl);
    if (s != GT_OK || eglGetCurrentContext() != (EGLContext)egl.context) failures++;
    gt_egl_close(&egl);
    if (egl.display != NULL || eglGetCurrentContext() != EGL_NO_CONTEXT) failures++;
  }
  CHECK_EQ_U(failures, 0);
  printf("%d opens and closes: %d failures\n", CYCLES, failures);
}

/* What the current context says about resets: whether the strategy can be
 * queried (ES 3.2 or a robustness extension) and, if so, what it is. */
static bool reset_strategy(GLint *strategy) {
  const char *version = (const char *)glGetString(GL_VERSION);
  const char *exts = (const char *)glGetString(GL_EXTENSIONS);
  int major = 0, minor = 0;
  const char *p = version ? strstr(version, "OpenGL ES ") : NULL;
  if (p == NULL || sscanf(p + 10, "%d.%d", &major, &minor) != 2) return false;
  bool queryable = major > 3 || (major == 3 && minor >= 2) || gt__has_extension(exts, "GL_KHR_robustness") ||
                   gt__has_extension(exts, "GL_EXT_robustness");
  if (!queryable) return false;
  *strategy = 0;
  glGetIntegerv(GL_RESET_NOTIFICATION_STRATEGY, strategy);
  CHECK_EQ_U(glGetError(), GL_NO_ERROR);
  return true;
}

/* gt_context_reports_resets agrees with GL, on gt_egl_open's context and
 * on a context made without reset notification; and gt_egl_open got it
 * wherever the display and the context both offer it. */
static void reset_notification(void) {
  gt_egl egl;
  CHECK_STATUS(gt_egl_open(&egl), GT_OK);
  gt_context *ctx = NULL;
  CHECK_STATUS(gt_context_init(NULL, 0, NULL, &ctx), GT_OK);
  GLint strategy = 0;
  bool queryable = reset_strategy(&strategy);
  bool reports = gt_context_reports_resets(ctx);
  CHECK(reports == (queryable && strategy == GL_LOSE_CONTEXT_ON_RESET));
  const char *dpy_exts = eglQueryString((EGLDisplay)egl.display, EGL_EXTENSIONS);
  bool offered = gt__has_extension(dpy_exts, "EGL_EXT_create_context_robustness");
  if (offered && queryable) CHECK(reports);
  printf("gt_egl_open: EGL_EXT_create_context_robustness %s, strategy %s, resets %s\n",
         offered ? "offered" : "not offered",
         !queryable                             ? "not queryable"
         : strategy == GL_LOSE_CONTEXT_ON_RESET ? "lose context on reset"
         : strategy == GL_NO_RESET_NOTIFICATION ? "no reset notification"
                                                : "unknown",
         reports ? "reported" : "not reported");
  gt_context_release(ctx);

  /* The same display, a context made without the attribute: no
   * notification by default (EGL 1.5, 3.7.1.5), so nothing is reported. */
  EGLDisplay dpy = (EGLDisplay)egl.display;
  EGLSurface surf;
  EGLContext plain = own_context(dpy, egl.surface != NULL, &surf);
  CHECK(eglMakeCurrent(dpy, surf, surf, plain));
  CHECK_STATUS(gt_context_init(NULL, 0, NULL, &ctx), GT_OK);
  queryable = reset_strategy(&strategy);
  if (queryable) CHECK_EQ_U(strategy, GL_NO_RESET_NOTIFICATION);
  CHECK(!gt_context_reports_resets(ctx));
  gt_context_release(ctx);
  CHECK(make_current(&egl));
  eglDestroyContext(dpy, plain);
  if (surf != EGL_NO_SURFACE) eglDestroySurface(dpy, surf);
  gt_egl_close(&egl);
}

int main(void) {
  gt_egl egl;
  if (gt_egl_open(&egl) != GT_OK) {
    printf("no OpenGL ES 3.1 context: skipped\n");
    return GT_TEST_SKIP;
  }
  gt_egl_close(&egl);
  const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  bool references = gt__has_extension(client, "EGL_KHR_display_reference");
  printf("EGL_KHR_display_reference: %s\n", references ? "offered" : "not offered (displays counted)");

  close_one_of_two(references ? "display references" : "displays counted");
  application_display(references ? "display references, application's display" : "application's display");
  if (references) {
    /* The count, which other EGLs rely on, where this one need not. */
    gt__egl_use_display_references(false);
    close_one_of_two("displays counted");
    application_display("displays counted, application's display");
    gt__egl_use_display_references(true);
  }
  open_close_many();
  reset_notification();
  return CHECK_SUMMARY();
}
