/* Matrix multiply, c = alpha op(a) op(b) + beta c: validation, then the
 * plan (matmul_plan.c), the programs it names, and each block's
 * dispatches, the divide and conquer of TRUNCATE_B included. */
#include "gl/texels.h"
#include "ops/operation.h"
#include "plan/matmul_plan.h"

#include <math.h>
#include <string.h>

/* Runs prog over p in one dispatch. The caller keeps the K range within
 * GT_MATMUL_K_CHUNK and the work within the dispatch budget. */
static gt_status dispatch_product(gt_context *ctx, const gt_program *prog, const gt_product *p) {
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
  case GT_KERNEL_MATMUL_STREAM: /* columns of c: one a row of invocations (b^T), or 4 a column */
    gx = gt__div_up(n, (prog->key.variant & GT_VARIANT_TRANS_B) ? prog->key.group_rows : 4 * prog->key.group_cols);
    gy = gt__div_up(m, tile);
    break;
  case GT_KERNEL_MATMUL_BANDS: /* along c's columns where it has at most GT_MATMUL_BAND_MAX rows */
    gx = gt__div_up(m <= GT_MATMUL_BAND_MAX ? n : m, GT_MATMUL_BAND_ALONG);
    gy = 1;
    break;
  default: /* SIMPLE: an invocation a result */
    gx = gt__div_up(n, prog->key.group_cols);
    gy = gt__div_up(m, prog->key.group_rows);
    break;
  }
  /* An epilogue program declares the bias block. Without a bias (an
   * activation alone), a's range stands in for it, never read: panfrost
   * and v3d crash at dispatch on a declared block with nothing bound.
   * Slots 4 and 5 are a per-column requantisation's. */
  gt_bound_view views[6] = {p->a,           p->b,     p->c, p->epilogue.bias != GT_BIAS_NONE ? p->bias : p->a,
                            p->multipliers, p->shifts};
  uint32_t count = (prog->key.variant & GT_VARIANT_QUANT_COLUMNS) ? 6
                   : (prog->key.variant & GT_VARIANT_EPILOGUE)    ? 4
                                                                  : 3;
  const gt_epilogue *e = &p->epilogue;
  glProgramUniform2f(prog->name, prog->scale_loc, p->alpha, p->beta);
  glProgramUniform2ui(prog->name, prog->k_range_loc, p->k_begin, p->k_end);
  glProgramUniform2ui(prog->name, prog->epilogue_loc, p->finishes ? (GLuint)e->bias : 0u,
                      p->finishes ? (GLuint)e->act : 0u);
  /* RELU runs as a clamp to [0, +inf]. */
  bool relu = e->act == GT_ACTIVATION_RELU;
  glProgramUniform2f(prog->name, prog->clamp_loc, relu ? 0.0f : e->lo, relu ? INFINITY : e->hi);
  const gt_quantization *q = &p->quant;
  glProgramUniform2i(prog->name, prog->zero_points_loc, q->zero_a, q->zero_b);
  glProgramUniform3i(prog->name, prog->requantize_loc, q->multiplier, q->shift, q->zero_c);
  if (prog->key.variant & GT_VARIANT_QUANT) {
    /* 8-bit products clamp c's integers (their bounds were checked to
     * be whole int32 values): RELU at the value standing for 0 (zero_c
     * in an 8-bit c). */
    int32_t relu_lo = (prog->key.variant & GT_VARIANT_QUANT_C) ? q->zero_c : 0;
    glProgramUniform2i(prog->name, prog->clamp_int_loc, relu ? relu_lo : (int32_t)e->lo,
                       relu ? INT32_MAX : (int32_t)e->hi);
  }
  /* Bounded by FLOPs instead: blocks of at most max_dispatch_flops. */
  if (p->layers == 1) return gt__dispatch(ctx, prog, views, count, gx, gy, 0);
  /* As many layers per dispatch as the group-count limit and the FLOP
   * budget allow (a block alone is within the budget). */
  uint64_t layer_flops = 2ull * m * n * (p->k_end - p->k_begin);
  uint64_t most = layer_flops ? ctx->limits.max_dispatch_flops / layer_flops : UINT64_MAX;
  uint32_t step = most < ctx->limits.max_group_count[2] ? (uint32_t)most : ctx->limits.max_group_count[2];
  if (step == 0) step = 1;
  for (uint32_t first = 0; first < p->layers; first += step) {
    glProgramUniform4ui(prog->name, prog->batch_loc, p->layer_stride[0], p->layer_stride[1],
                        p->layer_stride[2], first);
    GT__TRY(gt__dispatch_layers(ctx, prog, views, count, gx, gy, gt__min_u32(step, p->layers - first)));
  }
  return GT_OK;
}

