/* A 3x3 box blur as a gltile user kernel with a shared halo tile: each
 * group loads its (TILE+2) x (TILE+2) neighbourhood once (edges clamped),
 * waits, and every invocation averages its nine neighbours from shared
 * memory instead of nine global reads. Integer pixels make the result
 * exact: dst = (sum of the 3x3 neighbourhood) / 9, rounded down.
 *
 * Run under the three extent policies on sections of larger buffers; under
 * TRUNCATE a simple kernel (no shared memory) blurs the bands the dispatch
 * hands back, reading the whole source through an origin uniform. */
#include "example_common.h"

enum { TILE = 8 };

static const char halo_body[] =
    "shared uint halo[GT_TILE_ROWS + 2][GT_TILE_COLS + 2];\n"
    "uint clamped(ivec2 p) {\n"
    "  ivec2 last = ivec2(src_extent) - 1;\n"
    "  return src_read(uvec2(clamp(p, ivec2(0), last)));\n"
    "}\n"
    "void main() {\n"
    "  ivec2 origin = ivec2(gt_tile_origin()) - 1;\n"
    "  uvec2 l = gt_local();\n"
    "  /* Every invocation, padding ones too, helps load the halo. */\n"
    "  for (uint i = l.x; i < uint(GT_TILE_ROWS + 2); i += uint(GT_TILE_ROWS))\n"
    "    for (uint j = l.y; j < uint(GT_TILE_COLS + 2); j += uint(GT_TILE_COLS))\n"
    "      halo[i][j] = clamped(origin + ivec2(i, j));\n"
    "  memoryBarrierShared();\n"
    "  barrier();\n"
    "  uint sum = 0u;\n"
    "  for (uint i = 0u; i < 3u; i++)\n"
    "    for (uint j = 0u; j < 3u; j++) sum += halo[l.x + i][l.y + j];\n"
    "  dst_write(gt_global(), sum / 9u);\n"
    "}\n";

/* The band kernel: the domain is the band, at `origin` in the image. */
static const char simple_body[] = "void main() {\n"
                                  "  uvec2 g = gt_global(), origin = uvec2(origin_row, origin_col);\n"
                                  "  if (gt_in_domain(g)) {\n"
                                  "    ivec2 p = ivec2(g + origin), last = ivec2(src_extent) - 1;\n"
                                  "    uint sum = 0u;\n"
                                  "    for (int i = -1; i <= 1; i++)\n"
                                  "      for (int j = -1; j <= 1; j++) sum += src_read(uvec2(clamp(p + "
                                  "ivec2(i, j), ivec2(0), last)));\n"
                                  "    dst_write(g + origin, sum / 9u);\n"
                                  "  }\n"
                                  "}\n";

static uint32_t cpu_blur(const uint32_t *img, uint32_t rows, uint32_t cols, uint32_t r, uint32_t c) {
  uint32_t sum = 0;
  for (int i = -1; i <= 1; i++)
    for (int j = -1; j <= 1; j++) {
      int64_t rr = (int64_t)r + i, cc = (int64_t)c + j;
      rr = rr < 0 ? 0 : rr >= rows ? rows - 1 : rr;
      cc = cc < 0 ? 0 : cc >= cols ? cols - 1 : cc;
      sum += img[rr * cols + cc];
    }
  return sum / 9;
}

