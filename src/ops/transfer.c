/* Host <-> buffer copies of a view. The caller's buffer is never mapped:
 * writes go in with glBufferSubData, reads come out through a staging
 * buffer the context owns. A driver may move a buffer the application
 * maps into host memory for good, where every later kernel on it runs many
 * times slower and a long one can lose its writes (docs/performance.md,
 * "What to do and avoid on NVIDIA"), so the mapping is kept to the
 * staging buffer, which nothing but copies ever touch. */
#include "ops/operation.h"
#include "plan/copy_plan.h"
#include "plan/transfer_rows.h"

#include <string.h>

/* A place in the view's elements, row by row. */
typedef struct cursor {
  uint64_t row, col;
} cursor;

/* The GL bindings a transfer changes, restored when it ends. */
typedef struct saved_bindings {
  GLint copy_read, copy_write;
} saved_bindings;

static saved_bindings save_bindings(void) {
  saved_bindings b = {0, 0};
  glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &b.copy_read);
  glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &b.copy_write);
  return b;
}

static void restore_bindings(saved_bindings b) {
  glBindBuffer(GL_COPY_READ_BUFFER, (GLuint)b.copy_read);
  glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)b.copy_write);
}

/* The host rows of a transfer of v: present, host_pitch 0 or at least
 * v.cols, and (rows-1)*pitch + cols elements addressable. */
static gt_status check_host(gt_view v, const void *host, size_t host_pitch) {
  GT__CHECK(host != NULL, GT_ERR_INVALID_ARGUMENT);
  GT__CHECK(host_pitch == 0 || host_pitch >= v.cols, GT_ERR_INVALID_ARGUMENT);
  size_t hp = host_pitch ? host_pitch : v.cols;
  GT__CHECK(v.rows <= 1 || hp <= (SIZE_MAX / gt_type_size(v.type) - v.cols) / (v.rows - 1),
            GT_ERR_OUT_OF_RANGE);
  return GT_OK;
}

static gt_status check_transfer(gt_context *ctx, gt_view v, const void *host, size_t host_pitch) {
  GT__TRY(gt__context_check(ctx));
  GT__TRY(gt__view_check_fields(v));
  GT__TRY(check_host(v, host, host_pitch));
  return gt__view_check_buffer(ctx, v);
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Elements from `at` to the end of its row, at most `room`; moves `at`. */
static uint64_t take(const gt_transfer_rows *t, cursor *at, uint64_t room) {
  uint64_t n = min_u64(t->cols - at->col, room);
  at->col += n;
  if (at->col == t->cols) {
    at->row++;
    at->col = 0;
  }
  return n;
}

/* ---- the staging buffer ------------------------------------------- */

static gt_status make_staging(gt_context *ctx) {
  if (ctx->staging != 0) return GT_OK;
  GLuint b = 0;
  glGenBuffers(1, &b);
  glBindBuffer(GL_COPY_WRITE_BUFFER, b);
  /* STREAM_READ: written by the GPU, read once by the host. */
  glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)ctx->limits.staging_bytes, NULL, GL_STREAM_READ);
  gt_status s = gt__gl_status(ctx, "staging buffer");
  if (s == GT_OK && b == 0) s = GT_ERR_GL;
  if (s != GT_OK) {
    if (b != 0 && !ctx->lost) glDeleteBuffers(1, &b);
    return s;
  }
  gt__log(ctx, GT_LOG_DEBUG, "staging buffer %u: %llu bytes", b,
          (unsigned long long)ctx->limits.staging_bytes);
  ctx->staging = b;
  return GT_OK;
}

/* Copies elements of t from *at on into the staging buffer, packed, until
 * it is full or the view ends; src bound to GL_COPY_READ_BUFFER and the
 * staging buffer to GL_COPY_WRITE_BUFFER. Returns the elements copied. */
static uint64_t stage(const gt_context *ctx, const gt_transfer_rows *t, cursor *at) {
  uint64_t room = ctx->limits.staging_bytes / t->size, used = 0;
  while (at->row < t->rows && used < room) {
    uint64_t from = t->offset + at->row * t->pitch + at->col;
    uint64_t n = take(t, at, room - used);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, (GLintptr)(from * t->size),
                        (GLintptr)(used * t->size), (GLsizeiptr)(n * t->size));
    used += n;
  }
  return used;
}

/* Maps the first `count` staged elements (the staging buffer bound to
 * GL_COPY_WRITE_BUFFER) and hands them out to host rows from *at on. */
