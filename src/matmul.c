/* Matrix multiply, c = alpha op(a) op(b) + beta c: validation, the choice
 * of kernel, the K slices, and the divide and conquer of TRUNCATE_B. */
#include "gt_internal.h"

#include <string.h>

/* SIMPLE's group: 16 x 8 = 128 invocations, the ES 3.1 minimum. */
enum { MATMUL_SIMPLE_GROUP_COLS = 16, MATMUL_SIMPLE_GROUP_ROWS = 8 };
/* The shared-memory kernel: 16 x 16 invocations of 8 x 8 results (the
 * registers kernel's shape is in gt_internal.h). */
enum { SHARED_GROUP = 16, SHARED_TILE = 128 };
/* The texels kernel: 8 x 8 invocations of 8 x 8 results each. */
enum { TEXELS_GROUP = 8, TEXELS_TILE = 8 * TEXELS_GROUP };

/* The shared kernel's 128 x 128 blocks leave much of a large GPU idle when
 * c has few of them: below the device entry's count the registers kernel
 * (32 x 32 blocks, 16 times as many groups) runs instead. */
static bool shared_pays(const gt_context *ctx, uint32_t m, uint32_t n) {
  return ctx != NULL &&
         (uint64_t)gt__div_up(m, SHARED_TILE) * gt__div_up(n, SHARED_TILE) >= ctx->device->shared_min_blocks;
}

gt_matmul_kernel gt_matmul_auto_kernel(const gt_context *ctx, uint32_t m, uint32_t n) {
  gt_matmul_kernel k = gt_context_matmul_kernel(ctx);
  return k == GT_MATMUL_KERNEL_SHARED && !shared_pays(ctx, m, n) ? GT_MATMUL_KERNEL_REGISTERS : k;
}

/* What a TEXELS context's AUTO runs for the products that kernel cannot
 * take: what a SHARED context would (REGISTERS where SHARED does not fit). */
static gt_matmul_kernel texel_fallback(const gt_context *ctx, uint32_t m, uint32_t n) {
  return gt__shared_kernel_fits(&ctx->limits) && shared_pays(ctx, m, n) ? GT_MATMUL_KERNEL_SHARED
                                                                        : GT_MATMUL_KERNEL_REGISTERS;
}

/* One multiply over bound views: m x n results, the K slice [k_begin,
 * k_end), c = alpha * sum + beta * c; or a series of such multiplies, one
 * per layer of groups, layer l's views moved on by l * layer_stride. */
typedef struct product {
  gt_bound_view a, b, c;
  uint32_t k_begin, k_end;
  float alpha, beta;
  uint32_t layers;          /* 1 = one multiply */
  uint32_t layer_stride[3]; /* elements between layers' a, b and c */
} product;

/* The section of op(x) at (row, col), as a section of the stored view. */
static gt_bound_view op_section(const gt_bound_view *x, bool trans, uint32_t row, uint32_t col, uint32_t rows,
                                uint32_t cols) {
  return trans ? gt__bound_section(x, col, row, cols, rows) : gt__bound_section(x, row, col, rows, cols);
}

/* Runs prog over p in one dispatch. The caller keeps the K range within
 * GT_MATMUL_K_CHUNK and the work within the dispatch budget. */
