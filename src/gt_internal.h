/* The base every source file of the library includes: the public header,
 * the enumerations, the GL names, the check macros, logging and GL status.
 * The layers above have a header each (program.h, device_table.h, view.h,
 * blocking.h, dispatch.h, texels.h, context.h, operation.h and the
 * planners'). Not installed. */
#ifndef GT_INTERNAL_H
#define GT_INTERNAL_H

#include <gltile/gltile.h>

#include "enumerations.h"

#include <GLES3/gl31.h>

/* ES 3.2 (and KHR_robustness) names, for contexts of any version. */
#ifndef GL_CONTEXT_LOST
#define GL_CONTEXT_LOST 0x0507
#endif
#ifndef GL_RESET_NOTIFICATION_STRATEGY
#define GL_RESET_NOTIFICATION_STRATEGY 0x8256
#endif
#ifndef GL_LOSE_CONTEXT_ON_RESET
#define GL_LOSE_CONTEXT_ON_RESET 0x8252
#endif

/* Tests build the library a second time with every GL call wrapped. */
#ifdef GT_FAULT_INJECTION
#include "fault_injection.h"
#endif

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

/* GT_OK when ctx is usable on this thread: non-NULL, not lost, and its GL
 * context current. Every entry point calls it first; it also clears GL
 * errors the application left, so they are not reported as ours. */
gt_status gt__context_check(gt_context *ctx);

/* Maps the GL error flag (glGetError) and the reset status to a status;
 * GT_OK when both are clear. A lost context marks ctx lost for good. */
gt_status gt__gl_status(gt_context *ctx, const char *where);
/* The same for an error already taken from glGetError. */
gt_status gt__gl_error_status(gt_context *ctx, GLenum error, const char *where);

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
