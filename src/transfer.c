/* Host <-> buffer copies of a view, row by row through a mapped range, so a
 * section with a pitch leaves the elements between its rows untouched. */
#include "gt_internal.h"

#include <string.h>

static gt_status check_transfer(gt_context *ctx, gt_view v, const void *host, size_t host_pitch) {
  GT__TRY(gt__context_check(ctx));
  GT__CHECK(host != NULL, GT_ERR_INVALID_ARGUMENT);
  GT__TRY(gt__view_check_fields(v));
  GT__CHECK(host_pitch == 0 || host_pitch >= v.cols, GT_ERR_INVALID_ARGUMENT);
  /* The host side must be addressable too: (rows-1)*pitch + cols elements. */
  size_t hp = host_pitch ? host_pitch : v.cols;
  GT__CHECK(v.rows == 1 || hp <= (SIZE_MAX / 4 - v.cols) / (v.rows - 1), GT_ERR_OUT_OF_RANGE);
  return gt__view_check_buffer(ctx, v);
}

/* Maps the view's span on `target`, copies every row one way, unmaps and
 * restores the target's previous binding. */
static gt_status copy_rows(gt_context *ctx, gt_view view, GLenum target, GLenum binding, GLbitfield access,
                           void *host, size_t host_pitch) {
  view.pitch = gt__view_pitch(view);
  const gt_view *v = &view;
  size_t hp = host_pitch ? host_pitch : v->cols;
  size_t row_bytes = (size_t)v->cols * 4;
  GLint previous = 0;
  /* Shader writes to this buffer must land before we read or overwrite. */
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glGetIntegerv(binding, &previous);
  glBindBuffer(target, v->buffer);
  GLintptr offset = (GLintptr)(v->offset * 4);
  GLsizeiptr length = (GLsizeiptr)(gt__view_span(*v) * 4);
  unsigned char *mapped = (unsigned char *)glMapBufferRange(target, offset, length, access);
  gt_status s = GT_OK;
  if (mapped == NULL) {
    s = gt__gl_status(ctx, "glMapBufferRange");
    if (s == GT_OK) s = GT_ERR_GL;
  } else {
    unsigned char *h = (unsigned char *)host;
    bool to_buffer = (access & GL_MAP_WRITE_BIT) != 0;
    for (uint32_t r = 0; r < v->rows; r++) {
      unsigned char *buf_row = mapped + (size_t)r * v->pitch * 4;
      unsigned char *host_row = h + (size_t)r * hp * 4;
      if (to_buffer)
        memcpy(buf_row, host_row, row_bytes);
      else
        memcpy(host_row, buf_row, row_bytes);
    }
    /* ES 3.0 2.10.3: false means the data store's contents were lost
     * while mapped (by a screen mode change, say). */
    if (!glUnmapBuffer(target)) {
      s = gt__gl_status(ctx, "glUnmapBuffer");
      if (s == GT_OK) {
        gt__log(ctx, GT_LOG_ERROR, "buffer %u: contents lost while mapped", v->buffer);
        s = GT_ERR_GL;
      }
    }
  }
  glBindBuffer(target, (GLuint)previous);
  gt_status gl = gt__gl_status(ctx, "buffer copy");
  return s != GT_OK ? s : gl;
}

gt_status gt_write(gt_context *ctx, gt_view dst, const void *host, size_t host_pitch) {
  GT__TRY(check_transfer(ctx, dst, host, host_pitch));
  return copy_rows(ctx, dst, GL_COPY_WRITE_BUFFER, GL_COPY_WRITE_BUFFER_BINDING, GL_MAP_WRITE_BIT,
                   (void *)host, host_pitch);
}

gt_status gt_read(gt_context *ctx, gt_view src, void *host, size_t host_pitch) {
  GT__TRY(check_transfer(ctx, src, host, host_pitch));
  return copy_rows(ctx, src, GL_COPY_READ_BUFFER, GL_COPY_READ_BUFFER_BINDING, GL_MAP_READ_BIT, host,
                   host_pitch);
}
