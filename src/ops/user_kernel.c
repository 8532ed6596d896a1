/* User kernels: a caller's GLSL body compiled with generated declarations
 * of its views and uniforms, and dispatched over a tiled extent with an
 * extent policy, choosing the aliased or the non-aliased program per call
 * (C++ AMP's parallel_for_each with its two shaders, seed 004). */
#include "ops/operation.h"
#include "plan/kernel_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { DEFAULT_TILE = 16 };

static const char *uniform_glsl_type(gt_uniform_type t) {
  switch (t) {
  case GT_UNIFORM_INT: return "int";
  case GT_UNIFORM_UINT: return "uint";
  case GT_UNIFORM_FLOAT: return "float";
  case GT_UNIFORM_VEC4: return "vec4";
  }
  return NULL;
}

/* Logs why a desc is refused: the check's id (for tests), where, and
 * why. */
static gt_status refused(const gt_context *ctx, const gt_kernel_verdict *v) {
  if (v->line)
    gt__log(ctx, GT_LOG_ERROR, "kernel refused (%s): the body, line %u, '%s': %s",
            gt__kernel_refusal_id(v->refusal), v->line, v->where, gt__kernel_refusal_text(v->refusal));
  else
    gt__log(ctx, GT_LOG_ERROR, "kernel refused (%s): '%s' %s", gt__kernel_refusal_id(v->refusal), v->where,
            gt__kernel_refusal_text(v->refusal));
  return GT_ERR_INVALID_ARGUMENT;
}

static gt_status check_desc(const gt_context *ctx, const gt_kernel_desc *d, uint32_t *rows, uint32_t *cols) {
  GT__CHECK(d->view_count <= GT_KERNEL_MAX_VIEWS && d->uniform_count <= GT_KERNEL_MAX_UNIFORMS,
            GT_ERR_INVALID_ARGUMENT);
  for (uint32_t i = 0; i < d->view_count; i++) {
    GT__CHECK(gt_type_size(d->views[i].type) != 0, GT_ERR_INVALID_ARGUMENT);
    GT__CHECK(d->views[i].access >= GT_ACCESS_READ && d->views[i].access <= GT_ACCESS_READ_WRITE,
              GT_ERR_INVALID_ARGUMENT);
  }
  for (uint32_t i = 0; i < d->uniform_count; i++)
    GT__CHECK(uniform_glsl_type(d->uniforms[i].type) != NULL, GT_ERR_INVALID_ARGUMENT);
  /* The names first: the body's check reads the views' names. */
  gt_kernel_verdict verdict;
  if (gt__kernel_check_names(d, &verdict) != GT_KERNEL_ACCEPTED) return refused(ctx, &verdict);
  if (gt__kernel_check_body(d, &verdict) != GT_KERNEL_ACCEPTED) return refused(ctx, &verdict);
  /* A kernel's views are arrays of 32-bit elements: GLSL ES 3.10 has no
   * narrower storage. */
  for (uint32_t i = 0; i < d->view_count; i++)
    GT__CHECK(gt_type_size(d->views[i].type) == 4, GT_ERR_UNSUPPORTED);
  *rows = d->tile_rows ? d->tile_rows : DEFAULT_TILE;
  *cols = d->tile_cols ? d->tile_cols : DEFAULT_TILE;
  const gt_limits *l = &ctx->limits;
  if ((uint64_t)*rows * *cols > l->max_invocations || *cols > l->max_group_size[0] ||
      *rows > l->max_group_size[1]) {
    gt__log(ctx, GT_LOG_ERROR, "kernel tile %ux%u is beyond this device's groups (%u invocations)", *rows,
            *cols, l->max_invocations);
    return GT_ERR_UNSUPPORTED;
  }
  if (d->view_count > l->max_storage_blocks) {
    gt__log(ctx, GT_LOG_ERROR, "kernel has %u views; the device binds %u storage blocks", d->view_count,
            l->max_storage_blocks);
    return GT_ERR_UNSUPPORTED;
  }
  return GT_OK;
}

/* Appends printf-style text to buf; false once it no longer fits. */
static bool append(char *buf, size_t size, size_t *used, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static bool append(char *buf, size_t size, size_t *used, const char *fmt, ...) {
  if (*used >= size) return false;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf + *used, size - *used, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= size - *used) {
    *used = size;
    return false;
  }
  *used += (size_t)n;
  return true;
}

