/* The plan of a matrix multiply: the kernel a context's AUTO runs, and
 * for each product its operands' bindings, its blocks (K slices, work per
 * dispatch, storage blocks), the programs it runs and which block runs
 * which, with the reason for each choice. No GL here, so the host tests
 * walk it over every device entry and the tools ask it what AUTO will do
 * (gt_matmul_plan). Its checks, the context's kernel, the blocks and
 * their routes and batches live beside it: matmul_check.c,
 * matmul_kernel.c, matmul_blocks.c, matmul_series.c. */
#include "plan/matmul_plan.h"
#include "plan/matmul_derived.h"
#include "plan/plan.h"
#include "plan/texel_fit.h"

#include <stdio.h>
#include <string.h>


static void because(gt_matmul_choices *p, const char *why) { gt__plan_because(&p->op, why); }

/* Blocks of (m, n, k): each dispatch sums at most gt__matmul_k_chunk of K
 * (Mesa stops a shader's loops after 65,535 iterations in all) and does
 * at most max_dispatch_flops of work (a mobile GPU's watchdog), and when
 * a view is longer than one storage block, each block's windows fit one.
 * even_tile: TILED_EVEN's tile, which every block side must keep. */
static gt_status plan_blocks(const gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_matmul_desc *d,
                             uint32_t even_tile, gt_matmul_choices *p) {
  gt_block_plan *plan = &p->op.blocks;
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
  if (gt__quantized(c.type)) plan->min[2] = p->k;
  plan->max_work = ctx->limits.max_dispatch_flops;
  plan->max_elements = UINT32_MAX;
  if (p->op.in_blocks) {
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
    snprintf(p->op.refusal, sizeof p->op.refusal, "no block of %ux%ux%u fits the device's storage blocks", p->m,
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
    if (s != GT_OK) snprintf(p->op.refusal, sizeof p->op.refusal, "%u layers do not fit one binding", layers);
    memcpy(whole->layer_stride, layer_stride, sizeof whole->layer_stride);
    return s;
  }
  p->op.in_blocks = !gt__view_fits(ctx, a) || !gt__view_fits(ctx, b) || !gt__view_fits(ctx, c);
  whole->a.view = a;
  whole->b.view = b;
  whole->c.view = c;
  if (p->op.in_blocks) {
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
  whole->epilogue = (gt_epilogue){(gt_bias_kind)gt__matmul_bias_kind(d, p->m, p->n), d->act, d->act_lo, d->act_hi};
  gt_status s = GT_OK;
  if (whole->epilogue.bias != GT_BIAS_NONE) s = gt__view_bind(ctx, d->bias, &whole->bias);
  whole->quant_columns = d->quant.multipliers.buffer != 0;
  if (s == GT_OK && whole->quant_columns) s = gt__view_bind(ctx, d->quant.multipliers, &whole->multipliers);
  if (s == GT_OK && whole->quant_columns) s = gt__view_bind(ctx, d->quant.shifts, &whole->shifts);
  if (s != GT_OK)
    snprintf(p->op.refusal, sizeof p->op.refusal, "a bias or requantisation longer than a storage block");
  return s;
}

/* Whether a shared-kernel program stepping 16 k at a time (WORD_STEPS,
 * the only one that moves quads along K as words) would multiply-add 8 or
 * more k of zeros past K in its last step while that step is a large share
 * of the loop: K % 16 in 1 .. 8 and K below GT_MATMUL_SHORT_K. At K = 8 it
 * does twice the arithmetic of 8 k a step. The 8-k program loads single
 * halves along K, which costs more per k: on the H200 at 8192 x 8192 x K
 * it was faster at K = 8, 24 and 40 in every layout it changes, and
 * slower from K = 72 (docs/notes/2026-12-nvidia-matmul-f16.md, "Short K:
 * 8 k a step where 16 would pad"). */
static bool short_k_pads_word_steps(uint32_t k) {
  uint32_t rest = k % 16;
  return rest != 0 && rest <= 8 && k < GT_MATMUL_SHORT_K;
}

static gt_program_key matmul_key(gt_kernel kernel, uint32_t tile, uint32_t group_cols, uint32_t group_rows,
                                 uint32_t variant) {
  return (gt_program_key){kernel, tile, group_cols, group_rows, variant, GT_F32, 0};
}

/* Only the programs some block runs are built. */
static gt_status routes_taken(const gt_context *ctx, gt_matmul_choices *p) {
  memcpy(p->candidates, p->op.keys, sizeof p->candidates);
  bool taken[GT_MATMUL_SLOTS];
  GT__TRY(gt__matmul_routes_taken(ctx, p, taken));
  if (!taken[GT_MATMUL_MAIN]) memset(&p->op.keys[GT_MATMUL_MAIN], 0, sizeof p->op.keys[0]);
  if (!taken[GT_MATMUL_VEC4]) memset(&p->op.keys[GT_MATMUL_VEC4], 0, sizeof p->op.keys[0]);
  if (!taken[GT_MATMUL_BANDS]) memset(&p->op.keys[GT_MATMUL_BANDS], 0, sizeof p->op.keys[0]);
  if (!taken[GT_MATMUL_INTERIOR]) memset(&p->op.keys[GT_MATMUL_INTERIOR], 0, sizeof p->op.keys[0]);
  return GT_OK;
}

/* AUTO's kernels: the context's, by the size of c and the operands' type;
 * the texels kernel (its key) where the blocks allow it, and p->kernel,
 * the registers or shared kernel, elsewhere. Chosen before the blocks:
 * the shared kernel sums longer K slices (gt__matmul_k_chunk). */
static void choose_auto_kernel(const gt_context *ctx, gt_view a, uint32_t variant, gt_matmul_choices *p) {
  uint32_t m = p->m, n = p->n;
  /* A c of a few rows is one pass over b, for f32 and f16 operands with
   * sums in f32 (the split sums are added in another order than one
   * invocation's, which half sums would round apart; 8-bit operands stay
   * on the registers kernel, whose programs of every integer pairing the
   * program list could not hold twice). Floats stay on the texels kernel
   * where the context runs it: on llvmpipe its texel fetches took 35-40 ms
   * at 8 x 2048 x 2048 where the stream kernel's loads took 73-200
   * (docs/notes/2026-12-stream.md). */
  bool texel_floats = gt_matmul_auto_kernel(ctx, m, n) == GT_MATMUL_KERNEL_TEXELS && a.type == GT_F32;
  if (m <= ctx->device->stream_rows && !(variant & (GT_VARIANT_HALF_SUMS | GT_VARIANT_QUANT)) && !texel_floats) {
    p->stream = true;
    p->kernel = ctx->matmul_kernel;
    because(p, "c of few rows (the entry's stream_rows): one pass over b");
    return;
  }
  gt_matmul_kernel kernel = ctx->matmul_kernel, entry = ctx->device->matmul_kernel;
  because(p, kernel == entry                    ? "device table"
             : entry == GT_MATMUL_KERNEL_SHARED ? "no shared kernel in these limits"
             : entry == GT_MATMUL_KERNEL_TEXELS ? "no texture buffers"
                                                : "context desc");
  if (gt_matmul_auto_kernel(ctx, m, n) != kernel) {
    kernel = gt_matmul_auto_kernel(ctx, m, n);
    because(p, "c under shared_min_blocks: registers");
  }
  bool half = a.type == GT_F16, bytes = gt__quantized(a.type);
  if ((half || bytes) && kernel == GT_MATMUL_KERNEL_TEXELS) {
    /* The texels kernel fetches floats. */
    kernel = gt__matmul_texel_fallback(ctx, m, n);
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
    p->op.keys[GT_MATMUL_TEXELS] =
        matmul_key(GT_KERNEL_MATMUL_TEXELS, GT_MATMUL_TEXELS_TILE, GT_MATMUL_TEXELS_GROUP, GT_MATMUL_TEXELS_GROUP, variant);
    kernel = gt__matmul_texel_fallback(ctx, m, n);
  }
  p->kernel = kernel;
}

/* The stream kernel's programs: rows of c by the batch (1, or up to
 * GT_MATMUL_STREAM_ROWS), b's quads as single loads where its views allow
 * (a's too, along K: beside b^T's, or beside b's for one row; the derived
 * rule says why), as the registers kernel's rule for quads says, unless
 * the device reads single elements faster. */
static void choose_stream(const gt_context *ctx, gt_view a, gt_view b, uint32_t variant, gt_matmul_choices *p) {
  uint32_t rows = p->m == 1 ? 1 : GT_MATMUL_STREAM_ROWS;
  uint32_t cols = p->trans_b ? GT_MATMUL_STREAM_LANES : GT_MATMUL_STREAM_QUADS;
  uint32_t group_rows = p->trans_b ? GT_MATMUL_STREAM_COLUMNS : GT_MATMUL_STREAM_SLICES;
  uint32_t needs = gt__matmul_vec4_operands(gt__view_rows_aligned(a), gt__view_rows_aligned(b), false, p->m, p->n,
                                            0, p->k, p->trans_a, p->trans_b);
  if (p->trans_a || (p->trans_b ? !(needs & GT_VARIANT_VEC4_B) : rows > 1)) needs &= ~GT_VARIANT_VEC4_A;
  if (ctx->device->scalar_loads && needs) {
    needs = 0;
    because(p, "scalar_loads");
  }
  p->vec4_needs = needs;
  p->op.keys[GT_MATMUL_MAIN] = matmul_key(GT_KERNEL_MATMUL_STREAM, rows, cols, group_rows, variant);
  if (needs) p->op.keys[GT_MATMUL_VEC4] = matmul_key(GT_KERNEL_MATMUL_STREAM, rows, cols, group_rows, variant | needs);
}

/* AUTO's programs for the kernels chosen, moving as vec4s what the views
 * allow. */
static gt_status choose_auto(const gt_context *ctx, gt_view a, gt_view b, gt_view c, uint32_t variant,
                             gt_matmul_choices *p) {
  uint32_t m = p->m, n = p->n;
  if (p->stream) {
    choose_stream(ctx, a, b, variant, p);
    return routes_taken(ctx, p);
  }
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
      gt__matmul_vec4_operands(gt__view_rows_aligned(a) && quad_loads, gt__view_rows_aligned(b) && quad_loads,
                    gt__view_rows_aligned(c) && c_quads, m, n, 0, p->k, p->trans_a, p->trans_b);
  if (kernel == GT_MATMUL_KERNEL_REGISTERS_K1) variant |= GT_VARIANT_K1;
  /* Halves as R16F texels in the registers kernel where the entry says so
   * and both operands' bindings can be texture buffers of halves: every
   * block reads a section of them (none where blocks bind their own). */
  if (half && kernel != GT_MATMUL_KERNEL_SHARED && ctx->device->half_texels && !p->op.in_blocks &&
      gt__texels_range_fits(ctx, &p->whole.a, 2) && gt__texels_range_fits(ctx, &p->whole.b, 2)) {
    variant |= GT_VARIANT_HALF_TEXELS;
    because(p, "half a and b as texels");
  }
  /* One k per step, and the shared kernel's quads along K (4 rows of the
   * stored matrix): vec4s only across K; but halves with b transposed
   * (and a b into a half c) move along K as words of 2 k, 16 k a step,
   * where the operands' rows along K and the K slice allow, and those
   * across K too or not (GT_VARIANT_WORDS_UNALIGNED: a^T b^T at M = 4099
   * on the H200 faster than 8 k a step of single halves; words from rows
   * along K at any alignment were slower: docs/notes/2026-12-nvidia-matmul-f16.md,
   * "Words of 2 k where rows start inside a word"). */
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
   * the uneven halves faster in a b and a^T b^T (docs/notes/2026-12-nvidia-matmul-f16.md,
   * "Halves across K by pairs, tried; halves 16 bits at a time"). */
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
  uint32_t tile = shared ? GT_MATMUL_SHARED_TILE : GT_BLOCKED_TILE, group = shared ? GT_MATMUL_SHARED_GROUP : GT_BLOCKED_GROUP;
  p->op.keys[GT_MATMUL_MAIN] = matmul_key(k, tile, group, group, variant | storage_main);
  /* A half c's uvec2 stores pack with no test where the device converts
   * as IEEE does; elsewhere (words beside atomics) the plain pack ran the
   * uneven shapes slower on the H200 (docs/notes/2026-12-nvidia-matmul-f16.md,
   * "A half c packed with no test where the device rounds as IEEE"). */
  uint32_t pack = shared && (variant & GT_VARIANT_HALF_C) && (needs & GT_VARIANT_VEC4_C) &&
                          ctx->device->pack_half_ieee
                      ? GT_VARIANT_PACK_HALF_IEEE
                      : 0;
  if (needs)
    p->op.keys[GT_MATMUL_VEC4] =
        matmul_key(k, tile, group, group, variant | needs | unaligned | pack | storage_vec4);
  /* Thin bands past the shared kernel's whole blocks: the bands kernel,
   * halves 16 bits at a time where the context has them (on the H200 at
   * 4099 x 4097 x 4101 the half bands then ran beside the whole blocks,
   * as the float ones do: docs/notes/2026-12-nvidia-matmul-f16.md, "The
   * half bands 16 bits at a time; a b^T's halves along K into a half c"). */
  if (shared) {
    uint32_t storage_bands = storage && gt__bands_half_storage(variant) ? GT_VARIANT_HALF_STORAGE : 0;
    p->op.keys[GT_MATMUL_BANDS] = matmul_key(GT_KERNEL_MATMUL_BANDS, 0, GT_MATMUL_BAND_ALONG, GT_MATMUL_BAND_SLICES,
                                          variant | storage_bands);
  }
  /* Whole tiles of c unguarded, two k a pass, where the entry says so for
   * a's and b's type: a b, neither transposed, into an f32 c whose rows
   * take vec4s, the sums in float; halves as words, b's rows as uvec2s
   * (GT_VARIANT_VEC4_B), where the blocks' views allow (block_runs_interior). */
  uint32_t interior_excludes = GT_VARIANT_TRANS_A | GT_VARIANT_TRANS_B | GT_VARIANT_QUANT |
                               GT_VARIANT_HALF_SUMS | GT_VARIANT_HALF_ROUNDED | GT_VARIANT_HALF_TEXELS;
  if ((ctx->device->matmul_interior & (1u << a.type)) && kernel == GT_MATMUL_KERNEL_REGISTERS_K1 &&
      (needs & GT_VARIANT_VEC4_C) && !(variant & interior_excludes))
    p->op.keys[GT_MATMUL_INTERIOR] =
        matmul_key(k, tile, group, group,
                   variant | GT_VARIANT_VEC4_C | GT_VARIANT_INTERIOR | (half ? GT_VARIANT_VEC4_B : 0));
  return routes_taken(ctx, p);
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
  if (gt__quantized(a.type)) return "8-bit operands";
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
  p->op.needs_atomics = c.type == GT_F16 || gt__quantized(c.type);
  gt__matmul_extent(a, b, d, &p->m, &p->n, &p->k);
  uint32_t tile = d->tile ? d->tile : ctx->default_tile;
  uint32_t group_rows = gt__tiled_group_rows(ctx, tile, 2 * tile * tile * 4);
  bool tiled = gt__matmul_strategy_tiled(strategy);
  const char *outside = tiled ? tiled_outside(a, d, layers) : NULL;
  if (outside != NULL) {
    snprintf(p->op.refusal, sizeof p->op.refusal, "%s runs f32 or f16 a and b, sums in f32, one product: not %s",
             gt_strategy_name(strategy), outside);
    return GT_ERR_UNSUPPORTED;
  }
  if (tiled && group_rows == 0) {
    snprintf(p->op.refusal, sizeof p->op.refusal, "tile %u does not fit this device's limits", tile);
    return GT_ERR_UNSUPPORTED;
  }
  if (strategy == GT_STRATEGY_TILED_EVEN && (p->m % tile || p->n % tile || p->k % tile)) {
    snprintf(p->op.refusal, sizeof p->op.refusal, "tiled_even: tile %u does not divide %ux%ux%u", tile, p->m, p->n,
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
                     (gt__quantized(a.type) ? GT_VARIANT_QUANT : 0) | (a.type == GT_I8 ? GT_VARIANT_SIGNED : 0) |
                     (gt__quantized(c.type) ? GT_VARIANT_QUANT_C : 0) |
                     (p->whole.quant_columns ? GT_VARIANT_QUANT_COLUMNS : 0) |
                     (half_sums ? GT_VARIANT_HALF_SUMS : 0) | (rounded ? GT_VARIANT_HALF_ROUNDED : 0) |
                     (rounded && ctx->device->half_rounded_by_scaling ? GT_VARIANT_HALF_SCALED : 0);
  gt_program_key simple =
      matmul_key(GT_KERNEL_MATMUL_SIMPLE, 0, GT_MATMUL_SIMPLE_GROUP_COLS, GT_MATMUL_SIMPLE_GROUP_ROWS, variant);
  if (strategy == GT_STRATEGY_AUTO) choose_auto_kernel(ctx, a, variant, p);
  GT__TRY(plan_blocks(ctx, a, b, c, d, strategy == GT_STRATEGY_TILED_EVEN ? tile : 0, p));
  switch (strategy) {
  case GT_STRATEGY_SIMPLE: p->op.keys[GT_MATMUL_MAIN] = simple; break;
  case GT_STRATEGY_TRUNCATE_B: p->op.keys[GT_MATMUL_SIMPLE] = simple; /* fall through */
  case GT_STRATEGY_TILED_EVEN:
    p->op.keys[GT_MATMUL_MAIN] = matmul_key(GT_KERNEL_MATMUL_TILED, tile, tile, group_rows, variant);
    break;
  case GT_STRATEGY_TILED_PAD:
    p->op.keys[GT_MATMUL_MAIN] =
        matmul_key(GT_KERNEL_MATMUL_TILED, tile, tile, group_rows, variant | GT_VARIANT_GUARDED);
    break;
  default: return choose_auto(ctx, a, b, c, variant, p);
  }
  because(p, "caller's desc");
  memcpy(p->candidates, p->op.keys, sizeof p->candidates);
  return GT_OK;
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
  case GT_KERNEL_MATMUL_STREAM: snprintf(out, size, "stream %u%s", key->tile, operands[vec4]); break;
  default:
    snprintf(out, size, "%s %u%s%s%s", (v & GT_VARIANT_K1) ? "registers_k1" : "registers", key->tile,
             operands[vec4], (v & GT_VARIANT_HALF_TEXELS) ? " texels a,b" : "",
             (v & GT_VARIANT_INTERIOR) ? " interior" : "");
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
    if (p.op.keys[i].group_cols) plan.tile = p.op.keys[i].tile;
  /* The programs in the order of their slots: the texels kernel first. */
  static const int order[] = {GT_MATMUL_TEXELS, GT_MATMUL_INTERIOR, GT_MATMUL_VEC4, GT_MATMUL_MAIN,
                              GT_MATMUL_BANDS};
  size_t used = 0;
  if (p.strategy == GT_STRATEGY_TRUNCATE_B) {
    used = (size_t)snprintf(plan.kernels, sizeof plan.kernels, "tiled_even %u + simple bands", p.tile);
  } else {
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
      const gt_program_key *key = &p.op.keys[order[i]];
      if (!key->group_cols || used >= sizeof plan.kernels) continue;
      char name[48];
      name_key(key, name, sizeof name);
      used +=
          (size_t)snprintf(plan.kernels + used, sizeof plan.kernels - used, "%s%s", used ? " + " : "", name);
    }
  }
  const uint32_t *block = p.op.blocks.block, *extent = p.op.blocks.extent;
  if (used < sizeof plan.kernels && (block[0] < extent[0] || block[1] < extent[1] || block[2] < extent[2]))
    snprintf(plan.kernels + used, sizeof plan.kernels - used, ", blocks of %ux%ux%u", block[0], block[1],
             block[2]);
  snprintf(plan.reason, sizeof plan.reason, "%s", p.op.reason);
  *out = plan;
  return GT_OK;
}

