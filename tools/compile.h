/* gltile compile: every program a context can reach, built by the
 * device's own compiler (compile.c), after the AUTO calls that show which
 * of them AUTO chooses (compile_auto.c). */
#ifndef GT_COMPILE_H
#define GT_COMPILE_H

#include "tool.h"

#define GT_STATIC_LINKING_ONLY
#include <gltile/gltile_advanced.h>

/* Runs AUTO on the catalogue of views and types, so the context's program
 * table then holds every program AUTO chose. Returns the number of calls
 * that failed; *refused gets those the device cannot run
 * (GT_ERR_UNSUPPORTED). */
int compile_auto_calls(gt_context *ctx, int *refused);

/* compile_auto_calls on a context of desc made in a child process, which
 * hands back the keys of the programs AUTO chose (*count of them; more
 * than capacity where they did not all fit). The driver's memory of what
 * it compiled goes with the child: some keep compiled programs by their
 * text for the whole process (v3d) and would report no statistics for
 * the same text built again. Returns the failed calls, or 1 where the
 * child could not run. */
int compile_auto_keys(const gt_context_desc *desc, gt_program_id *keys, size_t capacity, size_t *count,
                      int *refused);

/* The command: `gltile compile [--stats] [--auto | --no-catalogue]
 * [--only TEXT] [--csv FILE] [--min-limits]`. */
int tool_cmd_compile(int argc, char **argv);

#endif
