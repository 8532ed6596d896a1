/* Program binaries in caller memory: gt_program_cache_save writes every
 * program the context has built (glGetProgramBinary), and
 * gt_program_cache_load puts them into a new context's table
 * (glProgramBinary), so a warm start skips the compiler. A cache from
 * another library version, renderer or driver version, or from other
 * kernel sources (another build of the same version), is ignored, and a
 * binary the driver refuses is built from source when first needed.
 *
 * A cache is as trusted as the executable (gltile.h says why and what an
 * app keeping one where others write can do). Within that, no binary runs
 * under a key it does not prove: a key must be one a plan on this context
 * can name (its program list), and the linked binary must have that
 * program's work group and its view uniforms under the name holding a
 * hash of the program's text (gt__program_views_name). A binary that
 * fails is released and its program built from source when needed.
 *
 * Layout, in native byte order (a cache only ever serves the machine that
 * wrote it): a header, then for each program an entry and its binary,
 * padded to 4 bytes. */
#include "gl/program_table.h"
#include "plan/context.h"
#include "plan/program_list.h"

#include <stdio.h>
#include <string.h>

/* Format 2 added the source hash; 3 programs that name their view
 * uniforms by a hash of their text. */
enum { CACHE_MAGIC = 0x43505447u /* "GTPC" */, CACHE_FORMAT = 3, NAME_BYTES = 128 };

typedef struct cache_header {
  uint32_t magic, format, library, count;
  /* gt__source_hash: the version number alone would let another build of
   * the same version load binaries of kernels it no longer has. */
  uint64_t sources;
  char renderer[NAME_BYTES]; /* GL_RENDERER */
  char version[NAME_BYTES];  /* GL_VERSION, which names the driver's version */
} cache_header;

typedef struct cache_entry {
  uint32_t key[GT_PROGRAM_KEY_WORDS]; /* gt__program_key_words */
  uint32_t binary_format, length, checksum;
} cache_entry;

static uint32_t library_version(void) {
  return (uint32_t)GT_VERSION_MAJOR << 16 | (uint32_t)GT_VERSION_MINOR << 8 | GT_VERSION_PATCH;
}

static size_t padded(size_t n) { return (n + 3) / 4 * 4; }

/* FNV-1a over the key and the binary: a damaged cache is refused rather
 * than run under the wrong key. */
static uint32_t checksum(const cache_entry *e, const unsigned char *binary) {
  uint32_t h = 2166136261u;
  const unsigned char *k = (const unsigned char *)e->key;
  for (size_t i = 0; i < sizeof e->key; i++)
    h = (h ^ k[i]) * 16777619u;
  h = (h ^ e->binary_format) * 16777619u;
  for (size_t i = 0; i < e->length; i++)
    h = (h ^ binary[i]) * 16777619u;
  return h;
}

/* false when the words name no kernel the library has. Tiles go up to the
 * shared matmul kernel's 128; image kernels have a texel format and no
 * element type, the others an element type (any of
 * enumerations.h's, packed ones included) and no format. */
static bool key_from_words(const uint32_t w[GT_PROGRAM_KEY_WORDS], gt_program_key *k) {
  if (w[0] >= GT_KERNEL_COUNT || w[1] > 128 || w[2] == 0 || w[2] > 1024 || w[3] == 0 || w[3] > 1024)
    return false;
  if (w[4] & ~(GT_VARIANT_EVERY_FLAG | 3u << GT_VARIANT_ROTATE_SHIFT)) return false;
  bool typed = w[5] >= 1 && w[5] <= GT_TYPE_COUNT && w[6] == 0;
  bool image = w[5] == 0 && w[6] >= 1 && w[6] <= GT_FORMAT_COUNT;
  if (!typed && !image) return false;
  memset(k, 0, sizeof *k);
  k->kernel = (gt_kernel)w[0];
  k->tile = w[1];
  k->group_cols = w[2];
  k->group_rows = w[3];
  k->variant = w[4];
  k->elem = (gt_type)w[5];
  k->format = (gt_format)w[6];
  return true;
}

static uint64_t source_hash(gt_context *ctx) {
  if (!ctx->source_hash_known) {
    ctx->source_hash = gt__source_hash();
    ctx->source_hash_known = true;
  }
  return ctx->source_hash;
}

static void fill_header(gt_context *ctx, cache_header *h, uint32_t count) {
  memset(h, 0, sizeof *h);
  h->magic = CACHE_MAGIC;
  h->format = CACHE_FORMAT;
  h->library = library_version();
  h->count = count;
  h->sources = source_hash(ctx);
  snprintf(h->renderer, sizeof h->renderer, "%s", ctx->renderer);
  snprintf(h->version, sizeof h->version, "%s", ctx->gl_version);
}

/* Bytes of the cache and number of programs in it. */
static gt_status measure(gt_context *ctx, size_t *bytes, uint32_t *count) {
  *bytes = sizeof(cache_header);
  *count = 0;
  for (uint32_t i = 0; i < ctx->program_slots; i++) {
    if (ctx->programs[i].name == 0) continue;
    GLint length = 0;
    glGetProgramiv(ctx->programs[i].name, GL_PROGRAM_BINARY_LENGTH, &length);
    if (length <= 0) continue; /* no binary: it will be built from source */
    *bytes += sizeof(cache_entry) + padded((size_t)length);
    (*count)++;
  }
  return gt__gl_status(ctx, "program binary lengths");
}

