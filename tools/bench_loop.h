/* `gltile bench --op loop`: calls after gt_write and gt_read against the
 * same calls on never-mapped buffers. */
#ifndef GT_BENCH_LOOP_H
#define GT_BENCH_LOOP_H

#include "tool.h"

/* Runs the loop case for each square size of o->sizes; returns the number
 * of failed cases (a failed call or a wrong SIMPLE result). */
int tool_bench_loop(gt_context *ctx, const tool_bench_options *o);

#endif
