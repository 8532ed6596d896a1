/* The enumerations the library's code walks, each as one list (an X
 * macro): every table, switch and loop over element types, texel formats,
 * kernels or variant flags expands its list, so an entry added here is
 * registered everywhere at once (program keys and the cache's key check,
 * the source defines, the program printer, the tools' names, the fuzzer's
 * model) and one left out is nowhere. Needs only the public header: the
 * tools and tests include it too. Not installed. */
#ifndef GT_ENUMERATIONS_H
#define GT_ENUMERATIONS_H

#include <gltile/gltile.h>

/* Element types: X(constant, bytes, GLSL type the kernels store it as,
 * short name, NumPy descr). 2- and 1-byte types live packed in uint
 * words. */
#define GT_EACH_TYPE(X)                                                                                      \
  X(GT_F32, 4, "float", "f32", "<f4")                                                                        \
  X(GT_I32, 4, "int", "i32", "<i4")                                                                          \
  X(GT_U32, 4, "uint", "u32", "<u4")                                                                         \
  X(GT_F16, 2, "uint", "f16", "<f2")                                                                         \
  X(GT_I16, 2, "uint", "i16", "<i2")                                                                         \
  X(GT_U16, 2, "uint", "u16", "<u2")                                                                         \
  X(GT_I8, 1, "uint", "i8", "|i1")                                                                           \
  X(GT_U8, 1, "uint", "u8", "|u1")

/* Texel formats of images: X(constant, name in the source defines and
 * the tools, GL internal format). The GL column is only expanded where GL
 * headers are included. */
#define GT_EACH_FORMAT(X)                                                                                    \
  X(GT_FORMAT_R32F, "R32F", GL_R32F)                                                                         \
  X(GT_FORMAT_R32I, "R32I", GL_R32I)                                                                         \
  X(GT_FORMAT_R32UI, "R32UI", GL_R32UI)                                                                      \
  X(GT_FORMAT_RGBA8, "RGBA8", GL_RGBA8)

/* Variant flags of a program: X(name, bit). Each flag GT_VARIANT_name is
 * the #define GT_name 1 in the program's source; bits 5 and 6 are not a
 * flag but GT_VARIANT_ROTATE_SHIFT's field (program.h). */
#define GT_EACH_VARIANT_FLAG(X)                                                                              \
  X(GUARDED, 0)        /* guard every global access (pad strategy) */                                        \
  X(ALIASED, 1)        /* storage blocks without restrict */                                                 \
  X(TRANS_A, 2)        /* matmul reads a as its transpose */                                                 \
  X(TRANS_B, 3)        /* matmul reads b as its transpose */                                                 \
  X(TRUNCATE_A, 4)     /* tiled transposes: edge threads do the bands */                                     \
  X(VEC4_A, 7)         /* shared matmul: a read as vec4s (halves: uvec2s) */                                 \
  X(VEC4_B, 8)         /* shared matmul: b read as vec4s (halves: uvec2s) */                                 \
  X(VEC4_C, 9)         /* shared matmul: c read and written as vec4s (half c: uvec2s) */                     \
  X(ELEMENTS, 10)      /* transpose_quads: rows at any alignment, views in elements */                       \
  X(BATCHED, 11)       /* matmul: one product per layer of groups (gt_batch) */                              \
  X(HALF, 12)          /* matmul: a and b are GT_F16 */                                                      \
  X(HALF_C, 13)        /* matmul: c is GT_F16 */                                                             \
  X(REGISTERS, 14)     /* transpose_words: a block per invocation, no shared tile */                         \
  X(UVEC4, 15)         /* transpose_words in registers: 4 x 4 blocks as uvec4s */                            \
  X(K1, 16)            /* registers matmul: one k per step, quads only across K */                           \
  X(EPILOGUE, 17)      /* matmul: bias and activation at the stores (gt_epilogue) */                         \
  X(QUANT, 18)         /* matmul: a and b 8-bit with zero points, sums in int, c GT_I32 */                   \
  X(SIGNED, 19)        /* quantised matmul: GT_I8 operands (and c), else GT_U8 */                            \
  X(QUANT_C, 20)       /* quantised matmul: c 8-bit, requantised */                                          \
  X(QUANT_COLUMNS, 21) /* quantised matmul: multiplier and shift per column (slots 4, 5) */                  \
  X(HALF_SUMS, 22)     /* half matmul: every float mediump, sums in half (gt_precision) */                   \
  X(HALF_ROUNDED, 23)  /* half sums: each rounded to half, where mediump is f32 */                           \
  X(HALF_SCALED, 24)   /* rounded half sums: by scaling and roundEven, not integer operations */             \
  X(HALF_TEXELS, 25)   /* registers matmul: half a and b fetched as R16F texels (ES 3.2) */                  \
  X(PACK_HALF_IEEE, 26) /* shared matmul: a half c's uvec2s packed with no test (pack_half_ieee) */ \
  X(WORDS_UNALIGNED, 27) /* shared matmul: halves 16 k a step, the operand across K unaligned */ \
  X(HALF_STORAGE, 28)  /* shared and bands matmul: 16-bit loads and stores of halves (GL_NV_gpu_shader5) */ \
  X(PAIRS, 29)         /* transpose_quads: two 4x4 blocks an invocation, one below the other */ \
  X(INTERIOR, 30)      /* registers matmul: whole tiles of c only, unguarded, two k a pass */

