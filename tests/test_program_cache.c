/* Program binaries: a cache saved from one context loads into a new one,
 * which then compiles nothing and gives the same results; damaged,
 * truncated and foreign caches are refused or ignored as documented. */
#include "check.h"
#include "harness.h"
#include "plan/program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned builds; /* "built ..." messages: programs compiled */
static char last_error[256]; /* the last GT_LOG_ERROR message */

static void count_builds(int level, const char *msg, void *user) {
  (void)user;
  if (strncmp(msg, "built ", 6) == 0) builds++;
  if (level == GT_LOG_ERROR) snprintf(last_error, sizeof last_error, "%s", msg);
}

static gt_context *open_context_with(bool min_limits, gt_matmul_kernel kernel) {
  gt_context_desc d;
  memset(&d, 0, sizeof d);
  d.min_limits = min_limits;
  d.matmul_kernel = kernel;
  d.logger.log = count_builds;
  gt_context *ctx = NULL;
  CHECK_STATUS(gt_context_init(NULL, 0, &d, &ctx), GT_OK);
  return ctx;
}

static gt_context *open_context(bool min_limits) { return open_context_with(min_limits, 0); }

enum { ROWS = 37, COLS = 29 };

/* Transpose, copy and matmul AUTO on fixed inputs; the words of the three
 * results into out (3 x ROWS x COLS words). */
static bool run_ops(gt_context *ctx, GLuint in, GLuint out_buffer, uint32_t *out) {
  gt_view a = {in, 0, ROWS, COLS, 0, GT_F32};
  gt_view t = {out_buffer, 0, COLS, ROWS, 0, GT_F32};
  gt_view c = {out_buffer, (size_t)ROWS * COLS, ROWS, COLS, 0, GT_F32};
  gt_view sq = {in, 0, COLS, COLS, 0, GT_F32};
  gt_view m = {out_buffer, 2 * (size_t)ROWS * COLS, ROWS, COLS, 0, GT_F32};
  bool ok = gt_transpose(ctx, a, t, NULL) == GT_OK && gt_copy(ctx, a, c) == GT_OK &&
            gt_matmul(ctx, a, sq, m, NULL) == GT_OK;
  return ok && gt_test_read_all(ctx, out_buffer, 3 * ROWS * COLS, out) == 0;
}

static uint32_t small_float(size_t i, uint32_t seed) {
  float f = (float)((i * 5 + seed) % 9) - 4.0f;
  uint32_t w;
  memcpy(&w, &f, 4);
  return w;
}

/* The header as src/gl/program_cache.c lays it out: magic, format, library
 * version and program count (4 bytes each), the source hash (8), then
 * the renderer. No checksum covers it. */
enum { SOURCES_AT = 16, RENDERER_AT = 24 };

/* A cache ctx must ignore: GT_OK with none loaded, and the operations
 * then compile every program again and run exact. */
static void check_ignored(gt_context *ctx, const unsigned char *bytes, size_t written, unsigned cold_builds,
                          GLuint in, GLuint out, const uint32_t *first, uint32_t *second) {
  uint32_t loaded = 99;
  builds = 0;
  CHECK_STATUS(gt_program_cache_load(ctx, bytes, written, &loaded), GT_OK);
  CHECK_EQ_U(loaded, 0);
  CHECK(run_ops(ctx, in, out, second));
  CHECK(memcmp(first, second, 3 * ROWS * COLS * 4) == 0);
  CHECK_EQ_U(builds, cold_builds);
}

/* A fresh context loads the whole cache (where the driver has binary
 * formats), and the operations, into a cleared output, compile nothing and
 * give the cold run's words. Returns the programs loaded. */
