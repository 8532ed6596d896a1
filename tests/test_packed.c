/* The 2- and 1-byte element types outside the transpose suites (which run
 * them with --packed): gt_write, gt_read and gt_read_begin / gt_read_end
 * move exactly the view's bytes, at odd offsets and pitches, each read
 * straight after a write of the same bytes; every call refuses a view
 * whose last word sticks out of its buffer; and a user's loop of gt_write,
 * gt_transpose (or gt_copy) and gt_read on the same buffers stays exact
 * round after round. Every byte of the buffers and of the host rows is
 * checked. */
#include "check.h"
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const gt_type types[] = {GT_F16, GT_I16, GT_U16, GT_I8, GT_U8};
static const unsigned char HOST_POISON = 0xA5;
enum { GUARD = 11 }; /* poison bytes before and after host rows */

static gt_context *ctx;
static uint64_t staging_bytes;

static unsigned char noise_byte(size_t i, uint32_t seed) {
  return (unsigned char)(gt_test_noise(i / 4, seed) >> (i % 4 * 8));
}

/* A buffer of exactly `bytes` bytes of noise. */
static GLuint byte_buffer(size_t bytes, uint32_t seed, unsigned char *copy) {
  for (size_t i = 0; i < bytes; i++)
    copy[i] = noise_byte(i, seed);
  GLuint b = 0;
  glGenBuffers(1, &b);
  glBindBuffer(GL_COPY_WRITE_BUFFER, b);
  glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)bytes, copy, GL_STATIC_DRAW);
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
  return b;
}

/* The buffer's bytes, straight from GL. */
static void buffer_bytes(GLuint buffer, size_t bytes, unsigned char *out) {
  glBindBuffer(GL_COPY_READ_BUFFER, buffer);
  const void *p = glMapBufferRange(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)bytes, GL_MAP_READ_BIT);
  CHECK(p != NULL);
  if (p) memcpy(out, p, bytes);
  glUnmapBuffer(GL_COPY_READ_BUFFER);
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
}

typedef struct shape {
  uint32_t rows, cols;
  size_t offset;     /* elements */
  uint32_t pitch;    /* 0 = cols */
  size_t host_pitch; /* 0 = cols */
  size_t tail;       /* buffer bytes after the word of the view's last element */
} shape;

/* Index of host element (r, c) and of buffer element (r, c). */
static size_t host_at(const shape *s, size_t r, size_t c) {
  return r * (s->host_pitch ? s->host_pitch : s->cols) + c;
}
static size_t buffer_at(const shape *s, size_t r, size_t c) {
  return s->offset + r * (s->pitch ? s->pitch : s->cols) + c;
}

/* gt_write then gt_read (and, where it fits the staging buffer, a
 * read-back) of one view; false on any wrong byte. */
