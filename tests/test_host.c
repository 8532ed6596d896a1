/* Host-only tests: everything in gltile that needs no GL context.
 *
 * This program never creates a GL context (it never calls gt_egl_open), so
 * every gt_context_init below runs with no context current and must fail
 * cleanly: right status, *out set to NULL, no host memory leaked. */
#include <gltile/gltile.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "half_reference.h"

/* ------------------------------------------------------------------ */
/* Helpers.                                                            */

static gt_view make_view(uint32_t buffer, size_t offset, uint32_t rows, uint32_t cols,
                         uint32_t pitch) {
  gt_view v;
  memset(&v, 0, sizeof v);
  v.buffer = buffer;
  v.offset = offset;
  v.rows = rows;
  v.cols = cols;
  v.pitch = pitch;
  v.type = GT_F32;
  return v;
}

static gt_extent make_extent(uint32_t rows, uint32_t cols) {
  gt_extent e;
  e.rows = rows;
  e.cols = cols;
  return e;
}

/* ------------------------------------------------------------------ */
/* 1. Status strings, strategy names, type sizes.                      */

#define STATUS_COUNT ((int)GT_ERR_BAD_CACHE + 1)

static void test_status_string(void) {
  const char *names[STATUS_COUNT];
  const char *unknown_a = gt_status_string((gt_status)999);
  const char *unknown_b = gt_status_string((gt_status)-1);
  const char *unknown_c = gt_status_string((gt_status)(GT_ERR_BAD_CACHE + 1));
  int i, j;

  for (i = 0; i < STATUS_COUNT; i++) {
    names[i] = gt_status_string((gt_status)i);
    CHECK(names[i] != NULL);
    if (names[i] == NULL) return;
    CHECK(names[i][0] != '\0');
  }
  for (i = 0; i < STATUS_COUNT; i++) {
    for (j = i + 1; j < STATUS_COUNT; j++) {
      if (strcmp(names[i], names[j]) == 0) {
        fprintf(stderr, "status %d and %d share the text \"%s\"\n", i, j, names[i]);
      }
      CHECK(strcmp(names[i], names[j]) != 0);
    }
  }

  /* Unknown codes: never NULL; the header promises one fixed text, which
   * must not be mistaken for any real code's text. */
  CHECK(unknown_a != NULL);
  CHECK(unknown_b != NULL);
  CHECK(unknown_c != NULL);
  if (unknown_a == NULL || unknown_b == NULL || unknown_c == NULL) return;
  CHECK(unknown_a[0] != '\0');
  CHECK(strcmp(unknown_a, unknown_b) == 0);
  CHECK(strcmp(unknown_a, unknown_c) == 0);
  for (i = 0; i < STATUS_COUNT; i++) CHECK(strcmp(unknown_a, names[i]) != 0);
}

#define STRATEGY_COUNT ((int)GT_STRATEGY_TRUNCATE_B + 1)

static void test_strategy_name(void) {
  const char *names[STRATEGY_COUNT];
  const char *unknown;
  int i, j;

  for (i = 0; i < STRATEGY_COUNT; i++) {
    names[i] = gt_strategy_name((gt_strategy)i);
    CHECK(names[i] != NULL);
    if (names[i] == NULL) return;
    CHECK(names[i][0] != '\0');
    /* "unknown" is reserved for values that are not strategies. */
    CHECK(strcmp(names[i], "unknown") != 0);
  }
  for (i = 0; i < STRATEGY_COUNT; i++) {
    for (j = i + 1; j < STRATEGY_COUNT; j++) CHECK(strcmp(names[i], names[j]) != 0);
  }

  unknown = gt_strategy_name((gt_strategy)(GT_STRATEGY_TRUNCATE_B + 1));
  CHECK(unknown != NULL && strcmp(unknown, "unknown") == 0);
  unknown = gt_strategy_name((gt_strategy)99);
  CHECK(unknown != NULL && strcmp(unknown, "unknown") == 0);
  unknown = gt_strategy_name((gt_strategy)-1);
  CHECK(unknown != NULL && strcmp(unknown, "unknown") == 0);
}

static void test_type_size(void) {
  CHECK_EQ_U(gt_type_size(GT_F32), 4);
  CHECK_EQ_U(gt_type_size(GT_I32), 4);
  CHECK_EQ_U(gt_type_size(GT_U32), 4);
  CHECK_EQ_U(gt_type_size(GT_F16), 2);
  CHECK_EQ_U(gt_type_size(GT_I16), 2);
  CHECK_EQ_U(gt_type_size(GT_U16), 2);
  CHECK_EQ_U(gt_type_size(GT_I8), 1);
  CHECK_EQ_U(gt_type_size(GT_U8), 1);
  CHECK_EQ_U(gt_type_size((gt_type)0), 0);
  CHECK_EQ_U(gt_type_size((gt_type)99), 0);
}

