/* The CPU reference of gltile's 8-bit products (gt_quantization): exact
 * integer sums in 64 bits, and TFLite's requantisation (a fixed-point
 * multiply rounding halves away from zero, then a rounding shift),
 * written from its definition: the check of `gltile bench --type u8`
 * and of the tests. */
#ifndef GT_TOOLS_QUANTIZED_REFERENCE_H
#define GT_TOOLS_QUANTIZED_REFERENCE_H

#include <gltile/gltile.h>

#include <stdint.h>

/* Element i of 8-bit data (byte i in memory, as the buffer holds it), as
 * type t reads it. Reads that byte alone: a file's data may end inside a
 * word. */
static inline int32_t quantized_at(const void *data, size_t i, gt_type t) {
  uint8_t byte = ((const uint8_t *)data)[i];
  return t == GT_I8 ? (int32_t)(int8_t)byte : (int32_t)byte;
}

/* round(a b / 2^31), halves away from zero; INT32_MIN squared saturates. */
static inline int32_t quantized_high_mul(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  int64_t ab = (int64_t)a * b;
  int64_t nudge = ab >= 0 ? (1ll << 30) : 1 - (1ll << 30);
  return (int32_t)((ab + nudge) / (1ll << 31)); /* C divides toward zero */
}

/* x / 2^e, rounded to nearest, halves away from zero. */
static inline int32_t quantized_divide_pot(int32_t x, int e) {
  int64_t mask = (1ll << e) - 1, remainder = x & mask;
  int64_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  int64_t floor = x >= 0 ? (int64_t)x >> e : -((-(int64_t)x + mask) >> e);
  return (int32_t)(floor + (remainder > threshold ? 1 : 0));
}

/* The 8-bit value of type t a 32-bit sum requantises to under q. */
static inline int32_t quantized_requantize(int32_t sum, const gt_quantization *q, gt_type t) {
  int left = q->shift > 0 ? q->shift : 0, right = q->shift < 0 ? -q->shift : 0;
  int32_t shifted = (int32_t)((uint32_t)sum << left); /* wraps, as GLSL's << */
  int64_t v = (int64_t)quantized_divide_pot(quantized_high_mul(shifted, q->multiplier), right) + q->zero_c;
  int64_t lo = t == GT_I8 ? -128 : 0, hi = t == GT_I8 ? 127 : 255;
  return (int32_t)(v < lo ? lo : v > hi ? hi : v);
}

#endif
