/* Host-only tests of the gltile program's .npy reader and writer
 * (tools/npy.c): round trips, hand-made headers of every version, Fortran
 * order, every malformed file the reader must refuse with a message, and
 * what the writer does with a symlink or FIFO in its way.
 * No GL: the files live in a fresh temporary directory. */
/* mkdtemp, opendir, rmdir, mkfifo, symlink and fork are POSIX, not C99. */
#define _POSIX_C_SOURCE 200809L

#include "npy.h"

#include "plan/enumerations.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "scratch_dir.h"

static void write_bytes(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (f == NULL) return;
  CHECK(fwrite(data, 1, size, f) == size);
  CHECK(fclose(f) == 0);
}

/* A .npy file made by hand: version major.minor, header text as given
 * (padded to 64 with spaces and '\n' unless raw), then data. */
static void make_npy(const char *path, unsigned major, unsigned minor, const char *header, bool raw,
                     const void *data, size_t data_size) {
  size_t prefix = major == 1 ? 10 : 12, n = strlen(header);
  size_t header_len = raw ? n : n + 1 + (64 - (prefix + n + 1) % 64);
  unsigned char *buf = malloc(prefix + header_len + data_size + 1);
  memcpy(buf, "\x93NUMPY", 6);
  buf[6] = (unsigned char)major;
  buf[7] = (unsigned char)minor;
  for (size_t i = 0; i < prefix - 8; i++)
    buf[8 + i] = (unsigned char)(header_len >> (8 * i));
  memcpy(buf + prefix, header, n);
  if (!raw) {
    memset(buf + prefix + n, ' ', header_len - n - 1);
    buf[prefix + header_len - 1] = '\n';
  }
  if (data_size) memcpy(buf + prefix + header_len, data, data_size);
  write_bytes(path, buf, prefix + header_len + data_size);
  free(buf);
}

/* Names in dir, to check no temporary is left behind. */
static int count_files(void) {
  DIR *d = opendir(dir);
  int n = 0;
  if (d == NULL) return -1;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) n++;
  closedir(d);
  return n;
}

/* ------------------------------------------------------------------ */
/* 1. Round trips: every type and shape, exact, NumPy's header layout.  */

static void test_round_trip(void) {
  static const gt_type types[] = {GT_F32, GT_I32, GT_U32, GT_F16, GT_I16, GT_U16, GT_I8, GT_U8};
  static const size_t sizes[] = {4, 4, 4, 2, 2, 2, 1, 1};
  static const uint32_t shapes[][2] = {{1, 1}, {1, 17}, {17, 1}, {37, 23}};
  uint32_t x = 12345;
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
    for (size_t s = 0; s < 4; s++) {
      npy_array a, b;
      char err[512];
      memset(&a, 0, sizeof a);
      a.type = types[t];
      a.rows = shapes[s][0];
      a.cols = shapes[s][1];
      size_t n = (size_t)a.rows * a.cols, size = sizes[t];
      uint32_t *words = malloc(n * 4);
      /* Random words: NaN payloads and denormals included for f4 and f2;
       * the first n * size bytes are the data. */
      for (size_t i = 0; i < n; i++)
        words[i] = next_word(&x);
      a.data = words;
      const char *p = path_in_dir("round.npy");
      CHECK(npy_write(p, &a, err, sizeof err) == 0);
      CHECK_EQ_U(count_temporaries(), 0);

      /* The layout NumPy writes: magic, 1.0, the dict, spaces, '\n', and
       * data starting at a multiple of 64. */
      FILE *f = fopen(p, "rb");
      unsigned char head[256];
      size_t got = f ? fread(head, 1, sizeof head, f) : 0;
      if (f) fclose(f);
      CHECK(got >= 10 && memcmp(head, "\x93NUMPY\x01\x00", 8) == 0);
      size_t header_len = (size_t)head[8] | (size_t)head[9] << 8;
      CHECK_EQ_U((10 + header_len) % 64, 0);
      char want[128];
      int wn = snprintf(want, sizeof want, "{'descr': '%s', 'fortran_order': False, 'shape': (%u, %u), }",
                        npy_descr(a.type), a.rows, a.cols);
      CHECK(10 + header_len <= got && header_len > (size_t)wn);
      if (10 + header_len <= got && header_len > (size_t)wn) {
        CHECK(memcmp(head + 10, want, (size_t)wn) == 0);
        bool spaces = true;
        for (size_t i = 10 + (size_t)wn; i < 10 + header_len - 1; i++)
          spaces = spaces && head[i] == ' ';
        CHECK(spaces);
        CHECK(head[10 + header_len - 1] == '\n');
      }
      struct stat st;
      CHECK(stat(p, &st) == 0 && (size_t)st.st_size == 10 + header_len + n * size);

      CHECK(npy_read(p, &b, err, sizeof err) == 0);
      if (err[0]) fprintf(stderr, "%s\n", err);
      CHECK(b.type == a.type);
      CHECK_EQ_U(b.rows, a.rows);
      CHECK_EQ_U(b.cols, a.cols);
      CHECK(b.data != NULL && memcmp(b.data, a.data, n * size) == 0);
      npy_free(&b);
      CHECK(b.data == NULL);
      free(words);
    }
  unlink(path_in_dir("round.npy"));
}

