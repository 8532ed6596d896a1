/* The matmul planner (src/plan/matmul_plan.c), on the host: over every
 * device-table entry, three sets of limits (a desktop GPU with texture
 * buffers, the ES 3.1 minimums, and storage blocks small enough to cut
 * views into blocks), every strategy and tile, both transposes, f32 and
 * half operands, one product or layers of them, and generated views, the
 * plan keeps its invariants: every program it names is one the library
 * can build and fits the device, the blocks cover the product exactly
 * once within the K chunk and the work per dispatch, each block binds and
 * has its route's program, a vec4 or texels route only where the block's
 * bindings allow it, and no program is named that no block runs (where
 * the planner walks every block). Then the
 * context's kernel per entry and a table of expected plans for named
 * cases. */
#include "check.h"
#include "gl/texels.h"
#include "harness.h"
#include "plan/matmul_derived.h"
#include "plan/matmul_plan.h"
#include "plan_contexts.h"

#include <stdio.h>
#include <string.h>

static uint32_t rng = 2025;

static bool has(const gt_matmul_choices *p, int slot) { return p->op.keys[slot].group_cols != 0; }

static bool rows_on_quads(const gt_bound_view *v) {
  return v->elem_offset % 4 == 0 && v->view.pitch % 4 == 0;
}

/* What a route asks of block q, checked from the bindings themselves. */
static void check_route(const gt_context *ctx, const gt_matmul_choices *p, const gt_product *q,
                        gt_matmul_route r, bool used[GT_MATMUL_SLOTS]) {
  uint32_t m = q->c.view.rows, n = q->c.view.cols;
  switch (r) {
  case GT_MATMUL_ROUTE_MAIN_AND_BANDS:
    CHECK(has(p, GT_MATMUL_MAIN) && has(p, GT_MATMUL_SIMPLE));
    used[GT_MATMUL_MAIN] = used[GT_MATMUL_SIMPLE] = true;
    break;
  case GT_MATMUL_ROUTE_TEXELS:
    CHECK(has(p, GT_MATMUL_TEXELS));
    used[GT_MATMUL_TEXELS] = true;
    /* Whole texels along every side a texel runs, starts the texture
     * buffers allow. */
    CHECK(q->k_begin % 4 == 0 && q->k_end % 4 == 0);
    CHECK(!p->trans_a || m % 4 == 0);
    CHECK(p->trans_b || n % 4 == 0);
    CHECK(q->a.bind_offset % ctx->texel_offset_alignment == 0 && rows_on_quads(&q->a));
    CHECK(q->b.bind_offset % ctx->texel_offset_alignment == 0 && rows_on_quads(&q->b));
    break;
  case GT_MATMUL_ROUTE_VEC4: {
    CHECK(has(p, GT_MATMUL_VEC4));
    used[GT_MATMUL_VEC4] = true;
    uint32_t v = p->op.keys[GT_MATMUL_VEC4].variant;
    bool k_whole = q->k_begin % 4 == 0 && q->k_end % 4 == 0;
    if (v & GT_VARIANT_VEC4_A) CHECK(rows_on_quads(&q->a) && (p->trans_a ? m % 4 == 0 : k_whole));
    if (v & GT_VARIANT_VEC4_B) CHECK(rows_on_quads(&q->b) && (p->trans_b ? k_whole : n % 4 == 0));
    if (v & GT_VARIANT_VEC4_C) CHECK(rows_on_quads(&q->c) && n % 4 == 0);
    break;
  }
  case GT_MATMUL_ROUTE_MAIN:
    CHECK(has(p, GT_MATMUL_MAIN));
    used[GT_MATMUL_MAIN] = true;
    break;
  case GT_MATMUL_ROUTE_BLOCKS_AND_BANDS: {
    CHECK(has(p, GT_MATMUL_BANDS) && p->kernel == GT_MATMUL_KERNEL_SHARED);
    used[GT_MATMUL_BANDS] = true;
    gt_product parts[3];
    int count = gt__matmul_band_parts(p, q, parts);
    CHECK(count >= 2 && count <= 3);
    /* Whole blocks where cut, thin bands that cover the rest once, each
     * within the bands kernel's width. */
    uint32_t rows = parts[0].c.view.rows, cols = parts[0].c.view.cols;
    CHECK(rows == m || (rows % 128 == 0 && m - rows <= GT_MATMUL_BAND_MAX));
    CHECK(cols == n || (cols % 128 == 0 && n - cols <= GT_MATMUL_BAND_MAX));
    uint64_t covered = (uint64_t)rows * cols;
    for (int i = 1; i < count; i++) {
      const gt_bound_view *c = &parts[i].c;
      CHECK(c->view.rows <= GT_MATMUL_BAND_MAX || c->view.cols <= GT_MATMUL_BAND_MAX);
      CHECK(parts[i].k_begin == q->k_begin && parts[i].k_end == q->k_end);
      covered += (uint64_t)c->view.rows * c->view.cols;
    }
    CHECK(covered == (uint64_t)m * n);
    gt_matmul_route whole = gt__matmul_route(ctx, p, &parts[0]);
    CHECK(whole == GT_MATMUL_ROUTE_MAIN || whole == GT_MATMUL_ROUTE_VEC4);
    check_route(ctx, p, &parts[0], whole, used);
    break;
  }
  case GT_MATMUL_ROUTE_INTERIOR: {
    CHECK(has(p, GT_MATMUL_INTERIOR) && (ctx->device->matmul_interior & (1u << p->whole.a.view.type)) &&
          !p->trans_a && !p->trans_b);
    used[GT_MATMUL_INTERIOR] = true;
    gt_product parts[3];
    int count = gt__matmul_interior_parts(q, p->trans_a, p->trans_b, parts);
    CHECK(count >= 1 && count <= 3);
    /* Whole tiles, c's rows on quads; the rest, less than a tile wide,
     * covered once by the other programs. */
    uint32_t rows = parts[0].c.view.rows, cols = parts[0].c.view.cols;
    CHECK(rows > 0 && rows % GT_BLOCKED_TILE == 0 && m - rows < GT_BLOCKED_TILE);
    CHECK(cols > 0 && cols % GT_BLOCKED_TILE == 0 && n - cols < GT_BLOCKED_TILE);
    CHECK(rows_on_quads(&parts[0].c));
    /* Halves: a's two k from one word, b's rows as uvec2s. */
    if (p->op.keys[GT_MATMUL_INTERIOR].variant & GT_VARIANT_HALF)
      CHECK(gt__bound_rows_aligned(&parts[0].a) && gt__bound_rows_aligned(&parts[0].b) &&
            parts[0].k_begin % 2 == 0);
    uint64_t covered = (uint64_t)rows * cols;
    for (int i = 1; i < count; i++) {
      CHECK(parts[i].k_begin == q->k_begin && parts[i].k_end == q->k_end);
      covered += (uint64_t)parts[i].c.view.rows * parts[i].c.view.cols;
      gt_matmul_route rest = gt__matmul_route(ctx, p, &parts[i]);
      CHECK(rest == GT_MATMUL_ROUTE_MAIN || rest == GT_MATMUL_ROUTE_VEC4);
      check_route(ctx, p, &parts[i], rest, used);
    }
    CHECK(covered == (uint64_t)m * n);
    break;
  }
  }
}

