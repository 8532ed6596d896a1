/* A planned multiply's blocks: their bound windows, the walk over them
 * (K innermost), the route each takes and the parts a route cuts it into.
 * No GL. */
#include "plan/matmul_plan.h"
#include "plan/texel_fit.h"

#include <string.h>

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
  bool shared_only = p->strategy == GT_STRATEGY_AUTO && p->kernel == GT_MATMUL_KERNEL_SHARED && !p->stream &&
                     !p->op.keys[GT_MATMUL_TEXELS].group_cols;
  return shared_only ? GT_MATMUL_SHARED_K_CHUNK : GT_MATMUL_K_CHUNK;
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
  const gt_block_plan *plan = &p->op.blocks;
  uint32_t size[3];
  for (int i = 0; i < 3; i++)
    size[i] = gt__min_u32(plan->block[i], plan->extent[i] - at[i]);
  const gt_product *whole = &p->whole;
  *q = *whole;
  GT__TRY(op_window(ctx, &whole->a, p->trans_a, p->op.in_blocks, at[0], at[2], size[0], size[2], &q->a));
  GT__TRY(op_window(ctx, &whole->b, p->trans_b, p->op.in_blocks, at[2], at[1], size[2], size[1], &q->b));
  GT__TRY(op_window(ctx, &whole->c, false, p->op.in_blocks, at[0], at[1], size[0], size[1], &q->c));
  column_views_section(q, whole, at[0], at[1], size[0], size[1]);
  q->k_begin = 0;
  q->k_end = size[2];
  q->finishes = at[2] + size[2] == plan->extent[2];
  return GT_OK;
}

/* The operands the shared kernel may move as vec4s (GT_VARIANT_VEC4_A, _B,
 * _C) given which views' rows are aligned: a vec4 must not straddle an
 * edge, so along K (a untransposed, b transposed) the K slice [k_begin,
 * k_end) is whole vec4s, and across K the extent it spans is (M for a
 * transposed, N for b and for c). */
uint32_t gt__matmul_vec4_operands(bool a_rows, bool b_rows, bool c_rows, uint32_t m, uint32_t n, uint32_t k_begin,
                              uint32_t k_end, bool trans_a, bool trans_b) {
  bool k_whole = k_begin % 4 == 0 && k_end % 4 == 0;
  uint32_t bits = 0;
  if (a_rows && (trans_a ? m % 4 == 0 : k_whole)) bits |= GT_VARIANT_VEC4_A;
  if (b_rows && (trans_b ? k_whole : n % 4 == 0)) bits |= GT_VARIANT_VEC4_B;
  if (c_rows && n % 4 == 0) bits |= GT_VARIANT_VEC4_C;
  return bits;
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
  uint32_t allowed = gt__matmul_vec4_operands(gt__bound_rows_aligned(&q->a), gt__bound_rows_aligned(&q->b),
                                   gt__bound_rows_aligned(&q->c), q->c.view.rows, q->c.view.cols, q->k_begin,
                                   q->k_end, p->trans_a, p->trans_b);
  return p->vec4_needs != 0 && (allowed & p->vec4_needs) == p->vec4_needs;
}

/* The rows and columns of c's section q that whole blocks of the shared
 * kernel cover, where the rest is a thin band (at most
 * GT_MATMUL_BAND_MAX past more than one block); else all of them, which
 * the kernel pads. A band that wide padded is a block's work for a few
 * results each (docs/notes/2026-11-nvidia-matmul-f32.md, "Thin bands
 * beside the shared kernel's blocks"). */
