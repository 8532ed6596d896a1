/* What AUTO runs on each kind of device, found by the renderer string.
 * `gltile tune` measures the candidates on the current device and prints
 * an entry for this table. */
#include "device_table.h"

#include <string.h>

enum { FLOPS_MOBILE = 31, FLOPS_DESKTOP = 38 };

/* Bytes one transpose, copy or image dispatch may move: 128 MiB takes a
 * phone GPU moving 5-25 GB/s 5-25 ms, well inside the shortest watchdogs
 * (0.2 s); a desktop GPU moves 2 GiB in about a millisecond, and in a
 * tenth of a second even over PCIe. On the H100 a 12288^2 transpose cut
 * at 1 GiB ran 12% slower than whole (docs/performance.md). */
enum { BYTES_MOBILE = 27, BYTES_DESKTOP = 31 };

/* Measured on the H100, used everywhere until measured elsewhere:
 * - the tiled transpose takes its groups in stripes of source rows that
 *   span 256 MiB, down each column of tiles (at 16384^2, 64x64 tiles:
 *   stripes of 4096 rows ran 75% of a copy, 8192 rows 13-25%, plain
 *   order 3%; smaller sources are one stripe, column order);
 * - the shared matmul kernel pays from 64 blocks of 128x128 in c (15.5
 *   against the registers kernel's 9.1 TFLOP/s at 1024^3, 64 blocks;
 *   18.8 against the tiled kernel's 16.1 at 1536^3); fewer blocks were
 *   not measured, so the registers kernel keeps them. */
#define H100_ORDER .stripe_bytes_log2 = 28, .shared_min_blocks = 64

/* On the CPU a stripe spans 1 MiB, about a core's L2 cache; the tests
 * then run shapes of several stripes in little time. On llvmpipe the
 * shared matmul kernel (its second version, docs/performance.md) ran
 * 12.2 GFLOP/s at 1024^3 (64 blocks) against the registers kernel's 10.2,
 * and 11.8-12.1 at 2048^3 against 4.3-9.2; at 512^3 (16 blocks) 11.9
 * against 13.8. It runs there what the texels kernel cannot take. */
#define CPU_ORDER .stripe_bytes_log2 = 20, .shared_min_blocks = 64

/* First match wins (renderer: substrings separated by '|', '^' for a
 * prefix); the last entry (renderer NULL) is the fallback.
 *
 * Measured here (gltile bench, medians): llvmpipe, where shared memory is
 * plain memory and each barrier() switches coroutines, runs SIMPLE about
 * 1.5x faster than TILED_PAD (999x666 and 4096x4096), and AUTO's
 * matmul the texels kernel, 47-57 GFLOP/s at 1024^3 where the shared
 * kernel ran 10-12 (texture buffers: texels.c); on the H100
 * TILED_EVEN ran 100% of a copy at 4096^2 and the shared matmul 18.3
 * TFLOP/s to the registers one's 12.4 (4096^3; 16.7 to 13.9 at
 * 4099x4097x4101, first versions of both), and since then below 64
 * blocks of c AUTO runs the registers kernel (H100_ORDER, matmul.c).
 * The other entries are not measured: Mali has no dedicated shared
 * memory (so SIMPLE and the registers kernel); PowerVR, AMD and Intel
 * have small caches next to their shared memory, which the shared kernel
 * is for. VideoCore (V3D) has little of either; its compute units are
 * narrow, hence the 16-tile.
 *
 * auto_tile: on the H100, 64x64 tiles ran 85-93% of a copy at 8192^2
 * where 32x32 tiles ran 61-84%, and 73% against 30% at 16384^2; moving
 * their rows as uvec4s changed nothing. Padded over all of 8199x5467
 * they ran 32% to the 32-tile's 72%; on its main section, with the bands
 * by the padded 32-tile, 85% (transpose.c, docs/performance.md).
 *
 * pack_half_ieee: NVIDIA's packHalf2x16 gives infinity from 65520 on
 * and a NaN for a NaN, as IEEE rounding does (the `half` suite's
 * infinities and NaNs check it wherever the entry runs); the shared
 * kernel's uvec2 stores of a half c then pack with no test of their 4
 * results: on the H200 f16 > f16 at 8192 x 8192 x 8 ran 16-18% faster
 * (docs/performance.md). Elsewhere the test stays: llvmpipe's conversion
 * in a 32-bit ARM process is wrong, and the other entries are not
 * measured (`gltile info` and `gltile tune` probe it on a device).
 *
 * quads: on llvmpipe every storage access is a gather or a scatter, and
 * the uvec4 copy makes a quarter of SIMPLE's accesses; AUTO there moves
 * 4x4 blocks as uvec4s (transpose_quads.comp) where the views allow. */
