/* The GL names for the layers that call GL (gl/ and ops/): the GLES 3.1
 * header, the ES 3.2 names a context of any version may answer with, the
 * fault-injection wrappers of the tests' second build, and the mapping of
 * GL errors to statuses (gl_status.c). Not installed. */
#ifndef GT_GL_API_H
#define GT_GL_API_H

#include "plan/gt_internal.h"

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

/* The types of the entry points the context looks up at init and keeps
 * as gt_gl_proc (context.h). */
typedef GLenum(GL_APIENTRYP gt_reset_status_fn)(void);
typedef void(GL_APIENTRYP gt_tex_buffer_range_fn)(GLenum, GLenum, GLuint, GLintptr, GLsizeiptr);

/* Tests build the library a second time with every GL call wrapped. */
#ifdef GT_FAULT_INJECTION
#include "gl/fault_injection.h"
#endif

/* The GL-free layer names GL objects and uniform locations by these plain
 * types (context.h, program.h); they are GLuint and GLint exactly. */
typedef char gt__gl_name_is_gluint[sizeof(gt_gl_name) == sizeof(GLuint) ? 1 : -1];
typedef char gt__gl_location_is_glint[sizeof(gt_gl_location) == sizeof(GLint) ? 1 : -1];

/* GT_OK when ctx is usable on this thread: non-NULL, not lost, and its GL
 * context current. Every entry point calls it first; it also clears GL
 * errors the application left, so they are not reported as ours. */
gt_status gt__context_check(gt_context *ctx);

/* Maps the GL error flag (glGetError) and the reset status to a status;
 * GT_OK when both are clear. A lost context marks ctx lost for good. */
gt_status gt__gl_status(gt_context *ctx, const char *where);
/* The same for an error already taken from glGetError. */
gt_status gt__gl_error_status(gt_context *ctx, GLenum error, const char *where);

#endif
