/* Whether this device's packHalf2x16 converts as IEEE rounding does where
 * GLSL ES leaves the result undefined: magnitudes from 65520 on (the
 * midpoint past the largest half, 65504) become infinities, and a NaN
 * stays a NaN. Where it does, the device table's pack_half_ieee lets the
 * shared matmul kernel pack a half c with no test (GT_VARIANT_PACK_HALF_IEEE);
 * `gltile tune` prints it for a new entry. */
#include "pack_half_probe.h"

#include <string.h>

/* The inputs come from the buffer as bits, so no compiler folds them and a
 * NaN reaches the conversion; each pair's two halves land in one word. */
static const char probe_source[] =
    "#version 310 es\n"
    "layout(local_size_x = 1) in;\n"
    "layout(std430, binding = 0) buffer Probe { highp uint v[]; };\n"
    "uniform uint pairs;\n"
    "void main() {\n"
    "  for (uint i = 0u; i < pairs; i++)\n"
    "    v[2u * pairs + i] = packHalf2x16(uintBitsToFloat(uvec2(v[2u * i], v[2u * i + 1u])));\n"
    "}\n";

/* Bits of halves and floats (macros: some do not fit an enum's int). */
#define HALF_LARGEST 0x7bffu /* 65504 */
#define HALF_INFINITY 0x7c00u
#define HALF_SIGN 0x8000u
#define FLOAT_NAN 0x7fc00000u
#define FLOAT_INFINITY 0x7f800000u
#define FLOAT_SIGN 0x80000000u
#define POISON 0xdeadbeefu /* shows a dispatch that never ran */

/* Each input (float bits) and the half the IEEE conversion gives; a NaN's
 * half is checked as any NaN. The last ordinary value and the first past
 * it on both sides, far past, and the infinities. */
static const struct {
  uint32_t in;
  uint32_t half;
} cases[] = {
    {0x477fefffu, HALF_LARGEST},                              /* 65519.996: rounds down to 65504 */
    {0x477ff000u, HALF_INFINITY},                             /* 65520: the midpoint, up */
    {0x477ff000u | FLOAT_SIGN, HALF_INFINITY | HALF_SIGN},    /* -65520 */
    {0x47800000u, HALF_INFINITY},                             /* 65536 */
    {0x4e6e6b28u, HALF_INFINITY},                             /* 1e9 */
    {0x7f7fffffu | FLOAT_SIGN, HALF_INFINITY | HALF_SIGN},    /* -FLT_MAX */
    {FLOAT_INFINITY, HALF_INFINITY},                          /* infinity */
    {FLOAT_INFINITY | FLOAT_SIGN, HALF_INFINITY | HALF_SIGN}, /* -infinity */
    {FLOAT_NAN, HALF_INFINITY | 1u},                          /* NaN */
    {FLOAT_NAN | FLOAT_SIGN | 0x1234u, HALF_INFINITY | 1u},   /* a negative NaN with a payload */
};
enum { CASES = sizeof cases / sizeof cases[0], PAIRS = CASES / 2 };

static bool half_is_nan(uint32_t h) { return (h & HALF_INFINITY) == HALF_INFINITY && (h & 0x3ffu) != 0; }

/* Whether the device's half for case i is the IEEE one. */
static bool case_holds(size_t i, uint32_t half) {
  if (half_is_nan(cases[i].half)) return half_is_nan(half);
  return half == cases[i].half;
}

int tool_probe_pack_half(bool *ieee) {
  *ieee = false;
  const char *parts[1] = {probe_source};
  GLuint program = tool_compute_program(parts, 1, "the packHalf2x16 probe"), buffer = 0;
  if (!program) return 1;
  uint32_t words[CASES + PAIRS];
  for (size_t i = 0; i < CASES; i++)
    words[i] = cases[i].in;
  for (size_t i = CASES; i < CASES + PAIRS; i++)
    words[i] = POISON;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof words, words, GL_DYNAMIC_READ);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glUseProgram(program);
  glUniform1ui(glGetUniformLocation(program, "pairs"), PAIRS);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  const uint32_t *out = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, CASES * sizeof words[0],
                                         PAIRS * sizeof words[0], GL_MAP_READ_BIT);
  int failed = out == NULL;
  if (out) {
    uint32_t packed[PAIRS];
    memcpy(packed, out, sizeof packed);
    glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
    failed = packed[0] == POISON;
    bool holds = !failed;
    for (size_t i = 0; i < CASES && holds; i++)
      holds = case_holds(i, (packed[i / 2] >> (16 * (i % 2))) & 0xffffu);
    *ieee = holds;
  }
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
  glUseProgram(0);
  glDeleteBuffers(1, &buffer);
  glDeleteProgram(program);
  failed |= glGetError() != GL_NO_ERROR;
  if (failed) fprintf(stderr, "gltile: the packHalf2x16 probe did not run\n");
  return failed;
}
