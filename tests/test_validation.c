/* Validation of gt_transpose, gt_write, gt_read and gt_finish: every
 * invalid call must return its exact status code AND write nothing.
 *
 * The fixture is three buffers whose whole contents are known on the host:
 *   SRC    noise words; the source views are sections of a 40 x 29 matrix
 *          that starts 7 words in, so every view has an offset, a pitch
 *          wider than its cols, and guard words all around it;
 *   DST    poison words; the destination views are sections of a 40 x 41
 *          matrix that starts 11 words in;
 *   ALIAS  noise words; a 16 x 16 matrix 5 words in, for sections of ONE
 *          buffer used as both source and destination.
 * After every call that must fail, each of the three buffers is read back
 * whole and compared word for word with its known contents (one CHECK).
 * After a call that must succeed, the destination buffer is compared with
 * the exact expected result and then restored. */
#include "check.h"
#include "harness.h"

#include <EGL/egl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const gt_strategy strategies[] = { GT_STRATEGY_AUTO,       GT_STRATEGY_SIMPLE,
                                          GT_STRATEGY_TILED_EVEN, GT_STRATEGY_TILED_PAD,
                                          GT_STRATEGY_TRUNCATE_A, GT_STRATEGY_TRUNCATE_B };
#define N_STRATEGIES (sizeof strategies / sizeof strategies[0])

/* A buffer object and the words it is known to hold. */
typedef struct tbuf {
  GLuint name;
  size_t words;
  uint32_t *orig;
} tbuf;

static gt_test_env env;
static tbuf SRC, DST, ALIAS;

static tbuf make_buf(size_t words, uint32_t (*fill)(size_t, uint32_t), uint32_t seed) {
  tbuf b;
  b.words = words;
  b.orig = malloc(words * 4);
  b.name = gt_test_buffer(words, fill, seed);
  if (b.orig)
    for (size_t i = 0; i < words; i++) b.orig[i] = fill(i, seed);
  return b;
}

/* Reads the whole buffer back and compares it with `want`; prints the
 * first difference. Returns 1 when every word matches. */
static int buffer_is(const tbuf *b, const uint32_t *want, const char *what) {
  uint32_t *got = malloc(b->words * 4);
  int ok = got != NULL && gt_test_read_all(env.ctx, b->name, b->words, got) == 0;
  if (ok) {
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < b->words; i++)
      if (got[i] != want[i] && bad++ == 0) first = i;
    if (bad) {
      fprintf(stderr, "%s: buffer %u: %zu of %zu words differ, first at %zu: got %08x, want %08x\n",
              what, b->name, bad, b->words, first, (unsigned)got[first], (unsigned)want[first]);
      ok = 0;
    }
  }
  free(got);
  return ok;
}

/* All three fixture buffers still hold exactly what they were made with. */
static int all_untouched(const char *what) {
  int a = buffer_is(&SRC, SRC.orig, what);
  int b = buffer_is(&DST, DST.orig, what);
  int c = buffer_is(&ALIAS, ALIAS.orig, what);
  return a && b && c;
}

/* Puts a buffer's known contents back after a call that wrote to it. */
static int restore(const tbuf *b) {
  gt_view all = { b->name, 0, 1, (uint32_t)b->words, 0, GT_U32 };
  return gt_write(env.ctx, all, b->orig, 0) == GT_OK;
}

/* `dst` of buffer d holds the transpose of `src` of buffer s, and every
 * other word of d is as it was (s's contents are its known ones). */
static int is_transposed(const tbuf *s, gt_view src, const tbuf *d, gt_view dst, const char *what) {
  uint32_t *want = malloc(d->words * 4);
  int ok = want != NULL;
  if (ok) {
    uint32_t sp = src.pitch ? src.pitch : src.cols, dp = dst.pitch ? dst.pitch : dst.cols;
    memcpy(want, d->orig, d->words * 4);
    for (uint32_t r = 0; r < src.rows; r++)
      for (uint32_t c = 0; c < src.cols; c++)
        want[dst.offset + (size_t)c * dp + r] = s->orig[src.offset + (size_t)r * sp + c];
    ok = buffer_is(d, want, what);
  }
  free(want);
  return ok;
}

/* The same view moved so that its last element is the first one past the
 * end of a buffer of `words` words. */
