/* The gltile program's CSV writer (tools/csv.c), byte for byte: each
 * character RFC 4180 quotes for (comma, double quote, CR, LF) in a text
 * field, quotes doubled, fields that need nothing left bare, numbers never
 * quoted, and rows that start afresh. No GL. */
#include "csv.h"

#include <stdio.h>
#include <string.h>

#include "check.h"

/* What the writer put in f, from its start. */
static const char *contents(FILE *f) {
  static char text[1024];
  fflush(f);
  rewind(f);
  size_t got = fread(text, 1, sizeof text - 1, f);
  text[got] = '\0';
  return text;
}

/* CR and LF as \r and \n, so a failure shows where they are. */
static void print_escaped(const char *s) {
  for (; *s; s++)
    if (*s == '\r')
      fputs("\\r", stderr);
    else if (*s == '\n')
      fputs("\\n", stderr);
    else
      fputc(*s, stderr);
  fputc('\n', stderr);
}

static void check_bytes(FILE *f, const char *want) {
  const char *got = contents(f);
  if (strcmp(got, want) == 0) {
    check_passed++;
    return;
  }
  check_failed++;
  fputs("CHECK failed: the writer wrote\n  ", stderr);
  print_escaped(got);
  fputs("want\n  ", stderr);
  print_escaped(want);
}

/* One text field alone on a row, as the writer quotes it. */
static void check_field(const char *text, const char *want) {
  FILE *f = tmpfile();
  if (f == NULL) {
    CHECK(f != NULL);
    return;
  }
  csv_writer w = csv_on(f);
  csv_text(&w, text);
  csv_end_row(&w);
  char row[256];
  snprintf(row, sizeof row, "%s\n", want);
  check_bytes(f, row);
  fclose(f);
}

int main(void) {
  check_field("plain", "plain");
  check_field(" spaces kept ", " spaces kept "); /* RFC 4180: spaces are the field's */
  check_field("a,b", "\"a,b\"");
  check_field("say \"hi\"", "\"say \"\"hi\"\"\"");
  check_field("\"", "\"\"\"\"");
  check_field("cr\rhere", "\"cr\rhere\"");
  check_field("lf\nhere", "\"lf\nhere\"");
  check_field("crlf\r\n", "\"crlf\r\n\"");
  check_field("auto=shared 128 vec4 b,c", "\"auto=shared 128 vec4 b,c\"");

  /* A header, then two rows of every kind of field: the second row starts
   * without a comma, numbers and empty fields are bare. */
  FILE *f = tmpfile();
  CHECK(f != NULL);
  if (f == NULL) return CHECK_SUMMARY();
  csv_writer w = csv_on(f);
  static const char *const header[] = {"name", "count", "ms", "note", "none"};
  csv_header(&w, header, sizeof header / sizeof header[0]);
  for (int row = 0; row < 2; row++) {
    csv_text(&w, row ? "b" : "a,\"x\"");
    csv_count(&w, 4294967295ul);
    csv_number(&w, "%.3f", -1.5);
    csv_text(&w, NULL);
    csv_empty(&w);
    csv_end_row(&w);
  }
  check_bytes(f, "name,count,ms,note,none\n"
                 "\"a,\"\"x\"\"\",4294967295,-1.500,,\n"
                 "b,4294967295,-1.500,,\n");
  fclose(f);
  return CHECK_SUMMARY();
}
