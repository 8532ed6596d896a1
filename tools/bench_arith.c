/* The rate of multiply-adds in highp, in mediump and in 16-bit float
 * vectors: whether half sums (gt_matmul_desc.precision) can be faster
 * than float ones on this device. Mali and Adreno GPUs are built to run
 * 16-bit floats at twice the 32-bit rate, which a board can confirm here;
 * NVIDIA's GLES runs all three at one rate (docs/performance.md, "Matmul
 * f32 and f16"), which is why its entry keeps half sums off. */
#define _POSIX_C_SOURCE 200809L
#include "bench_arith.h"

#include "timing.h"

#include <string.h>

enum {
  GROUP = 64,        /* invocations a group: the ES 3.1 minimum allows 128 */
  STEPS = 1024,      /* loop passes an invocation */
  CHAINS = 8,        /* independent accumulators, so no pass waits on the last */
  MAX_GROUPS = 65535 /* the ES 3.1 minimum of groups along x */
};

/* Each invocation runs CHAINS chains of STEPS 4-wide multiply-adds on
 * T4; the uniform multiplier keeps the compiler from folding them, and
 * the sum written keeps it from dropping them. */
static const char kernel_body[] =
    "layout(local_size_x = GROUP) in;\n"
    "layout(std430, binding = 0) writeonly buffer Out { float result[]; };\n"
    "uniform float scale;\n"
    "void main() {\n"
    "  T4 x = T4(float(gl_GlobalInvocationID.x & 1023u) * 1e-4), y = T4(scale);\n"
    "  T4 s0 = x, s1 = x + T4(0.125), s2 = x + T4(0.25), s3 = x + T4(0.375);\n"
    "  T4 s4 = x - T4(0.125), s5 = x - T4(0.25), s6 = x - T4(0.375), s7 = x * T4(0.5);\n"
    "  for (int i = 0; i < STEPS; i++) {\n"
    "    s0 = s0 * y + x; s1 = s1 * y + x; s2 = s2 * y + x; s3 = s3 * y + x;\n"
    "    s4 = s4 * y + x; s5 = s5 * y + x; s6 = s6 * y + x; s7 = s7 * y + x;\n"
    "  }\n"
    "  T4 s = s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;\n"
    "  result[gl_GlobalInvocationID.x] = float(s.x + s.y + s.z + s.w);\n"
    "}\n";

/* 16-bit float vectors (f16vec4) in an ES context: the extensions that
 * declare them, the first the context lists is used. */
static const char *const f16_extensions[] = {"GL_NV_gpu_shader5", "GL_AMD_gpu_shader_half_float"};

static const char *const kind_names[TOOL_ARITH_KINDS] = {"highp float", "mediump float", "f16vec4"};

static bool offered(const char *name) {
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  for (GLint i = 0; i < n; i++)
    if (strcmp((const char *)glGetStringi(GL_EXTENSIONS, (GLuint)i), name) == 0) return true;
  return false;
}

/* The program of one precision, or 0 (the driver's log on stderr). */
static GLuint build(int kind, const char *extension) {
  char head[256], extension_line[96] = "";
  if (kind == TOOL_ARITH_F16VEC)
    snprintf(extension_line, sizeof extension_line, "#extension %s : require\n", extension);
  snprintf(head, sizeof head,
           "#version 310 es\n%sprecision %s float;\n#define T4 %s\n#define GROUP %d\n#define STEPS %d\n",
           extension_line, kind == TOOL_ARITH_MEDIUMP ? "mediump" : "highp",
           kind == TOOL_ARITH_F16VEC ? "f16vec4" : "vec4", GROUP, STEPS);
  const char *parts[2] = {head, kernel_body};
  char what[64];
  snprintf(what, sizeof what, "arith %s", kind_names[kind]);
  return tool_compute_program(parts, 2, what);
}

typedef struct dispatch_args {
  GLuint program;
  GLuint groups;
} dispatch_args;

static gt_status dispatch(gt_context *ctx, const void *args) {
  (void)ctx;
  const dispatch_args *d = args;
  glUseProgram(d->program);
  glDispatchCompute(d->groups, 1, 1);
  return glGetError() == GL_NO_ERROR ? GT_OK : GT_ERR_GL;
}

