/* Transfers as applications use them: gt_write and gt_read of sections
 * with pitches, at the edges of the staging buffer's rounds (1 element,
 * one round exactly, one round and one element, rows longer than a round);
 * the deferred read-back (gt_read_begin / gt_read_end) and fences
 * (already signalled, timeouts, many outstanding); and a write -> compute
 * -> read loop. Every host word around the destination is a guard, and so
 * is every buffer word outside a written view. Run it with
 * `--staging-bytes 4096` too, where most reads take many rounds. */
#include "check.h"
#include "harness.h"

#include <stdlib.h>
#include <string.h>

enum { GUARD = 64 }; /* guard words on each side of host rows */
static const uint32_t HOST_POISON = 0xA5A5A5A5u;

static gt_context *ctx;
static uint64_t staging_words; /* elements one staging round holds */

/* The buffer's words, straight from GL (not through gt_read). */
static void buffer_words(GLuint buffer, size_t words, uint32_t *out) {
  glBindBuffer(GL_COPY_READ_BUFFER, buffer);
  const void *p = glMapBufferRange(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)(words * 4), GL_MAP_READ_BIT);
  CHECK(p != NULL);
  if (p) memcpy(out, p, words * 4);
  glUnmapBuffer(GL_COPY_READ_BUFFER);
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
}

/* A fresh buffer of noise words, never mapped. */
static GLuint noise_buffer(size_t words, uint32_t seed) { return gt_test_buffer(words, gt_test_noise, seed); }

/* Host memory for rows x cols at host_pitch, with GUARD poison words
 * before and after; returns the first row's start. */
static uint32_t *guarded_host(uint32_t rows, uint32_t cols, size_t host_pitch, uint32_t **block,
                              size_t *words) {
  size_t hp = host_pitch ? host_pitch : cols;
  *words = GUARD * 2 + (size_t)(rows - 1) * hp + cols;
  *block = malloc(*words * 4);
  for (size_t i = 0; *block && i < *words; i++)
    (*block)[i] = HOST_POISON;
  return *block ? *block + GUARD : NULL;
}

/* true when every host word is the view's element or, outside the rows,
 * still poison. */
static bool host_matches(const uint32_t *block, size_t words, gt_view v, size_t host_pitch,
                         const uint32_t *buffer) {
  size_t hp = host_pitch ? host_pitch : v.cols, pitch = v.pitch ? v.pitch : v.cols;
  for (size_t i = 0; i < words; i++) {
    bool inside = i >= GUARD && i - GUARD < (size_t)(v.rows - 1) * hp + v.cols && (i - GUARD) % hp < v.cols;
    size_t r = (i - GUARD) / hp, c = (i - GUARD) % hp;
    uint32_t want = inside ? buffer[v.offset + r * pitch + c] : HOST_POISON;
    if (block[i] != want) {
      fprintf(stderr, "host word %zu: 0x%08x, want 0x%08x\n", i, block[i], want);
      return false;
    }
  }
  return true;
}

/* One read of v (from a noise buffer of `words`) into guarded host rows. */
static void read_case(const char *what, uint32_t rows, uint32_t cols, size_t offset, uint32_t pitch,
                      size_t host_pitch) {
  size_t words = offset + (size_t)(rows - 1) * (pitch ? pitch : cols) + cols + 7;
  GLuint b = noise_buffer(words, rows * 31u + cols);
  uint32_t *truth = malloc(words * 4), *block = NULL;
  size_t host_words = 0;
  gt_view v = {b, offset, rows, cols, pitch, GT_U32};
  uint32_t *host = guarded_host(rows, cols, host_pitch, &block, &host_words);
  buffer_words(b, words, truth);
  gt_status s = gt_read(ctx, v, host, host_pitch);
  CHECK_STATUS(s, GT_OK);
  bool ok = host_matches(block, host_words, v, host_pitch, truth);
  if (!ok)
    fprintf(stderr, "read %s (%ux%u, offset %zu, pitch %u, host pitch %zu) wrong\n", what, rows, cols, offset,
            pitch, host_pitch);
  CHECK(ok);
  free(truth);
  free(block);
  glDeleteBuffers(1, &b);
}

/* One write of host rows into v, then every buffer word checked: the view's
 * elements from the host, all others as they were. */
