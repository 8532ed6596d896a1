/* The base every source file of the library includes: the public header,
 * the enumerations, the check macros, logging and the small arithmetic
 * every layer uses. No GL: the GL-free layer (plan/) stands on it, and
 * gl/gl_api.h adds the GL names for the layers above. Not installed. */
#ifndef GT_INTERNAL_H
#define GT_INTERNAL_H

#include <gltile/gltile.h>

#include "plan/enumerations.h"

/* A GL object's name and a uniform's location, as the GL-free layer keeps
 * them: GLuint's and GLint's very types (gl/gl_api.h checks the sizes). */
typedef unsigned int gt_gl_name;
typedef int gt_gl_location;

/* A GL entry point looked up at run time (eglGetProcAddress's type),
 * called through its own type where it is used. */
typedef void (*gt_gl_proc)(void);

/* One-line argument checks: return the status when the condition fails. */
#define GT__CHECK(cond, status)                                                                              \
  do {                                                                                                       \
    if (!(cond)) return (status);                                                                            \
  } while (0)

#define GT__TRY(expr)                                                                                        \
  do {                                                                                                       \
    gt_status gt__s_ = (expr);                                                                               \
    if (gt__s_ != GT_OK) return gt__s_;                                                                      \
  } while (0)

/* true when the space-separated list (EGL or GL extensions) names name
 * exactly. */
bool gt__has_extension(const char *list, const char *name);

/* Logs through the context's logger, printf style. Cheap when silent. */
void gt__log(const gt_context *ctx, int level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Elements per 32-bit word of a kernel's storage: 1 for 4-byte types,
 * 2 or 4 for the packed ones. */
static inline uint32_t gt__pack(gt_type t) {
  size_t size = gt_type_size(t);
  return size ? (uint32_t)(4 / size) : 1;
}

static inline uint32_t gt__min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* Ceil(a / b) for b > 0, without overflow. */
static inline uint32_t gt__div_up(uint32_t a, uint32_t b) { return a / b + (a % b != 0); }

/* Adds why to a plan's reasons (reason.c): "; " between them, cut at size. */
void gt__reason_add(char *reasons, size_t size, const char *why);

#endif
