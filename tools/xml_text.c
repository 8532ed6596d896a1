#include "xml_text.h"

void xml_text(FILE *f, const char *text) {
  for (const char *p = text; *p; p++) {
    unsigned char c = (unsigned char)*p;
    switch (c) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&apos;", f); break;
    case '\t':
    case '\n':
    case '\r': fprintf(f, "&#%d;", c); break;
    default: fputc(c < 0x20 ? '?' : c, f); break;
    }
  }
}
