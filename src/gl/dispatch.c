/* One kernel launch: bind the views' ranges, set their uniforms, and
 * dispatch the grid, split into several dispatches when it has more groups
 * than the device allows in one, or would move more bytes than one
 * dispatch may. */
#include "gl/dispatch.h"
#include "plan/context.h"

/* Groups one dispatch may run: the device's count limits, and the byte
 * budget where the caller says what a group moves. At least one. */
static void dispatch_shape(const gt_limits *l, uint32_t groups_cols, uint32_t groups_rows,
                           uint64_t group_bytes, uint32_t *cols, uint32_t *rows) {
  uint64_t budget = group_bytes ? l->max_dispatch_bytes / group_bytes : UINT64_MAX;
  if (budget == 0) budget = 1;
  uint32_t w = gt__min_u32(l->max_group_count[0], groups_cols);
  if (budget < w) w = (uint32_t)budget;
  uint64_t most_rows = budget / w;
  uint32_t h = gt__min_u32(gt__min_u32(l->max_group_count[1], groups_rows),
                           most_rows < UINT32_MAX ? (uint32_t)most_rows : UINT32_MAX);
  /* Parts of one size, so the last is no sliver that leaves most of the
   * GPU idle. */
  *cols = gt__div_up(groups_cols, gt__div_up(groups_cols, w));
  *rows = gt__div_up(groups_rows, gt__div_up(groups_rows, h));
}

/* The grid of gt__dispatch_grid, `layers` deep. */
static gt_status dispatch_grid(gt_context *ctx, const gt_program *prog, const GLuint *view_uniforms,
                               uint32_t count, uint32_t groups_cols, uint32_t groups_rows, uint32_t layers,
                               uint64_t group_bytes) {
  GT__CHECK(count <= GT_MAX_VIEWS, GT_ERR_INVALID_ARGUMENT);
  GT__CHECK(layers <= ctx->limits.max_group_count[2], GT_ERR_INVALID_ARGUMENT);
  if (groups_cols == 0 || groups_rows == 0 || layers == 0) return GT_OK;
  glUseProgram(prog->name);
  glUniform4uiv(prog->views_loc, (GLsizei)count, view_uniforms);
  /* A binding or uniform that failed would leave the kernel writing
   * through a stale binding: no dispatch after an error. */
  GT__TRY(gt__gl_status(ctx, "dispatch set-up"));
  uint32_t step_x, step_y;
  dispatch_shape(&ctx->limits, groups_cols, groups_rows, group_bytes, &step_x, &step_y);
  /* Packed elements: the dispatches of one operation write disjoint
   * elements but may share words, through atomics; a barrier before each
   * makes the earlier ones' words visible to the later ones' atomics on
   * every device, not only where atomics reach memory directly. */
  bool packed = gt__pack(prog->key.elem) > 1;
  for (uint32_t y = 0; y < groups_rows; y += gt__min_u32(step_y, groups_rows - y)) {
    for (uint32_t x = 0; x < groups_cols; x += gt__min_u32(step_x, groups_cols - x)) {
      if (packed) glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
      glUniform2ui(prog->group_base_loc, x, y);
      glDispatchCompute(gt__min_u32(step_x, groups_cols - x), gt__min_u32(step_y, groups_rows - y), layers);
    }
  }
  return GT_OK;
}

gt_status gt__dispatch_grid(gt_context *ctx, const gt_program *prog, const GLuint *view_uniforms,
                            uint32_t count, uint32_t groups_cols, uint32_t groups_rows,
                            uint64_t group_bytes) {
  return dispatch_grid(ctx, prog, view_uniforms, count, groups_cols, groups_rows, 1, group_bytes);
}

/* gt__dispatch, `layers` deep. */
static gt_status dispatch_views(gt_context *ctx, const gt_program *prog, const gt_bound_view *views,
                                uint32_t count, uint32_t groups_cols, uint32_t groups_rows, uint32_t layers,
                                uint64_t group_bytes) {
  GLuint data[GT_MAX_VIEWS * 4];
  GT__CHECK(count <= GT_MAX_VIEWS, GT_ERR_INVALID_ARGUMENT);
  if (groups_cols == 0 || groups_rows == 0) return GT_OK;
  /* glBindBufferRange sets the generic binding too; the caller's is put
   * back, or its next glBufferSubData(GL_SHADER_STORAGE_BUFFER, ...)
   * would write into our destination. */
  GLint generic = 0;
  glGetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &generic);
  for (uint32_t i = 0; i < count; i++) {
    const gt_bound_view *v = &views[i];
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, i, v->view.buffer, v->bind_offset, v->bind_size);
    data[4 * i + 0] = v->view.rows;
    data[4 * i + 1] = v->view.cols;
    data[4 * i + 2] = v->elem_offset;
    data[4 * i + 3] = v->view.pitch;
  }
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, (GLuint)generic);
  return dispatch_grid(ctx, prog, data, count, groups_cols, groups_rows, layers, group_bytes);
}

gt_status gt__dispatch(gt_context *ctx, const gt_program *prog, const gt_bound_view *views, uint32_t count,
                       uint32_t groups_cols, uint32_t groups_rows, uint64_t group_bytes) {
  return dispatch_views(ctx, prog, views, count, groups_cols, groups_rows, 1, group_bytes);
}

gt_status gt__dispatch_layers(gt_context *ctx, const gt_program *prog, const gt_bound_view *views,
                              uint32_t count, uint32_t groups_cols, uint32_t groups_rows, uint32_t layers) {
  /* The caller bounds the work of a dispatch (matmul: FLOPs). */
  return dispatch_views(ctx, prog, views, count, groups_cols, groups_rows, layers, 0);
}
