/* What a call costs the CPU: a warm gt_transpose once its program is
 * built (apart from the GPU's own time), and a start-up compiling its
 * programs against one loading them from a program cache. */
#define _POSIX_C_SOURCE 200809L
#include "bench_calls.h"

#include <stdio.h>
#include <stdlib.h>
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

/* One transpose, copy and matmul (AUTO, 64 x 64) and a finish. */
static gt_status first_calls(gt_context *ctx, GLuint a, GLuint b) {
  gt_view va = {a, 0, SIDE, SIDE, 0, GT_F32}, vb = {b, 0, SIDE, SIDE, 0, GT_F32};
  gt_view vc = {b, (size_t)SIDE * SIDE, SIDE, SIDE, 0, GT_F32};
  gt_status s = gt_transpose(ctx, va, vb, NULL);
  if (s == GT_OK) s = gt_copy(ctx, va, vc);
  if (s == GT_OK) s = gt_matmul(ctx, va, va, vb, NULL);
  return s == GT_OK ? gt_finish(ctx) : s;
}

int tool_bench_startup(bool min_limits) {
  gt_context_desc d;
  memset(&d, 0, sizeof d);
  d.min_limits = min_limits;
  GLuint a = tool_buffer(SIDE * SIDE, NULL), b = tool_buffer(2 * SIDE * SIDE, NULL);
  double cold[BATCHES], warm[BATCHES], load[BATCHES], ready[BATCHES];
  size_t bytes = 0;
  uint32_t loaded = 0;
  int failures = 0;
  for (unsigned r = 0; r < BATCHES && !failures; r++) {
    gt_context *ctx = NULL;
    double t0 = tool_now_ms();
    failures += gt_context_init(NULL, 0, &d, &ctx) != GT_OK || first_calls(ctx, a, b) != GT_OK;
    cold[r] = tool_now_ms() - t0;
    unsigned char *cache = NULL;
    if (!failures && gt_program_cache_size(ctx, &bytes) == GT_OK && (cache = malloc(bytes)) != NULL)
      failures += gt_program_cache_save(ctx, cache, bytes, &bytes) != GT_OK;
    gt_context_release(ctx);
    if (cache == NULL || failures) {
      free(cache);
      failures++;
      break;
    }
    t0 = tool_now_ms();
    failures += gt_context_init(NULL, 0, &d, &ctx) != GT_OK;
    double t1 = tool_now_ms();
    failures += !failures && gt_program_cache_load(ctx, cache, bytes, &loaded) != GT_OK;
    load[r] = tool_now_ms() - t1;
    failures += !failures && first_calls(ctx, a, b) != GT_OK;
    warm[r] = tool_now_ms() - t0;
    /* The same calls again, every program ready: the floor. */
    t1 = tool_now_ms();
    failures += !failures && first_calls(ctx, a, b) != GT_OK;
    ready[r] = tool_now_ms() - t1;
    gt_context_release(ctx);
    free(cache);
  }
  glDeleteBuffers(1, &a);
  glDeleteBuffers(1, &b);
  if (failures) {
    printf("start-up: a call failed\n");
    return 1;
  }
  /* Only the first round compiles for real: drivers keep what they
   * compiled (Mesa in its shader cache), so the later rounds show the
   * driver's cache against ours. */
  double c0 = cold[0], w0 = warm[0];
  double c = tool_median(cold, BATCHES), w = tool_median(warm, BATCHES);
  printf("start-up (context, first transpose, copy and matmul), %u programs in a %zu-byte program cache:\n"
         "  first in this process: %.2f ms compiling, %.2f ms from the cache: %.1fx\n"
         "  medians of %d rounds (the driver's own cache warm): %.2f ms, %.2f ms: %.1fx\n"
         "  of which gt_program_cache_load %.2f ms; the same calls with every program ready %.2f ms\n",
         loaded, bytes, c0, w0, c0 / w0, BATCHES, c, w, c / w, tool_median(load, BATCHES),
         tool_median(ready, BATCHES));
  return 0;
}
