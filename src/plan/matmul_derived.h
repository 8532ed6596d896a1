/* What a matmul program derives from its key's variant flags
 * (matmul_derived.c): each derived choice computed once, here, and
 * written into the program's preamble as #define GT_<name> 1, so the
 * kernels use it and never derive it again; and the rules the planner
 * asks of the same choices (which quads may move as vec4s, where 16-bit
 * storage changes a program). */
#ifndef GT_MATMUL_DERIVED_H
#define GT_MATMUL_DERIVED_H

#include "plan/program.h"

/* The derived choices: X(name, bit). */
#define GT_EACH_MATMUL_DERIVED(X)                                                                            \
  X(MEDIUMP, 0)           /* every float mediump: half sums where the device has half arithmetic */          \
  X(A_PAIRS, 1)           /* a's quads of halves across K read as uvec2s (stream kernel: any quad) */        \
  X(B_PAIRS, 2)           /* b's likewise */                                                                 \
  X(C_PAIRS, 3)           /* a half c's quads written as uvec2s */                                           \
  X(C_HALVES, 4)          /* a half c written one half at a time, no atomics (16-bit storage) */             \
  X(HALVES_ALONG_K, 5)    /* a and b along K one half at a time, into such a c */                            \
  X(A_HALVES, 6)          /* a's halves read one at a time (16-bit storage) */                               \
  X(B_HALVES, 7)          /* b's likewise */                                                                 \
  X(K_WHOLE, 8)           /* registers kernel: an operand along K as vec4s, the K slice whole quads */       \
  X(SUM_COLUMNS, 9)       /* registers kernel, one k a step, 8-bit b transposed: sums kept by column */      \
  X(WORD_STEPS, 10)       /* shared kernel: 16 k a step from whole words of halves */                        \
  X(SWIZZLE_A, 11)        /* shared kernel: a's slice quads at q ^ k, not padded */                          \
  X(PAD_A_SLICE, 12)      /* shared kernel: a's slice rows padded by a vec4 */                               \
  X(PAD_B_SLICE, 13)      /* shared kernel: b's slice rows padded by a vec4 */                               \
  X(STRIDED_A, 14)        /* shared kernel: a's quads across K as 4 loads 32 apart */                        \
  X(STRIDED_B, 15)        /* shared kernel: b's likewise */                                                  \
  X(FENCE_SLICES, 16)     /* shared kernel: memoryBarrierShared() before each step's first barrier */        \
  X(TWO_LOOPS, 17)        /* shared kernel: a second K loop for blocks inside c, quads whole */              \
  X(STORE_FROM_INDEX, 18) /* registers kernel, interior halves: c stored from its first element's index */

#define GT__MATMUL_DERIVED_BIT(name, bit) GT_DERIVED_##name = 1u << (bit),
enum { GT_EACH_MATMUL_DERIVED(GT__MATMUL_DERIVED_BIT) };

/* The derived choices of key's program (GT_DERIVED_* bits; 0 for a key
 * that is no matmul's). false where its flags contradict one another (a
 * vec4 along K where the kernel moves none, say): no plan names such a
 * key, and no program is built for it. */
bool gt__matmul_derived(const gt_program_key *key, uint32_t *out);

/* The GT_VARIANT_VEC4_A / _B bits whose quads run along K given a
 * variant's transposes (a untransposed, b transposed). */
uint32_t gt__vec4_along_k(uint32_t variant);

/* Whether the shared kernel's layout of this variant takes the operands
 * along K as words of 2 k (WORD_STEPS where their rows allow): halves
 * with b transposed, and a b of halves into a half c. */
bool gt__shared_words_along_k(uint32_t variant);

/* Whether a shared-kernel program may carry these vec4 bits: its key is
 * one gt__matmul_derived takes. */
bool gt__shared_along_k_fits(uint32_t variant);

/* Whether the shared kernel may write c as vec4s in a program of this
 * variant: not where b's results lie 32 columns apart (STRIDED_B). */
bool gt__shared_vec4_c(uint32_t variant);

/* Whether the shared kernel's program of this half variant is worth
 * taking 16-bit storage (GT_VARIANT_HALF_STORAGE, where the context has
 * GL_NV_gpu_shader5): it changes the program (an operand read, or a half
 * c written, one half at a time), and not where it measured slower (a^T
 * b into a half c; with GT_VARIANT_WORDS_UNALIGNED's words). */
bool gt__shared_half_storage(uint32_t variant);

/* The same for the bands kernel: every half program. */
bool gt__bands_half_storage(uint32_t variant);

/* Writes key's derived choices as #define lines into buf (room: size).
 * Returns the length; 0 where the key's flags contradict one another or
 * buf is too small. An empty string (length 0, buf[0] '\0', true) for a
 * key with none: *ok says which. */
size_t gt__matmul_derived_defines(const gt_program_key *key, char *buf, size_t size, bool *ok);

#endif