static gt_view past_end(gt_view v, size_t words) {
  size_t span = (size_t)(v.rows - 1) * (v.pitch ? v.pitch : v.cols) + v.cols;
  v.offset = words - span + 1;
  return v;
}

/* A call that must fail with `want` and leave every buffer as it was.
 * `what` names the case in the failure output. */
#define EXPECT_FAIL(call, want, what)                                        \
  do {                                                                       \
    gt_status got_ = (call);                                                 \
    CHECK_STATUS(got_, want);                                                \
    if (got_ != (want)) fprintf(stderr, "  case: %s\n", (what));             \
    CHECK(all_untouched(what));                                              \
  } while (0)

/* A transpose that must succeed with the exact result; dst's buffer is
 * restored afterwards so later cases start from the known contents. */
#define EXPECT_TRANSPOSE(sbuf, src, dbuf, dst, desc, what)                   \
  do {                                                                       \
    gt_status got_ = gt_transpose(env.ctx, src, dst, desc);                  \
    CHECK_STATUS(got_, GT_OK);                                               \
    if (got_ != GT_OK) fprintf(stderr, "  case: %s\n", (what));              \
    CHECK(is_transposed(&(sbuf), src, &(dbuf), dst, what));                  \
    CHECK(restore(&(dbuf)));                                                 \
  } while (0)

/* ------------------------------------------------------------------ */

/* The fixture's valid pair: a 37 x 23 source section and its 23 x 37
 * destination section. Each case below changes one field. */
static gt_view src_parent, dst_parent, alias_parent;
static gt_view S, D;

static void test_invalid_argument(void) {
  gt_view s, d;
  gt_transpose_desc desc;

  EXPECT_FAIL(gt_transpose(NULL, S, D, NULL), GT_ERR_INVALID_ARGUMENT, "ctx NULL");

  s = S; s.buffer = 0;
  EXPECT_FAIL(gt_transpose(env.ctx, s, D, NULL), GT_ERR_INVALID_ARGUMENT, "src.buffer 0");
  d = D; d.buffer = 0;
  EXPECT_FAIL(gt_transpose(env.ctx, S, d, NULL), GT_ERR_INVALID_ARGUMENT, "dst.buffer 0");

  /* A zero extent is INVALID_ARGUMENT whatever it does to the shape. */
  s = S; s.rows = 0;
  EXPECT_FAIL(gt_transpose(env.ctx, s, D, NULL), GT_ERR_INVALID_ARGUMENT, "src.rows 0");
  s = S; s.cols = 0;
  EXPECT_FAIL(gt_transpose(env.ctx, s, D, NULL), GT_ERR_INVALID_ARGUMENT, "src.cols 0");
  d = D; d.rows = 0;
  EXPECT_FAIL(gt_transpose(env.ctx, S, d, NULL), GT_ERR_INVALID_ARGUMENT, "dst.rows 0");
  d = D; d.cols = 0;
  EXPECT_FAIL(gt_transpose(env.ctx, S, d, NULL), GT_ERR_INVALID_ARGUMENT, "dst.cols 0");

  /* Unknown types: on both views (no type mismatch involved), then on one. */
  s = S; d = D; s.type = d.type = (gt_type)0;
  EXPECT_FAIL(gt_transpose(env.ctx, s, d, NULL), GT_ERR_INVALID_ARGUMENT, "type 0 both");
  s = S; d = D; s.type = d.type = (gt_type)99;
  EXPECT_FAIL(gt_transpose(env.ctx, s, d, NULL), GT_ERR_INVALID_ARGUMENT, "type 99 both");
  s = S; s.type = (gt_type)0;
  EXPECT_FAIL(gt_transpose(env.ctx, s, D, NULL), GT_ERR_INVALID_ARGUMENT, "src.type 0");
  d = D; d.type = (gt_type)99;
  EXPECT_FAIL(gt_transpose(env.ctx, S, d, NULL), GT_ERR_INVALID_ARGUMENT, "dst.type 99");

  /* A nonzero pitch below cols (0 means "= cols" and is valid). */
  s = S; s.pitch = s.cols - 1;
  EXPECT_FAIL(gt_transpose(env.ctx, s, D, NULL), GT_ERR_INVALID_ARGUMENT, "src.pitch < cols");
  d = D; d.pitch = d.cols - 1;
  EXPECT_FAIL(gt_transpose(env.ctx, S, d, NULL), GT_ERR_INVALID_ARGUMENT, "dst.pitch < cols");

  desc.strategy = (gt_strategy)99; desc.tile = 0;
  EXPECT_FAIL(gt_transpose(env.ctx, S, D, &desc), GT_ERR_INVALID_ARGUMENT, "strategy 99");
  {
    static const uint32_t bad_tiles[] = { 12, 64, 4 };
    for (size_t i = 0; i < 3; i++) {
      char what[64];
      snprintf(what, sizeof what, "tile %u", (unsigned)bad_tiles[i]);
      desc.strategy = GT_STRATEGY_AUTO; desc.tile = bad_tiles[i];
      EXPECT_FAIL(gt_transpose(env.ctx, S, D, &desc), GT_ERR_INVALID_ARGUMENT, what);
    }
  }

  /* A name that is not a buffer object: caught by the buffer query. */
  s = S; s.buffer = 999999;
  EXPECT_FAIL(gt_transpose(env.ctx, s, D, NULL), GT_ERR_INVALID_ARGUMENT, "src not a buffer");
  d = D; d.buffer = 999999;
  EXPECT_FAIL(gt_transpose(env.ctx, S, d, NULL), GT_ERR_INVALID_ARGUMENT, "dst not a buffer");

  /* gt_section outside its parent gives a zero extent. */
  s = gt_section(src_parent, 30, 0, 37, 23);
  CHECK(s.rows == 0 && s.cols == 0);
  EXPECT_FAIL(gt_transpose(env.ctx, s, D, NULL), GT_ERR_INVALID_ARGUMENT, "src section out of range");
  d = gt_section(dst_parent, 0, 10, 23, 37);
  CHECK(d.rows == 0 && d.cols == 0);
  EXPECT_FAIL(gt_transpose(env.ctx, S, d, NULL), GT_ERR_INVALID_ARGUMENT, "dst section out of range");
}

