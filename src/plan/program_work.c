/* What one invocation of each data-moving kernel moves, from the shapes
 * the kernels are written for (glsl/transpose_*.comp, copy*.comp,
 * image_*.comp), and the k of the registers matmul's loop
 * (glsl/matmul_blocked.comp). */
#include "plan/program_work.h"

#include "plan/copy_plan.h"

uint32_t gt__program_elements(const gt_program_key *key) {
  uint32_t invocations = key->group_cols * key->group_rows, tile_elements = key->tile * key->tile;
  uint32_t pack = key->elem ? gt__pack(key->elem) : 1;
  switch ((gt_kernel)key->kernel) {
  case GT_KERNEL_TRANSPOSE_SIMPLE:
  case GT_KERNEL_IMAGE_SIMPLE: return 1;
  /* In place the grid covers the whole square: half the invocations swap
   * an element and its mirror, the others idle. */
  case GT_KERNEL_TRANSPOSE_INPLACE_SIMPLE: return 1;
  case GT_KERNEL_TRANSPOSE_TILED:
  case GT_KERNEL_IMAGE_TILED: return tile_elements / invocations;
  /* A group of the tiles x tiles grid swaps a tile and its mirror. */
  case GT_KERNEL_TRANSPOSE_INPLACE_TILED: return 2 * tile_elements / invocations;
  case GT_KERNEL_TRANSPOSE_QUADS: return key->variant & GT_VARIANT_PAIRS ? 32 : 16; /* 4 x 4 blocks */
  case GT_KERNEL_TRANSPOSE_WORDS:
    /* A block is pack source rows by one word (pack x pack elements);
     * 4 x 4 of them moving as uvec4s; one per invocation in registers,
     * else a tile of tile x tile blocks per group. */
    if (key->variant & GT_VARIANT_UVEC4) return 16 * pack * pack;
    if (key->variant & GT_VARIANT_REGISTERS) return pack * pack;
    return tile_elements * pack * pack / invocations;
  case GT_KERNEL_COPY: return GT_COPY_RUNS * pack;      /* runs of elements, or of words */
  case GT_KERNEL_COPY_VEC4: return GT_COPY_RUNS * 4;    /* runs of uvec4s of 4-byte words */
  default: return 0;
  }
}

uint32_t gt__program_k_steps(const gt_program_key *key) {
  if (key->kernel != GT_KERNEL_MATMUL_BLOCKED) return 0;
  if (key->variant & GT_VARIANT_INTERIOR) return 2;
  return key->variant & GT_VARIANT_K1 ? 1 : 4;
}
