/* Rows of comma-separated values for the files the gltile program writes
 * (bench --csv, compile --csv), quoted as RFC 4180 says: a text field
 * holding a comma, a double quote, a CR or a LF goes between double
 * quotes with its own quotes doubled, and any other field is written as
 * it is, so that a reader (Python's csv module, a spreadsheet) sees the
 * columns the header names. Rows end with a LF alone, as the files
 * already committed do; readers take it as they take CRLF. No GL here. */
#ifndef GT_TOOL_CSV_H
#define GT_TOOL_CSV_H

#include <stdbool.h>
#include <stdio.h>

typedef struct csv_writer {
  FILE *f;
  bool in_row; /* a field is written on this row: the next needs a comma */
} csv_writer;

/* A writer onto an open file; the caller closes the file. */
csv_writer csv_on(FILE *f);

/* A text field; quoted only where its characters need it. NULL is an
 * empty field. */
void csv_text(csv_writer *w, const char *text);

/* A number with a printf conversion of one double ("%.3f", "%g"); never
 * quoted. */
void csv_number(csv_writer *w, const char *format, double value);

/* An unsigned count; never quoted. */
void csv_count(csv_writer *w, unsigned long value);

/* An empty field (a value not measured). */
void csv_empty(csv_writer *w);

/* Text fields in order: a header of `count` names. Ends the row. */
void csv_header(csv_writer *w, const char *const *names, size_t count);

void csv_end_row(csv_writer *w);

#endif