static const gt_device_entry table[] = {
    {.renderer = "llvmpipe", .name = "llvmpipe", .measured = true, .transpose = GT_STRATEGY_SIMPLE, .quads = true,
     .matmul_kernel = GT_MATMUL_KERNEL_TEXELS, .dispatch_flops_log2 = FLOPS_MOBILE,
     .dispatch_bytes_log2 = BYTES_MOBILE, CPU_ORDER},
    {.renderer = "softpipe", .name = "softpipe", .transpose = GT_STRATEGY_SIMPLE, .quads = true,
     .matmul_kernel = GT_MATMUL_KERNEL_REGISTERS, .dispatch_flops_log2 = FLOPS_MOBILE,
     .dispatch_bytes_log2 = BYTES_MOBILE, CPU_ORDER},
    {.renderer = "NVIDIA", .name = "NVIDIA", .measured = true, .transpose = GT_STRATEGY_TILED_PAD, .auto_tile = 64,
     .matmul_kernel = GT_MATMUL_KERNEL_SHARED, .dispatch_flops_log2 = FLOPS_DESKTOP,
     .dispatch_bytes_log2 = BYTES_DESKTOP, H100_ORDER, .half_rounded_by_scaling = true,
     .pack_half_ieee = true},
    {.renderer = "Radeon", .name = "AMD", .transpose = GT_STRATEGY_TILED_PAD,
     .matmul_kernel = GT_MATMUL_KERNEL_SHARED, .dispatch_flops_log2 = FLOPS_DESKTOP,
     .dispatch_bytes_log2 = BYTES_DESKTOP, H100_ORDER},
    {.renderer = "AMD", .name = "AMD", .transpose = GT_STRATEGY_TILED_PAD, .matmul_kernel = GT_MATMUL_KERNEL_SHARED,
     .dispatch_flops_log2 = FLOPS_DESKTOP, .dispatch_bytes_log2 = BYTES_DESKTOP, H100_ORDER},
    {.renderer = "Intel", .name = "Intel", .transpose = GT_STRATEGY_TILED_PAD,
     .matmul_kernel = GT_MATMUL_KERNEL_SHARED, .dispatch_flops_log2 = FLOPS_MOBILE,
     .dispatch_bytes_log2 = BYTES_MOBILE, H100_ORDER},
    /* Mali, Adreno and VideoCore: chosen from their compilers' statistics
     * (Mesa 22.3.6's panfrost, freedreno and v3d, `gltile compile --stats`
     * on fake devices: docs/performance.md), not measured on the hardware.
     * None runs the shared matmul kernel (8 x 8 results, 256 invocations
     * behind barriers: the shape their GEMM libraries avoid), all run
     * REGISTERS_K1: one k a step keeps the G52 and G57 at 32 registers or
     * fewer, their full 2 threads (4 k a step: more, one thread), Adreno
     * at 16 of 16 waves (4 k a step: 10 to 12), V3D without spills (4 k a
     * step spilled). Midgard's packed in-place 32-tile spilled (1:46), its
     * 16-tile does not. Adreno: groups behind barriers of at most 64
     * invocations (its drivers fail large ones under register pressure),
     * and 16-tiles (a 32-tile's 32 x 2 group moves 16 rows an invocation:
     * 4 to 12 waves; 16 x 4, 16 waves). Its transposes of 1- and 2-byte
     * elements as a block of words per invocation (the 630: 6 and 5
     * registers, 16 waves), not through the shared 32-tile of words (29
     * and 24 registers, 4 and 8 waves). V3D: scalar loads (vec4 loads took
     * its compiler to 2 threads, scalar ones run 4).
     * half_is_faster, from the same statistics of the registers kernel
     * summing in mediump against f32: Midgard's threads 1 -> 2 (registers
     * 11 -> 7), so yes; Bifrost and Valhall the same load/store-bound
     * cycles (arithmetic +3%), Adreno 630 the same 16 waves, 660 14 -> 16
     * but 6% more instructions: no clear gain, so no; V3D has no fast
     * half arithmetic. Their vendors document fp16 at twice the f32 rate:
     * a kernel that loads its halves packed might show it there (not
     * built).
     * half_rounded_by_scaling: the rounded half sums scaled by a power of
     * two and rounded by roundEven hold 3 constants where the integer
     * rounding holds 8: every such program at 2 threads on the G52 and the
     * G57 (8 and 32 were at 1), 10-13% fewer instructions on Adreno (waves
     * unchanged); on V3D its scheduler computed the 16 scaled sums side by
     * side, 2 threads where the integer rounding runs 4, so not there.
     * llvmpipe keeps the integer rounding: in a 32-bit ARM process its
     * roundEven and floor give wrong values (docs/design.md). On the H100
     * the scaled rounding ran half-sum products 1.3-1.7x faster.
     * half_texels (Adreno): freedreno widens a half read from a word in
     * integer operations (masks, shifts, selects, a multiply for
     * denormals); fetched as R16F texels the texture unit widens it. On
     * the 660 the half-precision registers programs AUTO chooses, 14 of 16
     * waves at 9 registers (12 at 10), ran 16 at 8, all but 10 batched
     * ones (14), with 2-65% fewer instructions; floats as texels gained
     * nothing there, so they stay in storage blocks (docs/performance.md). */
    {.renderer = "Mali-T", .name = "Mali Midgard", .compiled = true, .transpose = GT_STRATEGY_SIMPLE, .tile = 16,
     .matmul_kernel = GT_MATMUL_KERNEL_REGISTERS_K1, .dispatch_flops_log2 = FLOPS_MOBILE,
     .dispatch_bytes_log2 = BYTES_MOBILE, H100_ORDER, .half_is_faster = true},
    {.renderer = "Mali-G31|Mali-G51|Mali-G52|Mali-G71|Mali-G72|Mali-G76", .name = "Mali Bifrost",
     .compiled = true, .transpose = GT_STRATEGY_SIMPLE, .matmul_kernel = GT_MATMUL_KERNEL_REGISTERS_K1,
     .dispatch_flops_log2 = FLOPS_MOBILE, .dispatch_bytes_log2 = BYTES_MOBILE, H100_ORDER,
     .half_rounded_by_scaling = true},
    {.renderer = "Mali", .name = "Mali Valhall", .compiled = true, .transpose = GT_STRATEGY_SIMPLE,
     .matmul_kernel = GT_MATMUL_KERNEL_REGISTERS_K1, .dispatch_flops_log2 = FLOPS_MOBILE,
     .dispatch_bytes_log2 = BYTES_MOBILE, H100_ORDER, .half_rounded_by_scaling = true},
    /* Qualcomm's driver says "Adreno (TM) 630", Mesa's freedreno "FD630". */
    {.renderer = "Adreno|^FD", .name = "Adreno", .compiled = true, .transpose = GT_STRATEGY_TILED_PAD,
     .tile = 16, .matmul_kernel = GT_MATMUL_KERNEL_REGISTERS_K1, .words_in_registers = true,
     .barrier_invocations = 64, .half_rounded_by_scaling = true, .half_texels = true,
     .dispatch_flops_log2 = FLOPS_MOBILE, .dispatch_bytes_log2 = BYTES_MOBILE, H100_ORDER},
    {.renderer = "PowerVR", .name = "PowerVR", .transpose = GT_STRATEGY_TILED_PAD,
     .matmul_kernel = GT_MATMUL_KERNEL_SHARED, .dispatch_flops_log2 = FLOPS_MOBILE,
     .dispatch_bytes_log2 = BYTES_MOBILE, H100_ORDER},
    {.renderer = "V3D|VideoCore", .name = "VideoCore", .compiled = true, .transpose = GT_STRATEGY_TILED_PAD,
     .tile = 16, .matmul_kernel = GT_MATMUL_KERNEL_REGISTERS_K1, .scalar_loads = true,
     .dispatch_flops_log2 = FLOPS_MOBILE, .dispatch_bytes_log2 = BYTES_MOBILE, H100_ORDER},
    {.renderer = NULL, .name = "fallback", .transpose = GT_STRATEGY_TILED_PAD,
     .matmul_kernel = GT_MATMUL_KERNEL_SHARED, .dispatch_flops_log2 = FLOPS_MOBILE,
     .dispatch_bytes_log2 = BYTES_MOBILE, H100_ORDER},
};

