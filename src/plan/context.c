/* The choices a context makes from its device entry, its limits and the
 * desc, with no GL: gt_context_init makes them once it has asked the
 * device (gl/context_init.c), and the planners' tests and the program list make
 * them for devices that are not there (gt__context_for_plans). */
#include "plan/context.h"
#include "plan/matmul_plan.h"

#include <string.h>

/* The limits a context uses: the device's, clamped to the ES 3.1
 * minimums under d->min_limits and to d's storage-block size, with
 * binding offsets on whole 4-byte elements. */
void gt__limits_clamp(gt_limits *l, const gt_context_desc *d) {
  if (d->min_limits) {
    /* The minimums of the ES 3.1 specification, table 20.45 and 20.48. */
    l->max_shared_bytes = gt__min_u32(l->max_shared_bytes, 16384);
    l->max_invocations = gt__min_u32(l->max_invocations, 128);
    l->max_group_size[0] = gt__min_u32(l->max_group_size[0], 128);
    l->max_group_size[1] = gt__min_u32(l->max_group_size[1], 128);
    l->max_group_size[2] = gt__min_u32(l->max_group_size[2], 64);
    for (int i = 0; i < 3; i++)
      l->max_group_count[i] = gt__min_u32(l->max_group_count[i], 65535);
    if (l->max_storage_block_bytes > (1u << 27)) l->max_storage_block_bytes = 1u << 27;
    l->max_storage_blocks = gt__min_u32(l->max_storage_blocks, 4);
    /* 256 is the largest alignment the specification lets a device ask. */
    l->storage_offset_alignment = 256;
  }
  if (d->max_storage_block_bytes != 0 && d->max_storage_block_bytes < l->max_storage_block_bytes)
    l->max_storage_block_bytes = d->max_storage_block_bytes;
  /* Offsets we pass in uniforms count whole 4-byte elements, so binding
   * offsets must also be multiples of 4. */
  uint32_t a = l->storage_offset_alignment ? l->storage_offset_alignment : 256;
  while (a % 4)
    a *= 2;
  l->storage_offset_alignment = a;
}

/* The largest tile of 8, 16, 32 (up to wanted) whose shared tile and
 * thread group fit. */
static uint32_t choose_tile(const gt_limits *l, uint32_t wanted) {
  uint32_t tile = wanted ? wanted : 32;
  while (tile > 8 && (tile * (tile + 1) * 4 > l->max_shared_bytes || tile > l->max_group_size[0]))
    tile /= 2;
  return tile;
}

void gt__choose_transpose(gt_context *ctx, const gt_context_desc *d) {
  ctx->default_tile = choose_tile(&ctx->limits, d->tile ? d->tile : ctx->device->tile);
  ctx->auto_strategy = d->transpose_strategy ? d->transpose_strategy : ctx->device->transpose;
  ctx->auto_quads = !d->transpose_strategy && ctx->device->quads && ctx->auto_strategy == GT_STRATEGY_SIMPLE;
}

/* Work per matmul dispatch: the device table's unless the desc says. */
static uint64_t choose_dispatch_flops(const gt_device_entry *e, uint64_t wanted) {
  if (wanted != 0) return wanted < (1u << 20) ? (1u << 20) : wanted;
  return (uint64_t)1 << e->dispatch_flops_log2;
}

/* Bytes per transpose, copy or image dispatch: the device table's unless
 * the desc says. */
static uint64_t choose_dispatch_bytes(const gt_device_entry *e, uint64_t wanted) {
  return wanted != 0 ? wanted : (uint64_t)1 << e->dispatch_bytes_log2;
}

/* The staging buffer: 4 MiB unless the desc says, in whole 16-byte
 * units, at least 4 KiB. */
static uint64_t choose_staging_bytes(uint64_t wanted) {
  uint64_t bytes = wanted != 0 ? wanted : (uint64_t)4 << 20;
  if (bytes < 4096) bytes = 4096;
  if (bytes > (uint64_t)INT32_MAX) bytes = (uint64_t)INT32_MAX; /* GLsizeiptr on 32-bit targets */
  return (bytes + 15) / 16 * 16;
}

gt_status gt__context_choose(gt_context *ctx, const gt_context_desc *d, bool texture_buffers,
                             const char **refusal) {
  ctx->limits.max_dispatch_flops = choose_dispatch_flops(ctx->device, d->max_dispatch_flops);
  ctx->limits.max_dispatch_bytes = choose_dispatch_bytes(ctx->device, d->max_dispatch_bytes);
  ctx->limits.staging_bytes = choose_staging_bytes(d->staging_bytes);
  gt__choose_transpose(ctx, d);
  return gt__matmul_context_kernel(ctx->device, &ctx->limits, d->matmul_kernel, texture_buffers,
                                   &ctx->matmul_kernel, refusal);
}

/* The limit sets of gt__context_for_plans: a desktop GPU's, with the
 * storage blocks a per-column requantisation needs, and the ES 3.1
 * minimums (4 storage blocks a compute shader). */
static gt_limits limit_set(int set) {
  gt_limits l;
  memset(&l, 0, sizeof l);
  if (set == 0) {
    l.max_shared_bytes = 49152;
    l.max_invocations = 1024;
    l.max_group_size[0] = l.max_group_size[1] = 1024;
    l.max_storage_block_bytes = ((uint64_t)1 << 31) - 1;
    l.storage_offset_alignment = 16;
    l.max_storage_blocks = 16;
  } else {
    l.max_shared_bytes = 16384;
    l.max_invocations = 128;
    l.max_group_size[0] = l.max_group_size[1] = 128;
    l.max_storage_block_bytes = set == 1 ? (uint64_t)1 << 27 : 4096;
    l.storage_offset_alignment = 256;
    l.max_storage_blocks = 4;
  }
  l.max_group_size[2] = 64;
  l.max_group_count[0] = l.max_group_count[1] = l.max_group_count[2] = 65535;
  return l;
}

gt_status gt__context_for_plans(gt_context *ctx, const gt_device_entry *entry, int set,
                                const gt_context_desc *d, bool atomics) {
  static const gt_context_desc zero_desc;
  if (d == NULL) d = &zero_desc;
  memset(ctx, 0, sizeof *ctx);
  ctx->device = entry;
  ctx->limits = limit_set(set);
  gt__limits_clamp(&ctx->limits, d);
  ctx->has_atomics = atomics;
  bool desktop = set == 0;
  ctx->half_storage = desktop; /* as NVIDIA's GL_NV_gpu_shader5 */
  if (desktop) {
    ctx->texel_offset_alignment = 16;
    ctx->max_texels = (uint64_t)1 << 27;
  }
  const char *refusal;
  return gt__context_choose(ctx, d, desktop, &refusal);
}
