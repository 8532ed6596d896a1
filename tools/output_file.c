/* The output of a gltile command: see output_file.h for what -o does with
 * each kind of file. */
/* lstat, mkstemp, fsync, fchmod, sigaction and the rest are POSIX, not
 * C99; realpath is XSI. */
#define _XOPEN_SOURCE 700

#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#if defined(__GNUC__)
#define OUTPUT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define OUTPUT_PRINTF(f, a)
#endif

static int fail(char *err, size_t err_size, const char *path, const char *fmt, ...) OUTPUT_PRINTF(4, 5);

/* Puts "path: message" in err; returns -1. */
static int fail(char *err, size_t err_size, const char *path, const char *fmt, ...) {
  if (err != NULL && err_size > 0) {
    int n = snprintf(err, err_size, "%s: ", path);
    if (n >= 0 && (size_t)n < err_size) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(err + n, err_size - (size_t)n, fmt, ap);
      va_end(ap);
    }
  }
  return -1;
}

/* ---- the temporary and the signals that must not leave it ------------ */

/* A signal handler may only do async-signal-safe work: it reads the name
 * from this buffer, never from the heap, and a flag says whether the file
 * exists. */
static char temp_name[4096 + 16];
static volatile sig_atomic_t temp_exists;

static const int caught[] = {SIGINT, SIGTERM, SIGHUP};
#define CAUGHT (sizeof caught / sizeof caught[0])
static struct sigaction previous[CAUGHT];
static bool installed[CAUGHT];

static void on_signal(int sig) {
  if (temp_exists) unlink(temp_name);
  signal(sig, SIG_DFL);
  /* Blocked while the handler runs: delivered, with the default action,
   * as it returns. */
  raise(sig);
}

static void block_signals(sigset_t *old) {
  sigset_t set;
  sigemptyset(&set);
  for (size_t i = 0; i < CAUGHT; i++)
    sigaddset(&set, caught[i]);
  sigprocmask(SIG_BLOCK, &set, old);
}

/* A signal the program ignores (a background job's SIGINT) stays ignored:
 * it ends nothing, so it leaves nothing to remove. */
static void install_handlers(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < CAUGHT; i++)
    sigaddset(&sa.sa_mask, caught[i]);
  for (size_t i = 0; i < CAUGHT; i++) {
    installed[i] = false;
    if (sigaction(caught[i], NULL, &previous[i]) != 0 || previous[i].sa_handler == SIG_IGN) continue;
    installed[i] = sigaction(caught[i], &sa, NULL) == 0;
  }
}

static void restore_handlers(void) {
  for (size_t i = 0; i < CAUGHT; i++)
    if (installed[i]) sigaction(caught[i], &previous[i], NULL);
}

/* Makes target.tmpXXXXXX with the given mode. Signals wait while the name
 * is being written and the flag set, so the handler never sees half a
 * name. */
static int make_temp(output_file *o, mode_t mode, char *err, size_t err_size) {
  size_t n = strlen(o->target);
  if (temp_exists) return fail(err, err_size, o->name, "another output is being written");
  if (n + sizeof ".tmpXXXXXX" > sizeof temp_name) return fail(err, err_size, o->name, "the path is too long");
  install_handlers();
  sigset_t old;
  block_signals(&old);
  memcpy(temp_name, o->target, n);
  memcpy(temp_name + n, ".tmpXXXXXX", sizeof ".tmpXXXXXX");
  int fd = mkstemp(temp_name);
  int e = errno;
  temp_exists = fd >= 0;
  sigprocmask(SIG_SETMASK, &old, NULL);
  if (fd < 0) {
    restore_handlers();
    return fail(err, err_size, o->name, "cannot create a temporary file next to it: %s", strerror(e));
  }
  o->fd = fd;
  o->temp = true;
  /* mkstemp makes the file 0600; it gets the replaced file's bits, or
   * what a plain open would give. */
  if (fchmod(fd, mode) != 0)
    return fail(err, err_size, o->name, "cannot set the mode of %s: %s", temp_name, strerror(errno));
  return 0;
}

/* Removes the temporary, or (renamed) forgets it. */
static void drop_temp(bool remove) {
  sigset_t old;
  block_signals(&old);
  if (temp_exists && remove) unlink(temp_name);
  temp_exists = 0;
  sigprocmask(SIG_SETMASK, &old, NULL);
  restore_handlers();
}

/* ---- the output ------------------------------------------------------ */

static void release(output_file *o) {
  free(o->name);
  free(o->target);
  o->name = o->target = NULL;
  o->fd = -1;
  o->temp = o->through = false;
}

void output_discard(output_file *o) {
  if (o == NULL || o->name == NULL) return;
  if (o->fd >= 0) close(o->fd);
  if (o->temp) drop_temp(true);
  release(o);
}

