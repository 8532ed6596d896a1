/* Seed 002's tiled matrix multiply, written as a gltile user kernel: each
 * group stages a TILE x TILE block of a and of b in shared memory, waits,
 * and accumulates from there. Run under the three extent policies on
 * sections of larger buffers:
 *   EXACT     on extents the tile divides (and refused on others);
 *   PAD       on any extent: the loads are guarded (zero fill), the store
 *             too, and the barriers stay in uniform control flow;
 *   TRUNCATE  the whole tiles only, then a simple kernel on the bottom and
 *             right bands the dispatch hands back (seed 000, option B).
 * Every result is checked against a double-precision CPU product. */
#include "example_common.h"

#include <float.h>
#include <math.h>

enum { TILE = 16 };

static const char tiled_body[] =
    "shared float a_tile[GT_TILE_ROWS][GT_TILE_COLS];\n"
    "shared float b_tile[GT_TILE_ROWS][GT_TILE_COLS];\n"
    "void main() {\n"
    "  uvec2 g = gt_global();\n"
    "  uvec2 l = gt_local();\n"
    "  float sum = 0.0;\n"
    "  for (uint k0 = 0u; k0 < a_extent.y; k0 += uint(GT_TILE_COLS)) {\n"
    "    a_tile[l.x][l.y] = a_read(uvec2(g.x, k0 + l.y));\n"
    "    b_tile[l.x][l.y] = b_read(uvec2(k0 + l.x, g.y));\n"
    "    memoryBarrierShared();\n"
    "    barrier();\n"
    "    for (int k = 0; k < GT_TILE_COLS; k++) sum += a_tile[l.x][k] * b_tile[k][l.y];\n"
    "    barrier();\n"
    "  }\n"
    "  c_write(g, sum);\n"
    "}\n";

/* One invocation per element of c: the kernel for the leftover bands. */
static const char simple_body[] = "void main() {\n"
                                  "  uvec2 g = gt_global();\n"
                                  "  if (gt_in_domain(g)) {\n"
                                  "    float sum = 0.0;\n"
                                  "    for (uint k = 0u; k < a_extent.y; k++) sum += a_read(uvec2(g.x, k)) * "
                                  "b_read(uvec2(k, g.y));\n"
                                  "    c_write(g, sum);\n"
                                  "  }\n"
                                  "}\n";

static gt_kernel_desc matmul_desc(const char *body) {
  gt_kernel_desc d;
  memset(&d, 0, sizeof d);
  d.body = body;
  d.tile_rows = d.tile_cols = TILE;
  d.view_count = 3;
  d.views[0] = (gt_kernel_view){"a", GT_F32, GT_ACCESS_READ};
  d.views[1] = (gt_kernel_view){"b", GT_F32, GT_ACCESS_READ};
  d.views[2] = (gt_kernel_view){"c", GT_F32, GT_ACCESS_WRITE};
  return d;
}

/* A matrix as a section of a larger buffer: `guard` words before it and
 * after it, `extra` words between rows. */
typedef struct placed {
  GLuint buffer;
  gt_view view;
  size_t words;
} placed;

static placed place(uint32_t rows, uint32_t cols, uint32_t guard, uint32_t extra, const float *values,
                    float fill) {
  placed p;
  uint32_t pitch = cols + extra;
  p.words = 2 * (size_t)guard + (size_t)(rows - 1) * pitch + cols;
  float *host = malloc(p.words * 4);
  for (size_t i = 0; i < p.words; i++)
    host[i] = fill;
  if (values)
    for (uint32_t r = 0; r < rows; r++)
      for (uint32_t c = 0; c < cols; c++)
        host[guard + (size_t)r * pitch + c] = values[(size_t)r * cols + c];
  p.buffer = example_buffer(p.words, host);
  p.view = (gt_view){p.buffer, guard, rows, cols, pitch, GT_F32};
  free(host);
  return p;
}