static void whole_blocks(const gt_product *q, uint32_t *rows, uint32_t *cols) {
  uint32_t m = q->c.view.rows, n = q->c.view.cols, m_rest = m % GT_MATMUL_SHARED_TILE, n_rest = n % GT_MATMUL_SHARED_TILE;
  *rows = m > GT_MATMUL_SHARED_TILE && m_rest <= GT_MATMUL_BAND_MAX ? m - m_rest : m;
  *cols = n > GT_MATMUL_SHARED_TILE && n_rest <= GT_MATMUL_BAND_MAX ? n - n_rest : n;
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

/* The rows and columns of c's section q in whole tiles of the registers
 * kernel. */
static void whole_tiles(const gt_product *q, uint32_t *rows, uint32_t *cols) {
  *rows = q->c.view.rows / GT_BLOCKED_TILE * GT_BLOCKED_TILE;
  *cols = q->c.view.cols / GT_BLOCKED_TILE * GT_BLOCKED_TILE;
}

int gt__matmul_interior_parts(const gt_product *q, bool trans_a, bool trans_b, gt_product parts[3]) {
  uint32_t rows, cols;
  whole_tiles(q, &rows, &cols);
  return gt__product_cut(q, trans_a, trans_b, rows, cols, parts);
}

/* Whether block q has whole tiles for the interior program, which writes
 * c's rows as vec4s (its bindings allow them); of halves it reads a's two
 * k as one word from the K slice's first k on, and b's rows as uvec2s. */
static bool block_runs_interior(const gt_matmul_choices *p, const gt_product *q) {
  const gt_program_key *key = &p->op.keys[GT_MATMUL_INTERIOR];
  uint32_t rows, cols;
  whole_tiles(q, &rows, &cols);
  bool operands = !(key->variant & GT_VARIANT_HALF) ||
                  (gt__bound_rows_aligned(&q->a) && gt__bound_rows_aligned(&q->b) && q->k_begin % 2 == 0);
  return key->group_cols && rows > 0 && cols > 0 && gt__bound_rows_aligned(&q->c) && operands;
}

gt_matmul_route gt__matmul_route(const gt_context *ctx, const gt_matmul_choices *p, const gt_product *q) {
  if (p->strategy == GT_STRATEGY_TRUNCATE_B) return GT_MATMUL_ROUTE_MAIN_AND_BANDS;
  if (p->op.keys[GT_MATMUL_TEXELS].group_cols && block_runs_texels(ctx, p, q)) return GT_MATMUL_ROUTE_TEXELS;
  if (p->op.keys[GT_MATMUL_BANDS].group_cols) {
    uint32_t rows, cols;
    whole_blocks(q, &rows, &cols);
    if (rows < q->c.view.rows || cols < q->c.view.cols) return GT_MATMUL_ROUTE_BLOCKS_AND_BANDS;
  }
  if (block_runs_interior(p, q)) return GT_MATMUL_ROUTE_INTERIOR;
  if (p->op.keys[GT_MATMUL_VEC4].group_cols && block_runs_vec4(p, q)) return GT_MATMUL_ROUTE_VEC4;
  return GT_MATMUL_ROUTE_MAIN;
}

/* Marks the slot block q's route takes; for the bands route, the bands
 * kernel's and the one its whole blocks take; for the interior route, the
 * interior program's and those its other parts take. Returns how many
 * were new. */
static int take_route(const gt_context *ctx, const gt_matmul_choices *p, const gt_product *q,
                      bool taken[GT_MATMUL_SLOTS]) {
  static const int slot_of[] = {[GT_MATMUL_ROUTE_MAIN] = GT_MATMUL_MAIN,
                                [GT_MATMUL_ROUTE_VEC4] = GT_MATMUL_VEC4,
                                [GT_MATMUL_ROUTE_TEXELS] = GT_MATMUL_TEXELS,
                                [GT_MATMUL_ROUTE_MAIN_AND_BANDS] = GT_MATMUL_MAIN,
                                [GT_MATMUL_ROUTE_BLOCKS_AND_BANDS] = GT_MATMUL_BANDS,
                                [GT_MATMUL_ROUTE_INTERIOR] = GT_MATMUL_INTERIOR};
  gt_matmul_route route = gt__matmul_route(ctx, p, q);
  int slot = slot_of[route], found = !taken[slot];
  taken[slot] = true;
  if (route == GT_MATMUL_ROUTE_BLOCKS_AND_BANDS) {
    gt_product parts[3];
    gt__matmul_band_parts(p, q, parts);
    found += take_route(ctx, p, &parts[0], taken);
  }
  if (route == GT_MATMUL_ROUTE_INTERIOR) {
    gt_product parts[3];
    int count = gt__matmul_interior_parts(q, p->trans_a, p->trans_b, parts);
    for (int i = 1; i < count; i++)
      found += take_route(ctx, p, &parts[i], taken);
  }
  return found;
}

/* Which of the slots main, vec4, texels, bands and interior some block's
 * route takes: a pass over the blocks, so programs are built only if used. */
gt_status gt__matmul_routes_taken(const gt_context *ctx, const gt_matmul_choices *p,
                              bool taken[GT_MATMUL_SLOTS]) {
  memset(taken, 0, GT_MATMUL_SLOTS * sizeof taken[0]);
  uint32_t at[3] = {0, 0, 0}, walked = 0;
  int found = 0, possible = 1 + (p->op.keys[GT_MATMUL_VEC4].group_cols != 0) +
                            (p->op.keys[GT_MATMUL_TEXELS].group_cols != 0) +
                            (p->op.keys[GT_MATMUL_BANDS].group_cols != 0) +
                            (p->op.keys[GT_MATMUL_INTERIOR].group_cols != 0);
  bool more;
  do {
    gt_product q;
    GT__TRY(gt__matmul_block_at(ctx, p, at, &q));
    found += take_route(ctx, p, &q, taken);
    more = gt__block_next(&p->op.blocks, at);
  } while (found < possible && more && ++walked < GT_BLOCK_WALK_MAX);
  if (more && found < possible) /* not walked to the end: every candidate */
    for (int i = 0; i < GT_MATMUL_SLOTS; i++)
      taken[i] = true;
  return GT_OK;
}