/* Writing over an existing file replaces it. */
static void test_overwrite(void) {
  uint32_t w[6] = {1, 2, 3, 4, 5, 6};
  npy_array a = {GT_U32, 2, 3, w, false, 0}, b;
  char err[512];
  const char *p = path_in_dir("over.npy");
  write_bytes(p, "not a npy file", 14);
  CHECK(npy_write(p, &a, err, sizeof err) == 0);
  a.rows = 3;
  a.cols = 2;
  CHECK(npy_write(p, &a, err, sizeof err) == 0);
  CHECK(npy_read(p, &b, err, sizeof err) == 0);
  CHECK_EQ_U(b.rows, 3);
  CHECK_EQ_U(b.cols, 2);
  CHECK(b.data != NULL && memcmp(b.data, w, sizeof w) == 0);
  npy_free(&b);
  unlink(p);
  CHECK_EQ_U(count_files(), 0);
}

/* ------------------------------------------------------------------ */
/* 2. Hand-made headers: versions 1.0, 2.0, 3.0 and the dict's variants. */

static void check_reads(const char *name, unsigned major, const char *header, gt_type type, uint32_t rows,
                        uint32_t cols) {
  uint32_t data[12];
  for (uint32_t i = 0; i < 12; i++)
    data[i] = 0x01020304u * (i + 1);
  const char *p = path_in_dir(name);
  make_npy(p, major, 0, header, false, data, (size_t)rows * cols * 4);
  npy_array a;
  char err[512];
  int rc = npy_read(p, &a, err, sizeof err);
  CHECK(rc == 0);
  if (rc) fprintf(stderr, "  %s: %s\n", name, err);
  CHECK(a.type == type);
  CHECK_EQ_U(a.rows, rows);
  CHECK_EQ_U(a.cols, cols);
  CHECK(a.data != NULL && memcmp(a.data, data, (size_t)rows * cols * 4) == 0);
  npy_free(&a);
  unlink(p);
}

static void test_headers(void) {
  check_reads("v1.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", GT_F32, 3, 4);
  check_reads("v2.npy", 2, "{'descr': '<i4', 'fortran_order': False, 'shape': (3, 4), }", GT_I32, 3, 4);
  check_reads("v3.npy", 3, "{'descr': '<u4', 'fortran_order': False, 'shape': (4, 3), }", GT_U32, 4, 3);
  /* Any key order, double quotes, odd spaces, no trailing comma. */
  check_reads("order.npy", 2, "{ \"shape\" :(2,6) ,'descr':'<i4' ,\t'fortran_order' : False}", GT_I32, 2, 6);
  /* A trailing comma inside the tuple, and Python 2's long suffix. */
  check_reads("comma.npy", 1, "{'descr': '<u4', 'fortran_order': False, 'shape': (6, 2,), }", GT_U32, 6, 2);
  check_reads("long.npy", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 5L), }", GT_F32, 2, 5);
  /* The growth-axis spaces newer NumPy puts before the padding. */
  check_reads("growth.npy", 1,
              "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1), }                    ", GT_F32, 1,
              1);
  /* 1 x n and n x 1 in Fortran order store the same bytes as C order. */
  check_reads("f1n.npy", 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (1, 7), }", GT_F32, 1, 7);
  check_reads("fn1.npy", 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (7, 1), }", GT_F32, 7, 1);
}