static void test_shape_mismatch(void) {
  gt_view d, s;
  gt_transpose_desc desc;

  /* dst the same shape as src: every field valid, and inside its buffer. */
  d = gt_section(dst_parent, 1, 2, 37, 23);
  EXPECT_FAIL(gt_transpose(env.ctx, S, d, NULL), GT_ERR_SHAPE_MISMATCH, "dst 37x23");
  d = gt_section(dst_parent, 2, 1, 23, 36);
  EXPECT_FAIL(gt_transpose(env.ctx, S, d, NULL), GT_ERR_SHAPE_MISMATCH, "dst 23x36");
  d = gt_section(dst_parent, 2, 1, 22, 37);
  EXPECT_FAIL(gt_transpose(env.ctx, S, d, NULL), GT_ERR_SHAPE_MISMATCH, "dst 22x37");

  d = D; d.type = GT_F32;
  EXPECT_FAIL(gt_transpose(env.ctx, S, d, NULL), GT_ERR_SHAPE_MISMATCH, "u32 -> f32");
  s = S; d = D; s.type = GT_I32; d.type = GT_F32;
  EXPECT_FAIL(gt_transpose(env.ctx, s, d, NULL), GT_ERR_SHAPE_MISMATCH, "i32 -> f32");

  /* TILED_EVEN needs a tile that divides both extents: 8 divides neither
   * 37 nor 23, but divides 16 and 24. */
  desc.strategy = GT_STRATEGY_TILED_EVEN; desc.tile = 8;
  EXPECT_FAIL(gt_transpose(env.ctx, S, D, &desc), GT_ERR_SHAPE_MISMATCH, "tiled_even 8 on 37x23");
  s = gt_section(src_parent, 2, 4, 16, 23);
  d = gt_section(dst_parent, 3, 5, 23, 16);
  EXPECT_FAIL(gt_transpose(env.ctx, s, d, &desc), GT_ERR_SHAPE_MISMATCH, "tiled_even 8 on 16x23");
  s = gt_section(src_parent, 2, 4, 16, 24);
  d = gt_section(dst_parent, 3, 5, 24, 16);
  EXPECT_TRANSPOSE(SRC, s, DST, d, &desc, "tiled_even 8 on 16x24");
}

