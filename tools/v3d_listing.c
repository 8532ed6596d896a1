/* V3D's QPU listings, read line by line (v3d_listing.h). */
#include "v3d_listing.h"

#include <stdlib.h>
#include <string.h>

bool v3d_listing_printed(void) {
  const char *flags = getenv("V3D_DEBUG");
  return flags != NULL && strstr(flags, "qpu") != NULL;
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

void v3d_listing_start(v3d_listing *l) {
  l->inside = false;
  l->requests = 0;
  l->last = -1;
}

bool v3d_listing_line(v3d_listing *l, const char *line) {
  if (listing_header(line)) {
    l->inside = true;
    l->requests = 0;
    return true;
  }
  if (l->inside && strncmp(line, "0x", 2) == 0) {
    l->requests += v3d_line_tmu_requests(line);
    return true;
  }
  if (l->inside) l->last = l->requests;
  l->inside = false;
  return false;
}

double v3d_listing_requests(v3d_listing *l) {
  if (l->inside) l->last = l->requests;
  l->inside = false;
  return l->last;
}