/* A Fortran-order (rows, cols) file stores column after column; it is read
 * as the C-order rows x cols matrix. 37 x 41 crosses the 32 blocks. */
static void test_fortran(void) {
  const uint32_t rows = 37, cols = 41;
  uint32_t *stored = malloc((size_t)rows * cols * 4);
  for (uint32_t c = 0; c < cols; c++)
    for (uint32_t r = 0; r < rows; r++)
      stored[(size_t)c * rows + r] = r * 1000 + c;
  const char *p = path_in_dir("fortran.npy");
  make_npy(p, 1, 0, "{'descr': '<i4', 'fortran_order': True, 'shape': (37, 41), }", false, stored,
           (size_t)rows * cols * 4);
  npy_array a;
  char err[512];
  CHECK(npy_read(p, &a, err, sizeof err) == 0);
  CHECK_EQ_U(a.rows, rows);
  CHECK_EQ_U(a.cols, cols);
  bool same = a.data != NULL;
  for (uint32_t r = 0; same && r < rows; r++)
    for (uint32_t c = 0; c < cols; c++)
      same = same && ((uint32_t *)a.data)[(size_t)r * cols + c] == r * 1000 + c;
  CHECK(same);
  npy_free(&a);
  free(stored);
  /* 2- and 1-byte elements: the same matrix, element by element. */
  static const char *descrs[] = {"<u2", "|u1"};
  for (int k = 0; k < 2; k++) {
    size_t size = k == 0 ? 2 : 1;
    unsigned char *bytes = malloc((size_t)rows * cols * size);
    for (uint32_t c = 0; c < cols; c++)
      for (uint32_t r = 0; r < rows; r++) {
        uint32_t v = r * 1000 + c;
        memcpy(bytes + ((size_t)c * rows + r) * size, &v, size); /* little-endian low bytes */
      }
    char header[96];
    snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': True, 'shape': (37, 41), }", descrs[k]);
    make_npy(p, 1, 0, header, false, bytes, (size_t)rows * cols * size);
    CHECK(npy_read(p, &a, err, sizeof err) == 0);
    CHECK(a.type == (k == 0 ? GT_U16 : GT_U8));
    same = a.data != NULL && a.rows == rows && a.cols == cols;
    for (uint32_t r = 0; same && r < rows; r++)
      for (uint32_t c = 0; c < cols; c++) {
        uint32_t v = 0, want = (r * 1000 + c) & (k == 0 ? 0xFFFFu : 0xFFu);
        memcpy(&v, (unsigned char *)a.data + ((size_t)r * cols + c) * size, size);
        same = same && v == want;
      }
    CHECK(same);
    npy_free(&a);
    free(bytes);
  }
  unlink(p);
}

/* Stacks (npy_read_stack): a 3-D file written and read back, in C and in
 * Fortran order; a 2-D file read as one matrix; npy_read refuses 3-D. */
static void test_stacks(void) {
  enum { COUNT = 3, ROWS = 5, COLS = 7, N = COUNT * ROWS * COLS };
  uint32_t words[N], stored[N];
  for (uint32_t i = 0; i < N; i++)
    words[i] = i * 2654435761u;
  const char *p = path_in_dir("stack.npy");
  char err[512];
  npy_array a = {GT_F32, ROWS, COLS, words, true, COUNT}, b;
  CHECK(npy_write(p, &a, err, sizeof err) == 0);
  CHECK(npy_read_stack(p, &b, err, sizeof err) == 0);
  CHECK(b.stacked && b.count == COUNT && b.rows == ROWS && b.cols == COLS && b.type == GT_F32);
  CHECK(b.data != NULL && memcmp(b.data, words, sizeof words) == 0);
  npy_free(&b);
  /* The header NumPy would write for it. */
  FILE *f = fopen(p, "rb");
  char head[128] = {0};
  CHECK(f != NULL && fread(head, 1, sizeof head - 1, f) > 0);
  if (f) fclose(f);
  CHECK(strstr(head + 10, "'shape': (3, 5, 7), }") != NULL);
  CHECK(npy_read(p, &b, err, sizeof err) != 0);
  CHECK(strstr(err, "3-D") != NULL && strstr(err, "--batch") != NULL);
  CHECK(b.data == NULL);

  /* Fortran order: element (s, r, c) at s + COUNT (r + ROWS c). */
  for (uint32_t st = 0; st < COUNT; st++)
    for (uint32_t r = 0; r < ROWS; r++)
      for (uint32_t c = 0; c < COLS; c++)
        stored[st + COUNT * (r + ROWS * c)] = words[(st * ROWS + r) * COLS + c];
  make_npy(p, 1, 0, "{'descr': '<f4', 'fortran_order': True, 'shape': (3, 5, 7), }", false, stored,
           sizeof stored);
  CHECK(npy_read_stack(p, &b, err, sizeof err) == 0);
  CHECK(b.data != NULL && memcmp(b.data, words, sizeof words) == 0);
  npy_free(&b);

  /* A 2-D file through npy_read_stack: one matrix, not stacked. */
  make_npy(p, 1, 0, "{'descr': '<u4', 'fortran_order': False, 'shape': (5, 7), }", false, words,
           ROWS * COLS * 4);
  CHECK(npy_read_stack(p, &b, err, sizeof err) == 0);
  CHECK(!b.stacked && b.rows == ROWS && b.cols == COLS);
  npy_free(&b);

  /* A stack one word short, and 4-D: refused, naming the shape. */
  make_npy(p, 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 5, 7), }", false, words,
           sizeof words - 4);
  CHECK(npy_read_stack(p, &b, err, sizeof err) != 0);
  CHECK(strstr(err, "(3, 5, 7)") != NULL);
  make_npy(p, 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 5, 7), }", false, words,
           sizeof words);
  CHECK(npy_read_stack(p, &b, err, sizeof err) != 0);
  CHECK(strstr(err, "4-D") != NULL);
  unlink(p);
}

