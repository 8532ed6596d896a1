/* The programs the planners can name (program_list.c): the list the build
 * validates with glslangValidator, the program cache loads from, and
 * `gltile compile` builds with a device's own compiler. */
#ifndef GT_PROGRAM_LIST_H
#define GT_PROGRAM_LIST_H

#include "plan/context.h"

/* Called once for each program named; a program may come more than once. */
typedef void (*gt_program_each)(const gt_program_key *key, void *user);

/* Every program a plan on ctx can name and its operation then builds:
 * each operation's planner (transpose, in place too, copy, the staged
 * gt_write, image transposes and turns, matmul, batched layers) run over
 * a catalogue of calls that takes each turn a planner takes: every
 * strategy and tile a caller can name, every element size, texel format
 * and matmul type, extents against the tiles and blocks, rows on words,
 * 16 bytes or neither, views past a storage block. No GL; about 100,000
 * plans, some tens of milliseconds. */
void gt__program_list(const gt_context *ctx, gt_program_each each, void *user);

/* The union of gt__program_list over contexts of every device-table
 * entry, every limit set (GT_LIMIT_SETS) and every context option that
 * changes a plan (the desc's transpose strategy and matmul kernel; not
 * its tile, which only serves calls that name none, and the catalogue's
 * calls name every tile). */
void gt__program_list_every_device(gt_program_each each, void *user);

/* The distinct programs of gt__program_list(ctx), or with ctx NULL of
 * gt__program_list_every_device, sorted by gt__program_key_order, in out
 * (room for capacity). Returns how many there are; more than capacity
 * where they do not all fit (out then holds the first capacity of them in
 * the order found, not sorted). */
size_t gt__program_list_collect(const gt_context *ctx, gt_program_key *out, size_t capacity);

#endif
