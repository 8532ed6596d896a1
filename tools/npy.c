/* NumPy .npy reader and writer for one 2-D matrix of 32-bit elements; see
 * npy.h for what is accepted and what is written. */
/* fstat and fileno are POSIX, not C99. */
#define _POSIX_C_SOURCE 200809L

#include "npy.h"

#define GT_STATIC_LINKING_ONLY
#include <gltile/gltile_advanced.h>

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_ALIGN 64
/* NumPy 2.x allows up to 64 dimensions; a longer tuple is garbage. */
#define NPY_MAX_DIMS 64
/* A 2-D header is under 128 bytes; far larger ones are refused before any
 * allocation so that a corrupt length cannot ask for gigabytes. */
#define NPY_MAX_HEADER (1ul << 20)

#if defined(__GNUC__)
#define NPY_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define NPY_PRINTF(f, a)
#endif

static int fail(char *err, size_t err_size, const char *path, const char *fmt, ...) NPY_PRINTF(4, 5);

/* Puts "path: message" in err; always returns -1 so callers can return it. */
static int fail(char *err, size_t err_size, const char *path, const char *fmt, ...) {
  if (err != NULL && err_size > 0) {
    int n = snprintf(err, err_size, "%s: ", path);
    if (n >= 0 && (size_t)n < err_size) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(err + n, err_size - (size_t)n, fmt, ap);
      va_end(ap);
    }
  }
  return -1;
}

/* The data is copied as stored, which is right only on little-endian hosts;
 * checked at run time because no portable compile-time test exists. */
static bool host_little_endian(void) {
  const uint16_t one = 1;
  unsigned char first;
  memcpy(&first, &one, 1);
  return first == 1;
}

/* Every dtype read and written is one of the library's element types,
 * with its NumPy descr (gt_type_npy_descr). */
static unsigned size_of(gt_type t) { return (unsigned)gt_type_size(t); }

const char *npy_descr(gt_type t) {
  const char *descr = gt_type_npy_descr(t);
  return descr ? descr : "?";
}

/* The element type of a descr; 0 for one not read. */
static gt_type type_of(const char *descr) { return gt_type_from_npy_descr(descr); }

void npy_free(npy_array *a) {
  if (a == NULL) return;
  free(a->data);
  memset(a, 0, sizeof *a);
}

/* ------------------------------------------------------------------ */
/* Header dict parsing: the subset of Python literal syntax NumPy writes,
 * with its variations (key order, quotes, spaces, trailing commas, the
 * Python 2 'L' suffix of old files). */

typedef struct cursor {
  const char *p, *end;
  char msg[160]; /* why parsing failed */
} cursor;

typedef struct header {
  char descr[24];
  int fortran; /* -1 = key not seen, else 0 or 1 */
  int ndim;    /* -1 = key not seen */
  unsigned long long dims[NPY_MAX_DIMS];
} header;

static void skip_ws(cursor *c) {
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
    c->p++;
}

static bool eat(cursor *c, char ch) {
  skip_ws(c);
  if (c->p < c->end && *c->p == ch) {
    c->p++;
    return true;
  }
  return false;
}

static bool is_word_char(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
}

/* A bare word such as True, not followed by more word characters. */
static bool eat_word(cursor *c, const char *w) {
  size_t n = strlen(w);
  skip_ws(c);
  if ((size_t)(c->end - c->p) < n || memcmp(c->p, w, n) != 0) return false;
  if (c->p + n < c->end && is_word_char(c->p[n])) return false;
  c->p += n;
  return true;
}

/* A quoted string into buf. Returns 0, 1 when it did not fit (buf holds
 * its start), -1 when there is no terminated string here, -2 when it holds
 * a NUL: C's string functions would stop there and take '<f4\0junk' for
 * '<f4'. */
