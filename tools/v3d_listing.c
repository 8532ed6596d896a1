/* V3D's QPU listings, read from the driver's stderr (v3d_listing.h). */
#if !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include "v3d_listing.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool v3d_listing_printed(void) {
  const char *flags = getenv("V3D_DEBUG");
  return flags != NULL && strstr(flags, "qpu") != NULL;
}

bool v3d_listing_begin(v3d_listing *l) {
  l->capture = tmpfile();
  if (l->capture == NULL) return false;
  fflush(stderr);
  l->stderr_copy = dup(STDERR_FILENO);
  if (l->stderr_copy < 0 || dup2(fileno(l->capture), STDERR_FILENO) < 0) {
    if (l->stderr_copy >= 0) close(l->stderr_copy);
    fclose(l->capture);
    return false;
  }
  return true;
}

int v3d_line_tmu_requests(const char *line) {
  static const char *const triggers[] = {"tmua", "tmuau", "tmus", "tmusf", "tmuscm", "tmusfcm"};
  int requests = 0;
  /* An instruction's words: "0x<code> add tmua, r1, r2 ; nop ; ldunif".
   * These registers are written, never read, so each one named is one
   * write. */
  for (const char *p = line; *p;) {
    size_t len = strcspn(p, " ,;\t\n");
    for (size_t i = 0; i < sizeof triggers / sizeof triggers[0]; i++)
      if (len == strlen(triggers[i]) && strncmp(p, triggers[i], len) == 0) requests++;
    p += len;
    p += strspn(p, " ,;\t\n");
  }
  return requests;
}

/* A listing begins with "MESA_SHADER_COMPUTE prog N/M QPU:" (Mesa 22.3
 * and 25.0), one line an instruction ("0x" and its code), and ends at the
 * first other line. */
static bool listing_header(const char *line) {
  size_t n = strcspn(line, "\n");
  return n >= 4 && strncmp(line + n - 4, "QPU:", 4) == 0;
}

double v3d_listing_end(v3d_listing *l) {
  fflush(stderr);
  dup2(l->stderr_copy, STDERR_FILENO);
  close(l->stderr_copy);
  rewind(l->capture);
  double last = -1;
  int requests = 0;
  bool inside = false;
  char line[512];
  while (fgets(line, sizeof line, l->capture) != NULL) {
    bool whole = strchr(line, '\n') != NULL || feof(l->capture);
    if (listing_header(line)) {
      inside = true;
      requests = 0;
    } else if (inside && strncmp(line, "0x", 2) == 0) {
      requests += v3d_line_tmu_requests(line);
    } else {
      if (inside) last = requests;
      inside = false;
      fputs(line, stderr);
    }
    /* The rest of a line longer than the buffer goes where its start went. */
    while (!whole && fgets(line, sizeof line, l->capture) != NULL) {
      whole = strchr(line, '\n') != NULL;
      if (!inside) fputs(line, stderr);
    }
  }
  if (inside) last = requests;
  fclose(l->capture);
  return last;
}
