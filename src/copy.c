/* Copy of one view into another of the same extent: validation, the plan
 * (copy_plan.c), the programs it names and each window's route. */
#include "copy_plan.h"
#include "operation.h"

#include <string.h>

gt_status gt__copy_run(gt_context *ctx, const gt_program_key *key, gt_bound_view s, gt_bound_view t) {
  const gt_program *prog;
  GT__TRY(gt__program_get(ctx, key, &prog));
  gt_bound_view views[2] = {s, t};
  uint32_t per_group = GT_COPY_GROUP_COLS * GT_COPY_RUNS;
  uint32_t words = key->kernel == GT_KERNEL_COPY_VEC4 ? 4 : 1; /* per unit an invocation moves */
  /* An invocation moves an element, or with packed elements a destination
   * word: a row of cols elements touches at most this many words. */
  uint32_t pack = gt__pack(key->elem), units = (s.view.cols + pack - 2) / pack + 1;
  return gt__dispatch(ctx, prog, views, 2, gt__div_up(units, per_group), s.view.rows,
                      gt__moved_bytes((uint64_t)per_group * words));
}

/* One window by its route: as uvec4s plus a scalar tail, as one long row
 * of scalars, or row by row. */
static gt_status copy_window(gt_context *ctx, const gt_copy_choices *plan, gt_bound_view s, gt_bound_view t) {
  const gt_program_key *scalar = &plan->keys[GT_COPY_SCALAR];
  gt_copy_route route = gt__copy_route(plan, &s, &t);
  if (route == GT_COPY_ROUTE_ROWS) return gt__copy_run(ctx, scalar, s, t);
  gt__copy_as_one_row(&s, &t);
  if (route == GT_COPY_ROUTE_ONE_ROW) return gt__copy_run(ctx, scalar, s, t);
  uint32_t n = gt__copy_per_vec4(&s), quads = s.view.cols / n, tail = s.view.cols % n;
  gt_bound_view sv = s, tv = t;
  sv.view.cols = tv.view.cols = sv.view.pitch = tv.view.pitch = quads;
  sv.elem_offset /= n;
  tv.elem_offset /= n;
  GT__TRY(gt__copy_run(ctx, &plan->keys[GT_COPY_VEC4], sv, tv));
  if (tail == 0) return GT_OK;
  return gt__copy_run(ctx, scalar, gt__bound_section(&s, 0, quads * n, 1, tail),
                      gt__bound_section(&t, 0, quads * n, 1, tail));
}

gt_status gt_copy(gt_context *ctx, gt_view src, gt_view dst) {
  GT__TRY(gt__context_check(ctx));
  GT__TRY(gt__view_check_fields(src));
  GT__TRY(gt__view_check_fields(dst));
  GT__CHECK(src.type == dst.type && src.rows == dst.rows && src.cols == dst.cols, GT_ERR_SHAPE_MISMATCH);
  gt_copy_choices plan;
  gt_status planned = gt__copy_choose(ctx, src, dst, &plan);
  if (planned != GT_OK) {
    gt__log(ctx, GT_LOG_ERROR, "copy: %s", plan.refusal);
    return planned;
  }
  /* Inside their buffers before the overlap test, which walks rows. */
  GT__TRY(gt__view_check_buffer(ctx, src));
  GT__TRY(gt__view_check_buffer(ctx, dst));
  GT__CHECK(!gt_views_alias(src, dst), GT_ERR_ALIASED);
  if (plan.needs_atomics) GT__TRY(gt__need_atomics(ctx, "a copy of 2- or 1-byte elements"));
  /* Validation is over; the programs come before the first dispatch. */
  GT__TRY(gt__programs_build(ctx, plan.keys, GT_COPY_SLOTS));

  gt_status status = GT_OK;
  gt_bound_view s, t;
  if (!plan.in_blocks) {
    status = gt__view_bind(ctx, src, &s);
    if (status == GT_OK) status = gt__view_bind(ctx, dst, &t);
    if (status == GT_OK) status = copy_window(ctx, &plan, s, t);
  }
  const uint32_t *block = plan.blocks.block;
  for (uint32_t r = 0; plan.in_blocks && r < src.rows && status == GT_OK; r += block[0]) {
    for (uint32_t c = 0; c < src.cols && status == GT_OK; c += block[1]) {
      uint32_t h = gt__min_u32(block[0], src.rows - r), w = gt__min_u32(block[1], src.cols - c);
      status = gt__view_bind(ctx, gt_section(src, r, c, h, w), &s);
      if (status == GT_OK) status = gt__view_bind(ctx, gt_section(dst, r, c, h, w), &t);
      if (status == GT_OK) status = copy_window(ctx, &plan, s, t);
    }
  }
  return gt__operation_end(ctx, status, GT__BUFFER_WRITE_BARRIERS, "gt_copy");
}