static int parse_string(cursor *c, char *buf, size_t size) {
  skip_ws(c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return -1;
  char quote = *c->p++;
  size_t n = 0;
  bool too_long = false, nul = false;
  while (c->p < c->end && *c->p != quote) {
    nul = nul || *c->p == '\0';
    if (n + 1 < size)
      buf[n++] = *c->p;
    else
      too_long = true;
    c->p++;
  }
  buf[n] = '\0';
  if (c->p >= c->end) return -1;
  c->p++;
  if (nul) return -2;
  return too_long ? 1 : 0;
}

/* "'<f4', '<i4', ... and '|u1'": every dtype read, for messages. */
static const char *dtype_list(char *buf, size_t size) {
  size_t used = 0, count = 0;
  while (gt_type_npy_descr((gt_type)(count + 1)) != NULL)
    count++;
  buf[0] = '\0';
  for (size_t i = 0; i < count && used < size; i++)
    used += (size_t)snprintf(buf + used, size - used, "%s'%s'", i == 0 ? "" : i + 1 < count ? ", " : " and ",
                             gt_type_npy_descr((gt_type)(i + 1)));
  return buf;
}

static int parse_shape(cursor *c, header *h) {
  if (!eat(c, '(')) {
    snprintf(c->msg, sizeof c->msg, "'shape' is not a tuple");
    return -1;
  }
  bool comma = false;
  h->ndim = 0;
  for (;;) {
    if (eat(c, ')')) break;
    if (h->ndim > 0 && !comma) {
      snprintf(c->msg, sizeof c->msg, "expected ',' or ')' in 'shape'");
      return -1;
    }
    skip_ws(c);
    if (c->p >= c->end || *c->p < '0' || *c->p > '9') {
      snprintf(c->msg, sizeof c->msg, "'shape' holds something other than non-negative integers");
      return -1;
    }
    unsigned long long v = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
      unsigned d = (unsigned)(*c->p++ - '0');
      if (v > (~0ull - d) / 10) {
        snprintf(c->msg, sizeof c->msg, "a dimension in 'shape' overflows 64 bits");
        return -1;
      }
      v = v * 10 + d;
    }
    /* Python 2 wrote long integers as 3L; NumPy still reads such files. */
    if (c->p < c->end && (*c->p == 'L' || *c->p == 'l')) c->p++;
    if (c->p < c->end && is_word_char(*c->p)) {
      snprintf(c->msg, sizeof c->msg, "'shape' holds something other than non-negative integers");
      return -1;
    }
    if (h->ndim == NPY_MAX_DIMS) {
      snprintf(c->msg, sizeof c->msg, "'shape' has more than %d dimensions", NPY_MAX_DIMS);
      return -1;
    }
    h->dims[h->ndim++] = v;
    comma = eat(c, ',');
  }
  /* (5) is an integer in Python, not a tuple. */
  if (h->ndim == 1 && !comma) {
    snprintf(c->msg, sizeof c->msg, "'shape' (%llu) is not a tuple (a 1-tuple needs a trailing comma)",
             h->dims[0]);
    return -1;
  }
  return 0;
}