static bool transfer_case(gt_type type, const shape *s) {
  size_t size = gt_type_size(type), hp = s->host_pitch ? s->host_pitch : s->cols;
  size_t host_elems = (size_t)(s->rows - 1) * hp + s->cols;
  size_t bytes = (buffer_at(s, s->rows - 1, s->cols) * size + 3) / 4 * 4 + s->tail;
  unsigned char *before = malloc(bytes), *after = malloc(bytes), *host = malloc(host_elems * size);
  unsigned char *block = malloc(host_elems * size + 2 * GUARD);
  if (!before || !after || !host || !block) {
    free(before), free(after), free(host), free(block);
    CHECK(false);
    return false;
  }
  GLuint b = byte_buffer(bytes, s->rows * 7u + s->cols, before);
  for (size_t i = 0; i < host_elems * size; i++)
    host[i] = noise_byte(i, 99);
  gt_view v = {b, s->offset, s->rows, s->cols, s->pitch, type};
  bool ok = true;
  /* Rows off 4-byte boundaries go through a kernel with shader atomics,
   * refused where the context has none (gt_context_has_atomics); rows
   * count as one when view and host rows are both gapless. */
  bool one_row = (s->pitch == 0 || s->pitch == s->cols) && hp == s->cols;
  bool on_words = (s->offset * size) % 4 == 0 && ((one_row ? s->rows * s->cols : s->cols) * size) % 4 == 0 &&
                  (one_row || s->rows == 1 || ((s->pitch ? s->pitch : s->cols) * size) % 4 == 0);
  bool written = on_words || gt_context_has_atomics(ctx);
  CHECK_STATUS(gt_write(ctx, v, host, s->host_pitch), written ? GT_OK : GT_ERR_UNSUPPORTED);
  /* The buffer: the view's elements from the host, every other byte as it was. */
  unsigned char *want = malloc(bytes);
  memcpy(want, before, bytes);
  for (size_t r = 0; r < s->rows && written; r++)
    memcpy(want + buffer_at(s, r, 0) * size, host + host_at(s, r, 0) * size, s->cols * size);
  buffer_bytes(b, bytes, after);
  ok &= memcmp(after, want, bytes) == 0;
  for (size_t i = 0; i < bytes && !ok; i++)
    if (after[i] != want[i]) {
      fprintf(stderr, "  gt_write: buffer byte %zu of %zu is 0x%02x, want 0x%02x\n", i, bytes, after[i],
              want[i]);
      break;
    }
  /* Back through gt_read and, where it fits, gt_read_begin / _end. */
  for (int way = 0; way < 2; way++) {
    if (way == 1 && (uint64_t)s->rows * s->cols * size > staging_bytes) break;
    memset(block, HOST_POISON, host_elems * size + 2 * GUARD);
    if (way == 0) {
      CHECK_STATUS(gt_read(ctx, v, block + GUARD, s->host_pitch), GT_OK);
    } else {
      CHECK_STATUS(gt_read_begin(ctx, v), GT_OK);
      CHECK_STATUS(gt_read_end(ctx, block + GUARD, s->host_pitch, UINT64_MAX), GT_OK);
    }
    for (size_t i = 0; i < host_elems * size + 2 * GUARD; i++) {
      size_t e = (i - GUARD) / size;
      bool inside = i >= GUARD && e < host_elems && e % hp < s->cols;
      size_t r = e / hp, c = e % hp, byte = (i - GUARD) % size;
      unsigned char expected = inside ? want[buffer_at(s, r, c) * size + byte] : HOST_POISON;
      if (block[i] != expected && ok)
        fprintf(stderr, "  %s: host byte %zu is 0x%02x, want 0x%02x\n", way ? "gt_read_end" : "gt_read", i,
                block[i], expected);
      ok &= block[i] == expected;
    }
  }
  if (!ok)
    fprintf(stderr, "FAILED: type %d %ux%u offset %zu pitch %u host pitch %zu tail %zu\n", (int)type, s->rows,
            s->cols, s->offset, s->pitch, s->host_pitch, s->tail);
  CHECK(ok);
  free(before), free(after), free(host), free(block), free(want);
  glDeleteBuffers(1, &b);
  return ok;
}

static void test_transfers(void) {
  uint32_t round = (uint32_t)staging_bytes; /* elements of one staging round, for the 1-byte types */
  const shape shapes[] = {
      {1, 1, 0, 0, 0, 0},         /* one element, the buffer one word */
      {1, 1, 3, 0, 0, 1},         /* one element in a word's middle */
      {1, 7, 1, 0, 0, 0},         /* odd start, odd length, the buffer ends with its word */
      {5, 3, 1, 5, 0, 2},         /* odd pitch: rows start at every byte of a word */
      {37, 29, 11, 41, 33, 3},    /* a section into wider host rows */
      {50, 40, 0, 0, 47, 0},      /* gapless view, host rows with gaps */
      {300, 1, 5, 17, 0, 1},      /* one column */
      {1, round + 3, 3, 0, 0, 1}, /* a row longer than a staging round */
      {3, round / 2 + 1, 1, round / 2 + 4, 0, 0},
  };
  unsigned exact = 0, cases = 0;
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++, cases++)
      exact += transfer_case(types[t], &shapes[i]);
  printf("packed transfers: %u of %u exact\n", exact, cases);
}

