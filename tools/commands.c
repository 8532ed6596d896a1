/* `gltile transpose` and `gltile matmul`: the library's two operations on
 * .npy files. The output is prepared first (output_open: an -o that
 * cannot be written is reported before any work, and its temporary
 * exists from then on, removed on every error and on SIGINT, SIGTERM and
 * SIGHUP), then every input is read and checked before a GL context is
 * opened, so a bad file is reported without waiting for the device, and
 * the result is written only after the device work succeeded (it appears
 * complete or not at all). */
/* isatty is POSIX, not C99. */
#define _POSIX_C_SOURCE 200809L

#include "commands.h"

#include "npy.h"
#include "tool.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char transpose_usage[] =
    "usage: gltile transpose IN.npy -o OUT.npy [--strategy NAME] [--tile N]\n"
    "\n"
    "Transposes a 2-D matrix on the GPU: OUT is IN's transpose, bit for bit.\n"
    "IN holds little-endian float32, int32 or uint32 ('<f4', '<i4', '<u4'), float16,\n"
    "int16 or uint16 ('<f2', '<i2', '<u2'), int8 or uint8 ('|i1', '|u1'), in C or\n"
    "Fortran order, in .npy format 1.0, 2.0 or 3.0. OUT has IN's dtype, C order,\n"
    "format 1.0; it is written under a temporary name next to it, removed on any\n"
    "error and on SIGINT, SIGTERM or SIGHUP, and appears only when complete.\n"
    "\n"
    "options:\n"
    "  -o FILE          the output file (required): a file there is replaced whole,\n"
    "                   keeping its permission bits; a FIFO or character device is\n"
    "                   written through; a symlink is followed, as cp follows it (a\n"
    "                   dangling one is refused); a directory, block device or\n"
    "                   socket is refused\n"
    "  --strategy NAME  simple, tiled_even, tiled_pad, truncate_a, truncate_b or\n"
    "                   auto (default)\n"
    "  --tile N         8, 16 or 32 (default: chosen from the device limits)\n"
    "  --help           this text\n"
    "\n"
    "exit status: 0 done, 1 a file, device or gltile error, 2 a usage error\n";

static const char matmul_usage[] =
    "usage: gltile matmul A.npy B.npy -o C.npy [--trans-a] [--trans-b] [--batch]\n"
    "                     [--alpha X] [--beta Y --c C0.npy] [--strategy NAME]\n"
    "                     [--bias BIAS.npy] [--act relu|clamp:LO,HI]\n"
    "                     [--zero-points ZA,ZB] [--requantize M,S,ZC]\n"
    "                     [--precision float|half|half-if-faster]\n"
    "\n"
    "Multiplies matrices on the GPU: C = alpha op(A) op(B) + beta C0, or\n"
    "C = op(A) op(B) without --alpha, --beta and --c. op(X) is X, or its transpose\n"
    "with --trans-a / --trans-b; op(A) is M x K, op(B) K x N, C and C0 M x N.\n"
    "--bias and --act add a bias and apply an activation to that, in the same pass:\n"
    "C = act(alpha op(A) op(B) + beta C0 + BIAS).\n"
    "A and B are both little-endian float32 ('<f4') or both float16 ('<f2', summed\n"
    "in float32 but for --precision), in C or Fortran order, .npy format 1.0, 2.0 or 3.0. Or A and B are\n"
    "both uint8 ('|u1') or both int8 ('|i1'), a quantised product: C ('<i4') is\n"
    "(A - ZA)(B - ZB) summed exactly in 32-bit integers, or with --requantize C\n"
    "holds the inputs' type. C is written in C order, format 1.0, under a\n"
    "temporary name next to it, removed on any error and on SIGINT, SIGTERM or\n"
    "SIGHUP, and appears only when complete.\n"
    "\n"
    "options:\n"
    "  -o FILE          the output file (required): a file there is replaced whole,\n"
    "                   keeping its permission bits; a FIFO or character device is\n"
    "                   written through; a symlink is followed, as cp follows it (a\n"
    "                   dangling one is refused); a directory, block device or\n"
    "                   socket is refused\n"
    "  --trans-a        use A's transpose (A is then K x M)\n"
    "  --trans-b        use B's transpose (B is then N x K)\n"
    "  --batch          3-D inputs are stacks of matrices, multiplied pair by pair\n"
    "                   in one call (gt_matmul_batched): A (S, M, K) or (M, K),\n"
    "                   B (S, K, N) or (K, N), C0 (S, M, N) or (M, N); a 2-D operand\n"
    "                   serves every product. C is (S, M, N), S = 1 when no input\n"
    "                   is 3-D\n"
    "  --alpha X        scale the product (default 1)\n"
    "  --beta Y         scale C0; needs --c (default 1 when --c is given)\n"
    "  --c FILE         C0, the matrix added to the product\n"
    "  --strategy NAME  simple, tiled_even, tiled_pad, truncate_b or auto (default)\n"
    "  --bias FILE      float32 ('<f4'): shape (N,) or (1, N), one value per column\n"
    "                   of C; or (M, 1), one per row; every product of a batch\n"
    "                   adds the same\n"
    "  --act A          relu (negative results become 0) or clamp:LO,HI (results\n"
    "                   clamped to [LO, HI], LO <= HI)\n"
    "  --out-type T     f32 or f16: C's dtype (default the inputs'; f16 needs '<f2'\n"
    "                   inputs); C0 must have it too\n"
    "  --zero-points ZA,ZB  8-bit inputs: the zero points subtracted from A and B\n"
    "                   (default 0,0), each in the inputs' range\n"
    "  --requantize M,S,ZC  8-bit inputs: C in the inputs' type, each sum times\n"
    "                   M 2^(S - 31) rounded as TFLite does, plus ZC, saturated\n"
    "                   (M 1..2^31 - 1, S -31..30)\n"
    "  --precision P    float16 inputs: where the sums run: float (float32, the\n"
    "                   default), half (half precision on every device, far less\n"
    "                   exact; a sum past 65504 becomes infinite) or half-if-faster\n"
    "                   (half where the device table says half is faster)\n"
    "  --help           this text\n"
    "\n"
    "exit status: 0 done, 1 a file, device or gltile error, 2 a usage error\n";

