/* The context: adopts the current GLES 3.1+ context, queries its limits
 * once, and owns the program table. */
#include "gl/program_table.h"
#include "gl/texels.h"
#include "plan/context.h"
#include "plan/matmul_plan.h"

#include <EGL/egl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The one place the library names the C allocator. */
static void *default_alloc(size_t size, void *user) {
  (void)user;
  return malloc(size);
}
static void default_free(void *ptr, void *user) {
  (void)user;
  free(ptr);
}

/* The program table's slots d asks for; 0 where it asks too many. */
static uint32_t program_slots(const gt_context_desc *d) {
  uint32_t slots = d && d->program_slots ? d->program_slots : GT_PROGRAM_SLOTS_DEFAULT;
  return slots <= GT_PROGRAM_SLOTS_MOST ? slots : 0;
}

size_t gt_context_size(const gt_context_desc *d) {
  uint32_t slots = program_slots(d);
  return slots ? sizeof(gt_context) + (size_t)slots * sizeof(gt_program) : 0;
}

static uint32_t geti(GLenum pname) {
  GLint v = 0;
  glGetIntegerv(pname, &v);
  return v > 0 ? (uint32_t)v : 0;
}

static uint32_t geti_indexed(GLenum pname, GLuint index) {
  GLint v = 0;
  glGetIntegeri_v(pname, index, &v);
  return v > 0 ? (uint32_t)v : 0;
}

static void query_limits(gt_limits *l, const gt_context_desc *d) {
  GLint64 block = 0;
  l->max_shared_bytes = geti(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE);
  l->max_invocations = geti(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS);
  for (GLuint i = 0; i < 3; i++) {
    l->max_group_size[i] = geti_indexed(GL_MAX_COMPUTE_WORK_GROUP_SIZE, i);
    l->max_group_count[i] = geti_indexed(GL_MAX_COMPUTE_WORK_GROUP_COUNT, i);
  }
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block);
  l->max_storage_block_bytes = block > 0 ? (uint64_t)block : 0;
  l->max_storage_blocks = geti(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS);
  l->storage_offset_alignment = geti(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT);
  gt__limits_clamp(l, d);
}

/* Where the context can report a reset: ES 3.2 has it in core, older
 * contexts through KHR_robustness or EXT_robustness. */
static gt_gl_proc find_reset_status(int major, int minor) {
  const char *exts = (const char *)glGetString(GL_EXTENSIONS);
  const char *name = NULL;
  if (major > 3 || (major == 3 && minor >= 2))
    name = "glGetGraphicsResetStatus";
  else if (gt__has_extension(exts, "GL_KHR_robustness"))
    name = "glGetGraphicsResetStatusKHR";
  else if (gt__has_extension(exts, "GL_EXT_robustness"))
    name = "glGetGraphicsResetStatusEXT";
#ifdef GT_FAULT_INJECTION
  (void)name;
  return (gt_gl_proc)gt__fi_glGetGraphicsResetStatus; /* reports the simulated loss */
#else
  return name ? (gt_gl_proc)eglGetProcAddress(name) : NULL;
#endif
}

/* Whether the context reports resets: it has a reset status to ask
 * (ctx->reset_status) and was made with the lose-context-on-reset
 * strategy. The strategy query exists in ES 3.2 and the robustness
 * extensions only, elsewhere it raises GL_INVALID_ENUM: that error is taken
 * here and means no. Out of memory or a lost context fail init as any
 * other query would. */
static gt_status query_reports_resets(gt_context *ctx) {
  if (ctx->reset_status == NULL) return GT_OK;
  GLint strategy = 0;
  glGetIntegerv(GL_RESET_NOTIFICATION_STRATEGY, &strategy);
  GLenum e = glGetError();
  if (e == GL_INVALID_ENUM) {
    gt__log(ctx, GT_LOG_DEBUG, "GL_RESET_NOTIFICATION_STRATEGY not known here: resets not reported");
    return GT_OK;
  }
  GT__TRY(gt__gl_error_status(ctx, e, "gt_context_init: reset notification strategy"));
  ctx->reports_resets = strategy == GL_LOSE_CONTEXT_ON_RESET;
  return GT_OK;
}