static void test_out_of_range(void) {
  gt_view s, d;

  /* One element past the end, with every other field valid. */
  s = past_end(S, SRC.words);
  EXPECT_FAIL(gt_transpose(env.ctx, s, D, NULL), GT_ERR_OUT_OF_RANGE, "src one past end");
  s.offset--; /* ...and exactly at the end it is fine */
  EXPECT_TRANSPOSE(SRC, s, DST, D, NULL, "src ending at the buffer's end");
  d = past_end(D, DST.words);
  EXPECT_FAIL(gt_transpose(env.ctx, S, d, NULL), GT_ERR_OUT_OF_RANGE, "dst one past end");
  d.offset--;
  EXPECT_TRANSPOSE(SRC, S, DST, d, NULL, "dst ending at the buffer's end");

  s = S; s.offset = SIZE_MAX / 2;
  EXPECT_FAIL(gt_transpose(env.ctx, s, D, NULL), GT_ERR_OUT_OF_RANGE, "src offset SIZE_MAX/2");
  d = D; d.offset = SIZE_MAX / 2;
  EXPECT_FAIL(gt_transpose(env.ctx, S, d, NULL), GT_ERR_OUT_OF_RANGE, "dst offset SIZE_MAX/2");

  /* (2^32-1)^2 elements of 4 bytes overflow 64 bits. With both views huge
   * the shapes agree, so only the size is wrong. */
  s = S; s.rows = s.cols = s.pitch = 0xFFFFFFFFu;
  d = D; d.rows = d.cols = d.pitch = 0xFFFFFFFFu;
  EXPECT_FAIL(gt_transpose(env.ctx, s, d, NULL), GT_ERR_OUT_OF_RANGE, "src and dst 2^32-1 square");
  EXPECT_FAIL(gt_transpose(env.ctx, s, D, NULL), GT_ERR_OUT_OF_RANGE, "src 2^32-1 square");
  EXPECT_FAIL(gt_transpose(env.ctx, S, d, NULL), GT_ERR_OUT_OF_RANGE, "dst 2^32-1 square");
}

/* Overlap within one buffer, then side-by-side sections that interleave
 * without sharing an element, for every strategy. Tile 8 divides all the
 * 8x8 views, so TILED_EVEN reaches the aliasing check too. */
static void test_aliasing(void) {
  /* src rows 0..9, cols 0..7; dst starts at (3, 2), inside src's span, and
   * shares e.g. element (3, 2). */
  gt_view s10 = gt_section(alias_parent, 0, 0, 10, 8);
  gt_view d10 = gt_section(alias_parent, 3, 2, 8, 10);
  /* 8x8 overlapping at (4..7, 4..7). */
  gt_view s8 = gt_section(alias_parent, 0, 0, 8, 8);
  gt_view d8 = gt_section(alias_parent, 4, 4, 8, 8);
  /* Left and right halves of rows 0..7 of the 16-pitch matrix. */
  gt_view left = gt_section(alias_parent, 0, 0, 8, 8);
  gt_view right = gt_section(alias_parent, 0, 8, 8, 8);

  CHECK(gt_views_alias(s10, d10));
  CHECK(gt_views_alias(s8, d8));
  CHECK(!gt_views_alias(left, right));

  EXPECT_FAIL(gt_transpose(env.ctx, s10, d10, NULL), GT_ERR_ALIASED, "10x8 overlap, NULL desc");
  /* The same start with the transposed shape overlaps without being the
   * same view. (The very same square view is a transpose in place, tested
   * in test_inplace.) */
  gt_view s8x10 = gt_section(alias_parent, 0, 0, 8, 10), s10x8 = gt_section(alias_parent, 0, 0, 10, 8);
  EXPECT_FAIL(gt_transpose(env.ctx, s8x10, s10x8, NULL), GT_ERR_ALIASED, "same start, 8x10 -> 10x8");

  for (size_t i = 0; i < N_STRATEGIES; i++) {
    gt_transpose_desc desc = { strategies[i], 8 };
    char what[96];
    const char *name = gt_strategy_name(strategies[i]);

    snprintf(what, sizeof what, "%s tile 8: 8x8 overlap", name);
    EXPECT_FAIL(gt_transpose(env.ctx, s8, d8, &desc), GT_ERR_ALIASED, what);
    snprintf(what, sizeof what, "%s tile 8: 8x8 overlap, dst first", name);
    EXPECT_FAIL(gt_transpose(env.ctx, d8, s8, &desc), GT_ERR_ALIASED, what);
    if (strategies[i] != GT_STRATEGY_TILED_EVEN) {
      /* 10x8 is not a multiple of any tile: default tile, other strategies. */
      desc.tile = 0;
      snprintf(what, sizeof what, "%s default tile: 10x8 overlap", name);
      EXPECT_FAIL(gt_transpose(env.ctx, s10, d10, &desc), GT_ERR_ALIASED, what);
      desc.tile = 8;
    }

    snprintf(what, sizeof what, "%s tile 8: left half -> right half", name);
    EXPECT_TRANSPOSE(ALIAS, left, ALIAS, right, &desc, what);
    snprintf(what, sizeof what, "%s tile 8: right half -> left half", name);
    EXPECT_TRANSPOSE(ALIAS, right, ALIAS, left, &desc, what);
  }
}