typedef struct cmd_options {
  const char *inputs[2];
  int input_count;
  const char *out, *c, *bias;
  gt_activation act; /* matmul */
  float act_lo, act_hi;
  gt_strategy strategy;
  uint32_t tile;
  bool trans_a, trans_b, alpha_set, beta_set;
  bool batch;       /* matmul: 3-D inputs are stacks */
  gt_type out_type; /* matmul: C's type; 0 = the inputs' */
  float alpha, beta;
  gt_quantization quant; /* matmul on 8-bit inputs */
  gt_precision precision; /* matmul on half inputs */
  bool quant_set, requantize;
} cmd_options;

/* The message, the usage line and where the rest is: the whole text would
 * bury the message. */
static int usage_error(const char *usage, const char *fmt, ...) {
  va_list ap;
  fputs("gltile: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  const char *end = strstr(usage, "\n\n");
  const char *cmd = usage == matmul_usage ? "matmul" : "transpose";
  fprintf(stderr, "\n%.*s\n(gltile %s --help for more)\n", (int)(end - usage), usage, cmd);
  return 2;
}

static int parse_strategy(const char *v, bool matmul, gt_strategy *out) {
  for (int s = GT_STRATEGY_AUTO; s <= GT_STRATEGY_TRUNCATE_B; s++)
    if (strcmp(v, gt_strategy_name((gt_strategy)s)) == 0) {
      /* gt_matmul refuses TRUNCATE_A; say so before reading any file. */
      if (matmul && s == GT_STRATEGY_TRUNCATE_A) return 1;
      *out = (gt_strategy)s;
      return 0;
    }
  return 1;
}

/* A finite float, the whole string. */
static int parse_float(const char *s, float *out) {
  char *end;
  if (*s == '\0') return 1;
  float v = strtof(s, &end);
  if (*end != '\0' || !isfinite(v)) return 1;
  *out = v;
  return 0;
}

/* relu, or clamp:LO,HI with finite LO <= HI. */
static int parse_act(const char *v, cmd_options *o) {
  if (strcmp(v, "relu") == 0) {
    o->act = GT_ACTIVATION_RELU;
    return 0;
  }
  if (strncmp(v, "clamp:", 6) != 0) return 1;
  char lo[64];
  const char *comma = strchr(v + 6, ',');
  size_t len = comma ? (size_t)(comma - (v + 6)) : 0;
  if (comma == NULL || len >= sizeof lo) return 1;
  memcpy(lo, v + 6, len);
  lo[len] = '\0';
  if (parse_float(lo, &o->act_lo) || parse_float(comma + 1, &o->act_hi) || o->act_lo > o->act_hi) return 1;
  o->act = GT_ACTIVATION_CLAMP;
  return 0;
}

/* `count` integers separated by commas, the whole string. */
static int parse_ints(const char *v, int count, int32_t *out) {
  for (int i = 0; i < count; i++) {
    char *end;
    long x = strtol(v, &end, 10);
    if (end == v || x < INT32_MIN || x > INT32_MAX || *end != (i + 1 < count ? ',' : '\0')) return 1;
    out[i] = (int32_t)x;
    v = end + 1;
  }
  return 0;
}

/* Returns -1 to go on, else the exit status (0 after --help). */
static int parse_options(int argc, char **argv, bool matmul, cmd_options *o) {
  const char *usage = matmul ? matmul_usage : transpose_usage;
  memset(o, 0, sizeof *o);
  /* --help wins wherever it is, even next to options that are wrong. */
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(usage, stdout);
      return 0;
    }
  bool options_done = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (options_done || a[0] != '-' || a[1] == '\0') {
      if (o->input_count == (matmul ? 2 : 1)) return usage_error(usage, "unexpected argument '%s'", a);
      o->inputs[o->input_count++] = a;
      continue;
    }
    if (strcmp(a, "--") == 0) {
      options_done = true;
      continue;
    }
    if (matmul && strcmp(a, "--trans-a") == 0) {
      o->trans_a = true;
      continue;
    }
    if (matmul && strcmp(a, "--trans-b") == 0) {
      o->trans_b = true;
      continue;
    }
    if (matmul && strcmp(a, "--batch") == 0) {
      o->batch = true;
      continue;
    }
    bool known = strcmp(a, "-o") == 0 || strcmp(a, "--strategy") == 0 ||
                 (!matmul && strcmp(a, "--tile") == 0) ||
                 (matmul && (strcmp(a, "--alpha") == 0 || strcmp(a, "--beta") == 0 || strcmp(a, "--c") == 0 ||
                             strcmp(a, "--out-type") == 0 || strcmp(a, "--bias") == 0 ||
                             strcmp(a, "--act") == 0 || strcmp(a, "--zero-points") == 0 ||
                             strcmp(a, "--requantize") == 0 || strcmp(a, "--precision") == 0));
    if (!known) return usage_error(usage, "unknown option '%s'", a);
    if (v == NULL) return usage_error(usage, "%s needs a value", a);
    i++;
    if (strcmp(a, "-o") == 0)
      o->out = v;
    else if (strcmp(a, "--c") == 0)
      o->c = v;
    else if (strcmp(a, "--bias") == 0)
      o->bias = v;
    else if (strcmp(a, "--zero-points") == 0) {
      int32_t z[2];
      if (parse_ints(v, 2, z)) return usage_error(usage, "bad --zero-points '%s' (ZA,ZB: two integers)", v);
      o->quant.zero_a = z[0], o->quant.zero_b = z[1], o->quant_set = true;
    } else if (strcmp(a, "--requantize") == 0) {
      int32_t r[3];
      if (parse_ints(v, 3, r)) return usage_error(usage, "bad --requantize '%s' (M,S,ZC: three integers)", v);
      o->quant.multiplier = r[0], o->quant.shift = r[1], o->quant.zero_c = r[2];
      o->quant_set = o->requantize = true;
    } else if (strcmp(a, "--precision") == 0) {
      static const char *const names[] = {"float", "half-if-faster", "half"}; /* gt_precision's order */
      int found = -1;
      for (int p = 0; p < 3; p++)
        if (strcmp(v, names[p]) == 0) found = p;
      if (found < 0) return usage_error(usage, "bad --precision '%s' (float, half or half-if-faster)", v);
      o->precision = (gt_precision)found;
    } else if (strcmp(a, "--act") == 0) {
      if (parse_act(v, o))
        return usage_error(usage, "bad --act '%s' (relu, or clamp:LO,HI with LO <= HI)", v);
    } else if (strcmp(a, "--out-type") == 0) {
      if (tool_parse_type(v, &o->out_type) || (o->out_type != GT_F32 && o->out_type != GT_F16))
        return usage_error(usage, "bad --out-type '%s' (f32 or f16)", v);
    } else if (strcmp(a, "--strategy") == 0) {
      if (parse_strategy(v, matmul, &o->strategy)) return usage_error(usage, "bad --strategy '%s'", v);
    } else if (strcmp(a, "--tile") == 0) {
      if (tool_parse_u32(v, 32, &o->tile) || (o->tile != 8 && o->tile != 16 && o->tile != 32))
        return usage_error(usage, "bad --tile '%s' (8, 16 or 32)", v);
    } else if (strcmp(a, "--alpha") == 0) {
      if (parse_float(v, &o->alpha)) return usage_error(usage, "bad --alpha '%s' (a finite number)", v);
      o->alpha_set = true;
    } else {
      if (parse_float(v, &o->beta)) return usage_error(usage, "bad --beta '%s' (a finite number)", v);
      o->beta_set = true;
    }
  }
  if (o->input_count < (matmul ? 2 : 1))
    return usage_error(usage, matmul ? "matmul needs two input files" : "transpose needs an input file");
  if (o->out == NULL) return usage_error(usage, "-o OUT.npy is required");
  if (o->beta_set && o->c == NULL) return usage_error(usage, "--beta needs --c, the matrix it scales");
  return -1;
}

