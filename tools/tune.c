/* `gltile tune`: times AUTO's candidates on this device (transpose
 * strategies and tiles, the two matmul kernels) and prints a device-table
 * entry for src/plan/device_table.c. Times only: `gltile bench` verifies. */
#include "tune.h"

#include "bench_arith.h"
#include "pack_half_probe.h"

#include "timing.h"

#include <stdlib.h>
#include <string.h>

typedef struct candidate {
  gt_strategy strategy;
  uint32_t tile;
  double ms; /* summed over the sizes; < 0 when it could not run */
} candidate;

typedef struct transpose_args {
  gt_view src, dst;
  gt_transpose_desc d;
} transpose_args;

static gt_status run_transpose(gt_context *ctx, const void *p) {
  const transpose_args *a = p;
  return gt_transpose(ctx, a->src, a->dst, &a->d);
}

typedef struct matmul_args {
  gt_view a, b, c;
} matmul_args;

static gt_status run_matmul(gt_context *ctx, const void *p) {
  const matmul_args *m = p;
  return gt_matmul(ctx, m->a, m->b, m->c, NULL);
}

/* Median ms of one transpose candidate at rows x cols into *ms, and what
 * the library plans for it. */
static gt_status time_transpose(gt_context *ctx, const candidate *c, uint32_t rows, uint32_t cols,
                                unsigned reps, double *scratch, double *ms, gt_plan *plan) {
  size_t n = (size_t)rows * cols;
  GLuint s = tool_buffer(n, NULL), d = tool_buffer(n, NULL);
  transpose_args a = {{s, 0, rows, cols, 0, GT_F32}, {d, 0, cols, rows, 0, GT_F32}, {c->strategy, c->tile}};
  gt_status status = gt_transpose_plan(ctx, a.src, a.dst, &a.d, plan);
  if (status == GT_OK) status = tool_time_median(ctx, run_transpose, &a, reps, scratch, ms);
  glDeleteBuffers(1, &s);
  glDeleteBuffers(1, &d);
  return status;
}

/* Median ms of matmul's AUTO with the given kernel at n x n x k into *ms,
 * and what the library plans for it; GT_ERR_UNSUPPORTED when the kernel
 * does not fit the device. */
static gt_status time_matmul(gt_matmul_kernel kernel, bool min_limits, uint32_t n, uint32_t k, unsigned reps,
                             double *scratch, double *ms, gt_plan *plan) {
  gt_context_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.min_limits = min_limits;
  desc.matmul_kernel = kernel;
  gt_context *ctx = NULL;
  gt_status status = gt_context_init(NULL, 0, &desc, &ctx);
  if (status != GT_OK) return status;
  size_t words = (size_t)n * (n > k ? n : k);
  float *ones = malloc(words * 4);
  status = GT_ERR_OUT_OF_MEMORY;
  if (ones) {
    for (size_t i = 0; i < words; i++)
      ones[i] = 1.0f;
    GLuint a = tool_buffer(words, ones), b = tool_buffer(words, ones), c = tool_buffer(words, NULL);
    matmul_args m = {{a, 0, n, k, 0, GT_F32}, {b, 0, k, n, 0, GT_F32}, {c, 0, n, n, 0, GT_F32}};
    status = gt_matmul_plan(ctx, m.a, m.b, m.c, NULL, plan);
    if (status == GT_OK) status = tool_time_median(ctx, run_matmul, &m, reps, scratch, ms);
    GLuint names[3] = {a, b, c};
    glDeleteBuffers(3, names);
  }
  free(ones);
  gt_context_release(ctx);
  return status;
}

/* Why a candidate has no time: a kernel or tile beyond the device is
 * expected; anything else is a failure (returns 1). */
static int print_no_time(const char *name, gt_status s) {
  if (s == GT_ERR_UNSUPPORTED) {
    printf("  %-20s does not fit this device\n", name);
    return 0;
  }
  printf("  %-20s failed: %s\n", name, gt_status_string(s));
  return 1;
}