/* The declarations in front of the body (source string 3): the domain,
 * each view with its helpers, and the uniforms. A view's storage has a
 * name of the library's, which a body may not use (kernel_body.c): the
 * body reaches it only through NAME_read and NAME_write, functions (not
 * macros, so an index with side effects is evaluated once) that test the
 * index against the view before they touch the binding, whose range also
 * holds the elements before the view's offset and between its rows.
 * NAME_read exists for READ and READ_WRITE views, NAME_write for WRITE
 * and READ_WRITE ones. READ views are readonly in both programs; in the
 * aliased one also volatile: Mesa takes a readonly block for memory no
 * store changes (nir_opt_access), and would move or merge its loads across
 * the stores to an overlapping view. The aliased program leaves written
 * views without writeonly as well: Mesa moved a load from a readonly block
 * past a store to a writeonly one over the same range (see
 * transpose_inplace). */
static bool declarations(const gt_kernel_desc *d, bool aliased, char *buf, size_t size) {
  static const char *const qualifier[2][4] = {{"", "readonly ", "writeonly ", ""},
                                              {"", "readonly volatile ", "", ""}};
  size_t used = 0;
  bool ok = append(buf, size, &used,
                   "uniform uvec2 gt_domain;\n"
                   "bool gt_in_domain(uvec2 idx) { return all(lessThan(idx, gt_domain)); }\n");
  for (uint32_t i = 0; i < d->view_count && ok; i++) {
    const char *n = d->views[i].name, *t = gt__glsl_type(d->views[i].type);
    gt_access access = d->views[i].access;
    ok = append(buf, size, &used,
                "layout(std430, binding = %u) %sGT_RESTRICT buffer gt_view_block_%u { %s gt_view_%u[]; };\n"
                "#define %s_extent gt_extent(%uu)\n",
                i, qualifier[aliased][access], i, t, i, n, i);
    if (ok && access != GT_ACCESS_WRITE)
      ok = append(buf, size, &used,
                  "%s %s_read(uvec2 idx) { return gt_contains(%uu, idx) ? gt_view_%u[gt_index(%uu, idx)] : "
                  "%s(0); }\n",
                  t, n, i, i, i, t);
    if (ok && access != GT_ACCESS_READ)
      ok = append(buf, size, &used,
                  "void %s_write(uvec2 idx, %s value) { if (gt_contains(%uu, idx)) gt_view_%u[gt_index(%uu, "
                  "idx)] = value; }\n",
                  n, t, i, i, i);
  }
  for (uint32_t i = 0; i < d->uniform_count && ok; i++)
    ok = append(buf, size, &used, "uniform %s %s;\n", uniform_glsl_type(d->uniforms[i].type),
                d->uniforms[i].name);
  return ok;
}

/* The linked program's word that the body reached no memory of its own
 * (which kernel_body.c refuses before compiling): its only storage blocks
 * are the views', at bindings 0 .. view_count - 1, and it has no uniform
 * block, atomic counter buffer or opaque uniform. So whatever an
 * application or the library left bound at other storage, uniform or
 * atomic-counter slots, or image and texture units, no kernel can name:
 * dispatch binds the views and leaves the rest as it is. */
static bool own_resources_only(GLuint p, uint32_t view_count) {
  GLint blocks = 0, uniform_blocks = 0, counters = 0, uniforms = 0;
  glGetProgramInterfaceiv(p, GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &blocks);
  glGetProgramInterfaceiv(p, GL_UNIFORM_BLOCK, GL_ACTIVE_RESOURCES, &uniform_blocks);
  glGetProgramInterfaceiv(p, GL_ATOMIC_COUNTER_BUFFER, GL_ACTIVE_RESOURCES, &counters);
  glGetProgramInterfaceiv(p, GL_UNIFORM, GL_ACTIVE_RESOURCES, &uniforms);
  bool own = blocks >= 0 && (uint32_t)blocks <= view_count && uniform_blocks == 0 && counters == 0;
  for (GLint i = 0; own && i < blocks; i++) {
    const GLenum prop = GL_BUFFER_BINDING;
    GLint binding = -1;
    glGetProgramResourceiv(p, GL_SHADER_STORAGE_BLOCK, (GLuint)i, 1, &prop, 1, NULL, &binding);
    own = binding >= 0 && (uint32_t)binding < view_count;
  }
  /* The library's uniforms and the four types a desc may give. */
  for (GLint i = 0; own && i < uniforms; i++) {
    const GLenum prop = GL_TYPE;
    GLint type = 0;
    glGetProgramResourceiv(p, GL_UNIFORM, (GLuint)i, 1, &prop, 1, NULL, &type);
    own = type == GL_UNSIGNED_INT_VEC4 || type == GL_UNSIGNED_INT_VEC2 || type == GL_INT ||
          type == GL_UNSIGNED_INT || type == GL_FLOAT || type == GL_FLOAT_VEC4;
  }
  return own;
}