/* Whether renderer matches pattern: alternatives separated by '|', each a
 * substring, or with a leading '^' a prefix. */
static bool matches(const char *renderer, const char *pattern) {
  for (const char *p = pattern; *p != '\0';) {
    bool prefix = *p == '^';
    if (prefix) p++;
    size_t len = strcspn(p, "|");
    for (const char *r = renderer; *r != '\0'; r++) {
      if (strncmp(r, p, len) == 0) return true;
      if (prefix) break;
    }
    p += len;
    if (*p == '|') p++;
  }
  return false;
}

/* Mesa 22.3.6's llvmpipe JIT in a 32-bit ARM process, where some kernels
 * go wrong: a quirk of the process and the real renderer, so not an
 * entry's field (a suite that pretends a mobile entry there keeps it). */
static bool llvmpipe_in_arm32(const char *renderer) {
#if defined(__arm__) && !defined(__aarch64__)
  return strstr(renderer, "llvmpipe") != NULL;
#else
  (void)renderer;
  return false;
#endif
}

bool gt__renderer_has_atomics(const char *renderer) {
  /* Every storage-buffer atomic (atomicAdd, And, Or, CompSwap, Exchange
   * alike) crashed the process there: what needs them is refused rather
   * than crash. */
  return !llvmpipe_in_arm32(renderer);
}

static const char *pretend_renderer;

void gt__device_entry_pretend(const char *renderer) { pretend_renderer = renderer; }

const gt_device_entry *gt__device_entry_at(size_t i) {
  for (size_t j = 0; j < i; j++)
    if (table[j].renderer == NULL) return NULL;
  return &table[i];
}

const gt_device_entry *gt__device_entry(const char *renderer) {
  if (pretend_renderer != NULL) renderer = pretend_renderer;
  size_t i = 0;
  while (table[i].renderer != NULL && !matches(renderer, table[i].renderer))
    i++;
  return &table[i];
}
