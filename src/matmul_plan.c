/* The plan of a matrix multiply: the kernel a context's AUTO runs, and
 * for each product its operands' bindings, its blocks (K slices, work per
 * dispatch, storage blocks), the programs it runs and which block runs
 * which, with the reason for each choice. No GL here, so the host tests
 * walk it over every device entry and the tools ask it what AUTO will do
 * (gt_matmul_plan). */
#include "matmul_plan.h"
#include "matmul_derived.h"
#include "operation.h"
#include "texels.h"

#include <stdio.h>
#include <string.h>

/* SIMPLE's group: 16 x 8 = 128 invocations, the ES 3.1 minimum. */
enum { SIMPLE_GROUP_COLS = 16, SIMPLE_GROUP_ROWS = 8 };
/* The shared-memory kernel: 16 x 16 invocations of 8 x 8 results (the
 * registers kernel's shape is in program.h). */
enum { SHARED_GROUP = 16, SHARED_TILE = 128 };
/* The texels kernel: 8 x 8 invocations of 8 x 8 results each. */
enum { TEXELS_GROUP = 8, TEXELS_TILE = 8 * TEXELS_GROUP };

static void because(gt_matmul_choices *p, const char *why) {
  gt__reason_add(p->reason, sizeof p->reason, why);
}

bool gt__shared_kernel_fits(const gt_limits *l) {
  return l->max_invocations >= 256 && l->max_group_size[0] >= 16 && l->max_group_size[1] >= 16 &&
         l->max_shared_bytes >= 16384;
}

gt_status gt__matmul_context_kernel(const gt_device_entry *e, const gt_limits *l, gt_matmul_kernel wanted,
                                    bool texture_buffers, gt_matmul_kernel *out, const char **refusal) {
  gt_matmul_kernel shared_or_registers =
      gt__shared_kernel_fits(l) ? GT_MATMUL_KERNEL_SHARED : GT_MATMUL_KERNEL_REGISTERS;
  gt_matmul_kernel k = wanted ? wanted : e->matmul_kernel;
  *refusal = NULL;
  if (k == GT_MATMUL_KERNEL_SHARED && !gt__shared_kernel_fits(l)) {
    if (wanted) *refusal = "matmul_kernel SHARED needs 256 invocations and 16,384 bytes of shared memory";
    k = GT_MATMUL_KERNEL_REGISTERS;
  }
  if (k == GT_MATMUL_KERNEL_TEXELS && !texture_buffers) {
    if (wanted) *refusal = "matmul_kernel TEXELS needs texture buffers (ES 3.2)";
    k = shared_or_registers;
  }
  *out = k;
  return *refusal ? GT_ERR_UNSUPPORTED : GT_OK;
}

/* The shared kernel's 128 x 128 blocks leave much of a large GPU idle when
 * c has few of them: below the device entry's count the registers kernel
 * (32 x 32 blocks, 16 times as many groups) runs instead. */
static bool shared_pays(const gt_context *ctx, uint32_t m, uint32_t n) {
  return ctx != NULL &&
         (uint64_t)gt__div_up(m, SHARED_TILE) * gt__div_up(n, SHARED_TILE) >= ctx->device->shared_min_blocks;
}

gt_matmul_kernel gt_matmul_auto_kernel(const gt_context *ctx, uint32_t m, uint32_t n) {
  gt_matmul_kernel k = ctx ? ctx->matmul_kernel : GT_MATMUL_KERNEL_REGISTERS;
  return k == GT_MATMUL_KERNEL_SHARED && !shared_pays(ctx, m, n) ? GT_MATMUL_KERNEL_REGISTERS : k;
}

/* What a TEXELS context's AUTO runs for the products that kernel cannot
 * take: what a SHARED context would (REGISTERS where SHARED does not fit). */
static gt_matmul_kernel texel_fallback(const gt_context *ctx, uint32_t m, uint32_t n) {
  return gt__shared_kernel_fits(&ctx->limits) && shared_pays(ctx, m, n) ? GT_MATMUL_KERNEL_SHARED
                                                                        : GT_MATMUL_KERNEL_REGISTERS;
}

void gt__matmul_extent(gt_view a, gt_view b, const gt_matmul_desc *d, uint32_t *m, uint32_t *n, uint32_t *k) {
  *m = d->trans_a ? a.cols : a.rows;
  *k = d->trans_a ? a.rows : a.cols;
  *n = d->trans_b ? b.rows : b.cols;
}

/* Where d's bias lies along an m x n c; -1 for a bias of neither shape. */
static int bias_kind(const gt_matmul_desc *d, uint32_t m, uint32_t n) {
  gt_view v = d->bias;
  if (v.buffer == 0) return GT_BIAS_NONE;
  if (v.rows == 1 && v.cols == n) return GT_BIAS_COLUMNS;
  if (v.cols == 1 && v.rows == m) return GT_BIAS_ROWS;
  return -1;
}

static bool quantized(gt_type t) { return t == GT_U8 || t == GT_I8; }

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
  if (d->act == GT_ACTIVATION_CLAMP && quantized(operands)) {
    GT__CHECK(whole_int32(d->act_lo) && whole_int32(d->act_hi), GT_ERR_INVALID_ARGUMENT);
    if (quantized(c_type))
      GT__CHECK(in_byte_range(c_type, (int32_t)d->act_lo) && in_byte_range(c_type, (int32_t)d->act_hi),
                GT_ERR_INVALID_ARGUMENT);
  }
  if (d->bias.buffer == 0) return GT_OK;
  GT__TRY(gt__view_check_fields(d->bias));
  if (bias_kind(d, m, n) < 0) {
    gt__log(ctx, GT_LOG_ERROR, "matmul: a bias of %ux%u is neither 1x%u nor %ux1", d->bias.rows, d->bias.cols,
            n, m);
    return GT_ERR_SHAPE_MISMATCH;
  }
  GT__CHECK(d->bias.type == (quantized(operands) ? GT_I32 : GT_F32), GT_ERR_UNSUPPORTED);
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
  bool requantized = quantized(c.type), columns = q->multipliers.buffer || q->shifts.buffer;
  if (!quantized(a.type)) {
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
                                 (quantized(a.type) && c.type == GT_I32)),
            GT_ERR_SHAPE_MISMATCH);
  GT__CHECK(a.type == GT_F32 || a.type == GT_F16 || quantized(a.type), GT_ERR_UNSUPPORTED);
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

