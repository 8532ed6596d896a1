/* `gltile bench --op arith`: how fast this device multiplies and adds in
 * each precision a kernel can ask for. */
#ifndef GT_BENCH_ARITH_H
#define GT_BENCH_ARITH_H

#include "tool.h"

/* The precisions measured: highp floats, mediump floats, and 16-bit
 * float vectors where the context offers an extension with them. */
enum { TOOL_ARITH_HIGHP, TOOL_ARITH_MEDIUMP, TOOL_ARITH_F16VEC, TOOL_ARITH_KINDS };

/* TFLOP/s of each precision (a multiply-add counted as 2), 0 where it
 * was not measured: not offered, or its program did not build (said on
 * stderr). */
typedef struct tool_arith_rates {
  double tflops[TOOL_ARITH_KINDS];
  const char *f16_extension; /* the extension behind TOOL_ARITH_F16VEC, or NULL */
} tool_arith_rates;

/* Times each precision's chain of multiply-adds (medians of reps runs;
 * scratch holds reps doubles). Leaves no program or buffer bound.
 * Returns 0, or 1 when highp itself could not be measured. */
int tool_arith_measure(gt_context *ctx, unsigned reps, double *scratch, tool_arith_rates *rates);

/* tool_arith_measure, printed as a table; the rates also into *rates
 * unless it is NULL. Returns tool_arith_measure's result. */
int tool_bench_arith(gt_context *ctx, unsigned reps, double *scratch, tool_arith_rates *rates);

/* Whether mediump sums run fast enough to choose them (the device
 * table's half_is_faster): at least 1.5 times the highp rate. */
bool tool_arith_half_is_faster(const tool_arith_rates *rates);

#endif
