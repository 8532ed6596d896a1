/* The program table: builds each program once, keeps it in the context's
 * slots (program_table.c) and finds it again. Not installed. */
#ifndef GT_PROGRAM_TABLE_H
#define GT_PROGRAM_TABLE_H

#include "gl/gl_api.h"
#include "plan/context.h"
#include "plan/program.h"

/* Compiles and links parts into a program; compile and link logs go to
 * the logger, introduced by `what`. */
gt_status gt__program_build(gt_context *ctx, const char *const *parts, int count, const char *what,
                            GLuint *out);

/* Finds or builds the program for key. The pointer stays good until the
 * next call that may build (this one, gt__program_for), which may take
 * its slot for another program: ask again before each dispatch. */
gt_status gt__program_get(gt_context *ctx, const gt_program_key *key, const gt_program **out);

/* Builds (or finds) each program a plan names, keys[0..count) (group_cols
 * 0: none), before its first dispatch, so a build failure writes
 * nothing. The dispatches then ask for each again (gt__program_get): a
 * table smaller than the plan's programs rebuilds them. */
gt_status gt__programs_build(gt_context *ctx, const gt_program_key *keys, int count);

/* The same for a key of buffer kernels, given field by field. */
gt_status gt__program_for(gt_context *ctx, gt_kernel kernel, uint32_t tile, uint32_t group_cols,
                          uint32_t group_rows, uint32_t variant, gt_type elem, const gt_program **out);

/* The table slot of key: its program; else a free slot; else, the table
 * full, the least recently used program's, deleted. NULL only for a
 * context with no slots (made for plans). */
gt_program *gt__program_slot(gt_context *ctx, const gt_program_key *key);

/* Puts a linked program into slot under key, with its uniform locations;
 * on a GL error deletes it and leaves the slot free. */
gt_status gt__program_adopt(gt_context *ctx, gt_program *slot, const gt_program_key *key, GLuint program);

/* Deletes every program in the table. */
void gt__program_release_all(gt_context *ctx);

/* Deletes user kernel k's programs and empties its slot. */
void gt__user_kernel_delete(gt_user_kernel *k);

/* Deletes every user kernel's programs. */
void gt__user_kernels_release_all(gt_context *ctx);

#endif
