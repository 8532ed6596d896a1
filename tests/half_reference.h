/* An IEEE binary16 reference for the tests, in doubles, independent of
 * the library's conversions (src/plan/half.c): exact half -> double, and the
 * half nearest a double (ties to even, infinity from 65520 on). */
#ifndef GT_TESTS_HALF_REFERENCE_H
#define GT_TESTS_HALF_REFERENCE_H

#include <math.h>
#include <stdint.h>

/* IEEE binary16 <-> float, exact one way, round to nearest even the other. */
static inline double half_value(uint16_t h) {
  int exp = (h >> 10) & 31, mant = h & 1023;
  double v = exp == 0 ? ldexp(mant, -24) : exp == 31 ? (mant ? NAN : INFINITY) : ldexp(1024 + mant, exp - 25);
  return (h & 0x8000) ? -v : v;
}

static inline uint16_t half_of(double v) {
  uint16_t sign = signbit(v) ? 0x8000 : 0;
  v = fabs(v);
  if (isnan(v)) return 0x7E00;
  if (v >= 65520.0) return sign | 0x7C00;
  int e;
  frexp(v, &e); /* v = f 2^e, f in [0.5, 1) */
  int q = e - 11 < -24 ? -24 : e - 11; /* the value of the last mantissa bit */
  double steps = nearbyint(ldexp(v, -q)); /* round to nearest even in the default mode */
  double r = ldexp(steps, q);
  /* Encode r, now exactly a half. */
  if (r == 0) return sign;
  int re;
  frexp(r, &re);
  if (re - 1 < -14) return sign | (uint16_t)ldexp(r, 24); /* denormal */
  int exp = re - 1 + 15;
  uint16_t mant = (uint16_t)(ldexp(r, -(re - 1) + 10) - 1024);
  return sign | (uint16_t)(exp << 10) | mant;
}

#endif
