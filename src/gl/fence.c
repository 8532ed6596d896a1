/* Fences: points in the command stream the host can wait for without
 * glFinish, so a frame loop keeps the GPU busy. */
#include "gl/fence.h"
#include "plan/context.h"

gt_status gt__fence_wait(GLsync fence, gt_context *ctx, uint64_t timeout_ns) {
  /* The flush bit makes sure the fence reaches the GPU at all. */
  GLenum r = glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, (GLuint64)timeout_ns);
  if (r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED) return GT_OK;
  if (r == GL_TIMEOUT_EXPIRED) return GT_ERR_TIMEOUT;
  gt_status s = gt__gl_status(ctx, "glClientWaitSync");
  return s != GT_OK ? s : GT_ERR_GL;
}

gt_status gt_fence_insert(gt_context *ctx, gt_fence *fence) {
  GT__CHECK(fence != NULL, GT_ERR_INVALID_ARGUMENT);
  fence->sync = NULL;
  GT__TRY(gt__context_check(ctx));
  GLsync sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  /* A fence that never reaches the GPU never signals while the caller
   * only looks (a zero timeout does not flush on every driver). */
  glFlush();
  gt_status s = gt__gl_status(ctx, "gt_fence_insert");
  if (s == GT_OK && sync == 0) s = GT_ERR_GL;
  if (s != GT_OK) {
    if (sync != 0 && !ctx->lost) glDeleteSync(sync);
    return s;
  }
  fence->sync = (void *)sync;
  return GT_OK;
}

gt_status gt_fence_wait(gt_context *ctx, const gt_fence *fence, uint64_t timeout_ns) {
  GT__TRY(gt__context_check(ctx));
  GT__CHECK(fence != NULL && fence->sync != NULL, GT_ERR_INVALID_ARGUMENT);
  return gt__fence_wait((GLsync)fence->sync, ctx, timeout_ns);
}

void gt_fence_release(gt_context *ctx, gt_fence *fence) {
  if (fence == NULL) return;
  if (fence->sync != NULL && gt__context_check(ctx) == GT_OK) glDeleteSync((GLsync)fence->sync);
  fence->sync = NULL;
}
