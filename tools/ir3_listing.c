/* freedreno's ir3 listings, read line by line (ir3_listing.h). */
#include "ir3_listing.h"

#include <stdlib.h>
#include <string.h>

enum { OUTSIDE, NIR, CODE };

static const char prefix[] = "MESA: info: ";

bool ir3_listing_printed(void) {
  const char *flags = getenv("IR3_SHADER_DEBUG");
  for (const char *p = flags; p != NULL && *p;) {
    size_t len = strcspn(p, ",");
    if (len == 2 && strncmp(p, "cs", 2) == 0) return true;
    p += len;
    p += strspn(p, ",");
  }
  return false;
}

void ir3_listing_start(ir3_listing *l) {
  memset(l, 0, sizeof *l);
  l->state = OUTSIDE;
  l->loop_inst = l->loop_memory = l->last_inst = l->last_memory = -1;
}

static bool starts(const char *s, const char *with) { return strncmp(s, with, strlen(with)) == 0; }

static void begin_code(ir3_listing *l) {
  l->state = CODE;
  l->inst = l->memory = 0;
  l->loop_inst = l->loop_memory = -1;
  l->labels = 0;
}

static void end_code(ir3_listing *l) {
  if (l->state == CODE) {
    l->last_inst = l->loop_inst;
    l->last_memory = l->loop_memory;
  }
  l->state = OUTSIDE;
}

/* "l123:" alone on its line: 123; else -1. */
static long label_of(const char *s) {
  if (s[0] != 'l' || s[1] < '0' || s[1] > '9') return -1;
  char *end;
  long name = strtol(s + 1, &end, 10);
  return end[0] == ':' && (end[1] == '\0' || end[1] == '\n') ? name : -1;
}

/* Memory instructions by their opcode's start (categories 6 and 5). */
static bool memory_opcode(const char *op) {
  static const char *const starts_of[] = {"ld", "st", "atomic", "resinfo", "isam", "sam", "gather"};
  for (size_t i = 0; i < sizeof starts_of / sizeof starts_of[0]; i++)
    if (starts(op, starts_of[i])) return true;
  return false;
}

/* One instruction of the code: "(sy)(rpt1)mad.f32 r1.w, ...", "br p0.x, #l154". */
static void read_instruction(ir3_listing *l, const char *s) {
  int repeat = 0;
  while (*s == '(') { /* flags: (sy), (ss), (jp), (nopN), (rptN), (ul) */
    if (starts(s, "(rpt")) repeat = atoi(s + 4);
    const char *close = strchr(s, ')');
    if (close == NULL) return;
    s = close + 1;
  }
  l->inst += 1 + repeat;
  if (memory_opcode(s)) l->memory++;
  if (l->loop_inst >= 0 || !(starts(s, "jump ") || starts(s, "br "))) return;
  const char *target = strstr(s, "#l");
  if (target == NULL) return;
  long name = strtol(target + 2, NULL, 10);
  for (int i = 0; i < l->labels; i++)
    if (l->label[i].name == name) { /* a branch back: the loop from there */
      l->loop_inst = l->inst - l->label[i].inst;
      l->loop_memory = l->memory - l->label[i].memory;
    }
}

bool ir3_listing_line(ir3_listing *l, const char *line) {
  if (!starts(line, prefix)) {
    end_code(l);
    return false;
  }
  const char *s = line + strlen(prefix);
  s += strspn(s, " \t");
  if (starts(s, "NIR (final form)")) {
    end_code(l);
    l->state = NIR;
    return true;
  }
  if (starts(s, "Native code")) {
    begin_code(l);
    return true;
  }
  if (l->state == NIR) return true;
  if (l->state == OUTSIDE) return false;
  /* The code, to the blank line after its statistics. */
  if (*s == '\0' || *s == '\n') {
    end_code(l);
    return true;
  }
  long name = label_of(s);
  if (name >= 0 && l->labels < IR3_LISTING_LABELS) {
    l->label[l->labels].name = name;
    l->label[l->labels].inst = l->inst;
    l->label[l->labels].memory = l->memory;
    l->labels++;
  } else if (name < 0 && *s != ';' && *s != '@') {
    read_instruction(l, s);
  }
  return true;
}

bool ir3_listing_loop(ir3_listing *l, double *inst, double *memory) {
  end_code(l);
  *inst = l->last_inst;
  *memory = l->last_memory;
  return l->last_inst >= 0;
}