static unsigned long plans, refusals, blocked, routes_seen[GT_MATMUL_ROUTE_INTERIOR + 1];

/* Every program the plan names: within the device, with the variant bits
 * the desc and the entry ask (that it is on the program list is
 * test_program_list's). */
static void check_keys(const gt_context *ctx, const gt_matmul_choices *p, bool half, gt_precision precision,
                       uint32_t layers) {
  const gt_limits *l = &ctx->limits;
  for (int i = 0; i < GT_MATMUL_SLOTS; i++) {
    if (!has(p, i)) continue;
    const gt_program_key *k = &p->op.keys[i];
    CHECK(k->group_cols * k->group_rows <= l->max_invocations);
    CHECK(k->group_cols <= l->max_group_size[0] && k->group_rows <= l->max_group_size[1]);
    bool barriers = k->kernel == GT_KERNEL_MATMUL_TILED || k->kernel == GT_KERNEL_MATMUL_BLOCKED_SHARED ||
                    k->kernel == GT_KERNEL_MATMUL_STREAM;
    uint32_t budget = ctx->device->barrier_invocations ? ctx->device->barrier_invocations : 256;
    if (barriers) CHECK(k->group_cols * k->group_rows <= budget);
    if (k->kernel == GT_KERNEL_MATMUL_BLOCKED_SHARED) CHECK(gt__shared_kernel_fits(l));
    CHECK(((k->variant & GT_VARIANT_TRANS_A) != 0) == p->trans_a);
    CHECK(((k->variant & GT_VARIANT_TRANS_B) != 0) == p->trans_b);
    CHECK(((k->variant & GT_VARIANT_BATCHED) != 0) == (layers > 1));
    CHECK(((k->variant & GT_VARIANT_HALF) != 0) == half);
    uint32_t uvec2_c = GT_VARIANT_HALF_C | GT_VARIANT_VEC4_C;
    CHECK(((k->variant & GT_VARIANT_PACK_HALF_IEEE) != 0) ==
          (k->kernel == GT_KERNEL_MATMUL_BLOCKED_SHARED && (k->variant & uvec2_c) == uvec2_c &&
           ctx->device->pack_half_ieee));
    /* Half sums where asked (and, for HALF_IF_FASTER, faster); where half
     * is not faster each rounded, by scaling where the entry says so. */
    const gt_device_entry *entry = ctx->device;
    bool sums = precision == GT_PRECISION_HALF || (precision == GT_PRECISION_HALF_IF_FASTER &&
                                                   entry->half_is_faster && !gt__matmul_strategy_tiled(p->strategy));
    bool rounded = sums && !entry->half_is_faster;
    CHECK(((k->variant & GT_VARIANT_HALF_SUMS) != 0) == sums);
    CHECK(((k->variant & GT_VARIANT_HALF_ROUNDED) != 0) == rounded);
    CHECK(((k->variant & GT_VARIANT_HALF_SCALED) != 0) == (rounded && entry->half_rounded_by_scaling));
    /* Halves: no texels, and quads as one load (uvec2s) only in the
     * shared and stream kernels and as b's rows in the registers kernel's
     * interior. */
    if (half)
      CHECK(k->kernel != GT_KERNEL_MATMUL_TEXELS &&
            (k->kernel == GT_KERNEL_MATMUL_BLOCKED_SHARED || k->kernel == GT_KERNEL_MATMUL_STREAM ||
             !(k->variant & (GT_VARIANT_VEC4_A | GT_VARIANT_VEC4_B)) ||
             (k->variant & (GT_VARIANT_INTERIOR | GT_VARIANT_VEC4_A)) == GT_VARIANT_INTERIOR));
    bool registers = k->kernel == GT_KERNEL_MATMUL_BLOCKED;
    /* Halves as texels in the registers kernel where the entry says so
     * and both bindings fit, which every block reads sections of. */
    bool half_texels = half && entry->half_texels && !p->op.in_blocks &&
                       gt__texels_range_fits(ctx, &p->whole.a, 2) &&
                       gt__texels_range_fits(ctx, &p->whole.b, 2);
    CHECK(((k->variant & GT_VARIANT_HALF_TEXELS) != 0) == (registers && half_texels));
    /* The stream kernel exactly where c has a few rows, sums are not in
     * half and floats do not take the texels kernel; its rows by the
     * batch; its vec4 bits only in its vec4 slot, a's only beside b's
     * where b is transposed. */
    bool stream = p->strategy == GT_STRATEGY_AUTO && p->m <= entry->stream_rows && !sums &&
                  !gt__quantized(p->whole.a.view.type) &&
                  !(gt_matmul_auto_kernel(ctx, p->m, p->n) == GT_MATMUL_KERNEL_TEXELS &&
                    p->whole.a.view.type == GT_F32);
    CHECK((k->kernel == GT_KERNEL_MATMUL_STREAM) == stream);
    if (stream) {
      uint32_t vec4 = k->variant & (GT_VARIANT_VEC4_A | GT_VARIANT_VEC4_B | GT_VARIANT_VEC4_C);
      CHECK(k->tile == (p->m == 1 ? 1u : (uint32_t)GT_MATMUL_STREAM_ROWS));
      CHECK((vec4 != 0) == (i == GT_MATMUL_VEC4) && !(vec4 & GT_VARIANT_VEC4_C));
      if (vec4 & GT_VARIANT_VEC4_A)
        CHECK(!p->trans_a && (p->trans_b ? (vec4 & GT_VARIANT_VEC4_B) != 0 : k->tile == 1));
      if (ctx->device->scalar_loads) CHECK(vec4 == 0);
    }
    if (registers && ctx->device->scalar_loads)
      CHECK(!(k->variant & (GT_VARIANT_VEC4_A | GT_VARIANT_VEC4_B | GT_VARIANT_VEC4_C)));
    if (registers)
      CHECK(((k->variant & GT_VARIANT_K1) != 0) == (ctx->matmul_kernel == GT_MATMUL_KERNEL_REGISTERS_K1));
    if (k->variant & GT_VARIANT_K1) CHECK(!(k->variant & gt__vec4_along_k(k->variant)));
    /* The interior program only in its slot, where the entry asks for it
     * for a's type: one k a step, c's rows as vec4s, a along K as floats
     * or words, b's rows as uvec2s of halves, never as vec4s of floats. */
    CHECK(((k->variant & GT_VARIANT_INTERIOR) != 0) == (i == GT_MATMUL_INTERIOR));
    if (k->variant & GT_VARIANT_INTERIOR) {
      bool halves = (k->variant & GT_VARIANT_HALF) != 0;
      CHECK((entry->matmul_interior & (1u << p->whole.a.view.type)) && registers &&
            (k->variant & GT_VARIANT_K1) && (k->variant & GT_VARIANT_VEC4_C) &&
            !(k->variant & GT_VARIANT_VEC4_A) && ((k->variant & GT_VARIANT_VEC4_B) != 0) == halves);
    }
    if (k->kernel == GT_KERNEL_MATMUL_BLOCKED_SHARED) CHECK(gt__shared_along_k_fits(k->variant));
    /* Halves 16 bits at a time wherever the context has them and they
     * change the shared kernel's program, and in every half program of the
     * bands kernel there; nowhere else. */
    bool shared_kernel = k->kernel == GT_KERNEL_MATMUL_BLOCKED_SHARED;
    uint32_t without_storage = k->variant & ~GT_VARIANT_HALF_STORAGE;
    bool storage = shared_kernel ? gt__shared_half_storage(without_storage)
                                 : k->kernel == GT_KERNEL_MATMUL_BANDS && gt__bands_half_storage(without_storage);
    CHECK(((k->variant & GT_VARIANT_HALF_STORAGE) != 0) == (ctx->half_storage && storage));
    /* 16 k a step with the operand across K unaligned: where its layout
     * takes words and K is not short (short_k_pads_word_steps in
     * matmul_plan.c); never in the main program, which every block can run. */
    if (k->variant & GT_VARIANT_WORDS_UNALIGNED) {
      bool short_k = p->k % 16 != 0 && p->k % 16 <= 8 && p->k < GT_MATMUL_SHORT_K;
      CHECK(k->kernel == GT_KERNEL_MATMUL_BLOCKED_SHARED && gt__shared_words_along_k(k->variant) && !short_k &&
            i == GT_MATMUL_VEC4);
    }
  }
}

