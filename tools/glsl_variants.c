/* Build-time helper: writes the full source of every kernel variant the
 * library can build (preamble + prelude + kernel, exactly as the library
 * assembles them) into a folder, for glslangValidator to check. */
#include "gt_internal.h"

#include <stdio.h>

static int write_variant(const char *dir, int n, const gt_program_key *key) {
  char preamble[GT_PREAMBLE_BYTES], path[1024];
  if (gt__program_preamble(key, preamble, sizeof preamble) == 0) return 1;
  snprintf(path, sizeof path, "%s/%03d_%s", dir, n, gt__kernel_name(key->kernel));
  FILE *f = fopen(path, "w");
  if (f == NULL) return 1;
  const char *parts[GT_PROGRAM_PARTS];
  gt__program_parts(key, preamble, parts);
  for (int i = 0; i < GT_PROGRAM_PARTS; i++)
    fputs(parts[i], f);
  return fclose(f) != 0;
}

static const char *out_dir;
static int count, failed;

static void emit(gt_kernel kernel, uint32_t tile, uint32_t cols, uint32_t rows, uint32_t variant,
                 gt_type elem, gt_format format) {
  gt_program_key key = {kernel, tile, cols, rows, variant, elem, format};
  failed |= write_variant(out_dir, count++, &key);
}

/* A tiled kernel with every tile and every group height the library may
 * pick for it (powers of two up to the tile). */