static int parse_header(const char *text, size_t size, header *h, char *msg, size_t msg_size) {
  cursor c;
  c.p = text;
  c.end = text + size;
  c.msg[0] = '\0';
  h->descr[0] = '\0';
  h->fortran = -1;
  h->ndim = -1;
  bool descr_seen = false, comma = false;
  int rc = -1;
  if (!eat(&c, '{')) {
    snprintf(c.msg, sizeof c.msg, "the header is not a dict");
    goto done;
  }
  for (int keys = 0;; keys++) {
    if (eat(&c, '}')) break;
    if (keys > 0 && !comma) {
      snprintf(c.msg, sizeof c.msg, "expected ',' or '}' in the header dict");
      goto done;
    }
    char key[32];
    int s = parse_string(&c, key, sizeof key);
    if (s == -2) {
      snprintf(c.msg, sizeof c.msg, "a key holds a NUL byte");
      goto done;
    }
    if (s < 0) {
      snprintf(c.msg, sizeof c.msg, "expected a quoted key or '}' in the header dict");
      goto done;
    }
    if (!eat(&c, ':')) {
      snprintf(c.msg, sizeof c.msg, "expected ':' after key '%s'", key);
      goto done;
    }
    bool dup;
    if (s == 0 && strcmp(key, "descr") == 0) {
      dup = descr_seen;
      descr_seen = true;
      skip_ws(&c);
      char list[96];
      if (c.p < c.end && (*c.p == '[' || *c.p == '{')) {
        snprintf(c.msg, sizeof c.msg, "structured dtypes are not supported (gltile reads %s)",
                 dtype_list(list, sizeof list));
        goto done;
      }
      int d = parse_string(&c, h->descr, sizeof h->descr);
      if (d < 0) {
        snprintf(c.msg, sizeof c.msg, d == -2 ? "'descr' holds a NUL byte" : "'descr' is not a string");
        goto done;
      }
      if (d > 0) {
        snprintf(c.msg, sizeof c.msg, "dtype '%s...' is not supported (gltile reads %s)", h->descr,
                 dtype_list(list, sizeof list));
        goto done;
      }
    } else if (s == 0 && strcmp(key, "fortran_order") == 0) {
      dup = h->fortran >= 0;
      if (eat_word(&c, "True"))
        h->fortran = 1;
      else if (eat_word(&c, "False"))
        h->fortran = 0;
      else {
        snprintf(c.msg, sizeof c.msg, "'fortran_order' is neither True nor False");
        goto done;
      }
    } else if (s == 0 && strcmp(key, "shape") == 0) {
      dup = h->ndim >= 0;
      if (parse_shape(&c, h)) goto done;
    } else {
      snprintf(c.msg, sizeof c.msg, "unexpected key '%s%s' (only 'descr', 'fortran_order' and 'shape')", key,
               s ? "..." : "");
      goto done;
    }
    if (dup) {
      snprintf(c.msg, sizeof c.msg, "key '%s' appears twice", key);
      goto done;
    }
    comma = eat(&c, ',');
  }
  skip_ws(&c);
  if (c.p != c.end)
    snprintf(c.msg, sizeof c.msg, "unexpected text after the header dict");
  else if (!descr_seen)
    snprintf(c.msg, sizeof c.msg, "missing key 'descr'");
  else if (h->fortran < 0)
    snprintf(c.msg, sizeof c.msg, "missing key 'fortran_order'");
  else if (h->ndim < 0)
    snprintf(c.msg, sizeof c.msg, "missing key 'shape'");
  else
    rc = 0;
done:
  if (rc) snprintf(msg, msg_size, "%s", c.msg);
  return rc;
}

/* ------------------------------------------------------------------ */
/* Reading.                                                            */

/* dst (rows x cols, C order) from src, the C-order (cols x rows) matrix a
 * Fortran-order file stores, elements of `size` bytes; in 32 x 32 blocks
 * so both sides stay in cache. */
static void transpose_elements(unsigned char *dst, const unsigned char *src, size_t rows, size_t cols,
                               size_t size) {
  const size_t b = 32;
  for (size_t r0 = 0; r0 < rows; r0 += b)
    for (size_t c0 = 0; c0 < cols; c0 += b) {
      size_t r1 = r0 + b < rows ? r0 + b : rows, c1 = c0 + b < cols ? c0 + b : cols;
      for (size_t r = r0; r < r1; r++)
        for (size_t c = c0; c < c1; c++)
          memcpy(dst + (r * cols + c) * size, src + (c * rows + r) * size, size);
    }
}

/* The same for a Fortran-order stack of `stack` matrices: element (s, r,
 * c) is stored at s + stack (r + rows c). */
static void stack_from_fortran(unsigned char *dst, const unsigned char *src, size_t stack, size_t rows,
                               size_t cols, size_t size) {
  size_t i = 0;
  for (size_t c = 0; c < cols; c++)
    for (size_t r = 0; r < rows; r++)
      for (size_t st = 0; st < stack; st++, i++)
        memcpy(dst + ((st * rows + r) * cols + c) * size, src + i * size, size);
}

/* "(2, 3)" or "(4, 2, 3)": a header's shape for messages. */
static const char *shape_text(const header *h, char *buf, size_t size) {
  if (h->ndim == 3)
    snprintf(buf, size, "(%llu, %llu, %llu)", h->dims[0], h->dims[1], h->dims[2]);
  else
    snprintf(buf, size, "(%llu, %llu)", h->dims[0], h->dims[1]);
  return buf;
}

