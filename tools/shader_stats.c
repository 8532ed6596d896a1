/* Reads the compiler statistics lines of Mesa's mobile drivers (their
 * fields are described in the drivers' sources; the mesa-mobile tool's
 * README lists them). */
#include "shader_stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value of item `name` in the driver's "VALUE NAME, VALUE NAME" list,
 * or -1. For "S:F spills:fills", the value before the colon; `second`
 * gets the one after. */
static double item(const char *line, const char *name, double *second) {
  size_t len = strlen(name);
  for (const char *p = line; (p = strstr(p, name)) != NULL; p += len) {
    bool starts = p > line && p[-1] == ' ';
    bool ends = p[len] == ',' || p[len] == '\0';
    if (!starts || !ends) continue;
    const char *v = p - 1;
    while (v > line && v[-1] != ' ' && v[-1] != ',')
      v--;
    char *end;
    double value = strtod(v, &end);
    if (end == v) return -1;
    if (second != NULL) *second = *end == ':' ? strtod(end + 1, NULL) : -1;
    return value;
  }
  return -1;
}

static double first_of(double a, double b) { return a >= 0 ? a : b; }

bool shader_stats_parse(const char *message, const char *renderer, shader_stats *out) {
  memset(out, 0, sizeof *out);
  out->loop_inst = out->loop_memory = -1;
  const char *items = NULL;
  bool mali = strstr(message, "MESA_SHADER_COMPUTE shader: ") != NULL;
  if (mali)
    items = strstr(message, "MESA_SHADER_COMPUTE shader: ") + 28;
  else if (strncmp(message, "CL shader: ", 11) == 0 || strstr(message, " CL shader: ") != NULL)
    items = strstr(message, "CL shader: ") + 11;
  if (items == NULL) return false;
  snprintf(out->line, sizeof out->line, "%s", items);
  size_t n = strlen(out->line);
  while (n > 0 && (out->line[n - 1] == '\n' || out->line[n - 1] == ' '))
    out->line[--n] = '\0';
  const char *l = out->line;
  out->inst = item(l, "inst", NULL);
  out->registers =
      first_of(item(l, "registers", NULL), first_of(item(l, "full", NULL), item(l, "max-temps", NULL)));
  out->spills = item(l, "spills:fills", &out->fills);
  if (out->spills < 0) {
    out->spills = item(l, "stp", NULL); /* Adreno: private memory */
    out->fills = item(l, "ldp", NULL);
  }
  out->occupancy = first_of(item(l, "threads", NULL), item(l, "waves", NULL));
  out->cycles = first_of(item(l, "cycles", NULL), item(l, "inst-and-stalls", NULL));
  out->ldst = first_of(item(l, "ldst", NULL), item(l, "ls", NULL));
  out->arith = item(l, "arith", NULL);
  if (out->arith < 0 && item(l, "fma", NULL) >= 0) { /* Valhall: the busiest arithmetic unit */
    double fma = item(l, "fma", NULL), cvt = item(l, "cvt", NULL), sfu = item(l, "sfu", NULL);
    out->arith = fma > cvt ? (fma > sfu ? fma : sfu) : (cvt > sfu ? cvt : sfu);
  }
  double cat5 = item(l, "cat5", NULL), cat6 = item(l, "cat6", NULL); /* Adreno: texture, memory */
  out->memory = first_of(out->ldst, cat6 >= 0 ? cat6 + (cat5 > 0 ? cat5 : 0) : -1);
  out->nops = item(l, "nops", NULL);
  out->sync_stalls = item(l, "systall", NULL);
  /* Full occupancy: Adreno 16 waves per SP; V3D 4 threads per QPU;
   * Bifrost and Valhall 2 (32 registers or fewer), save the G72, which
   * Mesa always reports as 1; Midgard 4 (4 work registers or fewer). */
  if (item(l, "waves", NULL) >= 0)
    out->occupancy_max = 16;
  else if (item(l, "max-temps", NULL) >= 0)
    out->occupancy_max = 4;
  else if (item(l, "bundles", NULL) >= 0)
    out->occupancy_max = 4;
  else
    out->occupancy_max = renderer != NULL && strstr(renderer, "Mali-G72") ? 1 : 2;
  return true;
}

const char *shader_stats_shortfall(const shader_stats *s) {
  if (s->spills > 0 || s->fills > 0) return "spills";
  if (s->occupancy >= 0 && s->occupancy < s->occupancy_max) return "occupancy";
  return "";
}
