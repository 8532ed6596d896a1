/* Helpers shared by the gltile program's commands. */
#ifndef GT_TOOL_H
#define GT_TOOL_H

#include <gltile/gltile.h>

#include <GLES3/gl31.h>
#include <stdio.h>

/* Opens a headless context and a gltile context on it with desc (NULL:
 * defaults); prints why not. */
int tool_open(const gt_context_desc *desc, gt_egl *egl, gt_context **ctx);

/* A context desc with just these set. */
gt_context_desc tool_desc(bool min_limits, gt_matmul_kernel kernel);
void tool_close(gt_egl *egl, gt_context *ctx);

double tool_now_ms(void);

/* Points the driver's shader disk cache at a new empty directory (Mesa's
 * MESA_SHADER_CACHE_DIR) and turns NVIDIA's off, unless the caller set
 * them; call before the driver loads. true when a directory was made. */
bool tool_fresh_shader_cache(void);
void tool_remove_shader_cache(void);
double tool_median(double *values, unsigned count); /* sorts values */

/* A buffer object of `words` 32-bit words from data (NULL = zeros), with
 * the STATIC_DRAW hint, which asks for device memory. */
GLuint tool_buffer(size_t words, const void *data);

/* A compute program from `count` source parts, or 0 when it does not
 * compile or link (the driver's log on stderr, after "gltile: WHAT did
 * not build: "). */
GLuint tool_compute_program(const char *const *parts, int count, const char *what);

/* "f32", "i16", "u8", ...: an element type's short name; "?" for others. */
const char *tool_type_name(gt_type t);

/* The type of a short name. Returns 0, or 1 for a name not known. */
int tool_parse_type(const char *s, gt_type *out);

/* The same for `bytes` bytes of data, in a buffer rounded up to whole
 * words (zeros after the data); 0 when host memory ran out. */
GLuint tool_buffer_bytes(size_t bytes, const void *data);

/* Parses a positive integer up to max; 0 on success. */
int tool_parse_u32(const char *s, uint32_t max, uint32_t *out);

/* One benchmark result row, printed in the table, the CSV and the SVG. */
typedef struct tool_result {
  const char *op; /* transpose, matmul, copy */
  char strategy[72]; /* "auto=" and a gt_plan's kernels fit */
  const char *type; /* f32, i32, u32 */
  uint32_t rows, cols, k;
  double ms; /* median; < 0 when the case did not run */
  double gb_per_s, gflop_per_s, pct_of_copy;
  double pct_of_peak;    /* of tool_bench_options.peak_gb_per_s; 0 when not given */
  double pct_of_clblast; /* matmul: of CLBlast's time; 0 when it did not run */
  const char *verified; /* yes, sampled, no, skipped, or a status text */
} tool_result;

/* Options of bench and demo. */
typedef struct tool_bench_options {
  const char *title;    /* "demo" or "bench" */
  const char *ops;      /* "transpose", "matmul", "copy" or "all" */
  const char *sizes;    /* comma list: N, RxC, or MxNxK */
  const char *strategy; /* a strategy name, or NULL for all */
  gt_type type;
  uint32_t reps, tile;
  bool verify, min_limits;
  bool trans_a, trans_b; /* matmul: operands stored transposed */
  bool epilogue;         /* matmul: also AUTO with a bias per column and RELU */
  gt_matmul_kernel matmul_kernel;
  uint32_t batch;              /* matmul: products per batch (> 1: also batched rows) */
  uint64_t max_dispatch_bytes; /* 0 = the device table's */
  double peak_gb_per_s;        /* a known ceiling (a CUDA copy, the memory's
                                  peak); 0 = none */
  const char *csv, *svg;
} tool_bench_options;

/* Runs the cases, prints a table per case; returns the number of failed
 * verifications or runs (0 = all good). */
int tool_bench(const tool_bench_options *o);

#endif