static int read_data(FILE *f, const char *path, const header *h, size_t data_start, npy_array *out, char *err,
                     size_t err_size) {
  bool stacked = h->ndim == 3;
  unsigned long long stack = stacked ? h->dims[0] : 1;
  unsigned long long rows = h->dims[h->ndim - 2], cols = h->dims[h->ndim - 1];
  char shape[80];
  shape_text(h, shape, sizeof shape);
  if (stack > UINT32_MAX || rows > UINT32_MAX || cols > UINT32_MAX)
    return fail(err, err_size, path, "shape %s has a dimension of 2^32 or more", shape);
  /* Each dimension < 2^32: rows * cols fits 64 bits, and with the stack
   * the test below keeps the product from wrapping; the bytes may not fit
   * size_t. */
  unsigned long long count = rows * cols, size = size_of(out->type);
  if (count > (unsigned long long)(SIZE_MAX / size) ||
      (count && stack > (unsigned long long)(SIZE_MAX / size) / count))
    return fail(err, err_size, path, "shape %s: the data size overflows", shape);
  count *= stack;
  size_t bytes = (size_t)(count * size);

  /* On a regular file, compare sizes before allocating: a truncated or
   * corrupt file must not cost a huge allocation. */
  struct stat st;
  bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
  if (regular) {
    unsigned long long have =
        (unsigned long long)st.st_size > data_start ? (unsigned long long)st.st_size - data_start : 0;
    if (have < bytes)
      return fail(err, err_size, path, "truncated: shape %s of '%s' needs %llu data bytes, the file has %llu",
                  shape, h->descr, (unsigned long long)bytes, have);
    if (have > bytes)
      return fail(err, err_size, path, "%llu byte%s after the data that shape %s of '%s' describes",
                  have - bytes, have - bytes == 1 ? "" : "s", shape, h->descr);
  }

  void *data = malloc(bytes ? bytes : 1);
  if (data == NULL)
    return fail(err, err_size, path, "out of memory for %llu data bytes", (unsigned long long)bytes);
  size_t got = fread(data, 1, bytes, f);
  if (got < bytes) {
    int e = errno;
    bool read_error = ferror(f) != 0;
    free(data);
    if (read_error) return fail(err, err_size, path, "read error: %s", strerror(e));
    return fail(err, err_size, path, "truncated: shape %s of '%s' needs %llu data bytes, the file has %llu",
                shape, h->descr, (unsigned long long)bytes, (unsigned long long)got);
  }
  if (!regular && fgetc(f) != EOF) {
    free(data);
    return fail(err, err_size, path, "bytes after the data that shape %s of '%s' describes", shape, h->descr);
  }
  if (h->fortran == 1 && (stacked ? count > 1 && (rows > 1 || cols > 1) : rows > 1 && cols > 1)) {
    unsigned char *c_order = malloc(bytes);
    if (c_order == NULL) {
      free(data);
      return fail(err, err_size, path, "out of memory for %llu bytes (Fortran order)",
                  (unsigned long long)bytes);
    }
    if (stacked)
      stack_from_fortran(c_order, data, (size_t)stack, (size_t)rows, (size_t)cols, (size_t)size);
    else
      transpose_elements(c_order, data, (size_t)rows, (size_t)cols, (size_t)size);
    free(data);
    data = c_order;
  }
  out->stacked = stacked;
  out->count = (uint32_t)stack;
  out->rows = (uint32_t)rows;
  out->cols = (uint32_t)cols;
  out->data = data;
  return 0;
}

/* What a reader takes besides a 2-D matrix. */
typedef enum npy_also { NPY_ALSO_NONE, NPY_ALSO_STACK, NPY_ALSO_VECTOR } npy_also;