/* The bias along the section of c at (row, col). */
static gt_bound_view bias_section(const gt_product *p, uint32_t row, uint32_t col, uint32_t rows,
                                  uint32_t cols) {
  switch (p->epilogue.bias) {
  case GT_BIAS_ROWS: return gt__bound_section(&p->bias, row, 0, rows, 1);
  case GT_BIAS_COLUMNS: return gt__bound_section(&p->bias, 0, col, 1, cols);
  default: return p->bias;
  }
}

/* p's bias and per-column requantisation cut to the section of c at
 * (row, col). */
static void column_views_section(gt_product *q, const gt_product *p, uint32_t row, uint32_t col,
                                 uint32_t rows, uint32_t cols) {
  q->bias = bias_section(p, row, col, rows, cols);
  if (p->quant_columns) {
    q->multipliers = gt__bound_section(&p->multipliers, 0, col, 1, cols);
    q->shifts = gt__bound_section(&p->shifts, 0, col, 1, cols);
  }
}

gt_product gt__product_c_section(const gt_product *p, uint32_t row, uint32_t col, uint32_t rows,
                                 uint32_t cols) {
  gt_product q = *p;
  q.c = gt__bound_section(&p->c, row, col, rows, cols);
  column_views_section(&q, p, row, col, rows, cols);
  return q;
}

gt_bound_view gt__op_section(const gt_bound_view *x, bool trans, uint32_t row, uint32_t col, uint32_t rows,
                             uint32_t cols) {
  return trans ? gt__bound_section(x, col, row, cols, rows) : gt__bound_section(x, row, col, rows, cols);
}

uint32_t gt__matmul_k_chunk(const gt_matmul_choices *p) {
  bool shared_only = p->strategy == GT_STRATEGY_AUTO && p->kernel == GT_MATMUL_KERNEL_SHARED &&
                     !p->keys[GT_MATMUL_TEXELS].group_cols;
  return shared_only ? GT_MATMUL_SHARED_K_CHUNK : GT_MATMUL_K_CHUNK;
}

/* Blocks of (m, n, k): each dispatch sums at most gt__matmul_k_chunk of K
 * (Mesa stops a shader's loops after 65,535 iterations in all) and does
 * at most max_dispatch_flops of work (a mobile GPU's watchdog), and when
 * a view is longer than one storage block, each block's windows fit one.
 * even_tile: TILED_EVEN's tile, which every block side must keep. */
static gt_status plan_blocks(const gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_matmul_desc *d,
                             uint32_t even_tile, gt_matmul_choices *p) {
  gt_block_plan *plan = &p->blocks;
  plan->dims = 3;
  plan->extent[0] = p->m;
  plan->extent[1] = p->n;
  plan->extent[2] = p->k;
  plan->limit[2] = gt__matmul_k_chunk(p);
  /* Cutting K costs a pass over c per cut; cut m and n first. */
  plan->weight[0] = plan->weight[1] = 2;
  for (int i = 0; i < 3; i++) {
    plan->granule[i] = even_tile ? even_tile : 32;
    plan->min[i] = even_tile;
  }
  /* An 8-bit c is requantised from whole sums: K in one slice. */
  if (quantized(c.type)) plan->min[2] = p->k;
  plan->max_work = ctx->limits.max_dispatch_flops;
  plan->max_elements = UINT32_MAX;
  if (p->rebind) {
    plan->max_elements = gt__max_bound_elements(&ctx->limits);
    /* Dimensions 0, 1, 2 are m, n, k: a is m x k, b is k x n, c is m x n,
     * as stored (a transposed operand swaps its window's two). */
    plan->windows[0] =
        d->trans_a ? (gt_block_window){2, 0, gt__view_pitch(a)} : (gt_block_window){0, 2, gt__view_pitch(a)};
    plan->windows[1] =
        d->trans_b ? (gt_block_window){1, 2, gt__view_pitch(b)} : (gt_block_window){2, 1, gt__view_pitch(b)};
    plan->windows[2] = (gt_block_window){0, 1, gt__view_pitch(c)};
    plan->window_count = 3;
  }
  if (gt__block_plan(plan) != GT_OK) {
    snprintf(p->refusal, sizeof p->refusal, "no block of %ux%ux%u fits the device's storage blocks", p->m,
             p->n, p->k);
    return GT_ERR_UNSUPPORTED;
  }
  return GT_OK;
}

/* The operands bound whole (layers > 1: over every layer, layer_stride
 * apart), or, where one is longer than a storage block, left for each
 * block to bind its own windows. */
static gt_status bind_operands(const gt_context *ctx, gt_view a, gt_view b, gt_view c, uint32_t layers,
                               const uint32_t layer_stride[3], gt_matmul_choices *p) {
  gt_product *whole = &p->whole;
  whole->layers = layers;
  if (layers > 1) {
    /* The caller has checked the layers fit: blocks would rebind. */
    gt_status s = gt__view_bind_layers(ctx, a, layers, layer_stride[0], &whole->a);
    if (s == GT_OK) s = gt__view_bind_layers(ctx, b, layers, layer_stride[1], &whole->b);
    if (s == GT_OK) s = gt__view_bind_layers(ctx, c, layers, layer_stride[2], &whole->c);
    if (s != GT_OK) snprintf(p->refusal, sizeof p->refusal, "%u layers do not fit one binding", layers);
    memcpy(whole->layer_stride, layer_stride, sizeof whole->layer_stride);
    return s;
  }
  p->rebind = !gt__view_fits(ctx, a) || !gt__view_fits(ctx, b) || !gt__view_fits(ctx, c);
  whole->a.view = a;
  whole->b.view = b;
  whole->c.view = c;
  if (p->rebind) {
    because(p, "views longer than a storage block: blocks");
    return GT_OK;
  }
  GT__TRY(gt__view_bind(ctx, a, &whole->a));
  GT__TRY(gt__view_bind(ctx, b, &whole->b));
  return gt__view_bind(ctx, c, &whole->c);
}