static uint32_t check_warm(gt_context *ctx, const unsigned char *cache, size_t written, GLint formats,
                           unsigned cold_builds, GLuint in, GLuint out, const uint32_t *first, uint32_t *second) {
  uint32_t loaded = 99;
  builds = 0;
  CHECK_STATUS(gt_program_cache_load(ctx, cache, written, &loaded), GT_OK);
  if (formats > 0) CHECK_EQ_U(loaded, cold_builds);
  for (size_t i = 0; i < 3 * (size_t)ROWS * COLS; i++)
    second[i] = 0;
  glBindBuffer(GL_COPY_WRITE_BUFFER, out);
  glBufferSubData(GL_COPY_WRITE_BUFFER, 0, 3 * ROWS * COLS * 4, second);
  CHECK(run_ops(ctx, in, out, second));
  CHECK(memcmp(first, second, 3 * ROWS * COLS * 4) == 0);
  if (formats > 0) CHECK_EQ_U(builds, 0);
  return loaded;
}

/* A cache written by another build of this version (its source hash
 * changed, nothing else) is ignored like another renderer's: GT_OK, none
 * loaded, and the operations compile and run exact. The unchanged cache
 * still loads every program into a fresh context. */
static void test_other_sources(bool min_limits, GLint formats, const unsigned char *cache, size_t written,
                               unsigned cold_builds, GLuint in, GLuint out, const uint32_t *first,
                               uint32_t *second) {
  uint64_t sources;
  memcpy(&sources, cache + SOURCES_AT, sizeof sources);
  CHECK(sources == gt__source_hash());
  unsigned char *other = malloc(written);
  memcpy(other, cache, written);
  sources ^= 1u << 20;
  memcpy(other + SOURCES_AT, &sources, sizeof sources);

  gt_context *ctx = open_context(min_limits);
  check_ignored(ctx, other, written, cold_builds, in, out, first, second);
  gt_context_release(ctx);

  ctx = open_context(min_limits);
  check_warm(ctx, cache, written, formats, cold_builds, in, out, first, second);
  gt_context_release(ctx);
  free(other);
}

/* ctx's programs saved into a new block of gt_program_cache_size bytes
 * (the caller frees it); *written is what the save wrote. */
static unsigned char *saved_cache(gt_context *ctx, size_t *written) {
  size_t size = 0;
  *written = 0;
  CHECK_STATUS(gt_program_cache_size(ctx, &size), GT_OK);
  unsigned char *cache = malloc(size);
  CHECK_STATUS(gt_program_cache_save(ctx, cache, size, written), GT_OK);
  return cache;
}

/* The shared matmul kernel (128-wide blocks; AUTO runs it where c has
 * the device table's 64 of them) saves and loads like the rest: a
 * 1024 x 1024 c with K = 3, compiled once, then from the cache. */
static void test_shared_kernel_round_trip(int formats) {
  enum { M = 1024, N = 1024, K = 3 };
  GLuint in = gt_test_buffer((size_t)(M + N) * K, small_float, 2);
  GLuint out = gt_test_buffer((size_t)M * N, gt_test_poison, 0);
  gt_view a = {in, 0, M, K, 0, GT_F32}, b = {in, (size_t)M * K, K, N, 0, GT_F32};
  gt_view c = {out, 0, M, N, 0, GT_F32};
  uint32_t *first = malloc((size_t)M * N * 4), *second = malloc((size_t)M * N * 4);
  builds = 0;
  gt_context *ctx = open_context_with(false, GT_MATMUL_KERNEL_SHARED);
  CHECK_STATUS(gt_matmul(ctx, a, b, c, NULL), GT_OK);
  CHECK(gt_test_read_all(ctx, out, (size_t)M * N, first) == 0);
  CHECK_EQ_U(builds, 1);
  size_t written = 0;
  unsigned char *cache = saved_cache(ctx, &written);
  gt_context_release(ctx);

  builds = 0;
  ctx = open_context_with(false, GT_MATMUL_KERNEL_SHARED);
  uint32_t loaded = 99;
  CHECK_STATUS(gt_program_cache_load(ctx, cache, written, &loaded), GT_OK);
  if (formats > 0) CHECK_EQ_U(loaded, 1);
  CHECK_STATUS(gt_matmul(ctx, a, b, c, NULL), GT_OK);
  CHECK(gt_test_read_all(ctx, out, (size_t)M * N, second) == 0);
  CHECK(memcmp(first, second, (size_t)M * N * 4) == 0);
  if (formats > 0) CHECK_EQ_U(builds, 0);
  gt_context_release(ctx);
  free(cache);
  free(first);
  free(second);
  GLuint names[2] = {in, out};
  glDeleteBuffers(2, names);
}

