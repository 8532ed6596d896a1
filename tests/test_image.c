/* Image transposes and quarter turns through imageLoad / imageStore: every
 * format, odd extents, windows inside larger textures; the whole
 * destination level is read back, so texels outside the window must keep
 * their old values. Then every refused call, with nothing written. */
#include "check.h"
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const gt_format formats[] = {GT_FORMAT_R32F, GT_FORMAT_R32I, GT_FORMAT_R32UI, GT_FORMAT_RGBA8};
static gt_context *ctx;
static uint32_t rng = 777;
static GLuint fbo;

/* How each format travels to and from the host: one 32-bit word a texel
 * for the upload, four channels a texel for glReadPixels. */
typedef struct format_io {
  GLenum internal, upload_format, upload_type, read_format, read_type;
} format_io;

static format_io io_of(gt_format f) {
  switch (f) {
  case GT_FORMAT_R32F: return (format_io){GL_R32F, GL_RED, GL_FLOAT, GL_RGBA, GL_FLOAT};
  case GT_FORMAT_R32I: return (format_io){GL_R32I, GL_RED_INTEGER, GL_INT, GL_RGBA_INTEGER, GL_INT};
  case GT_FORMAT_R32UI:
    return (format_io){GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, GL_RGBA_INTEGER, GL_UNSIGNED_INT};
  default: return (format_io){GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, GL_RGBA, GL_UNSIGNED_BYTE};
  }
}

/* A texel value that survives the format exactly: finite floats for r32f
 * (imageLoad may quiet a NaN), any word for the integer formats, any four
 * bytes for rgba8. */
static uint32_t texel(gt_format f, uint32_t seed, size_t i) {
  uint32_t w = gt_test_noise(i, seed);
  if (f == GT_FORMAT_R32F) {
    float v = (float)(int32_t)(w % 2000001u - 1000000) / 64.0f;
    memcpy(&w, &v, 4);
  }
  return w;
}

/* An immutable texture of w x h texels holding texel(f, seed, i). */
static GLuint make_texture(gt_format f, uint32_t w, uint32_t h, uint32_t seed) {
  format_io io = io_of(f);
  uint32_t *data = malloc((size_t)w * h * 4);
  for (size_t i = 0; i < (size_t)w * h; i++)
    data[i] = texel(f, seed, i);
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexStorage2D(GL_TEXTURE_2D, 1, io.internal, (GLsizei)w, (GLsizei)h);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, (GLsizei)w, (GLsizei)h, io.upload_format, io.upload_type, data);
  glBindTexture(GL_TEXTURE_2D, 0);
  free(data);
  return t;
}

/* Reads level 0 back as one 32-bit word a texel (the red channel, or the
 * four bytes of rgba8). */
