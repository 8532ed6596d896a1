/* The GL wrappers of a GT_FAULT_INJECTION build (see fault_injection.h). */
#define GT_FAULT_INJECTION_IMPL
#include "gl/fault_injection.h"
#include "gl/gl_api.h"

#include <stddef.h>

enum { MAX_TRACKED = 4096 };

static struct {
  uint64_t calls, fail_at;
  GLenum error;   /* what the failed call reports */
  GLenum pending; /* reported by the next glGetError */
  bool lost;
  const char *failed;
  uint64_t live[MAX_TRACKED]; /* objects not yet deleted, as object_key gives */
  uint32_t live_count;
} fi;

void gt__fault_arm(uint64_t n, GLenum error) {
  fi.calls = 0;
  fi.fail_at = n;
  fi.error = error;
  fi.failed = NULL;
}

uint64_t gt__fault_calls(void) { return fi.calls; }
const char *gt__fault_failed_call(void) { return fi.failed; }
uint32_t gt__fault_live_objects(void) { return fi.live_count; }

void gt__fault_reset(void) {
  fi.lost = false;
  fi.pending = GL_NO_ERROR;
  fi.live_count = 0;
  fi.fail_at = 0;
}

/* Counts one call; true when it must fail (the armed one, or any call on a
 * lost context). */
static bool fails(const char *name) {
  if (fi.lost) return true;
  fi.calls++;
  if (fi.fail_at == 0 || fi.calls != fi.fail_at) return false;
  fi.failed = name;
  if (fi.error == GL_CONTEXT_LOST)
    fi.lost = true;
  else
    fi.pending = fi.error;
  return true;
}

/* Shaders and programs share one name space in GL; buffers, fences and
 * textures have their own, hence the kind in the key's top byte. */
enum { KIND_PROGRAM = 0, KIND_BUFFER = 1, KIND_SYNC = 2, KIND_TEXTURE = 3 };
static uint64_t object_key(int kind, uint64_t name) { return (uint64_t)kind << 56 | name; }

static void track_kind(int kind, uint64_t name) {
  if (name != 0 && fi.live_count < MAX_TRACKED) fi.live[fi.live_count++] = object_key(kind, name);
}
static void track(GLuint name) { track_kind(KIND_PROGRAM, name); }

static void untrack_kind(int kind, uint64_t name) {
  uint64_t key = object_key(kind, name);
  for (uint32_t i = 0; i < fi.live_count; i++)
    if (fi.live[i] == key) {
      fi.live[i] = fi.live[--fi.live_count];
      return;
    }
}
static void untrack(GLuint name) { untrack_kind(KIND_PROGRAM, name); }

GLenum gt__fi_glGetError(void) {
  if (fi.lost) return GL_CONTEXT_LOST;
  if (fi.pending != GL_NO_ERROR) {
    GLenum e = fi.pending;
    fi.pending = GL_NO_ERROR;
    return e;
  }
  return glGetError();
}

GLenum gt__fi_glGetGraphicsResetStatus(void) { return fi.lost ? GL_GUILTY_CONTEXT_RESET : GL_NO_ERROR; }

const GLubyte *gt__fi_glGetString(GLenum name) { return fails("glGetString") ? NULL : glGetString(name); }