static char *copy_of(const char *s) {
  size_t n = strlen(s) + 1;
  char *c = malloc(n);
  if (c) memcpy(c, s, n);
  return c;
}

int output_open(const char *path, output_file *o, char *err, size_t err_size) {
  memset(o, 0, sizeof *o);
  o->fd = -1;
  if (err != NULL && err_size > 0) err[0] = '\0';
  if (path[0] == '\0') return fail(err, err_size, path, "an empty path");
  o->name = copy_of(path);
  struct stat st;
  bool there = lstat(path, &st) == 0;
  if (!there && errno != ENOENT) {
    int e = errno;
    output_discard(o);
    return fail(err, err_size, path, "cannot look at it: %s", strerror(e));
  }
  bool link = there && S_ISLNK(st.st_mode);
  if (link && stat(path, &st) != 0) {
    int e = errno;
    output_discard(o);
    if (e == ENOENT)
      return fail(err, err_size, path, "a symlink to nothing: gltile, like cp, does not write through it");
    return fail(err, err_size, path, "cannot follow the symlink: %s", strerror(e));
  }
  if (there && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
    /* Opened through the link, if any: /dev/stdout leads to a pipe that
     * has no path of its own. */
    o->target = copy_of(path);
    o->through = true;
    if (o->name != NULL && o->target != NULL) return 0;
  } else {
    /* A file is replaced where it is, beside it, not beside the link. */
    o->target = link ? realpath(path, NULL) : copy_of(path);
  }
  if (o->name == NULL || o->target == NULL) {
    int e = errno;
    output_discard(o);
    return fail(err, err_size, path, "%s", link ? strerror(e) : "out of memory");
  }
  if (there && !S_ISREG(st.st_mode)) {
    const char *kind = S_ISDIR(st.st_mode)    ? "a directory"
                       : S_ISBLK(st.st_mode)  ? "a block device"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                                              : "not a regular file";
    output_discard(o);
    return fail(err, err_size, path,
                "is %s: gltile writes a regular file (replacing it whole), a FIFO or a character device",
                kind);
  }
  mode_t mode;
  if (there) {
    mode = st.st_mode & 0777;
  } else {
    /* umask can only be read by setting it; the program is
     * single-threaded here. */
    mode_t mask = umask(0);
    umask(mask);
    mode = 0666 & ~mask;
  }
  if (make_temp(o, mode, err, err_size) != 0) {
    output_discard(o);
    return -1;
  }
  return 0;
}

int output_write(output_file *o, const void *data, size_t size, char *err, size_t err_size) {
  if (o->fd < 0 && o->through) {
    /* What was seen at output_open, still: a file put there since would be
     * written in place, not replaced whole (opening it for writing without
     * truncating changes nothing). */
    o->fd = open(o->target, O_WRONLY | O_NOCTTY);
    struct stat st;
    if (o->fd < 0) return fail(err, err_size, o->name, "cannot open it for writing: %s", strerror(errno));
    if (fstat(o->fd, &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)))
      return fail(err, err_size, o->name, "is no longer a FIFO or a character device");
  }
  if (o->fd < 0) return fail(err, err_size, o->name, "not open");
  const char *p = data;
  while (size > 0) {
    ssize_t n = write(o->fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      return fail(err, err_size, o->name, "write error: %s", n < 0 ? strerror(errno) : "nothing written");
    p += n;
    size -= (size_t)n;
  }
  return 0;
}

int output_commit(output_file *o, char *err, size_t err_size) {
  if (o->through) {
    int closed = o->fd >= 0 ? close(o->fd) : 0;
    o->fd = -1;
    int rc = closed != 0 ? fail(err, err_size, o->name, "write error: %s", strerror(errno)) : 0;
    release(o);
    return rc;
  }
  int rc = -1;
  /* Durable before it is visible under the final name; EINVAL means the
   * file system has nothing to sync. */
  if (fsync(o->fd) != 0 && errno != EINVAL) {
    fail(err, err_size, o->name, "cannot sync %s: %s", temp_name, strerror(errno));
  } else if (close(o->fd) != 0) {
    o->fd = -1;
    fail(err, err_size, o->name, "write error on %s: %s", temp_name, strerror(errno));
  } else {
    o->fd = -1;
    sigset_t old;
    block_signals(&old);
    int renamed = rename(temp_name, o->target);
    int e = errno;
    temp_exists = renamed != 0;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (renamed != 0)
      fail(err, err_size, o->name, "cannot rename %s to it: %s", temp_name, strerror(e));
    else
      rc = 0;
  }
  if (o->fd >= 0) close(o->fd);
  o->fd = -1;
  drop_temp(rc != 0);
  release(o);
  return rc;
}