/* The texel format prog fetches a and b in through texture buffers, or 0
 * where it reads them from storage blocks. */
static GLenum texel_format(const gt_program *prog) {
  if (prog->key.kernel == GT_KERNEL_MATMUL_TEXELS) return GL_RGBA32F;
  return (prog->key.variant & GT_VARIANT_HALF_TEXELS) ? GL_R16F : 0;
}

/* dispatch_product of key's program, with a and b as the context's
 * texture buffers where it fetches them so, and those texture units as
 * the caller had them after. */
static gt_status run(gt_context *ctx, const gt_program_key *key, const gt_product *p) {
  const gt_program *prog;
  GT__TRY(gt__program_get(ctx, key, &prog));
  GLenum format = texel_format(prog);
  if (!format) return dispatch_product(ctx, prog, p);
  gt_texel_units saved;
  gt__texels_bind(ctx, &p->a, &p->b, format, &saved);
  gt_status status = dispatch_product(ctx, prog, p);
  gt__texels_unbind(ctx, &saved);
  return status;
}

/* Seed 000, option B, in three dimensions: TILED_EVEN on the main block
 * (whole tiles of M, N and K), SIMPLE adding the leftover slice of K to
 * it, and SIMPLE on the bottom and right bands of c over all of K. */
static gt_status run_truncate_b(gt_context *ctx, const gt_program_key *tiled, const gt_program_key *simple,
                                const gt_product *p, bool trans_a, bool trans_b) {
  uint32_t m = p->c.view.rows, n = p->c.view.cols, k = p->k_end, t = tiled->tile;
  uint32_t mt = m / t * t, nt = n / t * t, kt = k / t * t;
  gt_product parts[3];
  int count = gt__product_cut(p, trans_a, trans_b, mt, nt, parts);
  gt_product *main = &parts[0];
  if (mt && nt) {
    if (kt) {
      main->k_end = kt;
      main->finishes = p->finishes && kt == k; /* else the leftover's dispatch finishes */
      GT__TRY(run(ctx, tiled, main));
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
      main->beta = 1.0f; /* the K leftover adds to what the tiles made */
      main->finishes = p->finishes;
    }
    if (kt < k) {
      main->k_begin = kt;
      main->k_end = k;
      GT__TRY(run(ctx, simple, main));
    }
  }
  for (int i = 1; i < count; i++)
    GT__TRY(run(ctx, simple, &parts[i]));
  return GT_OK;
}

/* Runs block q of a planned multiply by its route. */
static gt_status run_block(gt_context *ctx, const gt_matmul_choices *p, const gt_product *q) {
  const gt_program_key *keys = p->op.keys;
  switch (gt__matmul_route(ctx, p, q)) {
  case GT_MATMUL_ROUTE_MAIN_AND_BANDS:
    return run_truncate_b(ctx, &keys[GT_MATMUL_MAIN], &keys[GT_MATMUL_SIMPLE], q, p->trans_a, p->trans_b);
  case GT_MATMUL_ROUTE_BLOCKS_AND_BANDS: {
    /* The parts write apart: no barrier between them. */
    gt_product parts[3];
    int count = gt__matmul_band_parts(p, q, parts);
    GT__TRY(run_block(ctx, p, &parts[0]));
    for (int i = 1; i < count; i++)
      GT__TRY(run(ctx, &keys[GT_MATMUL_BANDS], &parts[i]));
    return GT_OK;
  }
  case GT_MATMUL_ROUTE_INTERIOR: {
    /* The parts write apart: no barrier between them. */
    gt_product parts[3];
    int count = gt__matmul_interior_parts(q, p->trans_a, p->trans_b, parts);
    GT__TRY(run(ctx, &keys[GT_MATMUL_INTERIOR], &parts[0]));
    for (int i = 1; i < count; i++)
      GT__TRY(run_block(ctx, p, &parts[i]));
    return GT_OK;
  }
  case GT_MATMUL_ROUTE_TEXELS: return run(ctx, &keys[GT_MATMUL_TEXELS], q);
  case GT_MATMUL_ROUTE_VEC4: return run(ctx, &keys[GT_MATMUL_VEC4], q);
  default: return run(ctx, &keys[GT_MATMUL_MAIN], q);
  }
}

