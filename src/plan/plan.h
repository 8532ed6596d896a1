/* What every operation's plan holds (plan.c): the programs it runs, by
 * slot, whether it writes parts of words (shader atomics), its blocks,
 * and what decided it or why none exists. Each operation's plan
 * (transpose, copy, image, matmul and its batches, a user kernel's
 * dispatch) begins with one, so every operation reads check, plan, build,
 * execute: one helper takes a plan or logs its refusal, one builds its
 * programs, and one walk steps through its blocks (blocking.h). */
#ifndef GT_PLAN_H
#define GT_PLAN_H

#include "plan/blocking.h"
#include "plan/program.h"
#include "plan/view.h"

enum { GT_PLAN_SLOTS = 8 };

typedef struct gt_op_plan {
  gt_program_key keys[GT_PLAN_SLOTS]; /* the programs, by the operation's slots; group_cols 0: none */
  bool needs_atomics;                 /* writes parts of words: refused without shader atomics */
  bool in_blocks;                     /* views longer than a storage block: each block binds its own */
  gt_block_plan blocks;               /* the blocks (where the operation has them) */
  char reason[128];                   /* what decided, "; " between reasons */
  char refusal[96];                   /* why no plan exists, when the planner says none */
} gt_op_plan;

/* Adds why to the plan's reasons. */
void gt__plan_because(gt_op_plan *p, const char *why);

/* Plans op's blocks for a 2-D operation reading src (rows x cols) and
 * writing dst along the same axes (a copy) or across them (transposed):
 * blocks of whole granules (granule[0] rows by granule[1] columns), each
 * side at least `least` (0: any). Else says in op's refusal that no block
 * fits a storage block. */
gt_status gt__plan_view_blocks(const gt_context *ctx, gt_view src, gt_view dst, bool transposed,
                               const uint32_t granule[2], uint32_t least, gt_op_plan *op);

/* A planner's answer s for operation `what`: where it is a refusal, the
 * refusal goes to the log. Returns s. */
gt_status gt__plan_taken(gt_context *ctx, const char *what, gt_status s, const gt_op_plan *p);

/* The strategies an operation offers, as a mask of GT__STRATEGY(s). */
#define GT__STRATEGY(s) (1u << (unsigned)(s))
#define GT__STRATEGIES_TILED                                                                                 \
  (GT__STRATEGY(GT_STRATEGY_AUTO) | GT__STRATEGY(GT_STRATEGY_SIMPLE) |                                       \
   GT__STRATEGY(GT_STRATEGY_TILED_EVEN) | GT__STRATEGY(GT_STRATEGY_TILED_PAD))

/* true for the tiles a desc may ask: 0 (the default), 8, 16, 32. */
bool gt__tile_valid(uint32_t tile);

/* A description's strategy (one of the mask `strategies`) and tile. */
gt_status gt__desc_check(gt_strategy strategy, uint32_t tile, uint32_t strategies);

/* Every operation's slots fit: transpose 7, copy 2, image 1, matmul 5. */
#define GT__PLAN_SLOTS_FIT(n) typedef char gt__plan_slots_fit_##n[(int)(n) <= (int)GT_PLAN_SLOTS ? 1 : -1]

#endif