static int run(gt_context *ctx, gt_kernel_id tiled, gt_kernel_id simple, gt_policy policy, uint32_t m,
               uint32_t n, uint32_t k, gt_status want) {
  uint32_t x = m * 7919u + n * 104729u + k;
  float *a = malloc((size_t)m * k * 4), *b = malloc((size_t)k * n * 4);
  for (size_t i = 0; i < (size_t)m * k; i++)
    a[i] = (float)example_rand(&x) / 8388608.0f - 1.0f;
  for (size_t i = 0; i < (size_t)k * n; i++)
    b[i] = (float)example_rand(&x) / 8388608.0f - 1.0f;
  const float poison = -12345.0f;
  placed pa = place(m, k, 5, 3, a, 0), pb = place(k, n, 2, 1, b, 0), pc = place(m, n, 7, 2, NULL, poison);

  gt_view views[3] = {pa.view, pb.view, pc.view};
  gt_dispatch_desc d = {{m, n}, policy, views, NULL};
  gt_dispatch_result r;
  gt_status s = gt_kernel_dispatch(ctx, tiled, &d, &r);
  if (s == GT_OK && policy == GT_POLICY_TRUNCATE) {
    /* Option B: the simple kernel on the bands, through sections. */
    if (r.bottom.rows) {
      gt_view band[3] = {gt_section(pa.view, r.main.rows, 0, r.bottom.rows, k), pb.view,
                         gt_section(pc.view, r.main.rows, 0, r.bottom.rows, r.bottom.cols)};
      band[1] = gt_section(pb.view, 0, 0, k, r.bottom.cols);
      gt_dispatch_desc bd = {r.bottom, GT_POLICY_PAD, band, NULL};
      if (s == GT_OK) s = gt_kernel_dispatch(ctx, simple, &bd, NULL);
    }
    if (r.right.rows) {
      gt_view band[3] = {pa.view, gt_section(pb.view, 0, r.main.cols, k, r.right.cols),
                         gt_section(pc.view, 0, r.main.cols, m, r.right.cols)};
      gt_dispatch_desc bd = {r.right, GT_POLICY_PAD, band, NULL};
      if (s == GT_OK) s = gt_kernel_dispatch(ctx, simple, &bd, NULL);
    }
  }
  const char *names[] = {"exact", "pad", "truncate"};
  int failed = s != want;
  float *got = malloc(pc.words * 4);
  gt_view whole = {pc.buffer, 0, 1, (uint32_t)pc.words, 0, GT_F32};
  if (gt_read(ctx, whole, got, 0) != GT_OK) failed = 1;
  size_t bad = 0;
  for (size_t i = 0; i < pc.words && !failed; i++) {
    size_t off = i - 7;
    uint32_t pitch = n + 2, r0 = (uint32_t)(off / pitch), c0 = (uint32_t)(off % pitch);
    bool inside = i >= 7 && r0 < m && c0 < n && s == GT_OK;
    if (!inside) {
      if (got[i] != poison) failed = 1, bad++;
      continue;
    }
    double sum = 0, mag = 0;
    for (uint32_t q = 0; q < k; q++) {
      double p = (double)a[(size_t)r0 * k + q] * b[(size_t)q * n + c0];
      sum += p;
      mag += fabs(p);
    }
    if (!(fabs(got[i] - sum) <= 2.0 * (k + 2) * FLT_EPSILON * mag)) failed = 1, bad++;
  }
  printf("tiled matmul %3ux%3ux%3u %-8s: %s%s\n", m, n, k, names[policy], gt_status_string(s),
         failed ? "  WRONG" : "  checked");
  glDeleteBuffers(1, &pa.buffer);
  glDeleteBuffers(1, &pb.buffer);
  glDeleteBuffers(1, &pc.buffer);
  free(a), free(b), free(got);
  return failed;
}

int main(void) {
  gt_egl egl;
  gt_context *ctx;
  int rc = example_open(&egl, &ctx);
  if (rc) return rc;
  gt_kernel_desc td = matmul_desc(tiled_body), sd = matmul_desc(simple_body);
  gt_kernel_id tiled = 0, simple = 0;
  gt_status s = gt_kernel_create(ctx, &td, &tiled);
  if (s == GT_OK) s = gt_kernel_create(ctx, &sd, &simple);
  if (s != GT_OK) {
    fprintf(stderr, "gt_kernel_create: %s\n", gt_status_string(s));
    return 1;
  }
  int failures = 0;
  failures += run(ctx, tiled, simple, GT_POLICY_EXACT, 48, 32, 64, GT_OK);
  failures += run(ctx, tiled, simple, GT_POLICY_EXACT, 50, 37, 29, GT_ERR_SHAPE_MISMATCH);
  failures += run(ctx, tiled, simple, GT_POLICY_PAD, 50, 37, 29, GT_OK);
  failures += run(ctx, tiled, simple, GT_POLICY_PAD, 1, 1, 1, GT_OK);
  failures += run(ctx, tiled, simple, GT_POLICY_TRUNCATE, 50, 37, 29, GT_OK);
  failures += run(ctx, tiled, simple, GT_POLICY_TRUNCATE, 67, 45, 33, GT_OK);
  failures += run(ctx, tiled, simple, GT_POLICY_TRUNCATE, 7, 40, 5, GT_OK); /* no whole tile row */
  gt_context_release(ctx);
  gt_egl_close(&egl);
  printf("%d passed, %d failed\n", 7 - failures, failures);
  return failures ? 1 : 0;
}