/* gt_half_to_float on every half and gt_half_from_float on every half's
 * value, on the midpoints between neighbouring halves (ties to even), just
 * off them, and on floats far below, above and beside the range, against
 * tests/half_reference.h. */
static void test_half_conversions(void) {
  unsigned long wrong = 0;
  for (uint32_t h = 0; h < 65536; h++) {
    double v = half_value((uint16_t)h);
    float f = gt_half_to_float((uint16_t)h);
    bool nan = isnan(v);
    if (nan ? !isnan(f) : (double)f != v || !signbit(f) != !signbit(v)) wrong++;
    uint16_t back = gt_half_from_float(f);
    if (nan ? (back & 0x7C00) != 0x7C00 || (back & 0x3FF) == 0 : back != h) wrong++;
    if (nan || (h & 0x7FFF) >= 0x7BFF) continue; /* no next finite half */
    double next = half_value((uint16_t)(h + 1)), mid = (v + next) / 2; /* exact in float */
    float fm = (float)mid;
    if (gt_half_from_float(fm) != half_of(mid)) wrong++;
    float above = nextafterf(fm, 1e30f), below = nextafterf(fm, -1e30f);
    if (gt_half_from_float(above) != half_of(above) || gt_half_from_float(below) != half_of(below)) wrong++;
  }
  static const float others[] = {65504.0f, 65519.99f, 65520.0f, 70000.0f, 1e30f, -1e30f, 1e-30f, -1e-30f,
                                 1e-40f, 5.96e-8f, 2.98e-8f, 2.9802322e-8f, 3.0e-8f, 0.1f, -0.333f};
  for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
    if (gt_half_from_float(others[i]) != half_of(others[i])) wrong++;
  CHECK_EQ_U(wrong, 0);
  CHECK(gt_half_from_float(INFINITY) == 0x7C00 && gt_half_from_float(-INFINITY) == 0xFC00);
  CHECK((gt_half_from_float(NAN) & 0x7C00) == 0x7C00 && (gt_half_from_float(NAN) & 0x3FF) != 0);
}

/* ------------------------------------------------------------------ */
/* 2. gt_extent_pad / gt_extent_truncate.                              */

/* Reference rounding in 64 bits, saturating as the header describes. */
static uint32_t ref_pad(uint32_t n, uint32_t tile) {
  uint64_t up;
  if (tile == 0) return n;
  up = ((uint64_t)n + tile - 1) / tile * tile;
  if (up > UINT32_MAX) return UINT32_MAX / tile * tile;
  return (uint32_t)up;
}

static uint32_t ref_truncate(uint32_t n, uint32_t tile) {
  return tile == 0 ? n : n / tile * tile;
}

#define CHECK_EXTENT(got, want_rows, want_cols)                          \
  do {                                                                   \
    gt_extent check_e_ = (got);                                          \
    CHECK_EQ_U(check_e_.rows, (want_rows));                              \
    CHECK_EQ_U(check_e_.cols, (want_cols));                              \
  } while (0)

