/* `gltile compile`'s count of V3D's TMU requests (tools/v3d_listing.c):
 * the registers that start a request, counted once each, names that only
 * look alike left out; the count of the last listing captured; every
 * other line given back to stderr, in order (tools/stderr_capture.c). No
 * GL. */
#if !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include "stderr_capture.h"
#include "v3d_listing.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static void check_line(const char *line, int want) {
  int got = v3d_line_tmu_requests(line);
  if (got == want) {
    check_passed++;
    return;
  }
  check_failed++;
  fprintf(stderr, "CHECK failed: %d TMU requests, want %d, in\n  %s\n", got, want, line);
}

static bool keep(const char *line, void *user) { return v3d_listing_line(user, line); }

/* Writes text to stderr while a listing is captured; returns the count
 * and puts what reached the real stderr in passed (at most size bytes). */
static double capture(const char *text, char *passed, size_t size) {
  FILE *sink = tmpfile();
  int saved = dup(STDERR_FILENO);
  if (sink == NULL || saved < 0) {
    CHECK(sink != NULL && saved >= 0);
    return -2;
  }
  fflush(stderr);
  dup2(fileno(sink), STDERR_FILENO);
  v3d_listing l;
  v3d_listing_start(&l);
  stderr_capture c;
  double requests = -2;
  if (stderr_capture_begin(&c)) {
    fputs(text, stderr);
    stderr_capture_end(&c, keep, &l);
    requests = v3d_listing_requests(&l);
  }
  fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  rewind(sink);
  size_t got = fread(passed, 1, size - 1, sink);
  passed[got] = '\0';
  fclose(sink);
  return requests;
}

int main(void) {
  check_line("0x3c403186bb800000 nop                 ; nop                 ; ldunif (0x0000ffff)", 0);
  check_line("0x0440310138a21000 add tmua, r1, r4    ; add r4, r0, r5", 1);
  check_line("0x0440310138a21000 add tmuau, r1, r4   ; nop", 1);
  check_line("0x0440310138a21000 add tmuau, r1, r4   ; mov tmusf, r2", 2);
  check_line("0x0440310138a21000 nop                 ; mov tmus, r2", 1);
  check_line("0x0440310138a21000 mov tmuscm, r2      ; mov tmusfcm, r3", 2);
  /* Data, a texture's other coordinate, the wait and the results: no
   * request of their own. */
  check_line("0x0440310138a21000 nop                 ; mov tmud, r0", 0);
  check_line("0x0440310138a21000 mov tmut, r1        ; nop", 0);
  check_line("0x0440310138a21000 nop                 ; nop                 ; ldtmu.rf0", 0);
  check_line("0x0440310138a21000 mov.ifa tmuwt, -   ; nop", 0);
  check_line("0x0440310138a21000 add rf3, rf3, r5    ; nop", 0);

  char passed[1024];
  /* Two listings: the last one's count; the statistics line and the rest
   * go on to stderr, the code does not. */
  double requests = capture("SHADER-DB-GLSL4 - MESA_SHADER_COMPUTE shader: 2 inst\n"
                            "MESA_SHADER_COMPUTE prog 1/1 QPU:\n"
                            "0x01 add tmua, r1, r2 ; nop\n"
                            "0x02 nop ; mov tmud, r0\n"
                            "\n"
                            "MESA_SHADER_COMPUTE prog 2/1 QPU:\n"
                            "0x03 add tmuau, r1, r2 ; mov tmus, r3\n"
                            "0x04 add tmua, r1, r2 ; nop\n"
                            "after\n",
                            passed, sizeof passed);
  CHECK(requests == 3);
  CHECK(strcmp(passed, "SHADER-DB-GLSL4 - MESA_SHADER_COMPUTE shader: 2 inst\n\nafter\n") == 0);
  /* A listing that runs to the end of the capture counts too. */
  requests =
      capture("MESA_SHADER_COMPUTE prog 3/1 QPU:\n0x05 add tmua, r1, r2 ; nop\n", passed, sizeof passed);
  CHECK(requests == 1);
  CHECK(strcmp(passed, "") == 0);
  /* No listing (V3D_DEBUG without "qpu"): unknown, and stderr intact. */
  requests = capture("a warning\nanother\n", passed, sizeof passed);
  CHECK(requests == -1);
  CHECK(strcmp(passed, "a warning\nanother\n") == 0);
  return CHECK_SUMMARY();
}