static gt_status run(gt_context *ctx, const gt_program *prog, const product *p) {
  uint32_t m = p->c.view.rows, n = p->c.view.cols, gx, gy;
  uint32_t tile = prog->key.tile;
  switch (prog->key.kernel) {
  case GT_KERNEL_MATMUL_TILED:
    gx = (prog->key.variant & GT_VARIANT_GUARDED) ? gt__div_up(n, tile) : n / tile;
    gy = (prog->key.variant & GT_VARIANT_GUARDED) ? gt__div_up(m, tile) : m / tile;
    break;
  case GT_KERNEL_MATMUL_BLOCKED:
  case GT_KERNEL_MATMUL_BLOCKED_SHARED:
  case GT_KERNEL_MATMUL_TEXELS:
    gx = gt__div_up(n, tile);
    gy = gt__div_up(m, tile);
    break;
  default:
    gx = gt__div_up(n, MATMUL_SIMPLE_GROUP_COLS);
    gy = gt__div_up(m, MATMUL_SIMPLE_GROUP_ROWS);
    break;
  }
  gt_bound_view views[3] = {p->a, p->b, p->c};
  glProgramUniform2f(prog->name, prog->scale_loc, p->alpha, p->beta);
  glProgramUniform2ui(prog->name, prog->k_range_loc, p->k_begin, p->k_end);
  /* Bounded by FLOPs instead: blocks of at most max_dispatch_flops. */
  if (p->layers == 1) return gt__dispatch(ctx, prog, views, 3, gx, gy, 0);
  /* As many layers per dispatch as the group-count limit and the FLOP
   * budget allow (a block alone is within the budget). */
  uint64_t layer_flops = 2ull * m * n * (p->k_end - p->k_begin);
  uint64_t most = layer_flops ? ctx->limits.max_dispatch_flops / layer_flops : UINT64_MAX;
  uint32_t step = most < ctx->limits.max_group_count[2] ? (uint32_t)most : ctx->limits.max_group_count[2];
  if (step == 0) step = 1;
  for (uint32_t first = 0; first < p->layers; first += step) {
    glProgramUniform4ui(prog->name, prog->batch_loc, p->layer_stride[0], p->layer_stride[1],
                        p->layer_stride[2], first);
    GT__TRY(gt__dispatch_layers(ctx, prog, views, 3, gx, gy, gt__min_u32(step, p->layers - first)));
  }
  return GT_OK;
}

static gt_status get_program(gt_context *ctx, gt_kernel kernel, uint32_t tile, uint32_t group_cols,
                             uint32_t group_rows, uint32_t variant, const gt_program **out) {
  return gt__program_for(ctx, kernel, tile, group_cols, group_rows, variant, GT_F32, out);
}

/* Runs the texels kernel over p: a and b as the context's texture
 * buffers for the dispatch, those texture units as the caller had them
 * after. */
static gt_status run_texels(gt_context *ctx, const gt_program *prog, const product *p) {
  gt_texel_units saved;
  gt__texels_bind(ctx, &p->a, &p->b, &saved);
  gt_status status = run(ctx, prog, p);
  gt__texels_unbind(ctx, &saved);
  return status;
}

/* Seed 000, option B, in three dimensions: TILED_EVEN on the main block
 * (whole tiles of M, N and K), SIMPLE adding the leftover slice of K to
 * it, and SIMPLE on the bottom and right bands of c over all of K. */
static gt_status run_truncate_b(gt_context *ctx, const gt_program *tiled, const gt_program *simple,
                                const product *p, bool trans_a, bool trans_b) {
  uint32_t m = p->c.view.rows, n = p->c.view.cols, k = p->k_end, t = tiled->key.tile;
  uint32_t mt = m / t * t, nt = n / t * t, kt = k / t * t;
  if (mt && nt) {
    product main = *p;
    main.a = op_section(&p->a, trans_a, 0, 0, mt, k);
    main.b = op_section(&p->b, trans_b, 0, 0, k, nt);
    main.c = gt__bound_section(&p->c, 0, 0, mt, nt);
    if (kt) {
      main.k_end = kt;
      GT__TRY(run(ctx, tiled, &main));
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
      main.beta = 1.0f; /* the K leftover adds to what the tiles made */
    }
    if (kt < k) {
      main.k_begin = kt;
      main.k_end = k;
      GT__TRY(run(ctx, simple, &main));
    }
  }
  if (mt < m && nt) {
    product bottom = *p;
    bottom.a = op_section(&p->a, trans_a, mt, 0, m - mt, k);
    bottom.b = op_section(&p->b, trans_b, 0, 0, k, nt);
    bottom.c = gt__bound_section(&p->c, mt, 0, m - mt, nt);
    GT__TRY(run(ctx, simple, &bottom));
  }
  if (nt < n) {
    product right = *p;
    right.b = op_section(&p->b, trans_b, 0, nt, k, n - nt);
    right.c = gt__bound_section(&p->c, 0, nt, m, n - nt);
    GT__TRY(run(ctx, simple, &right));
  }
  return GT_OK;
}

