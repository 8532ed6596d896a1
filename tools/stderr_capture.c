/* stderr captured and given back (stderr_capture.h). */
#if !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include "stderr_capture.h"

#include <string.h>
#include <unistd.h>

bool stderr_capture_begin(stderr_capture *c) {
  c->file = tmpfile();
  if (c->file == NULL) return false;
  fflush(stderr);
  c->stderr_copy = dup(STDERR_FILENO);
  if (c->stderr_copy < 0 || dup2(fileno(c->file), STDERR_FILENO) < 0) {
    if (c->stderr_copy >= 0) close(c->stderr_copy);
    fclose(c->file);
    return false;
  }
  return true;
}

void stderr_capture_end(stderr_capture *c, stderr_keep_fn keep, void *user) {
  fflush(stderr);
  dup2(c->stderr_copy, STDERR_FILENO);
  close(c->stderr_copy);
  rewind(c->file);
  char line[512];
  while (fgets(line, sizeof line, c->file) != NULL) {
    bool whole = strchr(line, '\n') != NULL || feof(c->file);
    bool kept = keep(line, user);
    if (!kept) fputs(line, stderr);
    while (!whole && fgets(line, sizeof line, c->file) != NULL) {
      whole = strchr(line, '\n') != NULL;
      if (!kept) fputs(line, stderr);
    }
  }
  fclose(c->file);
}
