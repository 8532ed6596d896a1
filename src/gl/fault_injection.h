/* GL fault injection, for tests only. A library built with
 * GT_FAULT_INJECTION routes every GL call it makes through a wrapper that
 * counts the calls and can make one of them fail: the call does nothing,
 * returns what a failed call returns (0, NULL, GL_FALSE), and the error
 * given to gt__fault_arm is what glGetError reports next. Injecting
 * GL_CONTEXT_LOST models a lost context: that call and every later one
 * does nothing, glGetError keeps answering GL_CONTEXT_LOST and
 * glGetGraphicsResetStatus a guilty reset, until gt__fault_reset.
 *
 * A failure injected into a compile or link status query reports the
 * build as failed without any GL error, as a shader the driver rejects
 * would. */
#ifndef GT_FAULT_INJECTION_H
#define GT_FAULT_INJECTION_H

#include "plan/gt_internal.h"

#include <GLES3/gl31.h>
#include <stdbool.h>
#include <stdint.h>

#ifndef GL_CONTEXT_LOST
#define GL_CONTEXT_LOST 0x0507
#endif
#ifndef GL_GUILTY_CONTEXT_RESET
#define GL_GUILTY_CONTEXT_RESET 0x8253
#endif

/* Counts calls from now on and makes the n-th fail (1-based) with error;
 * n = 0 only counts. */
void gt__fault_arm(uint64_t n, GLenum error);
/* GL calls since the last gt__fault_arm. */
uint64_t gt__fault_calls(void);
/* The GL function that was made to fail, or NULL when none has been. */
const char *gt__fault_failed_call(void);
/* Shaders, programs, buffers and fences created through the wrappers and
 * not yet deleted. */
uint32_t gt__fault_live_objects(void);
/* Forgets a simulated loss and the objects of the lost context: a new
 * context has been made current. */
void gt__fault_reset(void);

/* The wrappers. */
GLenum gt__fi_glGetError(void);
GLenum gt__fi_glGetGraphicsResetStatus(void);
const GLubyte *gt__fi_glGetString(GLenum name);
void gt__fi_glGetIntegerv(GLenum pname, GLint *data);
void gt__fi_glGetIntegeri_v(GLenum target, GLuint index, GLint *data);
void gt__fi_glGetInteger64v(GLenum pname, GLint64 *data);
GLboolean gt__fi_glIsBuffer(GLuint buffer);
GLboolean gt__fi_glIsTexture(GLuint texture);
void gt__fi_glBindBuffer(GLenum target, GLuint buffer);
void gt__fi_glBindBufferRange(GLenum target, GLuint index, GLuint buffer, GLintptr offset, GLsizeiptr size);
void gt__fi_glGetBufferParameteri64v(GLenum target, GLenum pname, GLint64 *params);
void *gt__fi_glMapBufferRange(GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access);
GLboolean gt__fi_glUnmapBuffer(GLenum target);
void gt__fi_glBindTexture(GLenum target, GLuint texture);
void gt__fi_glGetTexParameteriv(GLenum target, GLenum pname, GLint *params);
void gt__fi_glGetTexLevelParameteriv(GLenum target, GLint level, GLenum pname, GLint *params);
void gt__fi_glBindImageTexture(GLuint unit, GLuint texture, GLint level, GLboolean layered, GLint layer,
                               GLenum access, GLenum format);
GLuint gt__fi_glCreateShader(GLenum type);
void gt__fi_glShaderSource(GLuint shader, GLsizei count, const GLchar *const *string, const GLint *length);
void gt__fi_glCompileShader(GLuint shader);
void gt__fi_glGetShaderiv(GLuint shader, GLenum pname, GLint *params);
void gt__fi_glGetShaderInfoLog(GLuint shader, GLsizei size, GLsizei *length, GLchar *log);
void gt__fi_glDeleteShader(GLuint shader);
GLuint gt__fi_glCreateProgram(void);
void gt__fi_glAttachShader(GLuint program, GLuint shader);
void gt__fi_glDetachShader(GLuint program, GLuint shader);
void gt__fi_glLinkProgram(GLuint program);
void gt__fi_glGetProgramiv(GLuint program, GLenum pname, GLint *params);
void gt__fi_glGetProgramInfoLog(GLuint program, GLsizei size, GLsizei *length, GLchar *log);
void gt__fi_glDeleteProgram(GLuint program);
void gt__fi_glProgramParameteri(GLuint program, GLenum pname, GLint value);
void gt__fi_glGetProgramBinary(GLuint program, GLsizei size, GLsizei *length, GLenum *format, void *binary);
void gt__fi_glProgramBinary(GLuint program, GLenum format, const void *binary, GLsizei length);
void gt__fi_glGetProgramInterfaceiv(GLuint program, GLenum interface, GLenum pname, GLint *params);
void gt__fi_glGetProgramResourceiv(GLuint program, GLenum interface, GLuint index, GLsizei count,
                                   const GLenum *props, GLsizei size, GLsizei *length, GLint *params);
GLint gt__fi_glGetUniformLocation(GLuint program, const GLchar *name);
void gt__fi_glUseProgram(GLuint program);
void gt__fi_glUniform2ui(GLint location, GLuint v0, GLuint v1);
void gt__fi_glUniform4uiv(GLint location, GLsizei count, const GLuint *value);
void gt__fi_glProgramUniform1i(GLuint program, GLint location, GLint v0);
void gt__fi_glProgramUniform1ui(GLuint program, GLint location, GLuint v0);
void gt__fi_glProgramUniform1f(GLuint program, GLint location, GLfloat v0);
void gt__fi_glProgramUniform2f(GLuint program, GLint location, GLfloat v0, GLfloat v1);
void gt__fi_glProgramUniform2ui(GLuint program, GLint location, GLuint v0, GLuint v1);
void gt__fi_glProgramUniform4fv(GLuint program, GLint location, GLsizei count, const GLfloat *value);
void gt__fi_glProgramUniform4ui(GLuint program, GLint location, GLuint v0, GLuint v1, GLuint v2, GLuint v3);
void gt__fi_glActiveTexture(GLenum texture);
void gt__fi_glGenTextures(GLsizei n, GLuint *textures);
void gt__fi_glDeleteTextures(GLsizei n, const GLuint *textures);
/* glTexBufferRange (ES 3.2) is reached through a pointer from
 * eglGetProcAddress: its wrapper takes the pointer. */