static void test_extent(void) {
  uint32_t n, t;
  unsigned long mismatches = 0;

  /* The seed's example. */
  CHECK_EXTENT(gt_extent_pad(make_extent(999, 666), 16, 16), 1008, 672);
  CHECK_EXTENT(gt_extent_truncate(make_extent(999, 666), 16, 16), 992, 656);

  /* Exact multiples are unchanged. */
  CHECK_EXTENT(gt_extent_pad(make_extent(1024, 512), 16, 16), 1024, 512);
  CHECK_EXTENT(gt_extent_truncate(make_extent(1024, 512), 16, 16), 1024, 512);
  CHECK_EXTENT(gt_extent_pad(make_extent(64, 96), 32, 32), 64, 96);
  CHECK_EXTENT(gt_extent_truncate(make_extent(64, 96), 32, 32), 64, 96);

  /* Smaller than one tile: pad to one tile, truncate to nothing. */
  CHECK_EXTENT(gt_extent_pad(make_extent(1, 1), 16, 16), 16, 16);
  CHECK_EXTENT(gt_extent_truncate(make_extent(1, 1), 16, 16), 0, 0);

  /* Zero is a multiple of every tile. */
  CHECK_EXTENT(gt_extent_pad(make_extent(0, 0), 16, 16), 0, 0);
  CHECK_EXTENT(gt_extent_truncate(make_extent(0, 0), 16, 16), 0, 0);

  /* A zero tile dimension leaves that dimension alone. */
  CHECK_EXTENT(gt_extent_pad(make_extent(999, 666), 0, 16), 999, 672);
  CHECK_EXTENT(gt_extent_pad(make_extent(999, 666), 16, 0), 1008, 666);
  CHECK_EXTENT(gt_extent_pad(make_extent(999, 666), 0, 0), 999, 666);
  CHECK_EXTENT(gt_extent_truncate(make_extent(999, 666), 0, 16), 999, 656);
  CHECK_EXTENT(gt_extent_truncate(make_extent(999, 666), 16, 0), 992, 666);
  CHECK_EXTENT(gt_extent_truncate(make_extent(999, 666), 0, 0), 999, 666);

  /* Non-square tiles: rows go with tile_rows, cols with tile_cols. The
   * 10x10 case tells a swapped pair apart. */
  CHECK_EXTENT(gt_extent_pad(make_extent(999, 666), 8, 32), 1000, 672);
  CHECK_EXTENT(gt_extent_truncate(make_extent(999, 666), 8, 32), 992, 640);
  CHECK_EXTENT(gt_extent_pad(make_extent(10, 10), 8, 32), 16, 32);
  CHECK_EXTENT(gt_extent_truncate(make_extent(10, 10), 8, 32), 8, 0);

  /* pad saturates at the largest multiple of the tile that fits 32 bits,
   * instead of wrapping to a small number. */
  CHECK_EXTENT(gt_extent_pad(make_extent(0xFFFFFFFFu, 0xFFFFFFF1u), 16, 16), 0xFFFFFFF0u,
               0xFFFFFFF0u);
  CHECK_EXTENT(gt_extent_pad(make_extent(0xFFFFFFFFu, 0xFFFFFFE1u), 32, 32), 0xFFFFFFE0u,
               0xFFFFFFE0u);
  /* 0xFFFFFFF0 is already a multiple of 16: no saturation needed. */
  CHECK_EXTENT(gt_extent_pad(make_extent(0xFFFFFFF0u, 0xFFFFFFEFu), 16, 16), 0xFFFFFFF0u,
               0xFFFFFFF0u);
  /* 0xFFFFFFFF = 3 * 0x55555555, so it is its own multiple of 3. */
  CHECK_EXTENT(gt_extent_pad(make_extent(0xFFFFFFFFu, 0xFFFFFFFEu), 3, 3), 0xFFFFFFFFu,
               0xFFFFFFFFu);
  /* Huge tiles. */
  CHECK_EXTENT(gt_extent_pad(make_extent(0x80000001u, 1), 0x80000000u, 0xFFFFFFFFu),
               0x80000000u, 0xFFFFFFFFu);
  CHECK_EXTENT(gt_extent_pad(make_extent(1, 1), 0x80000001u, 0x80000001u), 0x80000001u,
               0x80000001u);
  CHECK_EXTENT(gt_extent_truncate(make_extent(0xFFFFFFFFu, 0x7FFFFFFFu), 16, 0x80000000u),
               0xFFFFFFF0u, 0);

  /* Small exhaustive sweep against the reference, both dimensions, with
   * different tiles per dimension. */
  for (n = 0; n <= 200; n++) {
    for (t = 0; t <= 40; t++) {
      uint32_t t2 = 41 - t; /* a different tile for the other dimension */
      gt_extent p = gt_extent_pad(make_extent(n, 200 - n), t, t2);
      gt_extent q = gt_extent_truncate(make_extent(n, 200 - n), t, t2);
      if (p.rows != ref_pad(n, t) || p.cols != ref_pad(200 - n, t2) ||
          q.rows != ref_truncate(n, t) || q.cols != ref_truncate(200 - n, t2)) {
        if (mismatches < 5) {
          fprintf(stderr, "extent %ux%u tile %ux%u: pad %ux%u truncate %ux%u\n", (unsigned)n,
                  (unsigned)(200 - n), (unsigned)t, (unsigned)t2, (unsigned)p.rows,
                  (unsigned)p.cols, (unsigned)q.rows, (unsigned)q.cols);
        }
        mismatches++;
      }
    }
  }
  CHECK_EQ_U(mismatches, 0);

  /* Sweep near the top of the range, where pad must saturate. */
  mismatches = 0;
  for (n = 0xFFFFFF00u; n != 0; n++) { /* stops after 0xFFFFFFFF wraps */
    for (t = 1; t <= 40; t++) {
      gt_extent p = gt_extent_pad(make_extent(n, n), t, t);
      if (p.rows != ref_pad(n, t) || p.cols != ref_pad(n, t)) mismatches++;
    }
  }
  CHECK_EQ_U(mismatches, 0);
}

/* ------------------------------------------------------------------ */
/* 3. gt_section.                                                      */

#define CHECK_REJECTED(view)                                             \
  do {                                                                   \
    gt_view check_v_ = (view);                                           \
    CHECK_EQ_U(check_v_.rows, 0);                                        \
    CHECK_EQ_U(check_v_.cols, 0);                                        \
  } while (0)

