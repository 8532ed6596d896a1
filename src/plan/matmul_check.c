/* gt_matmul's checks of its views' fields, types and shapes and of its
 * description (the epilogue, the quantisation, the precision), before
 * anything is planned. No GL. */
#include "plan/matmul_check.h"
#include "plan/view.h"

void gt__matmul_extent(gt_view a, gt_view b, const gt_matmul_desc *d, uint32_t *m, uint32_t *n, uint32_t *k) {
  *m = d->trans_a ? a.cols : a.rows;
  *k = d->trans_a ? a.rows : a.cols;
  *n = d->trans_b ? b.rows : b.cols;
}

/* Where d's bias lies along an m x n c; -1 for a bias of neither shape. */
int gt__matmul_bias_kind(const gt_matmul_desc *d, uint32_t m, uint32_t n) {
  gt_view v = d->bias;
  if (v.buffer == 0) return GT_BIAS_NONE;
  if (v.rows == 1 && v.cols == n) return GT_BIAS_COLUMNS;
  if (v.cols == 1 && v.rows == m) return GT_BIAS_ROWS;
  return -1;
}

/* The values an 8-bit type holds. */
static void byte_range(gt_type t, int32_t *lo, int32_t *hi) {
  *lo = t == GT_I8 ? -128 : 0;
  *hi = t == GT_I8 ? 127 : 255;
}

static bool in_byte_range(gt_type t, int32_t v) {
  int32_t lo, hi;
  byte_range(t, &lo, &hi);
  return v >= lo && v <= hi;
}

/* Whether x is a whole number an int32_t holds. */
static bool whole_int32(float x) {
  return x >= -2147483648.0f && x < 2147483648.0f && x == (float)(int32_t)x;
}

/* The epilogue's fields: a known activation, CLAMP's bounds in order (a
 * NaN bound fails; for 8-bit a and b whole numbers, inside an 8-bit c's
 * range), and a bias view of GT_F32 (GT_I32 for 8-bit a and b) shaped
 * along c. */
static gt_status check_epilogue(const gt_context *ctx, const gt_matmul_desc *d, uint32_t m, uint32_t n,
                                gt_type operands, gt_type c_type) {
  GT__CHECK(d->act == GT_ACTIVATION_NONE || d->act == GT_ACTIVATION_RELU || d->act == GT_ACTIVATION_CLAMP,
            GT_ERR_INVALID_ARGUMENT);
  GT__CHECK(d->act != GT_ACTIVATION_CLAMP || d->act_lo <= d->act_hi, GT_ERR_INVALID_ARGUMENT);
  if (d->act == GT_ACTIVATION_CLAMP && gt__quantized(operands)) {
    GT__CHECK(whole_int32(d->act_lo) && whole_int32(d->act_hi), GT_ERR_INVALID_ARGUMENT);
    if (gt__quantized(c_type))
      GT__CHECK(in_byte_range(c_type, (int32_t)d->act_lo) && in_byte_range(c_type, (int32_t)d->act_hi),
                GT_ERR_INVALID_ARGUMENT);
  }
  if (d->bias.buffer == 0) return GT_OK;
  GT__TRY(gt__view_check_fields(d->bias));
  if (gt__matmul_bias_kind(d, m, n) < 0) {
    gt__log(ctx, GT_LOG_ERROR, "matmul: a bias of %ux%u is neither 1x%u nor %ux1", d->bias.rows, d->bias.cols,
            n, m);
    return GT_ERR_SHAPE_MISMATCH;
  }
  GT__CHECK(d->bias.type == (gt__quantized(operands) ? GT_I32 : GT_F32), GT_ERR_UNSUPPORTED);
  return GT_OK;
}

uint32_t gt__quantized_k_max(gt_type operands, const gt_quantization *q) {
  int32_t lo, hi;
  byte_range(operands, &lo, &hi);
  int64_t da = q->zero_a - lo > hi - q->zero_a ? q->zero_a - lo : hi - q->zero_a;
  int64_t db = q->zero_b - lo > hi - q->zero_b ? q->zero_b - lo : hi - q->zero_b;
  return (uint32_t)(INT32_MAX / (da * db));
}

/* A per-column requantisation view: GT_I32, 1 x N. */
static gt_status check_column_view(const gt_context *ctx, gt_view v, uint32_t n) {
  GT__TRY(gt__view_check_fields(v));
  if (v.rows != 1 || v.cols != n) {
    gt__log(ctx, GT_LOG_ERROR, "matmul: per-column requantisation of %ux%u is not 1x%u", v.rows, v.cols, n);
    return GT_ERR_SHAPE_MISMATCH;
  }
  GT__CHECK(v.type == GT_I32, GT_ERR_UNSUPPORTED);
  return GT_OK;
}