/* The serial number of the next kernel id, 1 .. 2^28 - 1 and then round
 * again: a slot's ids repeat only after that many kernels. A context's
 * first one comes from its address, so that ids of two live contexts
 * seldom meet. */
static uint32_t next_serial(gt_context *ctx) {
  const uint32_t last = UINT32_MAX >> GT_USER_KERNEL_SLOT_BITS;
  if (ctx->kernel_serial == 0) ctx->kernel_serial = (uint32_t)((uintptr_t)ctx >> 4) * 2654435761u & last;
  ctx->kernel_serial = ctx->kernel_serial % last + 1;
  return ctx->kernel_serial;
}

gt_status gt_kernel_create(gt_context *ctx, const gt_kernel_desc *d, gt_kernel_id *out) {
  GT__TRY(gt__context_check(ctx));
  GT__CHECK(d != NULL && out != NULL, GT_ERR_INVALID_ARGUMENT);
  *out = 0;
  uint32_t rows, cols;
  GT__TRY(check_desc(ctx, d, &rows, &cols));
  uint32_t slot = 0;
  while (slot < GT_USER_KERNEL_TABLE_SIZE && ctx->user_kernels[slot].program[0] != 0)
    slot++;
  if (slot == GT_USER_KERNEL_TABLE_SIZE) {
    gt__log(ctx, GT_LOG_ERROR, "kernel table full (%d kernels)", GT_USER_KERNEL_TABLE_SIZE);
    return GT_ERR_OUT_OF_MEMORY;
  }
  gt_user_kernel *k = &ctx->user_kernels[slot];
  /* Worst case (8 views and 8 uniforms of 31-character names) is about
   * 4 KiB. */
  char decls[8192];
  for (int aliased = 0; aliased < 2; aliased++) {
    if (!declarations(d, aliased != 0, decls, sizeof decls)) {
      gt__user_kernel_delete(k);
      return GT_ERR_INVALID_ARGUMENT;
    }
    /* The library's preamble for a group of rows x cols invocations, one
     * element each (tile 0). */
    gt_program_key key = {.kernel = GT_KERNEL_COUNT, /* no library kernel */
                          .group_cols = cols,
                          .group_rows = rows,
                          .variant = aliased ? GT_VARIANT_ALIASED : 0,
                          .elem = GT_U32};
    char preamble[GT_PREAMBLE_BYTES];
    const char *parts[GT_PROGRAM_PARTS];
    if (gt__program_preamble(&key, preamble, sizeof preamble) == 0) {
      gt__user_kernel_delete(k);
      return GT_ERR_INVALID_ARGUMENT;
    }
    gt__source_parts(preamble, decls, NULL, d->body, parts);
    gt_status s = gt__program_build(ctx, parts, GT_PROGRAM_PARTS,
                                    aliased ? "a user kernel, aliased variant (source 2 = the body)"
                                            : "a user kernel (source 2 = the body)",
                                    &k->program[aliased]);
    if (s != GT_OK) {
      gt__user_kernel_delete(k);
      return s;
    }
    GLuint p = k->program[aliased];
    k->views_loc[aliased] = glGetUniformLocation(p, "gt_views");
    k->base_loc[aliased] = glGetUniformLocation(p, "gt_group_base");
    k->domain_loc[aliased] = glGetUniformLocation(p, "gt_domain");
    for (uint32_t u = 0; u < d->uniform_count; u++)
      k->uniform_loc[aliased][u] = glGetUniformLocation(p, d->uniforms[u].name);
    bool own_only = own_resources_only(p, d->view_count);
    s = gt__gl_status(ctx, "uniform locations");
    if (s == GT_OK && !own_only) {
      gt__log(ctx, GT_LOG_ERROR,
              "kernel refused (%s): the linked program holds a storage block, uniform block, atomic "
              "counter or opaque uniform besides its views",
              gt__kernel_refusal_id(GT_KERNEL_REFUSED_MEMORY));
      s = GT_ERR_INVALID_ARGUMENT;
    }
    if (s != GT_OK) {
      gt__user_kernel_delete(k);
      return s;
    }
  }
  k->tile_rows = rows;
  k->tile_cols = cols;
  k->view_count = d->view_count;
  k->uniform_count = d->uniform_count;
  for (uint32_t i = 0; i < d->view_count; i++) {
    k->types[i] = d->views[i].type;
    k->access[i] = d->views[i].access;
    snprintf(k->names[i], sizeof k->names[i], "%s", d->views[i].name);
  }
  for (uint32_t u = 0; u < d->uniform_count; u++)
    k->uniform_types[u] = d->uniforms[u].type;
  k->id = next_serial(ctx) << GT_USER_KERNEL_SLOT_BITS | slot;
  *out = k->id;
  return GT_OK;
}