static void test_section(void) {
  gt_view parent = make_view(7, 100, 10, 8, 12);
  gt_view flat = make_view(3, 5, 6, 9, 0); /* pitch 0 = cols = 9 */
  gt_view s, s2, direct;

  parent.type = GT_I32;

  /* Offset moves by row * pitch + col; pitch, buffer and type stay. */
  s = gt_section(parent, 2, 3, 4, 5);
  CHECK_EQ_U(s.buffer, 7);
  CHECK_EQ_U(s.offset, 100 + 2 * 12 + 3);
  CHECK_EQ_U(s.rows, 4);
  CHECK_EQ_U(s.cols, 5);
  CHECK_EQ_U(s.pitch, 12);
  CHECK_EQ_U(s.type, GT_I32);

  /* A pitch-0 parent: the section's pitch is the parent's cols, stated
   * explicitly, since the section's own cols differ. */
  s = gt_section(flat, 1, 2, 3, 4);
  CHECK_EQ_U(s.buffer, 3);
  CHECK_EQ_U(s.offset, 5 + 1 * 9 + 2);
  CHECK_EQ_U(s.rows, 3);
  CHECK_EQ_U(s.cols, 4);
  CHECK_EQ_U(s.pitch, 9);
  CHECK_EQ_U(s.type, GT_F32);

  /* The whole parent as a window: same elements, pitch made explicit. */
  s = gt_section(flat, 0, 0, 6, 9);
  CHECK_EQ_U(s.offset, 5);
  CHECK_EQ_U(s.rows, 6);
  CHECK_EQ_U(s.cols, 9);
  CHECK_EQ_U(s.pitch, 9);

  /* A window touching the far corner exactly is still inside. */
  s = gt_section(parent, 9, 7, 1, 1);
  CHECK_EQ_U(s.offset, 100 + 9 * 12 + 7);
  CHECK_EQ_U(s.rows, 1);
  CHECK_EQ_U(s.cols, 1);
  s = gt_section(parent, 6, 3, 4, 5);
  CHECK_EQ_U(s.rows, 4);
  CHECK_EQ_U(s.cols, 5);

  /* Section of a section composes: the same as one section from the
   * parent at the summed position. */
  s = gt_section(parent, 2, 3, 4, 5);
  s2 = gt_section(s, 1, 1, 2, 2);
  direct = gt_section(parent, 3, 4, 2, 2);
  CHECK_EQ_U(s2.offset, 100 + 3 * 12 + 4);
  CHECK_EQ_U(s2.offset, direct.offset);
  CHECK_EQ_U(s2.rows, 2);
  CHECK_EQ_U(s2.cols, 2);
  CHECK_EQ_U(s2.pitch, 12);
  CHECK_EQ_U(s2.buffer, 7);
  CHECK_EQ_U(s2.type, GT_I32);
  s = gt_section(flat, 1, 2, 3, 4);
  s2 = gt_section(s, 2, 3, 1, 1);
  CHECK_EQ_U(s2.offset, 5 + 3 * 9 + 5);
  CHECK_EQ_U(s2.pitch, 9);
  /* The inner window is bounded by the section, not the parent. */
  CHECK_REJECTED(gt_section(s, 0, 0, 4, 1));
  CHECK_REJECTED(gt_section(s, 0, 0, 1, 5));

  /* Windows not inside the parent. */
  CHECK_REJECTED(gt_section(parent, 7, 0, 4, 1));  /* 7 + 4 > 10 rows */
  CHECK_REJECTED(gt_section(parent, 0, 4, 1, 5));  /* 4 + 5 > 8 cols */
  CHECK_REJECTED(gt_section(parent, 10, 0, 1, 1)); /* starts past the end */
  CHECK_REJECTED(gt_section(parent, 0, 8, 1, 1));
  CHECK_REJECTED(gt_section(parent, 0, 0, 11, 8));
  CHECK_REJECTED(gt_section(parent, 0, 0, 10, 9));
  CHECK_REJECTED(gt_section(flat, 0, 0, 6, 10)); /* pitch 0: bound is cols */
  /* row + rows wraps around 32 bits to a small number: still outside. */
  CHECK_REJECTED(gt_section(parent, 0xFFFFFFFFu, 0, 2, 1));
  CHECK_REJECTED(gt_section(parent, 0, 0xFFFFFFFFu, 1, 2));
  CHECK_REJECTED(gt_section(parent, 1, 0, 0xFFFFFFFFu, 1));
  CHECK_REJECTED(gt_section(parent, 0, 1, 1, 0xFFFFFFFFu));
  CHECK_REJECTED(gt_section(parent, 0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u));

  /* row * pitch past 32 bits: the offset is size_t, so with a 64-bit
   * size_t it must not be computed in 32-bit arithmetic. */
  if (sizeof(size_t) >= 8) {
    gt_view big = make_view(1, 3, 0x20000u, 0x20000u, 0);
    s = gt_section(big, 0x1FFFFu, 5, 1, 1);
    CHECK_EQ_U(s.offset, (uint64_t)3 + (uint64_t)0x1FFFFu * 0x20000u + 5);
    CHECK_EQ_U(s.pitch, 0x20000u);
  }

  /* Nor may the offset wrap around SIZE_MAX: a window whose start would
   * lie past it is not inside (found by tests/fuzz_api.c). */
  gt_view top = make_view(1, SIZE_MAX - 64, 16, 4, 8);
  s = gt_section(top, 8, 0, 1, 4);
  CHECK_EQ_U(s.offset, SIZE_MAX);
  CHECK_EQ_U(s.rows, 1);
  CHECK_REJECTED(gt_section(top, 8, 1, 1, 3));
  top.offset = SIZE_MAX;
  CHECK_REJECTED(gt_section(top, 8, 0, 1, 4));
}

