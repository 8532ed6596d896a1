/* Every program key the library can build, in one list: the build checks
 * each with glslangValidator (tools/glsl_variants.c) and `gltile compile`
 * builds those a device allows with the device's own compiler. */
#include "program.h"

typedef struct emitter {
  void (*each)(const gt_program_key *key, void *user);
  void *user;
} emitter;

static void emit(const emitter *e, gt_kernel kernel, uint32_t tile, uint32_t cols, uint32_t rows,
                 uint32_t variant, gt_type elem, gt_format format) {
  gt_program_key key = {kernel, tile, cols, rows, variant, elem, format};
  e->each(&key, e->user);
}

/* A tiled kernel with every tile and every group height the library may
 * pick for it (powers of two up to the tile). */
static void emit_tiled(const emitter *e, gt_kernel kernel, uint32_t variant, gt_type elem, gt_format format) {
  for (uint32_t tile = 8; tile <= 32; tile *= 2)
    for (uint32_t rows = tile; rows >= 1; rows /= 2)
      emit(e, kernel, tile, tile, rows, variant, elem, format);
}

static void emit_transposes(const emitter *e) {
  /* Transposes and copies move bits: 32-bit words, or 16- and 8-bit
   * elements packed in them. The 4x4 blocks move only 32-bit words. */
  static const gt_type elems[] = {GT_U32, GT_U16, GT_U8};
  for (size_t i = 0; i < sizeof elems / sizeof elems[0]; i++) {
    gt_type elem = elems[i];
    for (uint32_t v = 0; v <= (GT_VARIANT_GUARDED | GT_VARIANT_ALIASED); v++) {
      emit(e, GT_KERNEL_TRANSPOSE_SIMPLE, 0, GT_SIMPLE_GROUP_COLS, GT_SIMPLE_GROUP_ROWS, v, elem, 0);
      emit_tiled(e, GT_KERNEL_TRANSPOSE_TILED, v, elem, 0);
    }
    emit_tiled(e, GT_KERNEL_TRANSPOSE_TILED, GT_VARIANT_TRUNCATE_A, elem, 0);
    /* AUTO's 64-tile where the device table gives it: unguarded, 4 rows
     * per group. */
    emit(e, GT_KERNEL_TRANSPOSE_TILED, 64, 64, 4, 0, elem, 0);
    emit(e, GT_KERNEL_TRANSPOSE_INPLACE_SIMPLE, 0, GT_SIMPLE_GROUP_COLS, GT_SIMPLE_GROUP_ROWS,
         GT_VARIANT_ALIASED, elem, 0);
    emit_tiled(e, GT_KERNEL_TRANSPOSE_INPLACE_TILED, GT_VARIANT_ALIASED, elem, 0);
    emit_tiled(e, GT_KERNEL_TRANSPOSE_INPLACE_TILED, GT_VARIANT_ALIASED | GT_VARIANT_GUARDED, elem, 0);
    emit_tiled(e, GT_KERNEL_TRANSPOSE_INPLACE_TILED, GT_VARIANT_ALIASED | GT_VARIANT_TRUNCATE_A, elem, 0);
    emit(e, GT_KERNEL_COPY, 0, 64, 1, 0, elem, 0);
  }
  emit(e, GT_KERNEL_TRANSPOSE_QUADS, 0, 16, 8, 0, GT_U32, 0);
  emit(e, GT_KERNEL_TRANSPOSE_QUADS, 0, 16, 8, GT_VARIANT_ELEMENTS, GT_U32, 0);
  /* Rows on words of 2- and 1-byte elements: through a shared tile, or a
   * block per invocation. */
  static const gt_type packed[] = {GT_U16, GT_U8};
  for (int i = 0; i < 2; i++) {
    for (uint32_t rows = 8; rows >= 2; rows /= 2) /* 2: 64 invocations (Adreno) */
      emit(e, GT_KERNEL_TRANSPOSE_WORDS, 32, 32, rows, 0, packed[i], 0);
    emit(e, GT_KERNEL_TRANSPOSE_WORDS, 0, 16, 8, GT_VARIANT_REGISTERS, packed[i], 0);
    emit(e, GT_KERNEL_TRANSPOSE_WORDS, 0, 16, 8, GT_VARIANT_REGISTERS | GT_VARIANT_UVEC4, packed[i], 0);
  }
  emit(e, GT_KERNEL_COPY_VEC4, 0, 64, 1, 0, GT_U32, 0);
}

