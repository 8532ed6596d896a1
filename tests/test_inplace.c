/* In-place transpose (src and dst the very same square view): every
 * strategy and tile, sizes 1..70 and 999, as sections with a pitch inside
 * buffers with guard elements around; exact, guards untouched. Also: the aliased variant
 * is the one chosen, and says so through the logger. `--packed` runs the
 * 2- and 1-byte types, whose elements share 32-bit words. */
#include "check.h"
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const gt_strategy strategies[] = { GT_STRATEGY_AUTO,       GT_STRATEGY_SIMPLE,
                                          GT_STRATEGY_TILED_EVEN, GT_STRATEGY_TILED_PAD,
                                          GT_STRATEGY_TRUNCATE_A, GT_STRATEGY_TRUNCATE_B };
static const uint32_t tiles[] = { 0, 8, 16, 32 };
static const gt_type types_32[] = {GT_F32, GT_I32, GT_U32};
static const gt_type types_packed[] = {GT_U8, GT_F16, GT_I8, GT_U16, GT_I16};
static const gt_type *types = types_32;
static size_t type_count = 3;
static gt_context *ctx;
static uint32_t rng = 4242;

/* One n x n in-place transpose inside a buffer with `guard` elements
 * before and after and `extra` elements between rows; every word checked. */
static bool run_case(uint32_t n, gt_strategy strategy, uint32_t tile, gt_type type) {
  uint32_t guard = gt_test_rand_range(&rng, 0, 40), extra = gt_test_rand_range(&rng, 0, 5);
  uint32_t pitch = n + extra;
  size_t size = gt_type_size(type);
  size_t words = ((2 * (size_t)guard + (size_t)(n - 1) * pitch + n) * size + 3) / 4;
  uint32_t seed = gt_test_rand(&rng);
  GLuint b = gt_test_buffer(words, gt_test_noise, seed);
  uint32_t *want = malloc(words * 4), *got = malloc(words * 4);
  bool ok = b && want && got;
  if (ok) {
    gt_view v = { b, guard, n, n, extra ? pitch : 0, type };
    gt_transpose_desc d = { strategy, tile };
    uint32_t t = tile ? tile : gt_context_default_tile(ctx);
    gt_status want_status = strategy == GT_STRATEGY_TILED_EVEN && n % t ? GT_ERR_SHAPE_MISMATCH : GT_OK;
    /* Packed kernels need shader atomics (gt_context_has_atomics). */
    if (want_status == GT_OK && size < 4 && !gt_context_has_atomics(ctx)) want_status = GT_ERR_UNSUPPORTED;
    gt_status s = gt_transpose(ctx, v, v, &d);
    CHECK_STATUS(s, want_status);
    for (size_t i = 0; i < words; i++)
      want[i] = gt_test_noise(i, seed), got[i] = want[i];
    /* Element by element, as bytes (got holds the input meanwhile). */
    unsigned char *wb = (unsigned char *)want, *input = (unsigned char *)got;
    if (want_status == GT_OK)
      for (uint32_t r = 0; r < n; r++)
        for (uint32_t c = 0; c < n; c++)
          memcpy(wb + (guard + (size_t)r * pitch + c) * size, input + (guard + (size_t)c * pitch + r) * size,
                 size);
    ok = s == want_status && gt_test_read_all(ctx, b, words, got) == 0 && memcmp(got, want, words * 4) == 0;
  }
  CHECK(ok);
  if (!ok) fprintf(stderr, "FAILED: in place %ux%u %s tile %u\n", n, n, gt_strategy_name(strategy), tile);
  free(want);
  free(got);
  glDeleteBuffers(1, &b);
  return ok;
}

static unsigned long test_sizes(void) {
  unsigned long cases = 0;
  for (uint32_t n = 1; n <= 70; n++)
    for (size_t si = 0; si < sizeof strategies / sizeof strategies[0]; si++)
      for (size_t ti = 0; ti < sizeof tiles / sizeof tiles[0]; ti++, cases++)
        run_case(n, strategies[si], tiles[ti], types[(n + si) % type_count]);
  for (size_t si = 0; si < sizeof strategies / sizeof strategies[0]; si++, cases++)
    run_case(999, strategies[si], 0, types[si % type_count]);
  return cases;
}