/* ------------------------------------------------------------------ */
/* 3. Malformed files: each refused with a message naming the file.     */

static void check_refused(const char *name, const char *why) {
  const char *p = path_in_dir(name);
  npy_array a;
  char err[512];
  memset(&a, 0x5a, sizeof a);
  int rc = npy_read(p, &a, err, sizeof err);
  CHECK(rc != 0);
  CHECK(err[0] != '\0');
  CHECK(strstr(err, name) != NULL);
  CHECK(a.data == NULL && a.rows == 0 && a.cols == 0);
  if (rc == 0 || err[0] == '\0') fprintf(stderr, "  %s (%s) was not refused\n", name, why);
  if (getenv("GT_TEST_VERBOSE")) printf("  %-14s %s\n", why, err);
  npy_free(&a);
  unlink(p);
}

static void refuse_header(const char *name, unsigned major, unsigned minor, const char *header,
                          size_t data_size) {
  static const unsigned char zeros[256];
  make_npy(path_in_dir(name), major, minor, header, false, zeros, data_size);
  check_refused(name, header);
}

static void test_malformed(void) {
  static const unsigned char zeros[256];
  const char *ok34 = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }";

  /* Other dtypes. */
  refuse_header("f8.npy", 1, 0, "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }", 96);
  refuse_header("bigf4.npy", 1, 0, "{'descr': '>f4', 'fortran_order': False, 'shape': (3, 4), }", 48);
  refuse_header("u8.npy", 1, 0, "{'descr': '<u8', 'fortran_order': False, 'shape': (3, 4), }", 96);
  refuse_header("bigu2.npy", 1, 0, "{'descr': '>u2', 'fortran_order': False, 'shape': (3, 4), }", 24);
  refuse_header("nat.npy", 1, 0, "{'descr': '=f4', 'fortran_order': False, 'shape': (3, 4), }", 48);
  refuse_header("bare.npy", 1, 0, "{'descr': 'f4', 'fortran_order': False, 'shape': (3, 4), }", 48);
  refuse_header("struct.npy", 1, 0, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3, 4), }",
                48);
  refuse_header(
      "longdescr.npy", 1, 0,
      "{'descr': '<f4aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'fortran_order': False, 'shape': (3, 4), }", 48);

  /* Truncated: data, header, preamble, empty file. Too long: trailing data. */
  refuse_header("short.npy", 1, 0, ok34, 47);
  refuse_header("nodata.npy", 1, 0, ok34, 0);
  refuse_header("long.npy", 1, 0, ok34, 49);
  {
    static const char cut[] = "\x93NUMPY\x01\x00\x76\x00{'descr': '<f4', 'fortran_";
    unsigned char buf[sizeof cut];
    memcpy(buf, cut, sizeof cut);
    write_bytes(path_in_dir("cuthead.npy"), buf, sizeof cut - 1);
    check_refused("cuthead.npy", "cut in the header");
    write_bytes(path_in_dir("cutpre.npy"), buf, 9);
    check_refused("cutpre.npy", "cut in the preamble");
    write_bytes(path_in_dir("cutmagic.npy"), buf, 7);
    check_refused("cutmagic.npy", "cut in the version");
    write_bytes(path_in_dir("three.npy"), buf, 3);
    check_refused("three.npy", "3 bytes");
    write_bytes(path_in_dir("empty.npy"), buf, 0);
    check_refused("empty.npy", "empty file");
  }
  check_refused("missing.npy", "no such file");

  /* Wrong magic, unsupported versions. */
  {
    unsigned char buf[128];
    memset(buf, ' ', sizeof buf);
    memcpy(buf, "\x93NUMPZ\x01\x00\x76\x00", 10);
    write_bytes(path_in_dir("magic.npy"), buf, sizeof buf);
    check_refused("magic.npy", "wrong magic");
    memcpy(buf, "PK\x03\x04", 4);
    write_bytes(path_in_dir("npz.npy"), buf, sizeof buf);
    check_refused("npz.npy", "a zip");
  }
  refuse_header("v4.npy", 4, 0, ok34, 48);
  refuse_header("v11.npy", 1, 1, ok34, 48);
  refuse_header("v0.npy", 0, 0, ok34, 48);

  /* Bad header dicts. */
  refuse_header("noshape.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, }", 48);
  refuse_header("nodescr.npy", 1, 0, "{'fortran_order': False, 'shape': (3, 4), }", 48);
  refuse_header("noorder.npy", 1, 0, "{'descr': '<f4', 'shape': (3, 4), }", 48);
  refuse_header("emptydict.npy", 1, 0, "{}", 48);
  refuse_header("notdict.npy", 1, 0, "['<f4', False, (3, 4)]", 48);
  refuse_header("unclosed.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), ", 48);
  refuse_header("shapex.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, x), }", 48);
  refuse_header("shapeneg.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (-3, 4), }", 48);
  refuse_header("shapenotup.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': 12, }", 48);
  refuse_header("shapeint.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (12), }", 48);
  refuse_header("shapelist.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': [3, 4], }", 48);
  refuse_header("shapeopen.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4, }", 48);
  refuse_header("shapecommas.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,, 4), }", 48);
  refuse_header("shapefloat.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3.0, 4), }", 48);
  refuse_header("shapespace.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3 4), }", 48);
  refuse_header("order.npy", 1, 0, "{'descr': '<f4', 'fortran_order': 0, 'shape': (3, 4), }", 48);
  refuse_header("orderx.npy", 1, 0, "{'descr': '<f4', 'fortran_order': Falsey, 'shape': (3, 4), }", 48);
  refuse_header("descrnum.npy", 1, 0, "{'descr': 4, 'fortran_order': False, 'shape': (3, 4), }", 48);
  refuse_header("extrakey.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), 'x': 1}",
                48);
  refuse_header("dupkey.npy", 1, 0,
                "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), 'shape': (3, 4)}", 48);
  refuse_header("nocolon.npy", 1, 0, "{'descr' '<f4', 'fortran_order': False, 'shape': (3, 4), }", 48);
  refuse_header("nocomma.npy", 1, 0, "{'descr': '<f4' 'fortran_order': False, 'shape': (3, 4), }", 48);
  refuse_header("unquoted.npy", 1, 0, "{descr: '<f4', 'fortran_order': False, 'shape': (3, 4), }", 48);
  refuse_header("openstr.npy", 1, 0, "{'descr': '<f4, 'fortran_order': False, 'shape': (3, 4), }", 48);
  refuse_header("after.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), } x", 48);
  refuse_header("blank.npy", 1, 0, "", 48);

  /* Dimensions: 0-D, 1-D, 3-D. */
  refuse_header("dim0.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", 4);
  refuse_header("dim1.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (12,), }", 48);
  refuse_header("dim3.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2, 3), }", 48);

  /* Sizes overflowing: a dimension past 32 bits, the bytes past size_t,
   * a dimension past 64 bits, and a header length past the cap. */
  refuse_header("dim32.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 1), }",
                48);
  refuse_header("bytes.npy", 1, 0,
                "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967295, 4294967295), }", 48);
  refuse_header("dim64.npy", 1, 0,
                "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999, 1), }", 48);
  refuse_header("huge.npy", 1, 0, "{'descr': '<f4', 'fortran_order': False, 'shape': (65536, 65536), }", 48);
  {
    unsigned char buf[64];
    memset(buf, ' ', sizeof buf);
    memcpy(buf, "\x93NUMPY\x02\x00\xff\xff\xff\xff", 12);
    write_bytes(path_in_dir("hlen.npy"), buf, sizeof buf);
    check_refused("hlen.npy", "header length 4 GiB");
  }
  /* A header length that runs past the end of the file. */
  {
    const char *p = path_in_dir("hpast.npy");
    make_npy(p, 1, 0, ok34, false, zeros, 0);
    FILE *f = fopen(p, "r+b");
    CHECK(f != NULL);
    if (f) {
      fseek(f, 8, SEEK_SET);
      fputc(0xf0, f);
      fputc(0x00, f);
      fclose(f);
    }
    check_refused("hpast.npy", "header past the end");
  }
  /* A directory is not a file. */
  CHECK(mkdir(path_in_dir("adir.npy"), 0700) == 0);
  check_refused("adir.npy", "a directory");
  rmdir(path_in_dir("adir.npy"));
  CHECK_EQ_U(count_files(), 0);
}