static void emit_images(const emitter *e) {
  /* Every format and rotation; a half turn has no tiled kernel. */
  for (uint32_t f = 1; f <= GT_FORMAT_COUNT; f++)
    for (uint32_t turns = 0; turns < 4; turns++) {
      uint32_t rot = turns << GT_VARIANT_ROTATE_SHIFT;
      emit(e, GT_KERNEL_IMAGE_SIMPLE, 0, GT_SIMPLE_GROUP_COLS, GT_SIMPLE_GROUP_ROWS, rot, 0, (gt_format)f);
      if (turns == 2) continue;
      emit_tiled(e, GT_KERNEL_IMAGE_TILED, rot, 0, (gt_format)f);
      emit_tiled(e, GT_KERNEL_IMAGE_TILED, rot | GT_VARIANT_GUARDED, 0, (gt_format)f);
    }
}

static void emit_matmuls(const emitter *e) {
  /* Every combination of transposed operands, one product or a batch,
   * with an epilogue or without. */
  for (uint32_t t = 0; t < 16; t++) {
    uint32_t v = (t & 1 ? GT_VARIANT_TRANS_A : 0) | (t & 2 ? GT_VARIANT_TRANS_B : 0) |
                 (t & 4 ? GT_VARIANT_BATCHED : 0) | (t & 8 ? GT_VARIANT_EPILOGUE : 0);
    emit(e, GT_KERNEL_MATMUL_SIMPLE, 0, 16, 8, v, GT_F32, 0);
    for (uint32_t q = 0; q < 8; q++) {
      /* The registers and shared kernels with each operand read, or c
       * written, as vec4s. */
      uint32_t vq = v | (q & 1 ? GT_VARIANT_VEC4_A : 0) | (q & 2 ? GT_VARIANT_VEC4_B : 0) |
                    (q & 4 ? GT_VARIANT_VEC4_C : 0);
      emit(e, GT_KERNEL_MATMUL_BLOCKED, GT_BLOCKED_TILE, GT_BLOCKED_GROUP, GT_BLOCKED_GROUP, vq, GT_F32, 0);
      /* One k per step, and the shared kernel: vec4s only across K (a
       * transposed, b not). */
      if ((vq & gt__vec4_along_k(v)) == 0) {
        if (!(vq & GT_VARIANT_VEC4_C) || gt__shared_vec4_c(vq))
          emit(e, GT_KERNEL_MATMUL_BLOCKED_SHARED, 128, 16, 16, vq, GT_F32, 0);
        emit(e, GT_KERNEL_MATMUL_BLOCKED, GT_BLOCKED_TILE, GT_BLOCKED_GROUP, GT_BLOCKED_GROUP,
             vq | GT_VARIANT_K1, GT_F32, 0);
      }
    }
    emit(e, GT_KERNEL_MATMUL_TEXELS, 64, 8, 8, v, GT_F32, 0);
    emit(e, GT_KERNEL_MATMUL_BANDS, 0, GT_MATMUL_BAND_ALONG, GT_MATMUL_BAND_SLICES, v, GT_F32, 0);
    emit_tiled(e, GT_KERNEL_MATMUL_TILED, v, GT_F32, 0);
    emit_tiled(e, GT_KERNEL_MATMUL_TILED, v | GT_VARIANT_GUARDED, GT_F32, 0);
    /* 8-bit a and b, u8 or i8, c GT_I32 or requantised to their type
     * (per tensor or per column); SIMPLE, the tiled and the registers
     * kernel (no vec4s). */
    for (uint32_t q = 0; q < 6; q++) {
      uint32_t vq = v | GT_VARIANT_QUANT | (q & 1 ? GT_VARIANT_SIGNED : 0) |
                    (q >= 2 ? GT_VARIANT_QUANT_C : 0) | (q >= 4 ? GT_VARIANT_QUANT_COLUMNS : 0);
      emit(e, GT_KERNEL_MATMUL_SIMPLE, 0, 16, 8, vq, GT_F32, 0);
      /* The registers kernel with a's or b's quads as whole words; one k
       * per step takes them only across K. */
      for (uint32_t w = 0; w < 4; w++) {
        uint32_t vw = vq | (w & 1 ? GT_VARIANT_VEC4_A : 0) | (w & 2 ? GT_VARIANT_VEC4_B : 0);
        emit(e, GT_KERNEL_MATMUL_BLOCKED, GT_BLOCKED_TILE, GT_BLOCKED_GROUP, GT_BLOCKED_GROUP, vw, GT_F32, 0);
        if ((vw & gt__vec4_along_k(v)) == 0)
          emit(e, GT_KERNEL_MATMUL_BLOCKED, GT_BLOCKED_TILE, GT_BLOCKED_GROUP, GT_BLOCKED_GROUP,
               vw | GT_VARIANT_K1, GT_F32, 0);
      }
      emit_tiled(e, GT_KERNEL_MATMUL_TILED, vq, GT_F32, 0);
      emit_tiled(e, GT_KERNEL_MATMUL_TILED, vq | GT_VARIANT_GUARDED, GT_F32, 0);
    }
    /* Half-precision a and b, c half or float (then maybe written as
     * vec4s); sums in f32, in half (mediump), or in half rounded each
     * step, in integer operations or by scaling. The shared kernel sums
     * only in f32. */
    static const uint32_t sums[] = {0, GT_VARIANT_HALF_SUMS, GT_VARIANT_HALF_SUMS | GT_VARIANT_HALF_ROUNDED,
                                    GT_VARIANT_HALF_SUMS | GT_VARIANT_HALF_ROUNDED | GT_VARIANT_HALF_SCALED};
    for (uint32_t h = 0; h < 2; h++)
      for (size_t s = 0; s < sizeof sums / sizeof sums[0]; s++) {
        uint32_t vh = v | GT_VARIANT_HALF | (h ? GT_VARIANT_HALF_C : 0) | sums[s];
        emit(e, GT_KERNEL_MATMUL_SIMPLE, 0, 16, 8, vh, GT_F32, 0);
        /* The registers kernel, one k a step or 4, a and b from words or
         * as texels, a float c maybe as vec4s. */
        for (uint32_t r = 0; r < 8; r++) {
          uint32_t vr = vh | (r & 1 ? GT_VARIANT_K1 : 0) | (r & 2 ? GT_VARIANT_HALF_TEXELS : 0) |
                        (r & 4 ? GT_VARIANT_VEC4_C : 0);
          if (!h || !(vr & GT_VARIANT_VEC4_C))
            emit(e, GT_KERNEL_MATMUL_BLOCKED, GT_BLOCKED_TILE, GT_BLOCKED_GROUP, GT_BLOCKED_GROUP, vr, GT_F32,
                 0);
        }
        /* The bands kernel, halves 16 bits at a time too. */
        if (!sums[s]) {
          emit(e, GT_KERNEL_MATMUL_BANDS, 0, GT_MATMUL_BAND_ALONG, GT_MATMUL_BAND_SLICES, vh, GT_F32, 0);
          if (gt__bands_half_storage(vh))
            emit(e, GT_KERNEL_MATMUL_BANDS, 0, GT_MATMUL_BAND_ALONG, GT_MATMUL_BAND_SLICES,
                 vh | GT_VARIANT_HALF_STORAGE, GT_F32, 0);
        }
        /* The shared kernel: quads of halves across K as uvec2s (VEC4_A,
         * _B), along K as words of 2 k, c's quads as vec4s or, half, as
         * uvec2s. */
        for (uint32_t q = 0; q < 8 && !sums[s]; q++) {
          uint32_t vq = vh | (q & 1 ? GT_VARIANT_VEC4_A : 0) | (q & 2 ? GT_VARIANT_VEC4_B : 0) |
                        (q & 4 ? GT_VARIANT_VEC4_C : 0);
          /* Each also stepping 16 k with the operand across K unaligned. */
          for (uint32_t u = 0; u < 2; u++) {
            uint32_t vu = vq | (u ? GT_VARIANT_WORDS_UNALIGNED : 0);
            if (!gt__shared_along_k_fits(vu)) continue;
            emit(e, GT_KERNEL_MATMUL_BLOCKED_SHARED, 128, 16, 16, vu, GT_F32, 0);
            /* A half c's uvec2 stores with no test (pack_half_ieee). */
            if (h && (q & 4))
              emit(e, GT_KERNEL_MATMUL_BLOCKED_SHARED, 128, 16, 16, vu | GT_VARIANT_PACK_HALF_IEEE, GT_F32, 0);
          }
          /* Halves 16 bits at a time, where that changes the program; a
           * half c's uvec2s packed either way. */
          uint32_t vs = vq | GT_VARIANT_HALF_STORAGE;
          if (!gt__shared_half_storage(vq) || !gt__shared_along_k_fits(vs) ||
              ((q & 4) && !gt__shared_vec4_c(vs)))
            continue;
          emit(e, GT_KERNEL_MATMUL_BLOCKED_SHARED, 128, 16, 16, vs, GT_F32, 0);
          if (h && (q & 4))
            emit(e, GT_KERNEL_MATMUL_BLOCKED_SHARED, 128, 16, 16, vs | GT_VARIANT_PACK_HALF_IEEE, GT_F32, 0);
        }
        emit_tiled(e, GT_KERNEL_MATMUL_TILED, vh, GT_F32, 0);
        emit_tiled(e, GT_KERNEL_MATMUL_TILED, vh | GT_VARIANT_GUARDED, GT_F32, 0);
      }
  }
}

void gt__program_variants(void (*each)(const gt_program_key *key, void *user), void *user) {
  emitter e = {each, user};
  emit_transposes(&e);
  emit_images(&e);
  emit_matmuls(&e);
}