/* Blocks of (m, n, k): each dispatch sums at most GT_MATMUL_K_CHUNK of K
 * (Mesa stops a shader's loops after 65,535 iterations in all) and does
 * at most max_dispatch_flops of work (a mobile GPU's watchdog), and when
 * a view is longer than one storage block, each block's windows fit one.
 * even_tile: TILED_EVEN's tile, which every block side must keep. */
static gt_status plan_blocks(const gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_matmul_desc *d,
                             uint32_t even_tile, bool rebind, gt_block_plan *plan) {
  memset(plan, 0, sizeof *plan);
  plan->dims = 3;
  plan->extent[0] = c.rows;
  plan->extent[1] = c.cols;
  plan->extent[2] = d->trans_a ? a.rows : a.cols;
  plan->limit[2] = GT_MATMUL_K_CHUNK;
  /* Cutting K costs a pass over c per cut; cut m and n first. */
  plan->weight[0] = plan->weight[1] = 2;
  for (int i = 0; i < 3; i++) {
    plan->granule[i] = even_tile ? even_tile : 32;
    plan->min[i] = even_tile;
  }
  plan->max_work = ctx->limits.max_dispatch_flops;
  plan->max_elements = UINT32_MAX;
  if (rebind) {
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
    gt__log(ctx, GT_LOG_ERROR, "matmul: no block of %ux%ux%u fits the device's storage blocks",
            plan->extent[0], plan->extent[1], plan->extent[2]);
    return GT_ERR_UNSUPPORTED;
  }
  return GT_OK;
}

/* The window of x for op(x)'s section at (row, col), bound as a section of
 * x's binding, or (rebind) with a binding of its own. */
static gt_status op_window(const gt_context *ctx, const gt_bound_view *x, bool trans, bool rebind,
                           uint32_t row, uint32_t col, uint32_t rows, uint32_t cols, gt_bound_view *out) {
  if (!rebind) {
    *out = op_section(x, trans, row, col, rows, cols);
    return GT_OK;
  }
  gt_view v = trans ? gt_section(x->view, col, row, cols, rows) : gt_section(x->view, row, col, rows, cols);
  return gt__view_bind(ctx, v, out);
}

