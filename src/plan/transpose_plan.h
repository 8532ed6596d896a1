/* The plan of a transpose (transpose_plan.c): the strategy that runs, its
 * tile and group, the programs, in place or in blocks, and each window's
 * route. A pure function of the checked views, the description and the
 * context's device entry and limits; gt_transpose builds what it names and
 * runs it. */
#ifndef GT_TRANSPOSE_PLAN_H
#define GT_TRANSPOSE_PLAN_H

#include "plan/blocking.h"
#include "plan/context.h"
#include "plan/group_shape.h"
#include "plan/plan.h"
#include "plan/view.h"

/* transpose_quads: 16 x 8 invocations, each a 4x4 block; with pairs of
 * blocks 8 x 8 (the same 2,048 elements a group: 128 invocations halved
 * the Adreno 660's waves). transpose_words in registers: 16 x 8; through
 * shared memory: tiles of 32 x 32 blocks. */
enum { GT_QUADS_GROUP_COLS = 16, GT_QUADS_GROUP_ROWS = 8, GT_PAIRS_GROUP = 8, GT_WORDS_TILE = 32 };

/* How one window (both views whole, or a block of them) is transposed. */
typedef enum gt_transpose_route {
  GT_ROUTE_SIMPLE,         /* the SIMPLE kernel */
  GT_ROUTE_QUADS,          /* 4x4 blocks as uvec4s (rows 16-byte aligned), SIMPLE on the edges */
  GT_ROUTE_QUAD_ELEMENTS,  /* 4x4 blocks of elements (rows at any alignment), SIMPLE on the edges */
  GT_ROUTE_TILED,          /* the tiled kernel over the padded or truncated extent */
  GT_ROUTE_MAIN_AND_BANDS, /* TRUNCATE_B: even tiles on the main section, SIMPLE on the bands */
  GT_ROUTE_BIG_AND_BANDS,  /* AUTO: the big tile on the main section, the tiled kernel on the bands */
  GT_ROUTE_WORDS,          /* AUTO, 2- and 1-byte rows on words: blocks of words, then the bands */
  GT_ROUTE_WORDS_UVEC4     /* the same as uvec4s, rows on 16 bytes */
} gt_transpose_route;

/* The programs a plan may build, one slot each. */
enum {
  GT_TRANSPOSE_SIMPLE,
  GT_TRANSPOSE_QUADS,
  GT_TRANSPOSE_QUAD_ELEMENTS,
  GT_TRANSPOSE_WORDS,
  GT_TRANSPOSE_WORDS_UVEC4,
  GT_TRANSPOSE_TILED,
  GT_TRANSPOSE_BIG,
  GT_TRANSPOSE_SLOTS
};
GT__PLAN_SLOTS_FIT(GT_TRANSPOSE_SLOTS);

/* Everything a transpose runs, decided before anything is built. */
typedef struct gt_transpose_choices {
  /* The programs by GT_TRANSPOSE_* slot, the windows' routes may take (in
   * place: the aliased variants); atomics for 2- or 1-byte elements
   * written in part of a word; blocks where a view is longer than a
   * storage block. */
  gt_op_plan op;
  gt_strategy strategy; /* what runs: never AUTO */
  gt_type elem;         /* the programs' element: by size (gt__bits_type) */
  uint32_t tile, group_rows;
  bool in_place;   /* src and dst one square view: transpose_inplace.c */
  bool words_only; /* blocks of words cover the transpose whole: no band */
} gt_transpose_choices;

/* The plan of a transpose of validated views (fields and shapes; not
 * their buffers). GT_ERR_UNSUPPORTED where the tile or no block fits the
 * device, GT_ERR_SHAPE_MISMATCH where TILED_EVEN's tile does not divide
 * the extent; p->op.refusal says which. Pure: no GL. */
gt_status gt__transpose_choose(const gt_context *ctx, gt_view src, gt_view dst, const gt_transpose_desc *d,
                               gt_transpose_choices *p);

/* gt_transpose's checks of d and of the views' fields and shapes. */
gt_status gt__transpose_check(const gt_transpose_desc *d, gt_view src, gt_view dst);

/* The route of one window of a planned transpose, by its bindings. */
gt_transpose_route gt__transpose_route(const gt_transpose_choices *p, const gt_bound_view *s,
                                       const gt_bound_view *t);

/* Whether both bindings' rows start on a multiple of `unit` elements. */
bool gt__rows_on(const gt_bound_view *s, const gt_bound_view *t, uint32_t unit);

#endif