/* The epilogue of d, its bias and per-column requantisation bound whole
 * (every block and layer binds the same ranges). */
static gt_status bind_epilogue(const gt_context *ctx, const gt_matmul_desc *d, gt_matmul_choices *p) {
  gt_product *whole = &p->whole;
  whole->epilogue = (gt_epilogue){(gt_bias_kind)bias_kind(d, p->m, p->n), d->act, d->act_lo, d->act_hi};
  gt_status s = GT_OK;
  if (whole->epilogue.bias != GT_BIAS_NONE) s = gt__view_bind(ctx, d->bias, &whole->bias);
  whole->quant_columns = d->quant.multipliers.buffer != 0;
  if (s == GT_OK && whole->quant_columns) s = gt__view_bind(ctx, d->quant.multipliers, &whole->multipliers);
  if (s == GT_OK && whole->quant_columns) s = gt__view_bind(ctx, d->quant.shifts, &whole->shifts);
  if (s != GT_OK)
    snprintf(p->refusal, sizeof p->refusal, "a bias or requantisation longer than a storage block");
  return s;
}

/* The window of x for op(x)'s section at (row, col), bound as a section of
 * x's binding, or (rebind) with a binding of its own. */
static gt_status op_window(const gt_context *ctx, const gt_bound_view *x, bool trans, bool rebind,
                           uint32_t row, uint32_t col, uint32_t rows, uint32_t cols, gt_bound_view *out) {
  if (!rebind) {
    *out = gt__op_section(x, trans, row, col, rows, cols);
    return GT_OK;
  }
  gt_view v = trans ? gt_section(x->view, col, row, cols, rows) : gt_section(x->view, row, col, rows, cols);
  return gt__view_bind(ctx, v, out);
}

gt_status gt__matmul_block_at(const gt_context *ctx, const gt_matmul_choices *p, const uint32_t at[3],
                              gt_product *q) {
  const gt_block_plan *plan = &p->blocks;
  uint32_t size[3];
  for (int i = 0; i < 3; i++)
    size[i] = gt__min_u32(plan->block[i], plan->extent[i] - at[i]);
  const gt_product *whole = &p->whole;
  *q = *whole;
  GT__TRY(op_window(ctx, &whole->a, p->trans_a, p->rebind, at[0], at[2], size[0], size[2], &q->a));
  GT__TRY(op_window(ctx, &whole->b, p->trans_b, p->rebind, at[2], at[1], size[2], size[1], &q->b));
  GT__TRY(op_window(ctx, &whole->c, false, p->rebind, at[0], at[1], size[0], size[1], &q->c));
  column_views_section(q, whole, at[0], at[1], size[0], size[1]);
  q->k_begin = 0;
  q->k_end = size[2];
  q->finishes = at[2] + size[2] == plan->extent[2];
  return GT_OK;
}

bool gt__matmul_next_block(const gt_matmul_choices *p, uint32_t at[3]) {
  for (int d = 2; d >= 0; d--) {
    at[d] += p->blocks.block[d];
    if (at[d] < p->blocks.extent[d]) return true;
    at[d] = 0;
  }
  return false;
}

/* The operands the shared kernel may move as vec4s (GT_VARIANT_VEC4_A, _B,
 * _C) given which views' rows are aligned: a vec4 must not straddle an
 * edge, so along K (a untransposed, b transposed) the K slice [k_begin,
 * k_end) is whole vec4s, and across K the extent it spans is (M for a
 * transposed, N for b and for c). */
static uint32_t vec4_operands(bool a_rows, bool b_rows, bool c_rows, uint32_t m, uint32_t n, uint32_t k_begin,
                              uint32_t k_end, bool trans_a, bool trans_b) {
  bool k_whole = k_begin % 4 == 0 && k_end % 4 == 0;
  uint32_t bits = 0;
  if (a_rows && (trans_a ? m % 4 == 0 : k_whole)) bits |= GT_VARIANT_VEC4_A;
  if (b_rows && (trans_b ? k_whole : n % 4 == 0)) bits |= GT_VARIANT_VEC4_B;
  if (c_rows && n % 4 == 0) bits |= GT_VARIANT_VEC4_C;
  return bits;
}

/* Whether a shared-kernel program stepping 16 k at a time (WORD_STEPS,
 * the only one that moves quads along K as words) would multiply-add 8 or
 * more k of zeros past K in its last step while that step is a large share
 * of the loop: K % 16 in 1 .. 8 and K below GT_MATMUL_SHORT_K. At K = 8 it
 * does twice the arithmetic of 8 k a step. The 8-k program loads single
 * halves along K, which costs more per k: on the H200 at 8192 x 8192 x K
 * it was faster at K = 8, 24 and 40 in every layout it changes (K = 8:
 * 0.102-0.106 ms to 0.078-0.087), and slower from K = 72 (a b^T f16 > f32
 * 0.451 to 0.468 at K = 136; docs/performance.md). */
static bool short_k_pads_word_steps(uint32_t k) {
  uint32_t rest = k % 16;
  return rest != 0 && rest <= 8 && k < GT_MATMUL_SHORT_K;
}

/* Whether block q may run the texels kernel: a and b each fetchable as
 * texels, and no texel the kernel needs cut by an edge: the K slice whole
 * texels (the kernel steps 4 k at a time), and M where a is transposed,
 * N where b is not (a texel then runs across K). */
static bool block_runs_texels(const gt_context *ctx, const gt_matmul_choices *p, const gt_product *q) {
  bool m_whole = q->c.view.rows % 4 == 0, n_whole = q->c.view.cols % 4 == 0;
  return q->k_begin % 4 == 0 && q->k_end % 4 == 0 && (!p->trans_a || m_whole) && (p->trans_b || n_whole) &&
         gt__texels_fit(ctx, &q->a) && gt__texels_fit(ctx, &q->b);
}

