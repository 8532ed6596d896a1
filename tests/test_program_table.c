/* The program table sized by its caller (gt_context_desc.program_slots):
 * gt_context_size follows the slots (the default under 32 KiB), init
 * takes memory of that size and refuses too many slots; a full table
 * never fails a call but releases its least recently used program, which
 * a later call builds again, with the same results as a table that keeps
 * everything. */
#include "check.h"
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned builds; /* "built ..." messages: programs compiled */

static void count_builds(int level, const char *msg, void *user) {
  (void)level;
  (void)user;
  if (strncmp(msg, "built ", 6) == 0) builds++;
}

static void test_sizes(void) {
  gt_context_desc d;
  memset(&d, 0, sizeof d);
  size_t standard = gt_context_size(NULL);
  CHECK(standard > 0 && standard <= 32 * 1024);
  CHECK_EQ_U(gt_context_size(&d), standard);
  d.program_slots = 128; /* the default, named */
  CHECK_EQ_U(gt_context_size(&d), standard);
  d.program_slots = 2;
  size_t two = gt_context_size(&d);
  d.program_slots = 3;
  size_t three = gt_context_size(&d);
  CHECK(two < standard && three > two);
  d.program_slots = 1002;
  CHECK_EQ_U(gt_context_size(&d) - two, 1000 * (three - two)); /* a slot's bytes each */
  d.program_slots = 65536;
  CHECK(gt_context_size(&d) > 0);
  d.program_slots = 65537;
  CHECK_EQ_U(gt_context_size(&d), 0);
  printf("context: %zu bytes with the default 128 program slots, %zu with 2, %zu more a slot\n", standard,
         two, three - two);
}

/* Init in caller memory of exactly gt_context_size bytes, one byte short,
 * and with too many slots. */
static void test_init(void) {
  gt_context_desc d;
  memset(&d, 0, sizeof d);
  d.program_slots = 2;
  size_t size = gt_context_size(&d);
  void *mem = malloc(size);
  gt_context *ctx = NULL;
  CHECK(mem != NULL);
  CHECK_STATUS(gt_context_init(mem, size - 1, &d, &ctx), GT_ERR_OUT_OF_MEMORY);
  CHECK(ctx == NULL);
  CHECK_STATUS(gt_context_init(mem, size, &d, &ctx), GT_OK);
  gt_context_release(ctx);
  d.program_slots = 65537;
  CHECK_STATUS(gt_context_init(NULL, 0, &d, &ctx), GT_ERR_INVALID_ARGUMENT);
  CHECK(ctx == NULL);
  free(mem);
}

enum { ROWS = 37, COLS = 29 };

/* Transposes (AUTO, SIMPLE, TILED_PAD), a copy and a matmul on fixed
 * inputs, every result's words into out (5 results). Each names other
 * programs, so a table of 2 keeps releasing them. */
static bool run_ops(gt_context *ctx, GLuint in, GLuint out_buffer, uint32_t *out) {
  size_t n = (size_t)ROWS * COLS;
  gt_view a = {in, 0, ROWS, COLS, 0, GT_F32}, sq = {in, 0, COLS, COLS, 0, GT_F32};
  gt_transpose_desc simple = {GT_STRATEGY_SIMPLE, 0}, padded = {GT_STRATEGY_TILED_PAD, 8};
  gt_view t[3] = {{out_buffer, 0, COLS, ROWS, 0, GT_F32},
                  {out_buffer, n, COLS, ROWS, 0, GT_F32},
                  {out_buffer, 2 * n, COLS, ROWS, 0, GT_F32}};
  gt_view c = {out_buffer, 3 * n, ROWS, COLS, 0, GT_F32}, m = {out_buffer, 4 * n, ROWS, COLS, 0, GT_F32};
  bool ok = gt_transpose(ctx, a, t[0], NULL) == GT_OK && gt_transpose(ctx, a, t[1], &simple) == GT_OK &&
            gt_transpose(ctx, a, t[2], &padded) == GT_OK && gt_copy(ctx, a, c) == GT_OK &&
            gt_matmul(ctx, a, sq, m, NULL) == GT_OK;
  CHECK(ok);
  return ok && gt_test_read_all(ctx, out_buffer, 5 * n, out) == 0;
}

static uint32_t small_float(size_t i, uint32_t seed) {
  float f = (float)((i * 5 + seed) % 9) - 4.0f;
  uint32_t w;
  memcpy(&w, &f, 4);
  return w;
}

/* Rounds of the same calls on a table of 2 and on the default one: the
 * same words every round; the small table builds again in every round,
 * the default one only in the first. */
static void test_full_table(bool min_limits) {
  gt_context_desc d;
  memset(&d, 0, sizeof d);
  d.min_limits = min_limits;
  d.logger.log = count_builds;
  gt_context *whole = NULL, *two = NULL;
  CHECK_STATUS(gt_context_init(NULL, 0, &d, &whole), GT_OK);
  d.program_slots = 2;
  CHECK_STATUS(gt_context_init(NULL, 0, &d, &two), GT_OK);
  if (whole == NULL || two == NULL) {
    gt_context_release(whole), gt_context_release(two);
    return;
  }
  size_t n = 5 * (size_t)ROWS * COLS;
  GLuint in = gt_test_buffer((size_t)ROWS * COLS, small_float, 3);
  GLuint out = gt_test_buffer(n, gt_test_poison, 1), out2 = gt_test_buffer(n, gt_test_poison, 2);
  uint32_t *want = malloc(n * 4), *got = malloc(n * 4);
  CHECK(want && got);
  unsigned whole_builds[3], two_builds[3];
  for (int round = 0; round < 3 && want && got; round++) {
    builds = 0;
    CHECK(run_ops(whole, in, out, want));
    whole_builds[round] = builds;
    builds = 0;
    CHECK(run_ops(two, in, out2, got));
    two_builds[round] = builds;
    size_t differ = 0;
    for (size_t i = 0; i < n; i++)
      differ += want[i] != got[i] || want[i] == gt_test_poison(i, 1);
    CHECK_EQ_U(differ, 0);
  }
  CHECK(whole_builds[0] > 2);
  CHECK_EQ_U(whole_builds[1] + whole_builds[2], 0);
  CHECK(two_builds[1] > 0 && two_builds[2] > 0);
  /* A table of 2 keeps 2 programs: the cache it saves holds no more. */
  size_t bytes = 0, bytes_whole = 0;
  CHECK_STATUS(gt_program_cache_size(two, &bytes), GT_OK);
  CHECK_STATUS(gt_program_cache_size(whole, &bytes_whole), GT_OK);
  printf("%s: builds in 3 rounds, the default table %u, %u, %u; a table of 2 %u, %u, %u; caches of %zu and "
         "%zu bytes\n",
         min_limits ? "minimum limits" : "device limits", whole_builds[0], whole_builds[1], whole_builds[2],
         two_builds[0], two_builds[1], two_builds[2], bytes_whole, bytes);
  CHECK(bytes <= bytes_whole);
  free(want), free(got);
  GLuint names[3] = {in, out, out2};
  glDeleteBuffers(3, names);
  gt_context_release(whole);
  gt_context_release(two);
}

int main(int argc, char **argv) {
  test_sizes();
  gt_test_env env;
  int opened = gt_test_open(argc, argv, &env);
  if (opened != 0) return check_failed ? 1 : opened;
  test_init();
  test_full_table(false);
  test_full_table(true);
  gt_test_close(&env);
  return CHECK_SUMMARY();
}