/* The operations of one element type, on small views of in and out:
 * transpose (AUTO and TILED_PAD), copy, in place, and for GT_F32 and
 * GT_F16 matmul (a half product into a float c and into a half c). */
static bool run_type(gt_context *ctx, gt_type t, GLuint in, GLuint out) {
  enum { R = 13, C = 7, SQ = 9 };
  gt_view a = {in, 0, R, C, 0, t}, at = {out, 0, C, R, 0, t}, copy = {out, (size_t)R * C, R, C, 0, t};
  gt_view square = {out, 2 * (size_t)R * C, SQ, SQ, 0, t};
  gt_transpose_desc pad = {GT_STRATEGY_TILED_PAD, 8};
  bool ok = gt_transpose(ctx, a, at, NULL) == GT_OK && gt_transpose(ctx, a, at, &pad) == GT_OK &&
            gt_copy(ctx, a, copy) == GT_OK && gt_transpose(ctx, square, square, NULL) == GT_OK;
  if (t == GT_F32 || t == GT_F16) {
    gt_view ma = {in, 0, R, C, 0, t}, mb = {in, 4, C, R, 0, t}, mc = {out, 0, R, R, 0, GT_F32};
    ok = ok && gt_matmul(ctx, ma, mb, mc, NULL) == GT_OK;
    mc.type = t;
    ok = ok && gt_matmul(ctx, ma, mb, mc, NULL) == GT_OK;
  }
  return ok;
}

