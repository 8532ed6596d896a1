/* Timing shared by `gltile bench` and `gltile tune`. */
#ifndef GT_TIMING_H
#define GT_TIMING_H

#include "tool.h"

/* Untimed runs before the timed ones last at least this long. */
#define TOOL_WARM_UP_MS 300

typedef gt_status (*tool_op_fn)(gt_context *ctx, const void *args);

/* Finds the context's timer queries (none on llvmpipe, whose report
 * about zero). Call once after the context is made. */
void tool_timer_init(const char *renderer);

/* Warm-up runs, then the median of reps timed runs of fn into *ms;
 * scratch holds reps doubles. Stops at the first failing run. */
gt_status tool_time_median(gt_context *ctx, tool_op_fn fn, const void *args, unsigned reps, double *scratch,
                           double *ms);

/* Milliseconds of one run of fn, with no warm-up: GPU time from a timer
 * query where the context has one, else the wall clock between finishes.
 * *status says whether the run (and its finish) succeeded. */
double tool_time_once(gt_context *ctx, tool_op_fn fn, const void *args, gt_status *status);

/* Where the times come from, for the report. */
const char *tool_timer_source(void);

#endif