/* The kernels, one file each in glsl/: X(constant, file stem, the file
 * its family shares or none, the tiled transposes' group order or none).
 * GT_KERNEL_constant runs glsl/<stem>.comp. */
#define GT_EACH_KERNEL(X)                                                                                    \
  X(TRANSPOSE_SIMPLE, transpose_simple, none, none)                                                          \
  X(TRANSPOSE_TILED, transpose_tiled, none, transpose_order) /* TILED_EVEN; GUARDED / TRUNCATE_A */          \
  X(TRANSPOSE_QUADS, transpose_quads, none, none)            /* AUTO on the CPU: 4x4 blocks as uvec4s */     \
  X(TRANSPOSE_INPLACE_SIMPLE, transpose_inplace_simple, none, none)                                          \
  X(TRANSPOSE_INPLACE_TILED, transpose_inplace_tiled, none, transpose_order) /* GUARDED / TRUNCATE_A */       \
  X(MATMUL_SIMPLE, matmul_simple, matmul_common, none)                                                       \
  X(MATMUL_TILED, matmul_tiled, matmul_common, none) /* TILED_EVEN, or TILED_PAD with GUARDED */             \
  X(MATMUL_BLOCKED, matmul_blocked, matmul_common, none) /* registers, no shared memory; VEC4 variants */     \
  X(MATMUL_BLOCKED_SHARED, matmul_blocked_shared, matmul_common, none) /* registers via shared memory */      \
  X(MATMUL_TEXELS, matmul_texels, matmul_common, none) /* registers, a and b as texels (AUTO, CPU) */     \
  X(MATMUL_STREAM, matmul_stream, matmul_common, none) /* AUTO: c of a few rows, one pass over b */          \
  X(MATMUL_BANDS, matmul_bands, matmul_common, none) /* AUTO: the shared kernel's thin bands, K split */     \
  X(COPY, copy, none, none)                                                                                  \
  X(COPY_VEC4, copy_vec4, none, none)                                                                        \
  X(IMAGE_SIMPLE, image_simple, image_common, none)                                                          \
  X(IMAGE_TILED, image_tiled, image_common, transpose_order) /* TILED_EVEN, or TILED_PAD with GUARDED */      \
  X(TRANSPOSE_WORDS, transpose_words, none, transpose_order) /* AUTO, 2- and 1-byte rows: blocks of words */

/* Every element type and every texel format, each the list's count. */
#define GT__COUNT_ONE(...) +1
enum { GT_TYPE_COUNT = 0 GT_EACH_TYPE(GT__COUNT_ONE), GT_FORMAT_COUNT = 0 GT_EACH_FORMAT(GT__COUNT_ONE) };

/* The lists' constants run 1..count (a switch over a list refuses a
 * repeat), so a loop from 1 to the count walks them all. A constant the
 * header gains and the list lacks is refused everywhere (gt_type_size 0),
 * never half served. */
typedef char gt__types_are_dense[(int)GT_U8 == (int)GT_TYPE_COUNT && GT_F32 == 1 ? 1 : -1];
typedef char gt__formats_are_dense[(int)GT_FORMAT_RGBA8 == (int)GT_FORMAT_COUNT && GT_FORMAT_R32F == 1 ? 1 : -1];

#endif /* GT_ENUMERATIONS_H */