/* Whether block q may run the vec4 program: its bindings allow every
 * operand that program moves as vec4s (they start 16-byte aligned too). */
static bool block_runs_vec4(const gt_matmul_choices *p, const gt_product *q) {
  uint32_t allowed = vec4_operands(gt__bound_rows_aligned(&q->a), gt__bound_rows_aligned(&q->b),
                                   gt__bound_rows_aligned(&q->c), q->c.view.rows, q->c.view.cols, q->k_begin,
                                   q->k_end, p->trans_a, p->trans_b);
  return p->vec4_needs != 0 && (allowed & p->vec4_needs) == p->vec4_needs;
}

/* The rows and columns of c's section q that whole blocks of the shared
 * kernel cover, where the rest is a thin band (at most
 * GT_MATMUL_BAND_MAX past more than one block); else all of them, which
 * the kernel pads. A band that wide padded is a block's work for a few
 * results each (docs/performance.md). */
static void whole_blocks(const gt_product *q, uint32_t *rows, uint32_t *cols) {
  uint32_t m = q->c.view.rows, n = q->c.view.cols, m_rest = m % SHARED_TILE, n_rest = n % SHARED_TILE;
  *rows = m > SHARED_TILE && m_rest <= GT_MATMUL_BAND_MAX ? m - m_rest : m;
  *cols = n > SHARED_TILE && n_rest <= GT_MATMUL_BAND_MAX ? n - n_rest : n;
}

int gt__product_cut(const gt_product *q, bool trans_a, bool trans_b, uint32_t rows, uint32_t cols,
                    gt_product parts[3]) {
  uint32_t m = q->c.view.rows, n = q->c.view.cols, k = trans_a ? q->a.view.rows : q->a.view.cols;
  int count = 0;
  parts[count] = gt__product_c_section(q, 0, 0, rows, cols);
  parts[count].a = gt__op_section(&q->a, trans_a, 0, 0, rows, k);
  parts[count++].b = gt__op_section(&q->b, trans_b, 0, 0, k, cols);
  if (rows < m) {
    parts[count] = gt__product_c_section(q, rows, 0, m - rows, n);
    parts[count++].a = gt__op_section(&q->a, trans_a, rows, 0, m - rows, k);
  }
  if (cols < n && rows > 0) {
    parts[count] = gt__product_c_section(q, 0, cols, rows, n - cols);
    parts[count++].b = gt__op_section(&q->b, trans_b, 0, cols, k, n - cols);
  }
  return count;
}

int gt__matmul_band_parts(const gt_matmul_choices *p, const gt_product *q, gt_product parts[3]) {
  uint32_t rows, cols;
  whole_blocks(q, &rows, &cols);
  return gt__product_cut(q, p->trans_a, p->trans_b, rows, cols, parts);
}

gt_matmul_route gt__matmul_route(const gt_context *ctx, const gt_matmul_choices *p, const gt_product *q) {
  if (p->strategy == GT_STRATEGY_TRUNCATE_B) return GT_MATMUL_ROUTE_MAIN_AND_BANDS;
  if (p->keys[GT_MATMUL_TEXELS].group_cols && block_runs_texels(ctx, p, q)) return GT_MATMUL_ROUTE_TEXELS;
  if (p->keys[GT_MATMUL_BANDS].group_cols) {
    uint32_t rows, cols;
    whole_blocks(q, &rows, &cols);
    if (rows < q->c.view.rows || cols < q->c.view.cols) return GT_MATMUL_ROUTE_BLOCKS_AND_BANDS;
  }
  if (p->keys[GT_MATMUL_VEC4].group_cols && block_runs_vec4(p, q)) return GT_MATMUL_ROUTE_VEC4;
  return GT_MATMUL_ROUTE_MAIN;
}

/* Marks the slot block q's route takes; for the bands route, the bands
 * kernel's and the one its whole blocks take. Returns how many were new. */
static int take_route(const gt_context *ctx, const gt_matmul_choices *p, const gt_product *q,
                      bool taken[GT_MATMUL_SLOTS]) {
  static const int slot_of[] = {[GT_MATMUL_ROUTE_MAIN] = GT_MATMUL_MAIN,
                                [GT_MATMUL_ROUTE_VEC4] = GT_MATMUL_VEC4,
                                [GT_MATMUL_ROUTE_TEXELS] = GT_MATMUL_TEXELS,
                                [GT_MATMUL_ROUTE_MAIN_AND_BANDS] = GT_MATMUL_MAIN,
                                [GT_MATMUL_ROUTE_BLOCKS_AND_BANDS] = GT_MATMUL_BANDS};
  gt_matmul_route route = gt__matmul_route(ctx, p, q);
  int slot = slot_of[route], found = !taken[slot];
  taken[slot] = true;
  if (route == GT_MATMUL_ROUTE_BLOCKS_AND_BANDS) {
    gt_product parts[3];
    gt__matmul_band_parts(p, q, parts);
    found += take_route(ctx, p, &parts[0], taken);
  }
  return found;
}

/* Which of the slots main, vec4, texels and bands some block's route
 * takes: a pass over the blocks, so programs are built only if used. */
static gt_status routes_taken(const gt_context *ctx, const gt_matmul_choices *p,
                              bool taken[GT_MATMUL_SLOTS]) {
  memset(taken, 0, GT_MATMUL_SLOTS * sizeof taken[0]);
  uint32_t at[3] = {0, 0, 0}, walked = 0;
  int found = 0, possible = 1 + (p->keys[GT_MATMUL_VEC4].group_cols != 0) +
                            (p->keys[GT_MATMUL_TEXELS].group_cols != 0) +
                            (p->keys[GT_MATMUL_BANDS].group_cols != 0);
  bool more;
  do {
    gt_product q;
    GT__TRY(gt__matmul_block_at(ctx, p, at, &q));
    found += take_route(ctx, p, &q, taken);
    more = gt__matmul_next_block(p, at);
  } while (found < possible && more && ++walked < GT_BLOCK_WALK_MAX);
  if (more && found < possible) /* not walked to the end: every candidate */
    for (int i = 0; i < GT_MATMUL_SLOTS; i++)
      taken[i] = true;
  return GT_OK;
}