/* ------------------------------------------------------------------ */
/* 4. gt_views_alias.                                                  */

/* Small views for the exhaustive test: offsets 0..6, rows and cols 1..3,
 * pitch cols..cols+3. The last element is at most 6 + 2 * 6 + 2 = 20. */
#define ALIAS_SPACE 32
#define ALIAS_MAX_VIEWS (7 * 3 * 3 * 4 + 7 * 3 * 3)

typedef struct alias_case {
  gt_view view;
  bool elems[ALIAS_SPACE]; /* brute-force element set */
} alias_case;

static alias_case alias_cases[ALIAS_MAX_VIEWS];

/* Marks offset + r * pitch + c for every element of v. */
static void mark_elements(gt_view v, bool *elems) {
  uint32_t pitch = v.pitch ? v.pitch : v.cols;
  uint32_t r, c;
  memset(elems, 0, ALIAS_SPACE * sizeof *elems);
  for (r = 0; r < v.rows; r++) {
    for (c = 0; c < v.cols; c++) elems[v.offset + (size_t)r * pitch + c] = true;
  }
}

static bool brute_alias(const alias_case *a, const alias_case *b) {
  int i;
  for (i = 0; i < ALIAS_SPACE; i++) {
    if (a->elems[i] && b->elems[i]) return true;
  }
  return false;
}

static void test_alias_exhaustive(void) {
  int n = 0, i, j;
  uint32_t off, rows, cols, pitch;
  unsigned long mismatches = 0, asymmetric = 0, pairs = 0;

  /* Every view twice where pitch == cols: once with the pitch written out
   * and once as 0, which must mean the same thing. */
  for (off = 0; off <= 6; off++) {
    for (rows = 1; rows <= 3; rows++) {
      for (cols = 1; cols <= 3; cols++) {
        for (pitch = cols; pitch <= cols + 3; pitch++) {
          alias_cases[n].view = make_view(1, off, rows, cols, pitch);
          mark_elements(alias_cases[n].view, alias_cases[n].elems);
          n++;
          if (pitch == cols) {
            alias_cases[n].view = make_view(1, off, rows, cols, 0);
            mark_elements(alias_cases[n].view, alias_cases[n].elems);
            n++;
          }
        }
      }
    }
  }
  CHECK_EQ_U(n, ALIAS_MAX_VIEWS);

  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++) {
      const gt_view *a = &alias_cases[i].view, *b = &alias_cases[j].view;
      bool want = brute_alias(&alias_cases[i], &alias_cases[j]);
      bool got = gt_views_alias(*a, *b);
      bool got_swapped = gt_views_alias(*b, *a);
      pairs++;
      if (got != want) {
        if (mismatches < 10) {
          fprintf(stderr,
                  "alias(off %u %ux%u pitch %u, off %u %ux%u pitch %u) = %d, want %d\n",
                  (unsigned)a->offset, (unsigned)a->rows, (unsigned)a->cols,
                  (unsigned)a->pitch, (unsigned)b->offset, (unsigned)b->rows,
                  (unsigned)b->cols, (unsigned)b->pitch, (int)got, (int)want);
        }
        mismatches++;
      }
      if (got != got_swapped) asymmetric++;
    }
  }
  CHECK_EQ_U(pairs, (unsigned long)n * (unsigned long)n);
  CHECK_EQ_U(mismatches, 0);
  CHECK_EQ_U(asymmetric, 0);
}

/* Checks alias(a, b) == want and alias(b, a) == want. */
#define CHECK_ALIAS(a, b, want)                                          \
  do {                                                                   \
    CHECK_EQ_U(gt_views_alias((a), (b)), (want));                       \
    CHECK_EQ_U(gt_views_alias((b), (a)), (want));                       \
  } while (0)

