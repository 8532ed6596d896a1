/* Copy of one view into another of the same extent: validation, the plan
 * (copy_plan.c), the programs it names and each window's route. */
#include "ops/operation.h"
#include "plan/copy_plan.h"

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
  const gt_program_key *scalar = &plan->op.keys[GT_COPY_SCALAR];
  gt_copy_route route = gt__copy_route(plan, &s, &t);
  if (route == GT_COPY_ROUTE_ROWS) return gt__copy_run(ctx, scalar, s, t);
  gt__copy_as_one_row(&s, &t);
  if (route == GT_COPY_ROUTE_ONE_ROW) return gt__copy_run(ctx, scalar, s, t);
  uint32_t n = gt__copy_per_vec4(&s), quads = s.view.cols / n, tail = s.view.cols % n;
  gt_bound_view sv = s, tv = t;
  sv.view.cols = tv.view.cols = sv.view.pitch = tv.view.pitch = quads;
  sv.elem_offset /= n;
  tv.elem_offset /= n;
  GT__TRY(gt__copy_run(ctx, &plan->op.keys[GT_COPY_VEC4], sv, tv));
  if (tail == 0) return GT_OK;
  return gt__copy_run(ctx, scalar, gt__bound_section(&s, 0, quads * n, 1, tail),
                      gt__bound_section(&t, 0, quads * n, 1, tail));
}

/* Every window the plan has: the views whole, or their blocks. */
static gt_status execute(gt_context *ctx, const gt_copy_choices *plan, gt_view src, gt_view dst) {
  gt_bound_view s, t;
  if (!plan->op.in_blocks) {
    GT__TRY(gt__view_bind(ctx, src, &s));
    GT__TRY(gt__view_bind(ctx, dst, &t));
    return copy_window(ctx, plan, s, t);
  }
  uint32_t at[3] = {0, 0, 0}, size[3];
  do {
    gt__block_sides(&plan->op.blocks, at, size);
    GT__TRY(gt__view_bind(ctx, gt_section(src, at[0], at[1], size[0], size[1]), &s));
    GT__TRY(gt__view_bind(ctx, gt_section(dst, at[0], at[1], size[0], size[1]), &t));
    GT__TRY(copy_window(ctx, plan, s, t));
  } while (gt__block_next(&plan->op.blocks, at));
  return GT_OK;
}

gt_status gt_copy(gt_context *ctx, gt_view src, gt_view dst) {
  GT__TRY(gt__context_check(ctx));
  GT__TRY(gt__view_check_fields(src));
  GT__TRY(gt__view_check_fields(dst));
  GT__CHECK(src.type == dst.type && src.rows == dst.rows && src.cols == dst.cols, GT_ERR_SHAPE_MISMATCH);
  gt_copy_choices plan;
  GT__TRY(gt__plan_taken(ctx, "copy", gt__copy_choose(ctx, src, dst, &plan), &plan.op));
  /* Inside their buffers before the overlap test, which walks rows. */
  GT__TRY(gt__view_check_buffer(ctx, src));
  GT__TRY(gt__view_check_buffer(ctx, dst));
  GT__CHECK(!gt_views_alias(src, dst), GT_ERR_ALIASED);
  GT__TRY(gt__plan_build(ctx, &plan.op, "a copy of 2- or 1-byte elements"));
  return gt__operation_end(ctx, execute(ctx, &plan, src, dst), GT__BUFFER_WRITE_BARRIERS, "gt_copy");
}