/* Past-the-end views with every strategy, on 16x24 sections that tile 8
 * divides, and on the 37x23 pair with the default tile where the
 * strategy allows it. */
static void test_out_of_range_strategies(void) {
  gt_view s16 = gt_section(src_parent, 2, 4, 16, 24);
  gt_view d16 = gt_section(dst_parent, 3, 5, 24, 16);
  for (size_t i = 0; i < N_STRATEGIES; i++) {
    gt_transpose_desc desc = { strategies[i], 8 };
    char what[96];
    const char *name = gt_strategy_name(strategies[i]);

    snprintf(what, sizeof what, "%s tile 8: src one past end", name);
    EXPECT_FAIL(gt_transpose(env.ctx, past_end(s16, SRC.words), d16, &desc), GT_ERR_OUT_OF_RANGE, what);
    snprintf(what, sizeof what, "%s tile 8: dst one past end", name);
    EXPECT_FAIL(gt_transpose(env.ctx, s16, past_end(d16, DST.words), &desc), GT_ERR_OUT_OF_RANGE, what);
    if (strategies[i] != GT_STRATEGY_TILED_EVEN) {
      desc.tile = 0;
      snprintf(what, sizeof what, "%s default tile: 37x23 src one past end", name);
      EXPECT_FAIL(gt_transpose(env.ctx, past_end(S, SRC.words), D, &desc), GT_ERR_OUT_OF_RANGE, what);
      snprintf(what, sizeof what, "%s default tile: 37x23 dst one past end", name);
      EXPECT_FAIL(gt_transpose(env.ctx, S, past_end(D, DST.words), &desc), GT_ERR_OUT_OF_RANGE, what);
    }
  }
}

/* gt_write and gt_read: the same argument checks, and exact copies of a
 * section with a host pitch wider than the view. */