/* The blocks cover m x n x k once, each within the K chunk and the work
 * per dispatch, and bind; each has its route's programs; no program is
 * named that no block runs (the texels kernel excepted). */
static void check_blocks(const gt_context *ctx, const gt_matmul_choices *p, const gt_matmul_desc *d) {
  const uint32_t *block = p->op.blocks.block;
  CHECK(block[2] <= gt__matmul_k_chunk(p));
  CHECK(gt__matmul_k_chunk(p) == (d->strategy == GT_STRATEGY_AUTO && p->kernel == GT_MATMUL_KERNEL_SHARED && !p->stream &&
                                          !p->op.keys[GT_MATMUL_TEXELS].group_cols
                                      ? GT_MATMUL_SHARED_K_CHUNK
                                      : GT_MATMUL_K_CHUNK));
  bool cut = block[0] < p->m || block[1] < p->n || block[2] < p->k;
  if (cut) blocked++;
  if (cut && p->op.blocks.max_work) CHECK(2ull * block[0] * block[1] * block[2] <= p->op.blocks.max_work);
  if (d->strategy == GT_STRATEGY_TILED_EVEN)
    for (int i = 0; i < 3; i++)
      CHECK(block[i] % p->tile == 0);
  uint64_t volume = 0, count = 0;
  bool used[GT_MATMUL_SLOTS] = {false};
  uint32_t at[3] = {0, 0, 0};
  do {
    gt_product q;
    gt_status s = gt__matmul_block_at(ctx, p, at, &q);
    CHECK_STATUS(s, GT_OK);
    if (s != GT_OK) return;
    CHECK(q.c.view.rows == gt__min_u32(block[0], p->m - at[0]) &&
          q.c.view.cols == gt__min_u32(block[1], p->n - at[1]));
    volume += (uint64_t)q.c.view.rows * q.c.view.cols * (q.k_end - q.k_begin);
    count++;
    gt_matmul_route r = gt__matmul_route(ctx, p, &q);
    routes_seen[r]++;
    check_route(ctx, p, &q, r, used);
  } while (gt__block_next(&p->op.blocks, at));
  CHECK(volume == (uint64_t)p->m * p->n * p->k);
  /* Past GT_BLOCK_WALK_MAX blocks the planner names every candidate. */
  for (int i = 0; i < GT_MATMUL_SLOTS && count <= GT_BLOCK_WALK_MAX; i++)
    if (i != GT_MATMUL_TEXELS && has(p, i) && !used[i]) {
      fprintf(stderr, "%s: slot %d named, no block runs it\n", ctx->device->name, i);
      check_failed++;
    }
}

