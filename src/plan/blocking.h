/* The block planner (blocking.c): work cut into blocks that fit a binding
 * and the work per dispatch. No GL. */
#ifndef GT_BLOCKING_H
#define GT_BLOCKING_H

#include "plan/gt_internal.h"

/* A window some view makes of a block: its rows run along block
 * dimension row_dim, its columns along col_dim, pitch apart. */
typedef struct gt_block_window {
  uint32_t row_dim, col_dim;
  uint64_t pitch;
} gt_block_window;

/* Work over up to 3 dimensions, cut into blocks so that every window fits
 * max_elements and, when max_work is not 0, 2 x the product of the block
 * sides (a matmul's FLOPs) stays within max_work. */
typedef struct gt_block_plan {
  uint32_t dims;
  uint32_t extent[3];  /* the whole work */
  uint32_t limit[3];   /* 0, or the largest block side allowed */
  uint32_t granule[3]; /* block sides are multiples of it when they can be */
  uint32_t min[3];     /* the smallest block side allowed (0 = 1) */
  uint32_t weight[3];  /* cut for work: largest block x weight first (0 = 1) */
  gt_block_window windows[3];
  uint32_t window_count;
  uint64_t max_elements;
  uint64_t max_work;
  uint32_t block[3]; /* out: the block sides; the last block of each
                        dimension may be shorter */
} gt_block_plan;

/* Chooses p->block. GT_ERR_UNSUPPORTED when no block within the minimums
 * fits. */
gt_status gt__block_plan(gt_block_plan *p);

/* Steps at (zeros at first) to p's next block in dispatch order, its last
 * dimension innermost; false after the last. */
bool gt__block_next(const gt_block_plan *p, uint32_t at[3]);

/* The sides of p's block at `at`: p->block, cut at the extent. */
void gt__block_sides(const gt_block_plan *p, const uint32_t at[3], uint32_t sides[3]);

/* The most elements one binding may span wherever the view starts. */
uint64_t gt__max_bound_elements(const gt_limits *l);

/* The most blocks a planner walks to learn which programs they take; past
 * it every candidate program is built (an unused one costs a build, not a
 * wrong result). Planning runs before the views are checked against their
 * buffers, so views far larger than their buffers stay cheap to refuse. */
enum { GT_BLOCK_WALK_MAX = 1024 };

#endif