void gt__fi_glGetIntegerv(GLenum pname, GLint *data) {
  if (!fails("glGetIntegerv")) glGetIntegerv(pname, data);
}
void gt__fi_glGetIntegeri_v(GLenum target, GLuint index, GLint *data) {
  if (!fails("glGetIntegeri_v")) glGetIntegeri_v(target, index, data);
}
void gt__fi_glGetInteger64v(GLenum pname, GLint64 *data) {
  if (!fails("glGetInteger64v")) glGetInteger64v(pname, data);
}
GLboolean gt__fi_glIsBuffer(GLuint buffer) { return fails("glIsBuffer") ? GL_FALSE : glIsBuffer(buffer); }
GLboolean gt__fi_glIsTexture(GLuint texture) {
  return fails("glIsTexture") ? GL_FALSE : glIsTexture(texture);
}
void gt__fi_glBindBuffer(GLenum target, GLuint buffer) {
  if (!fails("glBindBuffer")) glBindBuffer(target, buffer);
}
void gt__fi_glBindBufferRange(GLenum target, GLuint index, GLuint buffer, GLintptr offset, GLsizeiptr size) {
  if (!fails("glBindBufferRange")) glBindBufferRange(target, index, buffer, offset, size);
}
void gt__fi_glGetBufferParameteri64v(GLenum target, GLenum pname, GLint64 *params) {
  if (!fails("glGetBufferParameteri64v")) glGetBufferParameteri64v(target, pname, params);
}
void *gt__fi_glMapBufferRange(GLenum target, GLintptr offset, GLsizeiptr length, GLbitfield access) {
  return fails("glMapBufferRange") ? NULL : glMapBufferRange(target, offset, length, access);
}
GLboolean gt__fi_glUnmapBuffer(GLenum target) {
  /* The real mapping ends even when the call is made to fail (or the
   * context is lost): the real context lives on after the test. */
  bool failed = fails("glUnmapBuffer");
  GLboolean ok = glUnmapBuffer(target);
  return failed ? GL_FALSE : ok;
}
void gt__fi_glBindTexture(GLenum target, GLuint texture) {
  if (!fails("glBindTexture")) glBindTexture(target, texture);
}
void gt__fi_glGetTexParameteriv(GLenum target, GLenum pname, GLint *params) {
  if (!fails("glGetTexParameteriv")) glGetTexParameteriv(target, pname, params);
}
void gt__fi_glGetTexLevelParameteriv(GLenum target, GLint level, GLenum pname, GLint *params) {
  if (!fails("glGetTexLevelParameteriv")) glGetTexLevelParameteriv(target, level, pname, params);
}
void gt__fi_glBindImageTexture(GLuint unit, GLuint texture, GLint level, GLboolean layered, GLint layer,
                               GLenum access, GLenum format) {
  if (!fails("glBindImageTexture")) glBindImageTexture(unit, texture, level, layered, layer, access, format);
}

GLuint gt__fi_glCreateShader(GLenum type) {
  if (fails("glCreateShader")) return 0;
  GLuint s = glCreateShader(type);
  track(s);
  return s;
}
void gt__fi_glShaderSource(GLuint shader, GLsizei count, const GLchar *const *string, const GLint *length) {
  if (!fails("glShaderSource")) glShaderSource(shader, count, string, length);
}
void gt__fi_glCompileShader(GLuint shader) {
  if (!fails("glCompileShader")) glCompileShader(shader);
}
/* A failed status query reports a failed build, with no GL error. */
void gt__fi_glGetShaderiv(GLuint shader, GLenum pname, GLint *params) {
  if (fails(pname == GL_COMPILE_STATUS ? "glGetShaderiv(GL_COMPILE_STATUS)" : "glGetShaderiv")) {
    if (pname == GL_COMPILE_STATUS) {
      fi.pending = GL_NO_ERROR;
      *params = GL_FALSE;
    }
    return;
  }
  glGetShaderiv(shader, pname, params);
}
void gt__fi_glGetShaderInfoLog(GLuint shader, GLsizei size, GLsizei *length, GLchar *log) {
  if (!fails("glGetShaderInfoLog")) glGetShaderInfoLog(shader, size, length, log);
}
/* Deletes are never made to fail: deleting a valid name fails only with
 * the whole context, and then the objects are gone anyway. */
