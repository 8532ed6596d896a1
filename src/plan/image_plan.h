/* The plan of an image transpose or quarter turn (image_plan.c): the
 * strategy, tile and group, the program and the reason. A pure function
 * of the windows' extents and format, the description and the context's
 * device entry and limits; gt_image_transpose and gt_image_rotate build
 * what it names and run it. */
#ifndef GT_IMAGE_PLAN_H
#define GT_IMAGE_PLAN_H

#include "plan/blocking.h"
#include "plan/context.h"
#include "plan/group_shape.h"
#include "plan/plan.h"
#include "plan/view.h"

typedef struct gt_image_choices {
  gt_op_plan op;                 /* its one program, slot 0 */
  gt_strategy strategy;          /* what runs: SIMPLE, TILED_EVEN or TILED_PAD */
  uint32_t step_cols, step_rows; /* the texels a group covers */
} gt_image_choices;

/* The plan of `turns` quarter turns (0: a transpose) of src's window, of
 * fields and shapes already checked. GT_ERR_UNSUPPORTED where the tile
 * does not fit the device, GT_ERR_SHAPE_MISMATCH where TILED_EVEN's tile
 * does not divide the window; p->op.refusal says which. Pure: no GL. */
gt_status gt__image_choose(const gt_context *ctx, gt_image src, uint32_t turns, const gt_transpose_desc *d,
                           gt_image_choices *p);

#endif
