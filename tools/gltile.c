/* The gltile program: `info` describes the device and the choices gltile
 * makes on it; `demo` runs the C++ AMP transpose sample's driver: every
 * strategy on one matrix, each verified against the CPU, in a table. */
#include <gltile/gltile.h>

#include <GLES3/gl31.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usage[] =
    "usage: gltile <command> [options]\n"
    "\n"
    "commands:\n"
    "  info                 renderer, GL version, limits and the choices gltile makes\n"
    "  demo [options]       transpose and multiply with every strategy, verify\n"
    "                       each against the CPU and print tables\n"
    "\n"
    "demo options:\n"
    "  --rows N --cols N    transpose extent (default 999 x 666, the sample's)\n"
    "  --mnk MxNxK          matmul extents (default 333x222x111)\n"
    "  --reps N             timed runs per strategy, median reported (default 9)\n"
    "  --tile N             8, 16 or 32 (default: chosen from the device limits)\n"
    "  --min-limits         clamp the device limits to the ES 3.1 minimums\n";

typedef struct options {
  uint32_t rows, cols, reps, tile;
  uint32_t m, n, k; /* matmul extents */
  bool min_limits;
} options;

static int open_context(bool min_limits, gt_egl *egl, gt_context **ctx) {
  gt_status s = gt_egl_open(egl);
  if (s != GT_OK) {
    fprintf(stderr, "gltile: no headless OpenGL ES 3.1 context: %s\n", gt_status_string(s));
    return 1;
  }
  gt_context_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.min_limits = min_limits;
  s = gt_context_init(NULL, 0, &desc, ctx);
  if (s != GT_OK) {
    fprintf(stderr, "gltile: gt_context_init: %s\n", gt_status_string(s));
    gt_egl_close(egl);
    return 1;
  }
  return 0;
}

static int cmd_info(const options *o) {
  gt_egl egl;
  gt_context *ctx;
  if (open_context(o->min_limits, &egl, &ctx)) return 1;
  gt_limits l = gt_context_limits(ctx);
  printf("renderer:              %s\n", gt_context_renderer(ctx));
  printf("version:               %s\n", (const char *)glGetString(GL_VERSION));
  printf("shading language:      %s\n", (const char *)glGetString(GL_SHADING_LANGUAGE_VERSION));
  printf("limits%s\n", o->min_limits ? " (clamped to the ES 3.1 minimums):" : ":");
  printf("  shared memory:       %u bytes\n", l.max_shared_bytes);
  printf("  invocations/group:   %u\n", l.max_invocations);
  printf("  group size:          %u x %u x %u\n", l.max_group_size[0], l.max_group_size[1],
         l.max_group_size[2]);
  printf("  group count:         %u x %u x %u\n", l.max_group_count[0], l.max_group_count[1],
         l.max_group_count[2]);
  printf("  storage block:       %llu bytes\n", (unsigned long long)l.max_storage_block_bytes);
  printf("  storage blocks:      %u per compute shader\n", l.max_storage_blocks);
  printf("  binding alignment:   %u bytes\n", l.storage_offset_alignment);
  printf("transpose:\n");
  printf("  default tile:        %u\n", gt_context_default_tile(ctx));
  printf("  auto strategy:       %s\n", gt_strategy_name(gt_context_auto_strategy(ctx)));
  gt_context_release(ctx);
  gt_egl_close(&egl);
  return 0;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static GLuint make_buffer(size_t words, const uint32_t *data) {
  GLuint b = 0;
  glGenBuffers(1, &b);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, b);
  glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(words * 4), data, GL_DYNAMIC_COPY);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  return b;
}

/* Matmul part of the demo: every matmul strategy on an m x n x k product
 * whose extents no tile divides, checked against a double-precision CPU
 * result with the bound |c - ref| <= 2 (k + 2) eps sum |a b|. */
