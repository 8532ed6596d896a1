/* Copy of one view into another of the same extent. */
#include "gt_internal.h"

#include <string.h>

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

gt_status gt__copy_program(gt_context *ctx, gt_type type, const gt_program **out) {
  return gt__program_for(ctx, GT_KERNEL_COPY, 0, COPY_GROUP_COLS, 1, 0, gt__bits_type(type), out);
}

gt_status gt__copy_run(gt_context *ctx, const gt_program *prog, gt_bound_view s, gt_bound_view t) {
  gt_bound_view views[2] = {s, t};
  uint32_t per_group = COPY_GROUP_COLS * COPY_RUNS;
  uint32_t words = prog->key.kernel == GT_KERNEL_COPY_VEC4 ? 4 : 1; /* per unit an invocation moves */
  /* An invocation moves an element, or with packed elements a destination
   * word: a row of cols elements touches at most this many words. */
  uint32_t pack = gt__pack(prog->key.elem), units = (s.view.cols + pack - 2) / pack + 1;
  return gt__dispatch(ctx, prog, views, 2, gt__div_up(units, per_group), s.view.rows,
                      gt__moved_bytes((uint64_t)per_group * words));
}

/* Elements in a uvec4: 4, 8 or 16. */
static uint32_t per_vec4(const gt_bound_view *v) { return (uint32_t)(16 / gt_type_size(v->view.type)); }

/* Flattened gapless views whose starts share 16-byte alignment can move
 * as uvec4s (a quarter of the loads and stores, or less for packed
 * elements). The bound ranges start 16-byte aligned whenever the offset
 * alignment is a multiple of 16, as on the devices seen so far. */
static bool vec4_aligned(const gt_bound_view *s, const gt_bound_view *t) {
  uint32_t n = per_vec4(s);
  return s->bind_offset % 16 == 0 && t->bind_offset % 16 == 0 && s->elem_offset % n == 0 &&
         t->elem_offset % n == 0 && s->view.cols >= n;
}

/* true when copy_window would use the uvec4 kernel on s and t. */
static bool wants_vec4(gt_bound_view s, gt_bound_view t) {
  return as_one_row(&s) && as_one_row(&t) && vec4_aligned(&s, &t);
}

/* One window: as uvec4s plus a scalar tail when vec4 is given and the
 * views allow, else as scalars (as one long row when gapless). */
static gt_status copy_window(gt_context *ctx, const gt_program *scalar, const gt_program *vec4,
                             gt_bound_view s, gt_bound_view t) {
  gt_bound_view s1 = s, t1 = t;
  if (!as_one_row(&s1) || !as_one_row(&t1)) return gt__copy_run(ctx, scalar, s, t);
  if (vec4 == NULL || !vec4_aligned(&s1, &t1)) return gt__copy_run(ctx, scalar, s1, t1);
  uint32_t n = per_vec4(&s1), quads = s1.view.cols / n, tail = s1.view.cols % n;
  gt_bound_view sv = s1, tv = t1;
  sv.view.cols = tv.view.cols = sv.view.pitch = tv.view.pitch = quads;
  sv.elem_offset /= n;
  tv.elem_offset /= n;
  GT__TRY(gt__copy_run(ctx, vec4, sv, tv));
  if (tail == 0) return GT_OK;
  return gt__copy_run(ctx, scalar, gt__bound_section(&s1, 0, quads * n, 1, tail),
                      gt__bound_section(&t1, 0, quads * n, 1, tail));
}

gt_status gt_copy(gt_context *ctx, gt_view src, gt_view dst) {
  GT__TRY(gt__context_check(ctx));
  GT__TRY(gt__view_check_fields(src));
  GT__TRY(gt__view_check_fields(dst));
  GT__CHECK(src.type == dst.type && src.rows == dst.rows && src.cols == dst.cols, GT_ERR_SHAPE_MISMATCH);
  /* Inside their buffers before the overlap test, which walks rows. */
  GT__TRY(gt__view_check_buffer(ctx, src));
  GT__TRY(gt__view_check_buffer(ctx, dst));
  GT__CHECK(!gt_views_alias(src, dst), GT_ERR_ALIASED);
  if (gt_type_size(src.type) < 4) GT__TRY(gt__need_atomics(ctx, "a copy of 2- or 1-byte elements"));
  bool in_blocks = !gt__view_fits(ctx, src) || !gt__view_fits(ctx, dst);
  gt_block_plan plan;
  memset(&plan, 0, sizeof plan);
  if (in_blocks) {
    plan.dims = 2;
    plan.extent[0] = src.rows;
    plan.extent[1] = src.cols;
    plan.granule[0] = 1;
    plan.granule[1] = COPY_GROUP_COLS * COPY_RUNS;
    plan.windows[0] = (gt_block_window){0, 1, gt__view_pitch(src)};
    plan.windows[1] = (gt_block_window){0, 1, gt__view_pitch(dst)};
    plan.window_count = 2;
    plan.max_elements = gt__max_bound_elements(&ctx->limits);
    GT__TRY(gt__block_plan(&plan));
  }
  const gt_program *scalar, *vec4 = NULL;
  gt_bound_view s, t;
  if (!in_blocks) {
    GT__TRY(gt__view_bind(ctx, src, &s));
    GT__TRY(gt__view_bind(ctx, dst, &t));
  }
  /* Validation is over; the programs come before the first dispatch. */
  GT__TRY(gt__copy_program(ctx, src.type, &scalar));
  if (!ctx->device->scalar_loads && (in_blocks || wants_vec4(s, t)))
    GT__TRY(gt__program_for(ctx, GT_KERNEL_COPY_VEC4, 0, COPY_GROUP_COLS, 1, 0, GT_U32, &vec4));

  gt_status status = GT_OK;
  if (!in_blocks) status = copy_window(ctx, scalar, vec4, s, t);
  for (uint32_t r = 0; in_blocks && r < src.rows && status == GT_OK; r += plan.block[0]) {
    for (uint32_t c = 0; c < src.cols && status == GT_OK; c += plan.block[1]) {
      uint32_t h = gt__min_u32(plan.block[0], src.rows - r), w = gt__min_u32(plan.block[1], src.cols - c);
      status = gt__view_bind(ctx, gt_section(src, r, c, h, w), &s);
      if (status == GT_OK) status = gt__view_bind(ctx, gt_section(dst, r, c, h, w), &t);
      if (status == GT_OK) status = copy_window(ctx, scalar, vec4, s, t);
    }
  }
  return gt__operation_end(ctx, status, GT__BUFFER_WRITE_BARRIERS, "gt_copy");
}
