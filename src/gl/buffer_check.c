/* A view against the buffer it names: the one GL query validation makes
 * before anything is written. */
#include "gl/buffer_check.h"
#include "plan/context.h"

/* Size in bytes of a buffer object, restoring the copy-write binding used
 * to ask: ES 3.1 has no way to query a buffer without binding it. Not the
 * copy-read binding: on the H100, a buffer asked through GL_COPY_READ_BUFFER
 * (or GL_SHADER_STORAGE_BUFFER) and then updated with glBufferSubData gave
 * its old bytes to a later glCopyBufferSubData, glFinish or not, so
 * gt_write then gt_read returned what the buffer held before the write
 * (docs/notes/2026-11-nvidia-transfers.md, "A size query that hid writes,
 * and unaligned glBufferSubData"). */
static gt_status buffer_size(gt_context *ctx, GLuint buffer, uint64_t *out) {
  if (!glIsBuffer(buffer)) {
    /* A failed query also answers false; only a clean false means no
     * such buffer. */
    gt_status s = gt__gl_status(ctx, "glIsBuffer");
    return s != GT_OK ? s : GT_ERR_INVALID_ARGUMENT;
  }
  GLint previous = 0;
  GLint64 size = 0;
  glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &previous);
  glBindBuffer(GL_COPY_WRITE_BUFFER, buffer);
  glGetBufferParameteri64v(GL_COPY_WRITE_BUFFER, GL_BUFFER_SIZE, &size);
  glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)previous);
  *out = size > 0 ? (uint64_t)size : 0;
  return gt__gl_status(ctx, "buffer size query");
}

static gt_status check_bytes(gt_context *ctx, gt_view v, uint64_t end) {
  /* The staging buffer is the context's, not the caller's: a stale name
   * the driver handed out again must not let a call write into it. */
  if (v.buffer == ctx->staging) {
    gt__log(ctx, GT_LOG_ERROR, "buffer %u is the context's own staging buffer", v.buffer);
    return GT_ERR_INVALID_ARGUMENT;
  }
  uint64_t buffer_bytes = 0;
  GT__TRY(buffer_size(ctx, v.buffer, &buffer_bytes));
  if (end > buffer_bytes) {
    gt__log(ctx, GT_LOG_ERROR, "view of buffer %u ends at byte %llu, past its %llu bytes%s", v.buffer,
            (unsigned long long)end, (unsigned long long)buffer_bytes,
            end > gt__view_end_bytes(v) ? " (2- and 1-byte elements are reached as whole 32-bit words)" : "");
    return GT_ERR_OUT_OF_RANGE;
  }
  return GT_OK;
}

gt_status gt__view_check_buffer(gt_context *ctx, gt_view v) {
  GT__TRY(gt__view_check_fields(v));
  return check_bytes(ctx, v, gt__word_end(gt__view_end_bytes(v)));
}

gt_status gt__view_prepare(gt_context *ctx, gt_view v, gt_bound_view *out) {
  GT__TRY(gt__view_check_buffer(ctx, v));
  return gt__view_bind(ctx, v, out);
}