static int demo_matmul(gt_context *ctx, uint32_t m, uint32_t n, uint32_t k, uint32_t reps,
                       uint32_t tile, double *times) {
  static const gt_strategy strategies[] = { GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_EVEN,
                                            GT_STRATEGY_TILED_PAD, GT_STRATEGY_TRUNCATE_B,
                                            GT_STRATEGY_AUTO };
  float *a = malloc((size_t)m * k * 4), *b = malloc((size_t)k * n * 4), *c = malloc((size_t)m * n * 4);
  double *ref = malloc((size_t)m * n * sizeof *ref), *bound = malloc((size_t)m * n * sizeof *bound);
  if (!a || !b || !c || !ref || !bound) {
    fprintf(stderr, "gltile: out of memory\n");
    return 1;
  }
  uint32_t x = 2463534242u;
  for (size_t i = 0; i < (size_t)m * k; i++) a[i] = (float)((x = x * 1664525u + 1013904223u) >> 8) / 8388608.0f - 1.0f;
  for (size_t i = 0; i < (size_t)k * n; i++) b[i] = (float)((x = x * 1664525u + 1013904223u) >> 8) / 8388608.0f - 1.0f;
  for (uint32_t i = 0; i < m; i++)
    for (uint32_t j = 0; j < n; j++) {
      double sum = 0, mag = 0;
      for (uint32_t q = 0; q < k; q++) {
        double p = (double)a[(size_t)i * k + q] * b[(size_t)q * n + j];
        sum += p;
        mag += p < 0 ? -p : p;
      }
      ref[(size_t)i * n + j] = sum;
      bound[(size_t)i * n + j] = 2.0 * (k + 2) * 1.1920929e-7 * mag;
    }
  GLuint ba = make_buffer((size_t)m * k, (const uint32_t *)a), bb = make_buffer((size_t)k * n, (const uint32_t *)b);
  GLuint bc = make_buffer((size_t)m * n, NULL);
  gt_view va = { ba, 0, m, k, 0, GT_F32 }, vb = { bb, 0, k, n, 0, GT_F32 }, vc = { bc, 0, m, n, 0, GT_F32 };
  double flop = 2.0 * m * n * k;
  printf("\nmatmul %u x %u x %u f32 (c = a b), tile %u\n\n", m, n, k, tile);
  printf("%-16s %10s %10s  %s\n", "strategy", "ms", "GFLOP/s", "verified");
  int failures = 0;
  for (size_t s = 0; s < sizeof strategies / sizeof strategies[0]; s++) {
    gt_matmul_desc d = { strategies[s], tile, false, false, false, 0, 0 };
    const char *name = strategies[s] == GT_STRATEGY_AUTO ? "auto=blocked" : gt_strategy_name(strategies[s]);
    for (size_t i = 0; i < (size_t)m * n; i++) c[i] = 1e30f; /* poison */
    gt_write(ctx, vc, c, 0);
    gt_status st = gt_matmul(ctx, va, vb, vc, &d);
    if (st == GT_OK) st = gt_read(ctx, vc, c, 0);
    if (st != GT_OK) {
      printf("%-16s %10s %10s  %s\n", name, "-", "-", gt_status_string(st));
      if (!(strategies[s] == GT_STRATEGY_TILED_EVEN && st == GT_ERR_SHAPE_MISMATCH)) failures++;
      continue;
    }
    bool ok = true;
    for (size_t i = 0; i < (size_t)m * n; i++) {
      double e = c[i] - ref[i];
      if (!(e <= bound[i] && -e <= bound[i])) ok = false;
    }
    for (uint32_t r = 0; r < reps; r++) {
      gt_finish(ctx);
      double t0 = now_ms();
      gt_matmul(ctx, va, vb, vc, &d);
      gt_finish(ctx);
      times[r] = now_ms() - t0;
    }
    qsort(times, reps, sizeof *times, compare_double);
    double ms = times[reps / 2];
    printf("%-16s %10.3f %10.2f  %s\n", name, ms, flop / (ms * 1e6), ok ? "yes" : "NO");
    failures += !ok;
  }
  glDeleteBuffers(1, &ba);
  glDeleteBuffers(1, &bb);
  glDeleteBuffers(1, &bc);
  free(a);
  free(b);
  free(c);
  free(ref);
  free(bound);
  return failures;
}