/* Twice in place is the identity; in place agrees with out of place. */
static void test_against_out_of_place(void) {
  uint32_t n = 77;
  size_t words = (size_t)n * n;
  GLuint a = gt_test_buffer(words, gt_test_noise, 5), b = gt_test_buffer(words, gt_test_poison, 5);
  uint32_t *x = malloc(words * 4), *y = malloc(words * 4);
  gt_view va = { a, 0, n, n, 0, GT_U32 }, vb = { b, 0, n, n, 0, GT_U32 };
  gt_transpose_desc pad = { GT_STRATEGY_TILED_PAD, 16 }, simple = { GT_STRATEGY_SIMPLE, 0 };
  CHECK_STATUS(gt_transpose(ctx, va, vb, &simple), GT_OK);
  CHECK_STATUS(gt_transpose(ctx, va, va, &pad), GT_OK);
  CHECK(gt_test_read_all(ctx, a, words, x) == 0 && gt_test_read_all(ctx, b, words, y) == 0 &&
        memcmp(x, y, words * 4) == 0);
  CHECK_STATUS(gt_transpose(ctx, va, va, &simple), GT_OK);
  for (size_t i = 0; i < words; i++) y[i] = gt_test_noise(i, 5);
  CHECK(gt_test_read_all(ctx, a, words, x) == 0 && memcmp(x, y, words * 4) == 0);
  free(x);
  free(y);
  glDeleteBuffers(1, &a);
  glDeleteBuffers(1, &b);
}

/* The choice of variant is visible at debug level: once for in place,
 * never for two distinct views. */
static unsigned aliased_messages;
static void count_aliased(int level, const char *msg, void *user) {
  (void)user;
  if (level == GT_LOG_DEBUG && strstr(msg, "aliased variant")) aliased_messages++;
}

static void test_variant_logged(bool min_limits) {
  gt_context_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.logger.log = count_aliased;
  desc.min_limits = min_limits;
  gt_context *logged = NULL;
  CHECK_STATUS(gt_context_init(NULL, 0, &desc, &logged), GT_OK);
  if (logged == NULL) return;
  GLuint a = gt_test_buffer(64, gt_test_noise, 1), b = gt_test_buffer(64, gt_test_noise, 2);
  gt_view va = { a, 0, 8, 8, 0, GT_F32 }, vb = { b, 0, 8, 8, 0, GT_F32 };
  CHECK_STATUS(gt_transpose(logged, va, vb, NULL), GT_OK);
  CHECK_EQ_U(aliased_messages, 0);
  CHECK_STATUS(gt_transpose(logged, va, va, NULL), GT_OK);
  CHECK_EQ_U(aliased_messages, 1);
  /* A non-square view cannot be its own transpose: its shape is refused
   * before anything else. */
  gt_view wide = { a, 0, 4, 16, 0, GT_F32 };
  CHECK_STATUS(gt_transpose(logged, wide, wide, NULL), GT_ERR_SHAPE_MISMATCH);
  gt_context_release(logged);
  glDeleteBuffers(1, &a);
  glDeleteBuffers(1, &b);
}

int main(int argc, char **argv) {
  gt_test_env env;
  int rc = gt_test_open(argc, argv, &env);
  if (rc != 0) return rc;
  ctx = env.ctx;
  if (gt_test_flag(argc, argv, "--packed")) {
    types = types_packed;
    type_count = sizeof types_packed / sizeof types_packed[0];
  }
  unsigned long cases = test_sizes();
  test_against_out_of_place();
  test_variant_logged(env.min_limits);
  printf("%lu in-place transposes checked word for word\n", cases);
  gt_test_close(&env);
  return CHECK_SUMMARY();
}
