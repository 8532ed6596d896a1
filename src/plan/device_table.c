/* What AUTO runs on each kind of device, found by the renderer string.
 * `gltile tune` measures the candidates on the current device and prints
 * an entry for this table. */
#include "plan/device_table.h"
#include "plan/program.h"

#include <string.h>

enum { FLOPS_MOBILE = 31, FLOPS_DESKTOP = 38 };

/* Bytes one transpose, copy or image dispatch may move: 128 MiB takes a
 * phone GPU moving 5-25 GB/s 5-25 ms, well inside the shortest watchdogs
 * (0.2 s); a desktop GPU moves 2 GiB in about a millisecond, and in a
 * tenth of a second even over PCIe. On the H100 a 12288^2 transpose cut
 * at 1 GiB ran slower than whole, and no size measured lost at 2 GiB
 * (docs/notes/2026-11-nvidia-transfers.md, "Dispatch budgets"). */
enum { BYTES_MOBILE = 27, BYTES_DESKTOP = 31 };

/* Measured on the H100, used everywhere until measured elsewhere:
 * - the tiled transpose takes its groups in stripes of source rows that
 *   span 256 MiB, down each column of tiles: the longest stripe below the
 *   length where the transpose fell far behind the copy; smaller sources
 *   are one stripe, column order (docs/notes/2026-11-nvidia-transpose.md,
 *   "AUTO's 64-tile and stripes sized in bytes");
 * - the shared matmul kernel pays from 64 blocks of 128x128 in c, ahead
 *   of the registers and tiled kernels there; fewer blocks were not
 *   measured, so the registers kernel keeps them
 *   (docs/notes/2026-11-nvidia-matmul-f32.md, "AUTO's shared kernel from
 *   64 blocks of c"). */
#define H100_ORDER .stripe_bytes_log2 = 28, .shared_min_blocks = 64

/* On the CPU a stripe spans 1 MiB, about a core's L2 cache; the tests
 * then run shapes of several stripes in little time. On llvmpipe the
 * shared matmul kernel (its second version) ran ahead of the registers
 * kernel from 64 blocks of c, not below (docs/notes/2026-11-nvidia-matmul-f32.md,
 * "The shared kernel against cuBLAS and CLBlast, every layout", its
 * llvmpipe paragraph). It runs there what the texels kernel cannot take. */
#define CPU_ORDER .stripe_bytes_log2 = 20, .shared_min_blocks = 64

/* First match wins (renderer: substrings separated by '|', '^' for a
 * prefix); the last entry (renderer NULL) is the fallback.
 *
 * Measured here (gltile bench, medians): llvmpipe, where shared memory is
 * plain memory and each barrier() switches coroutines, runs SIMPLE faster
 * than TILED_PAD, and AUTO's matmul the texels kernel, several times the
 * shared kernel's speed (texture buffers: texels.c;
 * docs/notes/2026-11-llvmpipe.md, "Transposes as 4x4 blocks of uvec4s"
 * and "Texels for every transpose"); on the H100 TILED_EVEN ran at about
 * the copy's speed at 4096^2 and the shared matmul well ahead of the
 * registers one, early versions of both (docs/notes/2026-11-nvidia-transpose.md,
 * "NVIDIA H100: the first transpose table"; docs/notes/2026-11-nvidia-matmul-f32.md,
 * "The shared kernel against cuBLAS and CLBlast, every layout"), and since
 * then below 64 blocks of c AUTO runs the registers kernel (H100_ORDER,
 * matmul_kernel.c).
 * The other entries are not measured: Mali has no dedicated shared
 * memory (so SIMPLE and the registers kernel); PowerVR, AMD and Intel
 * have small caches next to their shared memory, which the shared kernel
 * is for. VideoCore (V3D) has little of either; its compute units are
 * narrow, hence the 16-tile.
 *
 * auto_tile: on the H100 a 64x64 tile touches half the pages per byte
 * moved of a 32x32 one and ran nearer the copy at 8192^2 and beyond;
 * moving its rows as uvec4s changed nothing. Padded over all of an uneven
 * extent it ran far behind the 32-tile, so there it takes the main
 * section, the padded 32-tile the bands (transpose.c;
 * docs/notes/2026-11-nvidia-transpose.md, "AUTO's 64-tile and stripes
 * sized in bytes" and "The 64-tile on the main section, the padded
 * 32-tile on the bands").
 *
 * pack_half_ieee: NVIDIA's packHalf2x16 gives infinity from 65520 on
 * and a NaN for a NaN, as IEEE rounding does (the `half` suite's
 * infinities and NaNs check it wherever the entry runs); the shared
 * kernel's uvec2 stores of a half c then pack with no test of their 4
 * results, which pays where K is short (docs/notes/2026-12-nvidia-matmul-f16.md,
 * "A half c packed with no test where the device rounds as IEEE").
 * Elsewhere the test stays: llvmpipe's conversion in a 32-bit ARM process
 * is wrong, and the other entries are not measured (`gltile info` and
 * `gltile tune` probe it on a device).
 *
 * quads: on llvmpipe every storage access is a gather or a scatter, and
 * the uvec4 copy makes a quarter of SIMPLE's accesses; AUTO there moves
 * 4x4 blocks as uvec4s (transpose_quads.comp) where the views allow. */