static const char *strategy_constant(gt_strategy s) {
  switch (s) {
  case GT_STRATEGY_SIMPLE: return "GT_STRATEGY_SIMPLE";
  case GT_STRATEGY_TRUNCATE_A: return "GT_STRATEGY_TRUNCATE_A";
  case GT_STRATEGY_TRUNCATE_B: return "GT_STRATEGY_TRUNCATE_B";
  default: return "GT_STRATEGY_TILED_PAD";
  }
}

int tool_tune(const tool_tune_options *o) {
  gt_egl egl;
  gt_context *ctx;
  gt_context_desc desc = tool_desc(o->min_limits, GT_MATMUL_KERNEL_DEVICE);
  if (tool_open(&desc, &egl, &ctx)) return 1;
  /* Copies: the context goes before the matmul part, which makes one per
   * kernel (one gt_context per GL context at a time). */
  char renderer[128], entry[32];
  snprintf(renderer, sizeof renderer, "%s", gt_context_renderer(ctx));
  snprintf(entry, sizeof entry, "%s", gt_context_device_name(ctx));
  gt_limits limits = gt_context_limits(ctx);
  tool_timer_init(renderer);
  double *scratch = malloc((o->reps + 1) * sizeof *scratch);
  if (scratch == NULL) return 1;
  bool software = strstr(renderer, "llvmpipe") || strstr(renderer, "softpipe");
  /* An even square and an uneven neighbour, large enough to leave the
   * caches; smaller on a CPU. */
  uint32_t sizes[2][2] = {{2048, 2048}, {2047, 1531}};
  if (software) {
    sizes[0][0] = sizes[0][1] = 1024;
    sizes[1][0] = 1023;
    sizes[1][1] = 765;
  }
  printf("gltile tune on %s (device table entry now \"%s\"); median of %u runs each; %s\n", renderer, entry,
         o->reps, "times only: gltile bench verifies");
  candidate cands[12];
  unsigned count = 0;
  cands[count++] = (candidate){GT_STRATEGY_SIMPLE, 0, 0};
  /* AUTO as the table has it now: on llvmpipe SIMPLE moves 4x4 blocks as
   * uvec4s where the rows start 16-byte aligned (the even size). */
  cands[count++] = (candidate){GT_STRATEGY_AUTO, 0, 0};
  const uint32_t tiles[3] = {8, 16, 32};
  for (int s = 0; s < 2; s++)
    for (int t = 0; t < 3; t++)
      cands[count++] = (candidate){s ? GT_STRATEGY_TRUNCATE_B : GT_STRATEGY_TILED_PAD, tiles[t], 0};
  printf("\ntranspose f32          %ux%u      %ux%u\n", sizes[0][0], sizes[0][1], sizes[1][0], sizes[1][1]);
  const candidate *best = NULL, *best_tiled = NULL;
  double auto_ms = -1, simple_ms = -1;
  int failed = 0;
  for (unsigned i = 0; i < count; i++) {
    candidate *c = &cands[i];
    double ms[2];
    gt_plan plans[2];
    gt_status st = GT_OK;
    for (int z = 0; z < 2 && st == GT_OK; z++) {
      st = time_transpose(ctx, c, sizes[z][0], sizes[z][1], o->reps, scratch, &ms[z], &plans[z]);
      if (st == GT_OK) c->ms += ms[z];
    }
    char name[32];
    if (c->tile)
      snprintf(name, sizeof name, "%s %u", gt_strategy_name(c->strategy), c->tile);
    else
      snprintf(name, sizeof name, "%s", gt_strategy_name(c->strategy));
    if (st != GT_OK) {
      c->ms = -1;
      failed |= print_no_time(name, st);
      continue;
    }
    printf("  %-20s %9.3f ms  %9.3f ms\n", name, ms[0], ms[1]);
    if (c->strategy == GT_STRATEGY_AUTO) {
      printf("    ran: %s | %s\n", plans[0].kernels, plans[1].kernels);
      auto_ms = c->ms;
      continue;
    }
    if (c->strategy == GT_STRATEGY_SIMPLE) simple_ms = c->ms;
    if (best == NULL || c->ms < best->ms) best = c;
    if (c->tile && (best_tiled == NULL || c->ms < best_tiled->ms)) best_tiled = c;
  }

  /* Half sums: whether mediump runs fast enough to choose them. */
  tool_arith_rates arith;
  tool_bench_arith(ctx, o->reps, scratch, &arith);
  /* A half c's stores: whether packHalf2x16 needs no test here. */
  bool pack_half_ieee = false;
  failed |= tool_probe_pack_half(&pack_half_ieee);
  printf("\npackHalf2x16 past 65504 and of NaNs: %s\n", pack_half_ieee
                                                            ? "as IEEE rounds (infinities, NaNs)"
                                                            : "not as IEEE rounds: a half c keeps its test");
  gt_context_release(ctx);
  /* c must have enough blocks of 128x128 (64 in the device table; 16 x 16
   * here) for AUTO to run the shared kernel, whose views here are aligned,
   * so it runs its vec4 variant; a short K keeps a CPU quick. */
  uint32_t n = 2048, k = software ? 64 : 2048;
  printf("\nmatmul AUTO %ux%ux%u\n", n, n, k);
  static const gt_matmul_kernel kernels[] = {GT_MATMUL_KERNEL_REGISTERS, GT_MATMUL_KERNEL_SHARED,
                                             GT_MATMUL_KERNEL_TEXELS, GT_MATMUL_KERNEL_REGISTERS_K1};
  static const char *const names[] = {"registers", "shared", "texels", "registers-k1"};
  static const char *const constants[] = {"GT_MATMUL_KERNEL_REGISTERS", "GT_MATMUL_KERNEL_SHARED",
                                          "GT_MATMUL_KERNEL_TEXELS", "GT_MATMUL_KERNEL_REGISTERS_K1"};
  double flop = 2.0 * n * n * k, fastest_ms = -1;
  int fastest = -1;
  for (int i = 0; i < 4; i++) {
    double ms = -1;
    gt_plan plan;
    gt_status st = time_matmul(kernels[i], o->min_limits, n, k, o->reps, scratch, &ms, &plan);
    if (st != GT_OK) {
      failed |= print_no_time(names[i], st);
      continue;
    }
    printf("  %-20s %9.3f ms  %8.1f GFLOP/s  ran: %s\n", names[i], ms, flop / ms / 1e6, plan.kernels);
    if (fastest < 0 || ms < fastest_ms) fastest = i, fastest_ms = ms;
  }
  failed |= best == NULL || fastest < 0;
  if (!failed) {
    int log2 = 0;
    while (((uint64_t)1 << (log2 + 1)) <= limits.max_dispatch_flops)
      log2++;
    printf("\nentry for src/plan/device_table.c (trim the renderer to the part that names the family; the\n"
           "fields not measured here, dispatch bytes, auto_tile, stripes and the shared kernel's\n"
           "threshold, come from the entry of a similar device):\n");
    /* quads: AUTO's SIMPLE as 4x4 uvec4 blocks, kept when AUTO (which
     * uses them where the entry has them) beats plain SIMPLE clearly. */
    bool quads = best->strategy == GT_STRATEGY_SIMPLE && auto_ms > 0 && auto_ms < 0.9 * simple_ms;
    printf("    {.renderer = \"%s\", .name = \"%s\", .measured = true, .transpose = %s, .quads = %s, .tile = "
           "%u,\n"
           "     .matmul_kernel = %s, .dispatch_flops_log2 = %d, .half_is_faster = %s,\n"
           "     .pack_half_ieee = %s},\n",
           renderer, entry, strategy_constant(best->strategy), quads ? "true" : "false",
           best_tiled ? best_tiled->tile : 0, constants[fastest], log2,
           tool_arith_half_is_faster(&arith) ? "true" : "false", pack_half_ieee ? "true" : "false");
  }
  printf("\ntimes from %s\n", tool_timer_source());
  free(scratch);
  gt_egl_close(&egl);
  return failed;
}