static void emit_tiled(gt_kernel kernel, uint32_t variant, gt_type elem, gt_format format) {
  for (uint32_t tile = 8; tile <= 32; tile *= 2)
    for (uint32_t rows = tile; rows >= 1; rows /= 2)
      emit(kernel, tile, tile, rows, variant, elem, format);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
    return 2;
  }
  out_dir = argv[1];
  /* Transposes and copies move bits: 32-bit words, or 16- and 8-bit
   * elements packed in them. The 4x4 blocks move only 32-bit words. */
  static const gt_type elems[] = {GT_U32, GT_U16, GT_U8};
  for (size_t e = 0; e < sizeof elems / sizeof elems[0]; e++) {
    gt_type elem = elems[e];
    for (uint32_t v = 0; v <= (GT_VARIANT_GUARDED | GT_VARIANT_ALIASED); v++) {
      emit(GT_KERNEL_TRANSPOSE_SIMPLE, 0, 32, 4, v, elem, 0);
      emit_tiled(GT_KERNEL_TRANSPOSE_TILED, v, elem, 0);
    }
    emit_tiled(GT_KERNEL_TRANSPOSE_TILED, GT_VARIANT_TRUNCATE_A, elem, 0);
    /* AUTO's 64-tile where the device table gives it: unguarded, 4 rows
     * per group. */
    emit(GT_KERNEL_TRANSPOSE_TILED, 64, 64, 4, 0, elem, 0);
    emit(GT_KERNEL_TRANSPOSE_INPLACE_SIMPLE, 0, 32, 4, GT_VARIANT_ALIASED, elem, 0);
    emit_tiled(GT_KERNEL_TRANSPOSE_INPLACE_TILED, GT_VARIANT_ALIASED, elem, 0);
    emit_tiled(GT_KERNEL_TRANSPOSE_INPLACE_TILED, GT_VARIANT_ALIASED | GT_VARIANT_GUARDED, elem, 0);
    emit_tiled(GT_KERNEL_TRANSPOSE_INPLACE_TILED, GT_VARIANT_ALIASED | GT_VARIANT_TRUNCATE_A, elem, 0);
    emit(GT_KERNEL_COPY, 0, 64, 1, 0, elem, 0);
  }
  emit(GT_KERNEL_TRANSPOSE_QUADS, 0, 16, 8, 0, GT_U32, 0);
  emit(GT_KERNEL_TRANSPOSE_QUADS, 0, 16, 8, GT_VARIANT_ELEMENTS, GT_U32, 0);
  /* Rows on words of 2- and 1-byte elements: through a shared tile, or a
   * block per invocation. */
  static const gt_type packed[] = {GT_U16, GT_U8};
  for (int i = 0; i < 2; i++) {
    emit(GT_KERNEL_TRANSPOSE_WORDS, 32, 32, 8, 0, packed[i], 0);
    emit(GT_KERNEL_TRANSPOSE_WORDS, 0, 16, 8, GT_VARIANT_REGISTERS, packed[i], 0);
    emit(GT_KERNEL_TRANSPOSE_WORDS, 0, 16, 8, GT_VARIANT_REGISTERS | GT_VARIANT_UVEC4, packed[i], 0);
  }
  emit(GT_KERNEL_COPY_VEC4, 0, 64, 1, 0, GT_U32, 0);
  /* Images: every format and rotation; a half turn has no tiled kernel. */
  for (uint32_t f = GT_FORMAT_R32F; f <= GT_FORMAT_RGBA8; f++)
    for (uint32_t turns = 0; turns < 4; turns++) {
      uint32_t rot = turns << GT_VARIANT_ROTATE_SHIFT;
      emit(GT_KERNEL_IMAGE_SIMPLE, 0, 32, 4, rot, 0, (gt_format)f);
      if (turns == 2) continue;
      emit_tiled(GT_KERNEL_IMAGE_TILED, rot, 0, (gt_format)f);
      emit_tiled(GT_KERNEL_IMAGE_TILED, rot | GT_VARIANT_GUARDED, 0, (gt_format)f);
    }
  /* Matmul: every combination of transposed operands, one product or a
   * batch. */
  for (uint32_t t = 0; t < 8; t++) {
    uint32_t v = (t & 1 ? GT_VARIANT_TRANS_A : 0) | (t & 2 ? GT_VARIANT_TRANS_B : 0) |
                 (t & 4 ? GT_VARIANT_BATCHED : 0);
    emit(GT_KERNEL_MATMUL_SIMPLE, 0, 16, 8, v, GT_F32, 0);
    emit(GT_KERNEL_MATMUL_BLOCKED, 32, 8, 8, v, GT_F32, 0);
    emit(GT_KERNEL_MATMUL_BLOCKED_SHARED, 128, 16, 16, v, GT_F32, 0);
    if ((v & ~GT_VARIANT_BATCHED) == 0) emit(GT_KERNEL_MATMUL_BLOCKED_VEC4, 32, 8, 8, v, GT_F32, 0);
    emit(GT_KERNEL_MATMUL_TEXELS, 64, 8, 8, v, GT_F32, 0);
    /* The shared kernel with each operand read, or c written, as vec4s. */
    for (uint32_t q = 1; q < 8; q++)
      emit(GT_KERNEL_MATMUL_BLOCKED_SHARED, 128, 16, 16,
           v | (q & 1 ? GT_VARIANT_VEC4_A : 0) | (q & 2 ? GT_VARIANT_VEC4_B : 0) |
               (q & 4 ? GT_VARIANT_VEC4_C : 0),
           GT_F32, 0);
    emit_tiled(GT_KERNEL_MATMUL_TILED, v, GT_F32, 0);
    emit_tiled(GT_KERNEL_MATMUL_TILED, v | GT_VARIANT_GUARDED, GT_F32, 0);
    /* Half-precision a and b, c half or float (then maybe written as
     * vec4s by the shared kernel). */
    for (uint32_t h = 0; h < 2; h++) {
      uint32_t vh = v | GT_VARIANT_HALF | (h ? GT_VARIANT_HALF_C : 0);
      emit(GT_KERNEL_MATMUL_SIMPLE, 0, 16, 8, vh, GT_F32, 0);
      emit(GT_KERNEL_MATMUL_BLOCKED, 32, 8, 8, vh, GT_F32, 0);
      emit(GT_KERNEL_MATMUL_BLOCKED_SHARED, 128, 16, 16, vh, GT_F32, 0);
      if (!h) emit(GT_KERNEL_MATMUL_BLOCKED_SHARED, 128, 16, 16, vh | GT_VARIANT_VEC4_C, GT_F32, 0);
      emit_tiled(GT_KERNEL_MATMUL_TILED, vh, GT_F32, 0);
      emit_tiled(GT_KERNEL_MATMUL_TILED, vh | GT_VARIANT_GUARDED, GT_F32, 0);
    }
  }
  return failed;
}