/* The live kernel with this very id, or NULL (0, stale, foreign, made up). */
static gt_user_kernel *lookup(gt_context *ctx, gt_kernel_id id) {
  gt_user_kernel *k = &ctx->user_kernels[id & (GT_USER_KERNEL_TABLE_SIZE - 1)];
  return id != 0 && k->program[0] && k->id == id ? k : NULL;
}

void gt_kernel_destroy(gt_context *ctx, gt_kernel_id id) {
  if (ctx == NULL || gt__context_check(ctx) != GT_OK) return;
  gt_user_kernel *k = lookup(ctx, id);
  if (k) gt__user_kernel_delete(k);
}

/* A band with a zero side is empty: both sides zero. */
static gt_extent band(gt_extent b) {
  if (b.rows == 0 || b.cols == 0) b.rows = b.cols = 0;
  return b;
}

static void set_uniform(GLuint p, GLint loc, gt_uniform_type t, const gt_uniform_value *v) {
  switch (t) {
  case GT_UNIFORM_INT: glProgramUniform1i(p, loc, v->i); break;
  case GT_UNIFORM_UINT: glProgramUniform1ui(p, loc, v->u); break;
  case GT_UNIFORM_FLOAT: glProgramUniform1f(p, loc, v->f); break;
  case GT_UNIFORM_VEC4: glProgramUniform4fv(p, loc, 1, v->v4); break;
  }
}

/* A dispatch's plan: its grid (the extent padded or truncated to whole
 * tiles), what the kernel covers of the extent, and which of the kernel's
 * two programs runs. The programs were built with the kernel: its plan
 * names none in the table. */
typedef struct kernel_plan {
  gt_op_plan op;
  gt_extent grid, main;
  int aliased; /* 1: the program without restrict (seed 004) */
} kernel_plan;

/* The dispatch's own arguments: the extent, the policy, the views' fields
 * and types and the uniforms. */
static gt_status check(const gt_user_kernel *k, const gt_dispatch_desc *d) {
  GT__CHECK(d->extent.rows != 0 && d->extent.cols != 0, GT_ERR_INVALID_ARGUMENT);
  GT__CHECK(d->policy >= GT_POLICY_EXACT && d->policy <= GT_POLICY_TRUNCATE, GT_ERR_INVALID_ARGUMENT);
  GT__CHECK(k->view_count == 0 || d->views != NULL, GT_ERR_INVALID_ARGUMENT);
  GT__CHECK(k->uniform_count == 0 || d->uniforms != NULL, GT_ERR_INVALID_ARGUMENT);
  for (uint32_t i = 0; i < k->view_count; i++) {
    GT__TRY(gt__view_check_fields(d->views[i]));
    GT__CHECK(d->views[i].type == k->types[i], GT_ERR_SHAPE_MISMATCH);
  }
  return GT_OK;
}

