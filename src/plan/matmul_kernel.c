/* The kernel matmul's AUTO runs: a context's, from its device entry and
 * limits, and a product's, by how many of the shared kernel's blocks its
 * c holds. No GL. */
#include "plan/matmul_plan.h"

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
         (uint64_t)gt__div_up(m, GT_MATMUL_SHARED_TILE) * gt__div_up(n, GT_MATMUL_SHARED_TILE) >= ctx->device->shared_min_blocks;
}

gt_matmul_kernel gt_matmul_auto_kernel(const gt_context *ctx, uint32_t m, uint32_t n) {
  gt_matmul_kernel k = ctx ? ctx->matmul_kernel : GT_MATMUL_KERNEL_REGISTERS;
  return k == GT_MATMUL_KERNEL_SHARED && !shared_pays(ctx, m, n) ? GT_MATMUL_KERNEL_REGISTERS : k;
}

/* What a TEXELS context's AUTO runs for the products that kernel cannot
 * take: what a SHARED context would (REGISTERS where SHARED does not fit). */
gt_matmul_kernel gt__matmul_texel_fallback(const gt_context *ctx, uint32_t m, uint32_t n) {
  return gt__shared_kernel_fits(&ctx->limits) && shared_pays(ctx, m, n) ? GT_MATMUL_KERNEL_SHARED
                                                                        : GT_MATMUL_KERNEL_REGISTERS;
}

