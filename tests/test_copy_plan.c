/* The copy planner (src/plan/copy_plan.c), on the host: over every device-table
 * entry, three sets of limits (a desktop GPU, the ES 3.1 minimums, and
 * storage blocks small enough to cut views into blocks), every element
 * type and generated views (gapless or not, aligned or not), the plan
 * keeps its invariants (that its programs are on the program list is
 * test_program_list's): the scalar program always and the uvec4 one never where the entry asks for scalar loads, the
 * blocks cover the extent once and bind, each window's route has its
 * program, uvec4s only where both windows are gapless with starts on 16
 * bytes alike, the uvec4 program only where some window runs it, and
 * atomics are asked for exactly for 2- and 1-byte elements. */
#include "check.h"
#include "harness.h"
#include "plan/copy_plan.h"
#include "plan_contexts.h"

#include <stdio.h>
#include <string.h>

static uint32_t rng = 2026;
static unsigned long plans, refusals, in_blocks, routes_seen[GT_COPY_ROUTE_VEC4 + 1];

static bool has(const gt_copy_choices *p, int slot) { return p->op.keys[slot].group_cols != 0; }

/* One window's route, checked from its bindings. */
static void check_route(const gt_copy_choices *p, const gt_bound_view *s, const gt_bound_view *t) {
  gt_copy_route r = gt__copy_route(p, s, t);
  routes_seen[r]++;
  bool gapless = s->view.pitch == s->view.cols && t->view.pitch == t->view.cols;
  uint32_t per_vec4 = 16 / gt_type_size(s->view.type);
  switch (r) {
  case GT_COPY_ROUTE_ROWS: CHECK(!gapless || (uint64_t)s->view.rows * s->view.cols > UINT32_MAX); break;
  case GT_COPY_ROUTE_ONE_ROW: CHECK(gapless); break;
  case GT_COPY_ROUTE_VEC4:
    CHECK(gapless && has(p, GT_COPY_VEC4));
    CHECK(s->bind_offset % 16 == 0 && t->bind_offset % 16 == 0);
    CHECK(s->elem_offset % per_vec4 == 0 && t->elem_offset % per_vec4 == 0);
    CHECK((uint64_t)s->view.rows * s->view.cols >= per_vec4);
    break;
  }
}

static void check_plan(const gt_context *ctx, gt_view src, gt_view dst) {
  gt_copy_choices p;
  gt_status s = gt__copy_choose(ctx, src, dst, &p);
  if (s != GT_OK) {
    refusals++;
    CHECK_STATUS(s, GT_ERR_UNSUPPORTED);
    CHECK(p.op.refusal[0] != '\0' && !gt__view_fits(ctx, src));
    return;
  }
  plans++;
  CHECK(p.op.reason[0] != '\0' || !p.op.in_blocks);
  CHECK(p.op.needs_atomics == (gt_type_size(src.type) < 4));
  CHECK(has(&p, GT_COPY_SCALAR));
  if (ctx->device->scalar_loads) CHECK(!has(&p, GT_COPY_VEC4));
  for (int i = 0; i < GT_COPY_SLOTS; i++) {
    if (!has(&p, i)) continue;
    CHECK(p.op.keys[i].group_cols * p.op.keys[i].group_rows <= ctx->limits.max_invocations);
  }
  gt_bound_view bs, bt;
  if (!p.op.in_blocks) {
    CHECK(gt__view_bind(ctx, src, &bs) == GT_OK && gt__view_bind(ctx, dst, &bt) == GT_OK);
    gt_copy_route r = gt__copy_route(&p, &bs, &bt);
    check_route(&p, &bs, &bt);
    /* The uvec4 program is named only where the whole views run it. */
    CHECK(has(&p, GT_COPY_VEC4) == (r == GT_COPY_ROUTE_VEC4));
    return;
  }
  in_blocks++;
  const uint32_t *block = p.op.blocks.block;
  uint64_t covered = 0;
  bool vec4_taken = false;
  for (uint32_t r = 0; r < src.rows; r += block[0])
    for (uint32_t c = 0; c < src.cols; c += block[1]) {
      uint32_t h = gt__min_u32(block[0], src.rows - r), w = gt__min_u32(block[1], src.cols - c);
      covered += (uint64_t)h * w;
      gt_status bound = gt__view_bind(ctx, gt_section(src, r, c, h, w), &bs);
      if (bound == GT_OK) bound = gt__view_bind(ctx, gt_section(dst, r, c, h, w), &bt);
      CHECK_STATUS(bound, GT_OK);
      if (bound == GT_OK) check_route(&p, &bs, &bt);
      vec4_taken |= bound == GT_OK && gt__copy_route(&p, &bs, &bt) == GT_COPY_ROUTE_VEC4;
    }
  CHECK(covered == (uint64_t)src.rows * src.cols);
  /* The uvec4 program is named only where some block runs it (where the
   * planner walks every block; past GT_BLOCK_WALK_MAX it names it). */
  uint64_t blocks = (uint64_t)gt__div_up(src.rows, block[0]) * gt__div_up(src.cols, block[1]);
  if (blocks <= GT_BLOCK_WALK_MAX) CHECK(has(&p, GT_COPY_VEC4) == vec4_taken);
  if (blocks > GT_BLOCK_WALK_MAX) CHECK(has(&p, GT_COPY_VEC4) || ctx->device->scalar_loads);
}

/* A view whose rows follow each other with no gap, half the time. */
static gt_view copy_view(GLuint buffer, uint32_t rows, uint32_t cols, gt_type type) {
  gt_view v = plan_view(&rng, buffer, rows, cols, type);
  if (gt_test_rand(&rng) % 2) v.pitch = 0;
  return v;
}

int main(void) {
  const gt_device_entry *entry;
  for (size_t e = 0; (entry = gt__device_entry_at(e)) != NULL; e++)
    for (int limits = 0; limits < PLAN_LIMIT_SETS; limits++) {
      gt_context ctx;
      CHECK_STATUS(plan_context(&ctx, entry, limits, GT_STRATEGY_AUTO), GT_OK);
      for (int n = 0; n < 200; n++) {
        gt_type type = (gt_type)gt_test_rand_range(&rng, 1, GT_TYPE_COUNT);
        uint32_t rows = plan_extent(&rng), cols = plan_extent(&rng);
        check_plan(&ctx, copy_view(1, rows, cols, type), copy_view(2, rows, cols, type));
      }
    }
  printf("%lu plans checked (%lu in blocks), %lu refused; routes: %lu %lu %lu\n", plans, in_blocks, refusals,
         routes_seen[0], routes_seen[1], routes_seen[2]);
  /* The walk reaches every route. */
  for (int r = 0; r <= GT_COPY_ROUTE_VEC4; r++)
    CHECK(routes_seen[r] > 0);
  return CHECK_SUMMARY();
}