static void test_transfers(void) {
  enum { HP = 40 }; /* host pitch for the 23 x 37 dst section */
  static uint32_t host[37 * 40], sentinel[37 * 40];
  gt_view d;

  for (size_t i = 0; i < sizeof host / 4; i++) host[i] = sentinel[i] = 0xA5A50000u + (uint32_t)i;

  EXPECT_FAIL(gt_write(NULL, D, host, 0), GT_ERR_INVALID_ARGUMENT, "gt_write ctx NULL");
  EXPECT_FAIL(gt_write(env.ctx, D, NULL, 0), GT_ERR_INVALID_ARGUMENT, "gt_write host NULL");
  EXPECT_FAIL(gt_write(env.ctx, D, host, D.cols - 1), GT_ERR_INVALID_ARGUMENT, "gt_write host_pitch < cols");
  EXPECT_FAIL(gt_write(env.ctx, D, host, 1), GT_ERR_INVALID_ARGUMENT, "gt_write host_pitch 1");
  d = D; d.rows = 0;
  EXPECT_FAIL(gt_write(env.ctx, d, host, 0), GT_ERR_INVALID_ARGUMENT, "gt_write rows 0");
  d = D; d.buffer = 999999;
  EXPECT_FAIL(gt_write(env.ctx, d, host, 0), GT_ERR_INVALID_ARGUMENT, "gt_write not a buffer");
  EXPECT_FAIL(gt_write(env.ctx, past_end(D, DST.words), host, 0), GT_ERR_OUT_OF_RANGE, "gt_write one past end");
  EXPECT_FAIL(gt_write(env.ctx, past_end(D, DST.words), host, HP), GT_ERR_OUT_OF_RANGE,
              "gt_write one past end, host pitch");
  d = D; d.offset = SIZE_MAX / 2;
  EXPECT_FAIL(gt_write(env.ctx, d, host, 0), GT_ERR_OUT_OF_RANGE, "gt_write offset SIZE_MAX/2");
  /* A span of 2^62 + 4 elements at an offset that brings its end round
   * past 2^64 to word 8 of the buffer: once taken for a 32-byte view, and
   * gt_write then wrote its rows 8 GiB apart (found by tests/fuzz_api.c). */
  d = D; d.rows = 0x80000001u; d.cols = 4; d.pitch = 0x80000000u;
  d.offset = (size_t)(0ull - ((1ull << 62) + 4) + 8);
  EXPECT_FAIL(gt_write(env.ctx, d, host, 4), GT_ERR_OUT_OF_RANGE, "gt_write span 2^62 + 4, end wrapped");
  EXPECT_FAIL(gt_read(env.ctx, d, host, 4), GT_ERR_OUT_OF_RANGE, "gt_read span 2^62 + 4, end wrapped");
  CHECK(memcmp(host, sentinel, sizeof host) == 0);

  /* A failing gt_read must not write the host array either. */
  EXPECT_FAIL(gt_read(NULL, S, host, 0), GT_ERR_INVALID_ARGUMENT, "gt_read ctx NULL");
  EXPECT_FAIL(gt_read(env.ctx, S, NULL, 0), GT_ERR_INVALID_ARGUMENT, "gt_read host NULL");
  EXPECT_FAIL(gt_read(env.ctx, S, host, S.cols - 1), GT_ERR_INVALID_ARGUMENT, "gt_read host_pitch < cols");
  EXPECT_FAIL(gt_read(env.ctx, past_end(S, SRC.words), host, 0), GT_ERR_OUT_OF_RANGE, "gt_read one past end");
  CHECK(memcmp(host, sentinel, sizeof host) == 0);

  /* gt_write of the 23 x 37 dst section from rows HP apart: exactly the
   * section's words change, to host[r * HP + c]. */
  {
    uint32_t *want = malloc(DST.words * 4);
    CHECK_STATUS(gt_write(env.ctx, D, host, HP), GT_OK);
    if (want) {
      memcpy(want, DST.orig, DST.words * 4);
      for (uint32_t r = 0; r < D.rows; r++)
        for (uint32_t c = 0; c < D.cols; c++) want[D.offset + (size_t)r * D.pitch + c] = host[r * HP + c];
      CHECK(buffer_is(&DST, want, "gt_write with host pitch"));
      CHECK(buffer_is(&SRC, SRC.orig, "gt_write with host pitch: src"));
    } else {
      CHECK(want != NULL);
    }
    free(want);
    CHECK(restore(&DST));
  }

  /* gt_read of the 37 x 23 src section into rows 27 apart: the section's
   * words arrive, the 4 padding words of each row and everything past the
   * last row keep the sentinel. */
  {
    enum { RP = 27 };
    int ok = 1;
    CHECK_STATUS(gt_read(env.ctx, S, host, RP), GT_OK);
    for (size_t i = 0; i < sizeof host / 4; i++) {
      size_t r = i / RP, c = i % RP;
      uint32_t want = (r < S.rows && c < S.cols) ? SRC.orig[S.offset + r * S.pitch + c] : sentinel[i];
      if (host[i] != want && ok) {
        fprintf(stderr, "gt_read with host pitch: host[%zu] = %08x, want %08x\n", i, (unsigned)host[i],
                (unsigned)want);
        ok = 0;
      }
    }
    CHECK(ok);
    CHECK(all_untouched("gt_read with host pitch"));
  }
}

/* With no current context every call that needs GL refuses before
 * touching anything; once the context is current again, work resumes. */