static bool parse_es_version(const char *version, int *major, int *minor) {
  const char *p = version ? strstr(version, "OpenGL ES ") : NULL;
  if (p == NULL) return false;
  return sscanf(p + 10, "%d.%d", major, minor) == 2;
}

gt_status gt_context_init(void *mem, size_t size, const gt_context_desc *d, gt_context **out) {
  static const gt_context_desc zero_desc;
  GT__CHECK(out != NULL, GT_ERR_INVALID_ARGUMENT);
  *out = NULL;
  if (d == NULL) d = &zero_desc;
  const gt_allocator *a = &d->allocator;
  GT__CHECK((a->alloc == NULL) == (a->free == NULL), GT_ERR_INVALID_ARGUMENT);
  GT__CHECK((unsigned)d->matmul_kernel <= GT_MATMUL_KERNEL_REGISTERS_K1, GT_ERR_INVALID_ARGUMENT);
  GT__CHECK(d->transpose_strategy == GT_STRATEGY_AUTO || d->transpose_strategy == GT_STRATEGY_SIMPLE ||
                d->transpose_strategy == GT_STRATEGY_TILED_PAD ||
                d->transpose_strategy == GT_STRATEGY_TRUNCATE_A ||
                d->transpose_strategy == GT_STRATEGY_TRUNCATE_B,
            GT_ERR_INVALID_ARGUMENT);
  GT__CHECK(gt__tile_valid(d->tile), GT_ERR_INVALID_ARGUMENT);
  size_t bytes = gt_context_size(d);
  GT__CHECK(bytes != 0, GT_ERR_INVALID_ARGUMENT);
  if (mem != NULL) {
    GT__CHECK(size >= bytes, GT_ERR_OUT_OF_MEMORY);
    GT__CHECK((uintptr_t)mem % sizeof(void *) == 0 && (uintptr_t)mem % sizeof(uint64_t) == 0,
              GT_ERR_INVALID_ARGUMENT);
  }
  EGLContext current = eglGetCurrentContext();
  GT__CHECK(current != EGL_NO_CONTEXT, GT_ERR_NO_CONTEXT);
  int major = 0, minor = 0;
  const char *version = (const char *)glGetString(GL_VERSION);
  if (version == NULL) {
    GLenum e = glGetError();
    if (e == GL_OUT_OF_MEMORY) return GT_ERR_OUT_OF_MEMORY;
    if (e == GL_CONTEXT_LOST) return GT_ERR_CONTEXT_LOST;
    return e == GL_NO_ERROR ? GT_ERR_NO_CONTEXT : GT_ERR_GL;
  }
  GT__CHECK(parse_es_version(version, &major, &minor), GT_ERR_UNSUPPORTED);
  GT__CHECK(major > 3 || (major == 3 && minor >= 1), GT_ERR_UNSUPPORTED);

  gt_allocator alloc = *a;
  if (alloc.alloc == NULL) {
    alloc.alloc = default_alloc;
    alloc.free = default_free;
    alloc.user = NULL;
  }
  bool owns = mem == NULL;
  if (owns) {
    mem = alloc.alloc(bytes, alloc.user);
    GT__CHECK(mem != NULL, GT_ERR_OUT_OF_MEMORY);
  }
  gt_context *ctx = (gt_context *)mem;
  memset(ctx, 0, bytes);
  ctx->program_slots = program_slots(d);
  ctx->logger = d->logger;
  ctx->owns_memory = owns;
  if (owns) ctx->allocator = alloc;
  ctx->egl_context = current;
  /* Errors the application left must not fail the checks below. */
  for (int i = 0; i < 8 && glGetError() != GL_NO_ERROR; i++) {
  }
  ctx->reset_status = find_reset_status(major, minor);
  gt_status s = query_reports_resets(ctx);
  if (s != GT_OK) {
    gt_context_release(ctx);
    return s;
  }
  query_limits(&ctx->limits, d);
  const char *renderer = (const char *)glGetString(GL_RENDERER);
  snprintf(ctx->renderer, sizeof ctx->renderer, "%s", renderer ? renderer : "");
  snprintf(ctx->gl_version, sizeof ctx->gl_version, "%s", version);
  ctx->device = gt__device_entry(ctx->renderer);
  ctx->has_atomics = gt__renderer_has_atomics(ctx->renderer);
  ctx->half_storage = gt__has_extension((const char *)glGetString(GL_EXTENSIONS), "GL_NV_gpu_shader5");
  /* The kernel matmul's AUTO runs (matmul_plan.c); texture buffers are
   * looked for only where it would be the texels kernel, or the entry
   * fetches halves as texels (without them it reads them as words). */
  const char *refusal;
  s = gt__context_choose(ctx, d, true, &refusal);
  bool texels = s == GT_OK && (ctx->matmul_kernel == GT_MATMUL_KERNEL_TEXELS || ctx->device->half_texels) &&
                gt__texels_init(ctx, major, minor, d->min_limits);
  if (s == GT_OK && ctx->matmul_kernel == GT_MATMUL_KERNEL_TEXELS && !texels)
    s = gt__context_choose(ctx, d, false, &refusal);
  if (s != GT_OK) {
    gt__log(ctx, GT_LOG_ERROR, "%s", refusal);
    gt_context_release(ctx);
    return s;
  }
  s = gt__gl_status(ctx, "gt_context_init");
  if (s != GT_OK) {
    gt_context_release(ctx);
    return s;
  }
  gt__log(ctx, GT_LOG_INFO, "gltile on %s (%s): tile %u, %u invocations, %u shared bytes", ctx->renderer,
          version, ctx->default_tile, ctx->limits.max_invocations, ctx->limits.max_shared_bytes);
  *out = ctx;
  return GT_OK;
}

