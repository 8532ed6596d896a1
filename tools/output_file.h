/* Where a gltile command puts its result (-o PATH), taking PATH as what it
 * is, as cp takes its destination:
 *   - nothing there, or a regular file: the result is written under a
 *     temporary name in the same directory (PATH.tmpXXXXXX) and renamed
 *     over PATH when complete, so PATH is complete or as it was; a file
 *     replaced keeps its permission bits (not its owner, nor other names
 *     it had as hard links);
 *   - a FIFO or a character device (/dev/null, /dev/stdout on a terminal):
 *     written through, opened for writing when the result is ready (a
 *     FIFO waits for its reader then), never replaced;
 *   - a symlink: followed, to the file, FIFO or device it leads to, which
 *     is then taken as above; the link stays. A dangling symlink is
 *     refused, as cp refuses to write through one;
 *   - a directory, a block device, a socket: refused.
 * The temporary is removed on every error and when SIGINT, SIGTERM or
 * SIGHUP ends the program while it exists (one signal handler, installed
 * while a temporary exists and only where the signal was not ignored: it
 * unlinks the temporary and re-raises the signal with its default
 * action). One output at a time. No GL here. */
#ifndef GT_TOOL_OUTPUT_FILE_H
#define GT_TOOL_OUTPUT_FILE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct output_file {
  char *name;   /* PATH as given, for messages (malloc'd) */
  char *target; /* what is written: PATH, or where its symlinks lead (malloc'd) */
  bool through; /* a FIFO or character device, written in place */
  bool temp;    /* a temporary exists (the static one the signal handler knows) */
  int fd;       /* -1 until open */
} output_file;

/* Looks at path and prepares the output: makes the temporary, or (a FIFO
 * or device) only checks what is there.
 * Returns    0; or -1 with *o holding nothing to release and a message
 *            starting with the path in err. */
int output_open(const char *path, output_file *o, char *err, size_t err_size);

/* Appends size bytes; a FIFO or device is opened on the first call.
 * Returns    0; or -1 with a message naming the path in err (the output
 *            stays open: output_discard it). */
int output_write(output_file *o, const void *data, size_t size, char *err, size_t err_size);

/* Finishes the output: a temporary is synced, closed and renamed over the
 * target; a FIFO or device is closed.
 * Returns    0; or -1 with a message, the temporary removed. Either way
 *            *o holds nothing to release. */
int output_commit(output_file *o, char *err, size_t err_size);

/* Drops an output that will not be finished: the temporary is removed, a
 * FIFO or device closed. A zeroed or released *o is a no-op. */
void output_discard(output_file *o);

#endif