/* The block (i, j, kk) of mb x nb x kb as a product of its own. */
static gt_status block_views(const gt_context *ctx, const product *whole, bool trans_a, bool trans_b,
                             bool rebind, uint32_t i, uint32_t j, uint32_t kk, uint32_t mb, uint32_t nb,
                             uint32_t kb, product *q) {
  GT__TRY(op_window(ctx, &whole->a, trans_a, rebind, i, kk, mb, kb, &q->a));
  GT__TRY(op_window(ctx, &whole->b, trans_b, rebind, kk, j, kb, nb, &q->b));
  GT__TRY(op_window(ctx, &whole->c, false, rebind, i, j, mb, nb, &q->c));
  q->k_begin = 0;
  q->k_end = kb;
  return GT_OK;
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

/* The same for block q, bound: its bindings must start 16-byte aligned too. */
static uint32_t block_vec4_operands(const product *q, bool trans_a, bool trans_b) {
  return vec4_operands(gt__bound_rows_aligned(&q->a), gt__bound_rows_aligned(&q->b),
                       gt__bound_rows_aligned(&q->c), q->c.view.rows, q->c.view.cols, q->k_begin, q->k_end,
                       trans_a, trans_b);
}

/* Steps at, the (m, n, k) origin of a block, through the plan's blocks in
 * dispatch order (K innermost); false after the last. */
static bool next_block(const gt_block_plan *plan, uint32_t at[3]) {
  for (int d = 2; d >= 0; d--) {
    at[d] += plan->block[d];
    if (at[d] < plan->extent[d]) return true;
    at[d] = 0;
  }
  return false;
}

/* The block at `at` of the whole product as a product of its own. */
static gt_status block_at(const gt_context *ctx, const product *whole, const gt_matmul_desc *d, bool rebind,
                          const gt_block_plan *plan, const uint32_t at[3], product *q) {
  uint32_t size[3];
  for (int i = 0; i < 3; i++)
    size[i] = gt__min_u32(plan->block[i], plan->extent[i] - at[i]);
  *q = *whole;
  return block_views(ctx, whole, d->trans_a, d->trans_b, rebind, at[0], at[1], at[2], size[0], size[1],
                     size[2], q);
}

/* Whether block q may run the vec4 program made for the operands `needs`. */
static bool block_runs_vec4(const gt_context *ctx, const product *q, const gt_matmul_desc *d,
                            uint32_t needs) {
  (void)ctx;
  return needs != 0 && (block_vec4_operands(q, d->trans_a, d->trans_b) & needs) == needs;
}

/* Whether block q may run the texels kernel: a and b each fetchable as
 * texels, and no texel the kernel needs cut by an edge: the K slice whole
 * texels (the kernel steps 4 k at a time), and M where a is transposed,
 * N where b is not (a texel then runs across K). */
static bool block_runs_texels(const gt_context *ctx, const product *q, const gt_matmul_desc *d,
                              uint32_t needs) {
  (void)needs;
  bool m_whole = q->c.view.rows % 4 == 0, n_whole = q->c.view.cols % 4 == 0;
  return q->k_begin % 4 == 0 && q->k_end % 4 == 0 && (!d->trans_a || m_whole) && (d->trans_b || n_whole) &&
         gt__texels_fit(ctx, &q->a) && gt__texels_fit(ctx, &q->b);
}

typedef bool (*block_test)(const gt_context *ctx, const product *q, const gt_matmul_desc *d, uint32_t needs);

/* Whether some block passes test (*some) and some does not (*others): a
 * pass over the blocks, without GL, so programs are fetched only if used. */
static gt_status split_blocks(gt_context *ctx, const product *whole, const gt_matmul_desc *d, bool rebind,
                              const gt_block_plan *plan, block_test test, uint32_t needs, bool *some,
                              bool *others) {
  *some = *others = false;
  uint32_t at[3] = {0, 0, 0};
  do {
    product q;
    GT__TRY(block_at(ctx, whole, d, rebind, plan, at, &q));
    if (test(ctx, &q, d, needs))
      *some = true;
    else
      *others = true;
  } while (next_block(plan, at) && !(*some && *others));
  return GT_OK;
}

/* AUTO's programs of the registers or the shared kernel: the variant
 * moving as vec4s every operand the whole views allow (`needs`), and the
 * plain one (variant: transposes), each only if some block runs it. */
static gt_status blocked_programs(gt_context *ctx, gt_kernel kernel, const product *whole,
                                  const gt_matmul_desc *d, bool rebind, const gt_block_plan *plan,
                                  uint32_t variant, uint32_t needs, const gt_program **plain,
                                  const gt_program **vec4) {
  bool shared = kernel == GT_KERNEL_MATMUL_BLOCKED_SHARED;
  uint32_t tile = shared ? SHARED_TILE : GT_BLOCKED_TILE, group = shared ? SHARED_GROUP : GT_BLOCKED_GROUP;
  bool any_plain, any_vec4;
  GT__TRY(split_blocks(ctx, whole, d, rebind, plan, block_runs_vec4, needs, &any_vec4, &any_plain));
  if (any_plain) GT__TRY(get_program(ctx, kernel, tile, group, group, variant, plain));
  if (any_vec4) GT__TRY(get_program(ctx, kernel, tile, group, group, variant | needs, vec4));
  return GT_OK;
}

/* The sizes of a checked product and the tiled strategies' group. */
typedef struct product_shape {
  uint32_t m, n, k, tile, group_rows;
} product_shape;

/* Every check of gt_matmul but the overlap of c with a and b. */
static gt_status check_operands(gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_matmul_desc *d,
                                product_shape *shape) {
  GT__TRY(gt__view_check_fields(a));
  GT__TRY(gt__view_check_fields(b));
  GT__TRY(gt__view_check_fields(c));
  /* a and b of one type; c of theirs, or GT_F32 with GT_F16 operands. */
  GT__CHECK(a.type == b.type && (c.type == a.type || (a.type == GT_F16 && c.type == GT_F32)),
            GT_ERR_SHAPE_MISMATCH);
  GT__CHECK(a.type == GT_F32 || a.type == GT_F16, GT_ERR_UNSUPPORTED);
  uint32_t m = d->trans_a ? a.cols : a.rows, k = d->trans_a ? a.rows : a.cols;
  uint32_t kb = d->trans_b ? b.cols : b.rows, n = d->trans_b ? b.rows : b.cols;
  if (k != kb || c.rows != m || c.cols != n) {
    gt__log(ctx, GT_LOG_ERROR, "matmul: op(a) %ux%u, op(b) %ux%u, c %ux%u do not agree", m, k, kb, n, c.rows,
            c.cols);
    return GT_ERR_SHAPE_MISMATCH;
  }
  gt_strategy strategy = d->strategy;
  uint32_t tile = d->tile ? d->tile : ctx->default_tile;
  uint32_t group_rows = gt__tiled_group_rows(ctx, tile, 2 * tile * tile * 4);
  bool tiled = strategy == GT_STRATEGY_TILED_EVEN || strategy == GT_STRATEGY_TILED_PAD ||
               strategy == GT_STRATEGY_TRUNCATE_B;
  if (tiled && group_rows == 0) {
    gt__log(ctx, GT_LOG_ERROR, "matmul: tile %u does not fit this device's limits", tile);
    return GT_ERR_UNSUPPORTED;
  }
  if (strategy == GT_STRATEGY_TILED_EVEN && (m % tile || n % tile || k % tile)) {
    gt__log(ctx, GT_LOG_ERROR, "matmul tiled_even: tile %u does not divide %ux%ux%u", tile, m, n, k);
    return GT_ERR_SHAPE_MISMATCH;
  }
  /* Inside their buffers before the overlap test, which walks rows. */
  GT__TRY(gt__view_check_buffer(ctx, a));
  GT__TRY(gt__view_check_buffer(ctx, b));
  GT__TRY(gt__view_check_buffer(ctx, c));
  if (c.type == GT_F16) GT__TRY(gt__need_atomics(ctx, "a matmul into a GT_F16 c"));
  *shape = (product_shape){m, n, k, tile, group_rows};
  return GT_OK;
}

/* A multiply ready to run: its operands (bound unless rebind: then each
 * block binds its own windows), its blocks and every program it runs. */
typedef struct multiply {
  product whole;
  bool rebind;
  gt_block_plan plan;
  const gt_program *main_prog, *simple, *vec4, *texels;
  uint32_t vec4_needs; /* the GT_VARIANT_VEC4_* a block must allow to run vec4 */
} multiply;

/* Binds the operands (layers > 1: over every layer, layer_stride apart),
 * plans the blocks and fetches the programs: after it, only dispatches
 * remain, so a build failure writes nothing. */
static gt_status prepare(gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_matmul_desc *d,
                         const product_shape *shape, uint32_t layers, const uint32_t layer_stride[3],
                         multiply *mu) {
  gt_strategy strategy = d->strategy;
  uint32_t m = shape->m, n = shape->n, k = shape->k, tile = shape->tile, group_rows = shape->group_rows;
  memset(mu, 0, sizeof *mu);
  product *whole = &mu->whole;
  whole->layers = layers;
  if (layers > 1) {
    /* The caller has checked the layers fit: blocks would rebind. */
    GT__TRY(gt__view_bind_layers(ctx, a, layers, layer_stride[0], &whole->a));
    GT__TRY(gt__view_bind_layers(ctx, b, layers, layer_stride[1], &whole->b));
    GT__TRY(gt__view_bind_layers(ctx, c, layers, layer_stride[2], &whole->c));
    memcpy(whole->layer_stride, layer_stride, sizeof whole->layer_stride);
  } else {
    mu->rebind = !gt__view_fits(ctx, a) || !gt__view_fits(ctx, b) || !gt__view_fits(ctx, c);
    if (!mu->rebind) {
      GT__TRY(gt__view_bind(ctx, a, &whole->a));
      GT__TRY(gt__view_bind(ctx, b, &whole->b));
      GT__TRY(gt__view_bind(ctx, c, &whole->c));
    } else {
      whole->a.view = a;
      whole->b.view = b;
      whole->c.view = c;
    }
  }
  bool rebind = mu->rebind;
  gt_block_plan *plan = &mu->plan;
  GT__TRY(plan_blocks(ctx, a, b, c, d, strategy == GT_STRATEGY_TILED_EVEN ? tile : 0, rebind, plan));
  whole->alpha = d->scale ? d->alpha : 1.0f;
  whole->beta = d->scale ? d->beta : 0.0f;

  /* a and b may share elements (both are only read), so restrict stays. */
  bool half = a.type == GT_F16;
  uint32_t variant = (d->trans_a ? GT_VARIANT_TRANS_A : 0) | (d->trans_b ? GT_VARIANT_TRANS_B : 0) |
                     (layers > 1 ? GT_VARIANT_BATCHED : 0) | (half ? GT_VARIANT_HALF : 0) |
                     (c.type == GT_F16 ? GT_VARIANT_HALF_C : 0);
  gt_matmul_kernel kernel;
  switch (strategy) {
  case GT_STRATEGY_SIMPLE:
    GT__TRY(get_program(ctx, GT_KERNEL_MATMUL_SIMPLE, 0, MATMUL_SIMPLE_GROUP_COLS, MATMUL_SIMPLE_GROUP_ROWS,
                        variant, &mu->main_prog));
    break;
  case GT_STRATEGY_TILED_EVEN:
  case GT_STRATEGY_TRUNCATE_B:
    GT__TRY(get_program(ctx, GT_KERNEL_MATMUL_TILED, tile, tile, group_rows, variant, &mu->main_prog));
    break;
  case GT_STRATEGY_TILED_PAD:
    GT__TRY(get_program(ctx, GT_KERNEL_MATMUL_TILED, tile, tile, group_rows, variant | GT_VARIANT_GUARDED,
                        &mu->main_prog));
    break;
  default: /* AUTO: the kernel chosen for the device at init, if c is big enough for it */
    kernel = gt_matmul_auto_kernel(ctx, m, n);
    /* Half-precision operands: the texels kernel fetches floats; what it
     * cannot take runs instead. */
    if (half && kernel == GT_MATMUL_KERNEL_TEXELS) kernel = texel_fallback(ctx, m, n);
    if (kernel == GT_MATMUL_KERNEL_TEXELS) {
      /* Fetched whatever the views, like the registers kernel's vec4
       * program (the soak's warm-up counts on it); the blocks it cannot
       * take run the fallback. */
      bool any_texels, any_other;
      GT__TRY(get_program(ctx, GT_KERNEL_MATMUL_TEXELS, TEXELS_TILE, TEXELS_GROUP, TEXELS_GROUP, variant,
                          &mu->texels));
      GT__TRY(split_blocks(ctx, whole, d, rebind, plan, block_runs_texels, 0, &any_texels, &any_other));
      if (!any_other) break;
      kernel = texel_fallback(ctx, m, n);
    }
    /* Operands whose rows are aligned move as vec4s (each block's own
     * views decide, block_vec4_operands), in registers and through shared
     * memory alike: fewer, wider accesses. Halves move as words (two or
     * three to a quad), never as vec4s. */
    mu->vec4_needs =
        vec4_operands(gt__view_rows_aligned(a) && !half, gt__view_rows_aligned(b) && !half,
                      gt__view_rows_aligned(c) && c.type == GT_F32, m, n, 0, k, d->trans_a, d->trans_b);
    if (kernel == GT_MATMUL_KERNEL_REGISTERS_K1) {
      /* One k per step: quads only across K. */
      variant |= GT_VARIANT_K1;
      mu->vec4_needs &= ~gt__vec4_along_k(variant);
    }
    if (kernel != GT_MATMUL_KERNEL_SHARED && ctx->device->scalar_loads) mu->vec4_needs = 0;
    GT__TRY(blocked_programs(
        ctx, kernel == GT_MATMUL_KERNEL_SHARED ? GT_KERNEL_MATMUL_BLOCKED_SHARED : GT_KERNEL_MATMUL_BLOCKED,
        whole, d, rebind, plan, variant, mu->vec4_needs, &mu->main_prog, &mu->vec4));
    break;
  }
  if (strategy == GT_STRATEGY_TRUNCATE_B)
    GT__TRY(get_program(ctx, GT_KERNEL_MATMUL_SIMPLE, 0, MATMUL_SIMPLE_GROUP_COLS, MATMUL_SIMPLE_GROUP_ROWS,
                        variant, &mu->simple));
  return GT_OK;
}

/* Runs a prepared multiply, block by block. */
static gt_status execute(gt_context *ctx, const gt_matmul_desc *d, const multiply *mu) {
  gt_status status = GT_OK;
  uint32_t at[3] = {0, 0, 0};
  do {
    product q;
    status = block_at(ctx, &mu->whole, d, mu->rebind, &mu->plan, at, &q);
    if (status != GT_OK) break;
    if (at[2] > 0) {
      /* ES 3.1, "Shader Memory Access Synchronization": this slice of K
       * adds to the c the last one wrote. */
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
      q.beta = 1.0f;
    }
    if (d->strategy == GT_STRATEGY_TRUNCATE_B)
      status = run_truncate_b(ctx, mu->main_prog, mu->simple, &q, d->trans_a, d->trans_b);
    else if (mu->texels && block_runs_texels(ctx, &q, d, 0))
      status = run_texels(ctx, mu->texels, &q);
    else
      status =
          run(ctx, mu->vec4 && block_runs_vec4(ctx, &q, d, mu->vec4_needs) ? mu->vec4 : mu->main_prog, &q);
  } while (status == GT_OK && next_block(&mu->plan, at));
  return status;
}

static const gt_matmul_desc no_options;

static gt_status begin(gt_context *ctx, const gt_matmul_desc *d) {
  return gt__operation_begin(ctx, d->strategy, d->tile,
                             GT__STRATEGIES_TILED | GT__STRATEGY(GT_STRATEGY_TRUNCATE_B));
}

gt_status gt_matmul(gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_matmul_desc *d) {
  if (d == NULL) d = &no_options;
  GT__TRY(begin(ctx, d));
  product_shape shape;
  GT__TRY(check_operands(ctx, a, b, c, d, &shape));
  if (gt_views_alias(c, a) || gt_views_alias(c, b)) {
    gt__log(ctx, GT_LOG_ERROR, "matmul: c overlaps an input");
    return GT_ERR_ALIASED;
  }
  static const uint32_t unmoved[3];
  multiply mu;
  gt_status status = prepare(ctx, a, b, c, d, &shape, 1, unmoved, &mu);
  if (status == GT_OK) status = execute(ctx, d, &mu);
  return gt__operation_end(ctx, status, GT__BUFFER_WRITE_BARRIERS, "gt_matmul");
}

/* The last product's view of an operand, its fields checked first: past
 * what an address can hold, OUT_OF_RANGE. Inside its buffer, it puts every
 * product's view inside (they lie between the first and the last). */
static gt_status last_view(gt_view v, size_t stride, uint32_t count, gt_view *out) {
  GT__TRY(gt__view_check_fields(v));
  uint64_t limit = (uint64_t)(SIZE_MAX / 4), end = gt__view_span(v) + v.offset;
  GT__CHECK(stride == 0 || count - 1 <= UINT64_MAX / stride, GT_ERR_OUT_OF_RANGE);
  uint64_t move = (uint64_t)(count - 1) * stride;
  GT__CHECK(move <= limit - end, GT_ERR_OUT_OF_RANGE);
  *out = v;
  out->offset += (size_t)move;
  return GT_OK;
}

/* Products one series steps over: the series of product r holds r, r +
 * step, r + 2 step, ..., so that step * stride is a multiple of 4 elements
 * for every operand, and each product's rows are aligned as product r's.
 * They then run the programs that product would run alone. */
static uint32_t series_step(const gt_batch *batch) {
  size_t all = batch->stride_a | batch->stride_b | batch->stride_c;
  return all % 4 == 0 ? 1 : all % 2 == 0 ? 2 : 4;
}

/* Product i's views of a, b and c (checked: no sum overflows). */
static void product_views(gt_view a, gt_view b, gt_view c, const uint64_t stride[3], uint64_t i,
                          gt_view v[3]) {
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

gt_status gt_matmul_batched(gt_context *ctx, gt_view a, gt_view b, gt_view c, gt_batch batch,
                            const gt_matmul_desc *d) {
  if (d == NULL) d = &no_options;
  GT__TRY(begin(ctx, d));
  GT__CHECK(batch.count > 0, GT_ERR_INVALID_ARGUMENT);
  uint32_t count = batch.count;
  /* Every product has the same shape: the last one's operands, checked
   * whole (their buffers queried once), stand for all. */
  gt_view last[3];
  GT__TRY(last_view(a, batch.stride_a, count, &last[0]));
  GT__TRY(last_view(b, batch.stride_b, count, &last[1]));
  GT__TRY(last_view(c, batch.stride_c, count, &last[2]));
  product_shape shape;
  GT__TRY(check_operands(ctx, last[0], last[1], last[2], d, &shape));
  if (gt__batches_alias(c, batch.stride_c, a, batch.stride_a, count, false) ||
      gt__batches_alias(c, batch.stride_c, b, batch.stride_b, count, false) ||
      gt__batches_alias(c, batch.stride_c, c, batch.stride_c, count, true)) {
    gt__log(ctx, GT_LOG_ERROR, "matmul batched: a product's c overlaps an input or another product's c");
    return GT_ERR_ALIASED;
  }

  /* Every product is prepared (programs fetched, blocks planned) before
   * the first dispatch, so a failure writes nothing: a series whose layers
   * fit runs as one, prepared once; any other runs product by product,
   * each prepared here and again when it runs. */
  const uint64_t stride[3] = {batch.stride_a, batch.stride_b, batch.stride_c};
  uint32_t step = gt__min_u32(series_step(&batch), count);
  bool texels = d->strategy == GT_STRATEGY_AUTO && a.type == GT_F32 &&
                gt_matmul_auto_kernel(ctx, shape.m, shape.n) == GT_MATMUL_KERNEL_TEXELS;
  static const uint32_t unmoved[3];
  multiply series[4];
  bool layered[4];
  gt_status status = GT_OK;
  for (uint32_t r = 0; r < step && status == GT_OK; r++) {
    gt_view v[3];
    product_views(a, b, c, stride, r, v);
    uint64_t layer_stride[3] = {step * stride[0], step * stride[1], step * stride[2]};
    uint32_t layers = (uint32_t)(((uint64_t)count - r + step - 1) / step);
    layered[r] = layers > 1 && layers_fit(ctx, v, layers, layer_stride, texels);
    uint32_t moved[3] = {0, 0, 0};
    if (layered[r])
      for (int i = 0; i < 3; i++)
        moved[i] = (uint32_t)layer_stride[i];
    status = prepare(ctx, v[0], v[1], v[2], d, &shape, layered[r] ? layers : 1, moved, &series[r]);
    for (uint64_t i = r + step; !layered[r] && i < count && status == GT_OK; i += step) {
      multiply one;
      product_views(a, b, c, stride, i, v);
      status = prepare(ctx, v[0], v[1], v[2], d, &shape, 1, unmoved, &one);
    }
  }
  for (uint32_t r = 0; r < step && status == GT_OK; r++) {
    status = execute(ctx, d, &series[r]);
    for (uint64_t i = r + step; !layered[r] && i < count && status == GT_OK; i += step) {
      multiply one;
      gt_view v[3];
      product_views(a, b, c, stride, i, v);
      status = prepare(ctx, v[0], v[1], v[2], d, &shape, 1, unmoved, &one);
      if (status == GT_OK) status = execute(ctx, d, &one);
    }
  }
  return gt__operation_end(ctx, status, GT__BUFFER_WRITE_BARRIERS, "gt_matmul_batched");
}