/* The quantisation fields: zero for float products; for 8-bit ones zero
 * points in the operands' range, and for an 8-bit c the requantisation,
 * per tensor or per column (an I32 c takes none). No scaling, and a K no
 * 32-bit sum can overflow in, in one slice for an 8-bit c. */
static gt_status check_quantization(const gt_context *ctx, gt_view a, gt_view c, const gt_matmul_desc *d,
                                    uint32_t k) {
  const gt_quantization *q = &d->quant;
  bool requantized = gt__quantized(c.type), columns = q->multipliers.buffer || q->shifts.buffer;
  if (!gt__quantized(a.type)) {
    GT__CHECK(!q->zero_a && !q->zero_b && !q->multiplier && !q->shift && !q->zero_c && !columns,
              GT_ERR_INVALID_ARGUMENT);
    return GT_OK;
  }
  GT__CHECK(in_byte_range(a.type, q->zero_a) && in_byte_range(a.type, q->zero_b), GT_ERR_INVALID_ARGUMENT);
  if (!requantized)
    GT__CHECK(q->multiplier == 0 && q->shift == 0 && q->zero_c == 0 && !columns, GT_ERR_INVALID_ARGUMENT);
  else if (columns) {
    GT__CHECK(q->multipliers.buffer && q->shifts.buffer && q->multiplier == 0 && q->shift == 0 &&
                  in_byte_range(c.type, q->zero_c),
              GT_ERR_INVALID_ARGUMENT);
    GT__TRY(check_column_view(ctx, q->multipliers, c.cols));
    GT__TRY(check_column_view(ctx, q->shifts, c.cols));
    /* a, b, c, the bias and the two views. */
    GT__CHECK(ctx->limits.max_storage_blocks >= 6, GT_ERR_UNSUPPORTED);
  } else
    GT__CHECK(q->multiplier > 0 && q->shift >= -31 && q->shift <= 30 && in_byte_range(c.type, q->zero_c),
              GT_ERR_INVALID_ARGUMENT);
  GT__CHECK(!d->scale, GT_ERR_UNSUPPORTED);
  uint32_t most = gt__quantized_k_max(a.type, q);
  if (requantized && most > GT_MATMUL_K_CHUNK) most = GT_MATMUL_K_CHUNK;
  if (k > most) {
    gt__log(ctx, GT_LOG_ERROR, "matmul: K %u is past the %u an 8-bit product %s", k, most,
            requantized ? "into an 8-bit c sums in one slice" : "sums without overflowing 32 bits");
    return GT_ERR_UNSUPPORTED;
  }
  return GT_OK;
}

gt_status gt__matmul_check(const gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_matmul_desc *d) {
  GT__TRY(gt__view_check_fields(a));
  GT__TRY(gt__view_check_fields(b));
  GT__TRY(gt__view_check_fields(c));
  /* a and b of one type; c of theirs, GT_F32 with GT_F16 operands, or
   * GT_I32 with 8-bit ones. */
  GT__CHECK(a.type == b.type && (c.type == a.type || (a.type == GT_F16 && c.type == GT_F32) ||
                                 (gt__quantized(a.type) && c.type == GT_I32)),
            GT_ERR_SHAPE_MISMATCH);
  GT__CHECK(a.type == GT_F32 || a.type == GT_F16 || gt__quantized(a.type), GT_ERR_UNSUPPORTED);
  uint32_t m, n, k, kb = d->trans_b ? b.cols : b.rows;
  gt__matmul_extent(a, b, d, &m, &n, &k);
  if (k != kb || c.rows != m || c.cols != n) {
    gt__log(ctx, GT_LOG_ERROR, "matmul: op(a) %ux%u, op(b) %ux%u, c %ux%u do not agree", m, k, kb, n, c.rows,
            c.cols);
    return GT_ERR_SHAPE_MISMATCH;
  }
  /* Half sums are a choice for half operands only. */
  GT__CHECK(d->precision == GT_PRECISION_FLOAT ||
                ((d->precision == GT_PRECISION_HALF_IF_FASTER || d->precision == GT_PRECISION_HALF) &&
                 a.type == GT_F16),
            GT_ERR_INVALID_ARGUMENT);
  GT__TRY(check_quantization(ctx, a, c, d, k));
  return check_epilogue(ctx, d, m, n, a.type, c.type);
}

