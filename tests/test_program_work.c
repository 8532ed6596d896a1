/* The work one invocation of each program does (src/plan/program_work.c,
 * through gltile_advanced.h), on the host over every program of the
 * build's list: what the dispatch budget and `gltile compile`'s
 * per-element and per-step columns divide by. */
#define GT_STATIC_LINKING_ONLY
#include "check.h"

#include <gltile/gltile_advanced.h>

#include <stdlib.h>
#include <string.h>

static bool starts(const char *text, const char *prefix) { return strncmp(text, prefix, strlen(prefix)) == 0; }

int main(void) {
  size_t n = gt_program_list(NULL, NULL, 0);
  gt_program_id *ids = malloc(n * sizeof *ids);
  if (ids == NULL) return 1;
  CHECK(n > 0 && gt_program_list(NULL, ids, n) == n);
  unsigned long moving = 0, stepped = 0;
  for (size_t i = 0; i < n; i++) {
    const gt_program_id *id = &ids[i];
    unsigned long failed_before = check_failed;
    const char *file = gt_program_kernel_file(id);
    char name[256];
    gt_program_name(id, name, sizeof name);
    uint32_t elements = gt_program_elements(id), steps = gt_program_k_steps(id);
    uint32_t invocations = id->group_cols * id->group_rows;
    if (starts(file, "matmul")) {
      CHECK(elements == 0);
    } else {
      moving++;
      CHECK(elements > 0);
      /* A tiled group moves its tile (in place: the tile and its mirror)
       * whole, shared out evenly, so none is lost to rounding. */
      if (strcmp(file, "transpose_tiled.comp") == 0 || strcmp(file, "image_tiled.comp") == 0)
        CHECK_EQ_U((uint64_t)elements * invocations, (uint64_t)id->tile * id->tile);
      if (strcmp(file, "transpose_inplace_tiled.comp") == 0)
        CHECK_EQ_U((uint64_t)elements * invocations, 2ull * id->tile * id->tile);
      /* A 4x4 block, or a pair of them (the name says PAIRS). */
      if (strcmp(file, "transpose_quads.comp") == 0) CHECK_EQ_U(elements, strstr(name, " PAIRS") ? 32 : 16);
    }
    if (strcmp(file, "matmul_blocked.comp") == 0) {
      stepped++;
      /* The interior program (the name says INTERIOR) takes two k a pass. */
      CHECK_EQ_U(steps, strstr(name, " INTERIOR") ? 2 : strstr(name, " K1") ? 1 : 4);
    } else {
      CHECK_EQ_U(steps, 0);
    }
    if (check_failed > failed_before) fprintf(stderr, "  at %s\n", name);
  }
  gt_program_id none = {.kernel = 9999};
  CHECK(gt_program_elements(&none) == 0 && gt_program_k_steps(&none) == 0);
  CHECK(moving > 0 && stepped > 0);
  printf("%zu programs: %lu move data, %lu registers matmuls\n", n, moving, stepped);
  free(ids);
  return CHECK_SUMMARY();
}
