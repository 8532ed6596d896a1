/* Copy of one view into another of the same extent. */
#include "gt_internal.h"

/* 64 invocations, each moving 4 elements (or uvec4s) 64 apart. */
enum { COPY_GROUP_COLS = 64, COPY_RUNS = 4 };

/* The view as one long row when its rows follow each other with no gap. */
static bool as_one_row(gt_bound_view *v) {
  uint64_t total = (uint64_t)v->view.rows * v->view.cols;
  if (v->view.pitch != v->view.cols || total > UINT32_MAX) return false;
  v->view.cols = (uint32_t)total;
  v->view.rows = 1;
  v->view.pitch = v->view.cols;
  return true;
}

static gt_status run(gt_context *ctx, const gt_program *prog, gt_bound_view s, gt_bound_view t) {
  gt_bound_view views[2] = {s, t};
  uint32_t per_group = COPY_GROUP_COLS * COPY_RUNS;
  return gt__dispatch(ctx, prog, views, 2, gt__div_up(s.view.cols, per_group), s.view.rows);
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
  gt_program_key scalar_key = {.kernel = GT_KERNEL_COPY,
                               .tile = 0,
                               .group_cols = COPY_GROUP_COLS,
                               .group_rows = 1,
                               .variant = 0,
                               .elem = GT_U32};
  gt_program_key vec4_key = {.kernel = GT_KERNEL_COPY_VEC4,
                             .tile = 0,
                             .group_cols = COPY_GROUP_COLS,
                             .group_rows = 1,
                             .variant = 0,
                             .elem = GT_U32};
  const gt_program *scalar, *vec4 = NULL;
  GT__TRY(gt__program_get(ctx, &scalar_key, &scalar));

  /* Two gapless views whose starts share 16-byte alignment: the bulk as
   * uvec4s (a quarter of the loads and stores), the last 0-3 elements by
   * the scalar kernel. The bound ranges start 16-byte aligned whenever the
   * offset alignment is a multiple of 16, as on the devices seen so far. */
  gt_bound_view s1 = s, t1 = t;
  bool flat = as_one_row(&s1) && as_one_row(&t1);
  bool aligned = flat && s1.bind_offset % 16 == 0 && t1.bind_offset % 16 == 0 && s1.elem_offset % 4 == 0 &&
                 t1.elem_offset % 4 == 0 && s1.view.cols >= 4;
  if (aligned) GT__TRY(gt__program_get(ctx, &vec4_key, &vec4));

  gt_status status;
  if (aligned) {
    uint32_t quads = s1.view.cols / 4, tail = s1.view.cols % 4;
    gt_bound_view sv = s1, tv = t1;
    sv.view.cols = tv.view.cols = sv.view.pitch = tv.view.pitch = quads;
    sv.elem_offset /= 4;
    tv.elem_offset /= 4;
    status = run(ctx, vec4, sv, tv);
    if (status == GT_OK && tail)
      status = run(ctx, scalar, gt__bound_section(&s1, 0, quads * 4, 1, tail),
                   gt__bound_section(&t1, 0, quads * 4, 1, tail));
  } else {
    status = flat ? run(ctx, scalar, s1, t1) : run(ctx, scalar, s, t);
  }
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  gt_status gl = gt__gl_status(ctx, "gt_copy");
  return status != GT_OK ? status : gl;
}