static int cmd_demo(const options *o) {
  static const gt_strategy strategies[] = { GT_STRATEGY_SIMPLE,     GT_STRATEGY_TILED_EVEN,
                                            GT_STRATEGY_TILED_PAD,  GT_STRATEGY_TRUNCATE_A,
                                            GT_STRATEGY_TRUNCATE_B, GT_STRATEGY_AUTO };
  gt_egl egl;
  gt_context *ctx;
  if (open_context(o->min_limits, &egl, &ctx)) return 1;
  size_t n = (size_t)o->rows * o->cols;
  uint32_t *host = malloc(n * 4), *want = malloc(n * 4), *got = malloc(n * 4), *poison = malloc(n * 4);
  double *times = malloc(o->reps * sizeof *times);
  if (!host || !want || !got || !poison || !times) {
    fprintf(stderr, "gltile: out of memory\n");
    return 1;
  }
  /* Float values with their bit patterns mixed, and the CPU result. */
  for (size_t i = 0; i < n; i++) {
    float f = (float)(i % 1000003) * 0.5f - 1234.25f;
    memcpy(&host[i], &f, 4);
    poison[i] = 0xDEADBEEFu;
  }
  for (uint32_t r = 0; r < o->rows; r++)
    for (uint32_t c = 0; c < o->cols; c++) want[(size_t)c * o->rows + r] = host[(size_t)r * o->cols + c];

  GLuint src = make_buffer(n, host), dst = make_buffer(n, poison);
  gt_view vs = { src, 0, o->rows, o->cols, 0, GT_F32 }, vd = { dst, 0, o->cols, o->rows, 0, GT_F32 };
  uint32_t tile = o->tile ? o->tile : gt_context_default_tile(ctx);
  printf("gltile demo: transpose %u x %u f32 on %s\n", o->rows, o->cols, gt_context_renderer(ctx));
  printf("tile %u, median of %u runs after one warm-up; GB/s counts bytes read + written\n\n", tile,
         o->reps);
  printf("%-16s %10s %10s  %s\n", "strategy", "ms", "GB/s", "verified");
  int failures = 0;
  for (size_t k = 0; k < sizeof strategies / sizeof strategies[0]; k++) {
    gt_strategy s = strategies[k];
    gt_transpose_desc d = { s, tile };
    char name[32];
    snprintf(name, sizeof name, "%s", gt_strategy_name(s));
    if (s == GT_STRATEGY_AUTO)
      snprintf(name, sizeof name, "auto=%s", gt_strategy_name(gt_context_auto_strategy(ctx)));
    gt_write(ctx, vd, poison, 0);
    /* The warm-up builds the program and is the run that gets verified:
     * the destination was poisoned just before it. */
    gt_status st = gt_transpose(ctx, vs, vd, &d);
    if (st == GT_OK) st = gt_read(ctx, vd, got, 0);
    if (st != GT_OK) {
      printf("%-16s %10s %10s  %s\n", name, "-", "-", gt_status_string(st));
      /* TILED_EVEN refusing an extent its tile does not divide is the
       * documented behaviour, not a failure. */
      if (!(s == GT_STRATEGY_TILED_EVEN && st == GT_ERR_SHAPE_MISMATCH)) failures++;
      continue;
    }
    bool ok = memcmp(got, want, n * 4) == 0;
    for (uint32_t r = 0; r < o->reps; r++) {
      gt_finish(ctx);
      double t0 = now_ms();
      gt_transpose(ctx, vs, vd, &d);
      gt_finish(ctx);
      times[r] = now_ms() - t0;
    }
    qsort(times, o->reps, sizeof *times, compare_double);
    double ms = times[o->reps / 2];
    printf("%-16s %10.3f %10.2f  %s\n", name, ms, 2.0 * n * 4 / (ms * 1e6), ok ? "yes" : "NO");
    failures += !ok;
  }
  glDeleteBuffers(1, &src);
  glDeleteBuffers(1, &dst);
  failures += demo_matmul(ctx, o->m, o->n, o->k, o->reps, tile, times);
  free(host);
  free(want);
  free(got);
  free(poison);
  free(times);
  gt_context_release(ctx);
  gt_egl_close(&egl);
  if (failures) printf("\n%d strateg%s failed\n", failures, failures == 1 ? "y" : "ies");
  return failures ? 1 : 0;
}

static int parse_u32(const char *s, uint32_t *out) {
  char *end;
  unsigned long v = strtoul(s ? s : "", &end, 10);
  if (s == NULL || *s == '\0' || *end != '\0' || v == 0 || v > 1000000) return 1;
  *out = (uint32_t)v;
  return 0;
}

int main(int argc, char **argv) {
  options o = { 999, 666, 9, 0, 333, 222, 111, false };
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    fputs(usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    int bad = 0;
    if (strcmp(a, "--rows") == 0) bad = parse_u32(v, &o.rows), i++;
    else if (strcmp(a, "--cols") == 0) bad = parse_u32(v, &o.cols), i++;
    else if (strcmp(a, "--reps") == 0) bad = parse_u32(v, &o.reps), i++;
    else if (strcmp(a, "--tile") == 0) bad = parse_u32(v, &o.tile), i++;
    else if (strcmp(a, "--mnk") == 0) {
      bad = v == NULL || sscanf(v, "%ux%ux%u", &o.m, &o.n, &o.k) != 3 || !o.m || !o.n || !o.k;
      i++;
    }
    else if (strcmp(a, "--min-limits") == 0) o.min_limits = true;
    else if (strcmp(a, "--help") == 0) {
      fputs(usage, stdout);
      return 0;
    } else bad = 1;
    if (bad) {
      fprintf(stderr, "gltile: bad option or value: %s\n%s", a, usage);
      return 2;
    }
  }
  if (strcmp(argv[1], "info") == 0) return cmd_info(&o);
  if (strcmp(argv[1], "demo") == 0) return cmd_demo(&o);
  fprintf(stderr, "gltile: unknown command '%s'\n%s", argv[1], usage);
  return 2;
}
