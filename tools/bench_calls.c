/* The CPU cost of a warm call: what an application pays per gt_transpose
 * once the program is built, apart from the GPU's own time. */
#define _POSIX_C_SOURCE 200809L
#include "bench_calls.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

enum { SIDE = 64, CALLS = 1000, BATCHES = 7 };

static double thread_cpu_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

int tool_bench_calls(gt_context *ctx) {
  GLuint src = tool_buffer(SIDE * SIDE, NULL), dst = tool_buffer(SIDE * SIDE, NULL);
  gt_view s = {src, 0, SIDE, SIDE, 0, GT_F32}, d = {dst, 0, SIDE, SIDE, 0, GT_F32};
  double cpu[BATCHES], wall[BATCHES];
  int failures = 0;
  /* The first call builds the program; the batches then only issue. */
  if (gt_transpose(ctx, s, d, NULL) != GT_OK || gt_finish(ctx) != GT_OK) failures++;
  for (unsigned b = 0; b < BATCHES && !failures; b++) {
    double c0 = thread_cpu_us(), w0 = tool_now_ms();
    for (unsigned i = 0; i < CALLS; i++)
      if (gt_transpose(ctx, s, d, NULL) != GT_OK) failures++;
    cpu[b] = (thread_cpu_us() - c0) / CALLS;
    wall[b] = (tool_now_ms() - w0) * 1e3 / CALLS;
    gt_finish(ctx); /* the GPU's time stays outside the batch */
  }
  if (!failures)
    printf("\nwarm gt_transpose %dx%d (AUTO): %.2f us of CPU per call, %.2f us wall to issue "
           "(medians of %d batches of %d calls)\n",
           SIDE, SIDE, tool_median(cpu, BATCHES), tool_median(wall, BATCHES), BATCHES, CALLS);
  else
    printf("\nwarm gt_transpose %dx%d: a call failed\n", SIDE, SIDE);
  glDeleteBuffers(1, &src);
  glDeleteBuffers(1, &dst);
  return failures != 0;
}
