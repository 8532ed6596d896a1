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

/* The first failure of a run: which call, and its status. */
typedef struct failure {
  const char *call;
  gt_status status;
} failure;

/* Records s as the run's failure unless one came first; true while
 * nothing has failed. */
static bool ok(failure *f, const char *call, gt_status s) {
  if (f->status == GT_OK && s != GT_OK) {
    f->call = call;
    f->status = s;
  }
  return f->status == GT_OK;
}

int tool_bench_calls(gt_context *ctx) {
  GLuint src = tool_buffer(SIDE * SIDE, NULL), dst = tool_buffer(SIDE * SIDE, NULL);
  gt_view s = {src, 0, SIDE, SIDE, 0, GT_F32}, d = {dst, 0, SIDE, SIDE, 0, GT_F32};
  double cpu[BATCHES], wall[BATCHES];
  failure f = {NULL, GT_OK};
  /* The first call builds the program; the batches then only issue. */
  if (ok(&f, "gt_transpose", gt_transpose(ctx, s, d, NULL))) ok(&f, "gt_finish", gt_finish(ctx));
  for (unsigned b = 0; b < BATCHES && f.status == GT_OK; b++) {
    double c0 = thread_cpu_us(), w0 = tool_now_ms();
    for (unsigned i = 0; i < CALLS && f.status == GT_OK; i++)
      ok(&f, "gt_transpose", gt_transpose(ctx, s, d, NULL));
    cpu[b] = (thread_cpu_us() - c0) / CALLS;
    wall[b] = (tool_now_ms() - w0) * 1e3 / CALLS;
    /* The GPU's time stays outside the batch. */
    if (f.status == GT_OK) ok(&f, "gt_finish", gt_finish(ctx));
  }
  if (f.status == GT_OK)
    printf("\nwarm gt_transpose %dx%d (AUTO): %.2f us of CPU per call, %.2f us wall to issue "
           "(medians of %d batches of %d calls)\n",
           SIDE, SIDE, tool_median(cpu, BATCHES), tool_median(wall, BATCHES), BATCHES, CALLS);
  else
    fprintf(stderr, "gltile: warm gt_transpose %dx%d: %s: %s\n", SIDE, SIDE, f.call,
            gt_status_string(f.status));
  glDeleteBuffers(1, &src);
  glDeleteBuffers(1, &dst);
  return f.status != GT_OK;
}

/* One transpose, copy and matmul (AUTO, 64 x 64) and a finish. */
static bool first_calls(failure *f, gt_context *ctx, GLuint a, GLuint b) {
  gt_view va = {a, 0, SIDE, SIDE, 0, GT_F32}, vb = {b, 0, SIDE, SIDE, 0, GT_F32};
  gt_view vc = {b, (size_t)SIDE * SIDE, SIDE, SIDE, 0, GT_F32};
  return ok(f, "gt_transpose", gt_transpose(ctx, va, vb, NULL)) && ok(f, "gt_copy", gt_copy(ctx, va, vc)) &&
         ok(f, "gt_matmul", gt_matmul(ctx, va, va, vb, NULL)) && ok(f, "gt_finish", gt_finish(ctx));
}

int tool_bench_startup(bool min_limits) {
  gt_context_desc d;
  memset(&d, 0, sizeof d);
  d.min_limits = min_limits;
  GLuint a = tool_buffer(SIDE * SIDE, NULL), b = tool_buffer(2 * SIDE * SIDE, NULL);
  double cold[BATCHES], warm[BATCHES], load[BATCHES], ready[BATCHES];
  size_t bytes = 0;
  uint32_t loaded = 0;
  failure f = {NULL, GT_OK};
  for (unsigned r = 0; r < BATCHES && f.status == GT_OK; r++) {
    gt_context *ctx = NULL;
    double t0 = tool_now_ms();
    if (ok(&f, "gt_context_init", gt_context_init(NULL, 0, &d, &ctx))) first_calls(&f, ctx, a, b);
    cold[r] = tool_now_ms() - t0;
    unsigned char *cache = NULL;
    if (f.status == GT_OK && ok(&f, "gt_program_cache_size", gt_program_cache_size(ctx, &bytes))) {
      cache = malloc(bytes);
      if (ok(&f, "a cache buffer", cache ? GT_OK : GT_ERR_OUT_OF_MEMORY))
        ok(&f, "gt_program_cache_save", gt_program_cache_save(ctx, cache, bytes, &bytes));
    }
    gt_context_release(ctx);
    ctx = NULL;
    if (f.status != GT_OK) {
      free(cache);
      break;
    }
    t0 = tool_now_ms();
    ok(&f, "gt_context_init", gt_context_init(NULL, 0, &d, &ctx));
    double t1 = tool_now_ms();
    if (f.status == GT_OK) ok(&f, "gt_program_cache_load", gt_program_cache_load(ctx, cache, bytes, &loaded));
    load[r] = tool_now_ms() - t1;
    if (f.status == GT_OK) first_calls(&f, ctx, a, b);
    warm[r] = tool_now_ms() - t0;
    /* The same calls again, every program ready: the floor. */
    t1 = tool_now_ms();
    if (f.status == GT_OK) first_calls(&f, ctx, a, b);
    ready[r] = tool_now_ms() - t1;
    gt_context_release(ctx);
    free(cache);
  }
  glDeleteBuffers(1, &a);
  glDeleteBuffers(1, &b);
  if (f.status != GT_OK) {
    fprintf(stderr, "gltile: start-up: %s: %s\n", f.call, gt_status_string(f.status));
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
