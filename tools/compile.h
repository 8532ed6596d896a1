/* gltile compile: every program a context can reach, built by the
 * device's own compiler (compile.c), after the AUTO calls that show which
 * of them AUTO chooses (compile_auto.c). */
#ifndef GT_COMPILE_H
#define GT_COMPILE_H

#include "tool.h"

/* Runs AUTO on the catalogue of views and types, so the context's program
 * table then holds every program AUTO chose. Returns the number of calls
 * that failed; *refused gets those the device cannot run
 * (GT_ERR_UNSUPPORTED). */
int compile_auto_calls(gt_context *ctx, int *refused);

/* The command: `gltile compile [--stats] [--auto | --no-catalogue]
 * [--only TEXT] [--csv FILE] [--min-limits]`. */
int tool_cmd_compile(int argc, char **argv);

#endif
