/* The mapping of GL errors to statuses and the check that opens every
 * call: the leaf the rest of the library reports through. It reads the
 * context's fields and calls nothing else of the library but the log, so
 * the context can own programs and kernels without a circle of calls. */
#include "gl/gl_api.h"
#include "plan/context.h"

#include <EGL/egl.h>

gt_status gt__context_check(gt_context *ctx) {
  GT__CHECK(ctx != NULL, GT_ERR_INVALID_ARGUMENT);
  GT__CHECK(!ctx->lost, GT_ERR_CONTEXT_LOST);
  /* With no current context glGetError returns 0 on Mesa, so ask EGL. */
  GT__CHECK(eglGetCurrentContext() == (EGLContext)ctx->egl_context, GT_ERR_NO_CONTEXT);
  /* Errors the application left behind are not ours to report. A lost
   * context keeps answering, hence the bound. */
  for (int i = 0; i < 8; i++) {
    GLenum e = glGetError();
    if (e == GL_NO_ERROR) break;
    if (e == GL_CONTEXT_LOST) return gt__gl_status(ctx, "gltile call");
    gt__log(ctx, GT_LOG_DEBUG, "cleared GL error 0x%04x the application left", (unsigned)e);
  }
  return GT_OK;
}

gt_status gt__gl_status(gt_context *ctx, const char *where) {
  return gt__gl_error_status(ctx, glGetError(), where);
}

gt_status gt__gl_error_status(gt_context *ctx, GLenum e, const char *where) {
  GLenum reset = ctx->reset_status ? ((gt_reset_status_fn)ctx->reset_status)() : GL_NO_ERROR;
  if (e == GL_NO_ERROR && reset == GL_NO_ERROR) return GT_OK;
  gt_status s = GT_ERR_GL;
  if (e == GL_OUT_OF_MEMORY) s = GT_ERR_OUT_OF_MEMORY;
  if (e == GL_CONTEXT_LOST || reset != GL_NO_ERROR) {
    s = GT_ERR_CONTEXT_LOST;
    ctx->lost = true;
    gt__log(ctx, GT_LOG_ERROR, "%s: the GL context was lost (reset status 0x%04x)", where, (unsigned)reset);
    return s;
  }
  gt__log(ctx, GT_LOG_ERROR, "%s: GL error 0x%04x", where, (unsigned)e);
  /* Clear the remaining flags so the next call starts clean. */
  for (int i = 0; i < 8 && glGetError() != GL_NO_ERROR; i++) {
  }
  return s;
}
