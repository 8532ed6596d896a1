/* `gltile bench --op calls`: the CPU cost of warm calls and of start-up. */
#ifndef GT_BENCH_CALLS_H
#define GT_BENCH_CALLS_H

#include "tool.h"

/* Times batches of warm 64x64 transposes; prints the medians. Returns 0,
 * or 1 when a call failed. */
int tool_bench_calls(gt_context *ctx);

/* Times a cold start (new context, first calls, programs compiled)
 * against a warm one (new context, gt_program_cache_load, the same
 * calls); prints the medians. Returns 0, or 1 when a call failed. */
int tool_bench_startup(bool min_limits);

#endif
