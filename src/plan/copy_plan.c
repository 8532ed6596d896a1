/* The plan of a copy: blocks where a view is longer than a storage block,
 * the scalar program and, where some window can take it, the uvec4 one.
 * No GL here, so the host tests walk it over every device entry. */
#include "plan/copy_plan.h"

#include <stdio.h>
#include <string.h>

static void because(gt_copy_choices *p, const char *why) { gt__plan_because(&p->op, why); }

gt_program_key gt__copy_scalar_key(gt_type type) {
  return (gt_program_key){GT_KERNEL_COPY, 0, GT_COPY_GROUP_COLS, 1, 0, gt__bits_type(type), 0};
}

static bool one_row(gt_bound_view *v) {
  uint64_t total = (uint64_t)v->view.rows * v->view.cols;
  if (v->view.pitch != v->view.cols || total > UINT32_MAX) return false;
  v->view.cols = (uint32_t)total;
  v->view.rows = 1;
  v->view.pitch = v->view.cols;
  return true;
}

bool gt__copy_as_one_row(gt_bound_view *s, gt_bound_view *t) {
  gt_bound_view s1 = *s, t1 = *t;
  if (!one_row(&s1) || !one_row(&t1)) return false;
  *s = s1;
  *t = t1;
  return true;
}

uint32_t gt__copy_per_vec4(const gt_bound_view *v) { return (uint32_t)(16 / gt_type_size(v->view.type)); }

/* Flattened gapless views whose starts share 16-byte alignment can move
 * as uvec4s (a quarter of the loads and stores, or less for packed
 * elements). The bound ranges start 16-byte aligned whenever the offset
 * alignment is a multiple of 16, as on the devices seen so far. */
static bool vec4_aligned(const gt_bound_view *s, const gt_bound_view *t) {
  uint32_t n = gt__copy_per_vec4(s);
  return s->bind_offset % 16 == 0 && t->bind_offset % 16 == 0 && s->elem_offset % n == 0 &&
         t->elem_offset % n == 0 && s->view.cols >= n;
}

gt_copy_route gt__copy_route(const gt_copy_choices *p, const gt_bound_view *s, const gt_bound_view *t) {
  gt_bound_view s1 = *s, t1 = *t;
  if (!gt__copy_as_one_row(&s1, &t1)) return GT_COPY_ROUTE_ROWS;
  if (p->op.keys[GT_COPY_VEC4].group_cols == 0 || !vec4_aligned(&s1, &t1)) return GT_COPY_ROUTE_ONE_ROW;
  return GT_COPY_ROUTE_VEC4;
}

/* Whether some window of the plan takes the uvec4 route: the views
 * whole, or one of their blocks. */
static bool some_window_vec4(const gt_context *ctx, gt_view src, gt_view dst, const gt_copy_choices *p) {
  gt_bound_view s, t;
  if (!p->op.in_blocks)
    return gt__view_bind(ctx, src, &s) == GT_OK && gt__view_bind(ctx, dst, &t) == GT_OK &&
           gt__copy_route(p, &s, &t) == GT_COPY_ROUTE_VEC4;
  uint32_t at[3] = {0, 0, 0}, size[3], walked = 0;
  do {
    if (walked++ == GT_BLOCK_WALK_MAX) return true; /* not walked to the end: built anyway */
    gt__block_sides(&p->op.blocks, at, size);
    if (gt__view_bind(ctx, gt_section(src, at[0], at[1], size[0], size[1]), &s) == GT_OK &&
        gt__view_bind(ctx, gt_section(dst, at[0], at[1], size[0], size[1]), &t) == GT_OK &&
        gt__copy_route(p, &s, &t) == GT_COPY_ROUTE_VEC4)
      return true;
  } while (gt__block_next(&p->op.blocks, at));
  return false;
}

gt_status gt__copy_choose(const gt_context *ctx, gt_view src, gt_view dst, gt_copy_choices *p) {
  memset(p, 0, sizeof *p);
  p->op.needs_atomics = gt_type_size(src.type) < 4;
  p->op.in_blocks = !gt__view_fits(ctx, src) || !gt__view_fits(ctx, dst);
  if (p->op.in_blocks) {
    const uint32_t granule[2] = {1, GT_COPY_GROUP_COLS * GT_COPY_RUNS};
    GT__TRY(gt__plan_view_blocks(ctx, src, dst, false, granule, 0, &p->op));
    because(p, "views longer than a storage block: blocks");
  }
  p->op.keys[GT_COPY_SCALAR] = gt__copy_scalar_key(src.type);
  if (ctx->device->scalar_loads) {
    because(p, "scalar_loads");
    return GT_OK;
  }
  /* The uvec4 program where some window (the views whole, or a block of
   * them) takes it. */
  p->op.keys[GT_COPY_VEC4] = (gt_program_key){GT_KERNEL_COPY_VEC4, 0, GT_COPY_GROUP_COLS, 1, 0, GT_U32, 0};
  if (!some_window_vec4(ctx, src, dst, p)) {
    memset(&p->op.keys[GT_COPY_VEC4], 0, sizeof p->op.keys[0]);
    because(p, "rows with gaps or off 16 bytes: scalars");
  } else {
    because(p, "gapless rows on 16 bytes: uvec4s");
  }
  return GT_OK;
}