gt_status gt_program_cache_size(gt_context *ctx, size_t *size) {
  GT__CHECK(size != NULL, GT_ERR_INVALID_ARGUMENT);
  *size = 0;
  GT__TRY(gt__context_check(ctx));
  uint32_t count;
  return measure(ctx, size, &count);
}

gt_status gt_program_cache_save(gt_context *ctx, void *mem, size_t size, size_t *written) {
  GT__CHECK(written != NULL, GT_ERR_INVALID_ARGUMENT);
  *written = 0;
  GT__TRY(gt__context_check(ctx));
  GT__CHECK(mem != NULL, GT_ERR_INVALID_ARGUMENT);
  size_t needed;
  uint32_t count;
  GT__TRY(measure(ctx, &needed, &count));
  if (size < needed) {
    gt__log(ctx, GT_LOG_ERROR, "program cache: %zu bytes given, %zu needed", size, needed);
    return GT_ERR_OUT_OF_MEMORY;
  }
  unsigned char *out = (unsigned char *)mem;
  cache_header h;
  fill_header(ctx, &h, count);
  size_t at = sizeof h;
  for (uint32_t i = 0; i < ctx->program_slots; i++) {
    const gt_program *p = &ctx->programs[i];
    if (p->name == 0) continue;
    GLint length = 0;
    glGetProgramiv(p->name, GL_PROGRAM_BINARY_LENGTH, &length);
    if (length <= 0) continue;
    cache_entry e;
    memset(&e, 0, sizeof e);
    gt__program_key_words(&p->key, e.key);
    GLsizei got = 0;
    GLenum format = 0;
    if (at + sizeof e + padded((size_t)length) > size) return GT_ERR_GL; /* lengths changed */
    glGetProgramBinary(p->name, length, &got, &format, out + at + sizeof e);
    if (got != length) {
      gt_status s = gt__gl_status(ctx, "glGetProgramBinary");
      return s != GT_OK ? s : GT_ERR_GL;
    }
    e.binary_format = format;
    e.length = (uint32_t)length;
    e.checksum = checksum(&e, out + at + sizeof e);
    memcpy(out + at, &e, sizeof e);
    memset(out + at + sizeof e + (size_t)length, 0, padded((size_t)length) - (size_t)length);
    at += sizeof e + padded((size_t)length);
  }
  memcpy(out, &h, sizeof h);
  GT__TRY(gt__gl_status(ctx, "gt_program_cache_save"));
  *written = at;
  return GT_OK;
}

/* A damaged cache: its own status, and where in the log. */
static gt_status damaged(const gt_context *ctx, uint32_t entry, const char *what) {
  gt__log(ctx, GT_LOG_ERROR, "program cache damaged: entry %u: %s; nothing loaded", entry, what);
  return GT_ERR_BAD_CACHE;
}

/* Checks every entry's bounds, key and checksum before any GL call. */
static gt_status check_entries(const gt_context *ctx, const unsigned char *in, size_t size, uint32_t count) {
  size_t at = sizeof(cache_header);
  for (uint32_t i = 0; i < count; i++) {
    cache_entry e;
    if (size - at < sizeof e) return damaged(ctx, i, "cut short before its entry");
    memcpy(&e, in + at, sizeof e);
    at += sizeof e;
    gt_program_key key;
    if (!key_from_words(e.key, &key)) return damaged(ctx, i, "a key of no kernel");
    if (e.length == 0 || e.length > INT32_MAX) return damaged(ctx, i, "a binary length out of range");
    if (size - at < padded(e.length)) return damaged(ctx, i, "cut short inside its binary");
    if (checksum(&e, in + at) != e.checksum) return damaged(ctx, i, "its checksum does not match");
    at += padded(e.length);
  }
  return GT_OK;
}

/* Whether each of keys[0..count) is on ctx's program list: a plan on it
 * can name it. The list is made as it is walked, not kept. */
typedef struct listed_keys {
  const gt_program_key *keys;
  bool *listed;
  uint32_t count;
} listed_keys;

static void mark_listed(const gt_program_key *key, void *user) {
  listed_keys *l = user;
  for (uint32_t i = 0; i < l->count; i++)
    if (!l->listed[i] && gt__program_same_key(&l->keys[i], key)) l->listed[i] = true;
}

/* Whether the linked program is the one key names: its work group, and
 * its view uniforms under the name its text gives them. */
static bool proves_key(GLuint program, const gt_program_key *key) {
  GLint group[3] = {0, 0, 0};
  glGetProgramiv(program, GL_COMPUTE_WORK_GROUP_SIZE, group);
  char views[48];
  return group[0] == (GLint)key->group_cols && group[1] == (GLint)key->group_rows && group[2] == 1 &&
         gt__program_views_name(key, views, sizeof views) != 0 && glGetUniformLocation(program, views) != -1;
}