static gt_program_key matmul_key(gt_kernel kernel, uint32_t tile, uint32_t group_cols, uint32_t group_rows,
                                 uint32_t variant) {
  return (gt_program_key){kernel, tile, group_cols, group_rows, variant, GT_F32, 0};
}

/* AUTO's kernels: the context's, by the size of c and the operands' type;
 * the texels kernel (its key) where the blocks allow it, and p->kernel,
 * the registers or shared kernel, elsewhere. Chosen before the blocks:
 * the shared kernel sums longer K slices (gt__matmul_k_chunk). */
static void choose_auto_kernel(const gt_context *ctx, gt_view a, uint32_t variant, gt_matmul_choices *p) {
  uint32_t m = p->m, n = p->n;
  gt_matmul_kernel kernel = ctx->matmul_kernel, entry = ctx->device->matmul_kernel;
  because(p, kernel == entry                    ? "device table"
             : entry == GT_MATMUL_KERNEL_SHARED ? "no shared kernel in these limits"
             : entry == GT_MATMUL_KERNEL_TEXELS ? "no texture buffers"
                                                : "context desc");
  if (gt_matmul_auto_kernel(ctx, m, n) != kernel) {
    kernel = gt_matmul_auto_kernel(ctx, m, n);
    because(p, "c under shared_min_blocks: registers");
  }
  bool half = a.type == GT_F16, bytes = quantized(a.type);
  if ((half || bytes) && kernel == GT_MATMUL_KERNEL_TEXELS) {
    /* The texels kernel fetches floats. */
    kernel = texel_fallback(ctx, m, n);
    because(p, half ? "half operands: no texels" : "8-bit operands: no texels");
  }
  if (bytes && kernel == GT_MATMUL_KERNEL_SHARED) {
    /* Only the registers kernel sums integers. */
    kernel = GT_MATMUL_KERNEL_REGISTERS;
    because(p, "8-bit operands: registers");
  }
  if ((variant & GT_VARIANT_HALF_SUMS) && kernel == GT_MATMUL_KERNEL_SHARED) {
    /* Nor does the shared kernel sum in half. */
    kernel = GT_MATMUL_KERNEL_REGISTERS;
    because(p, "half sums: registers");
  }
  if (kernel == GT_MATMUL_KERNEL_TEXELS) {
    /* Built whatever the views, like the registers kernel's vec4 program
     * (the soak's warm-up counts on it); the blocks it cannot take run
     * the fallback. */
    p->keys[GT_MATMUL_TEXELS] =
        matmul_key(GT_KERNEL_MATMUL_TEXELS, TEXELS_TILE, TEXELS_GROUP, TEXELS_GROUP, variant);
    kernel = texel_fallback(ctx, m, n);
  }
  p->kernel = kernel;
}

/* AUTO's programs for the kernels chosen, moving as vec4s what the views
 * allow. */
