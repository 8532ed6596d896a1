/* gt_matmul's checks of its arguments (matmul_check.c): the views'
 * fields, types and shapes and the description's epilogue, quantisation
 * and precision, before anything is planned. No GL. */
#ifndef GT_MATMUL_CHECK_H
#define GT_MATMUL_CHECK_H

#include "plan/context.h"

/* Where a multiply's bias lies along c (the kernels' gt_epilogue.x). */
typedef enum gt_bias_kind {
  GT_BIAS_NONE = 0,
  GT_BIAS_ROWS = 1,   /* M x 1: one value per row of c */
  GT_BIAS_COLUMNS = 2 /* 1 x N: one value per column */
} gt_bias_kind;

static inline bool gt__quantized(gt_type t) { return t == GT_U8 || t == GT_I8; }

/* Where d's bias lies along an m x n c (gt_bias_kind); -1 for a bias of
 * neither shape (matmul_check.c). */
int gt__matmul_bias_kind(const gt_matmul_desc *d, uint32_t m, uint32_t n);

/* The sizes of op(a) op(b), from views whose fields and shapes
 * gt__matmul_check passed. */
void gt__matmul_extent(gt_view a, gt_view b, const gt_matmul_desc *d, uint32_t *m, uint32_t *n, uint32_t *k);

/* The most K an 8-bit product with these zero points sums without a
 * 32-bit sum overflowing: (2^31 - 1) / (max |a - zero_a| max |b - zero_b|),
 * 33,025 where both differences reach 255. */
uint32_t gt__quantized_k_max(gt_type operands, const gt_quantization *q);

/* gt_matmul's checks of the views' fields, types and shapes (not their
 * buffers). */
gt_status gt__matmul_check(const gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_matmul_desc *d);

#endif