void gt__fi_glDeleteShader(GLuint shader) {
  if (fi.lost) return;
  glDeleteShader(shader);
  untrack(shader);
}
GLuint gt__fi_glCreateProgram(void) {
  if (fails("glCreateProgram")) return 0;
  GLuint p = glCreateProgram();
  track(p);
  return p;
}
void gt__fi_glAttachShader(GLuint program, GLuint shader) {
  if (!fails("glAttachShader")) glAttachShader(program, shader);
}
void gt__fi_glDetachShader(GLuint program, GLuint shader) {
  if (!fails("glDetachShader")) glDetachShader(program, shader);
}
void gt__fi_glLinkProgram(GLuint program) {
  if (!fails("glLinkProgram")) glLinkProgram(program);
}
void gt__fi_glGetProgramiv(GLuint program, GLenum pname, GLint *params) {
  if (fails(pname == GL_LINK_STATUS ? "glGetProgramiv(GL_LINK_STATUS)" : "glGetProgramiv")) {
    if (pname == GL_LINK_STATUS) {
      fi.pending = GL_NO_ERROR;
      *params = GL_FALSE;
    }
    return;
  }
  glGetProgramiv(program, pname, params);
}
void gt__fi_glGetProgramInfoLog(GLuint program, GLsizei size, GLsizei *length, GLchar *log) {
  if (!fails("glGetProgramInfoLog")) glGetProgramInfoLog(program, size, length, log);
}
void gt__fi_glDeleteProgram(GLuint program) {
  if (fi.lost) return;
  glDeleteProgram(program);
  untrack(program);
}
void gt__fi_glProgramParameteri(GLuint program, GLenum pname, GLint value) {
  if (!fails("glProgramParameteri")) glProgramParameteri(program, pname, value);
}
void gt__fi_glGetProgramBinary(GLuint program, GLsizei size, GLsizei *length, GLenum *format, void *binary) {
  if (fails("glGetProgramBinary")) {
    if (length) *length = 0;
    return;
  }
  glGetProgramBinary(program, size, length, format, binary);
}
void gt__fi_glProgramBinary(GLuint program, GLenum format, const void *binary, GLsizei length) {
  if (!fails("glProgramBinary")) glProgramBinary(program, format, binary, length);
}
void gt__fi_glGetProgramInterfaceiv(GLuint program, GLenum interface, GLenum pname, GLint *params) {
  if (!fails("glGetProgramInterfaceiv")) glGetProgramInterfaceiv(program, interface, pname, params);
}
void gt__fi_glGetProgramResourceiv(GLuint program, GLenum interface, GLuint index, GLsizei count,
                                   const GLenum *props, GLsizei size, GLsizei *length, GLint *params) {
  if (!fails("glGetProgramResourceiv"))
    glGetProgramResourceiv(program, interface, index, count, props, size, length, params);
}
GLint gt__fi_glGetUniformLocation(GLuint program, const GLchar *name) {
  return fails("glGetUniformLocation") ? -1 : glGetUniformLocation(program, name);
}
void gt__fi_glUseProgram(GLuint program) {
  if (!fails("glUseProgram")) glUseProgram(program);
}
void gt__fi_glUniform2ui(GLint location, GLuint v0, GLuint v1) {
  if (!fails("glUniform2ui")) glUniform2ui(location, v0, v1);
}
void gt__fi_glUniform4uiv(GLint location, GLsizei count, const GLuint *value) {
  if (!fails("glUniform4uiv")) glUniform4uiv(location, count, value);
}
void gt__fi_glProgramUniform1i(GLuint program, GLint location, GLint v0) {
  if (!fails("glProgramUniform1i")) glProgramUniform1i(program, location, v0);
}
void gt__fi_glProgramUniform1ui(GLuint program, GLint location, GLuint v0) {
  if (!fails("glProgramUniform1ui")) glProgramUniform1ui(program, location, v0);
}
void gt__fi_glProgramUniform1f(GLuint program, GLint location, GLfloat v0) {
  if (!fails("glProgramUniform1f")) glProgramUniform1f(program, location, v0);
}
void gt__fi_glProgramUniform2f(GLuint program, GLint location, GLfloat v0, GLfloat v1) {
  if (!fails("glProgramUniform2f")) glProgramUniform2f(program, location, v0, v1);
}
void gt__fi_glProgramUniform2ui(GLuint program, GLint location, GLuint v0, GLuint v1) {
  if (!fails("glProgramUniform2ui")) glProgramUniform2ui(program, location, v0, v1);
}
void gt__fi_glProgramUniform4fv(GLuint program, GLint location, GLsizei count, const GLfloat *value) {
  if (!fails("glProgramUniform4fv")) glProgramUniform4fv(program, location, count, value);
}
void gt__fi_glProgramUniform4ui(GLuint program, GLint location, GLuint v0, GLuint v1, GLuint v2, GLuint v3) {
  if (!fails("glProgramUniform4ui")) glProgramUniform4ui(program, location, v0, v1, v2, v3);
}
void gt__fi_glActiveTexture(GLenum texture) {
  if (!fails("glActiveTexture")) glActiveTexture(texture);
}
void gt__fi_glGenTextures(GLsizei n, GLuint *textures) {
  if (fails("glGenTextures")) return;
  glGenTextures(n, textures);
  for (GLsizei i = 0; i < n; i++)
    track_kind(KIND_TEXTURE, textures[i]);
}
void gt__fi_glDeleteTextures(GLsizei n, const GLuint *textures) {
  if (fi.lost) return;
  glDeleteTextures(n, textures);
  for (GLsizei i = 0; i < n; i++)
    untrack_kind(KIND_TEXTURE, textures[i]);
}
void gt__fi_glTexBufferRange(gt_gl_proc fn, GLenum target, GLenum format, GLuint buffer,
                             GLintptr offset, GLsizeiptr size) {
  if (!fails("glTexBufferRange")) ((gt_tex_buffer_range_fn)fn)(target, format, buffer, offset, size);
}
void gt__fi_glDispatchCompute(GLuint x, GLuint y, GLuint z) {
  if (!fails("glDispatchCompute")) glDispatchCompute(x, y, z);
}
void gt__fi_glMemoryBarrier(GLbitfield barriers) {
  if (!fails("glMemoryBarrier")) glMemoryBarrier(barriers);
}
void gt__fi_glFinish(void) {
  if (!fails("glFinish")) glFinish();
}
void gt__fi_glFlush(void) {
  if (!fails("glFlush")) glFlush();
}
void gt__fi_glGenBuffers(GLsizei n, GLuint *buffers) {
  if (fails("glGenBuffers")) return;
  glGenBuffers(n, buffers);
  for (GLsizei i = 0; i < n; i++)
    track_kind(KIND_BUFFER, buffers[i]);
}
void gt__fi_glDeleteBuffers(GLsizei n, const GLuint *buffers) {
  if (fi.lost) return;
  glDeleteBuffers(n, buffers);
  for (GLsizei i = 0; i < n; i++)
    untrack_kind(KIND_BUFFER, buffers[i]);
}
void gt__fi_glBufferData(GLenum target, GLsizeiptr size, const void *data, GLenum usage) {
  if (!fails("glBufferData")) glBufferData(target, size, data, usage);
}
void gt__fi_glBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, const void *data) {
  if (!fails("glBufferSubData")) glBufferSubData(target, offset, size, data);
}
void gt__fi_glCopyBufferSubData(GLenum read_target, GLenum write_target, GLintptr read_offset,
                                GLintptr write_offset, GLsizeiptr size) {
  if (!fails("glCopyBufferSubData"))
    glCopyBufferSubData(read_target, write_target, read_offset, write_offset, size);
}
GLsync gt__fi_glFenceSync(GLenum condition, GLbitfield flags) {
  if (fails("glFenceSync")) return 0;
  GLsync sync = glFenceSync(condition, flags);
  track_kind(KIND_SYNC, (uint64_t)(uintptr_t)sync);
  return sync;
}
GLenum gt__fi_glClientWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout) {
  return fails("glClientWaitSync") ? GL_WAIT_FAILED : glClientWaitSync(sync, flags, timeout);
}
void gt__fi_glDeleteSync(GLsync sync) {
  if (fi.lost) return;
  glDeleteSync(sync);
  untrack_kind(KIND_SYNC, (uint64_t)(uintptr_t)sync);
}