void gt__fi_glTexBufferRange(gt_gl_proc fn, GLenum target, GLenum format, GLuint buffer,
                             GLintptr offset, GLsizeiptr size);
void gt__fi_glDispatchCompute(GLuint x, GLuint y, GLuint z);
void gt__fi_glMemoryBarrier(GLbitfield barriers);
void gt__fi_glFinish(void);
void gt__fi_glFlush(void);
void gt__fi_glGenBuffers(GLsizei n, GLuint *buffers);
void gt__fi_glDeleteBuffers(GLsizei n, const GLuint *buffers);
void gt__fi_glBufferData(GLenum target, GLsizeiptr size, const void *data, GLenum usage);
void gt__fi_glBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, const void *data);
void gt__fi_glCopyBufferSubData(GLenum read_target, GLenum write_target, GLintptr read_offset,
                                GLintptr write_offset, GLsizeiptr size);
GLsync gt__fi_glFenceSync(GLenum condition, GLbitfield flags);
GLenum gt__fi_glClientWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout);
void gt__fi_glDeleteSync(GLsync sync);

/* The library's sources (built with GT_FAULT_INJECTION) call the wrappers
 * under the GL names; tests that include this header do not. */
#if defined(GT_FAULT_INJECTION) && !defined(GT_FAULT_INJECTION_IMPL)
#define glGetError gt__fi_glGetError
#define glGetString gt__fi_glGetString
#define glGetIntegerv gt__fi_glGetIntegerv
#define glGetIntegeri_v gt__fi_glGetIntegeri_v
#define glGetInteger64v gt__fi_glGetInteger64v
#define glIsBuffer gt__fi_glIsBuffer
#define glIsTexture gt__fi_glIsTexture
#define glBindBuffer gt__fi_glBindBuffer
#define glBindBufferRange gt__fi_glBindBufferRange
#define glGetBufferParameteri64v gt__fi_glGetBufferParameteri64v
#define glMapBufferRange gt__fi_glMapBufferRange
#define glUnmapBuffer gt__fi_glUnmapBuffer
#define glBindTexture gt__fi_glBindTexture
#define glGetTexParameteriv gt__fi_glGetTexParameteriv
#define glGetTexLevelParameteriv gt__fi_glGetTexLevelParameteriv
#define glBindImageTexture gt__fi_glBindImageTexture
#define glCreateShader gt__fi_glCreateShader
#define glShaderSource gt__fi_glShaderSource
#define glCompileShader gt__fi_glCompileShader
#define glGetShaderiv gt__fi_glGetShaderiv
#define glGetShaderInfoLog gt__fi_glGetShaderInfoLog
#define glDeleteShader gt__fi_glDeleteShader
#define glCreateProgram gt__fi_glCreateProgram
#define glAttachShader gt__fi_glAttachShader
#define glDetachShader gt__fi_glDetachShader
#define glLinkProgram gt__fi_glLinkProgram
#define glGetProgramiv gt__fi_glGetProgramiv
#define glGetProgramInfoLog gt__fi_glGetProgramInfoLog
#define glDeleteProgram gt__fi_glDeleteProgram
#define glProgramParameteri gt__fi_glProgramParameteri
#define glGetProgramBinary gt__fi_glGetProgramBinary
#define glProgramBinary gt__fi_glProgramBinary
#define glGetProgramInterfaceiv gt__fi_glGetProgramInterfaceiv
#define glGetProgramResourceiv gt__fi_glGetProgramResourceiv
#define glGetUniformLocation gt__fi_glGetUniformLocation
#define glUseProgram gt__fi_glUseProgram
#define glUniform2ui gt__fi_glUniform2ui
#define glUniform4uiv gt__fi_glUniform4uiv
#define glProgramUniform1i gt__fi_glProgramUniform1i
#define glProgramUniform1ui gt__fi_glProgramUniform1ui
#define glProgramUniform1f gt__fi_glProgramUniform1f
#define glProgramUniform2f gt__fi_glProgramUniform2f
#define glProgramUniform2ui gt__fi_glProgramUniform2ui
#define glProgramUniform4fv gt__fi_glProgramUniform4fv
#define glProgramUniform4ui gt__fi_glProgramUniform4ui
#define glActiveTexture gt__fi_glActiveTexture
#define glGenTextures gt__fi_glGenTextures
#define glDeleteTextures gt__fi_glDeleteTextures
#define glDispatchCompute gt__fi_glDispatchCompute
#define glMemoryBarrier gt__fi_glMemoryBarrier
#define glFinish gt__fi_glFinish
#define glFlush gt__fi_glFlush
#define glGenBuffers gt__fi_glGenBuffers
#define glDeleteBuffers gt__fi_glDeleteBuffers
#define glBufferData gt__fi_glBufferData
#define glBufferSubData gt__fi_glBufferSubData
#define glCopyBufferSubData gt__fi_glCopyBufferSubData
#define glFenceSync gt__fi_glFenceSync
#define glClientWaitSync gt__fi_glClientWaitSync
#define glDeleteSync gt__fi_glDeleteSync
#endif

#endif