/* ---- progress ------------------------------------------------------ */

/* A line before and after work that takes seconds, for a person watching:
 * only on a terminal, never in logs or tests. */
typedef struct progress {
  bool on, announced;
  double t0;
  char what[96];
} progress;

static void progress_start(progress *p, double expected_s, const char *what) {
  p->on = isatty(2) != 0;
  p->announced = p->on && expected_s > 1.0;
  p->t0 = tool_now_ms();
  snprintf(p->what, sizeof p->what, "%s", what);
  if (p->announced) fprintf(stderr, "gltile: %s...\n", p->what);
}

static void progress_end(progress *p) {
  double s = (tool_now_ms() - p->t0) / 1e3;
  if (p->announced)
    fprintf(stderr, "gltile: done in %.1f s\n", s);
  else if (p->on && s > 1.0)
    fprintf(stderr, "gltile: %s done in %.1f s\n", p->what, s);
}

/* ---- shared -------------------------------------------------------- */

/* stacks: a 3-D file is read too, as a stack of matrices. */
static int read_input(const char *path, bool stacks, npy_array *a) {
  char err[512];
  if ((stacks ? npy_read_stack : npy_read)(path, a, err, sizeof err)) {
    fprintf(stderr, "gltile: %s\n", err);
    return 1;
  }
  /* gltile rejects zero extents; an empty product has no work to map. */
  if (a->stacked && a->count == 0) {
    fprintf(stderr, "gltile: %s: empty stack (shape (0, %u, %u)); gltile needs at least one matrix\n", path,
            a->rows, a->cols);
    npy_free(a);
    return 1;
  }
  if (a->rows == 0 || a->cols == 0) {
    fprintf(stderr, "gltile: %s: empty matrix (shape (%u, %u)); gltile needs at least 1 x 1\n", path, a->rows,
            a->cols);
    npy_free(a);
    return 1;
  }
  return 0;
}