/* TFLOP/s of one precision's program; 0 when a run failed. The group
 * count grows from 64 until a run takes 20 ms, so a large GPU is full and
 * llvmpipe is not kept waiting. */
static double rate(gt_context *ctx, GLuint program, unsigned reps, double *scratch) {
  glUseProgram(program);
  glUniform1f(glGetUniformLocation(program, "scale"), 0.999f);
  GLuint out = tool_buffer((size_t)MAX_GROUPS * GROUP, NULL);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  dispatch_args d = {program, 64};
  gt_status s = GT_OK;
  for (;;) {
    double ms = tool_time_once(ctx, dispatch, &d, &s);
    if (s != GT_OK || ms >= 20.0 || d.groups == MAX_GROUPS) break;
    d.groups = ms < 1.0 ? d.groups * 16u : (GLuint)(d.groups * (20.0 / ms) + 1);
    if (d.groups > MAX_GROUPS) d.groups = MAX_GROUPS;
  }
  double ms = 0;
  if (s == GT_OK) s = tool_time_median(ctx, dispatch, &d, reps, scratch, &ms);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
  glUseProgram(0);
  glDeleteBuffers(1, &out);
  double flop = 2.0 * 4 * CHAINS * STEPS * GROUP * (double)d.groups;
  return s == GT_OK && ms > 0 ? flop / ms * 1e-9 : 0;
}

int tool_arith_measure(gt_context *ctx, unsigned reps, double *scratch, tool_arith_rates *rates) {
  memset(rates, 0, sizeof *rates);
  for (size_t i = 0; i < sizeof f16_extensions / sizeof f16_extensions[0] && !rates->f16_extension; i++)
    if (offered(f16_extensions[i])) rates->f16_extension = f16_extensions[i];
  for (int kind = 0; kind < TOOL_ARITH_KINDS; kind++) {
    if (kind == TOOL_ARITH_F16VEC && !rates->f16_extension) continue;
    GLuint program = build(kind, rates->f16_extension);
    if (program) rates->tflops[kind] = rate(ctx, program, reps, scratch);
    glDeleteProgram(program);
  }
  return rates->tflops[TOOL_ARITH_HIGHP] > 0 ? 0 : 1;
}

bool tool_arith_half_is_faster(const tool_arith_rates *rates) {
  return rates->tflops[TOOL_ARITH_HIGHP] > 0 &&
         rates->tflops[TOOL_ARITH_MEDIUMP] >= 1.5 * rates->tflops[TOOL_ARITH_HIGHP];
}

int tool_bench_arith(gt_context *ctx, unsigned reps, double *scratch, tool_arith_rates *rates) {
  tool_arith_rates local;
  tool_arith_rates *r = rates ? rates : &local;
  int failed = tool_arith_measure(ctx, reps, scratch, r);
  printf("\nmultiply-adds, %d chains of 4-wide steps an invocation (median of %u runs)\n", CHAINS, reps);
  for (int kind = 0; kind < TOOL_ARITH_KINDS; kind++) {
    if (kind == TOOL_ARITH_F16VEC && !r->f16_extension) {
      printf("  %-32s not offered (no 16-bit float extension)\n", kind_names[kind]);
      continue;
    }
    char name[96];
    snprintf(name, sizeof name, "%s%s%s%s", kind_names[kind], kind == TOOL_ARITH_F16VEC ? " (" : "",
             kind == TOOL_ARITH_F16VEC ? r->f16_extension : "", kind == TOOL_ARITH_F16VEC ? ")" : "");
    if (r->tflops[kind] > 0)
      printf("  %-32s %9.2f TFLOP/s  %.2fx highp\n", name, r->tflops[kind],
             r->tflops[TOOL_ARITH_HIGHP] > 0 ? r->tflops[kind] / r->tflops[TOOL_ARITH_HIGHP] : 0);
    else
      printf("  %-32s not measured\n", name);
  }
  printf("  half sums %s here (the device table's half_is_faster: mediump at 1.5x highp or more)\n",
         tool_arith_half_is_faster(r) ? "faster" : "not faster");
  return failed;
}
