/* A scratch directory for tests that write files: made with mkdtemp,
 * paths inside it, a count of leftover temporaries, and removal. Needs
 * _POSIX_C_SOURCE 200809L (mkdtemp, opendir) defined before any include. */
#ifndef GT_TESTS_SCRATCH_DIR_H
#define GT_TESTS_SCRATCH_DIR_H

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[512];

/* Creates the directory under TMPDIR (or /tmp); false on failure. */
static inline bool scratch_make(const char *prefix) {
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix);
  if (mkdtemp(dir) == NULL) {
    perror("mkdtemp");
    return false;
  }
  return true;
}

/* dir/name; the last 8 results stay valid at once. */
static inline const char *path_in_dir(const char *name) {
  static char buf[8][1024];
  static int next;
  char *p = buf[next++ % 8];
  snprintf(p, sizeof buf[0], "%s/%s", dir, name);
  return p;
}

/* Files whose name holds ".tmp": what an interrupted atomic write leaves. */
static inline int count_temporaries(void) {
  DIR *d = opendir(dir);
  int n = 0;
  if (d == NULL) return -1;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    n += strstr(e->d_name, ".tmp") != NULL;
  closedir(d);
  return n;
}

static inline void remove_dir(void) {
  DIR *d = opendir(dir);
  if (d == NULL) return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    const char *p = path_in_dir(e->d_name);
    if (unlink(p) != 0) rmdir(p);
  }
  closedir(d);
  rmdir(dir);
}

/* xorshift32, for test data. */
static inline uint32_t next_word(uint32_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 17;
  *x ^= *x << 5;
  return *x;
}

#endif
