/* Copy of one view into another of the same extent. */
#include "gt_internal.h"

/* 64 invocations, each moving 4 elements 64 apart: 256 per group. */
enum { COPY_GROUP_COLS = 64, COPY_ELEMS = 4 };

/* A view whose rows follow each other with no gap, as one long row, so a
 * thin or narrow matrix still fills whole groups. */
static gt_bound_view as_one_row(gt_bound_view v) {
  uint64_t total = (uint64_t)v.view.rows * v.view.cols;
  if (v.view.pitch == v.view.cols && total <= UINT32_MAX) {
    v.view.cols = (uint32_t)total;
    v.view.rows = 1;
    v.view.pitch = v.view.cols;
  }
  return v;
}

gt_status gt_copy(gt_context *ctx, gt_view src, gt_view dst) {
  GT__TRY(gt__context_check(ctx));
  GT__TRY(gt__view_check_fields(src));
  GT__TRY(gt__view_check_fields(dst));
  GT__CHECK(src.type == dst.type && src.rows == dst.rows && src.cols == dst.cols, GT_ERR_SHAPE_MISMATCH);
  GT__CHECK(!gt_views_alias(src, dst), GT_ERR_ALIASED);
  gt_bound_view s, t;
  GT__TRY(gt__view_prepare(ctx, src, &s));
  GT__TRY(gt__view_prepare(ctx, dst, &t));
  gt_program_key key = { GT_KERNEL_COPY, 0, COPY_GROUP_COLS, 1, 0, GT_U32 };
  const gt_program *prog;
  GT__TRY(gt__program_get(ctx, &key, &prog));
  gt_bound_view s1 = as_one_row(s), t1 = as_one_row(t);
  if (s1.view.rows == 1 && t1.view.rows == 1) {
    s = s1;
    t = t1;
  }
  gt_bound_view views[2] = { s, t };
  gt_status status = gt__dispatch(ctx, prog, views, 2,
                                  gt__div_up(gt__div_up(s.view.cols, COPY_ELEMS), COPY_GROUP_COLS), s.view.rows);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  gt_status gl = gt__gl_status(ctx, "gt_copy");
  return status != GT_OK ? status : gl;
}