/* A matmul operand of the dtype the product needs: 0 = float32 or float16. */
/* want: the type the file must hold; 0: any type matmul takes. */
static int need_type(const char *path, const npy_array *a, gt_type want) {
  if (want ? a->type == want : a->type == GT_F32 || a->type == GT_F16 || a->type == GT_U8 || a->type == GT_I8)
    return 0;
  if (want)
    fprintf(stderr, "gltile: %s: this product needs '%s', the file holds '%s'\n", path, npy_descr(want),
            npy_descr(a->type));
  else
    fprintf(stderr,
            "gltile: %s: matmul needs float32 ('<f4'), float16 ('<f2'), uint8 ('|u1') or int8 ('|i1'); the "
            "file holds '%s'\n",
            path, npy_descr(a->type));
  return 1;
}

static int prepare_output(const char *path, output_file *o) {
  char err[512];
  if (output_open(path, o, err, sizeof err)) {
    fprintf(stderr, "gltile: %s\n", err);
    return 1;
  }
  return 0;
}

static int write_output(output_file *o, const npy_array *a) {
  char err[512];
  if (npy_write_output(o, a, err, sizeof err) || output_commit(o, err, sizeof err)) {
    output_discard(o);
    fprintf(stderr, "gltile: %s\n", err);
    return 1;
  }
  return 0;
}