static void test_alias_cases(void) {
  gt_view a = make_view(1, 0, 4, 4, 6);
  gt_view other_buffer = a;
  gt_view matrix = make_view(1, 0, 8, 8, 0);
  gt_view left = gt_section(matrix, 0, 0, 8, 4);
  gt_view right = gt_section(matrix, 0, 4, 8, 4);
  gt_view top = gt_section(matrix, 0, 0, 4, 8);
  gt_view bottom = gt_section(matrix, 4, 0, 4, 8);
  gt_view typed = a;

  /* Same elements on different buffers never alias. */
  other_buffer.buffer = 2;
  CHECK_ALIAS(a, other_buffer, false);
  CHECK_ALIAS(a, a, true);

  /* All types are 32 bits wide, so the element type does not matter. */
  typed.type = GT_U32;
  CHECK_ALIAS(a, typed, true);

  /* Zero-extent views share nothing, even with views covering their
   * offset, and even with themselves. */
  CHECK_ALIAS(a, make_view(1, 0, 0, 4, 6), false);
  CHECK_ALIAS(a, make_view(1, 0, 4, 0, 6), false);
  CHECK_ALIAS(a, make_view(1, 0, 0, 0, 0), false);
  CHECK_ALIAS(a, make_view(1, 7, 0, 3, 0), false);
  CHECK_ALIAS(make_view(1, 0, 0, 4, 0), make_view(1, 0, 0, 4, 0), false);
  CHECK_ALIAS(make_view(1, 0, 4, 0, 0), make_view(1, 0, 4, 0, 0), false);
  /* A rejected section (rows = cols = 0) aliases nothing either. */
  CHECK_ALIAS(matrix, gt_section(matrix, 7, 7, 2, 2), false);

  /* Side-by-side sections of an 8x8 matrix: their spans interleave but
   * they share no element. */
  CHECK_ALIAS(left, right, false);
  CHECK_ALIAS(top, bottom, false);
  CHECK_ALIAS(left, top, true);
  CHECK_ALIAS(right, bottom, true);
  /* A section and its parent. */
  CHECK_ALIAS(left, matrix, true);
  CHECK_ALIAS(right, matrix, true);
  CHECK_ALIAS(gt_section(matrix, 3, 3, 1, 1), matrix, true);
  /* Single elements. */
  CHECK_ALIAS(gt_section(matrix, 3, 3, 1, 1), left, true);
  CHECK_ALIAS(gt_section(matrix, 3, 3, 1, 1), right, false);
  CHECK_ALIAS(gt_section(matrix, 7, 4, 1, 1), right, true);
  CHECK_ALIAS(gt_section(matrix, 7, 4, 1, 1), left, false);
  /* Sections of sections keep the parent's pitch. */
  CHECK_ALIAS(gt_section(left, 2, 1, 3, 3), gt_section(right, 0, 0, 8, 1), false);
  CHECK_ALIAS(gt_section(left, 2, 1, 3, 3), gt_section(top, 3, 3, 1, 1), true);
}

/* Views with a million rows a million elements wide: an answer that walks
 * elements (or pairs of rows) would not finish; a pitch-aware one must. */
static void test_alias_huge(void) {
  const uint32_t m = 1000000u;
  gt_view a = make_view(1, 0, m, m, 2 * m);
  clock_t start = clock();
  double seconds;

  /* Offset 1,000,000: b's rows fill a's gaps exactly. */
  CHECK_ALIAS(a, make_view(1, 1000000u, m, m, 2 * m), false);
  /* Offset 999,999: b's first element is a's (0, 999999). */
  CHECK_ALIAS(a, make_view(1, 999999u, m, m, 2 * m), true);
  /* Offset 2,000,000: b's row 0 is a's row 1. */
  CHECK_ALIAS(a, make_view(1, 2000000u, m, m, 2 * m), true);
  /* Offset 3,000,000: interleaved again, one row later. */
  CHECK_ALIAS(a, make_view(1, 3000000u, m, m, 2 * m), false);
  /* Offset 2,999,999: b's first element is a's (1, 999999). */
  CHECK_ALIAS(a, make_view(1, 2999999u, m, m, 2 * m), true);
  /* b starts in a's last gap: its first row is in the gap, the rest lie
   * past a's end. */
  if (SIZE_MAX / 2000000u > 1000000u) { /* offsets past 2^32: 64-bit size_t only */
    CHECK_ALIAS(a, make_view(1, (size_t)2000000u * 999999u + 1000000u, m, m, 2 * m), false);
    CHECK_ALIAS(a, make_view(1, (size_t)2000000u * 999999u + 999999u, m, m, 2 * m), true);
  }
  /* A pitch one larger drifts: b's row 1 is [3000001, 4000000] and meets
   * a's row 2, which starts at 4000000. */
  CHECK_ALIAS(a, make_view(1, 1000000u, m, m, 2 * m + 1), true);
  /* One long row against many rows: it covers a gap and the next row. */
  CHECK_ALIAS(a, make_view(1, 1000000u, 1, 1000000u, 0), false);
  CHECK_ALIAS(a, make_view(1, 1000000u, 1, 1000001u, 0), true);
  /* Many one-element rows, all in a's gaps. */
  CHECK_ALIAS(a, make_view(1, 1500000u, m, 1, 2 * m), false);

  seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
  if (seconds >= 5.0) fprintf(stderr, "huge alias cases took %.2f s\n", seconds);
  CHECK(seconds < 5.0);
}

