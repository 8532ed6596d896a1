/* What gt_kernel_create refuses before it compiles anything: view and
 * uniform names that would clash with GLSL or with the library
 * (kernel_names.c), and bodies that could reach memory they were not
 * given, hide text from the check, or cost more to compile than the
 * documented limits (kernel_body.c). No GL here. */
#ifndef GT_KERNEL_CHECK_H
#define GT_KERNEL_CHECK_H

#include "plan/gt_internal.h"

/* Each refusal: X(id, what the log says). The log line names the id, so a
 * test can tell which check fired. */
#define GT_EACH_KERNEL_REFUSAL(X)                                                                            \
  X(NAME_NOT_PLAIN, "is not a plain identifier (letters, digits and _, no leading digit, at most "           \
                    "GT_KERNEL_MAX_NAME characters)")                                                        \
  X(NAME_RESERVED, "is a GLSL ES keyword, reserved word or built-in function, or main")                      \
  X(NAME_LIBRARY, "is the library's or GLSL's own (gt_, gl_, GT_ and GL_ names, guarded_read, "              \
                  "guarded_write, names with __)")                                                           \
  X(NAME_HELPER, "is a helper of another view (NAME_index, NAME_extent, NAME_read, NAME_write)")             \
  X(NAME_REPEATED, "is given twice")                                                                         \
  X(BODY_EMPTY, "the body is NULL or empty")                                                                 \
  X(BODY_LONG, "the body is longer than GT_KERNEL_MAX_BODY bytes")                                           \
  X(BODY_LARGE, "the body is more than GT_KERNEL_MAX_TOKENS tokens once every call of its own functions "    \
                "counts as the function's tokens, a NAME_read or NAME_write as 16, a costly built-in "       \
                "(inverse, determinant, atan, the half packing, transcendental functions) as 4 to 64 and "   \
                "the statements of a loop with no loop inside as 32 times theirs (drivers inline calls and " \
                "unroll loops)")                                                                             \
  X(BODY_FUNCTIONS, "the body defines more than 64 functions")                                               \
  X(BODY_NESTED, "the body nests statements (blocks, loops, branches) more than 64 deep")                    \
  X(DIRECTIVE, "a preprocessor directive: #define and ## can make or hide any word, #if can tell the "       \
               "library's two programs apart, #extension and #pragma reach the driver")                      \
  X(BACKSLASH, "a backslash: a line continuation joins two words into a third, or ends a comment")           \
  X(COMMENT_OPEN, "a /* comment that does not end")                                                          \
  X(CHARACTER, "a character GLSL does not have outside block comments")                                      \
  X(NUMBER_NAME, "a number running into a name")                                                             \
  X(MEMORY, "declares or names memory it was not given: layout, buffer, uniform, images, samplers and "      \
            "atomic counters are the library's to declare")                                                  \
  X(LIBRARY_NAME, "names the library's own: a body uses gt_global, gt_local, gt_tile, gt_tile_origin, "      \
                  "gt_in_domain, gt_domain, GT_TILE_ROWS and GT_TILE_COLS only")                             \
  X(VIEW_NAME, "uses a view by name, or its NAME_index: the elements are NAME_read(idx) and "                \
               "NAME_write(idx, v), which reach only the view")                                              \
  X(READ_OF_WRITE_VIEW, "reads a WRITE view: it has NAME_write only")                                        \
  X(WRITE_OF_READ_VIEW, "writes a READ view: it has NAME_read only")                                         \
  X(BARRIER_AFTER_RETURN, "barrier() after a return in main(): guard the work instead (gt_in_domain, "       \
                          "NAME_read / NAME_write) and keep every barrier reachable")

typedef enum gt_kernel_refusal {
  GT_KERNEL_ACCEPTED = 0,
#define GT__KERNEL_REFUSAL_ENUM(id, text) GT_KERNEL_REFUSED_##id,
  GT_EACH_KERNEL_REFUSAL(GT__KERNEL_REFUSAL_ENUM)
} gt_kernel_refusal;

/* Why a desc was refused: the check, and where (the name, or the body's
 * line and the word), for the log. */
typedef struct gt_kernel_verdict {
  gt_kernel_refusal refusal;
  uint32_t line;  /* the body's line, from 1; 0 for a name */
  char where[48]; /* the name or word at fault, cut to fit */
} gt_kernel_verdict;

/* The refusal's id as listed ("NAME_HELPER") and its text; "" and "" for
 * GT_KERNEL_ACCEPTED. */
const char *gt__kernel_refusal_id(gt_kernel_refusal r);
const char *gt__kernel_refusal_text(gt_kernel_refusal r);

/* How a word of GLSL stands to the checks: memory (layout, buffer,
 * uniform, opaque types, image and atomic-counter functions), any other
 * keyword, reserved word or built-in function (and main), or neither. */
typedef enum gt_glsl_word { GT_GLSL_WORD_PLAIN, GT_GLSL_WORD_MEMORY, GT_GLSL_WORD_RESERVED } gt_glsl_word;
gt_glsl_word gt__glsl_word(const char *word, size_t len);

/* The views' and uniforms' names (counts within the MAX): plain, not
 * reserved, not the library's, no helper of another view, no repeat.
 * Returns GT_KERNEL_ACCEPTED, or fills *v and returns its refusal. */
gt_kernel_refusal gt__kernel_check_names(const gt_kernel_desc *d, gt_kernel_verdict *v);

/* The body, read as the driver reads it (names checked first).
 * Returns GT_KERNEL_ACCEPTED, or fills *v and returns its refusal. */
gt_kernel_refusal gt__kernel_check_body(const gt_kernel_desc *d, gt_kernel_verdict *v);

#endif