static void test_no_context(void) {
  EGLDisplay display = (EGLDisplay)env.egl.display;
  EGLSurface surface = env.egl.surface ? (EGLSurface)env.egl.surface : EGL_NO_SURFACE;
  static uint32_t host[37 * 23], sentinel[37 * 23];
  for (size_t i = 0; i < sizeof host / 4; i++) host[i] = sentinel[i] = 0x5A5A0000u + (uint32_t)i;

  CHECK(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT) == EGL_TRUE);
  CHECK(eglGetCurrentContext() == EGL_NO_CONTEXT);
  CHECK_STATUS(gt_transpose(env.ctx, S, D, NULL), GT_ERR_NO_CONTEXT);
  CHECK_STATUS(gt_write(env.ctx, D, host, 0), GT_ERR_NO_CONTEXT);
  CHECK_STATUS(gt_read(env.ctx, S, host, 0), GT_ERR_NO_CONTEXT);
  CHECK_STATUS(gt_finish(env.ctx), GT_ERR_NO_CONTEXT);
  CHECK(memcmp(host, sentinel, sizeof host) == 0);

  CHECK(eglMakeCurrent(display, surface, surface, (EGLContext)env.egl.context) == EGL_TRUE);
  /* Nothing that was refused reached a buffer. */
  CHECK(all_untouched("after no-context calls"));
  EXPECT_TRANSPOSE(SRC, S, DST, D, NULL, "transpose after the context is current again");
}

static void test_finish(void) {
  CHECK_STATUS(gt_finish(NULL), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_finish(env.ctx), GT_OK);
  /* An error the application left pending is not the library's: cleared,
   * not reported. */
  glBindBuffer(0x1234 /* no such target */, 0);
  CHECK_STATUS(gt_finish(env.ctx), GT_OK);
  CHECK(glGetError() == GL_NO_ERROR);
  glEnable(0x1234);
  EXPECT_TRANSPOSE(SRC, S, DST, D, NULL, "after an application's GL error");
}

/* A view one element wider than the storage-block limit cannot be bound
 * whole: gt_transpose runs it in blocks, transfers map the buffer instead
 * of binding it, and a user kernel (whose reads the library cannot cut)
 * refuses it with UNSUPPORTED. */
static void test_storage_block_limit(void) {
  gt_limits lim = gt_context_limits(env.ctx);
  if (lim.max_storage_block_bytes > (1u << 28)) {
    printf("storage-block limit %llu bytes: too large to test\n", (unsigned long long)lim.max_storage_block_bytes);
    return;
  }
  size_t n = (size_t)(lim.max_storage_block_bytes / 4 + 1);
  GLuint bufs[2] = { 0, 0 };
  glGenBuffers(2, bufs);
  for (int i = 0; i < 2; i++) {
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, bufs[i]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(n * 4), NULL, GL_DYNAMIC_COPY);
  }
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  CHECK(glGetError() == GL_NO_ERROR);

  gt_view s = { bufs[0], 0, 1, (uint32_t)n, 0, GT_U32 };
  gt_view d = { bufs[1], 0, (uint32_t)n, 1, 0, GT_U32 };

  uint32_t *in = malloc(n * 4), *out = malloc(n * 4);
  CHECK(in != NULL && out != NULL);
  if (in && out) {
    for (size_t i = 0; i < n; i++) in[i] = (uint32_t)i * 0x9E3779B1u;
    memset(out, 0, n * 4);
    CHECK_STATUS(gt_write(env.ctx, s, in, 0), GT_OK);
    CHECK_STATUS(gt_read(env.ctx, s, out, 0), GT_OK);
    CHECK(memcmp(in, out, n * 4) == 0);
    /* 1 x n transposed is n x 1: the same words in the same order. */
    memset(out, 0, n * 4);
    CHECK_STATUS(gt_transpose(env.ctx, s, d, NULL), GT_OK);
    CHECK_STATUS(gt_read(env.ctx, d, out, 0), GT_OK);
    CHECK(memcmp(in, out, n * 4) == 0);
  }
  gt_kernel_desc kd;
  memset(&kd, 0, sizeof kd);
  kd.body = "void main() { uvec2 g = gt_global(); if (gt_in_domain(g)) y_write(g, x_read(g)); }\n";
  kd.tile_rows = 8; /* 128 invocations: within the ES 3.1 minimum */
  kd.tile_cols = 16;
  kd.view_count = 2;
  kd.views[0] = (gt_kernel_view){ "x", GT_U32, GT_ACCESS_READ };
  kd.views[1] = (gt_kernel_view){ "y", GT_U32, GT_ACCESS_WRITE };
  gt_kernel_id k = 0;
  CHECK_STATUS(gt_kernel_create(env.ctx, &kd, &k), GT_OK);
  gt_view views[2] = { s, s };
  views[1].buffer = bufs[1];
  gt_dispatch_desc dd = { { 1, (uint32_t)n }, GT_POLICY_PAD, views, NULL };
  CHECK_STATUS(gt_kernel_dispatch(env.ctx, k, &dd, NULL), GT_ERR_UNSUPPORTED);
  gt_kernel_destroy(env.ctx, k);
  free(in);
  free(out);
  glDeleteBuffers(2, bufs);
}

