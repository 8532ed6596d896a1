/* The gltile program: `info` describes the device and the choices gltile
 * makes on it; `demo` runs the C++ AMP samples' drivers (every strategy,
 * each verified against the CPU, in a table); `bench` measures;
 * `transpose` and `matmul` run the operations on .npy files; `compile`
 * builds every program the device can reach with its own compiler. */
#include "commands.h"
#include "compile.h"
#define GT_STATIC_LINKING_ONLY
#include <gltile/gltile_advanced.h>
#include "pack_half_probe.h"
#include "tool.h"
#include "tune.h"

#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: gltile <command> [options]\n"
    "\n"
    "commands:\n"
    "  info      renderer, GL version, limits and the choices gltile makes\n"
    "  demo      transpose 999x666 and multiply 333x222x111 with every strategy,\n"
    "            verify each against the CPU and print tables\n"
    "  bench     measure strategies against a GLSL copy (and OpenBLAS, when built in)\n"
    "  tune      time AUTO's candidates on this device; print a device-table entry\n"
    "  transpose IN.npy -o OUT.npy   transpose a 2-D .npy matrix (f4, i4, u4, f2, i2,\n"
    "            u2, i1, u1) on the GPU\n"
    "  matmul A.npy B.npy -o C.npy   multiply 2-D float32 or float16 .npy matrices on the GPU\n"
    "            (gltile transpose --help, gltile matmul --help: their options)\n"
    "  compile   build every program this device can reach with its compiler; print\n"
    "            which AUTO chooses and the compiler's statistics (gltile compile --help)\n"
    "\n"
    "options (demo, bench; tune takes --reps and --min-limits):\n"
    "  --op transpose|matmul|copy|calls|loop|arith|all   what to run (bench; default\n"
    "                     all: transpose, matmul and calls);\n"
    "                     calls: the CPU cost of a warm 64x64 gt_transpose;\n"
    "                     loop: transpose and matmul after gt_write / gt_read of\n"
    "                     their operands against never-mapped buffers (square N);\n"
    "                     arith: multiply-adds a second in highp, mediump and\n"
    "                     16-bit float vectors (whether half sums can be faster)\n"
    "  --sizes LIST       comma list: N (every op), RxC (transpose, copy) or\n"
    "                     MxNxK (matmul); bench default 1024,4099\n"
    "  --strategy NAME    simple, tiled_even, tiled_pad, truncate_a, truncate_b,\n"
    "                     auto or all (default all)\n"
    "  --type T           element type of transpose and copy: f32, i32, u32, f16,\n"
    "                     i16, u16, i8 or u8 (default f32); matmul with f16 adds\n"
    "                     half-precision rows (sums in f32, then in half: 'half'),\n"
    "                     with u8 or i8 those and 8-bit\n"
    "                     quantised rows (GOP/s in the GFLOP/s column)\n"
    "  --reps N           timed runs per case, the median is reported (default 9 demo, 5 bench)\n"
    "  --tile N           8, 16 or 32 (default: chosen from the device limits)\n"
    "  --batch N          matmul: also N products of each size, packed, through\n"
    "                     gt_matmul_batched and through N gt_matmul calls\n"
    "  --trans a|b|ab|none  matmul: which operands are stored transposed\n"
    "                     (c = op(a) op(b); default none)\n"
    "  --epilogue         matmul: also AUTO adding a bias per column and applying\n"
    "                     RELU in the same pass (the row auto+bias,relu)\n"
    "  --peak-gbs GB/S    also give transposes and copies as a share of this\n"
    "                     figure (a CUDA copy of the same size, say)\n"
    "  --max-dispatch-bytes MIB   bytes one transpose, copy or image dispatch may\n"
    "                     move, in MiB (default: the device table's)\n"
    "  --csv FILE         write every result as CSV (RFC 4180: a label holding a\n"
    "                     comma or a quote is quoted, its quotes doubled)\n"
    "  --svg FILE         write throughput against size, a line per strategy\n"
    "  --no-verify        skip the CPU check (the table then says skipped)\n"
    "  --min-limits       clamp the device limits to the ES 3.1 minimums\n"
    "  --matmul-kernel registers|registers-k1|shared|texels|device   the kernel matmul's\n"
    "                     AUTO runs\n"
    "  --device-entry R   make every choice from the device-table entry of renderer R\n"
    "                     (FD630, Mali-G52, V3D: a mobile entry's programs on this GPU)\n";

