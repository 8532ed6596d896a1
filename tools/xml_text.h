/* Text put into the XML the gltile program writes (bench --svg): a
 * renderer string or a plan's label may hold &, <, > or quotes, which
 * would end an element or an attribute, or make the file unreadable. */
#ifndef GT_TOOL_XML_TEXT_H
#define GT_TOOL_XML_TEXT_H

#include <stdio.h>

/* Writes text as XML character data that reads back as the same text in
 * an element or in an attribute quoted either way: &amp; &lt; &gt;
 * &quot; &apos;, and tab, LF and CR as references (a parser would turn a
 * bare CR into a LF, and all three into spaces in an attribute). Control
 * characters XML 1.0 does not allow even as references become '?'. */
void xml_text(FILE *f, const char *text);

#endif