static void write_case(const char *what, uint32_t rows, uint32_t cols, size_t offset, uint32_t pitch,
                       size_t host_pitch) {
  size_t p = pitch ? pitch : cols, hp = host_pitch ? host_pitch : cols;
  size_t words = offset + (size_t)(rows - 1) * p + cols + 5;
  GLuint b = noise_buffer(words, 7);
  uint32_t *before = malloc(words * 4), *after = malloc(words * 4);
  uint32_t *host = malloc(((size_t)(rows - 1) * hp + cols) * 4);
  for (size_t i = 0; i < (size_t)(rows - 1) * hp + cols; i++)
    host[i] = gt_test_noise(i, 99);
  buffer_words(b, words, before);
  gt_view v = {b, offset, rows, cols, pitch, GT_U32};
  CHECK_STATUS(gt_write(ctx, v, host, host_pitch), GT_OK);
  buffer_words(b, words, after);
  size_t wrong = 0;
  for (size_t i = 0; i < words; i++) {
    bool inside = i >= offset && (i - offset) / p < rows && (i - offset) % p < cols;
    uint32_t want = inside ? host[((i - offset) / p) * hp + (i - offset) % p] : before[i];
    wrong += after[i] != want;
  }
  if (wrong)
    fprintf(stderr, "write %s (%ux%u, pitch %u, host pitch %zu): %zu words wrong\n", what, rows, cols, pitch,
            host_pitch, wrong);
  CHECK_EQ_U(wrong, 0);
  free(before);
  free(after);
  free(host);
  glDeleteBuffers(1, &b);
}

static void test_reads(void) {
  uint32_t s = (uint32_t)staging_words;
  read_case("one element", 1, 1, 0, 0, 0);
  read_case("one element at an offset", 1, 1, 13, 0, 0);
  read_case("one round exactly", 1, s, 0, 0, 0);
  read_case("one round and one", 1, s + 1, 3, 0, 0);
  read_case("one round less one", 1, s - 1, 1, 0, 0);
  read_case("rows making one round", 4, s / 4, 0, 0, 0);
  read_case("rows one past a round", 4, s / 4, 0, s / 4 + 3, 0);
  read_case("a row longer than two rounds", 3, 2 * s + 5, 2, 2 * s + 9, 0);
  read_case("a section with pitch", 37, 29, 11, 41, 0);
  read_case("a section into wider host rows", 37, 29, 11, 41, 33);
  read_case("gapless view, host rows with gaps", 50, 40, 0, 0, 47);
  read_case("one column", 300, 1, 5, 17, 0);
  read_case("many rounds of short rows", 3 * s / 7 + 2, 7, 0, 9, 0);
}

static void test_writes(void) {
  uint32_t s = (uint32_t)staging_words;
  write_case("one element", 1, 1, 9, 0, 0);
  write_case("gapless", 40, 30, 0, 0, 0);
  write_case("a section with pitch", 37, 29, 11, 41, 0);
  write_case("from wider host rows", 37, 29, 11, 41, 35);
  write_case("gapless view, host rows with gaps", 20, 16, 4, 0, 19);
  write_case("a long row", 1, 2 * s + 3, 1, 0, 0);
}

