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
    gt_program_key simple = { GT_KERNEL_TRANSPOSE_SIMPLE, 0, 32, 4, variant, GT_U32 };
    failed |= write_variant(argv[1], n++, &simple);
    for (int k = GT_KERNEL_TRANSPOSE_TILED; k <= GT_KERNEL_TRANSPOSE_TRUNCATE_A; k++) {
      for (uint32_t tile = 8; tile <= 32; tile *= 2) {
        /* Every group height the library may pick for this tile. */
        for (uint32_t rows = tile; rows >= 1; rows /= 2) {
          gt_program_key key = { (gt_kernel)k, tile, tile, rows, variant, GT_U32 };
          failed |= write_variant(argv[1], n++, &key);
        }
      }
    }
  }
  /* In-place transposes: the aliased variant only. */
  gt_program_key inplace = { GT_KERNEL_TRANSPOSE_INPLACE_SIMPLE, 0, 32, 4, GT_VARIANT_ALIASED, GT_U32 };
  failed |= write_variant(argv[1], n++, &inplace);
  for (uint32_t tile = 8; tile <= 32; tile *= 2)
    for (uint32_t rows = tile; rows >= 1; rows /= 2)
      for (uint32_t flags = 0; flags < 3; flags++) {
        uint32_t variant = GT_VARIANT_ALIASED | (flags == 1 ? GT_VARIANT_GUARDED : 0) |
                           (flags == 2 ? GT_VARIANT_TRUNCATE_A : 0);
        gt_program_key key = { GT_KERNEL_TRANSPOSE_INPLACE_TILED, tile, tile, rows, variant, GT_U32 };
        failed |= write_variant(argv[1], n++, &key);
      }
  gt_program_key copy = { GT_KERNEL_COPY, 0, 64, 1, 0, GT_U32 };
  failed |= write_variant(argv[1], n++, &copy);
  gt_program_key copy4 = { GT_KERNEL_COPY_VEC4, 0, 64, 1, 0, GT_U32 };
  failed |= write_variant(argv[1], n++, &copy4);
  /* Matmul: every transpose case and aliasing flag. */
  for (uint32_t variant = 0; variant < 16; variant++) {
    if (variant & GT_VARIANT_GUARDED) continue; /* added per kernel below */
    gt_program_key simple = { GT_KERNEL_MATMUL_SIMPLE, 0, 16, 8, variant, GT_F32 };
    failed |= write_variant(argv[1], n++, &simple);
    gt_program_key blocked = { GT_KERNEL_MATMUL_BLOCKED, 32, 8, 8, variant, GT_F32 };
    failed |= write_variant(argv[1], n++, &blocked);
    gt_program_key shared = { GT_KERNEL_MATMUL_BLOCKED_SHARED, 128, 16, 16, variant, GT_F32 };
    failed |= write_variant(argv[1], n++, &shared);
    for (uint32_t tile = 8; tile <= 32; tile *= 2) {
      for (uint32_t rows = tile; rows >= 1; rows /= 2) {
        for (uint32_t guarded = 0; guarded <= GT_VARIANT_GUARDED; guarded += GT_VARIANT_GUARDED) {
          gt_program_key key = { GT_KERNEL_MATMUL_TILED, tile, tile, rows, variant | guarded, GT_F32 };
          failed |= write_variant(argv[1], n++, &key);
        }
      }
    }
  }
  return failed;
}