static gt_status choose_auto(const gt_context *ctx, gt_view a, gt_view b, gt_view c, uint32_t variant,
                             gt_matmul_choices *p) {
  uint32_t m = p->m, n = p->n;
  gt_matmul_kernel kernel = p->kernel;
  bool half = a.type == GT_F16;
  /* Operands whose rows are aligned move as vec4s (each block's own views
   * decide, block_runs_vec4), in registers and through shared memory
   * alike: fewer, wider accesses; a quad of bytes as one word. Halves
   * move as words (two or three to a quad), except in the shared kernel,
   * which reads a quad across K as one uvec2 where rows start on 8 bytes
   * (4 halves: the same test in elements) and writes a half c's quads
   * likewise, with no atomics. */
  bool quad_loads = !half || kernel == GT_MATMUL_KERNEL_SHARED;
  bool c_quads = c.type == GT_F32 || (c.type == GT_F16 && kernel == GT_MATMUL_KERNEL_SHARED);
  uint32_t needs =
      vec4_operands(gt__view_rows_aligned(a) && quad_loads, gt__view_rows_aligned(b) && quad_loads,
                    gt__view_rows_aligned(c) && c_quads, m, n, 0, p->k, p->trans_a, p->trans_b);
  if (kernel == GT_MATMUL_KERNEL_REGISTERS_K1) variant |= GT_VARIANT_K1;
  /* Halves as R16F texels in the registers kernel where the entry says so
   * and both operands' bindings can be texture buffers of halves: every
   * block reads a section of them (none where blocks bind their own). */
  if (half && kernel != GT_MATMUL_KERNEL_SHARED && ctx->device->half_texels && !p->rebind &&
      gt__texels_range_fits(ctx, &p->whole.a, 2) && gt__texels_range_fits(ctx, &p->whole.b, 2)) {
    variant |= GT_VARIANT_HALF_TEXELS;
    because(p, "half a and b as texels");
  }
  /* One k per step, and the shared kernel's quads along K (4 rows of the
   * stored matrix): vec4s only across K; but halves with b transposed
   * (and a b into a half c) move along K as words of 2 k, 16 k a step,
   * where the operands' rows along K and the K slice allow, and those
   * across K too or not (GT_VARIANT_WORDS_UNALIGNED: a^T b^T at M = 4099
   * on the H200 3-6% faster than 8 k a step of single halves; words from
   * rows along K at any alignment were slower: docs/performance.md). */
  uint32_t unaligned = 0;
  if (kernel == GT_MATMUL_KERNEL_SHARED && !gt__shared_along_k_fits(variant | needs) &&
      gt__shared_along_k_fits(variant | needs | GT_VARIANT_WORDS_UNALIGNED))
    unaligned = GT_VARIANT_WORDS_UNALIGNED;
  if (kernel == GT_MATMUL_KERNEL_REGISTERS_K1 ||
      (kernel == GT_MATMUL_KERNEL_SHARED && !gt__shared_along_k_fits(variant | needs | unaligned)))
    needs &= ~gt__vec4_along_k(variant);
  if (kernel == GT_MATMUL_KERNEL_SHARED && (needs & gt__vec4_along_k(variant)) &&
      short_k_pads_word_steps(p->k)) {
    needs &= ~gt__vec4_along_k(variant);
    unaligned = 0;
    because(p, "short K: 8 k a step");
  }
  /* Halves 16 bits at a time where the context has GL_NV_gpu_shader5 and
   * the program changes with it (gt__shared_half_storage): on the H200
   * the uneven halves 2-7% faster in a b and a^T b^T (docs/performance.md). */
  bool storage = kernel == GT_MATMUL_KERNEL_SHARED && ctx->half_storage;
  uint32_t storage_main = storage && gt__shared_half_storage(variant) ? GT_VARIANT_HALF_STORAGE : 0;
  uint32_t storage_vec4 =
      storage && gt__shared_half_storage(variant | needs | unaligned) ? GT_VARIANT_HALF_STORAGE : 0;
  if (kernel == GT_MATMUL_KERNEL_SHARED && !gt__shared_vec4_c(variant | needs | storage_vec4))
    needs &= ~GT_VARIANT_VEC4_C;
  if (kernel != GT_MATMUL_KERNEL_SHARED && ctx->device->scalar_loads && needs) {
    needs = 0;
    because(p, "scalar_loads");
  }
  p->vec4_needs = needs;
  bool shared = kernel == GT_MATMUL_KERNEL_SHARED;
  gt_kernel k = shared ? GT_KERNEL_MATMUL_BLOCKED_SHARED : GT_KERNEL_MATMUL_BLOCKED;
  uint32_t tile = shared ? SHARED_TILE : GT_BLOCKED_TILE, group = shared ? SHARED_GROUP : GT_BLOCKED_GROUP;
  p->keys[GT_MATMUL_MAIN] = matmul_key(k, tile, group, group, variant | storage_main);
  /* A half c's uvec2 stores pack with no test where the device converts
   * as IEEE does; elsewhere (words beside atomics) the plain pack cost
   * a b^T f16 > f16 28% at 4099 x 4097 x 4101 on the H200. */
  uint32_t pack = shared && (variant & GT_VARIANT_HALF_C) && (needs & GT_VARIANT_VEC4_C) &&
                          ctx->device->pack_half_ieee
                      ? GT_VARIANT_PACK_HALF_IEEE
                      : 0;
  if (needs)
    p->keys[GT_MATMUL_VEC4] =
        matmul_key(k, tile, group, group, variant | needs | unaligned | pack | storage_vec4);
  /* Thin bands past the shared kernel's whole blocks: the bands kernel,
   * halves 16 bits at a time where the context has them (on the H200 at
   * 4099 x 4097 x 4101 the half bands then ran beside the whole blocks,
   * as the float ones do: f16 > f32 3-6% faster in every layout;
   * docs/performance.md). */
  if (shared) {
    uint32_t storage_bands = storage && gt__bands_half_storage(variant) ? GT_VARIANT_HALF_STORAGE : 0;
    p->keys[GT_MATMUL_BANDS] = matmul_key(GT_KERNEL_MATMUL_BANDS, 0, GT_MATMUL_BAND_ALONG, GT_MATMUL_BAND_SLICES,
                                          variant | storage_bands);
  }
  /* Only the programs some block runs are built. */
  memcpy(p->candidates, p->keys, sizeof p->keys);
  bool taken[GT_MATMUL_SLOTS];
  GT__TRY(routes_taken(ctx, p, taken));
  if (!taken[GT_MATMUL_MAIN]) memset(&p->keys[GT_MATMUL_MAIN], 0, sizeof p->keys[0]);
  if (!taken[GT_MATMUL_VEC4]) memset(&p->keys[GT_MATMUL_VEC4], 0, sizeof p->keys[0]);
  if (!taken[GT_MATMUL_BANDS]) memset(&p->keys[GT_MATMUL_BANDS], 0, sizeof p->keys[0]);
  return GT_OK;
}

bool gt__matmul_strategy_tiled(gt_strategy s) {
  return s == GT_STRATEGY_TILED_EVEN || s == GT_STRATEGY_TILED_PAD || s == GT_STRATEGY_TRUNCATE_B;
}

/* What a product asks of the seed's tiled kernel beyond what it runs,
 * or NULL: it multiplies f32 or f16 a and b (into an f32 or f16 c) with
 * f32 sums, one product at a time. 8-bit operands, sums in half, an
 * epilogue and batches run on SIMPLE and AUTO's kernels only, so the
 * tiled kernel is not built in each of their combinations. Sums in half
 * "if faster" are not faster there: they run in f32. */
static const char *tiled_outside(gt_view a, const gt_matmul_desc *d, uint32_t layers) {
  if (quantized(a.type)) return "8-bit operands";
  if (d->precision == GT_PRECISION_HALF) return "sums in half";
  if (d->bias.buffer != 0 || d->act != GT_ACTIVATION_NONE) return "an epilogue";
  if (layers > 1) return "a batch";
  return NULL;
}