/* gt_read_begin / gt_read_end: exact, busy, too large, nothing pending. */
static void test_read_back(void) {
  size_t words = 64 * 64;
  GLuint b = noise_buffer(words, 3);
  uint32_t *truth = malloc(words * 4), *block = NULL;
  buffer_words(b, words, truth);
  gt_view v = {b, 70, 20, 50, 60, GT_U32}; /* 1000 elements: fits 4 KiB of staging */
  size_t host_words = 0;
  uint32_t *host = guarded_host(v.rows, v.cols, 53, &block, &host_words);
  uint32_t scratch[4];

  CHECK_STATUS(gt_read_end(ctx, host, 0, 0), GT_ERR_INVALID_ARGUMENT); /* nothing pending */
  CHECK_STATUS(gt_read_begin(ctx, v), GT_OK);
  CHECK_STATUS(gt_read_begin(ctx, v), GT_ERR_BUSY);
  CHECK_STATUS(gt_read(ctx, v, scratch, 0), GT_ERR_BUSY);
  CHECK_STATUS(gt_read_end(ctx, host, 49, 0), GT_ERR_INVALID_ARGUMENT); /* pitch below cols */
  gt_status s = gt_read_end(ctx, host, 53, 0);
  unsigned timeouts = 0;
  while (s == GT_ERR_TIMEOUT && timeouts < 1000000) {
    /* Not arrived yet: nothing written, still pending. */
    timeouts++;
    s = gt_read_end(ctx, host, 53, 1000);
  }
  CHECK_STATUS(s, GT_OK);
  CHECK(host_matches(block, host_words, v, 53, truth));
  CHECK_STATUS(gt_read_end(ctx, host, 53, 0), GT_ERR_INVALID_ARGUMENT); /* ended */
  printf("read-back: %u zero-length waits timed out before it arrived\n", timeouts);

  /* A wait that times out leaves the host rows alone. A long dispatch in
   * front of the read-back makes a timeout likely, never certain. */
  GLuint big = noise_buffer(1024 * 1024, 4), big_t = noise_buffer(1024 * 1024, 5);
  gt_view bv = {big, 0, 1024, 1024, 0, GT_U32}, bt = {big_t, 0, 1024, 1024, 0, GT_U32};
  for (size_t i = 0; i < host_words; i++)
    block[i] = HOST_POISON;
  for (int i = 0; i < 4; i++)
    CHECK_STATUS(gt_transpose(ctx, (i % 2) ? bt : bv, (i % 2) ? bv : bt, NULL), GT_OK);
  CHECK_STATUS(gt_read_begin(ctx, v), GT_OK);
  s = gt_read_end(ctx, host, 53, 0);
  if (s == GT_ERR_TIMEOUT) {
    bool untouched = true;
    for (size_t i = 0; i < host_words; i++)
      untouched &= block[i] == HOST_POISON;
    CHECK(untouched);
    s = gt_read_end(ctx, host, 53, UINT64_MAX);
  }
  CHECK_STATUS(s, GT_OK);
  CHECK(host_matches(block, host_words, v, 53, truth));

  /* Cancel frees the staging buffer; a second cancel is a no-op. */
  CHECK_STATUS(gt_read_begin(ctx, v), GT_OK);
  CHECK_STATUS(gt_read_cancel(ctx), GT_OK);
  CHECK_STATUS(gt_read_cancel(ctx), GT_OK);
  CHECK_STATUS(gt_read_end(ctx, host, 0, 0), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_read(ctx, (gt_view){b, 0, 1, 4, 0, GT_U32}, scratch, 0), GT_OK);
  CHECK(scratch[0] == truth[0] && scratch[3] == truth[3]);

  /* Larger than the staging buffer: refused, nothing pending after. */
  uint64_t too_many = staging_words + 1;
  GLuint long_buffer = noise_buffer((size_t)too_many, 6);
  gt_view too_long = {long_buffer, 0, 1, (uint32_t)too_many, 0, GT_U32};
  CHECK_STATUS(gt_read_begin(ctx, too_long), GT_ERR_UNSUPPORTED);
  CHECK_STATUS(gt_read_end(ctx, host, 0, 0), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_read_begin(ctx, (gt_view){b, 0, 0, 4, 0, GT_U32}), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_read_begin(NULL, v), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_read_end(ctx, NULL, 0, 0), GT_ERR_INVALID_ARGUMENT);

  GLuint buffers[4] = {b, big, big_t, long_buffer};
  glDeleteBuffers(4, buffers);
  free(truth);
  free(block);
}