/* npy_read, npy_read_stack or npy_read_vector, as `also` says. */
static int read_file(const char *path, npy_also also, npy_array *out, char *err, size_t err_size) {
  bool stacks = also == NPY_ALSO_STACK;
  if (err != NULL && err_size > 0) err[0] = '\0';
  memset(out, 0, sizeof *out);
  if (!host_little_endian())
    return fail(err, err_size, path,
                "this host is big-endian; gltile reads .npy data only on little-endian hosts");
  FILE *f = fopen(path, "rb");
  if (f == NULL) return fail(err, err_size, path, "cannot open: %s", strerror(errno));

  int rc = -1;
  char *text = NULL;
  unsigned char pre[12];
  struct stat st;
  /* fopen accepts a directory on Linux; say what it is. */
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fail(err, err_size, path, "is a directory");
    goto done;
  }
  size_t got = fread(pre, 1, 8, f);
  if (got < 8 && ferror(f)) {
    fail(err, err_size, path, "read error: %s", strerror(errno));
    goto done;
  }
  if (got == 0) {
    fail(err, err_size, path, "empty file, not a .npy file");
    goto done;
  }
  if (got < NPY_MAGIC_LEN || memcmp(pre, NPY_MAGIC, NPY_MAGIC_LEN) != 0) {
    fail(err, err_size, path, "not a .npy file (wrong magic: it does not start with \\x93NUMPY)");
    goto done;
  }
  if (got < 8) {
    fail(err, err_size, path, "truncated: the file ends inside the .npy preamble");
    goto done;
  }
  unsigned major = pre[6], minor = pre[7];
  /* 1.0 has a 2-byte header length, 2.0 and 3.0 a 4-byte one; 3.0 only
   * allows UTF-8 in the header. */
  size_t len_bytes = major == 1 ? 2 : 4;
  if (minor != 0 || major < 1 || major > 3) {
    fail(err, err_size, path, "unsupported .npy format version %u.%u (gltile reads 1.0, 2.0 and 3.0)", major,
         minor);
    goto done;
  }
  if (fread(pre + 8, 1, len_bytes, f) < len_bytes) {
    fail(err, err_size, path, "truncated: the file ends inside the .npy preamble");
    goto done;
  }
  unsigned long header_len = (unsigned long)pre[8] | (unsigned long)pre[9] << 8;
  if (len_bytes == 4) header_len |= (unsigned long)pre[10] << 16 | (unsigned long)pre[11] << 24;
  if (header_len > NPY_MAX_HEADER) {
    fail(err, err_size, path, "header length %lu is implausible (more than %lu bytes)", header_len,
         (unsigned long)NPY_MAX_HEADER);
    goto done;
  }
  text = malloc(header_len + 1);
  if (text == NULL) {
    fail(err, err_size, path, "out of memory for the header");
    goto done;
  }
  if (fread(text, 1, header_len, f) < header_len) {
    fail(err, err_size, path, "truncated: the file ends inside the %lu-byte header", header_len);
    goto done;
  }
  text[header_len] = '\0';

  header h;
  char msg[200];
  if (parse_header(text, header_len, &h, msg, sizeof msg)) {
    fail(err, err_size, path, "bad .npy header: %s", msg);
    goto done;
  }
  gt_type type = type_of(h.descr);
  if (type == 0) {
    char list[96];
    fail(err, err_size, path, "dtype '%s' is not supported (gltile reads %s)", h.descr,
         dtype_list(list, sizeof list));
    goto done;
  }
  if (h.ndim == 0) {
    fail(err, err_size, path, "0-D array (shape ()): gltile needs a 2-D matrix");
    goto done;
  }
  if (h.ndim == 1 && also == NPY_ALSO_VECTOR) { /* (n,) reads as (1, n) */
    h.dims[1] = h.dims[0];
    h.dims[0] = 1;
    h.ndim = 2;
  }
  if (h.ndim == 1) {
    fail(err, err_size, path,
         "1-D array (shape (%llu,)): gltile needs a 2-D matrix; reshape it to (1, %llu) or (%llu, 1)",
         h.dims[0], h.dims[0], h.dims[0]);
    goto done;
  }
  if (h.ndim > 2 && !(stacks && h.ndim == 3)) {
    char shape[96];
    size_t used = 0;
    for (int i = 0; i < h.ndim && used + 24 < sizeof shape; i++)
      used += (size_t)snprintf(shape + used, sizeof shape - used, "%s%llu", i ? ", " : "", h.dims[i]);
    fail(err, err_size, path, "%d-D array (shape (%s%s)): gltile needs a 2-D matrix%s", h.ndim, shape,
         used + 24 < sizeof shape ? "" : ", ...",
         stacks        ? " or a 3-D stack of them"
         : h.ndim == 3 ? " (gltile matmul --batch reads 3-D stacks)"
                       : "");
    goto done;
  }
  out->type = type;
  rc = read_data(f, path, &h, 8 + len_bytes + header_len, out, err, err_size);