gt_status gt__matmul_choose(const gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_matmul_desc *d,
                            uint32_t layers, const uint32_t layer_stride[3], gt_matmul_choices *p) {
  memset(p, 0, sizeof *p);
  gt_strategy strategy = d->strategy;
  p->strategy = strategy;
  p->trans_a = d->trans_a;
  p->trans_b = d->trans_b;
  p->needs_atomics = c.type == GT_F16 || quantized(c.type);
  gt__matmul_extent(a, b, d, &p->m, &p->n, &p->k);
  uint32_t tile = d->tile ? d->tile : ctx->default_tile;
  uint32_t group_rows = gt__tiled_group_rows(ctx, tile, 2 * tile * tile * 4);
  bool tiled = gt__matmul_strategy_tiled(strategy);
  const char *outside = tiled ? tiled_outside(a, d, layers) : NULL;
  if (outside != NULL) {
    snprintf(p->refusal, sizeof p->refusal, "%s runs f32 or f16 a and b, sums in f32, one product: not %s",
             gt_strategy_name(strategy), outside);
    return GT_ERR_UNSUPPORTED;
  }
  if (tiled && group_rows == 0) {
    snprintf(p->refusal, sizeof p->refusal, "tile %u does not fit this device's limits", tile);
    return GT_ERR_UNSUPPORTED;
  }
  if (strategy == GT_STRATEGY_TILED_EVEN && (p->m % tile || p->n % tile || p->k % tile)) {
    snprintf(p->refusal, sizeof p->refusal, "tiled_even: tile %u does not divide %ux%ux%u", tile, p->m, p->n,
             p->k);
    return GT_ERR_SHAPE_MISMATCH;
  }
  if (tiled) {
    p->tile = tile;
    p->group_rows = group_rows;
  }
  GT__TRY(bind_operands(ctx, a, b, c, layers, layer_stride, p));
  p->whole.alpha = d->scale ? d->alpha : 1.0f;
  p->whole.beta = d->scale ? d->beta : 0.0f;
  p->whole.quant = d->quant;
  GT__TRY(bind_epilogue(ctx, d, p));

  /* Sums in half where the caller asks and, for HALF_IF_FASTER, the
   * device table says half is faster; where it does not, rounded to half
   * explicitly, the same bits on every such device. */
  bool half_sums = d->precision == GT_PRECISION_HALF ||
                   (d->precision == GT_PRECISION_HALF_IF_FASTER && ctx->device->half_is_faster && !tiled);
  bool rounded = half_sums && !ctx->device->half_is_faster;
  /* a and b may share elements (both are only read), so restrict stays. */
  uint32_t variant = (d->trans_a ? GT_VARIANT_TRANS_A : 0) | (d->trans_b ? GT_VARIANT_TRANS_B : 0) |
                     (layers > 1 ? GT_VARIANT_BATCHED : 0) | (a.type == GT_F16 ? GT_VARIANT_HALF : 0) |
                     (c.type == GT_F16 ? GT_VARIANT_HALF_C : 0) |
                     (p->whole.epilogue.bias || p->whole.epilogue.act ? GT_VARIANT_EPILOGUE : 0) |
                     (quantized(a.type) ? GT_VARIANT_QUANT : 0) | (a.type == GT_I8 ? GT_VARIANT_SIGNED : 0) |
                     (quantized(c.type) ? GT_VARIANT_QUANT_C : 0) |
                     (p->whole.quant_columns ? GT_VARIANT_QUANT_COLUMNS : 0) |
                     (half_sums ? GT_VARIANT_HALF_SUMS : 0) | (rounded ? GT_VARIANT_HALF_ROUNDED : 0) |
                     (rounded && ctx->device->half_rounded_by_scaling ? GT_VARIANT_HALF_SCALED : 0);
  gt_program_key simple =
      matmul_key(GT_KERNEL_MATMUL_SIMPLE, 0, SIMPLE_GROUP_COLS, SIMPLE_GROUP_ROWS, variant);
  if (strategy == GT_STRATEGY_AUTO) choose_auto_kernel(ctx, a, variant, p);
  GT__TRY(plan_blocks(ctx, a, b, c, d, strategy == GT_STRATEGY_TILED_EVEN ? tile : 0, p));
  switch (strategy) {
  case GT_STRATEGY_SIMPLE: p->keys[GT_MATMUL_MAIN] = simple; break;
  case GT_STRATEGY_TRUNCATE_B: p->keys[GT_MATMUL_SIMPLE] = simple; /* fall through */
  case GT_STRATEGY_TILED_EVEN:
    p->keys[GT_MATMUL_MAIN] = matmul_key(GT_KERNEL_MATMUL_TILED, tile, tile, group_rows, variant);
    break;
  case GT_STRATEGY_TILED_PAD:
    p->keys[GT_MATMUL_MAIN] =
        matmul_key(GT_KERNEL_MATMUL_TILED, tile, tile, group_rows, variant | GT_VARIANT_GUARDED);
    break;
  default: return choose_auto(ctx, a, b, c, variant, p);
  }
  because(p, "caller's desc");
  memcpy(p->candidates, p->keys, sizeof p->keys);
  return GT_OK;
}

/* ---- batches --------------------------------------------------------- */

void gt__matmul_product_views(gt_view a, gt_view b, gt_view c, const gt_batch *batch, uint64_t i,
                              gt_view v[3]) {
  const size_t stride[3] = {batch->stride_a, batch->stride_b, batch->stride_c};
  v[0] = a;
  v[1] = b;
  v[2] = c;
  for (int o = 0; o < 3; o++)
    v[o].offset += (size_t)(i * stride[o]);
}

/* Whether the series of `layers` products from the views v, strides
 * apart, can run as layers of one dispatch: every operand's layers in one
 * binding. Where the texels kernel may run, a and b must also keep one
 * product's texture-buffer fit: the same size limit, and binding starts
 * moving by whole multiples of the storage and texel alignments, so each
 * layer's start is aligned as it would be alone. */
static bool layers_fit(const gt_context *ctx, const gt_view v[3], uint32_t layers, const uint64_t stride[3],
                       bool texels) {
  for (int i = 0; i < 3; i++) {
    gt_bound_view one, all;
    if (!gt__view_fits(ctx, v[i]) || gt__view_bind(ctx, v[i], &one) != GT_OK ||
        gt__view_bind_layers(ctx, v[i], layers, stride[i], &all) != GT_OK)
      return false;
    if (i == 2 || !texels) continue;
    uint64_t bytes = stride[i] * 4;
    if (bytes % ctx->texel_offset_alignment || bytes % ctx->limits.storage_offset_alignment ||
        gt__texels_fit(ctx, &one) != gt__texels_fit(ctx, &all))
      return false;
  }
  return true;
}