/* The rows of c AUTO streams b for (stream_rows): every batch of up to
 * 8 on CPUs and desktop GPUs; a batch of 1 on the mobile GPUs, where the
 * 8 rows' sums cost threads or waves on most of the Mali, Adreno and V3D
 * compilers and spilled on the Mali-T860 (compiler statistics,
 * docs/notes/2026-12-stream.md), and where nothing is known. */
enum { STREAM_ONE = 1, STREAM_ALL = GT_MATMUL_STREAM_ROWS };

static const gt_device_entry table[] = {
    {.renderer = "llvmpipe", .name = "llvmpipe", .measured = true, .transpose = GT_STRATEGY_SIMPLE, .quads = true,
     .words_uvec4 = true, .stream_rows = STREAM_ALL,
     .matmul_kernel = GT_MATMUL_KERNEL_TEXELS, .dispatch_flops_log2 = FLOPS_MOBILE,
     .dispatch_bytes_log2 = BYTES_MOBILE, CPU_ORDER},
    {.renderer = "softpipe", .name = "softpipe", .transpose = GT_STRATEGY_SIMPLE, .quads = true, .words_uvec4 = true,
     .stream_rows = STREAM_ALL,
     .matmul_kernel = GT_MATMUL_KERNEL_REGISTERS, .dispatch_flops_log2 = FLOPS_MOBILE,
     .dispatch_bytes_log2 = BYTES_MOBILE, CPU_ORDER},
    {.renderer = "NVIDIA", .name = "NVIDIA", .measured = true, .transpose = GT_STRATEGY_TILED_PAD, .auto_tile = 64,
     .matmul_kernel = GT_MATMUL_KERNEL_SHARED, .dispatch_flops_log2 = FLOPS_DESKTOP,
     .dispatch_bytes_log2 = BYTES_DESKTOP, H100_ORDER, .half_rounded_by_scaling = true,
     .pack_half_ieee = true, .stream_rows = STREAM_ALL},
    {.renderer = "Radeon", .name = "AMD", .transpose = GT_STRATEGY_TILED_PAD, .stream_rows = STREAM_ALL,
     .matmul_kernel = GT_MATMUL_KERNEL_SHARED, .dispatch_flops_log2 = FLOPS_DESKTOP,
     .dispatch_bytes_log2 = BYTES_DESKTOP, H100_ORDER},
    {.renderer = "AMD", .name = "AMD", .transpose = GT_STRATEGY_TILED_PAD, .matmul_kernel = GT_MATMUL_KERNEL_SHARED,
     .stream_rows = STREAM_ALL,
     .dispatch_flops_log2 = FLOPS_DESKTOP, .dispatch_bytes_log2 = BYTES_DESKTOP, H100_ORDER},
    {.renderer = "Intel", .name = "Intel", .transpose = GT_STRATEGY_TILED_PAD, .stream_rows = STREAM_ALL,
     .matmul_kernel = GT_MATMUL_KERNEL_SHARED, .dispatch_flops_log2 = FLOPS_MOBILE,
     .dispatch_bytes_log2 = BYTES_MOBILE, H100_ORDER},
    /* Mali, Adreno and VideoCore: chosen from their compilers' statistics
     * (Mesa 22.3.6's panfrost, freedreno and v3d, `gltile compile --stats`
     * on fake devices: docs/performance.md, "Mali, Adreno and VideoCore"),
     * not measured on the hardware.
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
     * Transposes: AUTO's SIMPLE moves 4x4 blocks (transpose_quads) on all
     * but Midgard, per element moved a fraction of the instructions and a
     * quarter of the memory accesses of one invocation an element, and far
     * fewer than the shared 16-tiles Adreno and V3D ran before; as single
     * elements on Adreno (its compiler merges a quad's four loads, in fewer
     * instructions) and V3D (vec4 loads cost half its threads). Midgard
     * keeps an invocation an element: its quads ran at half its threads
     * (docs/notes/2026-12-mobile-transposes.md). Each invocation moves a
     * pair of blocks on all four: per element, 12-48% fewer instructions
     * than one block, at the same occupancy or higher, under both
     * compiler generations (the same note, "Pairs of blocks").
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
     * the scaled rounding ran half-sum products faster too
     * (docs/notes/2026-11-matmul-8bit-and-half-sums.md, "Half sums rounded
     * by scaling, where the entry says so").
     * half_texels (Adreno): freedreno widens a half read from a word in
     * integer operations (masks, shifts, selects, a multiply for
     * denormals); fetched as R16F texels the texture unit widens it. On
     * the 660 the half-precision registers programs AUTO chooses, 14 of 16
     * waves at 9 registers (12 at 10), ran 16 at 8, all but 10 batched
     * ones (14), with 2-65% fewer instructions; floats as texels gained
     * nothing there, so they stay in storage blocks
     * (docs/notes/2026-11-mobile-compilers.md, "Halves as texels on Adreno").
     * matmul_interior (Adreno): c's whole tiles unguarded, two k a pass,
     * took a K step of the f32 a b from 83-89 instructions and 5-8 loads
     * to 26-48 and 3 on the 630, 660 and a7xx under both generations, at
     * 16 waves but on the 660 (12 and 14, one register more)
     * (docs/notes/2026-12-mobile-k-steps.md, "The interior program").
     * On Bifrost and Valhall it took the half a b's K step from 11
     * load/store messages to 3, and 143-186 instructions to 60-72, at 2
     * threads under both generations; Midgard ran it at 1 thread of 4
     * and keeps the guarded program ("Halves by the interior program on
     * the Malis"). */
    {.renderer = "Mali-T", .name = "Mali Midgard", .compiled = true, .transpose = GT_STRATEGY_SIMPLE, .tile = 16,
     .matmul_kernel = GT_MATMUL_KERNEL_REGISTERS_K1, .dispatch_flops_log2 = FLOPS_MOBILE,
     .dispatch_bytes_log2 = BYTES_MOBILE, H100_ORDER, .half_is_faster = true, .stream_rows = STREAM_ONE},
    {.renderer = "Mali-G31|Mali-G51|Mali-G52|Mali-G71|Mali-G72|Mali-G76", .name = "Mali Bifrost",
     .compiled = true, .transpose = GT_STRATEGY_SIMPLE, .quads = true, .quad_pairs = true,
     .matmul_kernel = GT_MATMUL_KERNEL_REGISTERS_K1, .dispatch_flops_log2 = FLOPS_MOBILE, .dispatch_bytes_log2 = BYTES_MOBILE, H100_ORDER,
     .half_rounded_by_scaling = true, .matmul_interior = 1u << GT_F16, .stream_rows = STREAM_ONE},
    {.renderer = "Mali", .name = "Mali Valhall", .compiled = true, .transpose = GT_STRATEGY_SIMPLE, .quads = true,
     .quad_pairs = true,     .matmul_kernel = GT_MATMUL_KERNEL_REGISTERS_K1, .dispatch_flops_log2 = FLOPS_MOBILE,
     .dispatch_bytes_log2 = BYTES_MOBILE, H100_ORDER, .half_rounded_by_scaling = true, .matmul_interior = 1u << GT_F16,
     .stream_rows = STREAM_ONE},
    /* Qualcomm's driver says "Adreno (TM) 630", Mesa's freedreno "FD630". */
    {.renderer = "Adreno|^FD", .name = "Adreno", .compiled = true, .transpose = GT_STRATEGY_SIMPLE,
     .quads = true, .quad_elements = true, .quad_pairs = true, .tile = 16,
     .matmul_kernel = GT_MATMUL_KERNEL_REGISTERS_K1, .words_in_registers = true,
     .barrier_invocations = 64, .half_rounded_by_scaling = true, .half_texels = true,
     .matmul_interior = 1u << GT_F32, .dispatch_flops_log2 = FLOPS_MOBILE, .dispatch_bytes_log2 = BYTES_MOBILE, H100_ORDER,
     .stream_rows = STREAM_ONE},
    {.renderer = "PowerVR", .name = "PowerVR", .transpose = GT_STRATEGY_TILED_PAD,
     .matmul_kernel = GT_MATMUL_KERNEL_SHARED, .dispatch_flops_log2 = FLOPS_MOBILE,
     .dispatch_bytes_log2 = BYTES_MOBILE, H100_ORDER, .stream_rows = STREAM_ONE},
    {.renderer = "V3D|VideoCore", .name = "VideoCore", .compiled = true, .transpose = GT_STRATEGY_SIMPLE,
     .quads = true, .quad_elements = true, .quad_pairs = true, .tile = 16,
     .matmul_kernel = GT_MATMUL_KERNEL_REGISTERS_K1, .scalar_loads = true,
     .dispatch_flops_log2 = FLOPS_MOBILE, .dispatch_bytes_log2 = BYTES_MOBILE, H100_ORDER, .stream_rows = STREAM_ONE},
    {.renderer = NULL, .name = "fallback", .transpose = GT_STRATEGY_TILED_PAD,
     .matmul_kernel = GT_MATMUL_KERNEL_SHARED, .dispatch_flops_log2 = FLOPS_MOBILE,
     .dispatch_bytes_log2 = BYTES_MOBILE, H100_ORDER, .stream_rows = STREAM_ONE},
};

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Whether renderer matches pattern: alternatives separated by '|', each a
 * substring, or with a leading '^' a prefix. An alternative ending in a
 * digit names a whole model number: "Mali-G31" is not "Mali-G310". */
static bool matches(const char *renderer, const char *pattern) {
  for (const char *p = pattern; *p != '\0';) {
    bool prefix = *p == '^';
    if (prefix) p++;
    size_t len = strcspn(p, "|");
    bool model = len > 0 && is_digit(p[len - 1]);
    for (const char *r = renderer; *r != '\0'; r++) {
      if (strncmp(r, p, len) == 0 && !(model && is_digit(r[len]))) return true;
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
