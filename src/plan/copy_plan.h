/* The plan of a copy (copy_plan.c): whether the views go in blocks, the
 * programs, and each window's route. A pure function of the checked
 * views and the context's device entry and limits; gt_copy builds what it
 * names and runs it. */
#ifndef GT_COPY_PLAN_H
#define GT_COPY_PLAN_H

#include "plan/blocking.h"
#include "plan/context.h"
#include "plan/group_shape.h"
#include "plan/plan.h"
#include "plan/view.h"

/* 64 invocations, each moving 4 elements (or uvec4s) 64 apart. */
enum { GT_COPY_GROUP_COLS = 64, GT_COPY_RUNS = 4 };

/* How one window (both views whole, or a block of them) is copied. */
typedef enum gt_copy_route {
  GT_COPY_ROUTE_ROWS,    /* the scalar kernel, row by row */
  GT_COPY_ROUTE_ONE_ROW, /* gapless rows: the scalar kernel over one long row */
  GT_COPY_ROUTE_VEC4     /* gapless, starts 16-byte aligned alike: uvec4s, then a scalar tail */
} gt_copy_route;

/* The programs a copy may run; a key whose group_cols is 0 is not needed. */
enum { GT_COPY_SCALAR, GT_COPY_VEC4, GT_COPY_SLOTS };
GT__PLAN_SLOTS_FIT(GT_COPY_SLOTS);

typedef struct gt_copy_choices {
  /* The programs by GT_COPY_* slot; atomics for 2- or 1-byte elements
   * written in part of a word; blocks where a view is longer than a
   * storage block. */
  gt_op_plan op;
} gt_copy_choices;

/* The key of the scalar copy of elements of type (transfers use it too). */
gt_program_key gt__copy_scalar_key(gt_type type);

/* The plan of a copy of checked views. GT_ERR_UNSUPPORTED where no block
 * fits a binding; p->op.refusal says so. Pure: no GL. */
gt_status gt__copy_choose(const gt_context *ctx, gt_view src, gt_view dst, gt_copy_choices *p);

/* The route of one window of a planned copy, by its bindings. */
gt_copy_route gt__copy_route(const gt_copy_choices *p, const gt_bound_view *s, const gt_bound_view *t);

/* s and t as one long row, when their rows follow each other with no gap
 * and the row's length fits; false (and unchanged) otherwise. */
bool gt__copy_as_one_row(gt_bound_view *s, gt_bound_view *t);

/* Elements in a uvec4 of v's type: 4, 8 or 16. */
uint32_t gt__copy_per_vec4(const gt_bound_view *v);

#endif