void gt__matmul_series(const gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_batch *batch,
                       const gt_matmul_desc *d, gt_matmul_series *s) {
  memset(s, 0, sizeof *s);
  /* step * stride a multiple of 4 elements for every operand, so each
   * product's rows are aligned as its series' first product's, and they
   * run the programs that product would run alone (but for halves as
   * texels, which a binding over every layer may be too long for: the
   * same sums from words). */
  size_t all = batch->stride_a | batch->stride_b | batch->stride_c;
  s->count = gt__min_u32(all % 4 == 0 ? 1 : all % 2 == 0 ? 2 : 4, batch->count);
  uint32_t m, n, k;
  gt__matmul_extent(a, b, d, &m, &n, &k);
  bool texels = d->strategy == GT_STRATEGY_AUTO && a.type == GT_F32 &&
                gt_matmul_auto_kernel(ctx, m, n) == GT_MATMUL_KERNEL_TEXELS;
  const uint64_t layer_stride[3] = {(uint64_t)s->count * batch->stride_a,
                                    (uint64_t)s->count * batch->stride_b,
                                    (uint64_t)s->count * batch->stride_c};
  for (uint32_t r = 0; r < s->count; r++) {
    gt_view v[3];
    gt__matmul_product_views(a, b, c, batch, r, v);
    s->products[r] = (uint32_t)(((uint64_t)batch->count - r + s->count - 1) / s->count);
    s->layered[r] = s->products[r] > 1 && layers_fit(ctx, v, s->products[r], layer_stride, texels);
  }
  /* Within 32 bits wherever a series is layered (layers_fit). */
  for (int i = 0; i < 3; i++)
    s->layer_stride[i] = layer_stride[i] > UINT32_MAX ? 0 : (uint32_t)layer_stride[i];
}

/* ---- gt_matmul_plan ------------------------------------------------ */

/* A program's kernel as the plan names it, with its tile. */
static void name_key(const gt_program_key *key, char *out, size_t size) {
  static const char *const operands[] = {"",        " vec4 a",   " vec4 b",   " vec4 a,b",
                                         " vec4 c", " vec4 a,c", " vec4 b,c", " vec4 a,b,c"};
  uint32_t v = key->variant;
  int vec4 = ((v & GT_VARIANT_VEC4_A) ? 1 : 0) | ((v & GT_VARIANT_VEC4_B) ? 2 : 0) |
             ((v & GT_VARIANT_VEC4_C) ? 4 : 0);
  switch (key->kernel) {
  case GT_KERNEL_MATMUL_SIMPLE: snprintf(out, size, "simple"); break;
  case GT_KERNEL_MATMUL_TILED:
    snprintf(out, size, "%s %u", (v & GT_VARIANT_GUARDED) ? "tiled_pad" : "tiled_even", key->tile);
    break;
  case GT_KERNEL_MATMUL_BLOCKED_SHARED: snprintf(out, size, "shared %u%s", key->tile, operands[vec4]); break;
  case GT_KERNEL_MATMUL_TEXELS: snprintf(out, size, "texels %u", key->tile); break;
  case GT_KERNEL_MATMUL_BANDS: snprintf(out, size, "bands"); break;
  default:
    snprintf(out, size, "%s %u%s%s", (v & GT_VARIANT_K1) ? "registers_k1" : "registers", key->tile,
             operands[vec4], (v & GT_VARIANT_HALF_TEXELS) ? " texels a,b" : "");
    break;
  }
}

gt_status gt_matmul_plan(const gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_matmul_desc *d,
                         gt_plan *out) {
  static const gt_matmul_desc defaults;
  static const uint32_t unmoved[3];
  if (d == NULL) d = &defaults;
  GT__CHECK(ctx != NULL && out != NULL, GT_ERR_INVALID_ARGUMENT);
  GT__TRY(gt__desc_check(d->strategy, d->tile, GT__STRATEGIES_TILED | GT__STRATEGY(GT_STRATEGY_TRUNCATE_B)));
  GT__TRY(gt__matmul_check(ctx, a, b, c, d));
  gt_matmul_choices p;
  GT__TRY(gt__matmul_choose(ctx, a, b, c, d, 1, unmoved, &p));
  gt_plan plan;
  memset(&plan, 0, sizeof plan);
  /* AUTO's kernels pad c to whole blocks and guard the edges. */
  plan.strategy = p.strategy == GT_STRATEGY_AUTO ? GT_STRATEGY_TILED_PAD : p.strategy;
  /* AUTO's tile: its main program's block side (the texels kernel's
   * where that runs alone). */
  plan.tile = p.tile;
  for (int i = GT_MATMUL_SLOTS - 1; i >= 0 && p.strategy == GT_STRATEGY_AUTO; i--)
    if (p.keys[i].group_cols) plan.tile = p.keys[i].tile;
  /* The programs in the order of their slots: the texels kernel first. */
  static const int order[] = {GT_MATMUL_TEXELS, GT_MATMUL_VEC4, GT_MATMUL_MAIN, GT_MATMUL_BANDS};
  size_t used = 0;
  if (p.strategy == GT_STRATEGY_TRUNCATE_B) {
    used = (size_t)snprintf(plan.kernels, sizeof plan.kernels, "tiled_even %u + simple bands", p.tile);
  } else {
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
      const gt_program_key *key = &p.keys[order[i]];
      if (!key->group_cols || used >= sizeof plan.kernels) continue;
      char name[48];
      name_key(key, name, sizeof name);
      used +=
          (size_t)snprintf(plan.kernels + used, sizeof plan.kernels - used, "%s%s", used ? " + " : "", name);
    }
  }
  const uint32_t *block = p.blocks.block, *extent = p.blocks.extent;
  if (used < sizeof plan.kernels && (block[0] < extent[0] || block[1] < extent[1] || block[2] < extent[2]))
    snprintf(plan.kernels + used, sizeof plan.kernels - used, ", blocks of %ux%ux%u", block[0], block[1],
             block[2]);
  snprintf(plan.reason, sizeof plan.reason, "%s", p.reason);
  *out = plan;
  return GT_OK;
}
