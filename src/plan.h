/* What every operation's plan holds (plan.c): the programs it runs, by
 * slot, whether it writes parts of words (shader atomics), its blocks,
 * and what decided it or why none exists. Each operation's plan
 * (transpose, copy, image, matmul and its batches, a user kernel's
 * dispatch) begins with one, so every operation reads check, plan, build,
 * execute: one helper takes a plan or logs its refusal, one builds its
 * programs, and one walk steps through its blocks (blocking.h). */
#ifndef GT_PLAN_H
#define GT_PLAN_H

#include "blocking.h"
#include "program.h"

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

/* A planner's answer s for operation `what`: where it is a refusal, the
 * refusal goes to the log. Returns s. */
gt_status gt__plan_taken(gt_context *ctx, const char *what, gt_status s, const gt_op_plan *p);

/* Builds every program the plan names before its operation's first
 * dispatch, so a build failure writes nothing; and refuses a plan that
 * writes parts of words where the context has no shader atomics. Each
 * dispatch then asks for its program again (gt__program_get). */
gt_status gt__plan_build(gt_context *ctx, const gt_op_plan *p, const char *what);

/* Every operation's slots fit: transpose 7, copy 2, image 1, matmul 5. */
#define GT__PLAN_SLOTS_FIT(n) typedef char gt__plan_slots_fit_##n[(int)(n) <= (int)GT_PLAN_SLOTS ? 1 : -1]

#endif