/* The descr is matched whole: a NUL inside the quotes, which C string
 * functions would stop at, is no '<f4'; nor is a key with one. And the
 * message for a dtype not read names every dtype that is, from the
 * library's list of element types. */
static void test_descr_exact(void) {
  static const struct {
    const char *text;
    size_t length;
  } headers[] = {
#define WITH_NUL(text) {text, sizeof text - 1}
      WITH_NUL("{'descr': '<f4\0junk', 'fortran_order': False, 'shape': (3, 4), }"),
      WITH_NUL("{'descr': '<f4\0', 'fortran_order': False, 'shape': (3, 4), }"),
      WITH_NUL("{'descr': '<f4', 'fortran_order': False, 'shape\0x': (3, 4), }"),
#undef WITH_NUL
  };
  static const unsigned char zeros[48];
  for (size_t i = 0; i < sizeof headers / sizeof headers[0]; i++) {
    /* make_npy takes C strings: the header goes in by hand, padded so the
     * data starts at 64 as NumPy would. */
    unsigned char buf[10 + 118 + sizeof zeros];
    size_t header_len = 118;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)header_len;
    buf[9] = 0;
    memset(buf + 10, ' ', header_len);
    memcpy(buf + 10, headers[i].text, headers[i].length);
    buf[10 + header_len - 1] = '\n';
    memcpy(buf + 10 + header_len, zeros, sizeof zeros);
    write_bytes(path_in_dir("nul.npy"), buf, sizeof buf);
    check_refused("nul.npy", "a NUL inside a quoted string");
  }

  static const char *const unsupported[] = {
      "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }",
      "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3, 4), }",
  };
  for (size_t i = 0; i < 2; i++) {
    make_npy(path_in_dir("dtype.npy"), 1, 0, unsupported[i], false, zeros, sizeof zeros);
    npy_array a;
    char err[512];
    CHECK(npy_read(path_in_dir("dtype.npy"), &a, err, sizeof err) != 0);
    bool every = true;
#define EVERY_DESCR(type, bytes, glsl, name, descr) every = every && strstr(err, "'" descr "'") != NULL;
    GT_EACH_TYPE(EVERY_DESCR)
#undef EVERY_DESCR
    CHECK(every);
    if (!every) fprintf(stderr, "  message without every dtype read: %s\n", err);
  }
  unlink(path_in_dir("dtype.npy"));
  CHECK_EQ_U(count_files(), 0);
}