/* Runs a planned multiply whose programs are built, block by block (K
 * innermost), each by its route. */
static gt_status execute(gt_context *ctx, const gt_matmul_choices *p) {
  uint32_t at[3] = {0, 0, 0};
  do {
    gt_product q;
    GT__TRY(gt__matmul_block_at(ctx, p, at, &q));
    if (at[2] > 0) {
      /* ES 3.1, "Shader Memory Access Synchronization": this slice of K
       * adds to the c the last one wrote. */
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
      q.beta = 1.0f;
    }
    GT__TRY(run_block(ctx, p, &q));
  } while (gt__block_next(&p->op.blocks, at));
  return GT_OK;
}

static const gt_matmul_desc no_options;
static const uint32_t unmoved[3];
static const char needs_atomics[] = "a matmul into a GT_F16 or 8-bit c";

static gt_status begin(gt_context *ctx, const gt_matmul_desc *d) {
  return gt__operation_begin(ctx, d->strategy, d->tile,
                             GT__STRATEGIES_TILED | GT__STRATEGY(GT_STRATEGY_TRUNCATE_B));
}

/* The views every product of d reads besides a and b: the bias and a
 * per-column requantisation's, those given. Returns how many. */
static int side_views(const gt_matmul_desc *d, gt_view out[3]) {
  const gt_view all[3] = {d->bias, d->quant.multipliers, d->quant.shifts};
  int n = 0;
  for (int i = 0; i < 3; i++)
    if (all[i].buffer) out[n++] = all[i];
  return n;
}

/* The checks that need the buffers: every view inside its buffer (before
 * the overlap tests, which walk rows). */
static gt_status check_buffers(gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_matmul_desc *d) {
  GT__TRY(gt__view_check_buffer(ctx, a));
  GT__TRY(gt__view_check_buffer(ctx, b));
  GT__TRY(gt__view_check_buffer(ctx, c));
  gt_view sides[3];
  for (int i = 0, n = side_views(d, sides); i < n; i++)
    GT__TRY(gt__view_check_buffer(ctx, sides[i]));
  return GT_OK;
}

static gt_status plan(gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_matmul_desc *d, uint32_t layers,
                      const uint32_t layer_stride[3], gt_matmul_choices *p) {
  GT__TRY(gt__plan_taken(ctx, "matmul", gt__matmul_choose(ctx, a, b, c, d, layers, layer_stride, p), &p->op));
  /* A c the device cannot write is refused before the views are compared:
   * the product could not run whatever they overlap. */
  return p->op.needs_atomics ? gt__need_atomics(ctx, needs_atomics) : GT_OK;
}

gt_status gt_matmul(gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_matmul_desc *d) {
  if (d == NULL) d = &no_options;
  GT__TRY(begin(ctx, d));
  GT__TRY(gt__matmul_check(ctx, a, b, c, d));
  gt_matmul_choices p;
  GT__TRY(plan(ctx, a, b, c, d, 1, unmoved, &p));
  GT__TRY(check_buffers(ctx, a, b, c, d));
  gt_view sides[3];
  bool overlap = gt_views_alias(c, a) || gt_views_alias(c, b);
  for (int i = 0, n = side_views(d, sides); i < n; i++)
    overlap = overlap || gt_views_alias(c, sides[i]);
  if (overlap) {
    gt__log(ctx, GT_LOG_ERROR, "matmul: c overlaps an input");
    return GT_ERR_ALIASED;
  }
  GT__TRY(gt__plan_build(ctx, &p.op, needs_atomics));
  return gt__operation_end(ctx, execute(ctx, &p), GT__BUFFER_WRITE_BARRIERS, "gt_matmul");
}

/* The last product's view of an operand, its fields checked first: past
 * what an address can hold, OUT_OF_RANGE. Inside its buffer, it puts every
 * product's view inside (they lie between the first and the last). */