/* The image operations of one texel format: transpose and a quarter turn. */
static bool run_format(gt_context *ctx, gt_format f) {
  static const GLenum internal[] = {0, GL_R32F, GL_R32I, GL_R32UI, GL_RGBA8};
  GLuint tex[2];
  glGenTextures(2, tex);
  for (int i = 0; i < 2; i++) {
    glBindTexture(GL_TEXTURE_2D, tex[i]);
    glTexStorage2D(GL_TEXTURE_2D, 1, internal[f], 16, 16);
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  gt_image src = {tex[0], 0, 1, 2, 11, 5, f}, dst = {tex[1], 0, 3, 1, 5, 11, f};
  bool ok = gt_image_transpose(ctx, src, dst, NULL) == GT_OK && gt_image_rotate(ctx, src, dst, 1, NULL) == GT_OK;
  glDeleteTextures(2, tex);
  return ok;
}

/* Saves a context's cache after what `run` did, loads it into a fresh
 * context, and checks the same operations there load every program and
 * build none (where the driver has binary formats). what names the case. */
static void round_trip(bool min_limits, GLint formats, const char *what, int which,
                       bool (*run)(gt_context *, int, GLuint, GLuint), GLuint in, GLuint out) {
  builds = 0;
  gt_context *ctx = open_context(min_limits);
  CHECK(run(ctx, which, in, out));
  unsigned cold_builds = builds;
  size_t written = 0;
  unsigned char *cache = saved_cache(ctx, &written);
  gt_context_release(ctx);

  builds = 0;
  ctx = open_context(min_limits);
  uint32_t loaded = 99;
  CHECK_STATUS(gt_program_cache_load(ctx, cache, written, &loaded), GT_OK);
  CHECK(run(ctx, which, in, out));
  if (formats > 0 && (loaded != cold_builds || builds != 0)) {
    printf("FAILED: %s %d: %u programs built cold, %u loaded, %u built warm\n", what, which, cold_builds, loaded,
           builds);
    CHECK(false);
  }
  gt_context_release(ctx);
  free(cache);
}

static bool run_type_case(gt_context *ctx, int t, GLuint in, GLuint out) { return run_type(ctx, (gt_type)t, in, out); }
static bool run_format_case(gt_context *ctx, int f, GLuint in, GLuint out) {
  (void)in, (void)out;
  return run_format(ctx, (gt_format)f);
}

/* Every element type (walked through gt_type_size, the library's one
 * list) and every texel format saves and loads: a context runs the
 * operations of one type or format, and its cache loads every program
 * into a fresh context, where the same operations build nothing. A key
 * check that knew only some types refused the whole cache. Types the
 * context cannot run (2- and 1-byte ones without atomics) are skipped. */
static void test_every_operation_round_trip(bool min_limits, GLint formats) {
  GLuint in = gt_test_buffer(512, gt_test_noise, 3), out = gt_test_buffer(512, gt_test_poison, 0);
  gt_context *probe = open_context(min_limits);
  bool atomics = gt_context_has_atomics(probe);
  gt_context_release(probe);
  for (int t = GT_F32; gt_type_size((gt_type)t) != 0; t++)
    if (atomics || gt_type_size((gt_type)t) == 4) round_trip(min_limits, formats, "type", t, run_type_case, in, out);
  for (int f = GT_FORMAT_R32F; f <= GT_FORMAT_RGBA8; f++)
    round_trip(min_limits, formats, "format", f, run_format_case, in, out);
  GLuint names[2] = {in, out};
  glDeleteBuffers(2, names);
}

/* A cache's entries as src/gl/program_cache.c lays them out: after the
 * header, each a key of 7 words, the binary's format, length and checksum
 * (FNV-1a over the key's bytes, the format and the binary), then the
 * binary padded to 4 bytes. */
enum { HEADER_BYTES = 280, ENTRY_WORDS = 10 };

static uint32_t entry_checksum(const uint32_t *entry, const unsigned char *binary) {
  uint32_t h = 2166136261u;
  const unsigned char *k = (const unsigned char *)entry;
  for (size_t i = 0; i < 7 * 4; i++)
    h = (h ^ k[i]) * 16777619u;
  h = (h ^ entry[7]) * 16777619u;
  for (uint32_t i = 0; i < entry[8]; i++)
    h = (h ^ binary[i]) * 16777619u;
  return h;
}

/* The byte offsets of a cache's first `most` entries; returns how many. */
static uint32_t entry_offsets(const unsigned char *cache, size_t written, size_t *at, uint32_t most) {
  uint32_t count, n = 0;
  memcpy(&count, cache + 12, 4);
  size_t pos = HEADER_BYTES;
  for (; n < count && n < most && pos + ENTRY_WORDS * 4 <= written; n++) {
    uint32_t e[ENTRY_WORDS];
    memcpy(e, cache + pos, sizeof e);
    at[n] = pos;
    pos += sizeof e + (e[8] + 3) / 4 * 4;
  }
  return n;
}

/* Rewrites the checksum of the entry at `at`, as anyone who can write the
 * file could. */
static void reseal(unsigned char *cache, size_t at) {
  uint32_t e[ENTRY_WORDS];
  memcpy(e, cache + at, sizeof e);
  e[9] = entry_checksum(e, cache + at + sizeof e);
  memcpy(cache + at, e, sizeof e);
}

/* Two entries' keys swapped and resealed: each binary under the other's
 * key. Neither runs: both are released and built from source, the rest
 * load, and every result is the cold run's. */
static void test_swapped_keys(bool min_limits, GLint formats, const unsigned char *cache, size_t written,
                              unsigned cold_builds, GLuint in, GLuint out, const uint32_t *first,
                              uint32_t *second) {
  size_t at[8];
  if (formats <= 0 || entry_offsets(cache, written, at, 8) < 2) return;
  unsigned char *swapped = malloc(written);
  memcpy(swapped, cache, written);
  uint32_t k0[7], k1[7];
  memcpy(k0, cache + at[0], sizeof k0);
  memcpy(k1, cache + at[1], sizeof k1);
  memcpy(swapped + at[0], k1, sizeof k1);
  memcpy(swapped + at[1], k0, sizeof k0);
  reseal(swapped, at[0]);
  reseal(swapped, at[1]);
  gt_context *ctx = open_context(min_limits);
  uint32_t loaded = 99;
  last_error[0] = '\0';
  builds = 0;
  CHECK_STATUS(gt_program_cache_load(ctx, swapped, written, &loaded), GT_OK);
  CHECK_EQ_U(loaded, cold_builds - 2);
  CHECK(strstr(last_error, "is not that program") != NULL);
  for (size_t i = 0; i < 3 * (size_t)ROWS * COLS; i++)
    second[i] = 0;
  glBindBuffer(GL_COPY_WRITE_BUFFER, out);
  glBufferSubData(GL_COPY_WRITE_BUFFER, 0, 3 * ROWS * COLS * 4, second);
  CHECK(run_ops(ctx, in, out, second));
  CHECK(memcmp(first, second, 3 * ROWS * COLS * 4) == 0);
  CHECK_EQ_U(builds, 2);
  printf("swapped keys: %u of %u loaded, %u built from source, results exact\n", loaded, cold_builds, builds);
  gt_context_release(ctx);
  free(swapped);
}

/* One binary under 4,096 keys no plan names (groups of 1024 x 1024 and
 * more, each resealed): none loads, and every call still builds and runs
 * its own programs. */
static void test_table_filler(bool min_limits, GLint formats, const unsigned char *cache, size_t written,
                              unsigned cold_builds, GLuint in, GLuint out, const uint32_t *first,
                              uint32_t *second) {
  size_t at[1];
  if (formats <= 0 || entry_offsets(cache, written, at, 1) < 1) return;
  uint32_t e[ENTRY_WORDS];
  memcpy(e, cache + at[0], sizeof e);
  size_t one = sizeof e + (e[8] + 3) / 4 * 4;
  enum { KEYS = 4096 };
  size_t size = HEADER_BYTES + KEYS * one;
  unsigned char *filler = malloc(size);
  memcpy(filler, cache, HEADER_BYTES);
  uint32_t count = KEYS;
  memcpy(filler + 12, &count, 4);
  for (uint32_t i = 0; i < KEYS; i++) {
    size_t pos = HEADER_BYTES + i * one;
    memcpy(filler + pos, cache + at[0], one);
    uint32_t key[7];
    memcpy(key, filler + pos, sizeof key);
    key[2] = key[3] = 1024;          /* a group no plan names */
    key[4] ^= i << 8 & 0x0FFFFF00u;   /* and other variants */
    memcpy(filler + pos, key, sizeof key);
    reseal(filler, pos);
  }
  gt_context *ctx = open_context(min_limits);
  uint32_t loaded = 99;
  last_error[0] = '\0';
  builds = 0;
  CHECK_STATUS(gt_program_cache_load(ctx, filler, size, &loaded), GT_OK);
  CHECK_EQ_U(loaded, 0);
  CHECK(strstr(last_error, "keys no plan on this device names") != NULL);
  CHECK(run_ops(ctx, in, out, second));
  CHECK(memcmp(first, second, 3 * ROWS * COLS * 4) == 0);
  CHECK_EQ_U(builds, cold_builds);
  gt_context_release(ctx);
  free(filler);
}

int main(int argc, char **argv) {
  gt_test_env env;
  int rc = gt_test_open(argc, argv, &env);
  if (rc != 0) return rc;
  bool min_limits = env.min_limits;
  gt_context_release(env.ctx);
  env.ctx = NULL;
  GLint formats = 0;
  glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
  printf("program binary formats: %d\n", formats);

  GLuint in = gt_test_buffer((size_t)ROWS * COLS + COLS * COLS, small_float, 1);
  GLuint out = gt_test_buffer(3 * (size_t)ROWS * COLS, gt_test_poison, 0);
  uint32_t *first = malloc(3 * ROWS * COLS * 4), *second = malloc(3 * ROWS * COLS * 4);

  /* A cold context: every program compiled, then saved. */
  builds = 0;
  gt_context *ctx = open_context(min_limits);
  CHECK(run_ops(ctx, in, out, first));
  unsigned cold_builds = builds;
  CHECK(cold_builds >= 3);
  size_t size = 0, written = 0;
  CHECK_STATUS(gt_program_cache_size(ctx, &size), GT_OK);
  unsigned char *cache = malloc(size + 64);
  CHECK_STATUS(gt_program_cache_save(ctx, cache, size - 1, &written), GT_ERR_OUT_OF_MEMORY);
  CHECK_EQ_U(written, 0);
  CHECK_STATUS(gt_program_cache_save(ctx, cache, size + 64, &written), GT_OK);
  CHECK_EQ_U(written, size);
  size_t ignored = 1;
  CHECK_STATUS(gt_program_cache_save(ctx, NULL, size, &ignored), GT_ERR_INVALID_ARGUMENT);
  CHECK_EQ_U(ignored, 0);
  CHECK_STATUS(gt_program_cache_save(ctx, cache, size, NULL), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_program_cache_size(NULL, &size), GT_ERR_INVALID_ARGUMENT);
  gt_context_release(ctx);

  /* A warm context from the cache: nothing compiled, the same words. */
  ctx = open_context(min_limits);
  uint32_t loaded = check_warm(ctx, cache, written, formats, cold_builds, in, out, first, second);
  printf("cold: %u programs compiled; from the cache: %u loaded, %u compiled (%zu bytes)\n", cold_builds,
         loaded, builds, written);
  /* Loading again takes nothing: the programs are there. */
  CHECK_STATUS(gt_program_cache_load(ctx, cache, written, &loaded), GT_OK);
  CHECK_EQ_U(loaded, 0);
  gt_context_release(ctx);

  ctx = open_context(min_limits);
  unsigned char *bad = malloc(written);
  /* Damaged: the last byte of the last binary, then a cut, then not a cache. */
  memcpy(bad, cache, written);
  if (formats > 0 && written > 600) {
    bad[written - 5] ^= 0x40;
    last_error[0] = '\0';
    CHECK_STATUS(gt_program_cache_load(ctx, bad, written, &loaded), GT_ERR_BAD_CACHE);
    CHECK(strstr(last_error, "program cache damaged: entry") != NULL); /* the log says where */
    CHECK_EQ_U(loaded, 0);
    CHECK_STATUS(gt_program_cache_load(ctx, cache, written - 8, &loaded), GT_ERR_BAD_CACHE);
  }
  memcpy(bad, cache, written);
  bad[0] ^= 1;
  CHECK_STATUS(gt_program_cache_load(ctx, bad, written, &loaded), GT_ERR_BAD_CACHE);
  CHECK_STATUS(gt_program_cache_load(ctx, cache, 10, &loaded), GT_ERR_BAD_CACHE);
  CHECK_STATUS(gt_program_cache_load(ctx, NULL, written, &loaded), GT_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(gt_program_cache_load(ctx, cache, written, NULL), GT_ERR_INVALID_ARGUMENT);
  /* Another renderer's cache (the renderer's first byte changed): ignored. */
  memcpy(bad, cache, written);
  CHECK(strncmp((const char *)cache + RENDERER_AT, gt_context_renderer(ctx), 16) == 0);
  bad[RENDERER_AT] ^= 0x20;
  check_ignored(ctx, bad, written, cold_builds, in, out, first, second);
  gt_context_release(ctx);

  test_other_sources(min_limits, formats, cache, written, cold_builds, in, out, first, second);
  test_swapped_keys(min_limits, formats, cache, written, cold_builds, in, out, first, second);
  test_table_filler(min_limits, formats, cache, written, cold_builds, in, out, first, second);

  test_every_operation_round_trip(min_limits, formats);

  /* The shared kernel needs 256 invocations, more than the minimums. */
  if (!min_limits) test_shared_kernel_round_trip(formats);

  free(bad);
  free(cache);
  free(first);
  free(second);
  glDeleteBuffers(1, &in);
  glDeleteBuffers(1, &out);
  gt_test_close(&env);
  return CHECK_SUMMARY();
}
