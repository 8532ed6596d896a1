#define _XOPEN_SOURCE 700 /* mkdtemp, nftw, setenv */
#include "tool.h"

#define GT_STATIC_LINKING_ONLY
#include <gltile/gltile_advanced.h>

#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int tool_open(const gt_context_desc *desc, gt_egl *egl, gt_context **ctx) {
  gt_status s = gt_egl_open(egl);
  if (s != GT_OK) {
    fprintf(stderr, "gltile: no headless OpenGL ES 3.1 context: %s\n", gt_status_string(s));
    return 1;
  }
  s = gt_context_init(NULL, 0, desc, ctx);
  if (s != GT_OK) {
    fprintf(stderr, "gltile: gt_context_init: %s\n", gt_status_string(s));
    gt_egl_close(egl);
    return 1;
  }
  return 0;
}

gt_context_desc tool_desc(bool min_limits, gt_matmul_kernel kernel) {
  gt_context_desc d;
  memset(&d, 0, sizeof d);
  d.min_limits = min_limits;
  d.matmul_kernel = kernel;
  return d;
}

void tool_close(gt_egl *egl, gt_context *ctx) {
  gt_context_release(ctx);
  gt_egl_close(egl);
}

double tool_now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double tool_median(double *values, unsigned count) {
  qsort(values, count, sizeof *values, compare_double);
  return count % 2 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

GLuint tool_compute_program(const char *const *parts, int count, const char *what) {
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER), program = 0;
  glShaderSource(shader, count, (const GLchar *const *)parts, NULL);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok) {
    program = glCreateProgram();
    glAttachShader(program, shader);
    glLinkProgram(program);
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
  }
  if (!ok) {
    char log[1024] = "";
    if (program)
      glGetProgramInfoLog(program, sizeof log, NULL, log);
    else
      glGetShaderInfoLog(shader, sizeof log, NULL, log);
    fprintf(stderr, "gltile: %s did not build: %s\n", what, log);
    glDeleteProgram(program);
    program = 0;
  }
  glDeleteShader(shader);
  return program;
}

GLuint tool_buffer(size_t words, const void *data) { return tool_buffer_bytes(words * 4, data); }

GLuint tool_buffer_bytes(size_t bytes, const void *data) {
  /* Kernels reach 2- and 1-byte elements through whole words. Always
   * upload contents: on NVIDIA a buffer made with NULL data stayed slow
   * (copies at 105 GB/s, over PCIe) until the CPU had written it. */
  size_t size = (bytes + 3) / 4 * 4;
  unsigned char *filled = NULL;
  if (data == NULL || size != bytes) {
    filled = calloc(size ? size : 4, 1);
    if (filled == NULL) return 0; /* no buffer: the call on it is refused */
    if (data) memcpy(filled, data, bytes);
  }
  GLuint b = 0;
  glGenBuffers(1, &b);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, b);
  glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)size, filled ? filled : data, GL_STATIC_DRAW);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  free(filled);
  return b;
}

/* The element types by their short names. */
const char *tool_type_name(gt_type t) {
  const char *name = gt_type_name(t);
  return name ? name : "?";
}

int tool_parse_type(const char *s, gt_type *out) {
  gt_type t = gt_type_from_name(s);
  if (t == 0) return 1;
  *out = t;
  return 0;
}

int tool_parse_u32(const char *s, uint32_t max, uint32_t *out) {
  char *end;
  if (s == NULL || *s < '0' || *s > '9') return 1;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end != '\0' || v == 0 || v > max) return 1;
  *out = (uint32_t)v;
  return 0;
}

static char shader_cache_dir[64];

bool tool_fresh_shader_cache(void) {
  setenv("__GL_SHADER_DISK_CACHE", "0", 0);
  if (getenv("MESA_SHADER_CACHE_DIR") || getenv("MESA_SHADER_CACHE_DISABLE")) return false;
  const char *tmp = getenv("TMPDIR");
  snprintf(shader_cache_dir, sizeof shader_cache_dir, "%s/gltile-shaders-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (strlen(shader_cache_dir) + 1 >= sizeof shader_cache_dir || mkdtemp(shader_cache_dir) == NULL) {
    shader_cache_dir[0] = '\0';
    return false;
  }
  setenv("MESA_SHADER_CACHE_DIR", shader_cache_dir, 1);
  return true;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

void tool_remove_shader_cache(void) {
  if (shader_cache_dir[0]) nftw(shader_cache_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  shader_cache_dir[0] = '\0';
}