static gt_view view_of(GLuint buffer, uint32_t rows, uint32_t cols, gt_type type) {
  gt_view v;
  memset(&v, 0, sizeof v);
  v.buffer = buffer;
  v.rows = rows;
  v.cols = cols;
  v.type = type;
  return v;
}

/* tool_buffer cannot report failure; a buffer the device could not
 * allocate shows as a GL error right after. */
static gt_status buffers_made(void) {
  GLenum e = glGetError();
  return e == GL_NO_ERROR ? GT_OK : e == GL_OUT_OF_MEMORY ? GT_ERR_OUT_OF_MEMORY : GT_ERR_GL;
}

/* ---- transpose ----------------------------------------------------- */

int tool_cmd_transpose(int argc, char **argv) {
  cmd_options o;
  int rc = parse_options(argc, argv, false, &o);
  if (rc >= 0) return rc;
  npy_array in, out;
  output_file result;
  if (prepare_output(o.out, &result)) return 1;
  if (read_input(o.inputs[0], false, &in)) {
    output_discard(&result);
    return 1;
  }
  size_t n = (size_t)in.rows * in.cols;
  out = in;
  out.rows = in.cols;
  out.cols = in.rows;
  size_t bytes = n * gt_type_size(in.type);
  out.data = malloc(bytes ? bytes : 1);
  if (out.data == NULL) {
    fprintf(stderr, "gltile: out of memory for %ux%u\n", in.rows, in.cols);
    npy_free(&in);
    output_discard(&result);
    return 1;
  }
  gt_egl egl;
  gt_context *ctx;
  if (tool_open(NULL, &egl, &ctx)) {
    npy_free(&in);
    npy_free(&out);
    output_discard(&result);
    return 1;
  }
  char what[96];
  snprintf(what, sizeof what, "transposing %ux%u", in.rows, in.cols);
  progress p;
  /* Upload, a read and a write of every element, and the read back, at a
   * rate llvmpipe reaches (faster devices only make the line unneeded). */
  progress_start(&p, 16.0 * (double)n / 2e9, what);
  while (glGetError() != GL_NO_ERROR)
    continue;
  GLuint src = tool_buffer_bytes(bytes, in.data), dst = tool_buffer_bytes(bytes, NULL);
  gt_status s = buffers_made();
  gt_transpose_desc d;
  memset(&d, 0, sizeof d);
  d.strategy = o.strategy;
  d.tile = o.tile;
  gt_view sv = view_of(src, in.rows, in.cols, in.type), dv = view_of(dst, out.rows, out.cols, out.type);
  if (s == GT_OK) s = gt_transpose(ctx, sv, dv, &d);
  if (s == GT_OK) s = gt_read(ctx, dv, out.data, 0);
  if (s == GT_OK) progress_end(&p);
  glDeleteBuffers(1, &src);
  glDeleteBuffers(1, &dst);
  bool atomics = gt_context_has_atomics(ctx);
  tool_close(&egl, ctx);
  if (s != GT_OK) {
    fprintf(stderr, "gltile: transposing %s (%ux%u, %s): %s%s\n", o.inputs[0], in.rows, in.cols,
            gt_strategy_name(o.strategy), gt_status_string(s),
            atomics ? "" : " (2- and 1-byte elements need shader atomics, which this device lacks)");
    output_discard(&result);
    rc = 1;
  } else
    rc = write_output(&result, &out);
  npy_free(&in);
  npy_free(&out);
  return rc;
}

/* ---- matmul -------------------------------------------------------- */

/* The number of products: the stacked operands' count, which must agree
 * (1 when none is stacked); 0 after a message when they differ. */
static uint32_t product_count(const char *const paths[3], const npy_array *ops[3]) {
  uint32_t count = 0;
  int first = -1;
  for (int i = 0; i < 3; i++) {
    if (ops[i] == NULL || !ops[i]->stacked) continue;
    if (first >= 0 && ops[i]->count != count) {
      fprintf(stderr, "gltile: %s and %s: stacks of %u and %u matrices do not pair up\n", paths[first],
              paths[i], count, ops[i]->count);
      return 0;
    }
    first = i;
    count = ops[i]->count;
  }
  return first < 0 ? 1 : count;
}