static bool read_texture(gt_format f, GLuint t, uint32_t w, uint32_t h, uint32_t *out) {
  format_io io = io_of(f);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
  bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  if (ok) {
    if (f == GT_FORMAT_RGBA8) {
      glReadPixels(0, 0, (GLsizei)w, (GLsizei)h, GL_RGBA, GL_UNSIGNED_BYTE, out);
    } else {
      uint32_t *four = malloc((size_t)w * h * 16);
      glReadPixels(0, 0, (GLsizei)w, (GLsizei)h, io.read_format, io.read_type, four);
      for (size_t i = 0; i < (size_t)w * h; i++)
        out[i] = four[4 * i];
      free(four);
    }
    ok = glGetError() == GL_NO_ERROR;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return ok;
}

/* Where source texel (r, c) of an R x C window lands after `turns` quarter
 * turns (0 = the transpose). */
static void destination(uint32_t turns, uint32_t R, uint32_t C, uint32_t r, uint32_t c, uint32_t *dr,
                        uint32_t *dc) {
  switch (turns) {
  case 0: *dr = c, *dc = r; break;
  case 1: *dr = c, *dc = R - 1 - r; break;
  case 2: *dr = R - 1 - r, *dc = C - 1 - c; break;
  default: *dr = C - 1 - c, *dc = r; break;
  }
}

/* One operation on an R x C window at (sx, sy) of a larger source texture,
 * into a window at (dx, dy) of a larger destination; all of the
 * destination level checked. */
static bool run_case(gt_format f, uint32_t R, uint32_t C, uint32_t turns, gt_strategy strategy,
                     uint32_t tile) {
  uint32_t sx = gt_test_rand_range(&rng, 0, 3), sy = gt_test_rand_range(&rng, 0, 3);
  uint32_t dx = gt_test_rand_range(&rng, 0, 3), dy = gt_test_rand_range(&rng, 0, 3);
  uint32_t DR = turns == 2 ? R : C, DC = turns == 2 ? C : R; /* destination window extent */
  uint32_t sw = sx + C + 2, sh = sy + R + 1, dw = dx + DC + 3, dh = dy + DR + 2;
  uint32_t seed = gt_test_rand(&rng);
  GLuint st = make_texture(f, sw, sh, seed), dt = make_texture(f, dw, dh, seed + 1);
  gt_image src = {st, 0, sx, sy, C, R, f}, dst = {dt, 0, dx, dy, DC, DR, f};
  gt_transpose_desc d = {strategy, tile};
  uint32_t t = tile ? tile : gt_context_default_tile(ctx);
  bool refused = strategy == GT_STRATEGY_TILED_EVEN && turns != 2 && (R % t || C % t);
  gt_status s = turns ? gt_image_rotate(ctx, src, dst, turns, &d) : gt_image_transpose(ctx, src, dst, &d);
  CHECK_STATUS(s, refused ? GT_ERR_SHAPE_MISMATCH : GT_OK);
  uint32_t *got = malloc((size_t)dw * dh * 4), *want = malloc((size_t)dw * dh * 4);
  for (size_t i = 0; i < (size_t)dw * dh; i++)
    want[i] = texel(f, seed + 1, i);
  if (!refused)
    for (uint32_t r = 0; r < R; r++)
      for (uint32_t c = 0; c < C; c++) {
        uint32_t i, j;
        destination(turns, R, C, r, c, &i, &j);
        want[(size_t)(dy + i) * dw + dx + j] = texel(f, seed, (size_t)(sy + r) * sw + sx + c);
      }
  bool ok = read_texture(f, dt, dw, dh, got) && memcmp(got, want, (size_t)dw * dh * 4) == 0;
  CHECK(ok);
  if (!ok)
    fprintf(stderr, "FAILED: image %ux%u format %d turns %u %s tile %u\n", R, C, (int)f, turns,
            gt_strategy_name(strategy), tile);
  free(got);
  free(want);
  glDeleteTextures(1, &st);
  glDeleteTextures(1, &dt);
  return ok;
}

static unsigned long test_shapes(void) {
  static const uint32_t shapes[][2] = {{1, 1},   {1, 7}, {5, 1},   {17, 33}, {33, 17},
                                       {67, 45}, {8, 8}, {32, 32}, {31, 64}};
  static const gt_strategy strategies[] = {GT_STRATEGY_AUTO, GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_EVEN,
                                           GT_STRATEGY_TILED_PAD};
  unsigned long cases = 0;
  for (size_t fi = 0; fi < sizeof formats / sizeof formats[0]; fi++)
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
      for (uint32_t turns = 0; turns < 4; turns++)
        for (size_t si = 0; si < sizeof strategies / sizeof strategies[0]; si++, cases++)
          run_case(formats[fi], shapes[k][0], shapes[k][1], turns, strategies[si], si == 2 ? 8 : 16);
  for (int i = 0; i < 8; i++, cases++)
    run_case(formats[i % 4], gt_test_rand_range(&rng, 1, 100), gt_test_rand_range(&rng, 1, 100),
             (uint32_t)i % 4, GT_STRATEGY_TILED_PAD, 32);
  return cases;
}

/* Windows of several stripes of the tiled kernel's group order (stripes
 * of 1 MiB of source rows on llvmpipe: 8 tile rows of 16 here, so two
 * whole stripes and a partial one at the bottom; one stripe where stripes
 * are larger). Textures stay within ES 3.1's 2048-texel minimum. Every texel of the destination is checked,
 * so an order that missed or repeated a tile fails. */
static unsigned long test_striped_order(void) {
  unsigned long cases = 0;
  for (uint32_t turns = 0; turns < 4; turns++) {
    if (turns == 2) continue; /* a half turn has no tiled kernel */
    run_case(formats[turns % 4], 300, 2039, turns, GT_STRATEGY_TILED_PAD, 16);
    run_case(formats[(turns + 1) % 4], 288, 2032, turns, GT_STRATEGY_TILED_EVEN, 16);
    cases += 2;
  }
  return cases;
}

/* Four quarter turns, one after another, give the image back. */
static void test_full_turn(void) {
  uint32_t R = 13, C = 29;
  GLuint a = make_texture(GT_FORMAT_RGBA8, C, R, 5), b = make_texture(GT_FORMAT_RGBA8, R, C, 6);
  gt_image ia = {a, 0, 0, 0, C, R, GT_FORMAT_RGBA8}, ib = {b, 0, 0, 0, R, C, GT_FORMAT_RGBA8};
  for (int i = 0; i < 2; i++) {
    CHECK_STATUS(gt_image_rotate(ctx, ia, ib, 1, NULL), GT_OK);
    CHECK_STATUS(gt_image_rotate(ctx, ib, ia, 1, NULL), GT_OK);
  }
  uint32_t got[13 * 29];
  bool same = read_texture(GT_FORMAT_RGBA8, a, C, R, got);
  for (size_t i = 0; i < (size_t)R * C && same; i++)
    same = got[i] == texel(GT_FORMAT_RGBA8, 5, i);
  CHECK(same);
  glDeleteTextures(1, &a);
  glDeleteTextures(1, &b);
}

/* Refused calls: each code, and the destination level left as it was. */
static void expect_refused(gt_status got, gt_status want, GLuint dt, uint32_t w, uint32_t h, uint32_t seed,
                           const char *what) {
  CHECK_STATUS(got, want);
  uint32_t *back = malloc((size_t)w * h * 4);
  bool same = read_texture(GT_FORMAT_R32UI, dt, w, h, back);
  for (size_t i = 0; i < (size_t)w * h && same; i++)
    same = back[i] == texel(GT_FORMAT_R32UI, seed, i);
  CHECK(same);
  if (got != want || !same) fprintf(stderr, "  case: %s\n", what);
  free(back);
}

static void test_refusals(void) {
  const gt_format u = GT_FORMAT_R32UI;
  GLuint st = make_texture(u, 20, 10, 1), dt = make_texture(u, 20, 20, 2);
  gt_image src = {st, 0, 0, 0, 7, 5, u}, dst = {dt, 0, 1, 1, 5, 7, u};
  gt_transpose_desc trunc = {GT_STRATEGY_TRUNCATE_A, 0}, bad = {(gt_strategy)99, 0}, tile = {0, 12};

  expect_refused(gt_image_transpose(NULL, src, dst, NULL), GT_ERR_INVALID_ARGUMENT, dt, 20, 20, 2,
                 "NULL ctx");
  expect_refused(gt_image_transpose(ctx, src, dst, &trunc), GT_ERR_INVALID_ARGUMENT, dt, 20, 20, 2,
                 "truncate_a");
  expect_refused(gt_image_transpose(ctx, src, dst, &bad), GT_ERR_INVALID_ARGUMENT, dt, 20, 20, 2,
                 "strategy 99");
  expect_refused(gt_image_transpose(ctx, src, dst, &tile), GT_ERR_INVALID_ARGUMENT, dt, 20, 20, 2, "tile 12");
  expect_refused(gt_image_rotate(ctx, src, dst, 0, NULL), GT_ERR_INVALID_ARGUMENT, dt, 20, 20, 2, "0 turns");
  expect_refused(gt_image_rotate(ctx, src, dst, 4, NULL), GT_ERR_INVALID_ARGUMENT, dt, 20, 20, 2, "4 turns");
  gt_image x = src;
  x.texture = 0;
  expect_refused(gt_image_transpose(ctx, x, dst, NULL), GT_ERR_INVALID_ARGUMENT, dt, 20, 20, 2, "texture 0");
  x.texture = 99999;
  expect_refused(gt_image_transpose(ctx, x, dst, NULL), GT_ERR_INVALID_ARGUMENT, dt, 20, 20, 2,
                 "not a texture");
  x = src;
  x.format = (gt_format)9;
  expect_refused(gt_image_transpose(ctx, x, dst, NULL), GT_ERR_INVALID_ARGUMENT, dt, 20, 20, 2, "format 9");
  x = src, x.width = 0;
  expect_refused(gt_image_transpose(ctx, x, dst, NULL), GT_ERR_INVALID_ARGUMENT, dt, 20, 20, 2, "width 0");
  /* The description says r32f; the textures hold r32ui. */
  gt_image fs = src, fd = dst;
  fs.format = fd.format = GT_FORMAT_R32F;
  expect_refused(gt_image_transpose(ctx, fs, fd, NULL), GT_ERR_INVALID_ARGUMENT, dt, 20, 20, 2,
                 "wrong format");
  fd.format = u;
  expect_refused(gt_image_transpose(ctx, fs, fd, NULL), GT_ERR_SHAPE_MISMATCH, dt, 20, 20, 2,
                 "formats differ");
  x = dst, x.width = 6;
  expect_refused(gt_image_transpose(ctx, src, x, NULL), GT_ERR_SHAPE_MISMATCH, dt, 20, 20, 2, "dst extent");
  expect_refused(gt_image_rotate(ctx, src, dst, 2, NULL), GT_ERR_SHAPE_MISMATCH, dt, 20, 20, 2,
                 "half turn extent");
  gt_transpose_desc even = {GT_STRATEGY_TILED_EVEN, 8};
  expect_refused(gt_image_transpose(ctx, src, dst, &even), GT_ERR_SHAPE_MISMATCH, dt, 20, 20, 2, "uneven");
  x = dst, x.x = 16; /* 16 + 5 > 20 */
  expect_refused(gt_image_transpose(ctx, src, x, NULL), GT_ERR_OUT_OF_RANGE, dt, 20, 20, 2,
                 "window past edge");
  x = dst, x.level = 1;
  expect_refused(gt_image_transpose(ctx, src, x, NULL), GT_ERR_OUT_OF_RANGE, dt, 20, 20, 2, "level 1");
  x = dst, x.x = 0xFFFFFFF0u;
  expect_refused(gt_image_transpose(ctx, src, x, NULL), GT_ERR_OUT_OF_RANGE, dt, 20, 20, 2, "x overflow");

  /* A texture without immutable storage cannot be bound as an image. */
  GLuint mutable_tex = 0;
  glGenTextures(1, &mutable_tex);
  glBindTexture(GL_TEXTURE_2D, mutable_tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32UI, 20, 20, 0, GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
  glBindTexture(GL_TEXTURE_2D, 0);
  x = dst, x.texture = mutable_tex;
  expect_refused(gt_image_transpose(ctx, src, x, NULL), GT_ERR_UNSUPPORTED, dt, 20, 20, 2, "mutable texture");

  /* Read/write aliasing of one texture (seed 004, caveat 3). */
  gt_image left = {dt, 0, 0, 0, 7, 5, u}, overlap = {dt, 0, 3, 2, 5, 7, u}, apart = {dt, 0, 10, 0, 5, 7, u};
  CHECK(gt_images_alias(left, overlap));
  CHECK(!gt_images_alias(left, apart));
  CHECK(!gt_images_alias(left, (gt_image){dt, 1, 0, 0, 7, 5, u})); /* another level */
  expect_refused(gt_image_transpose(ctx, left, overlap, NULL), GT_ERR_ALIASED, dt, 20, 20, 2, "overlap");
  gt_image square = {dt, 0, 0, 0, 5, 5, u};
  expect_refused(gt_image_transpose(ctx, square, square, NULL), GT_ERR_ALIASED, dt, 20, 20, 2, "in place");
  /* Apart, one texture is fine. */
  CHECK_STATUS(gt_image_transpose(ctx, left, apart, NULL), GT_OK);
  glDeleteTextures(1, &mutable_tex);
  glDeleteTextures(1, &st);
  glDeleteTextures(1, &dt);
}

/* "built image_tiled.comp ..." messages: tiled image programs compiled. */
static unsigned tiled_builds;

static void count_tiled_builds(int level, const char *msg, void *user) {
  (void)level;
  (void)user;
  if (strncmp(msg, "built image_tiled.comp", 22) == 0) tiled_builds++;
}

/* A context whose transpose AUTO truncates: images have no truncated
 * kernels, so their AUTO runs TILED_PAD on an uneven extent and TILED_EVEN
 * where the tile divides both (each quarter turn and transpose builds a
 * tiled program for each), exact either way; an explicit TRUNCATE_A or
 * TRUNCATE_B is still refused. */
static unsigned long test_auto_on_truncating_context(gt_strategy transpose_strategy, bool min_limits) {
  gt_context_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.transpose_strategy = transpose_strategy;
  desc.min_limits = min_limits;
  desc.logger.log = count_tiled_builds;
  CHECK_STATUS(gt_context_init(NULL, 0, &desc, &ctx), GT_OK);
  if (ctx == NULL) return 0;
  CHECK(gt_context_auto_strategy(ctx) == transpose_strategy);
  uint32_t t = gt_context_default_tile(ctx);
  unsigned long cases = 0;
  bool all_ok = true;
  for (int even = 0; even < 2; even++) {
    /* 37 x 45 is uneven for every tile; 2t x 3t is even and not square. */
    uint32_t R = even ? 2 * t : 37, C = even ? 3 * t : 45;
    tiled_builds = 0;
    for (size_t fi = 0; fi < sizeof formats / sizeof formats[0]; fi++)
      for (uint32_t turns = 0; turns < 4; turns++, cases++)
        all_ok &= run_case(formats[fi], R, C, turns, GT_STRATEGY_AUTO, 0);
    /* A half turn runs SIMPLE; the transpose and the odd turns are tiled. */
    CHECK_EQ_U(tiled_builds, 3 * (sizeof formats / sizeof formats[0]));
  }
  if (!all_ok) fprintf(stderr, "  on a context whose AUTO is %s\n", gt_strategy_name(transpose_strategy));

  const gt_format u = GT_FORMAT_R32UI;
  GLuint st = make_texture(u, 20, 10, 1), dt = make_texture(u, 20, 20, 2);
  gt_image src = {st, 0, 0, 0, 7, 5, u}, dst = {dt, 0, 1, 1, 5, 7, u};
  gt_transpose_desc trunc_a = {GT_STRATEGY_TRUNCATE_A, 0}, trunc_b = {GT_STRATEGY_TRUNCATE_B, 0};
  expect_refused(gt_image_transpose(ctx, src, dst, &trunc_a), GT_ERR_INVALID_ARGUMENT, dt, 20, 20, 2,
                 "truncate_a desc");
  expect_refused(gt_image_rotate(ctx, src, dst, 1, &trunc_b), GT_ERR_INVALID_ARGUMENT, dt, 20, 20, 2,
                 "truncate_b desc");
  glDeleteTextures(1, &st);
  glDeleteTextures(1, &dt);
  gt_context_release(ctx);
  ctx = NULL;
  return cases;
}

int main(int argc, char **argv) {
  gt_test_env env;
  int rc = gt_test_open(argc, argv, &env);
  if (rc != 0) return rc;
  ctx = env.ctx;
  glGenFramebuffers(1, &fbo);
  unsigned long cases = test_shapes();
  cases += test_striped_order();
  test_full_turn();
  test_refusals();
  /* One gt_context per GL context at a time: the harness's goes first. */
  gt_context_release(env.ctx);
  env.ctx = NULL;
  cases += test_auto_on_truncating_context(GT_STRATEGY_TRUNCATE_A, env.min_limits);
  cases += test_auto_on_truncating_context(GT_STRATEGY_TRUNCATE_B, env.min_limits);
  glDeleteFramebuffers(1, &fbo);
  printf("%lu image transposes and rotations checked texel for texel\n", cases);
  gt_test_close(&env);
  return CHECK_SUMMARY();
}