done:
  free(text);
  fclose(f);
  if (rc) memset(out, 0, sizeof *out);
  return rc;
}

int npy_read(const char *path, npy_array *out, char *err, size_t err_size) {
  return read_file(path, NPY_ALSO_NONE, out, err, err_size);
}

int npy_read_stack(const char *path, npy_array *out, char *err, size_t err_size) {
  return read_file(path, NPY_ALSO_STACK, out, err, err_size);
}

int npy_read_vector(const char *path, npy_array *out, char *err, size_t err_size) {
  return read_file(path, NPY_ALSO_VECTOR, out, err, err_size);
}

/* ------------------------------------------------------------------ */
/* Writing.                                                            */

int npy_write_output(output_file *o, const npy_array *a, char *err, size_t err_size) {
  if (err != NULL && err_size > 0) err[0] = '\0';
  const char *path = o->name;
  if (!host_little_endian())
    return fail(err, err_size, path,
                "this host is big-endian; gltile writes .npy data only on little-endian hosts");
  const char *descr = npy_descr(a->type);
  if (descr[0] == '?') return fail(err, err_size, path, "cannot write element type %d", (int)a->type);
  unsigned long long count = (unsigned long long)a->rows * a->cols, stack = a->stacked ? a->count : 1;
  unsigned long long size = size_of(a->type);
  if (count > (unsigned long long)(SIZE_MAX / size) ||
      (count && stack > (unsigned long long)(SIZE_MAX / size) / count))
    return fail(err, err_size, path, "shape (%lu, %lu, %lu): the data size overflows", (unsigned long)stack,
                (unsigned long)a->rows, (unsigned long)a->cols);
  size_t bytes = (size_t)(count * stack * size);
  if (bytes > 0 && a->data == NULL) return fail(err, err_size, path, "no data to write");

  /* The dict exactly as NumPy writes it, trailing ", }" included. */
  char head[12 + 128 + NPY_ALIGN + 1];
  char dict[128], shape[64];
  if (a->stacked)
    snprintf(shape, sizeof shape, "(%lu, %lu, %lu)", (unsigned long)a->count, (unsigned long)a->rows,
             (unsigned long)a->cols);
  else
    snprintf(shape, sizeof shape, "(%lu, %lu)", (unsigned long)a->rows, (unsigned long)a->cols);
  int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shape);
  if (n < 0 || (size_t)n >= sizeof dict) return fail(err, err_size, path, "internal error: header too long");
  /* Version 1.0 stores the header length in 2 bytes; 2.0 in 4 bytes, needed
   * only past 65535 bytes, which a 2-D or 3-D header never reaches. The spaces
   * bring preamble + header to a multiple of 64 so the data is aligned;
   * NumPy's formula, which pads 1 to 64 spaces, never none. */
  unsigned major = 1;
  size_t prefix = 10;
  size_t header_len = (size_t)n + 1;
  header_len += NPY_ALIGN - (prefix + header_len) % NPY_ALIGN;
  if (header_len > 65535) {
    major = 2;
    prefix = 12;
    header_len = (size_t)n + 1;
    header_len += NPY_ALIGN - (prefix + header_len) % NPY_ALIGN;
  }
  memcpy(head, NPY_MAGIC, NPY_MAGIC_LEN);
  head[6] = (char)major;
  head[7] = 0;
  for (size_t i = 0; i < prefix - 8; i++)
    head[8 + i] = (char)((header_len >> (8 * i)) & 0xff);
  memcpy(head + prefix, dict, (size_t)n);
  memset(head + prefix + n, ' ', header_len - (size_t)n - 1);
  head[prefix + header_len - 1] = '\n';
  if (output_write(o, head, prefix + header_len, err, err_size) || output_write(o, a->data, bytes, err, err_size))
    return -1;
  return 0;
}

int npy_write(const char *path, const npy_array *a, char *err, size_t err_size) {
  output_file o;
  if (output_open(path, &o, err, err_size)) return -1;
  if (npy_write_output(&o, a, err, err_size)) {
    output_discard(&o);
    return -1;
  }
  return output_commit(&o, err, err_size);
}