/* ------------------------------------------------------------------ */
/* 5. gt_context_init without a current GL context.                    */

/* Counts what the library asks of its allocator. */
typedef struct alloc_stats {
  unsigned long alloc_calls; /* every call, failed or not */
  unsigned long allocs;      /* calls that returned memory */
  unsigned long frees;       /* frees of non-NULL pointers */
  bool fail;                 /* make every alloc return NULL */
} alloc_stats;

static void *counting_alloc(size_t size, void *user) {
  alloc_stats *st = (alloc_stats *)user;
  void *p;
  st->alloc_calls++;
  if (st->fail) return NULL;
  p = malloc(size ? size : 1);
  if (p != NULL) st->allocs++;
  return p;
}

static void counting_free(void *ptr, void *user) {
  alloc_stats *st = (alloc_stats *)user;
  if (ptr == NULL) return;
  st->frees++;
  free(ptr);
}

/* Counts log calls; each must carry a known level and a message. */
typedef struct log_stats {
  unsigned long calls, bad;
} log_stats;

static void counting_log(int level, const char *msg, void *user) {
  log_stats *st = (log_stats *)user;
  st->calls++;
  if (msg == NULL || level < GT_LOG_ERROR || level > GT_LOG_DEBUG) st->bad++;
}

/* Somewhere for a non-NULL dummy *out to point: the tests check that a
 * failing init overwrites it with NULL. Aligned for any object. */
static union {
  long double ld;
  long long ll;
  void *p;
  void (*fp)(void);
} dummy_storage;
#define DUMMY_CTX ((gt_context *)(void *)&dummy_storage)

static gt_context_desc counting_desc(alloc_stats *as, log_stats *ls) {
  gt_context_desc d;
  memset(&d, 0, sizeof d);
  d.allocator.alloc = counting_alloc;
  d.allocator.free = counting_free;
  d.allocator.user = as;
  d.logger.log = counting_log;
  d.logger.user = ls;
  return d;
}

static void test_context_size(void) {
  gt_context_desc zero;
  memset(&zero, 0, sizeof zero);
  CHECK(gt_context_size(NULL) > 0);
  CHECK_EQ_U(gt_context_size(NULL), gt_context_size(&zero));
  /* A default context stays a few kilobytes: an embedded app keeps one
   * per GL context, often in static memory. */
  CHECK(gt_context_size(NULL) <= 32 * 1024);
  /* The program table follows the desc, one slot's bytes a slot. */
  gt_context_desc two = zero, three = zero;
  two.program_slots = 2;
  three.program_slots = 3;
  size_t slot = gt_context_size(&three) - gt_context_size(&two);
  CHECK(slot > 0 && slot <= 256);
  CHECK_EQ_U(gt_context_size(&zero), gt_context_size(&two) + 126 * slot);
}

static void test_context_init_arguments(void) {
  size_t size = gt_context_size(NULL);
  /* malloc'd memory is aligned for any object, as init asks. Extra room
   * lets the misaligned case below still offer enough bytes. */
  unsigned char *mem = (unsigned char *)malloc(size + 64);
  gt_context *out;

  CHECK(mem != NULL);
  if (mem == NULL) return;

  /* out NULL. */
  CHECK_STATUS(gt_context_init(NULL, 0, NULL, NULL), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_context_init(mem, size, NULL, NULL), GT_ERR_INVALID_ARGUMENT);

  /* Arguments fine, but no GL context is current. */
  out = DUMMY_CTX;
  CHECK_STATUS(gt_context_init(mem, size, NULL, &out), GT_ERR_NO_CONTEXT);
  CHECK(out == NULL);
  out = DUMMY_CTX;
  CHECK_STATUS(gt_context_init(NULL, 0, NULL, &out), GT_ERR_NO_CONTEXT);
  CHECK(out == NULL);

  /* Caller memory one byte short, or empty. */
  out = DUMMY_CTX;
  CHECK_STATUS(gt_context_init(mem, size - 1, NULL, &out), GT_ERR_OUT_OF_MEMORY);
  CHECK(out == NULL);
  out = DUMMY_CTX;
  CHECK_STATUS(gt_context_init(mem, 0, NULL, &out), GT_ERR_OUT_OF_MEMORY);
  CHECK(out == NULL);

  /* Misaligned caller memory of ample size. The context holds pointers, so
   * an odd address is misaligned on any implementation. */
  out = DUMMY_CTX;
  CHECK_STATUS(gt_context_init(mem + 1, size + 32, NULL, &out), GT_ERR_INVALID_ARGUMENT);
  CHECK(out == NULL);

  free(mem);
}

