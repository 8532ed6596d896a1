/* Whether packHalf2x16 converts as IEEE rounding does past the largest
 * half and for NaNs (the device table's pack_half_ieee). */
#ifndef GT_PACK_HALF_PROBE_H
#define GT_PACK_HALF_PROBE_H

#include "tool.h"

/* Packs ten floats past 65504, infinite or NaN on the current context in
 * one dispatch and sets *ieee when every half is the IEEE one: infinity
 * from 65520 on, a NaN for a NaN. Leaves no program or buffer bound.
 * Returns 0, or 1 (said on stderr, *ieee false) when the probe could not
 * build or run. */
int tool_probe_pack_half(bool *ieee);

#endif
