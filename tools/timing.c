/* Timing for the bench and tune commands: GPU timer queries when the
 * context has usable ones, else glFinish and the wall clock. */
#include "timing.h"

#include <EGL/egl.h>
#include <string.h>

#define GL_TIME_ELAPSED_EXT 0x88BF
#define GL_GPU_DISJOINT_EXT 0x8FBB
#define GL_QUERY_RESULT_EXT 0x8866
typedef void(GL_APIENTRYP gen_queries_fn)(GLsizei, GLuint *);
typedef void(GL_APIENTRYP begin_query_fn)(GLenum, GLuint);
typedef void(GL_APIENTRYP end_query_fn)(GLenum);
typedef void(GL_APIENTRYP get_query_u64_fn)(GLuint, GLenum, GLuint64 *);

static struct {
  gen_queries_fn gen;
  begin_query_fn begin;
  end_query_fn end;
  get_query_u64_fn get;
  GLuint query;
} timer;

/* llvmpipe advertises timer queries but reports about zero for any work,
 * so the wall clock is used there. */
void tool_timer_init(const char *renderer) {
  const char *ext = (const char *)glGetString(GL_EXTENSIONS);
  if (ext == NULL || strstr(ext, "GL_EXT_disjoint_timer_query") == NULL) return;
  if (strstr(renderer, "llvmpipe") || strstr(renderer, "softpipe")) return;
  timer.gen = (gen_queries_fn)eglGetProcAddress("glGenQueriesEXT");
  timer.begin = (begin_query_fn)eglGetProcAddress("glBeginQueryEXT");
  timer.end = (end_query_fn)eglGetProcAddress("glEndQueryEXT");
  timer.get = (get_query_u64_fn)eglGetProcAddress("glGetQueryObjectui64vEXT");
  if (timer.gen && timer.begin && timer.end && timer.get) timer.gen(1, &timer.query);
}

/* Milliseconds of one run of fn: GPU time from a timer query when the
 * context has usable ones (and the GPU reported no disjoint period), else
 * wall time between two glFinish calls. A failed finish fails the run:
 * the time would not be the run's. */
double tool_time_once(gt_context *ctx, tool_op_fn fn, const void *args, gt_status *status) {
  *status = gt_finish(ctx);
  if (*status != GT_OK) return -1;
  GLint disjoint = 0;
  if (timer.query) {
    glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint); /* clears the flag */
    timer.begin(GL_TIME_ELAPSED_EXT, timer.query);
  }
  double t0 = tool_now_ms();
  *status = fn(ctx, args);
  if (timer.query) timer.end(GL_TIME_ELAPSED_EXT);
  gt_status finished = gt_finish(ctx);
  double wall = tool_now_ms() - t0;
  if (*status == GT_OK) *status = finished;
  if (timer.query) {
    GLuint64 ns = 0;
    timer.get(timer.query, GL_QUERY_RESULT_EXT, &ns);
    glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint);
    if (ns > 0 && !disjoint) return ns / 1e6;
  }
  return wall;
}

/* The timed runs come after untimed ones that last at least TOOL_WARM_UP_MS
 * (and at least one run): drivers may keep a new buffer, or one the CPU
 * has just mapped, in host memory until the GPU has used it for a while.
 * (See also tool_buffer: buffers are always created with contents.) The
 * clock starts after the first run, which builds the programs: a build
 * that took most of the warm-up left it one or two runs, and on the H100
 * a half c through atomics then ran several times slower in every timed
 * run of a process whose programs the driver had not cached
 * (docs/performance.md, "Method"; docs/notes/2026-11-nvidia-matmul-f16.md,
 * "The bench's warm-up and the slow rows"). */
enum { WARM_UP_MAX_RUNS = 1000 };

/* Warm-up runs, then the median of reps timed runs into *ms. The CPU
 * check of a result comes after this, never before: on NVIDIA a buffer the
 * CPU had just mapped (to poison or read it) stayed in host memory for
 * hundreds of runs of the next kernel, 400 times slower. */
gt_status tool_time_median(gt_context *ctx, tool_op_fn fn, const void *args, unsigned reps, double *scratch,
                           double *ms) {
  gt_status s = fn(ctx, args);
  if (s == GT_OK) s = gt_finish(ctx);
  if (s != GT_OK) return s;
  double start = tool_now_ms();
  for (unsigned r = 0; r < WARM_UP_MAX_RUNS; r++) {
    if ((s = fn(ctx, args)) != GT_OK) return s;
    if ((s = gt_finish(ctx)) != GT_OK) return s;
    if (tool_now_ms() - start >= TOOL_WARM_UP_MS) break;
  }
  for (unsigned r = 0; r < reps; r++) {
    scratch[r] = tool_time_once(ctx, fn, args, &s);
    if (s != GT_OK) return s;
  }
  *ms = tool_median(scratch, reps);
  return GT_OK;
}

const char *tool_timer_source(void) {
  return timer.query ? "GPU timer queries" : "glFinish and the wall clock";
}