static void test_context_init_allocator(void) {
  alloc_stats as;
  log_stats ls;
  gt_context_desc d;
  gt_context *out;
  gt_status s;
  size_t size;
  void *mem;

  /* A half-set allocator is invalid (and must not be called). */
  memset(&as, 0, sizeof as);
  memset(&ls, 0, sizeof ls);
  d = counting_desc(&as, &ls);
  d.allocator.free = NULL;
  out = DUMMY_CTX;
  CHECK_STATUS(gt_context_init(NULL, 0, &d, &out), GT_ERR_INVALID_ARGUMENT);
  CHECK(out == NULL);
  CHECK_EQ_U(as.alloc_calls, 0);
  d = counting_desc(&as, &ls);
  d.allocator.alloc = NULL;
  out = DUMMY_CTX;
  CHECK_STATUS(gt_context_init(NULL, 0, &d, &out), GT_ERR_INVALID_ARGUMENT);
  CHECK(out == NULL);
  CHECK_EQ_U(as.alloc_calls, 0);
  CHECK_EQ_U(as.frees, 0);

  /* A working allocator, no GL context: whatever init allocated (at most
   * once, per the header) it gives back. */
  memset(&as, 0, sizeof as);
  memset(&ls, 0, sizeof ls);
  d = counting_desc(&as, &ls);
  size = gt_context_size(&d);
  CHECK(size > 0);
  out = DUMMY_CTX;
  CHECK_STATUS(gt_context_init(NULL, 0, &d, &out), GT_ERR_NO_CONTEXT);
  CHECK(out == NULL);
  CHECK(as.alloc_calls <= 1);
  CHECK_EQ_U(as.allocs, as.frees);
  CHECK_EQ_U(ls.bad, 0);

  /* With caller memory the allocator is not used at all. */
  memset(&as, 0, sizeof as);
  mem = malloc(size);
  CHECK(mem != NULL);
  if (mem != NULL) {
    out = DUMMY_CTX;
    CHECK_STATUS(gt_context_init(mem, size, &d, &out), GT_ERR_NO_CONTEXT);
    CHECK(out == NULL);
    CHECK_EQ_U(as.alloc_calls, 0);
    CHECK_EQ_U(as.frees, 0);
    free(mem);
  }

  /* An allocator that always fails. The library may look for a context
   * before allocating, so either failure is right; nothing may leak and
   * nothing it never got may be freed. */
  memset(&as, 0, sizeof as);
  memset(&ls, 0, sizeof ls);
  as.fail = true;
  out = DUMMY_CTX;
  s = gt_context_init(NULL, 0, &d, &out);
  if (s != GT_ERR_OUT_OF_MEMORY && s != GT_ERR_NO_CONTEXT) {
    fprintf(stderr, "init with a failing allocator: %s\n", gt_status_string(s));
  }
  CHECK(s == GT_ERR_OUT_OF_MEMORY || s == GT_ERR_NO_CONTEXT);
  CHECK(out == NULL);
  CHECK(as.alloc_calls <= 1);
  CHECK_EQ_U(as.allocs, 0);
  CHECK_EQ_U(as.frees, 0);
  CHECK_EQ_U(ls.bad, 0);
}

/* ------------------------------------------------------------------ */
/* 6. NULL and zeroed handles.                                         */

static void test_null_handles(void) {
  gt_egl egl;
  gt_limits l;
  const char *renderer;
  int i;

  /* These must simply return. */
  gt_context_release(NULL);
  gt_egl_close(NULL);
  memset(&egl, 0, sizeof egl);
  gt_egl_close(&egl);
  CHECK(egl.display == NULL && egl.surface == NULL && egl.context == NULL);

  /* Fill with garbage first so a function that writes nothing fails. */
  memset(&l, 0xA5, sizeof l);
  l = gt_context_limits(NULL);
  CHECK_EQ_U(l.max_shared_bytes, 0);
  CHECK_EQ_U(l.max_invocations, 0);
  for (i = 0; i < 3; i++) {
    CHECK_EQ_U(l.max_group_size[i], 0);
    CHECK_EQ_U(l.max_group_count[i], 0);
  }
  CHECK_EQ_U(l.max_storage_block_bytes, 0);
  CHECK_EQ_U(l.max_storage_blocks, 0);
  CHECK_EQ_U(l.storage_offset_alignment, 0);

  renderer = gt_context_renderer(NULL);
  CHECK(renderer != NULL && renderer[0] == '\0');
  CHECK(!gt_context_reports_resets(NULL));
  CHECK(!gt_context_auto_quads(NULL));
}

/* ------------------------------------------------------------------ */

int main(void) {
  test_status_string();
  test_strategy_name();
  test_type_size();
  test_half_conversions();
  test_extent();
  test_section();
  test_alias_exhaustive();
  test_alias_cases();
  test_alias_huge();
  test_context_size();
  test_context_init_arguments();
  test_context_init_allocator();
  test_null_handles();
  return CHECK_SUMMARY();
}
