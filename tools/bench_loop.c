/* `gltile bench --op loop`: what an application's write -> compute ->
 * read loop costs, against the same calls on buffers the CPU never
 * touched since glBufferData. For each size the operands are made with
 * their contents, the calls are timed (no warm-up: the first call after a
 * transfer is the one a loop meets), then timed again after gt_write of
 * every operand and again after gt_read of every operand. Last, SIMPLE
 * transposes into a destination just poisoned with gt_write, and every
 * element read back is checked. */
#include "bench_loop.h"

#include "timing.h"

#include <stdlib.h>
#include <string.h>

enum { PHASES = 3 };
static const char *const phase_names[PHASES] = {"never mapped", "after gt_write", "after gt_read"};

typedef struct loop_case {
  gt_view src, dst; /* n x n u32 */
  gt_view a, b, c;  /* n x n f32 */
  gt_transpose_desc t;
  const uint32_t *host; /* src's words; also a and b's */
  uint32_t *back;       /* n x n words of host memory */
} loop_case;

static gt_status run_transpose(gt_context *ctx, const void *p) {
  const loop_case *l = p;
  return gt_transpose(ctx, l->src, l->dst, &l->t);
}
static gt_status run_matmul(gt_context *ctx, const void *p) {
  const loop_case *l = p;
  return gt_matmul(ctx, l->a, l->b, l->c, NULL);
}

typedef struct loop_op {
  const char *name;
  tool_op_fn run;
  gt_strategy strategy;
} loop_op;

static const loop_op ops[] = {
    {"transpose auto", run_transpose, GT_STRATEGY_AUTO},
    {"transpose simple", run_transpose, GT_STRATEGY_SIMPLE},
    {"matmul auto", run_matmul, GT_STRATEGY_AUTO},
};
enum { OPS = sizeof ops / sizeof ops[0] };

/* The transfers that start a phase: none, a write of every operand, a
 * read of every operand. */
static gt_status transfer(gt_context *ctx, loop_case *l, int phase) {
  gt_view views[5] = {l->src, l->dst, l->a, l->b, l->c};
  gt_status s = GT_OK;
  for (int i = 0; i < 5 && s == GT_OK && phase > 0; i++)
    s = phase == 1 ? gt_write(ctx, views[i], l->host, 0) : gt_read(ctx, views[i], l->back, 0);
  return s;
}

/* The first run and the median of reps runs after it, in ms. */
static gt_status time_op(gt_context *ctx, const loop_op *op, loop_case *l, unsigned reps, double *scratch,
                         double *first, double *median) {
  gt_status s = GT_OK;
  l->t = (gt_transpose_desc){op->strategy, 0};
  *first = tool_time_once(ctx, op->run, l, &s);
  for (unsigned r = 0; r < reps && s == GT_OK; r++)
    scratch[r] = tool_time_once(ctx, op->run, l, &s);
  if (s == GT_OK) *median = tool_median(scratch, reps);
  return s;
}

/* SIMPLE into a destination poisoned by gt_write: every element exact. */
static const char *check_simple(gt_context *ctx, loop_case *l, uint32_t n) {
  size_t count = (size_t)n * n;
  for (size_t i = 0; i < count; i++)
    l->back[i] = 0xA5A5A5A5u;
  gt_transpose_desc d = {GT_STRATEGY_SIMPLE, 0};
  gt_status s = gt_write(ctx, l->dst, l->back, 0);
  if (s == GT_OK) s = gt_transpose(ctx, l->src, l->dst, &d);
  if (s == GT_OK) s = gt_finish(ctx);
  if (s == GT_OK) s = gt_read(ctx, l->dst, l->back, 0);
  if (s != GT_OK) return gt_status_string(s);
  size_t wrong = 0;
  for (uint32_t r = 0; r < n; r++)
    for (uint32_t c = 0; c < n; c++)
      wrong += l->back[(size_t)c * n + r] != l->host[(size_t)r * n + c];
  if (wrong) printf("  simple after gt_write: %zu of %zu elements wrong\n", wrong, count);
  return wrong ? "NO" : "yes";
}

static int loop_size(gt_context *ctx, uint32_t n, unsigned reps, double *scratch) {
  size_t count = (size_t)n * n;
  uint32_t *host = malloc(count * 4), *back = malloc(count * 4);
  if (!host || !back) {
    free(host), free(back);
    fprintf(stderr, "gltile: out of memory for %ux%u\n", n, n);
    return 1;
  }
  /* Small integers as floats: the matmul sums stay exact enough to be
   * finite, and the transpose moves bits regardless. */
  for (size_t i = 0; i < count; i++) {
    float f = (float)((i * 2654435761u >> 7) % 17) - 8.0f;
    memcpy(&host[i], &f, 4);
  }
  GLuint names[5];
  for (int i = 0; i < 5; i++)
    names[i] = tool_buffer(count, host);
  loop_case l = {{names[0], 0, n, n, 0, GT_U32},
                 {names[1], 0, n, n, 0, GT_U32},
                 {names[2], 0, n, n, 0, GT_F32},
                 {names[3], 0, n, n, 0, GT_F32},
                 {names[4], 0, n, n, 0, GT_F32},
                 {GT_STRATEGY_AUTO, 0},
                 host,
                 back};
  double first[PHASES][OPS], median[PHASES][OPS];
  int failures = 0;
  /* One untimed call of each op builds its programs, so a first call
   * times the run and not the compiler. */
  gt_status s = GT_OK;
  for (int k = 0; k < OPS && s == GT_OK; k++) {
    l.t = (gt_transpose_desc){ops[k].strategy, 0};
    s = ops[k].run(ctx, &l);
  }
  for (int phase = 0; phase < PHASES && s == GT_OK; phase++) {
    s = transfer(ctx, &l, phase);
    for (int k = 0; k < OPS && s == GT_OK; k++)
      s = time_op(ctx, &ops[k], &l, reps, scratch, &first[phase][k], &median[phase][k]);
  }
  printf("\nloop %u x %u: ms of the first call / median of the %u after it\n", n, n, reps);
  if (s != GT_OK) {
    printf("  failed: %s\n", gt_status_string(s));
    failures++;
  } else {
    printf("  %-18s %18s %26s %26s\n", "op", phase_names[0], phase_names[1], phase_names[2]);
    for (int k = 0; k < OPS; k++) {
      printf("  %-18s %8.3f / %7.3f", ops[k].name, first[0][k], median[0][k]);
      for (int phase = 1; phase < PHASES; phase++)
        printf("   %8.3f / %7.3f (%4.2fx)", first[phase][k], median[phase][k],
               median[phase][k] / median[0][k]);
      printf("\n");
    }
  }
  const char *exact = check_simple(ctx, &l, n);
  printf("  simple into a destination written by gt_write: exact %s\n", exact);
  failures += strcmp(exact, "yes") != 0;
  glDeleteBuffers(5, names);
  free(host), free(back);
  return failures;
}

int tool_bench_loop(gt_context *ctx, const tool_bench_options *o) {
  double *scratch = malloc((o->reps + 1) * sizeof *scratch);
  if (scratch == NULL) return 1;
  int failures = 0;
  char sizes[1024];
  snprintf(sizes, sizeof sizes, "%s", o->sizes);
  for (char *save = NULL, *tok = strtok_r(sizes, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    uint32_t n = 0;
    if (tool_parse_u32(tok, 65535, &n) || n == 0) {
      fprintf(stderr, "gltile: loop takes square sizes N, not '%s'\n", tok);
      failures++;
      continue;
    }
    failures += loop_size(ctx, n, o->reps, scratch);
  }
  free(scratch);
  return failures;
}
