/* Build-time helper: writes the full source of every kernel variant the
 * library can build (preamble + prelude + kernel, exactly as the library
 * assembles them) into a folder, for glslangValidator to check. */
#include "gt_internal.h"

#include <stdio.h>

static int write_variant(const char *dir, int n, const gt_program_key *key) {
  char preamble[512], path[1024];
  if (gt__program_preamble(key, preamble, sizeof preamble) == 0) return 1;
  snprintf(path, sizeof path, "%s/%03d_%s", dir, n, gt__kernel_name(key->kernel));
  FILE *f = fopen(path, "w");
  if (f == NULL) return 1;
  const char *include = gt__kernel_include(key->kernel);
  fprintf(f, "%s%s\n#line 1 3\n%s\n#line 1 2\n%s", preamble, gt__glsl_prelude, include ? include : "",
          gt__kernel_source(key->kernel));
  return fclose(f) != 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
    return 2;
  }
  int n = 0, failed = 0;
  for (uint32_t variant = 0; variant < 4; variant++) {
    gt_program_key simple = {.kernel = GT_KERNEL_TRANSPOSE_SIMPLE,
                             .tile = 0,
                             .group_cols = 32,
                             .group_rows = 4,
                             .variant = variant,
                             .elem = GT_U32};
    failed |= write_variant(argv[1], n++, &simple);
    for (int k = GT_KERNEL_TRANSPOSE_TILED; k <= GT_KERNEL_TRANSPOSE_TRUNCATE_A; k++) {
      for (uint32_t tile = 8; tile <= 32; tile *= 2) {
        /* Every group height the library may pick for this tile. */
        for (uint32_t rows = tile; rows >= 1; rows /= 2) {
          gt_program_key key = {.kernel = (gt_kernel)k,
                                .tile = tile,
                                .group_cols = tile,
                                .group_rows = rows,
                                .variant = variant,
                                .elem = GT_U32};
          failed |= write_variant(argv[1], n++, &key);
        }
      }
    }
  }
  /* In-place transposes: the aliased variant only. */
  gt_program_key inplace = {.kernel = GT_KERNEL_TRANSPOSE_INPLACE_SIMPLE,
                            .tile = 0,
                            .group_cols = 32,
                            .group_rows = 4,
                            .variant = GT_VARIANT_ALIASED,
                            .elem = GT_U32};
  failed |= write_variant(argv[1], n++, &inplace);
  for (uint32_t tile = 8; tile <= 32; tile *= 2)
    for (uint32_t rows = tile; rows >= 1; rows /= 2)
      for (uint32_t flags = 0; flags < 3; flags++) {
        uint32_t variant = GT_VARIANT_ALIASED | (flags == 1 ? GT_VARIANT_GUARDED : 0) |
                           (flags == 2 ? GT_VARIANT_TRUNCATE_A : 0);
        gt_program_key key = {.kernel = GT_KERNEL_TRANSPOSE_INPLACE_TILED,
                              .tile = tile,
                              .group_cols = tile,
                              .group_rows = rows,
                              .variant = variant,
                              .elem = GT_U32};
        failed |= write_variant(argv[1], n++, &key);
      }
  gt_program_key copy = {
      .kernel = GT_KERNEL_COPY, .tile = 0, .group_cols = 64, .group_rows = 1, .variant = 0, .elem = GT_U32};
  failed |= write_variant(argv[1], n++, &copy);
  gt_program_key copy4 = {.kernel = GT_KERNEL_COPY_VEC4,
                          .tile = 0,
                          .group_cols = 64,
                          .group_rows = 1,
                          .variant = 0,
                          .elem = GT_U32};
  failed |= write_variant(argv[1], n++, &copy4);
  /* Images: every format and rotation, simple and tiled. */
  for (uint32_t f = GT_FORMAT_R32F; f <= GT_FORMAT_RGBA8; f++)
    for (uint32_t turns = 0; turns < 4; turns++) {
      uint32_t rot = turns << GT_VARIANT_ROTATE_SHIFT;
      gt_program_key simple = {.kernel = GT_KERNEL_IMAGE_SIMPLE,
                               .tile = 0,
                               .group_cols = 32,
                               .group_rows = 4,
                               .variant = rot,
                               .elem = (gt_type)0,
                               .format = (gt_format)f};
      failed |= write_variant(argv[1], n++, &simple);
      if (turns == 2) continue; /* a half turn has no tiled kernel */
      for (uint32_t tile = 8; tile <= 32; tile *= 2)
        for (uint32_t guarded = 0; guarded <= GT_VARIANT_GUARDED; guarded += GT_VARIANT_GUARDED) {
          gt_program_key key = {.kernel = GT_KERNEL_IMAGE_TILED,
                                .tile = tile,
                                .group_cols = tile,
                                .group_rows = tile * tile > 256 ? 256 / tile : tile,
                                .variant = rot | guarded,
                                .format = (gt_format)f};
          failed |= write_variant(argv[1], n++, &key);
        }
    }
  /* Matmul: every transpose case and aliasing flag. */
  for (uint32_t variant = 0; variant < 16; variant++) {
    if (variant & GT_VARIANT_GUARDED) continue; /* added per kernel below */
    gt_program_key simple = {.kernel = GT_KERNEL_MATMUL_SIMPLE,
                             .tile = 0,
                             .group_cols = 16,
                             .group_rows = 8,
                             .variant = variant,
                             .elem = GT_F32};
    failed |= write_variant(argv[1], n++, &simple);
    gt_program_key blocked = {.kernel = GT_KERNEL_MATMUL_BLOCKED,
                              .tile = 32,
                              .group_cols = 8,
                              .group_rows = 8,
                              .variant = variant,
                              .elem = GT_F32};
    failed |= write_variant(argv[1], n++, &blocked);
    gt_program_key shared = {.kernel = GT_KERNEL_MATMUL_BLOCKED_SHARED,
                             .tile = 128,
                             .group_cols = 16,
                             .group_rows = 16,
                             .variant = variant,
                             .elem = GT_F32};
    failed |= write_variant(argv[1], n++, &shared);
    for (uint32_t tile = 8; tile <= 32; tile *= 2) {
      for (uint32_t rows = tile; rows >= 1; rows /= 2) {
        for (uint32_t guarded = 0; guarded <= GT_VARIANT_GUARDED; guarded += GT_VARIANT_GUARDED) {
          gt_program_key key = {.kernel = GT_KERNEL_MATMUL_TILED,
                                .tile = tile,
                                .group_cols = tile,
                                .group_rows = rows,
                                .variant = variant | guarded,
                                .elem = GT_F32};
          failed |= write_variant(argv[1], n++, &key);
        }
      }
    }
  }
  return failed;
}
