/* `gltile transpose` and `gltile matmul` run as a user runs them: input
 * .npy files written here (with tools/npy.c), the program started as a
 * child process, its output files read back and checked (exact for
 * transpose, against a double reference for matmul), and failing commands
 * checked to leave neither an output nor a temporary file.
 *
 * usage: test_cli PATH_TO_GLTILE
 * Exits 77 (skipped) when `gltile info` cannot open a GL context (exit 1). */
/* fork, execv, waitpid, mkdtemp and opendir are POSIX, not C99; mknod
 * (a device node of the test's own) is XSI. */
#define _XOPEN_SOURCE 700

#include "npy.h"

#include <dirent.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "quantized_reference.h"
#include "scratch_dir.h"

static const char *gltile, *emulator;
static char err_text[4096]; /* the last command's stderr */

/* Runs gltile with the NULL-terminated args; stdout goes to out.txt and
 * stderr to err.txt in dir (read into err_text). Returns the exit status,
 * or 128 + the signal. */
static int run(const char *const *args) {
  char *argv[32];
  int n = 0;
  /* A cross build runs gltile under its emulator (qemu-user), which this
   * emulated process can start like any host program. */
  if (emulator) argv[n++] = (char *)emulator;
  argv[n++] = (char *)gltile;
  for (int i = 0; args[i] != NULL && n < 31; i++)
    argv[n++] = (char *)args[i];
  argv[n] = NULL;
  const char *out_path = path_in_dir("out.txt"), *err_path = path_in_dir("err.txt");
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0) _exit(126);
    execv(argv[0], argv);
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  err_text[0] = '\0';
  FILE *f = fopen(err_path, "rb");
  if (f) {
    size_t got = fread(err_text, 1, sizeof err_text - 1, f);
    err_text[got] = '\0';
    fclose(f);
  }
  unlink(err_path);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* stdout of the last command, for --help. */
static bool last_stdout_contains(const char *s) {
  static char text[8192];
  FILE *f = fopen(path_in_dir("out.txt"), "rb");
  size_t got = 0;
  if (f) {
    got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
  }
  text[got] = '\0';
  return strstr(text, s) != NULL;
}

static bool exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static void write_stack(const char *name, gt_type type, uint32_t count, uint32_t rows, uint32_t cols,
                        bool floats, uint32_t seed);

/* A file of random words (NaN payloads and denormals when read as f4:
 * transpose must move bits) or of floats in [-1, 1] for matmul. */
static void write_matrix(const char *name, gt_type type, uint32_t rows, uint32_t cols, bool floats,
                         uint32_t seed) {
  write_stack(name, type, 0, rows, cols, floats, seed);
}

/* The same for a 3-D stack of count matrices (0: a 2-D file). */
static void write_stack(const char *name, gt_type type, uint32_t count, uint32_t rows, uint32_t cols,
                        bool floats, uint32_t seed) {
  npy_array a;
  char err[512];
  memset(&a, 0, sizeof a);
  a.type = type;
  a.rows = rows;
  a.cols = cols;
  a.stacked = count > 0;
  a.count = count;
  size_t words = (size_t)rows * cols * (count ? count : 1); /* or fewer, for 2- and 1-byte types */
  a.data = malloc(words * 4);
  uint32_t x = seed;
  for (size_t i = 0; i < words; i++) {
    uint32_t w = next_word(&x);
    if (floats) {
      float f = (float)((double)w / 2147483648.0 - 1.0);
      memcpy((uint32_t *)a.data + i, &f, 4);
    } else
      ((uint32_t *)a.data)[i] = w;
  }
  if (npy_write(path_in_dir(name), &a, err, sizeof err)) fprintf(stderr, "%s\n", err);
  npy_free(&a);
}

/* A hand-made file with any header (for dtypes npy_write never writes). */
static void write_raw(const char *name, const char *header, size_t data_size) {
  size_t n = strlen(header), header_len = n + 1 + (64 - (10 + n + 1) % 64);
  unsigned char *buf = calloc(10 + header_len + data_size, 1);
  memcpy(buf, "\x93NUMPY\x01\x00", 8);
  buf[8] = (unsigned char)header_len;
  buf[9] = (unsigned char)(header_len >> 8);
  memcpy(buf + 10, header, n);
  memset(buf + 10 + n, ' ', header_len - n - 1);
  buf[10 + header_len - 1] = '\n';
  FILE *f = fopen(path_in_dir(name), "wb");
  if (f) {
    fwrite(buf, 1, 10 + header_len + data_size, f);
    fclose(f);
  }
  free(buf);
}

static bool read_matrix(const char *name, npy_array *a) {
  char err[512];
  if (npy_read(path_in_dir(name), a, err, sizeof err) == 0) return true;
  fprintf(stderr, "%s\n", err);
  return false;
}

/* ------------------------------------------------------------------ */

static void test_help(void) {
  const char *t[] = {"transpose", "--help", NULL};
  CHECK_EQ_U(run(t), 0);
  CHECK(last_stdout_contains("usage: gltile transpose"));
  const char *m[] = {"matmul", "--help", NULL};
  CHECK_EQ_U(run(m), 0);
  CHECK(last_stdout_contains("usage: gltile matmul"));
  /* --help wins over options that are wrong. */
  const char *m2[] = {"matmul", "--bogus", "-h", NULL};
  CHECK_EQ_U(run(m2), 0);
  CHECK(last_stdout_contains("usage: gltile matmul"));
  const char *g[] = {"--help", NULL};
  CHECK_EQ_U(run(g), 0);
  CHECK(last_stdout_contains("transpose IN.npy"));
  CHECK(last_stdout_contains("matmul A.npy"));
}

/* Whether the device runs the kernels that need shader atomics, as
 * `gltile info` says (not llvmpipe in a 32-bit ARM process). */
static int atomics_known = -1;
static bool device_has_atomics(void) {
  if (atomics_known < 0) {
    const char *info[] = {"info", NULL};
    atomics_known = !(run(info) == 0 && last_stdout_contains("shader atomics:        no"));
  }
  return atomics_known == 1;
}