static void test_fences(void) {
  gt_fence f = {NULL};
  CHECK_STATUS(gt_fence_wait(ctx, &f, 0), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_fence_wait(ctx, NULL, 0), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_fence_insert(ctx, NULL), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_fence_insert(NULL, &f), GT_ERR_INVALID_ARGUMENT);
  gt_fence_release(ctx, NULL);
  gt_fence_release(ctx, &f);

  /* Already signalled: after gt_finish a zero timeout answers GT_OK, and
   * so does every later wait. */
  CHECK_STATUS(gt_fence_insert(ctx, &f), GT_OK);
  CHECK(f.sync != NULL);
  CHECK_STATUS(gt_finish(ctx), GT_OK);
  CHECK_STATUS(gt_fence_wait(ctx, &f, 0), GT_OK);
  CHECK_STATUS(gt_fence_wait(ctx, &f, 0), GT_OK);
  gt_fence_release(ctx, &f);
  CHECK(f.sync == NULL);

  /* Many outstanding, each after its own transpose; polled with zero
   * timeouts, then waited for in reverse order. */
  enum { FENCES = 300 };
  static gt_fence many[FENCES];
  GLuint a = noise_buffer(128 * 128, 8), t = noise_buffer(128 * 128, 9);
  gt_view va = {a, 0, 128, 128, 0, GT_U32}, vt = {t, 0, 128, 128, 0, GT_U32};
  unsigned inserted = 0, early = 0;
  for (int i = 0; i < FENCES; i++) {
    CHECK_STATUS(gt_transpose(ctx, (i % 2) ? vt : va, (i % 2) ? va : vt, NULL), GT_OK);
    if (gt_fence_insert(ctx, &many[i]) == GT_OK) inserted++;
    gt_status s = gt_fence_wait(ctx, &many[i / 2], 0);
    CHECK(s == GT_OK || s == GT_ERR_TIMEOUT);
    early += s == GT_OK;
  }
  CHECK_EQ_U(inserted, FENCES);
  unsigned signalled = 0;
  for (int i = FENCES - 1; i >= 0; i--)
    signalled += gt_fence_wait(ctx, &many[i], UINT64_MAX) == GT_OK;
  CHECK_EQ_U(signalled, FENCES);
  for (int i = 0; i < FENCES; i++)
    gt_fence_release(ctx, &many[i]);
  printf("fences: %d outstanding, %u seen signalled while polling\n", FENCES, early);
  GLuint buffers[2] = {a, t};
  glDeleteBuffers(2, buffers);
}

/* The loop an application runs: write the input, transpose, read the
 * result, check, again; with the read-back deferred every other round
 * where it fits the staging buffer. */
static void test_loop(void) {
  enum { ROWS = 77, COLS = 130, ROUNDS = 40 };
  GLuint a = noise_buffer((size_t)ROWS * COLS + 8, 10), t = noise_buffer((size_t)ROWS * COLS + 8, 11);
  gt_view va = {a, 3, ROWS, COLS, 0, GT_U32}, vt = {t, 5, COLS, ROWS, 0, GT_U32};
  uint32_t *in = malloc((size_t)ROWS * COLS * 4), *block = NULL;
  size_t host_words = 0;
  uint32_t *out = guarded_host(COLS, ROWS, 0, &block, &host_words);
  uint32_t seed = 1;
  unsigned exact = 0;
  for (int round = 0; round < ROUNDS; round++) {
    for (size_t i = 0; i < (size_t)ROWS * COLS; i++)
      in[i] = gt_test_rand(&seed);
    for (size_t i = 0; i < host_words; i++)
      block[i] = HOST_POISON;
    CHECK_STATUS(gt_write(ctx, va, in, 0), GT_OK);
    CHECK_STATUS(gt_write(ctx, vt, in, 0), GT_OK); /* stale data the transpose must replace */
    CHECK_STATUS(gt_transpose(ctx, va, vt, NULL), GT_OK);
    if (round % 2 && (uint64_t)ROWS * COLS <= staging_words) {
      CHECK_STATUS(gt_read_begin(ctx, vt), GT_OK);
      CHECK_STATUS(gt_read_end(ctx, out, 0, UINT64_MAX), GT_OK);
    } else {
      CHECK_STATUS(gt_read(ctx, vt, out, 0), GT_OK);
    }
    bool ok = true;
    for (size_t i = 0; i < host_words; i++) {
      bool inside = i >= GUARD && i < GUARD + (size_t)ROWS * COLS;
      size_t e = i - GUARD, r = e / ROWS, c = e % ROWS; /* out is COLS x ROWS */
      ok &= block[i] == (inside ? in[c * COLS + r] : HOST_POISON);
    }
    exact += ok;
  }
  CHECK_EQ_U(exact, ROUNDS);
  printf("write -> transpose -> read: %u of %d rounds exact\n", exact, ROUNDS);
  GLuint buffers[2] = {a, t};
  glDeleteBuffers(2, buffers);
  free(in);
  free(block);
}

