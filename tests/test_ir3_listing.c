/* `gltile compile`'s count of Adreno's main loop (tools/ir3_listing.c):
 * the instructions from a label to the first branch back to it, (rptN)
 * counted N + 1 times, and its memory instructions; the last listing's
 * loop; no loop where no branch goes back; the driver's NIR and code kept
 * back, every other line given back to stderr in order; and which
 * IR3_SHADER_DEBUG prints the code. No GL. */
#if !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include "ir3_listing.h"
#include "stderr_capture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static bool keep(const char *line, void *user) { return ir3_listing_line(user, line); }

/* Writes text to stderr while it is captured; gives the loop's figures
 * and puts what reached the real stderr in passed (at most size bytes). */
static bool capture(const char *text, double *inst, double *memory, char *passed, size_t size) {
  FILE *sink = tmpfile();
  int saved = dup(STDERR_FILENO);
  *inst = *memory = -2;
  if (sink == NULL || saved < 0) {
    CHECK(sink != NULL && saved >= 0);
    return false;
  }
  fflush(stderr);
  dup2(fileno(sink), STDERR_FILENO);
  ir3_listing l;
  ir3_listing_start(&l);
  stderr_capture c;
  bool found = false;
  if (stderr_capture_begin(&c)) {
    fputs(text, stderr);
    stderr_capture_end(&c, keep, &l);
    found = ir3_listing_loop(&l, inst, memory);
  }
  fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  rewind(sink);
  size_t got = fread(passed, 1, size - 1, sink);
  passed[got] = '\0';
  fclose(sink);
  return found;
}

#define INFO "MESA: info: "

int main(void) {
  char passed[1024];
  double inst, memory;
  /* Two programs: the last one's loop (a branch back at its end); in the
   * first, the loop from l5 to the jump back, past a branch forward. */
  bool found = capture("a warning\n" INFO "NIR (final form) for CL shader GLSL2:\n" INFO
                       "shader: MESA_SHADER_COMPUTE\n" INFO "Native code for unnamed CL shader GLSL2:\n" INFO
                       "; num_ubos:           0\n" INFO "@in(r0.x)\tin1 (wrmask=0x7)\n" INFO
                       "mov.f32f32 r0.w, c1.w\n" INFO "l5:\n" INFO "(jp)(nop3) cmps.s.eq p0.x, r4.w, 0\n" INFO
                       "(rpt2)nop\n" INFO "br p0.x, #l9\n" INFO "ldib.b.untyped.1d.u32.4.imm r9.x, r4.z, 1\n" INFO
                       "(sy)(rpt1)mad.f32 r2.x, r1.x, (r)r8.y, (r)r2.x\n" INFO
                       "isam.base0 (f32)(xyzw)r0.x, r0.x, s#0, t#0\n" INFO "jump #l5\n" INFO "l9:\n" INFO
                       "add.u r1.x, r1.x, 1\n" INFO "jump #l5\n" INFO "(jp)end\n" INFO
                       "; CL prog 5/1: 12 instr\n" INFO "\n" INFO "Native code for unnamed CL shader GLSL4:\n" INFO
                       "l2:\n" INFO "ldg.u32 r0.x, r0.y, 1\n" INFO "add.u r0.y, r0.y, 4\n" INFO
                       "br !p0.x, #l2\n" INFO "; CL prog 6/1: 3 instr\n" INFO "\n" "after\n",
                       &inst, &memory, passed, sizeof passed);
  CHECK(found && inst == 3 && memory == 1);
  CHECK(strcmp(passed, "a warning\nafter\n") == 0);
  /* The first program alone, ended by a line of another source. */
  found = capture(INFO "Native code for unnamed CL shader GLSL2:\n" INFO "mov.f32f32 r0.w, c1.w\n" INFO
                  "l5:\n" INFO "(jp)(nop3) cmps.s.eq p0.x, r4.w, 0\n" INFO "(rpt2)nop\n" INFO "br p0.x, #l9\n" INFO
                  "ldib.b.untyped.1d.u32.4.imm r9.x, r4.z, 1\n" INFO
                  "(sy)(rpt1)mad.f32 r2.x, r1.x, (r)r8.y, (r)r2.x\n" INFO
                  "isam.base0 (f32)(xyzw)r0.x, r0.x, s#0, t#0\n" INFO "jump #l5\n" INFO "l9:\n" INFO "(jp)end\n"
                  "other\n",
                  &inst, &memory, passed, sizeof passed);
  CHECK(found && inst == 10 && memory == 2);
  CHECK(strcmp(passed, "other\n") == 0);
  /* Code with no branch back: no loop. */
  found = capture(INFO "Native code for unnamed CL shader GLSL2:\n" INFO "l1:\n" INFO "br p0.x, #l3\n" INFO
                  "l3:\n" INFO "(jp)end\n" INFO "\n",
                  &inst, &memory, passed, sizeof passed);
  CHECK(!found && inst == -1 && memory == -1);
  /* No code printed: no loop, stderr intact, the driver's other
   * messages included. */
  found = capture("a warning\n" INFO "some other message\n", &inst, &memory, passed, sizeof passed);
  CHECK(!found && inst == -1);
  CHECK(strcmp(passed, "a warning\n" INFO "some other message\n") == 0);
  /* The flag that prints compute programs' code, among others. */
  setenv("IR3_SHADER_DEBUG", "nocache,cs", 1);
  CHECK(ir3_listing_printed());
  setenv("IR3_SHADER_DEBUG", "disasm,csx", 1);
  CHECK(!ir3_listing_printed());
  unsetenv("IR3_SHADER_DEBUG");
  CHECK(!ir3_listing_printed());
  return CHECK_SUMMARY();
}