static gt_status unstage(gt_context *ctx, const gt_transfer_rows *t, cursor *at, uint64_t count,
                         unsigned char *host) {
  const unsigned char *mapped = (const unsigned char *)glMapBufferRange(
      GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)(count * t->size), GL_MAP_READ_BIT);
  if (mapped == NULL) {
    gt_status s = gt__gl_status(ctx, "glMapBufferRange(staging)");
    return s != GT_OK ? s : GT_ERR_GL;
  }
  for (uint64_t done = 0; done < count;) {
    unsigned char *to = host + (at->row * t->host_pitch + at->col) * t->size;
    uint64_t n = take(t, at, count - done);
    memcpy(to, mapped + done * t->size, (size_t)(n * t->size));
    done += n;
  }
  /* ES 3.0 2.10.3: false means the contents were lost while mapped. */
  if (!glUnmapBuffer(GL_COPY_WRITE_BUFFER)) {
    gt_status s = gt__gl_status(ctx, "glUnmapBuffer(staging)");
    if (s == GT_OK) gt__log(ctx, GT_LOG_ERROR, "staging buffer: contents lost while mapped");
    return s != GT_OK ? s : GT_ERR_GL;
  }
  return GT_OK;
}

/* ---- the calls ---------------------------------------------------- */

/* gt_write of a view of 2- or 1-byte elements whose rows do not start and
 * end on whole words. On the H100, glBufferSubData at an offset or length
 * that is not a multiple of 4 bytes was not seen by later copies or
 * kernels, glFinish or not, though a mapping saw it (docs/design.md). So
 * the rows go, a staging buffer's worth at a time, into the staging
 * buffer through a mapping, and the copy kernel moves them into the view,
 * writing the words the view shares with other elements with atomics. */
static gt_status write_by_kernel(gt_context *ctx, gt_view v, const unsigned char *host, size_t host_pitch) {
  gt_program_key copy = gt__copy_scalar_key(v.type);
  GT__TRY(gt__programs_build(ctx, &copy, 1));
  GT__TRY(make_staging(ctx));
  size_t size = gt_type_size(v.type), hp = host_pitch ? host_pitch : v.cols;
  uint64_t room = ctx->limits.staging_bytes / size, most = gt__max_bound_elements(&ctx->limits);
  if (room > most) room = most;
  uint64_t total = (uint64_t)v.rows * v.cols;
  GLint previous = 0;
  glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &previous);
  gt_status s = GT_OK;
  for (uint64_t done = 0; done < total && s == GT_OK;) {
    /* Whole rows where they fit, else a piece of one row; halved until
     * the view's section fits one binding. */
    uint32_t r = (uint32_t)(done / v.cols), c = (uint32_t)(done % v.cols);
    uint32_t h = 1, w = (uint32_t)min_u64(v.cols - c, room);
    if (c == 0 && v.cols <= room) h = (uint32_t)min_u64(v.rows - r, room / v.cols);
    while (h > 1 && !gt__view_fits(ctx, gt_section(v, r, c, h, w)))
      h /= 2;
    while (w > 1 && !gt__view_fits(ctx, gt_section(v, r, c, h, w)))
      w /= 2;
    /* Orphaned, so no wait for the last round's kernel. */
    glBindBuffer(GL_COPY_WRITE_BUFFER, ctx->staging);
    unsigned char *mapped =
        (unsigned char *)glMapBufferRange(GL_COPY_WRITE_BUFFER, 0, (GLsizeiptr)((uint64_t)h * w * size),
                                          GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
    if (mapped == NULL) {
      s = gt__gl_status(ctx, "glMapBufferRange(staging)");
      if (s == GT_OK) s = GT_ERR_GL;
      break;
    }
    for (uint32_t i = 0; i < h; i++)
      memcpy(mapped + (size_t)i * w * size, host + (((size_t)r + i) * hp + c) * size, (size_t)w * size);
    if (!glUnmapBuffer(GL_COPY_WRITE_BUFFER)) {
      s = gt__gl_status(ctx, "glUnmapBuffer(staging)");
      if (s == GT_OK) s = GT_ERR_GL;
      break;
    }
    gt_view staged = {ctx->staging, 0, h, w, 0, v.type};
    gt_bound_view from, to;
    s = gt__view_bind(ctx, staged, &from);
    if (s == GT_OK) s = gt__view_bind(ctx, gt_section(v, r, c, h, w), &to);
    if (s == GT_OK) s = gt__copy_run(ctx, &copy, from, to);
    done += (uint64_t)h * w;
  }
  if (!ctx->lost) glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)previous);
  return gt__operation_end(ctx, s, GT__BUFFER_WRITE_BARRIERS, "gt_write");
}

gt_status gt_write(gt_context *ctx, gt_view dst, const void *host, size_t host_pitch) {
  GT__TRY(check_transfer(ctx, dst, host, host_pitch));
  gt_transfer_rows t = gt__transfer_rows(dst, host_pitch);
  const unsigned char *h = (const unsigned char *)host;
  if (gt__write_program(dst, host_pitch).group_cols) {
    GT__TRY(gt__need_atomics(ctx, "gt_write of 2- or 1-byte rows off 4-byte boundaries"));
    GT__CHECK(ctx->pending.fence == NULL, GT_ERR_BUSY);
    return write_by_kernel(ctx, dst, h, host_pitch);
  }
  /* Shader writes to this buffer must land before we overwrite them. */
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  GLint previous = 0;
  glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &previous);
  glBindBuffer(GL_COPY_WRITE_BUFFER, dst.buffer);
  for (uint64_t r = 0; r < t.rows; r++)
    glBufferSubData(GL_COPY_WRITE_BUFFER, (GLintptr)((t.offset + r * t.pitch) * t.size),
                    (GLsizeiptr)(t.cols * t.size), h + r * t.host_pitch * t.size);
  glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)previous);
  return gt__gl_status(ctx, "gt_write");
}