static void check_transpose(gt_type type, uint32_t rows, uint32_t cols, const char *strategy,
                            const char *tile) {
  bool packed = type != GT_F32 && type != GT_I32 && type != GT_U32;
  write_matrix("t_in.npy", type, rows, cols, false, rows * 7919u + cols);
  const char *args[10] = {"transpose", path_in_dir("t_in.npy"), "-o", path_in_dir("t_out.npy"), NULL};
  int n = 4;
  if (strategy) {
    args[n++] = "--strategy";
    args[n++] = strategy;
  }
  if (tile) {
    args[n++] = "--tile";
    args[n++] = tile;
  }
  args[n] = NULL;
  /* Packed transposes need shader atomics, but for AUTO on whole blocks
   * of words (the file's rows lie on words). Asked first: it runs gltile
   * info. */
  uint32_t pack = type == GT_U8 || type == GT_I8 ? 4 : packed ? 2 : 1;
  bool words_only = strategy == NULL && rows % pack == 0 && cols % pack == 0;
  bool refused = packed && !words_only && !device_has_atomics();
  int rc = run(args);
  if (refused) {
    /* Refused, saying why, and no output. */
    CHECK_EQ_U(rc, 1);
    CHECK(strstr(err_text, "atomics") != NULL);
    if (rc != 1 || strstr(err_text, "atomics") == NULL)
      fprintf(stderr, "  transpose %ux%u %s: %s", rows, cols, npy_descr(type), err_text);
    CHECK(!exists(path_in_dir("t_out.npy")));
    unlink(path_in_dir("t_in.npy"));
    return;
  }
  CHECK_EQ_U(rc, 0);
  CHECK(err_text[0] == '\0'); /* no progress line when stderr is no terminal */
  if (rc) fprintf(stderr, "  transpose %ux%u %s: %s", rows, cols, npy_descr(type), err_text);
  npy_array in, out;
  if (read_matrix("t_in.npy", &in) && read_matrix("t_out.npy", &out)) {
    CHECK(out.type == type);
    CHECK_EQ_U(out.rows, cols);
    CHECK_EQ_U(out.cols, rows);
    bool same = out.rows == cols && out.cols == rows;
    const unsigned char *a = in.data, *b = out.data;
    size_t size = type == GT_F16 || type == GT_I16 || type == GT_U16 ? 2
                  : type == GT_I8 || type == GT_U8                   ? 1
                                                                     : 4;
    for (uint32_t r = 0; same && r < rows; r++)
      for (uint32_t c = 0; c < cols; c++)
        same =
            same && memcmp(b + ((size_t)c * rows + r) * size, a + ((size_t)r * cols + c) * size, size) == 0;
    CHECK(same);
    npy_free(&out);
  }
  npy_free(&in);
  unlink(path_in_dir("t_in.npy"));
  unlink(path_in_dir("t_out.npy"));
}

static void test_transpose(void) {
  check_transpose(GT_F32, 37, 23, NULL, NULL);
  check_transpose(GT_I32, 37, 23, "tiled_pad", "8");
  check_transpose(GT_U32, 23, 37, "simple", NULL);
  check_transpose(GT_F32, 1, 1, NULL, NULL);
  check_transpose(GT_U32, 1, 29, "truncate_b", "16");
  check_transpose(GT_I32, 29, 1, "truncate_a", NULL);
  check_transpose(GT_F32, 64, 32, "tiled_even", "32");
  /* 2- and 1-byte dtypes, odd shapes so rows share words. */
  check_transpose(GT_F16, 37, 23, NULL, NULL);
  check_transpose(GT_I16, 23, 37, "truncate_b", "8");
  check_transpose(GT_U16, 1, 29, "simple", NULL);
  check_transpose(GT_U8, 37, 23, NULL, NULL);
  check_transpose(GT_I8, 29, 1, "truncate_a", "16");
  check_transpose(GT_U8, 64, 32, "tiled_even", "32");
  check_transpose(GT_U8, 64, 36, NULL, NULL); /* AUTO's blocks of words only */
  check_transpose(GT_F16, 30, 18, NULL, NULL);

  /* A Fortran-order (r, c) file stores the C-order (c, r) matrix, which is
   * its transpose: the output's data is the input's as stored. */
  uint32_t stored[5 * 3];
  for (uint32_t i = 0; i < 15; i++)
    stored[i] = 0x9e3779b9u * (i + 1);
  write_raw("fort.npy", "{'descr': '<u4', 'fortran_order': True, 'shape': (5, 3), }", sizeof stored);
  {
    FILE *f = fopen(path_in_dir("fort.npy"), "r+b");
    if (f) {
      fseek(f, -(long)sizeof stored, SEEK_END);
      fwrite(stored, 1, sizeof stored, f);
      fclose(f);
    }
  }
  const char *args[] = {"transpose", path_in_dir("fort.npy"), "-o", path_in_dir("fort_t.npy"), NULL};
  CHECK_EQ_U(run(args), 0);
  npy_array out;
  if (read_matrix("fort_t.npy", &out)) {
    CHECK_EQ_U(out.rows, 3);
    CHECK_EQ_U(out.cols, 5);
    CHECK(memcmp(out.data, stored, sizeof stored) == 0);
    npy_free(&out);
  }
  unlink(path_in_dir("fort.npy"));
  unlink(path_in_dir("fort_t.npy"));
}

/* c = alpha op(a) op(b) + beta c0 against a double reference, within
 * 2 (K + 2) eps of the magnitude of the terms. */
static bool matmul_ok(const npy_array *a, const npy_array *b, const npy_array *c0, const npy_array *c,
                      bool ta, bool tb, double alpha, double beta) {
  uint32_t m = ta ? a->cols : a->rows, k = ta ? a->rows : a->cols, n = tb ? b->rows : b->cols;
  if (c->rows != m || c->cols != n || c->type != GT_F32) return false;
  const float *A = a->data, *B = b->data, *C = c->data, *C0 = c0 ? c0->data : NULL;
  for (uint32_t i = 0; i < m; i++)
    for (uint32_t j = 0; j < n; j++) {
      double sum = 0, mag = 0;
      for (uint32_t p = 0; p < k; p++) {
        double x = ta ? A[(size_t)p * m + i] : A[(size_t)i * k + p];
        double y = tb ? B[(size_t)j * k + p] : B[(size_t)p * n + j];
        sum += x * y;
        mag += fabs(x * y);
      }
      double want = alpha * sum, bound = fabs(alpha) * mag;
      if (C0) {
        want += beta * C0[(size_t)i * n + j];
        bound += fabs(beta * C0[(size_t)i * n + j]);
      }
      double e = fabs(C[(size_t)i * n + j] - want);
      if (!(e <= 2.0 * (k + 2) * FLT_EPSILON * bound)) {
        fprintf(stderr, "  c(%u, %u) = %.9g, want %.9g\n", i, j, C[(size_t)i * n + j], want);
        return false;
      }
    }
  return true;
}

/* Frees a matmul's arrays and removes its files. */
static void release_matmul_files(npy_array *a, npy_array *b, npy_array *c0, npy_array *c) {
  npy_free(a);
  npy_free(b);
  npy_free(c0);
  npy_free(c);
  unlink(path_in_dir("a.npy"));
  unlink(path_in_dir("b.npy"));
  unlink(path_in_dir("c0.npy"));
  unlink(path_in_dir("c.npy"));
}