/* ------------------------------------------------------------------ */
/* 4. Writes that fail leave nothing behind.                            */

static void test_write_failures(void) {
  uint32_t w[4] = {1, 2, 3, 4};
  npy_array a = {GT_F32, 2, 2, w, false, 0};
  char err[512];

  err[0] = '\0';
  CHECK(npy_write(path_in_dir("nodir/out.npy"), &a, err, sizeof err) != 0);
  CHECK(err[0] != '\0' && strstr(err, "out.npy") != NULL);

  /* rename() over a directory fails after the data was written: the
   * temporary must go and the directory stay. */
  const char *d = path_in_dir("isdir.npy");
  CHECK(mkdir(d, 0700) == 0);
  err[0] = '\0';
  CHECK(npy_write(d, &a, err, sizeof err) != 0);
  CHECK(err[0] != '\0' && strstr(err, "isdir.npy") != NULL);
  CHECK_EQ_U(count_temporaries(), 0);
  struct stat st;
  CHECK(stat(d, &st) == 0 && S_ISDIR(st.st_mode));
  rmdir(d);

  a.type = (gt_type)0;
  err[0] = '\0';
  CHECK(npy_write(path_in_dir("badtype.npy"), &a, err, sizeof err) != 0);
  CHECK(err[0] != '\0');
  a.type = GT_F32;
  a.data = NULL;
  err[0] = '\0';
  CHECK(npy_write(path_in_dir("nodata.npy"), &a, err, sizeof err) != 0);
  CHECK(err[0] != '\0');
  CHECK_EQ_U(count_files(), 0);
}

