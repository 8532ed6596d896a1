/* How a batch of products runs: its series (products whose rows share
 * their alignment) and which run as layers of one dispatch. No GL. */
#include "plan/matmul_plan.h"
#include "plan/texel_fit.h"

#include <string.h>

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