static void check_plan(const gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_matmul_desc *d,
                       uint32_t layers, const uint32_t stride[3]) {
  CHECK_STATUS(gt__matmul_check(ctx, a, b, c, d), GT_OK);
  gt_matmul_choices p;
  gt_status s = gt__matmul_choose(ctx, a, b, c, d, layers, stride, &p);
  /* The seed's tiled kernel: f32 or f16 operands, f32 sums, one product. */
  bool outside_tiled = d->precision == GT_PRECISION_HALF || d->bias.buffer || d->act || layers > 1 ||
                       a.type == GT_U8 || a.type == GT_I8;
  if (gt__matmul_strategy_tiled(d->strategy) && outside_tiled) CHECK_STATUS(s, GT_ERR_UNSUPPORTED);
  if (s != GT_OK) {
    refusals++;
    CHECK(s == GT_ERR_UNSUPPORTED || s == GT_ERR_SHAPE_MISMATCH);
    CHECK(p.op.refusal[0] != '\0');
    if (s == GT_ERR_SHAPE_MISMATCH) CHECK(d->strategy == GT_STRATEGY_TILED_EVEN);
    return;
  }
  plans++;
  CHECK(p.op.reason[0] != '\0');
  CHECK(p.m == c.rows && p.n == c.cols && p.k == (d->trans_a ? a.rows : a.cols));
  CHECK(p.strategy == d->strategy);
  if (d->strategy == GT_STRATEGY_TILED_EVEN)
    CHECK(p.m % p.tile == 0 && p.n % p.tile == 0 && p.k % p.tile == 0);
  if (d->strategy == GT_STRATEGY_AUTO) CHECK(!has(&p, GT_MATMUL_SIMPLE));
  if (d->strategy != GT_STRATEGY_AUTO) CHECK(!has(&p, GT_MATMUL_VEC4) && !has(&p, GT_MATMUL_TEXELS));
  CHECK(has(&p, GT_MATMUL_MAIN) || has(&p, GT_MATMUL_VEC4) || has(&p, GT_MATMUL_TEXELS) ||
        has(&p, GT_MATMUL_INTERIOR));
  check_keys(ctx, &p, a.type == GT_F16, d->precision, layers);
  check_blocks(ctx, &p, d);
}

