#include "csv.h"

#include <string.h>

csv_writer csv_on(FILE *f) {
  csv_writer w = {f, false};
  return w;
}

static void next_field(csv_writer *w) {
  if (w->in_row) fputc(',', w->f);
  w->in_row = true;
}

void csv_text(csv_writer *w, const char *text) {
  next_field(w);
  if (text == NULL) return;
  if (text[strcspn(text, ",\"\r\n")] == '\0') {
    fputs(text, w->f);
    return;
  }
  fputc('"', w->f);
  for (const char *p = text; *p; p++) {
    if (*p == '"') fputc('"', w->f);
    fputc(*p, w->f);
  }
  fputc('"', w->f);
}

void csv_number(csv_writer *w, const char *format, double value) {
  next_field(w);
  fprintf(w->f, format, value);
}

void csv_count(csv_writer *w, unsigned long value) {
  next_field(w);
  fprintf(w->f, "%lu", value);
}

void csv_empty(csv_writer *w) { next_field(w); }

void csv_header(csv_writer *w, const char *const *names, size_t count) {
  for (size_t i = 0; i < count; i++)
    csv_text(w, names[i]);
  csv_end_row(w);
}

void csv_end_row(csv_writer *w) {
  fputc('\n', w->f);
  w->in_row = false;
}