/* Deletes the staging buffer (transfer.c makes it) and a pending read's
 * fence. */
static void release_staging(gt_context *ctx) {
  if (ctx->pending.fence != NULL) glDeleteSync((GLsync)ctx->pending.fence);
  ctx->pending.fence = NULL;
  if (ctx->staging != 0) glDeleteBuffers(1, &ctx->staging);
  ctx->staging = 0;
}

void gt_context_release(gt_context *ctx) {
  if (ctx == NULL) return;
  /* Programs can only be deleted on their own context; without it, or
   * when it was lost, they die with the context itself. */
  if (!ctx->lost && eglGetCurrentContext() == (EGLContext)ctx->egl_context) {
    gt__program_release_all(ctx);
    gt__user_kernels_release_all(ctx);
    release_staging(ctx);
    gt__texels_release(ctx);
  }
  if (ctx->owns_memory) {
    gt_allocator a = ctx->allocator;
    a.free(ctx, a.user);
  }
}

gt_limits gt_context_limits(const gt_context *ctx) {
  gt_limits zero;
  memset(&zero, 0, sizeof zero);
  return ctx ? ctx->limits : zero;
}

uint32_t gt_context_default_tile(const gt_context *ctx) { return ctx ? ctx->default_tile : 0; }

gt_strategy gt_context_auto_strategy(const gt_context *ctx) {
  return ctx ? ctx->auto_strategy : GT_STRATEGY_TILED_PAD;
}

bool gt_context_auto_quads(const gt_context *ctx) { return ctx ? ctx->auto_quads : false; }

bool gt_context_has_atomics(const gt_context *ctx) { return ctx ? ctx->has_atomics : false; }

bool gt_context_half_is_faster(const gt_context *ctx) { return ctx ? ctx->device->half_is_faster : false; }

gt_matmul_kernel gt_context_matmul_kernel(const gt_context *ctx) {
  return ctx ? ctx->matmul_kernel : GT_MATMUL_KERNEL_REGISTERS;
}

const char *gt_context_renderer(const gt_context *ctx) { return ctx ? ctx->renderer : ""; }

bool gt_context_reports_resets(const gt_context *ctx) { return ctx ? ctx->reports_resets : false; }

const char *gt_context_device_name(const gt_context *ctx) {
  return ctx && ctx->device ? ctx->device->name : "";
}

gt_status gt_finish(gt_context *ctx) {
  GT__TRY(gt__context_check(ctx));
  glFinish();
  return gt__gl_status(ctx, "gt_finish");
}