/* One binary into the table. *ok false when the driver refused it or it
 * is not the program its key names. */
static gt_status load_one(gt_context *ctx, const cache_entry *e, const unsigned char *binary, bool *ok) {
  *ok = false;
  gt_program_key key;
  key_from_words(e->key, &key);
  gt_program *slot = gt__program_slot(ctx, &key);
  if (slot == NULL) return GT_ERR_OUT_OF_MEMORY;
  if (slot->name != 0) return GT_OK; /* built already */
  GLuint program = glCreateProgram();
  if (program == 0) {
    gt_status s = gt__gl_status(ctx, "glCreateProgram");
    return s != GT_OK ? s : GT_ERR_GL;
  }
  glProgramBinary(program, e->binary_format, binary, (GLsizei)e->length);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  /* A refusal (an unknown format, a binary the driver no longer takes)
   * raises INVALID_ENUM or nothing; running out of memory or losing the
   * context is a failure of its own. */
  GLenum error = glGetError();
  if (error == GL_OUT_OF_MEMORY || error == GL_CONTEXT_LOST) {
    glDeleteProgram(program);
    return gt__gl_error_status(ctx, error, "glProgramBinary");
  }
  if (!linked) {
    glDeleteProgram(program);
    gt__log(ctx, GT_LOG_DEBUG, "program cache: %s refused (0x%04x): built from source when needed",
            gt__kernel_name(key.kernel), (unsigned)error);
    return GT_OK;
  }
  bool proven = proves_key(program, &key);
  gt_status s = gt__gl_status(ctx, "program cache: the binary's interface");
  if (s != GT_OK || !proven) glDeleteProgram(program);
  if (s != GT_OK) return s;
  if (!proven) {
    gt__log(ctx, GT_LOG_ERROR, "program cache: a binary under a %s key is not that program: released, built "
            "from source when needed", gt__kernel_name(key.kernel));
    return GT_OK;
  }
  GT__TRY(gt__program_adopt(ctx, slot, &key, program));
  *ok = true;
  return GT_OK;
}

gt_status gt_program_cache_load(gt_context *ctx, const void *mem, size_t size, uint32_t *loaded) {
  GT__CHECK(loaded != NULL, GT_ERR_INVALID_ARGUMENT);
  *loaded = 0;
  GT__TRY(gt__context_check(ctx));
  GT__CHECK(mem != NULL, GT_ERR_INVALID_ARGUMENT);
  if (size < sizeof(cache_header)) {
    gt__log(ctx, GT_LOG_ERROR, "program cache: %zu bytes, shorter than its header: not a cache", size);
    return GT_ERR_BAD_CACHE;
  }
  const unsigned char *in = (const unsigned char *)mem;
  cache_header h, mine;
  memcpy(&h, in, sizeof h);
  if (h.magic != CACHE_MAGIC) {
    gt__log(ctx, GT_LOG_ERROR, "program cache: no gltile cache (its first word is 0x%08x)", (unsigned)h.magic);
    return GT_ERR_BAD_CACHE;
  }
  fill_header(ctx, &mine, h.count);
  if (h.format != CACHE_FORMAT || h.library != mine.library || h.sources != mine.sources ||
      memcmp(h.renderer, mine.renderer, NAME_BYTES) || memcmp(h.version, mine.version, NAME_BYTES)) {
    gt__log(ctx, GT_LOG_INFO,
            "program cache from another library, kernel sources, renderer or driver: ignored");
    return GT_OK;
  }
  GT__TRY(check_entries(ctx, in, size, h.count));
  /* In rounds of a few entries: their keys looked up on the program list,
   * then those on it loaded, no more than the table holds (a later one
   * would take an earlier's slot). */
  enum { ROUND = 32 };
  size_t at = sizeof h;
  uint32_t refused = 0;
  for (uint32_t first = 0; first < h.count && *loaded < ctx->program_slots; first += ROUND) {
    uint32_t n = h.count - first < ROUND ? h.count - first : ROUND;
    gt_program_key keys[ROUND];
    bool listed[ROUND];
    size_t entry_at[ROUND];
    for (uint32_t i = 0; i < n; i++) {
      cache_entry e;
      memcpy(&e, in + at, sizeof e);
      key_from_words(e.key, &keys[i]);
      listed[i] = false;
      entry_at[i] = at;
      at += sizeof e + padded(e.length);
    }
    listed_keys l = {keys, listed, n};
    gt__program_list(ctx, mark_listed, &l);
    for (uint32_t i = 0; i < n && *loaded < ctx->program_slots; i++) {
      if (!listed[i]) {
        refused++;
        continue;
      }
      cache_entry e;
      memcpy(&e, in + entry_at[i], sizeof e);
      bool ok = false;
      GT__TRY(load_one(ctx, &e, in + entry_at[i] + sizeof e, &ok));
      *loaded += ok;
    }
  }
  if (refused)
    gt__log(ctx, GT_LOG_ERROR, "program cache: %u keys no plan on this device names: left out", refused);
  return gt__gl_status(ctx, "gt_program_cache_load");
}