/* A buffer made as applications often make them: through the copy-write
 * binding, with a usage hint. */
static GLuint app_buffer(size_t words, GLenum usage, uint32_t seed) {
  uint32_t data[256];
  if (words > 256) return 0;
  for (size_t i = 0; i < words; i++)
    data[i] = gt_test_noise(i, seed);
  GLuint b = 0;
  glGenBuffers(1, &b);
  glBindBuffer(GL_COPY_WRITE_BUFFER, b);
  glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)(words * 4), data, usage);
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
  return b;
}

/* gt_write then gt_read of the same buffer, with and without kernels
 * between: each read gives what was written last. On the H100, a buffer
 * whose size was asked through the copy-read binding gave its old bytes to
 * the read's copy (src/plan/view.c). */
static void test_write_then_read(void) {
  enum { N = 8, ROUNDS = 21 };
  static const GLenum usages[] = {GL_STATIC_DRAW, GL_DYNAMIC_COPY, GL_STREAM_DRAW};
  uint32_t w[N * N], got[N * N], want[N * N];
  unsigned exact = 0, total = 0;
  for (int round = 0; round < ROUNDS; round++) {
    GLuint b = app_buffer(N * N, usages[round % 3], 40u + (uint32_t)round), c = noise_buffer(N * N, 41u);
    gt_view vb = {b, 0, N, N, 0, GT_F32}, vc = {c, 0, N, N, 0, GT_F32};
    for (int step = 0; step < 4; step++) {
      for (int i = 0; i < N * N; i++)
        w[i] = gt_test_noise((size_t)i, (uint32_t)(round * 4 + step));
      memset(got, 0, sizeof got);
      if (step == 1) CHECK_STATUS(gt_read(ctx, vb, got, 0), GT_OK);        /* a read before the write */
      if (step == 2) CHECK_STATUS(gt_transpose(ctx, vb, vc, NULL), GT_OK); /* a kernel before it */
      CHECK_STATUS(gt_write(ctx, vb, w, 0), GT_OK);
      if (step == 3) {
        CHECK_STATUS(gt_transpose(ctx, vb, vc, NULL), GT_OK);
        CHECK_STATUS(gt_read(ctx, vc, got, 0), GT_OK);
        for (int r = 0; r < N; r++)
          for (int k = 0; k < N; k++)
            want[k * N + r] = w[r * N + k];
      } else {
        CHECK_STATUS(gt_read(ctx, vb, got, 0), GT_OK);
        memcpy(want, w, sizeof want);
      }
      exact += memcmp(got, want, sizeof got) == 0;
      total++;
    }
    GLuint names[2] = {b, c};
    glDeleteBuffers(2, names);
  }
  printf("gt_write then gt_read: %u of %u exact\n", exact, total);
  CHECK_EQ_U(exact, total);
}

static void test_invalid(void) {
  uint32_t host[4] = {0};
  GLuint b = noise_buffer(16, 1);
  gt_view v = {b, 0, 2, 2, 0, GT_U32};
  CHECK_STATUS(gt_read(ctx, v, NULL, 0), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_write(ctx, v, NULL, 0), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_read(ctx, v, host, 1), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_read(ctx, (gt_view){b, 15, 1, 2, 0, GT_U32}, host, 0), GT_ERR_OUT_OF_RANGE);
  CHECK_STATUS(gt_write(ctx, (gt_view){b, 15, 1, 2, 0, GT_U32}, host, 0), GT_ERR_OUT_OF_RANGE);
  CHECK_STATUS(gt_read_cancel(NULL), GT_ERR_INVALID_ARGUMENT);
  glDeleteBuffers(1, &b);
}

int main(int argc, char **argv) {
  gt_test_env env;
  int rc = gt_test_open(argc, argv, &env);
  if (rc != 0) return rc;
  ctx = env.ctx;
  staging_words = gt_context_limits(ctx).staging_bytes / 4;
  test_invalid();
  test_reads();
  test_writes();
  test_read_back();
  test_fences();
  test_loop();
  test_write_then_read();
  gt_test_close(&env);
  return CHECK_SUMMARY();
}