gt_status gt_read(gt_context *ctx, gt_view src, void *host, size_t host_pitch) {
  GT__TRY(check_transfer(ctx, src, host, host_pitch));
  GT__CHECK(ctx->pending.fence == NULL, GT_ERR_BUSY);
  gt_transfer_rows t = gt__transfer_rows(src, host_pitch);
  saved_bindings saved = save_bindings();
  gt_status s = make_staging(ctx);
  if (s == GT_OK) {
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_COPY_READ_BUFFER, src.buffer);
    glBindBuffer(GL_COPY_WRITE_BUFFER, ctx->staging);
  }
  cursor staged = {0, 0}, handed = {0, 0};
  while (s == GT_OK && staged.row < t.rows) {
    uint64_t count = stage(ctx, &t, &staged);
    s = gt__gl_status(ctx, "gt_read copy");
    if (s == GT_OK) s = unstage(ctx, &t, &handed, count, (unsigned char *)host);
  }
  if (!ctx->lost) restore_bindings(saved);
  gt_status gl = ctx->lost ? GT_OK : gt__gl_status(ctx, "gt_read");
  return s != GT_OK ? s : gl;
}

gt_status gt_read_begin(gt_context *ctx, gt_view src) {
  /* The host rows come with gt_read_end, which checks them. */
  GT__TRY(gt__context_check(ctx));
  GT__TRY(gt__view_check_buffer(ctx, src));
  GT__CHECK(ctx->pending.fence == NULL, GT_ERR_BUSY);
  if ((uint64_t)src.rows * src.cols > ctx->limits.staging_bytes / gt_type_size(src.type)) {
    gt__log(ctx, GT_LOG_ERROR, "gt_read_begin: %ux%u elements exceed the %llu-byte staging buffer", src.rows,
            src.cols, (unsigned long long)ctx->limits.staging_bytes);
    return GT_ERR_UNSUPPORTED;
  }
  gt_transfer_rows t = gt__transfer_rows(src, 0);
  saved_bindings saved = save_bindings();
  gt_status s = make_staging(ctx);
  GLsync fence = 0;
  if (s == GT_OK) {
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_COPY_READ_BUFFER, src.buffer);
    glBindBuffer(GL_COPY_WRITE_BUFFER, ctx->staging);
    cursor at = {0, 0};
    stage(ctx, &t, &at);
    fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    /* Without a flush the fence might never reach the GPU while the
     * caller only polls. */
    glFlush();
    s = gt__gl_status(ctx, "gt_read_begin");
    if (s == GT_OK && fence == 0) s = GT_ERR_GL;
  }
  if (ctx->lost) return s;
  restore_bindings(saved);
  if (s == GT_OK) s = gt__gl_status(ctx, "gt_read_begin");
  if (s != GT_OK) {
    if (fence != 0) glDeleteSync(fence);
    return s;
  }
  ctx->pending = (gt_pending_read){(void *)fence, src.rows, src.cols, src.type};
  return GT_OK;
}

/* Ends the pending read-back: its fence deleted, the staging free again. */
static void end_pending(gt_context *ctx) {
  if (!ctx->lost) glDeleteSync((GLsync)ctx->pending.fence);
  ctx->pending.fence = NULL;
}

gt_status gt_read_end(gt_context *ctx, void *host, size_t host_pitch, uint64_t timeout_ns) {
  GT__TRY(gt__context_check(ctx));
  gt_pending_read p = ctx->pending;
  GT__CHECK(p.fence != NULL, GT_ERR_INVALID_ARGUMENT);
  gt_view shape = {ctx->staging, 0, p.rows, p.cols, 0, p.type};
  GT__TRY(check_host(shape, host, host_pitch));
  gt_status s = gt__fence_wait((GLsync)p.fence, ctx, timeout_ns);
  if (s == GT_ERR_TIMEOUT) return s;
  if (s == GT_OK) {
    gt_transfer_rows t = gt__transfer_rows(shape, host_pitch);
    GLint previous = 0;
    glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &previous);
    glBindBuffer(GL_COPY_WRITE_BUFFER, ctx->staging);
    cursor at = {0, 0};
    s = unstage(ctx, &t, &at, (uint64_t)p.rows * p.cols, (unsigned char *)host);
    if (!ctx->lost) glBindBuffer(GL_COPY_WRITE_BUFFER, (GLuint)previous);
    gt_status gl = ctx->lost ? GT_OK : gt__gl_status(ctx, "gt_read_end");
    if (s == GT_OK) s = gl;
  }
  end_pending(ctx);
  return s;
}

gt_status gt_read_cancel(gt_context *ctx) {
  GT__TRY(gt__context_check(ctx));
  if (ctx->pending.fence != NULL) end_pending(ctx);
  return GT_OK;
}
