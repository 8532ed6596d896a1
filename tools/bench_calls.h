/* `gltile bench --op calls`: the CPU cost of a warm call. */
#ifndef GT_BENCH_CALLS_H
#define GT_BENCH_CALLS_H

#include "tool.h"

/* Times batches of warm 64x64 transposes; prints the medians. Returns 0,
 * or 1 when a call failed. */
int tool_bench_calls(gt_context *ctx);

#endif