/* The grid of d's extent under its policy, seeds 000 and 001. */
static gt_status plan_grid(const gt_user_kernel *k, const gt_dispatch_desc *d, kernel_plan *p) {
  memset(p, 0, sizeof *p);
  gt_extent e = d->extent;
  switch (d->policy) {
  case GT_POLICY_EXACT:
    if (e.rows % k->tile_rows || e.cols % k->tile_cols) {
      snprintf(p->op.refusal, sizeof p->op.refusal, "exact policy, but tile %ux%u does not divide %ux%u",
               k->tile_rows, k->tile_cols, e.rows, e.cols);
      return GT_ERR_SHAPE_MISMATCH;
    }
    p->grid = e;
    break;
  case GT_POLICY_PAD:
    p->grid = gt_extent_pad(e, k->tile_rows, k->tile_cols);
    /* pad saturates near 2^32: it would leave rows or columns out. */
    GT__CHECK(p->grid.rows >= e.rows && p->grid.cols >= e.cols, GT_ERR_OUT_OF_RANGE);
    break;
  default: p->grid = gt_extent_truncate(e, k->tile_rows, k->tile_cols); break;
  }
  p->main = d->policy == GT_POLICY_TRUNCATE ? p->grid : e;
  return GT_OK;
}

/* Seed 004: a view the kernel writes that shares elements with another
 * bound view makes this an aliased invocation. The views are inside their
 * buffers (the overlap test walks rows). */
static int aliased(const gt_context *ctx, const gt_user_kernel *k, const gt_dispatch_desc *d, gt_kernel_id id) {
  for (uint32_t i = 0; i < k->view_count; i++) {
    if (k->access[i] == GT_ACCESS_READ) continue;
    for (uint32_t j = 0; j < k->view_count; j++)
      if (j != i && gt_views_alias(d->views[i], d->views[j])) {
        gt__log(ctx, GT_LOG_DEBUG, "kernel %u: written view %s overlaps view %s: aliased variant", id,
                k->names[i], k->names[j]);
        return 1;
      }
  }
  return 0;
}

/* The planned program over its grid, one dispatch. */
static gt_status execute(gt_context *ctx, const gt_user_kernel *k, const gt_dispatch_desc *d,
                         const kernel_plan *p) {
  gt_bound_view bound[GT_KERNEL_MAX_VIEWS];
  for (uint32_t i = 0; i < k->view_count; i++)
    GT__TRY(gt__view_bind(ctx, d->views[i], &bound[i]));
  int a = p->aliased;
  gt_program prog;
  memset(&prog, 0, sizeof prog);
  prog.name = k->program[a];
  prog.views_loc = k->views_loc[a];
  prog.group_base_loc = k->base_loc[a];
  glProgramUniform2ui(prog.name, k->domain_loc[a], d->extent.rows, d->extent.cols);
  for (uint32_t u = 0; u < k->uniform_count; u++)
    set_uniform(prog.name, k->uniform_loc[a][u], k->uniform_types[u], &d->uniforms[u]);
  return gt__dispatch(ctx, &prog, bound, k->view_count, p->grid.cols / k->tile_cols, p->grid.rows / k->tile_rows,
                      0);
}

gt_status gt_kernel_dispatch(gt_context *ctx, gt_kernel_id id, const gt_dispatch_desc *d,
                             gt_dispatch_result *result) {
  GT__TRY(gt__context_check(ctx));
  GT__CHECK(d != NULL, GT_ERR_INVALID_ARGUMENT);
  gt_user_kernel *k = lookup(ctx, id);
  GT__CHECK(k != NULL, GT_ERR_INVALID_ARGUMENT);
  GT__TRY(check(k, d));
  kernel_plan plan;
  GT__TRY(gt__plan_taken(ctx, "kernel", plan_grid(k, d, &plan), &plan.op));
  for (uint32_t i = 0; i < k->view_count; i++)
    GT__TRY(gt__view_check_buffer(ctx, d->views[i]));
  plan.aliased = aliased(ctx, k, d, id);
  GT__TRY(gt__plan_build(ctx, &plan.op, "a user kernel"));
  if (result) {
    gt_extent e = d->extent, main = plan.main;
    result->main = main;
    result->bottom = band((gt_extent){e.rows - main.rows, main.cols});
    result->right = band((gt_extent){e.rows, e.cols - main.cols});
  }
  return gt__operation_end(ctx, execute(ctx, k, d, &plan), GT__BUFFER_WRITE_BARRIERS, "gt_kernel_dispatch");
}