static unsigned long series_layered, series_apart;

/* A batch of such products, a span or a little more apart: its series
 * hold every product once, keep each product's alignment (step x stride a
 * multiple of 4 elements), and a layered series plans as layers. */
static void check_series(const gt_context *ctx, gt_view a, gt_view b, gt_view c, const gt_matmul_desc *d) {
  gt_batch batch = {1 + gt_test_rand(&rng) % 9, gt__view_span(a) + gt_test_rand(&rng) % 4,
                    gt__view_span(b) + gt_test_rand(&rng) % 4, gt__view_span(c) + gt_test_rand(&rng) % 4};
  gt_matmul_series s;
  gt__matmul_series(ctx, a, b, c, &batch, d, &s);
  /* The fewest series that make step x stride a multiple of 4 elements,
   * no more than the products. */
  size_t strides = batch.stride_a | batch.stride_b | batch.stride_c;
  uint32_t step = strides % 4 == 0 ? 1 : strides % 2 == 0 ? 2 : 4;
  CHECK(s.count == gt__min_u32(step, batch.count));
  uint32_t total = 0;
  for (uint32_t r = 0; r < s.count; r++) {
    total += s.products[r];
    if (s.count < batch.count) {
      CHECK((s.count * batch.stride_a) % 4 == 0 && (s.count * batch.stride_b) % 4 == 0 &&
            (s.count * batch.stride_c) % 4 == 0);
    }
    if (!s.layered[r]) {
      series_apart++;
      continue;
    }
    series_layered++;
    CHECK(s.products[r] > 1);
    gt_view v[3];
    gt__matmul_product_views(a, b, c, &batch, r, v);
    check_plan(ctx, v[0], v[1], v[2], d, s.products[r], s.layer_stride);
  }
  CHECK(total == batch.count);
}

/* Generated products on every entry and limit set. */
static void walk(void) {
  static const gt_strategy strategies[] = {GT_STRATEGY_AUTO, GT_STRATEGY_SIMPLE, GT_STRATEGY_TILED_EVEN,
                                           GT_STRATEGY_TILED_PAD, GT_STRATEGY_TRUNCATE_B};
  static const uint32_t tiles[] = {0, 8, 16, 32};
  const gt_device_entry *entry;
  for (size_t e = 0; (entry = gt__device_entry_at(e)) != NULL; e++)
    for (int limits = 0; limits < PLAN_LIMIT_SETS; limits++) {
      gt_context ctx;
      CHECK_STATUS(plan_context(&ctx, entry, limits, GT_STRATEGY_AUTO), GT_OK);
      for (int i = 0; i < 300; i++) {
        uint32_t m = plan_extent(&rng), n = plan_extent(&rng), k = plan_extent(&rng);
        if (i % 10 == 0 && limits < 2) k = GT_MATMUL_K_CHUNK + 1 + gt_test_rand(&rng) % 200; /* K slices */
        if (i % 10 == 5 && limits < 2) { /* c of the shared kernel's size, thin bands or not */
          m += 1024;
          n += 1024;
        }
        gt_matmul_desc d = {.strategy = strategies[gt_test_rand(&rng) % 5],
                            .tile = tiles[gt_test_rand(&rng) % 4],
                            .trans_a = gt_test_rand(&rng) % 2,
                            .trans_b = gt_test_rand(&rng) % 2};
        if (i % 2 == 0) d.strategy = GT_STRATEGY_AUTO, d.tile = 0;
        bool half = gt_test_rand(&rng) % 4 == 0;
        gt_type t = half ? GT_F16 : GT_F32, tc = half && gt_test_rand(&rng) % 2 ? GT_F16 : GT_F32;
        if (half) d.precision = (gt_precision)(gt_test_rand(&rng) % 3);
        gt_view a = d.trans_a ? plan_view(&rng, 1, k, m, t) : plan_view(&rng, 1, m, k, t);
        gt_view b = d.trans_b ? plan_view(&rng, 2, n, k, t) : plan_view(&rng, 2, k, n, t);
        gt_view c = plan_view(&rng, 3, m, n, tc);
        static const uint32_t unmoved[3];
        check_plan(&ctx, a, b, c, &d, 1, unmoved);
        if (i % 5 == 1) check_series(&ctx, a, b, c, &d);
        /* Layers of products, each a span apart (rounded to 4 elements). */
        if (i % 5 == 0) {
          uint32_t stride[3] = {(uint32_t)(gt__view_span(a) + 3) / 4 * 4,
                                (uint32_t)(gt__view_span(b) + 3) / 4 * 4,
                                (uint32_t)(gt__view_span(c) + 3) / 4 * 4};
          check_plan(&ctx, a, b, c, &d, 3, stride);
        }
      }
    }
}