/* npy_write takes its path as what it is (output_file.h), with no GL:
 * a symlink is followed and stays, a dangling one is refused, a file
 * replaced keeps its permission bits, a FIFO is written through. */
static void test_write_kinds(void) {
  uint32_t w[6] = {1, 2, 3, 4, 5, 6};
  npy_array a = {GT_U32, 2, 3, w, false, 0}, b;
  char err[512];
  char target[1024], link[1024];
  snprintf(target, sizeof target, "%s", path_in_dir("target.npy"));
  snprintf(link, sizeof link, "%s", path_in_dir("link.npy"));
  write_bytes(target, "old", 3);
  CHECK(chmod(target, 0600) == 0);
  CHECK(symlink("target.npy", link) == 0);
  CHECK(npy_write(link, &a, err, sizeof err) == 0);
  struct stat st;
  CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
  CHECK(lstat(target, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600);
  CHECK(npy_read(target, &b, err, sizeof err) == 0);
  CHECK(b.data != NULL && b.rows == 2 && b.cols == 3 && memcmp(b.data, w, sizeof w) == 0);
  npy_free(&b);
  unlink(target);
  err[0] = '\0';
  CHECK(npy_write(link, &a, err, sizeof err) != 0); /* now dangling */
  CHECK(strstr(err, "link.npy") != NULL);
  CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
  CHECK(lstat(target, &st) != 0);
  unlink(link);

  const char *fifo = path_in_dir("fifo.npy");
  CHECK(mkfifo(fifo, 0600) == 0);
  fflush(NULL);
  int pipe_fds[2];
  CHECK(pipe(pipe_fds) == 0);
  pid_t reader = fork();
  if (reader == 0) {
    /* The stream, back to the parent through a pipe. */
    alarm(60);
    int from = open(fifo, O_RDONLY);
    char buf[512];
    ssize_t got;
    while (from >= 0 && (got = read(from, buf, sizeof buf)) > 0)
      if (write(pipe_fds[1], buf, (size_t)got) != got) _exit(1);
    _exit(from >= 0 ? 0 : 1);
  }
  close(pipe_fds[1]);
  CHECK(npy_write(fifo, &a, err, sizeof err) == 0);
  unsigned char stream[512];
  size_t used = 0;
  ssize_t got;
  while ((got = read(pipe_fds[0], stream + used, sizeof stream - used)) > 0)
    used += (size_t)got;
  close(pipe_fds[0]);
  int status = 0;
  if (reader > 0) waitpid(reader, &status, 0);
  CHECK(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
  /* The same bytes as a file gets. */
  const char *file = path_in_dir("file.npy");
  CHECK(npy_write(file, &a, err, sizeof err) == 0);
  FILE *f = fopen(file, "rb");
  unsigned char want[512];
  size_t want_size = f ? fread(want, 1, sizeof want, f) : 0;
  if (f) fclose(f);
  CHECK(want_size > 0 && used == want_size && memcmp(stream, want, used) == 0);
  unlink(file);
  unlink(fifo);
  CHECK_EQ_U(count_files(), 0);
}

int main(void) {
  if (!scratch_make("gltile_npy")) return 1;
  test_round_trip();
  test_overwrite();
  test_headers();
  test_fortran();
  test_stacks();
  test_malformed();
  test_descr_exact();
  test_write_failures();
  test_write_kinds();
  remove_dir();
  return CHECK_SUMMARY();
}