/* M = 37, N = 19, K = 23; A and B stored transposed when asked. */
static void check_matmul(bool ta, bool tb, const char *alpha, const char *beta, bool with_c,
                         const char *strategy) {
  const uint32_t m = 37, n = 19, k = 23;
  write_matrix("a.npy", GT_F32, ta ? k : m, ta ? m : k, true, 11);
  write_matrix("b.npy", GT_F32, tb ? n : k, tb ? k : n, true, 22);
  if (with_c) write_matrix("c0.npy", GT_F32, m, n, true, 33);
  const char *args[20] = {"matmul", path_in_dir("a.npy"), path_in_dir("b.npy"), "-o", path_in_dir("c.npy")};
  int i = 5;
  if (ta) args[i++] = "--trans-a";
  if (tb) args[i++] = "--trans-b";
  if (alpha) {
    args[i++] = "--alpha";
    args[i++] = alpha;
  }
  if (beta) {
    args[i++] = "--beta";
    args[i++] = beta;
  }
  if (with_c) {
    args[i++] = "--c";
    args[i++] = path_in_dir("c0.npy");
  }
  if (strategy) {
    args[i++] = "--strategy";
    args[i++] = strategy;
  }
  args[i] = NULL;
  int rc = run(args);
  CHECK_EQ_U(rc, 0);
  CHECK(err_text[0] == '\0');
  if (rc) fprintf(stderr, "  matmul: %s", err_text);
  npy_array a, b, c0, c;
  memset(&c0, 0, sizeof c0);
  /* Every read runs (each zeroes its array on failure), so all can be freed. */
  bool read = read_matrix("a.npy", &a);
  read = read_matrix("b.npy", &b) && read;
  read = read_matrix("c.npy", &c) && read;
  if (with_c) read = read_matrix("c0.npy", &c0) && read;
  CHECK(read);
  /* Without --beta, --c adds C0 once. */
  double al = alpha ? atof(alpha) : 1.0, be = beta ? atof(beta) : 1.0;
  if (read) CHECK(matmul_ok(&a, &b, with_c ? &c0 : NULL, &c, ta, tb, al, be));
  release_matmul_files(&a, &b, &c0, &c);
}

/* matmul --batch: S = 3 products of M = 13, N = 6, K = 9, each operand a
 * stack or one matrix every product shares; every product against the
 * reference. */
static void check_batch(bool a_stacked, bool b_stacked, bool ta, int c0_kind /* 0 none, 1 2-D, 2 stack */) {
  const uint32_t s = 3, m = 13, n = 6, k = 9;
  write_stack("a.npy", GT_F32, a_stacked ? s : 0, ta ? k : m, ta ? m : k, true, 44);
  write_stack("b.npy", GT_F32, b_stacked ? s : 0, k, n, true, 55);
  if (c0_kind) write_stack("c0.npy", GT_F32, c0_kind == 2 ? s : 0, m, n, true, 66);
  const char *args[20] = {
      "matmul", path_in_dir("a.npy"), path_in_dir("b.npy"), "-o", path_in_dir("c.npy"), "--batch", "--alpha",
      "0.5"};
  int i = 8;
  if (ta) args[i++] = "--trans-a";
  if (c0_kind) {
    args[i++] = "--c";
    args[i++] = path_in_dir("c0.npy");
    args[i++] = "--beta";
    args[i++] = "-1.5";
  }
  args[i] = NULL;
  int rc = run(args);
  CHECK_EQ_U(rc, 0);
  if (rc) fprintf(stderr, "  matmul --batch: %s", err_text);
  npy_array a, b, c0, c;
  memset(&c0, 0, sizeof c0);
  char err[512];
  bool read = npy_read_stack(path_in_dir("a.npy"), &a, err, sizeof err) == 0;
  read = npy_read_stack(path_in_dir("b.npy"), &b, err, sizeof err) == 0 && read;
  read = npy_read_stack(path_in_dir("c.npy"), &c, err, sizeof err) == 0 && read;
  if (c0_kind) read = npy_read_stack(path_in_dir("c0.npy"), &c0, err, sizeof err) == 0 && read;
  CHECK(read);
  /* Products of 3 whenever an input is a stack, else a stack of 1. */
  uint32_t want = a_stacked || b_stacked || c0_kind == 2 ? s : 1;
  CHECK(c.stacked && c.count == want);
  for (uint32_t p = 0; read && c.stacked && p < c.count && p < want; p++) {
    npy_array ap = a, bp = b, cp = c, c0p = c0;
    ap.data = (float *)a.data + (a.stacked ? (size_t)p * a.rows * a.cols : 0);
    bp.data = (float *)b.data + (b.stacked ? (size_t)p * b.rows * b.cols : 0);
    cp.data = (float *)c.data + (size_t)p * m * n;
    c0p.data = (float *)c0.data + (c0.stacked ? (size_t)p * m * n : 0);
    if (!matmul_ok(&ap, &bp, c0_kind ? &c0p : NULL, &cp, ta, false, 0.5, -1.5)) {
      CHECK(!"a product of the batch");
      fprintf(stderr, "  product %u of a %d, b %d, ta %d, c0 %d\n", p, a_stacked, b_stacked, ta, c0_kind);
    }
  }
  release_matmul_files(&a, &b, &c0, &c);
}

static void test_batch(void) {
  check_batch(true, true, false, 0);
  check_batch(true, false, true, 1); /* shared weights b, C0 added to every product */
  check_batch(false, true, false, 2);
  check_batch(false, false, false, 0);
  /* Stacks that do not pair up, and a stack without --batch: refused, no output. */
  write_stack("a.npy", GT_F32, 3, 4, 5, true, 1);
  write_stack("b.npy", GT_F32, 2, 5, 6, true, 2);
  const char *bad[] = {
      "matmul", path_in_dir("a.npy"), path_in_dir("b.npy"), "-o", path_in_dir("c.npy"), "--batch", NULL};
  CHECK_EQ_U(run(bad), 1);
  CHECK(strstr(err_text, "do not pair up") != NULL);
  CHECK(!exists(path_in_dir("c.npy")));
  const char *flat[] = {"matmul", path_in_dir("a.npy"), path_in_dir("b.npy"),
                        "-o",     path_in_dir("c.npy"), NULL};
  CHECK_EQ_U(run(flat), 1);
  CHECK(strstr(err_text, "--batch") != NULL);
  CHECK(!exists(path_in_dir("c.npy")));
  unlink(path_in_dir("a.npy"));
  unlink(path_in_dir("b.npy"));
}

static void test_matmul_half(void);
static void test_matmul_epilogue(void);
static void test_matmul_quantized(void);

static void test_matmul(void) {
  check_matmul(false, false, NULL, NULL, false, NULL);
  check_matmul(true, false, NULL, NULL, false, NULL);
  check_matmul(false, true, NULL, NULL, false, "tiled_pad");
  check_matmul(true, true, NULL, NULL, false, "simple");
  check_matmul(false, false, "0.5", "-2", true, NULL);
  check_matmul(true, false, "-1.25", "0.75", true, "truncate_b");
  check_matmul(false, false, "2", NULL, false, NULL);
  check_matmul(false, false, NULL, NULL, true, NULL);
  test_matmul_half();
  test_matmul_epilogue();
  test_matmul_quantized();
}

static void check_fails(const char *const *args, int want, const char *names, const char *out);
static void write_half_ints(const char *name, uint32_t count, uint32_t rows, uint32_t cols, uint32_t seed);