int tool_cmd_matmul(int argc, char **argv) {
  cmd_options o;
  int rc = parse_options(argc, argv, true, &o);
  if (rc >= 0) return rc;
  const char *pa = o.inputs[0], *pb = o.inputs[1];
  npy_array a, b, c, bias, out;
  output_file result;
  if (prepare_output(o.out, &result)) return 1;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  memset(&c, 0, sizeof c);
  memset(&bias, 0, sizeof bias);
  memset(&out, 0, sizeof out);
  rc = 1;
  if (read_input(pa, o.batch, &a) || need_type(pa, &a, 0) || read_input(pb, o.batch, &b) ||
      need_type(pb, &b, a.type))
    goto done;
  bool quantized = a.type == GT_U8 || a.type == GT_I8;
  if (quantized && (o.alpha_set || o.beta_set || o.c || o.bias || o.act || o.out_type)) {
    fprintf(stderr,
            "gltile: --alpha, --beta, --c, --bias, --act and --out-type apply to float products; %s holds "
            "'%s'\n",
            pa, npy_descr(a.type));
    goto done;
  }
  if (a.type != GT_F16 && o.precision) {
    fprintf(stderr, "gltile: --precision applies to float16 ('<f2') inputs; %s holds '%s'\n", pa,
            npy_descr(a.type));
    goto done;
  }
  if (!quantized && o.quant_set) {
    fprintf(stderr, "gltile: --zero-points and --requantize apply to 8-bit products; %s holds '%s'\n", pa,
            npy_descr(a.type));
    goto done;
  }
  gt_type out_type = o.out_type ? o.out_type : quantized && !o.requantize ? GT_I32 : a.type;
  if (out_type == GT_F16 && a.type != GT_F16) {
    fprintf(stderr, "gltile: --out-type f16 needs float16 ('<f2') inputs; %s holds '%s'\n", pa,
            npy_descr(a.type));
    goto done;
  }
  size_t in_size = gt_type_size(a.type), out_size = gt_type_size(out_type);
  uint32_t m = o.trans_a ? a.cols : a.rows, k = o.trans_a ? a.rows : a.cols;
  uint32_t kb = o.trans_b ? b.cols : b.rows, n = o.trans_b ? b.rows : b.cols;
  if (k != kb) {
    fprintf(stderr,
            "gltile: %s and %s: inner dimensions differ: op(A) is %ux%u (shape (%u, %u)%s), op(B) is %ux%u "
            "(shape (%u, %u)%s)\n",
            pa, pb, m, k, a.rows, a.cols, o.trans_a ? " transposed" : "", kb, n, b.rows, b.cols,
            o.trans_b ? " transposed" : "");
    goto done;
  }
  if (o.c != NULL) {
    if (read_input(o.c, o.batch, &c) || need_type(o.c, &c, out_type)) goto done;
    if (c.rows != m || c.cols != n) {
      fprintf(stderr, "gltile: %s: shape (%u, %u) is not the product's (%u, %u)\n", o.c, c.rows, c.cols, m,
              n);
      goto done;
    }
  }
  if (o.bias != NULL) {
    char err[512];
    if (npy_read_vector(o.bias, &bias, err, sizeof err)) {
      fprintf(stderr, "gltile: %s\n", err);
      goto done;
    }
    if (need_type(o.bias, &bias, GT_F32)) goto done;
    if (!(bias.rows == 1 && bias.cols == n) && !(bias.cols == 1 && bias.rows == m)) {
      fprintf(stderr, "gltile: %s: a bias of shape (%u, %u) is neither (%u,), (1, %u) nor (%u, 1)\n", o.bias,
              bias.rows, bias.cols, n, n, m);
      goto done;
    }
  }
  const char *paths[3] = {pa, pb, o.c};
  const npy_array *ops[3] = {&a, &b, o.c != NULL ? &c : NULL};
  uint32_t count = product_count(paths, ops);
  if (count == 0) goto done;
  size_t mn = (size_t)m * n;
  if (mn > SIZE_MAX / out_size / count || (uint64_t)m * count > UINT32_MAX) {
    fprintf(stderr, "gltile: %u products of %ux%u do not fit this host's memory\n", count, m, n);
    goto done;
  }
  out.type = out_type;
  out.rows = m;
  out.cols = n;
  out.stacked = o.batch;
  out.count = count;
  out.data = malloc(mn * count * out_size);
  if (out.data == NULL) {
    fprintf(stderr, "gltile: out of memory for %u x %ux%u\n", count, m, n);
    goto done;
  }
  /* c is each product's own: a 2-D C0 is copied to every one, so the
   * products never share a c (gt_matmul_batched refuses that). */
  if (o.c != NULL)
    for (uint32_t i = 0; i < count; i++)
      memcpy((unsigned char *)out.data + i * mn * out_size,
             (const unsigned char *)c.data + (c.stacked ? i * mn : 0) * out_size, mn * out_size);
  gt_matmul_desc d;
  memset(&d, 0, sizeof d);
  d.strategy = o.strategy;
  d.trans_a = o.trans_a;
  d.trans_b = o.trans_b;
  /* --alpha, --beta or --c ask for the scaled form; --c alone adds C0. */
  d.scale = o.alpha_set || o.beta_set || o.c != NULL;
  d.alpha = o.alpha_set ? o.alpha : 1.0f;
  d.beta = o.beta_set ? o.beta : o.c != NULL ? 1.0f : 0.0f;
  d.act = o.act;
  d.act_lo = o.act_lo;
  d.act_hi = o.act_hi;
  d.quant = o.quant;
  d.precision = o.precision;

  gt_egl egl;
  gt_context *ctx;
  if (tool_open(NULL, &egl, &ctx)) goto done;
  char what[96];
  snprintf(what, sizeof what, "multiplying %u x %ux%ux%u", count, m, n, k);
  progress p;
  /* 2 M N K flops at about 10 GFLOP/s, llvmpipe on a few cores. */
  progress_start(&p, 2.0 * m * n * k * count / 1e10, what);
  while (glGetError() != GL_NO_ERROR)
    continue;
  size_t a_words = (size_t)a.rows * a.cols, b_words = (size_t)b.rows * b.cols;
  GLuint ba = tool_buffer_bytes(a_words * (a.stacked ? a.count : 1) * in_size, a.data);
  GLuint bb = tool_buffer_bytes(b_words * (b.stacked ? b.count : 1) * in_size, b.data);
  GLuint bc = tool_buffer_bytes(mn * count * out_size,
                                o.c != NULL ? out.data : NULL); /* zeros without --c: beta = 0 never reads them */
  GLuint bbias = o.bias != NULL ? tool_buffer_bytes((size_t)bias.rows * bias.cols * 4, bias.data) : 0;
  gt_status s = buffers_made();
  gt_view av = view_of(ba, a.rows, a.cols, a.type), bv = view_of(bb, b.rows, b.cols, a.type);
  gt_view cv = view_of(bc, m, n, out_type);
  if (bbias) d.bias = view_of(bbias, bias.rows, bias.cols, GT_F32);
  /* A 2-D operand (stride 0) serves every product. */
  gt_batch batch = {count, a.stacked ? a_words : 0, b.stacked ? b_words : 0, mn};
  if (s == GT_OK)
    s = o.batch ? gt_matmul_batched(ctx, av, bv, cv, batch, &d) : gt_matmul(ctx, av, bv, cv, &d);
  /* Every product's c, as the rows of one (count m) x n matrix. */
  if (s == GT_OK) s = gt_read(ctx, view_of(bc, m * count, n, out_type), out.data, 0);
  if (s == GT_OK) progress_end(&p);
  glDeleteBuffers(1, &ba);
  glDeleteBuffers(1, &bb);
  glDeleteBuffers(1, &bc);
  if (bbias) glDeleteBuffers(1, &bbias);
  bool atomics = gt_context_has_atomics(ctx);
  tool_close(&egl, ctx);
  if (s != GT_OK) {
    fprintf(stderr, "gltile: multiplying %s and %s (%u x %ux%ux%u, %s): %s%s\n", pa, pb, count, m, n, k,
            gt_strategy_name(o.strategy), gt_status_string(s),
            atomics || gt_type_size(out_type) == 4
                ? ""
                : " (a 2- or 1-byte C needs shader atomics, which this device lacks)");
    goto done;
  }
  rc = write_output(&result, &out);
done:
  output_discard(&result);
  npy_free(&a);
  npy_free(&b);
  npy_free(&c);
  npy_free(&bias);
  npy_free(&out);
  return rc;
}