static int cmd_info(bool min_limits, gt_matmul_kernel kernel) {
  gt_egl egl;
  gt_context *ctx;
  gt_context_desc desc = tool_desc(min_limits, kernel);
  if (tool_open(&desc, &egl, &ctx)) return 1;
  gt_limits l = gt_context_limits(ctx);
  printf("renderer:              %s\n", gt_context_renderer(ctx));
  printf("version:               %s\n", (const char *)glGetString(GL_VERSION));
  printf("shading language:      %s\n", (const char *)glGetString(GL_SHADING_LANGUAGE_VERSION));
  printf("reset notification:    %s\n", gt_context_reports_resets(ctx)
                                            ? "yes (lose context on reset)"
                                            : "no (a GPU reset may go unreported)");
  printf("shader atomics:        %s\n",
         gt_context_has_atomics(ctx) ? "yes" : "no (2- and 1-byte kernels and half c refused)");
  printf("half sums:             %s\n",
         gt_context_half_is_faster(ctx) ? "faster (half-if-faster sums in mediump)"
                                        : "not faster (half-if-faster sums in f32; half rounds each sum)");
  bool flushes = false;
  gt_status probed = gt_context_flushes_denormals(ctx, &flushes);
  printf("f32 denormals:         %s%s\n",
         probed != GT_OK ? "unknown, the probe failed: "
         : flushes       ? "flushed to zero (sums below 2^-126 count as 0)"
                         : "kept",
         probed != GT_OK ? gt_status_string(probed) : "");
  bool pack_ieee = false;
  int unprobed = tool_probe_pack_half(&pack_ieee);
  printf("packHalf2x16:          %s\n",
         unprobed    ? "unknown, its probe did not run"
         : pack_ieee ? "IEEE past 65504 and for NaNs (pack_half_ieee may be set)"
                     : "not IEEE past 65504 or for NaNs (pack_half_ieee must stay off)");
  printf("limits%s\n", min_limits ? " (clamped to the ES 3.1 minimums):" : ":");
  printf("  shared memory:       %u bytes\n", l.max_shared_bytes);
  printf("  invocations/group:   %u\n", l.max_invocations);
  printf("  group size:          %u x %u x %u\n", l.max_group_size[0], l.max_group_size[1],
         l.max_group_size[2]);
  printf("  group count:         %u x %u x %u\n", l.max_group_count[0], l.max_group_count[1],
         l.max_group_count[2]);
  printf("  storage block:       %llu bytes\n", (unsigned long long)l.max_storage_block_bytes);
  printf("  storage blocks:      %u per compute shader\n", l.max_storage_blocks);
  printf("  binding alignment:   %u bytes\n", l.storage_offset_alignment);
  gt_device_basis basis = gt_context_device_basis(ctx);
  printf("choices (device table entry \"%s\", %s):\n", gt_context_device_name(ctx),
         basis == GT_DEVICE_MEASURED   ? "measured on such a device"
         : basis == GT_DEVICE_COMPILED ? "chosen from its compiler's statistics, not measured"
                                       : "not measured");
  printf("  default tile:        %u\n", gt_context_default_tile(ctx));
  printf("  transpose auto:      %s\n", gt_strategy_name(gt_context_auto_strategy(ctx)));
  /* The library's own plan for a few shapes (gt_transpose_plan). */
  static const struct {
    uint32_t rows, cols;
    gt_type type;
  } shapes[] = {{4096, 4096, GT_F32}, {4099, 4097, GT_F32}, {4096, 4096, GT_U8}};
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    gt_view src = {1, 0, shapes[i].rows, shapes[i].cols, 0, shapes[i].type};
    gt_view dst = {2, 0, shapes[i].cols, shapes[i].rows, 0, shapes[i].type};
    gt_plan plan;
    if (gt_transpose_plan(ctx, src, dst, NULL, &plan) == GT_OK)
      printf("    %ux%u %-4s %s (%s)\n", shapes[i].rows, shapes[i].cols, tool_type_name(shapes[i].type),
             plan.kernels, plan.reason);
  }
  printf("  matmul per dispatch: %llu FLOP at most\n", (unsigned long long)l.max_dispatch_flops);
  printf("  other per dispatch:  %llu bytes moved at most (transpose, copy, images)\n",
         (unsigned long long)l.max_dispatch_bytes);
  printf("  read staging:        %llu bytes\n", (unsigned long long)l.staging_bytes);
  gt_matmul_kernel chosen = gt_context_matmul_kernel(ctx);
  printf("  matmul auto:         %s\n",
         chosen == GT_MATMUL_KERNEL_SHARED   ? "8x8 per invocation, 128x128 blocks through shared memory"
         : chosen == GT_MATMUL_KERNEL_TEXELS ? "8x8 per invocation in registers, a and b as texels"
         : chosen == GT_MATMUL_KERNEL_REGISTERS_K1
             ? "4x4 per invocation in registers, one k per step, no shared memory"
             : "4x4 per invocation in registers, no shared memory");
  /* The library's own plan for a few products (gt_matmul_plan). */
  static const struct {
    uint32_t m, n, k;
    gt_type type;
  } products[] = {{512, 512, 512, GT_F32},
                  {4096, 4096, 4096, GT_F32},
                  {4099, 4097, 4101, GT_F32},
                  {4096, 4096, 4096, GT_F16}};
  for (size_t i = 0; i < sizeof products / sizeof products[0]; i++) {
    uint32_t m = products[i].m, n = products[i].n, k = products[i].k;
    gt_view a = {1, 0, m, k, 0, products[i].type}, b = {2, 0, k, n, 0, products[i].type};
    gt_view c = {3, 0, m, n, 0, GT_F32};
    gt_plan plan;
    if (gt_matmul_plan(ctx, a, b, c, NULL, &plan) == GT_OK)
      printf("    %ux%ux%u %-4s %s (%s)\n", m, n, k, tool_type_name(products[i].type), plan.kernels,
             plan.reason);
  }
  tool_close(&egl, ctx);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    fputs(usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const char *cmd = argv[1];
  /* The file commands parse their own options. */
  if (strcmp(cmd, "transpose") == 0) return tool_cmd_transpose(argc - 1, argv + 1);
  if (strcmp(cmd, "matmul") == 0) return tool_cmd_matmul(argc - 1, argv + 1);
  if (strcmp(cmd, "compile") == 0) return tool_cmd_compile(argc - 1, argv + 1);
  bool demo = strcmp(cmd, "demo") == 0;
  tool_bench_options o = {
      .title = demo ? "demo" : "bench",
      .ops = "all",
      .sizes = demo ? "999x666,333x222x111" : "1024,4099",
      .type = GT_F32,
      .reps = demo ? 9 : 5,
      .verify = true,
  };
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    int bad = 0;
    if (strcmp(a, "--help") == 0) {
      fputs(usage, stdout);
      return 0;
    } else if (strcmp(a, "--min-limits") == 0) {
      o.min_limits = true;
      continue;
    } else if (strcmp(a, "--no-verify") == 0) {
      o.verify = false;
      continue;
    } else if (strcmp(a, "--epilogue") == 0) {
      o.epilogue = true;
      continue;
    }
    /* Every other option takes a value. */
    if (v == NULL)
      bad = 1;
    else if (strcmp(a, "--op") == 0) {
      o.ops = v;
      bad = strcmp(v, "transpose") && strcmp(v, "matmul") && strcmp(v, "copy") && strcmp(v, "calls") &&
            strcmp(v, "loop") && strcmp(v, "arith") && strcmp(v, "all");
    } else if (strcmp(a, "--sizes") == 0)
      o.sizes = v;
    else if (strcmp(a, "--strategy") == 0)
      o.strategy = v;
    else if (strcmp(a, "--type") == 0)
      bad = tool_parse_type(v, &o.type);
    else if (strcmp(a, "--reps") == 0)
      bad = tool_parse_u32(v, 1000, &o.reps);
    else if (strcmp(a, "--trans") == 0) {
      o.trans_a = strcmp(v, "a") == 0 || strcmp(v, "ab") == 0;
      o.trans_b = strcmp(v, "b") == 0 || strcmp(v, "ab") == 0;
      bad = strcmp(v, "a") && strcmp(v, "b") && strcmp(v, "ab") && strcmp(v, "none");
    } else if (strcmp(a, "--peak-gbs") == 0) {
      uint32_t gbs = 0;
      bad = tool_parse_u32(v, 1u << 20, &gbs);
      o.peak_gb_per_s = gbs;
    } else if (strcmp(a, "--max-dispatch-bytes") == 0) {
      uint32_t mib = 0;
      bad = tool_parse_u32(v, 1u << 20, &mib);
      o.max_dispatch_bytes = (uint64_t)mib << 20;
    } else if (strcmp(a, "--tile") == 0)
      bad = tool_parse_u32(v, 32, &o.tile);
    else if (strcmp(a, "--batch") == 0)
      bad = tool_parse_u32(v, 1u << 20, &o.batch);
    else if (strcmp(a, "--matmul-kernel") == 0) {
      o.matmul_kernel = strcmp(v, "registers") == 0      ? GT_MATMUL_KERNEL_REGISTERS
                        : strcmp(v, "shared") == 0       ? GT_MATMUL_KERNEL_SHARED
                        : strcmp(v, "texels") == 0       ? GT_MATMUL_KERNEL_TEXELS
                        : strcmp(v, "registers-k1") == 0 ? GT_MATMUL_KERNEL_REGISTERS_K1
                                                         : GT_MATMUL_KERNEL_DEVICE;
      bad = strcmp(v, "registers") && strcmp(v, "registers-k1") && strcmp(v, "shared") &&
            strcmp(v, "texels") && strcmp(v, "device");
    } else if (strcmp(a, "--csv") == 0)
      o.csv = v;
    else if (strcmp(a, "--svg") == 0)
      o.svg = v;
    else if (strcmp(a, "--device-entry") == 0)
      gt_device_entry_pretend(v); /* before any context is made */
    else
      bad = 1;
    if (bad) {
      fprintf(stderr, "gltile: bad option or value: %s %s\n\n%s", a, v ? v : "", usage);
      return 2;
    }
    i++;
  }
  if (strcmp(cmd, "info") == 0) return cmd_info(o.min_limits, o.matmul_kernel);
  if (strcmp(cmd, "bench") == 0 && (strcmp(o.ops, "calls") == 0 || strcmp(o.ops, "all") == 0)) {
    /* Before the driver loads: its disk cache starts empty (Mesa) or is
     * off (NVIDIA), so the first start-up compiles for real. */
    bool fresh = tool_fresh_shader_cache();
    int failed = tool_bench(&o);
    if (fresh) tool_remove_shader_cache();
    return failed ? 1 : 0;
  }
  if (demo || strcmp(cmd, "bench") == 0) return tool_bench(&o) ? 1 : 0;
  if (strcmp(cmd, "tune") == 0) {
    tool_tune_options t = {o.reps, o.min_limits};
    return tool_tune(&t);
  }
  fprintf(stderr, "gltile: unknown command '%s'\n\n%s", cmd, usage);
  return 2;
}
