/* IEEE binary16 conversions for the host side of half-precision data
 * (GT_F16): pure, no GL. */
#include "plan/gt_internal.h"

#include <string.h>

uint16_t gt_half_from_float(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  uint32_t exp = (x >> 23) & 0xFFu, mant = x & 0x7FFFFFu;
  if (exp == 0xFFu) return sign | (mant ? 0x7E00u : 0x7C00u); /* NaN stays NaN */
  /* The value as a multiple of 2^-24 (the smallest half), kept exact:
   * the float's 24-bit significand shifted by its exponent. Floats below
   * 2^-25 (float denormals among them) round to zero; at or past 65520
   * the rounding reaches infinity. */
  int e = (int)exp - 127;
  if (e < -25) return sign;
  if (e >= 16) return sign | 0x7C00u;
  uint32_t sig = exp ? mant | 0x800000u : mant; /* value = sig 2^(e - 23) */
  int shift = e < -14 ? -14 - e + 13 : 13;      /* bits dropped: to 10 mantissa bits, fewer below 2^-14 */
  uint32_t kept = sig >> shift, rest = sig & ((1u << shift) - 1u), half_way = 1u << (shift - 1);
  if (rest > half_way || (rest == half_way && (kept & 1u))) kept++; /* to nearest, ties to even */
  /* kept is the half's significand (with its leading 1 for normals);
   * a carry out of it moves the exponent up, as the encoding does. */
  uint32_t bits = e < -14 ? kept : ((uint32_t)(e + 15) << 10) + (kept - 0x400u);
  if (bits >= 0x7C00u) return sign | 0x7C00u;
  return sign | (uint16_t)bits;
}

float gt_half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 31u, mant = h & 1023u, x;
  if (exp == 31) {
    x = sign | 0x7F800000u | (mant << 13);
  } else if (exp != 0) {
    x = sign | ((exp + 112u) << 23) | (mant << 13);
  } else if (mant == 0) {
    x = sign;
  } else { /* denormal half: normal as a float */
    int e = -1;
    do {
      mant <<= 1;
      e++;
    } while (!(mant & 0x400u));
    x = sign | ((uint32_t)(112 - e) << 23) | ((mant & 1023u) << 13);
  }
  float f;
  memcpy(&f, &x, 4);
  return f;
}