/* The kernel a context's AUTO runs, per entry and limits. */
static void context_kernels(void) {
  const gt_device_entry *entry;
  for (size_t e = 0; (entry = gt__device_entry_at(e)) != NULL; e++)
    for (int limits = 0; limits < PLAN_LIMIT_SETS; limits++) {
      gt_context ctx;
      CHECK_STATUS(plan_context(&ctx, entry, limits, GT_STRATEGY_AUTO), GT_OK);
      gt_matmul_kernel k = ctx.matmul_kernel;
      CHECK(k != GT_MATMUL_KERNEL_DEVICE);
      if (k == GT_MATMUL_KERNEL_SHARED) CHECK(gt__shared_kernel_fits(&ctx.limits));
      if (k == GT_MATMUL_KERNEL_TEXELS) CHECK(limits == 0);
      /* The entry's own where it fits. */
      bool fits = entry->matmul_kernel == GT_MATMUL_KERNEL_SHARED   ? gt__shared_kernel_fits(&ctx.limits)
                  : entry->matmul_kernel == GT_MATMUL_KERNEL_TEXELS ? limits == 0
                                                                    : true;
      CHECK(fits == (k == entry->matmul_kernel));
    }
  /* A kernel the desc asks for and the device cannot run is refused. */
  gt_context ctx;
  CHECK_STATUS(plan_context(&ctx, gt__device_entry("NVIDIA"), 1, GT_STRATEGY_AUTO), GT_OK);
  gt_matmul_kernel k;
  const char *refusal = NULL;
  CHECK_STATUS(
      gt__matmul_context_kernel(ctx.device, &ctx.limits, GT_MATMUL_KERNEL_SHARED, true, &k, &refusal),
      GT_ERR_UNSUPPORTED);
  CHECK(refusal != NULL);
  CHECK_STATUS(
      gt__matmul_context_kernel(ctx.device, &ctx.limits, GT_MATMUL_KERNEL_TEXELS, false, &k, &refusal),
      GT_ERR_UNSUPPORTED);
  CHECK_STATUS(
      gt__matmul_context_kernel(ctx.device, &ctx.limits, GT_MATMUL_KERNEL_REGISTERS_K1, false, &k, &refusal),
      GT_OK);
  CHECK(k == GT_MATMUL_KERNEL_REGISTERS_K1);
}

/* What AUTO (or d) plans for views a, b and c, as gt_matmul_plan tells
 * it. */
static void expect_views(const char *renderer, int limits, gt_view a, gt_view b, gt_view c,
                         const gt_matmul_desc *d, const char *kernels) {
  gt_context ctx;
  CHECK_STATUS(plan_context(&ctx, gt__device_entry(renderer), limits, GT_STRATEGY_AUTO), GT_OK);
  gt_plan plan;
  char what[128];
  snprintf(what, sizeof what, "%s a %ux%u+%zu b %ux%u+%zu type %d", renderer, a.rows, a.cols, a.offset,
           b.rows, b.cols, b.offset, (int)a.type);
  gt_status s = gt_matmul_plan(&ctx, a, b, c, d, &plan);
  CHECK(plan_is(s, &plan, what, kernels));
  if (s == GT_OK) CHECK(plan.strategy != GT_STRATEGY_AUTO && plan.tile != 0 && plan.reason[0] != '\0');
}

/* The same in named cases of tight views. */
static void expect(const char *renderer, int limits, uint32_t m, uint32_t n, uint32_t k, gt_type type,
                   const gt_matmul_desc *d, const char *kernels) {
  gt_view a = {1, 0, m, k, 0, type}, b = {2, 0, k, n, 0, type}, c = {3, 0, m, n, 0, GT_F32};
  expect_views(renderer, limits, a, b, c, d, kernels);
}

