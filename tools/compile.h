/* gltile compile: every program a context can reach, built by the
 * device's own compiler (compile.c), after the AUTO calls that show which
 * of them AUTO chooses (compile_auto.c). */
#ifndef GT_COMPILE_H
#define GT_COMPILE_H

#include "tool.h"

#define GT_STATIC_LINKING_ONLY
#include <gltile/gltile_advanced.h>

/* More than one context reaches (about 3,700 on an ES 3.2 device); a
 * program past it is counted as a failure, not dropped in silence. */
enum { GT_COMPILE_MAX_PROGRAMS = 8192, GT_COMPILE_MAX_USES = 16384, GT_COMPILE_CALL_TEXT = 80 };

/* A program AUTO chose and a catalogue call that asked for it, in words:
 * "matmul f16>f32 a b^T 8x1024x1024 aligned". */
typedef struct chosen_program {
  gt_program_id key;
  char call[GT_COMPILE_CALL_TEXT];
} chosen_program;

/* Runs AUTO on the catalogue of views and types, so the context's program
 * table then holds every program AUTO chose, and puts each call's
 * programs, with the call, into chosen in the order of the calls (room
 * for capacity; *count gets how many, more than capacity where they did
 * not all fit). Returns the number of calls
 * that failed; *refused gets those the device cannot run
 * (GT_ERR_UNSUPPORTED). */
int compile_auto_calls(gt_context *ctx, int *refused, chosen_program *chosen, size_t capacity, size_t *count);

/* compile_auto_calls on a context of desc made in a child process, which
 * hands back the calls' programs (*count of them; more than capacity
 * where they did not all fit). The driver's memory of what
 * it compiled goes with the child: some keep compiled programs by their
 * text for the whole process (v3d) and would report no statistics for
 * the same text built again. Returns the failed calls, or 1 where the
 * child could not run. */
int compile_auto_keys(const gt_context_desc *desc, chosen_program *chosen, size_t capacity, size_t *count,
                      int *refused);

/* The command: `gltile compile [--stats] [--auto | --no-catalogue]
 * [--only TEXT] [--csv FILE] [--min-limits]`. */
int tool_cmd_compile(int argc, char **argv);

#endif