/* A 1-D '<f4' file of n floats in [-1, 1]: shape (n,). */
static void write_vector(const char *name, uint32_t n, uint32_t seed) {
  char header[96];
  snprintf(header, sizeof header, "{'descr': '<f4', 'fortran_order': False, 'shape': (%u,), }", n);
  write_raw(name, header, 0);
  FILE *f = fopen(path_in_dir(name), "ab");
  for (uint32_t i = 0; f && i < n; i++) {
    float v = (float)((double)next_word(&seed) / 2147483648.0 - 1.0);
    fwrite(&v, 4, 1, f);
  }
  if (f) fclose(f);
}

/* `gltile matmul --bias --act`: a 1-D bias (one value per column) with
 * CLAMP, an (M, 1) bias (one per row) with RELU and --c, each against the
 * double reference; then the ways they fail. */
static void test_matmul_epilogue(void) {
  const uint32_t m = 21, n = 17, k = 30;
  write_matrix("ea.npy", GT_F32, m, k, true, 71);
  write_matrix("eb.npy", GT_F32, k, n, true, 72);
  write_matrix("ec0.npy", GT_F32, m, n, true, 73);
  write_vector("ecols.npy", n, 74);
  write_matrix("erows.npy", GT_F32, m, 1, true, 75);
  for (int per_row = 0; per_row < 2; per_row++) {
    const char *args[] = {"matmul",
                          path_in_dir("ea.npy"),
                          path_in_dir("eb.npy"),
                          "-o",
                          path_in_dir("ec.npy"),
                          "--bias",
                          path_in_dir(per_row ? "erows.npy" : "ecols.npy"),
                          "--act",
                          per_row ? "relu" : "clamp:-0.5,0.25",
                          per_row ? "--c" : NULL,
                          path_in_dir("ec0.npy"),
                          NULL};
    int rc = run(args);
    CHECK_EQ_U(rc, 0);
    if (rc) fprintf(stderr, "  matmul --bias: %s", err_text);
    npy_array a, b, c0, bias, c;
    char err[512];
    bool read = read_matrix("ea.npy", &a);
    read = read_matrix("eb.npy", &b) && read;
    read = read_matrix("ec0.npy", &c0) && read;
    read = npy_read_vector(path_in_dir(per_row ? "erows.npy" : "ecols.npy"), &bias, err, sizeof err) == 0 &&
           read;
    read = read_matrix("ec.npy", &c) && read;
    CHECK(read && c.rows == m && c.cols == n);
    unsigned bad = 0;
    for (uint32_t i = 0; read && c.rows == m && c.cols == n && i < m; i++)
      for (uint32_t j = 0; j < n; j++) {
        const float *A = a.data, *B = b.data, *C0 = c0.data, *BI = bias.data, *C = c.data;
        double sum = 0, mag = 0;
        for (uint32_t p = 0; p < k; p++) {
          sum += (double)A[i * k + p] * B[p * n + j];
          mag += fabs((double)A[i * k + p] * B[p * n + j]);
        }
        double add = BI[per_row ? i : j], old = per_row ? C0[i * n + j] : 0;
        double want = sum + old + add, bound = 2.0 * (k + 4) * FLT_EPSILON * (mag + fabs(old) + fabs(add));
        want = per_row ? (want < 0 ? 0 : want) : want < -0.5 ? -0.5 : want > 0.25 ? 0.25 : want;
        if (!(fabs(C[i * n + j] - want) <= bound) && bad++ < 3)
          fprintf(stderr, "  epilogue c(%u, %u) = %.9g, want %.9g\n", i, j, C[i * n + j], want);
      }
    CHECK_EQ_U(bad, 0);
    npy_free(&a), npy_free(&b), npy_free(&c0), npy_free(&bias), npy_free(&c);
    unlink(path_in_dir("ec.npy"));
  }
  char out[1024];
  snprintf(out, sizeof out, "%s", path_in_dir("ec.npy"));
  write_vector("elong.npy", n + 1, 76);
  write_half_ints("ehalf.npy", 0, 1, n, 77);
  const char *too_long[] = {
      "matmul", path_in_dir("ea.npy"), path_in_dir("eb.npy"), "-o", out, "--bias", path_in_dir("elong.npy"),
      NULL};
  check_fails(too_long, 1, "elong.npy", out);
  const char *half[] = {
      "matmul", path_in_dir("ea.npy"), path_in_dir("eb.npy"), "-o", out, "--bias", path_in_dir("ehalf.npy"),
      NULL};
  check_fails(half, 1, "ehalf.npy", out);
  const char *bad_act[] = {"matmul", path_in_dir("ea.npy"), path_in_dir("eb.npy"), "-o", out, "--act", "tanh",
                           NULL};
  check_fails(bad_act, 2, "tanh", out);
  const char *reversed[] = {
      "matmul", path_in_dir("ea.npy"), path_in_dir("eb.npy"), "-o", out, "--act", "clamp:1,0", NULL};
  check_fails(reversed, 2, "clamp:1,0", out);
  static const char *const names[] = {"ea.npy",    "eb.npy",    "ec0.npy",  "ecols.npy",
                                      "erows.npy", "elong.npy", "ehalf.npy"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    unlink(path_in_dir(names[i]));
}

/* `gltile matmul` on '|u1' files with --zero-points (an '<i4' C), on '|i1'
 * files with --trans-b and --requantize (an '|i1' C), each against the
 * integer reference; then the ways they fail. */
static void test_matmul_quantized(void) {
  const uint32_t m = 37, n = 29, k = 70;
  write_matrix("qa.npy", GT_U8, m, k, false, 81);
  write_matrix("qb.npy", GT_U8, k, n, false, 82);
  write_matrix("qai.npy", GT_I8, m, k, false, 83);
  write_matrix("qbi.npy", GT_I8, n, k, false, 84);
  bool atomics = device_has_atomics();
  for (int requantize = 0; requantize < 2; requantize++) {
    gt_quantization q = {.zero_a = 3, .zero_b = 200};
    if (requantize)
      q = (gt_quantization){.zero_a = -5, .zero_b = 7, .multiplier = 1500000000, .shift = -8, .zero_c = 4};
    const char *args[] = {"matmul",
                          path_in_dir(requantize ? "qai.npy" : "qa.npy"),
                          path_in_dir(requantize ? "qbi.npy" : "qb.npy"),
                          "-o",
                          path_in_dir("qc.npy"),
                          "--zero-points",
                          requantize ? "-5,7" : "3,200",
                          requantize ? "--trans-b" : NULL,
                          "--requantize",
                          "1500000000,-8,4",
                          NULL};
    if (requantize && !atomics) { /* an 8-bit c needs shader atomics */
      CHECK_EQ_U(run(args), 1);
      CHECK(strstr(err_text, "atomics") != NULL);
      continue;
    }
    int rc = run(args);
    CHECK_EQ_U(rc, 0);
    if (rc) fprintf(stderr, "  matmul --zero-points: %s", err_text);
    npy_array a, b, c;
    bool read = read_matrix(requantize ? "qai.npy" : "qa.npy", &a);
    read = read_matrix(requantize ? "qbi.npy" : "qb.npy", &b) && read;
    read = read_matrix("qc.npy", &c) && read;
    gt_type type = requantize ? GT_I8 : GT_U8;
    CHECK(read && c.rows == m && c.cols == n && c.type == (requantize ? GT_I8 : GT_I32));
    unsigned bad = 0;
    for (uint32_t i = 0; read && c.rows == m && c.cols == n && i < m; i++)
      for (uint32_t j = 0; j < n; j++) {
        int64_t sum = 0;
        for (uint32_t p = 0; p < k; p++)
          sum += (int64_t)(quantized_at(a.data, (size_t)i * k + p, type) - q.zero_a) *
                 (quantized_at(b.data, requantize ? (size_t)j * k + p : (size_t)p * n + j, type) - q.zero_b);
        int32_t want = requantize ? quantized_requantize((int32_t)sum, &q, type) : (int32_t)sum;
        int32_t got =
            requantize ? quantized_at(c.data, (size_t)i * n + j, type) : ((const int32_t *)c.data)[i * n + j];
        if (got != want && bad++ < 3)
          fprintf(stderr, "  quantised c(%u, %u) = %d, want %d\n", i, j, got, want);
      }
    CHECK_EQ_U(bad, 0);
    npy_free(&a), npy_free(&b), npy_free(&c);
    unlink(path_in_dir("qc.npy"));
  }
  char out[1024];
  snprintf(out, sizeof out, "%s", path_in_dir("qc.npy"));
  write_matrix("qf.npy", GT_F32, k, n, true, 85);
  const char *range[] = {
      "matmul", path_in_dir("qa.npy"), path_in_dir("qb.npy"), "-o", out, "--zero-points", "300,0", NULL};
  check_fails(range, 1, "qa.npy", out);
  const char *mixed[] = {"matmul", path_in_dir("qa.npy"), path_in_dir("qf.npy"), "-o", out, NULL};
  check_fails(mixed, 1, "qf.npy", out);
  const char *scaled[] = {"matmul", path_in_dir("qa.npy"), path_in_dir("qb.npy"), "-o", out, "--alpha", "2",
                          NULL};
  check_fails(scaled, 1, "--alpha", out);
  const char *floats[] = {"matmul", path_in_dir("qf.npy"), path_in_dir("qf.npy"), "-o",
                          out,      "--trans-a",           "--zero-points",       "1,2",
                          NULL};
  check_fails(floats, 1, "--zero-points", out);
  const char *syntax[] = {
      "matmul", path_in_dir("qa.npy"), path_in_dir("qb.npy"), "-o", out, "--requantize", "1,2", NULL};
  check_fails(syntax, 2, "--requantize", out);
  static const char *const names[] = {"qa.npy", "qb.npy", "qai.npy", "qbi.npy", "qf.npy"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    unlink(path_in_dir(names[i]));
}

/* Writes a rows x cols '<f2' file of small integers (exact as halves, and
 * their products' sums exact in f16 and f32 below 2048); a stack of
 * `count` such matrices where count > 0; seed 0: every element 1. */
static void write_half_ints(const char *name, uint32_t count, uint32_t rows, uint32_t cols, uint32_t seed) {
  npy_array a;
  char err[512];
  memset(&a, 0, sizeof a);
  a.type = GT_F16;
  a.rows = rows;
  a.cols = cols;
  a.stacked = count > 0;
  a.count = count ? count : 1;
  size_t total = (size_t)a.count * rows * cols;
  uint16_t *h = malloc(total * 2);
  static const uint16_t ints[5] = {0xC000, 0xBC00, 0x0000, 0x3C00, 0x4000}; /* -2 .. 2 */
  for (size_t i = 0; h && i < total; i++)
    h[i] = seed ? ints[next_word(&seed) % 5] : 0x3C00;
  a.data = h;
  if (npy_write(path_in_dir(name), &a, err, sizeof err)) fprintf(stderr, "%s\n", err);
  free(h);
}

static double half_int(uint16_t h) { return h == 0xC000 ? -2 : h == 0xBC00 ? -1 : h == 0x3C00 ? 1 : h == 0x4000 ? 2 : 0; }

/* `gltile matmul` on '<f2' files, C as f16 (default) and f32: exact. */
static void test_matmul_half(void) {
  const uint32_t m = 13, n = 9, k = 23;
  write_half_ints("ha.npy", 0, m, k, 5);
  write_half_ints("hb.npy", 0, k, n, 6);
  bool atomics = device_has_atomics(); /* before any run: it runs gltile info */
  for (int out32 = 0; out32 < 2; out32++) {
    const char *args[] = {"matmul", path_in_dir("ha.npy"), path_in_dir("hb.npy"), "-o", path_in_dir("hc.npy"),
                          out32 ? "--out-type" : NULL, "f32", NULL};
    if (!out32 && !atomics) { /* a half c needs shader atomics */
      CHECK_EQ_U(run(args), 1);
      CHECK(strstr(err_text, "atomics") != NULL);
      continue;
    }
    CHECK_EQ_U(run(args), 0);
    npy_array a, b, c;
    bool read = read_matrix("ha.npy", &a);
    read = read_matrix("hb.npy", &b) && read;
    read = read_matrix("hc.npy", &c) && read;
    CHECK(read && c.type == (out32 ? GT_F32 : GT_F16) && c.rows == m && c.cols == n);
    bool exact = read && c.rows == m && c.cols == n;
    for (uint32_t i = 0; exact && i < m; i++)
      for (uint32_t j = 0; j < n; j++) {
        double want = 0;
        for (uint32_t kk = 0; kk < k; kk++)
          want += half_int(((uint16_t *)a.data)[i * k + kk]) * half_int(((uint16_t *)b.data)[kk * n + j]);
        double got;
        if (out32) {
          got = ((float *)c.data)[i * n + j];
        } else { /* an integer below 2048: sign, exponent, mantissa */
          uint16_t h = ((uint16_t *)c.data)[i * n + j];
          int e = (h >> 10) & 31;
          got = e ? ldexp(1024 + (h & 1023), e - 25) : 0;
          if (h & 0x8000) got = -got;
        }
        exact = exact && got == want;
      }
    CHECK(exact);
    npy_free(&a);
    npy_free(&b);
    npy_free(&c);
  }
  /* --batch: a stack of 3 a's times the one b, C a stack of f32. */
  write_half_ints("hs.npy", 3, m, k, 7);
  const char *batch_args[] = {"matmul",
                              path_in_dir("hs.npy"),
                              path_in_dir("hb.npy"),
                              "-o",
                              path_in_dir("hsc.npy"),
                              "--batch",
                              "--out-type",
                              "f32",
                              NULL};
  CHECK_EQ_U(run(batch_args), 0);
  npy_array sa, sb, sc;
  char err[512];
  bool read = npy_read_stack(path_in_dir("hs.npy"), &sa, err, sizeof err) == 0;
  read = npy_read_stack(path_in_dir("hb.npy"), &sb, err, sizeof err) == 0 && read;
  read = npy_read_stack(path_in_dir("hsc.npy"), &sc, err, sizeof err) == 0 && read;
  bool exact = read && sc.type == GT_F32 && sc.stacked && sc.count == 3 && sc.rows == m && sc.cols == n;
  for (uint32_t p = 0; exact && p < 3; p++)
    for (uint32_t i = 0; i < m; i++)
      for (uint32_t j = 0; j < n; j++) {
        double want = 0;
        for (uint32_t kk = 0; kk < k; kk++)
          want += half_int(((uint16_t *)sa.data)[(p * m + i) * k + kk]) *
                  half_int(((uint16_t *)sb.data)[kk * n + j]);
        exact = exact && ((float *)sc.data)[(p * m + i) * n + j] == want;
      }
  CHECK(exact);
  npy_free(&sa); /* a failed read leaves its array empty */
  npy_free(&sb);
  npy_free(&sc);
  unlink(path_in_dir("hs.npy"));
  unlink(path_in_dir("hsc.npy"));
  /* --precision half: 3000 ones summed in half stop at 2048 (2049 is
   * not a half), in f32 they reach 3000; on float inputs it is refused. */
  write_half_ints("h1.npy", 0, 1, 3000, 0);
  write_half_ints("h2.npy", 0, 3000, 1, 0);
  for (int half = 0; half < 2; half++) {
    const char *ones[] = {
        "matmul", path_in_dir("h1.npy"), path_in_dir("h2.npy"),   "-o", path_in_dir("h3.npy"), "--out-type",
        "f32",    "--precision",         half ? "half" : "float", NULL};
    CHECK_EQ_U(run(ones), 0);
    npy_array one;
    bool got = read_matrix("h3.npy", &one) && one.type == GT_F32 && one.rows == 1 && one.cols == 1;
    CHECK(got && *(float *)one.data == (half ? 2048.0f : 3000.0f));
    npy_free(&one);
    unlink(path_in_dir("h3.npy"));
  }
  unlink(path_in_dir("h1.npy"));
  unlink(path_in_dir("h2.npy"));
  unlink(path_in_dir("h3.npy"));
  /* f16 C from f32 inputs: refused, naming the input. */
  write_matrix("fa.npy", GT_F32, 3, 3, true, 1);
  const char *bad[] = {"matmul", path_in_dir("fa.npy"), path_in_dir("fa.npy"), "-o", path_in_dir("hc2.npy"),
                       "--out-type", "f16", NULL};
  check_fails(bad, 1, "fa.npy", path_in_dir("hc2.npy"));
  const char *mixed[] = {"matmul", path_in_dir("fa.npy"), path_in_dir("hb.npy"), "-o", path_in_dir("hc2.npy"), NULL};
  check_fails(mixed, 1, "hb.npy", path_in_dir("hc2.npy"));
  const char *floats[] = {"matmul",
                          path_in_dir("fa.npy"),
                          path_in_dir("fa.npy"),
                          "-o",
                          path_in_dir("hc2.npy"),
                          "--precision",
                          "half",
                          NULL};
  check_fails(floats, 1, "--precision", path_in_dir("hc2.npy"));
  const char *unknown[] = {"matmul",
                           path_in_dir("ha.npy"),
                           path_in_dir("hb.npy"),
                           "-o",
                           path_in_dir("hc2.npy"),
                           "--precision",
                           "quarter",
                           NULL};
  check_fails(unknown, 2, "--precision", path_in_dir("hc2.npy"));
  unlink(path_in_dir("ha.npy"));
  unlink(path_in_dir("hb.npy"));
  unlink(path_in_dir("hc.npy"));
  unlink(path_in_dir("fa.npy"));
}

/* A command that must fail with status want, name `names` in its message,
 * and leave no output (nor any temporary) behind. */
static void check_fails(const char *const *args, int want, const char *names, const char *out) {
  int rc = run(args);
  CHECK_EQ_U(rc, want);
  CHECK(err_text[0] != '\0');
  if (names) CHECK(strstr(err_text, names) != NULL);
  CHECK(!exists(out));
  CHECK_EQ_U(count_temporaries(), 0);
  if (getenv("GT_TEST_VERBOSE")) printf("  rc %d: %s", rc, err_text);
}

static void test_failures(void) {
  /* Copied: path_in_dir's buffers are reused. */
  char out[1024], d[1024];
  snprintf(out, sizeof out, "%s", path_in_dir("fail.npy"));
  snprintf(d, sizeof d, "%s", path_in_dir("outdir.npy"));
  write_raw("f8.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }", 96);
  write_raw("vec.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (12,), }", 48);
  write_raw("cut.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", 47);
  write_matrix("i4.npy", GT_I32, 3, 4, false, 1);
  write_matrix("a34.npy", GT_F32, 3, 4, true, 2);
  write_matrix("b54.npy", GT_F32, 5, 4, true, 3);
  write_matrix("b45.npy", GT_F32, 4, 5, true, 4);
  write_matrix("c33.npy", GT_F32, 3, 3, true, 5);

  const char *t_f8[] = {"transpose", path_in_dir("f8.npy"), "-o", out, NULL};
  check_fails(t_f8, 1, "f8.npy", out);
  const char *t_vec[] = {"transpose", path_in_dir("vec.npy"), "-o", out, NULL};
  check_fails(t_vec, 1, "vec.npy", out);
  const char *t_cut[] = {"transpose", path_in_dir("cut.npy"), "-o", out, NULL};
  check_fails(t_cut, 1, "cut.npy", out);
  const char *t_none[] = {"transpose", path_in_dir("none.npy"), "-o", out, NULL};
  check_fails(t_none, 1, "none.npy", out);
  const char *m_i4[] = {"matmul", path_in_dir("i4.npy"), path_in_dir("b45.npy"), "-o", out, NULL};
  check_fails(m_i4, 1, "i4.npy", out);
  const char *m_f8[] = {"matmul", path_in_dir("a34.npy"), path_in_dir("f8.npy"), "-o", out, NULL};
  check_fails(m_f8, 1, "f8.npy", out);
  const char *m_inner[] = {"matmul", path_in_dir("a34.npy"), path_in_dir("b54.npy"), "-o", out, NULL};
  check_fails(m_inner, 1, "b54.npy", out);
  const char *m_cshape[] = {
      "matmul", path_in_dir("a34.npy"), path_in_dir("b45.npy"), "-o", out, "--c", path_in_dir("c33.npy"),
      NULL};
  check_fails(m_cshape, 1, "c33.npy", out);
  /* The device refuses: TILED_EVEN on 3 x 4 with a tile of 8. */
  const char *t_even[] = {"transpose", path_in_dir("a34.npy"), "-o", out, "--strategy", "tiled_even", NULL};
  check_fails(t_even, 1, "a34.npy", out);

  /* Usage errors: status 2. */
  const char *m_beta[] = {"matmul", path_in_dir("a34.npy"), path_in_dir("b45.npy"), "-o", out, "--beta", "2",
                          NULL};
  check_fails(m_beta, 2, "--c", out);
  const char *t_no_o[] = {"transpose", path_in_dir("a34.npy"), NULL};
  check_fails(t_no_o, 2, "-o", out);
  const char *t_tile[] = {"transpose", path_in_dir("a34.npy"), "-o", out, "--tile", "12", NULL};
  check_fails(t_tile, 2, "12", out);
  const char *m_trunc[] = {"matmul", path_in_dir("a34.npy"), path_in_dir("b45.npy"), "-o",
                           out,      "--strategy",           "truncate_a",           NULL};
  check_fails(m_trunc, 2, "truncate_a", out);
  const char *m_alpha[] = {
      "matmul", path_in_dir("a34.npy"), path_in_dir("b45.npy"), "-o", out, "--alpha", "x", NULL};
  check_fails(m_alpha, 2, "--alpha", out);

  /* The rename fails after the data was written (-o names a directory):
   * the temporary goes, the directory stays. */
  CHECK(mkdir(d, 0700) == 0);
  const char *t_dir[] = {"transpose", path_in_dir("a34.npy"), "-o", d, NULL};
  CHECK_EQ_U(run(t_dir), 1);
  CHECK(strstr(err_text, "outdir.npy") != NULL);
  CHECK_EQ_U(count_temporaries(), 0);
  struct stat st;
  CHECK(stat(d, &st) == 0 && S_ISDIR(st.st_mode));
  rmdir(d);

  /* A failing command leaves an existing output as it was. */
  write_matrix("keep.npy", GT_U32, 2, 2, false, 9);
  npy_array before, after;
  CHECK(read_matrix("keep.npy", &before));
  const char *t_keep[] = {"transpose", path_in_dir("f8.npy"), "-o", path_in_dir("keep.npy"), NULL};
  CHECK_EQ_U(run(t_keep), 1);
  CHECK(read_matrix("keep.npy", &after));
  CHECK(before.data && after.data && after.rows == 2 && memcmp(before.data, after.data, 16) == 0);
  npy_free(&before);
  npy_free(&after);
  CHECK_EQ_U(count_temporaries(), 0);
}

/* The whole of a file, malloc'd; NULL when it cannot be read. */
static unsigned char *file_bytes(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  unsigned char *data = NULL;
  size_t used = 0, cap = 0;
  for (;;) {
    if (used == cap) {
      cap = cap ? 2 * cap : 4096;
      unsigned char *more = realloc(data, cap);
      if (more == NULL) break;
      data = more;
    }
    size_t got = fread(data + used, 1, cap - used, f);
    used += got;
    if (got == 0) break;
  }
  fclose(f);
  *size = used;
  return data;
}

static bool same_bytes(const char *a, const char *b) {
  size_t na = 0, nb = 0;
  unsigned char *da = file_bytes(a, &na), *db = file_bytes(b, &nb);
  bool same = da && db && na == nb && memcmp(da, db, na) == 0;
  free(da);
  free(db);
  return same;
}

static mode_t kind_of(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : 0;
}

/* -o takes what is there as it is: a FIFO and a character device are
 * written through and stay what they were, a symlink is followed as cp
 * follows it (a dangling one is refused), an existing file is replaced
 * with its permission bits kept, and a block device is refused untouched.
 * The devices are nodes of the test's own, made where the test may (as
 * root, on a file system that allows devices); never the system's. */
static void test_output_kinds(void) {
  char in[1024], ref[1024];
  snprintf(in, sizeof in, "%s", path_in_dir("k_in.npy"));
  snprintf(ref, sizeof ref, "%s", path_in_dir("k_ref.npy"));
  write_matrix("k_in.npy", GT_U32, 5, 3, false, 77);
  const char *to_ref[] = {"transpose", in, "-o", ref, NULL};
  CHECK_EQ_U(run(to_ref), 0);

  /* A FIFO, read by a child as gltile writes. */
  char fifo[1024], copy[1024];
  snprintf(fifo, sizeof fifo, "%s", path_in_dir("k_fifo"));
  snprintf(copy, sizeof copy, "%s", path_in_dir("k_fifo_copy.npy"));
  CHECK(mkfifo(fifo, 0600) == 0);
  fflush(NULL);
  pid_t reader = fork();
  if (reader == 0) {
    alarm(60);
    int from = open(fifo, O_RDONLY), to = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    char buf[4096];
    ssize_t got;
    while (from >= 0 && to >= 0 && (got = read(from, buf, sizeof buf)) > 0)
      if (write(to, buf, (size_t)got) != got) _exit(1);
    _exit(from >= 0 && to >= 0 ? 0 : 1);
  }
  const char *to_fifo[] = {"transpose", in, "-o", fifo, NULL};
  CHECK_EQ_U(run(to_fifo), 0);
  CHECK(kind_of(fifo) == S_IFIFO);
  /* A FIFO replaced by a file is never opened: the reader would wait. */
  if (kind_of(fifo) != S_IFIFO && reader > 0) kill(reader, SIGKILL);
  int status = 0;
  if (reader > 0) waitpid(reader, &status, 0);
  CHECK(same_bytes(copy, ref));
  CHECK_EQ_U(count_temporaries(), 0);
  unlink(fifo);
  unlink(copy);

  /* A character device: a null device of the test's own. */
  struct stat null_st;
  char dev[1024];
  snprintf(dev, sizeof dev, "%s", path_in_dir("k_null"));
  int fd = -1;
  bool have_null = stat("/dev/null", &null_st) == 0;
  if (have_null && mknod(dev, S_IFCHR | 0600, null_st.st_rdev) == 0 && (fd = open(dev, O_WRONLY)) >= 0) {
    close(fd);
    const char *to_dev[] = {"transpose", in, "-o", dev, NULL};
    CHECK_EQ_U(run(to_dev), 0);
    CHECK(kind_of(dev) == S_IFCHR);
    CHECK_EQ_U(count_temporaries(), 0);
  } else {
    printf("test_cli: no device node of its own here (not root, or nodev): -o on a character device not run\n");
  }
  unlink(dev);
  /* A block device is refused before anything is written: never opened. */
  if (have_null && mknod(dev, S_IFBLK | 0600, null_st.st_rdev) == 0) {
    const char *to_block[] = {"transpose", in, "-o", dev, NULL};
    CHECK_EQ_U(run(to_block), 1);
    CHECK(strstr(err_text, "k_null") != NULL);
    CHECK(kind_of(dev) == S_IFBLK);
    CHECK_EQ_U(count_temporaries(), 0);
    unlink(dev);
  }

  /* A symlink to a file: the file takes the result, the link stays. */
  char target[1024], link[1024];
  snprintf(target, sizeof target, "%s", path_in_dir("k_target.npy"));
  snprintf(link, sizeof link, "%s", path_in_dir("k_link.npy"));
  write_matrix("k_target.npy", GT_F32, 2, 2, false, 5);
  CHECK(symlink("k_target.npy", link) == 0);
  const char *to_link[] = {"transpose", in, "-o", link, NULL};
  CHECK_EQ_U(run(to_link), 0);
  CHECK(kind_of(link) == S_IFLNK);
  CHECK(kind_of(target) == S_IFREG);
  CHECK(same_bytes(target, ref));
  CHECK_EQ_U(count_temporaries(), 0);
  unlink(link);
  unlink(target);
  /* A dangling symlink: refused, as cp refuses it; nothing made. */
  CHECK(symlink("k_nowhere.npy", link) == 0);
  CHECK_EQ_U(run(to_link), 1);
  CHECK(strstr(err_text, "k_link.npy") != NULL);
  CHECK(kind_of(link) == S_IFLNK);
  CHECK(!exists(path_in_dir("k_nowhere.npy")));
  CHECK_EQ_U(count_temporaries(), 0);
  unlink(link);

  /* A file made private stays private. */
  char private_file[1024];
  snprintf(private_file, sizeof private_file, "%s", path_in_dir("k_private.npy"));
  write_matrix("k_private.npy", GT_F32, 2, 2, false, 6);
  CHECK(chmod(private_file, 0600) == 0);
  mode_t mask = umask(022);
  const char *to_private[] = {"transpose", in, "-o", private_file, NULL};
  CHECK_EQ_U(run(to_private), 0);
  umask(mask);
  struct stat st;
  CHECK(stat(private_file, &st) == 0 && (st.st_mode & 0777) == 0600);
  CHECK(same_bytes(private_file, ref));
  unlink(private_file);
  unlink(in);
  unlink(ref);
}

/* SIGTERM and SIGINT while the output is being made remove its temporary.
 * The input is a FIFO nobody writes, so gltile waits on it with its output
 * already prepared (the temporary is made before any input is read, so
 * that an -o it cannot write is found before the work): the signal comes
 * at a known point. Not under an emulator, which may keep the signal. */
static void test_signals(void) {
  if (emulator) return;
  char in[1024], out[1024];
  snprintf(in, sizeof in, "%s", path_in_dir("s_in.npy"));
  snprintf(out, sizeof out, "%s", path_in_dir("s_out.npy"));
  CHECK(mkfifo(in, 0600) == 0);
  static const int signals[] = {SIGTERM, SIGINT};
  for (int i = 0; i < 2; i++) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
      /* The signals' default actions, whatever this process inherited. */
      signal(SIGTERM, SIG_DFL);
      signal(SIGINT, SIG_DFL);
      int o = open(path_in_dir("out.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (o < 0 || dup2(o, 1) < 0 || dup2(o, 2) < 0) _exit(126);
      execl(gltile, gltile, "transpose", in, "-o", out, (char *)NULL);
      _exit(127);
    }
    bool prepared = false;
    for (int t = 0; t < 2000 && !prepared; t++) {
      prepared = count_temporaries() > 0;
      if (!prepared) nanosleep(&(struct timespec){0, 5000000}, NULL);
    }
    CHECK(prepared);
    if (pid > 0) kill(pid, signals[i]);
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == signals[i]);
    CHECK_EQ_U(count_temporaries(), 0);
    CHECK(!exists(out));
  }
  unlink(in);
}

/* info names the device-table entry; tune, bench --op calls and --op
 * arith run and print what they promise (not under an emulator: they time for seconds). */
static void test_info_tune_calls(void) {
  const char *info[] = {"info", NULL};
  CHECK_EQ_U(run(info), 0);
  CHECK(last_stdout_contains("device table entry"));
  CHECK(last_stdout_contains("matmul per dispatch"));
  CHECK(last_stdout_contains("reset notification:"));
  /* The packHalf2x16 probe ran: IEEE or not, never unknown. */
  CHECK(last_stdout_contains("packHalf2x16:") && !last_stdout_contains("its probe did not run"));
  /* The texels kernel asked for: named where the context offers it
   * (ES 3.2), else refused at init (exit 1). */
  const char *texels[] = {"info", "--matmul-kernel", "texels", NULL};
  int texels_rc = run(texels);
  CHECK(texels_rc == 0 ? last_stdout_contains("a and b as texels") : texels_rc == 1);
  if (emulator) return;
  const char *tune[] = {"tune", "--reps", "1", NULL};
  CHECK_EQ_U(run(tune), 0);
  CHECK(last_stdout_contains("entry for src/plan/device_table.c"));
  CHECK(last_stdout_contains("GT_MATMUL_KERNEL_"));
  CHECK(last_stdout_contains(".half_is_faster = "));
  CHECK(last_stdout_contains(".pack_half_ieee = "));
  const char *calls[] = {"bench", "--op", "calls", NULL};
  CHECK_EQ_U(run(calls), 0);
  CHECK(last_stdout_contains("us of CPU per call"));
  /* Every precision offered is measured: highp and mediump everywhere. */
  const char *arith[] = {"bench", "--op", "arith", "--reps", "1", NULL};
  CHECK_EQ_U(run(arith), 0);
  CHECK(last_stdout_contains("highp float"));
  CHECK(last_stdout_contains("mediump float"));
  CHECK(!last_stdout_contains("not measured"));
  CHECK(last_stdout_contains("half sums "));
}

/* The bench's comparison columns: of peak with --peak-gbs (the copy of a
 * 64x64 f32 matrix moves 32 KB, so at 1 GB/s given it shows far more than
 * 0%), and the matmul peers: CLBlast named as run or not run, and a peer
 * that did not run shown as '-', never 0.0%. */
static void test_bench_columns(void) {
  const char *transpose[] = {"bench", "--op", "transpose", "--sizes", "64", "--reps", "1", "--strategy", "simple",
                             "--peak-gbs", "1", NULL};
  CHECK_EQ_U(run(transpose), 0);
  CHECK(last_stdout_contains("of peak"));
  CHECK(!last_stdout_contains(" 0.0%"));
  const char *matmul[] = {"bench", "--op", "matmul", "--sizes", "16", "--reps", "1", "--strategy", "simple", NULL};
  CHECK_EQ_U(run(matmul), 0);
  CHECK(last_stdout_contains("matmul peer: CLBlast"));
  CHECK(last_stdout_contains("of clblast"));
  CHECK(!last_stdout_contains(" 0.0%"));
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_cli PATH_TO_GLTILE [EMULATOR]\n");
    return 1;
  }
  gltile = argv[1];
  emulator = argc > 2 && argv[2][0] ? argv[2] : NULL;
  if (!scratch_make("gltile_cli")) return 1;
  /* gltile exits 1 when it cannot open a context; any other failure of
   * `gltile info` (a crash, a sanitizer's abort) fails the test. */
  const char *info[] = {"info", NULL};
  int info_rc = run(info);
  if (info_rc == 1) {
    printf("gltile info failed, no OpenGL ES 3.1 context: skipped\n%s", err_text);
    remove_dir();
    return 77;
  }
  if (info_rc != 0) {
    fprintf(stderr, "gltile info: exit %d\n%s", info_rc, err_text);
    remove_dir();
    return 1;
  }
  test_help();
  test_info_tune_calls();
  test_bench_columns();
  test_transpose();
  test_matmul();
  test_batch();
  test_failures();
  test_output_kinds();
  test_signals();
  remove_dir();
  return CHECK_SUMMARY();
}