static void named_cases(void) {
  /* NVIDIA: the shared kernel from 64 blocks of 128x128 in c, the
   * registers kernel below (docs/performance.md, "Matmul f32 and f16");
   * aligned operands as vec4s (the shared kernel: only quads across K). */
  expect("NVIDIA H100", 0, 4096, 4096, 4096, GT_F32, NULL, "shared 128 vec4 b,c");
  expect("NVIDIA H100", 0, 1024, 1024, 1024, GT_F32, NULL, "shared 128 vec4 b,c");
  expect("NVIDIA H100", 0, 512, 512, 512, GT_F32, NULL, "registers 32 vec4 a,b,c");
  /* Thin bands past whole blocks: the bands kernel; wider ones padded. */
  expect("NVIDIA H100", 0, 4099, 4097, 4101, GT_F32, NULL, "shared 128 + bands");
  /* The shared kernel sums K in slices of 16384, the others of 4096. */
  expect("NVIDIA H100", 0, 1024, 1024, 20000, GT_F32, NULL, "shared 128 vec4 b,c, blocks of 1024x1024x10112");
  expect("NVIDIA H100", 0, 512, 512, 5000, GT_F32, NULL, "registers 32 vec4 a,b,c, blocks of 512x512x2560");
  expect("NVIDIA H100", 0, 4000, 4104, 1000, GT_F32, NULL, "shared 128 vec4 b,c + bands");
  /* Halves: b's quads across K as uvec2s, the float c as vec4s; with b
   * transposed, quads along K as words of 2 k. */
  expect("NVIDIA H100", 0, 4096, 4096, 4096, GT_F16, NULL, "shared 128 vec4 b,c");
  gt_matmul_desc b_transposed = {.trans_b = true};
  expect("NVIDIA H100", 0, 4096, 4096, 4096, GT_F16, &b_transposed, "shared 128 vec4 a,b,c");
  /* Short K that 16 k a step would pad by 8 or more: 8 k a step, nothing
   * along K as words; K a multiple of 16, padded by less, or from
   * GT_MATMUL_SHORT_K on keeps them. */
  static const struct {
    uint32_t k;
    const char *kernels;
  } short_k[] = {{8, "shared 128 vec4 c"},
                 {24, "shared 128 vec4 c"},
                 {28, "shared 128 vec4 a,b,c"},
                 {64, "shared 128 vec4 a,b,c"},
                 {72, "shared 128 vec4 a,b,c"}};
  for (size_t i = 0; i < sizeof short_k / sizeof short_k[0]; i++) {
    gt_view a = {1, 0, 2048, short_k[i].k, 0, GT_F16}, b = {2, 0, 2048, short_k[i].k, 0, GT_F16},
            c = {3, 0, 2048, 2048, 0, GT_F32};
    expect_views("NVIDIA H100", 0, a, b, c, &b_transposed, short_k[i].kernels);
  }
  /* Only a's rows on 8 bytes: not a's words along K alone, which would
   * build the plain program under another name. */
  gt_view a = {1, 0, 4096, 4096, 0, GT_F16}, b = {2, 2, 4096, 4096, 0, GT_F16},
          c = {3, 0, 4096, 4096, 0, GT_F32};
  expect_views("NVIDIA H100", 0, a, b, c, &b_transposed, "shared 128 vec4 c");
  /* llvmpipe: the texels kernel where a and b are whole texels; the
   * fallback where not; halves never. */
  expect("llvmpipe (LLVM 15.0.6, 256 bits)", 0, 1024, 1024, 1024, GT_F32, NULL, "texels 64");
  expect("llvmpipe (LLVM 15.0.6, 256 bits)", 0, 1023, 1025, 1027, GT_F32, NULL,
         "texels 64 + shared 128 + bands, blocks of 1023x384x1027");
  expect("llvmpipe (LLVM 15.0.6, 256 bits)", 0, 256, 256, 256, GT_F16, NULL, "registers 32 vec4 c");
  /* Without texture buffers (the minimums): the registers kernel. */
  expect("llvmpipe (LLVM 15.0.6, 256 bits)", 1, 256, 256, 256, GT_F32, NULL, "registers 32 vec4 a,b,c");
  /* Mali and Adreno: one k a step, quads only across K; V3D: scalar. */
  expect("Mali-G52", 1, 256, 256, 256, GT_F32, NULL, "registers_k1 32 vec4 b,c");
  /* Adreno: whole tiles by the interior program, the rest guarded. */
  expect("FD630", 1, 256, 256, 256, GT_F32, NULL, "registers_k1 32 vec4 c interior");
  expect("FD630", 1, 100, 100, 99, GT_F32, NULL, "registers_k1 32 vec4 c interior + registers_k1 32 vec4 b,c");
  expect("FD630", 1, 101, 101, 101, GT_F32, NULL, "registers_k1 32");
  gt_matmul_desc a_transposed = {.trans_a = true};
  expect("FD630", 1, 256, 256, 256, GT_F32, &a_transposed, "registers_k1 32 vec4 a,b,c");
  expect("V3D 4.2", 1, 256, 256, 256, GT_F32, NULL, "registers_k1 32");
  /* Adreno: halves as texels where there are texture buffers. */
  expect("FD630", 0, 256, 256, 256, GT_F16, NULL, "registers_k1 32 vec4 c texels a,b");
  expect("FD630", 1, 256, 256, 256, GT_F16, NULL, "registers_k1 32 vec4 c");
  /* Bifrost and Valhall: half a b's whole tiles by the interior program;
   * not on Midgard, not with a's rows off a word. */
  expect("Mali-G52", 1, 256, 256, 256, GT_F16, NULL, "registers_k1 32 vec4 b,c interior");
  expect("Mali-G57", 1, 100, 100, 100, GT_F16, NULL,
         "registers_k1 32 vec4 b,c interior + registers_k1 32 vec4 c");
  expect("Mali-T860", 1, 256, 256, 256, GT_F16, NULL, "registers_k1 32 vec4 c");
  gt_view odd_a = {1, 1, 256, 256, 0, GT_F16}, b16 = {2, 0, 256, 256, 0, GT_F16},
          c32 = {3, 0, 256, 256, 0, GT_F32};
  expect_views("Mali-G52", 1, odd_a, b16, c32, NULL, "registers_k1 32 vec4 c");
  /* Its routes, block by block (the walk seldom draws views that take it). */
  gt_context mali;
  CHECK_STATUS(plan_context(&mali, gt__device_entry("Mali-G52"), 1, GT_STRATEGY_AUTO), GT_OK);
  gt_view a100 = {1, 0, 100, 100, 0, GT_F16}, b100 = {2, 0, 100, 100, 0, GT_F16},
          c100 = {3, 0, 100, 100, 0, GT_F32};
  static const gt_matmul_desc plain;
  static const uint32_t unmoved[3];
  unsigned long interior_routes = routes_seen[GT_MATMUL_ROUTE_INTERIOR];
  check_plan(&mali, a100, b100, c100, &plain, 1, unmoved);
  CHECK(routes_seen[GT_MATMUL_ROUTE_INTERIOR] > interior_routes);
  /* The caller's strategies. */
  gt_matmul_desc truncate_b = {.strategy = GT_STRATEGY_TRUNCATE_B, .tile = 16};
  expect("NVIDIA H100", 0, 100, 100, 100, GT_F32, &truncate_b, "tiled_even 16 + simple bands");
  gt_matmul_desc pad = {.strategy = GT_STRATEGY_TILED_PAD};
  expect("FD630", 1, 100, 100, 100, GT_F32, &pad, "tiled_pad 16");
  /* Views longer than a storage block go in blocks: 4 KiB blocks at
   * 256-byte alignment bind 960 elements. 2,500 blocks are more than the
   * planner walks, so both programs are named. */
  expect("NVIDIA H100", 2, 200, 200, 200, GT_F32, NULL,
         "registers 32 vec4 a,b,c + registers 32, blocks of 4x200x4");
}