static gt_status last_view(gt_view v, size_t stride, uint32_t count, gt_view *out) {
  GT__TRY(gt__view_check_fields(v));
  /* The element limit of gt__view_check_fields, by the element's size. */
  uint64_t limit = (uint64_t)(SIZE_MAX / 4) * 4 / gt_type_size(v.type), end = gt__view_span(v) + v.offset;
  GT__CHECK(stride == 0 || count - 1 <= UINT64_MAX / stride, GT_ERR_OUT_OF_RANGE);
  uint64_t move = (uint64_t)(count - 1) * stride;
  GT__CHECK(move <= limit - end, GT_ERR_OUT_OF_RANGE);
  *out = v;
  out->offset += (size_t)move;
  return GT_OK;
}

/* Product i of a batch, planned alone. */
static gt_status plan_product(gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_batch *batch,
                              uint64_t i, const gt_matmul_desc *d, gt_matmul_choices *p) {
  gt_view v[3];
  gt__matmul_product_views(a, b, c, batch, i, v);
  return plan(ctx, v[0], v[1], v[2], d, 1, unmoved, p);
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
  GT__TRY(gt__matmul_check(ctx, last[0], last[1], last[2], d));
  if (gt__matmul_strategy_tiled(d->strategy)) {
    gt__log(ctx, GT_LOG_ERROR, "matmul batched: %s runs one product at a time, not a batch",
            gt_strategy_name(d->strategy));
    return GT_ERR_UNSUPPORTED;
  }

  /* The plan: the series, a series whose layers fit one binding each
   * planned as layers of one dispatch, any other product by product. Every
   * product is planned before the first dispatch, so a refusal writes
   * nothing; the products of a series share their rows' alignment and so
   * their programs, built once, from the series' plan. */
  gt_matmul_series series;
  gt__matmul_series(ctx, a, b, c, &batch, d, &series);
  gt_matmul_choices plans[4];
  for (uint32_t r = 0; r < series.count; r++) {
    gt_view v[3];
    gt__matmul_product_views(a, b, c, &batch, r, v);
    bool layered = series.layered[r];
    GT__TRY(plan(ctx, v[0], v[1], v[2], d, layered ? series.products[r] : 1,
                 layered ? series.layer_stride : unmoved, &plans[r]));
  }
  GT__TRY(check_buffers(ctx, last[0], last[1], last[2], d));
  gt_view sides[3];
  bool overlap = gt__batches_alias(c, batch.stride_c, a, batch.stride_a, count, false) ||
                 gt__batches_alias(c, batch.stride_c, b, batch.stride_b, count, false) ||
                 gt__batches_alias(c, batch.stride_c, c, batch.stride_c, count, true);
  for (int i = 0, n = side_views(d, sides); i < n; i++)
    overlap = overlap || gt__batches_alias(c, batch.stride_c, sides[i], 0, count, false);
  if (overlap) {
    gt__log(ctx, GT_LOG_ERROR, "matmul batched: a product's c overlaps an input or another product's c");
    return GT_ERR_ALIASED;
  }
  /* The other products of a series run one by one, each planned here
   * first; only after the checks above, which refuse a batch as a whole
   * at once whatever its count. */
  for (uint32_t r = 0; r < series.count; r++)
    for (uint64_t i = r + series.count; !series.layered[r] && i < count; i += series.count) {
      gt_matmul_choices one;
      GT__TRY(plan_product(ctx, a, b, c, &batch, i, d, &one));
    }
  for (uint32_t r = 0; r < series.count; r++)
    GT__TRY(gt__plan_build(ctx, &plans[r].op, needs_atomics));

  gt_status status = GT_OK;
  for (uint32_t r = 0; r < series.count && status == GT_OK; r++) {
    status = execute(ctx, &plans[r]);
    for (uint64_t i = r + series.count; !series.layered[r] && i < count && status == GT_OK; i += series.count) {
      gt_matmul_choices one;
      status = plan_product(ctx, a, b, c, &batch, i, d, &one);
      if (status == GT_OK) status = execute(ctx, &one);
    }
  }
  return gt__operation_end(ctx, status, GT__BUFFER_WRITE_BARRIERS, "gt_matmul_batched");
}