static int run(gt_context *ctx, gt_kernel_id halo, gt_kernel_id simple, gt_policy policy, uint32_t rows,
               uint32_t cols, gt_status want) {
  /* Source and destination in one buffer, side by side (they share no
   * element), each a section with a pitch. */
  uint32_t pitch = 2 * cols + 5, guard = 3;
  size_t words = 2 * (size_t)guard + (size_t)(rows - 1) * pitch + 2 * cols + 5;
  uint32_t *host = malloc(words * 4), *img = malloc((size_t)rows * cols * 4), x = rows * 31u + cols;
  const uint32_t poison = 0xDEADBEEFu;
  for (size_t i = 0; i < words; i++)
    host[i] = poison;
  for (uint32_t r = 0; r < rows; r++)
    for (uint32_t c = 0; c < cols; c++)
      host[guard + (size_t)r * pitch + c] = img[(size_t)r * cols + c] = example_rand(&x) % 1000;
  GLuint buffer = example_buffer(words, host);
  gt_view parent = {buffer, guard, rows, 2 * cols + 5, pitch, GT_U32};
  gt_view src = gt_section(parent, 0, 0, rows, cols), dst = gt_section(parent, 0, cols + 5, rows, cols);
  gt_view views[2] = {src, dst};
  gt_dispatch_desc d = {{rows, cols}, policy, views, NULL};
  gt_dispatch_result res;
  gt_status s = gt_kernel_dispatch(ctx, halo, &d, &res);
  /* Option B: the band kernel on the bottom band, at (main.rows, 0), and
   * on the right band, at (0, main.cols). */
  gt_extent bands[2] = {res.bottom, res.right};
  for (int b = 0; b < 2 && s == GT_OK && policy == GT_POLICY_TRUNCATE; b++) {
    if (bands[b].rows == 0) continue;
    gt_uniform_value origin[2];
    origin[0].u = b == 0 ? res.main.rows : 0;
    origin[1].u = b == 0 ? 0 : res.main.cols;
    gt_dispatch_desc bd = {bands[b], GT_POLICY_PAD, views, origin};
    s = gt_kernel_dispatch(ctx, simple, &bd, NULL);
  }
  uint32_t *got = malloc(words * 4);
  gt_view whole = {buffer, 0, 1, (uint32_t)words, 0, GT_U32};
  int failed = s != want || gt_read(ctx, whole, got, 0) != GT_OK;
  for (size_t i = 0; i < words && !failed; i++) {
    uint32_t want_word = host[i];
    if (i >= guard && s == GT_OK) {
      uint32_t r = (uint32_t)((i - guard) / pitch), c = (uint32_t)((i - guard) % pitch);
      if (r < rows && c >= cols + 5 && c < 2 * cols + 5)
        want_word = cpu_blur(img, rows, cols, r, c - cols - 5);
    }
    failed = got[i] != want_word;
  }
  const char *names[] = {"exact", "pad", "truncate"};
  printf("box blur %3ux%3u %-8s: %s%s\n", rows, cols, names[policy], gt_status_string(s),
         failed ? "  WRONG" : "  checked");
  glDeleteBuffers(1, &buffer);
  free(host), free(img), free(got);
  return failed;
}

int main(void) {
  gt_egl egl;
  gt_context *ctx;
  int rc = example_open(&egl, &ctx);
  if (rc) return rc;
  gt_kernel_desc hd, sd;
  memset(&hd, 0, sizeof hd);
  hd.body = halo_body;
  hd.tile_rows = hd.tile_cols = TILE;
  hd.view_count = 2;
  hd.views[0] = (gt_kernel_view){"src", GT_U32, GT_ACCESS_READ};
  hd.views[1] = (gt_kernel_view){"dst", GT_U32, GT_ACCESS_WRITE};
  sd = hd;
  sd.body = simple_body;
  sd.uniform_count = 2;
  sd.uniforms[0] = (gt_kernel_uniform){"origin_row", GT_UNIFORM_UINT};
  sd.uniforms[1] = (gt_kernel_uniform){"origin_col", GT_UNIFORM_UINT};
  gt_kernel_id halo = 0, simple = 0;
  gt_status s = gt_kernel_create(ctx, &hd, &halo);
  if (s == GT_OK) s = gt_kernel_create(ctx, &sd, &simple);
  if (s != GT_OK) {
    fprintf(stderr, "gt_kernel_create: %s\n", gt_status_string(s));
    return 1;
  }
  int failures = 0;
  failures += run(ctx, halo, simple, GT_POLICY_EXACT, 40, 24, GT_OK);
  failures += run(ctx, halo, simple, GT_POLICY_EXACT, 41, 23, GT_ERR_SHAPE_MISMATCH);
  failures += run(ctx, halo, simple, GT_POLICY_PAD, 41, 23, GT_OK);
  failures += run(ctx, halo, simple, GT_POLICY_PAD, 1, 1, GT_OK);
  failures += run(ctx, halo, simple, GT_POLICY_TRUNCATE, 41, 23, GT_OK);
  failures += run(ctx, halo, simple, GT_POLICY_TRUNCATE, 5, 30, GT_OK); /* no whole tile row */
  gt_context_release(ctx);
  gt_egl_close(&egl);
  printf("%d passed, %d failed\n", 6 - failures, failures);
  return failures ? 1 : 0;
}