/* 2- and 1-byte elements are reached through whole words: a view whose
 * last word sticks out of a buffer of odd size is refused by every call,
 * and nothing is written; a view inside it is served. */
static void test_whole_words(void) {
  unsigned char copy[1001], after[1001];
  GLuint b = byte_buffer(sizeof copy, 5, copy), d = gt_test_buffer(256, gt_test_poison, 5);
  gt_view inside = {b, 0, 1, 1000, 0, GT_U8}, to = {d, 0, 1, 1000, 0, GT_U8};
  gt_view past = {b, 999, 1, 2, 0, GT_U8};    /* bytes 999-1000: the word runs to 1004 */
  gt_view last = {b, 1000, 1, 1, 0, GT_U8};   /* the buffer's last byte */
  gt_view halves = {b, 499, 1, 1, 0, GT_U16}; /* bytes 998-999: its word ends at byte 1000 */
  unsigned char two[2] = {1, 2}, host[2] = {0xA5, 0xA5};
  /* Kernels on packed views need shader atomics (gt_context_has_atomics). */
  bool atomics = gt_context_has_atomics(ctx);
  gt_status kernel = atomics ? GT_OK : GT_ERR_UNSUPPORTED;
  CHECK_STATUS(gt_copy(ctx, inside, to), kernel);
  CHECK_STATUS(gt_copy(ctx, gt_section(to, 0, 0, 1, 2), past), GT_ERR_OUT_OF_RANGE);
  CHECK_STATUS(gt_copy(ctx, (gt_view){d, 0, 1, 1, 0, GT_U8}, last), GT_ERR_OUT_OF_RANGE);
  CHECK_STATUS(gt_transpose(ctx, past, (gt_view){d, 0, 2, 1, 0, GT_U8}, NULL), GT_ERR_OUT_OF_RANGE);
  CHECK_STATUS(gt_transpose(ctx, last, last, NULL), GT_ERR_OUT_OF_RANGE);
  CHECK_STATUS(gt_write(ctx, past, two, 0), GT_ERR_OUT_OF_RANGE);
  CHECK_STATUS(gt_read(ctx, past, host, 0), GT_ERR_OUT_OF_RANGE);
  CHECK_STATUS(gt_read_begin(ctx, last), GT_ERR_OUT_OF_RANGE);
  CHECK(host[0] == 0xA5 && host[1] == 0xA5);
  /* Served: a u16 element whose word ends at byte 1000, from d's first. */
  CHECK_STATUS(gt_copy(ctx, gt_section((gt_view){d, 0, 1, 2, 0, GT_U16}, 0, 0, 1, 1), halves), kernel);
  CHECK_STATUS(gt_read(ctx, halves, host, 0), GT_OK);
  /* d's bytes 0-1 are b's first two (the first copy); nothing else moved
   * (nothing at all where the copies were refused). */
  buffer_bytes(b, sizeof after, after);
  unsigned char want[1001];
  memcpy(want, copy, sizeof want);
  if (atomics) {
    want[998] = copy[0];
    want[999] = copy[1];
  }
  CHECK(memcmp(after, want, sizeof want) == 0);
  CHECK(host[0] == want[998] && host[1] == want[999]);
  GLuint names[2] = {b, d};
  glDeleteBuffers(2, names);
}

/* A user's loop on the same buffers: gt_write a new frame, transpose it
 * (or copy it) into a buffer holding last round's result, read it back.
 * Rows at odd offsets and pitches, so words are shared at every edge. */
