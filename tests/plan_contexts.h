/* Contexts without GL for the planners' host tests: a device-table entry
 * with the limits of a desktop GPU, of the ES 3.1 minimums, or of the
 * minimums with 4 KiB storage blocks (the library's limit sets), and
 * generated views. */
#ifndef GT_PLAN_CONTEXTS_H
#define GT_PLAN_CONTEXTS_H

#include "plan/context.h"

enum { PLAN_LIMIT_SETS = GT_LIMIT_SETS };

/* ctx as gt_context_init makes it on entry's device with limit set
 * `limits` (0 desktop, 1 minimums, 2 minimums with 4 KiB storage blocks;
 * texture buffers and 16-bit storage on the desktop only) and the context
 * desc's transpose strategy. Not GT_OK where the entry's matmul kernel has no fallback. */
gt_status plan_context(gt_context *ctx, const gt_device_entry *entry, int limits, gt_strategy transpose);

/* A view of rows x cols: offset and pitch on words or not, 16 bytes or
 * not, drawn from *rng. */
gt_view plan_view(uint32_t *rng, gt_gl_name buffer, uint32_t rows, uint32_t cols, gt_type type);

/* An extent of one side: 1, a few, tile sides and their neighbours. */
uint32_t plan_extent(uint32_t *rng);

/* Whether a plan function's answer (s, *plan) is GT_OK with these
 * kernels; else says so on stderr, naming the case `what`. */
bool plan_is(gt_status s, const gt_plan *plan, const char *what, const char *kernels);

#endif