/* The context desc's overrides of the device table, and their refusals. */
static void test_context_overrides(void) {
  gt_context *c = NULL;
  gt_context_desc d;
  memset(&d, 0, sizeof d);
  d.min_limits = env.min_limits;
  CHECK_STATUS(gt_context_init(NULL, 0, &d, &c), GT_OK);
  CHECK(strlen(gt_context_device_name(c)) > 0);
  gt_limits l = gt_context_limits(c);
  CHECK(l.max_dispatch_flops >= (1u << 20));
  gt_context_release(c);

  d.transpose_strategy = GT_STRATEGY_TRUNCATE_B;
  d.tile = 16;
  d.max_dispatch_flops = 12345; /* below the floor of 2^20 */
  d.max_storage_block_bytes = 65536;
  CHECK_STATUS(gt_context_init(NULL, 0, &d, &c), GT_OK);
  CHECK(gt_context_auto_strategy(c) == GT_STRATEGY_TRUNCATE_B);
  CHECK_EQ_U(gt_context_default_tile(c), 16);
  l = gt_context_limits(c);
  CHECK_EQ_U(l.max_dispatch_flops, 1u << 20);
  CHECK_EQ_U(l.max_storage_block_bytes, 65536);
  gt_context_release(c);

  gt_context_desc bad = d;
  bad.transpose_strategy = GT_STRATEGY_TILED_EVEN; /* would refuse uneven shapes */
  c = (gt_context *)&bad;
  CHECK_STATUS(gt_context_init(NULL, 0, &bad, &c), GT_ERR_INVALID_ARGUMENT);
  CHECK(c == NULL);
  bad = d;
  bad.transpose_strategy = (gt_strategy)99;
  CHECK_STATUS(gt_context_init(NULL, 0, &bad, &c), GT_ERR_INVALID_ARGUMENT);
  bad = d;
  bad.tile = 12;
  CHECK_STATUS(gt_context_init(NULL, 0, &bad, &c), GT_ERR_INVALID_ARGUMENT);
}

int main(int argc, char **argv) {
  int rc = gt_test_open(argc, argv, &env);
  if (rc != 0) return rc;

  SRC = make_buf(7 + 40 * 29 + 9, gt_test_noise, 1);
  DST = make_buf(11 + 40 * 41 + 13, gt_test_poison, 0);
  ALIAS = make_buf(5 + 16 * 16 + 7, gt_test_noise, 2);
  CHECK(SRC.name && DST.name && ALIAS.name && SRC.orig && DST.orig && ALIAS.orig);
  if (SRC.orig && DST.orig && ALIAS.orig) {
    gt_view sp = { SRC.name, 7, 40, 29, 0, GT_U32 };
    gt_view dp = { DST.name, 11, 40, 41, 0, GT_U32 };
    gt_view ap = { ALIAS.name, 5, 16, 16, 0, GT_U32 };
    src_parent = sp;
    dst_parent = dp;
    alias_parent = ap;
    S = gt_section(src_parent, 1, 3, 37, 23); /* offset 39, pitch 29 */
    D = gt_section(dst_parent, 2, 1, 23, 37); /* offset 94, pitch 41 */
    CHECK(S.rows == 37 && D.rows == 23);

    /* The fixture is sound: the buffers hold what we think, and the valid
     * pair transposes correctly, before any case relies on either. */
    CHECK(all_untouched("initial contents"));
    EXPECT_TRANSPOSE(SRC, S, DST, D, NULL, "valid 37x23 pair");

    test_invalid_argument();
    test_shape_mismatch();
    test_out_of_range();
    test_aliasing();
    test_out_of_range_strategies();
    test_transfers();
    test_no_context();
    test_finish();
    test_storage_block_limit();
    test_context_overrides();
  }

  glDeleteBuffers(1, &SRC.name);
  glDeleteBuffers(1, &DST.name);
  glDeleteBuffers(1, &ALIAS.name);
  free(SRC.orig);
  free(DST.orig);
  free(ALIAS.orig);
  gt_test_close(&env);
  return CHECK_SUMMARY();
}