static void test_loop(void) {
  if (!gt_context_has_atomics(ctx)) {
    printf("write -> transpose -> read loop: not run, this context has no shader atomics\n");
    return;
  }
  enum { ROWS = 61, COLS = 98, PITCH = 101, ROUNDS = 12 };
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    gt_type type = types[t];
    size_t size = gt_type_size(type), n = (size_t)ROWS * COLS;
    size_t words = ((3 + (size_t)COLS * PITCH) * size + 3) / 4 + 1;
    GLuint a = gt_test_buffer(words, gt_test_noise, 1), o = gt_test_buffer(words, gt_test_noise, 2);
    gt_view va = {a, 3, ROWS, COLS, PITCH, type}, vt = {o, 1, COLS, ROWS, PITCH, type};
    gt_view vc = {o, 1, ROWS, COLS, PITCH, type};
    unsigned char *in = malloc(n * size), *out = malloc(n * size);
    uint32_t seed = (uint32_t)t + 1;
    unsigned exact = 0;
    for (int round = 0; round < ROUNDS && in && out; round++) {
      bool copy = round % 3 == 2;
      for (size_t i = 0; i < n * size; i++)
        in[i] = (unsigned char)gt_test_rand(&seed);
      memset(out, HOST_POISON, n * size);
      CHECK_STATUS(gt_write(ctx, va, in, 0), GT_OK);
      CHECK_STATUS(copy ? gt_copy(ctx, va, vc) : gt_transpose(ctx, va, vt, NULL), GT_OK);
      CHECK_STATUS(gt_read(ctx, copy ? vc : vt, out, 0), GT_OK);
      bool ok = true;
      for (size_t r = 0; r < ROWS; r++)
        for (size_t c = 0; c < COLS; c++) {
          size_t at = copy ? r * COLS + c : c * ROWS + r;
          ok &= memcmp(out + at * size, in + (r * COLS + c) * size, size) == 0;
        }
      exact += ok;
    }
    CHECK_EQ_U(exact, ROUNDS);
    printf("type %d: write -> transpose or copy -> read: %u of %d rounds exact\n", (int)type, exact, ROUNDS);
    free(in);
    free(out);
    GLuint names[2] = {a, o};
    glDeleteBuffers(2, names);
  }
}

/* Operations that take 4-byte types (and matmul GT_F16) refuse the others. */
static void test_refused(void) {
  GLuint b = gt_test_buffer(64, gt_test_noise, 3);
  gt_view v = {b, 0, 4, 4, 0, GT_U16};
  CHECK_STATUS(gt_matmul(ctx, v, v, (gt_view){b, 32, 4, 4, 0, GT_U16}, NULL), GT_ERR_UNSUPPORTED);
  gt_kernel_desc kd;
  memset(&kd, 0, sizeof kd);
  kd.body = "void main() {}";
  kd.views[0] = (gt_kernel_view){"x", GT_U8, GT_ACCESS_READ_WRITE};
  kd.view_count = 1;
  gt_kernel_id id;
  CHECK_STATUS(gt_kernel_create(ctx, &kd, &id), GT_ERR_UNSUPPORTED);
  /* Views of different element types compare by bytes. */
  gt_view bytes = {b, 5, 1, 3, 0, GT_U8}, word = {b, 2, 1, 1, 0, GT_U32}, halves = {b, 3, 1, 1, 0, GT_U16};
  CHECK(!gt_views_alias(bytes, word));  /* bytes 5..7 and 8..11: one word, apart */
  CHECK(gt_views_alias(bytes, halves)); /* 5..7 and 6..7 */
  CHECK(gt_views_alias(word, (gt_view){b, 11, 1, 1, 0, GT_U8}));
  CHECK(!gt_views_alias(word, (gt_view){b, 12, 1, 1, 0, GT_U8}));
  /* Columns of a u8 matrix with pitch 6 beside a u16 column of pitch 3
   * in the same bytes: rows interleave, bytes do not meet. */
  CHECK(!gt_views_alias((gt_view){b, 0, 5, 2, 6, GT_U8}, (gt_view){b, 1, 5, 1, 3, GT_U16}));
  CHECK(gt_views_alias((gt_view){b, 0, 5, 3, 6, GT_U8}, (gt_view){b, 1, 5, 1, 3, GT_U16}));
  glDeleteBuffers(1, &b);
}

int main(int argc, char **argv) {
  gt_test_env env;
  int rc = gt_test_open(argc, argv, &env);
  if (rc != 0) return rc;
  ctx = env.ctx;
  staging_bytes = gt_context_limits(ctx).staging_bytes;
  test_transfers();
  test_whole_words();
  test_loop();
  test_refused();
  gt_test_close(&env);
  return CHECK_SUMMARY();
}