/* Halves as texels only where both bindings can be texture buffers of
 * halves: from a multiple of the texture-buffer offset alignment, within
 * the texel limit. */
static void half_texels_fit(void) {
  gt_context ctx;
  CHECK_STATUS(plan_context(&ctx, gt__device_entry("FD630"), 0, GT_STRATEGY_AUTO), GT_OK);
  ctx.texel_offset_alignment = 64;
  gt_view a = {1, 0, 64, 64, 0, GT_F16}, b = {2, 0, 64, 64, 0, GT_F16}, c = {3, 0, 64, 64, 0, GT_F32};
  gt_plan plan;
  CHECK(plan_is(gt_matmul_plan(&ctx, a, b, c, NULL, &plan), &plan, "aligned",
                "registers_k1 32 vec4 c texels a,b"));
  gt_view moved = b;
  moved.offset = 8; /* 16 bytes: a storage binding starts there, a texture buffer may not */
  CHECK(plan_is(gt_matmul_plan(&ctx, a, moved, c, NULL, &plan), &plan, "b at 16 bytes",
                "registers_k1 32 vec4 c"));
  moved.offset = 32;
  CHECK(plan_is(gt_matmul_plan(&ctx, a, moved, c, NULL, &plan), &plan, "b at 64 bytes",
                "registers_k1 32 vec4 c texels a,b"));
  ctx.max_texels = 64 * 64 - 1; /* a's binding one half too long */
  CHECK(plan_is(gt_matmul_plan(&ctx, a, b, c, NULL, &plan), &plan, "a too long", "registers_k1 32 vec4 c"));
}

/* gt_matmul_plan's own checks: the statuses gt_matmul gives. */
static void refusals_of_plan(void) {
  gt_context ctx;
  CHECK_STATUS(plan_context(&ctx, gt__device_entry("NVIDIA"), 0, GT_STRATEGY_AUTO), GT_OK);
  gt_view a = {1, 0, 64, 32, 0, GT_F32}, b = {2, 0, 32, 48, 0, GT_F32}, c = {3, 0, 64, 48, 0, GT_F32};
  gt_plan plan;
  memset(&plan, 0x5a, sizeof plan);
  gt_view wrong = c;
  wrong.cols = 47;
  CHECK_STATUS(gt_matmul_plan(&ctx, a, b, wrong, NULL, &plan), GT_ERR_SHAPE_MISMATCH);
  CHECK(plan.tile == 0x5a5a5a5au); /* untouched on error */
  gt_matmul_desc even = {.strategy = GT_STRATEGY_TILED_EVEN, .tile = 32};
  CHECK_STATUS(gt_matmul_plan(&ctx, a, b, c, &even, &plan), GT_ERR_SHAPE_MISMATCH);
  gt_matmul_desc bad_tile = {.strategy = GT_STRATEGY_TILED_PAD, .tile = 12};
  CHECK_STATUS(gt_matmul_plan(&ctx, a, b, c, &bad_tile, &plan), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_matmul_plan(NULL, a, b, c, NULL, &plan), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_matmul_plan(&ctx, a, b, c, NULL, NULL), GT_ERR_INVALID_ARGUMENT);
  gt_view u8 = a;
  u8.type = GT_U8;
  CHECK_STATUS(gt_matmul_plan(&ctx, u8, u8, c, NULL, &plan), GT_ERR_SHAPE_MISMATCH);
}

int main(void) {
  walk();
  context_kernels();
  named_cases();
  half_texels_fit();
  refusals_of_plan();
  printf("%lu series layered, %lu product by product\n", series_layered, series_apart);
  CHECK(series_layered > 0 && series_apart > 0);
  printf("%lu plans checked (%lu cut into blocks), %lu refused; routes:", plans, blocked, refusals);
  for (int r = 0; r <= GT_MATMUL_ROUTE_INTERIOR; r++)
    printf(" %lu", routes_seen[r]);
  printf("\n");
  /* The walk reaches every route. */
  for (int r = 0; r <= GT_MATMUL_ROUTE_INTERIOR; r++)
    CHECK(routes_seen[r] > 0);
  return CHECK_SUMMARY();
}
