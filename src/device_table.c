/* What AUTO runs on each kind of device, found by the renderer string.
 * `gltile tune` measures the candidates on the current device and prints
 * an entry for this table. */
#include "gt_internal.h"

#include <string.h>

enum { FLOPS_MOBILE = 31, FLOPS_DESKTOP = 38 };

/* Bytes one transpose, copy or image dispatch may move: 128 MiB takes a
 * phone GPU moving 5-25 GB/s 5-25 ms, well inside the shortest watchdogs
 * (0.2 s); a desktop GPU moves 2 GiB in about a millisecond, and in a
 * tenth of a second even over PCIe. On the H100 a 12288^2 transpose cut
 * at 1 GiB ran 12% slower than whole (docs/performance.md). */
enum { BYTES_MOBILE = 27, BYTES_DESKTOP = 31 };

/* First match wins; the last entry (renderer NULL) is the fallback.
 *
 * Measured here (gltile bench, medians): llvmpipe, where shared memory is
 * plain memory and each barrier() switches coroutines, runs SIMPLE about
 * 1.5x faster than TILED_PAD (999x666 and 4096x4096) and the registers
 * matmul 5.2 GFLOP/s to the shared one's 2.0 (333x222x111); on the H100
 * TILED_EVEN ran 100% of a copy at 4096^2 and the shared matmul 18.3
 * TFLOP/s to the registers one's 12.4 (4096^3; 16.7 to 13.9 at
 * 4099x4097x4101), while below about 192 blocks of c the registers kernel
 * wins (matmul.c). The other entries are not measured: Mali has
 * no dedicated shared memory (so SIMPLE and registers, as on llvmpipe);
 * Adreno, PowerVR, AMD and Intel have small caches next to their shared
 * memory, which the shared kernel is for. VideoCore (V3D) has little of
 * either; its compute units are narrow, hence the 16-tile.
 *
 * quads: on llvmpipe every storage access is a gather or a scatter, and
 * the uvec4 copy makes a quarter of SIMPLE's accesses; AUTO there moves
 * 4x4 blocks as uvec4s (transpose_quads.comp) where the views allow. */
static const gt_device_entry table[] = {
    {"llvmpipe", "llvmpipe", true, GT_STRATEGY_SIMPLE, true, 0, GT_MATMUL_KERNEL_REGISTERS, FLOPS_MOBILE,
     BYTES_MOBILE},
    {"softpipe", "softpipe", false, GT_STRATEGY_SIMPLE, true, 0, GT_MATMUL_KERNEL_REGISTERS, FLOPS_MOBILE,
     BYTES_MOBILE},
    {"NVIDIA", "NVIDIA", true, GT_STRATEGY_TILED_PAD, false, 0, GT_MATMUL_KERNEL_SHARED, FLOPS_DESKTOP,
     BYTES_DESKTOP},
    {"Radeon", "AMD", false, GT_STRATEGY_TILED_PAD, false, 0, GT_MATMUL_KERNEL_SHARED, FLOPS_DESKTOP,
     BYTES_DESKTOP},
    {"AMD", "AMD", false, GT_STRATEGY_TILED_PAD, false, 0, GT_MATMUL_KERNEL_SHARED, FLOPS_DESKTOP,
     BYTES_DESKTOP},
    {"Intel", "Intel", false, GT_STRATEGY_TILED_PAD, false, 0, GT_MATMUL_KERNEL_SHARED, FLOPS_MOBILE,
     BYTES_MOBILE},
    {"Mali", "Mali", false, GT_STRATEGY_SIMPLE, false, 0, GT_MATMUL_KERNEL_REGISTERS, FLOPS_MOBILE,
     BYTES_MOBILE},
    {"Adreno", "Adreno", false, GT_STRATEGY_TILED_PAD, false, 0, GT_MATMUL_KERNEL_SHARED, FLOPS_MOBILE,
     BYTES_MOBILE},
    {"PowerVR", "PowerVR", false, GT_STRATEGY_TILED_PAD, false, 0, GT_MATMUL_KERNEL_SHARED, FLOPS_MOBILE,
     BYTES_MOBILE},
    {"V3D", "VideoCore", false, GT_STRATEGY_TILED_PAD, false, 16, GT_MATMUL_KERNEL_REGISTERS, FLOPS_MOBILE,
     BYTES_MOBILE},
    {"VideoCore", "VideoCore", false, GT_STRATEGY_TILED_PAD, false, 16, GT_MATMUL_KERNEL_REGISTERS,
     FLOPS_MOBILE, BYTES_MOBILE},
    {NULL, "fallback", false, GT_STRATEGY_TILED_PAD, false, 0, GT_MATMUL_KERNEL_SHARED, FLOPS_MOBILE,
     BYTES_MOBILE},
};

const gt_device_entry *gt__device_entry(const char *renderer) {
  size_t i = 0;
  while (table[i].renderer != NULL && strstr(renderer, table[i].renderer) == NULL)
    i++;
  return &table[i];
}
