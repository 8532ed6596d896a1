/* Programs: compile and link a kernel variant once, keep it in the
 * context's program table (program_slots slots; the least recently used
 * program makes room), and find it again without compiling or allocating
 * on every later call; and delete the user kernels' programs. */
#include "gl/program_table.h"
#include "plan/context.h"

#include <stdio.h>
#include <string.h>

/* The table is searched whole: a few dozen to a few hundred slots, a
 * hash compared before the key's fields, well under a microsecond beside
 * a dispatch. A full table takes the least recently used program's slot,
 * so no call fails for want of room; a program asked for again is built
 * again. FNV-1a over the key's fields. */
static uint32_t key_hash(const gt_program_key *k) {
  uint32_t fields[GT_PROGRAM_KEY_WORDS];
  gt__program_key_words(k, fields);
  uint32_t h = 2166136261u;
  for (int i = 0; i < GT_PROGRAM_KEY_WORDS; i++) {
    h ^= fields[i];
    h *= 16777619u;
  }
  return h;
}

/* Sends a shader or program info log to the logger, if there is one. */
static void log_info(const gt_context *ctx, GLuint object, bool is_shader, const char *what) {
  if (ctx->logger.log == NULL) return;
  char text[2048];
  GLsizei length = 0;
  if (is_shader)
    glGetShaderInfoLog(object, (GLsizei)sizeof text, &length, text);
  else
    glGetProgramInfoLog(object, (GLsizei)sizeof text, &length, text);
  text[length > 0 && (size_t)length < sizeof text ? length : 0] = '\0';
  gt__log(ctx, GT_LOG_ERROR, "%s of %s failed:\n%s", is_shader ? "compile" : "link", what, text);
}

/* A failed compile or link: the shader's fault, unless GL failed (out of
 * memory, or a lost context, which also reports builds as failed). */
static gt_status build_failure(gt_context *ctx) {
  gt_status s = gt__gl_status(ctx, "program build");
  return s != GT_OK ? s : GT_ERR_SHADER_BUILD;
}

gt_status gt__program_build(gt_context *ctx, const char *const *parts, int count, const char *what,
                            GLuint *out) {
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  if (shader == 0) {
    gt_status s = gt__gl_status(ctx, "glCreateShader");
    return s == GT_OK ? GT_ERR_GL : s;
  }
  glShaderSource(shader, count, parts, NULL);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    log_info(ctx, shader, true, what);
    glDeleteShader(shader);
    return build_failure(ctx);
  }
  GLuint program = glCreateProgram();
  if (program == 0) {
    glDeleteShader(shader);
    gt_status s = gt__gl_status(ctx, "glCreateProgram");
    return s == GT_OK ? GT_ERR_GL : s;
  }
  glAttachShader(program, shader);
  /* So gt_program_cache_save can ask for the binary. */
  glProgramParameteri(program, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
  glLinkProgram(program);
  /* The linked program keeps what it needs; the shader can go now. */
  glDetachShader(program, shader);
  glDeleteShader(shader);
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    log_info(ctx, program, false, what);
    glDeleteProgram(program);
    return build_failure(ctx);
  }
  gt_status s = gt__gl_status(ctx, "program build");
  if (s != GT_OK) {
    glDeleteProgram(program);
    return s;
  }
  *out = program;
  return GT_OK;
}

gt_status gt__program_adopt(gt_context *ctx, gt_program *slot, const gt_program_key *key, GLuint program) {
  slot->key = *key;
  slot->hash = key_hash(key);
  slot->used = ++ctx->program_clock;
  slot->name = program;
  char views[48];
  slot->views_loc = gt__program_views_name(key, views, sizeof views) ? glGetUniformLocation(program, views) : -1;
  slot->group_base_loc = glGetUniformLocation(program, "gt_group_base");
  slot->scale_loc = glGetUniformLocation(program, "gt_scale");
  slot->k_range_loc = glGetUniformLocation(program, "gt_k_range");
  slot->epilogue_loc = glGetUniformLocation(program, "gt_epilogue");
  slot->clamp_loc = glGetUniformLocation(program, "gt_clamp");
  slot->zero_points_loc = glGetUniformLocation(program, "gt_zero_points");
  slot->requantize_loc = glGetUniformLocation(program, "gt_requantize");
  slot->clamp_int_loc = glGetUniformLocation(program, "gt_clamp_int");
  slot->grid_origin_loc = glGetUniformLocation(program, "gt_grid_origin");
  slot->stripe_tiles_loc = glGetUniformLocation(program, "gt_stripe_tiles");
  slot->batch_loc = glGetUniformLocation(program, "gt_batch");
  gt_status s = gt__gl_status(ctx, "uniform locations");
  if (s != GT_OK) {
    glDeleteProgram(program);
    memset(slot, 0, sizeof *slot);
  }
  return s;
}

static gt_status build(gt_context *ctx, const gt_program_key *key, gt_program *slot) {
  char preamble[GT_PREAMBLE_BYTES], what[160];
  GT__CHECK(gt__program_preamble(key, preamble, sizeof preamble) != 0, GT_ERR_INVALID_ARGUMENT);
  const char *parts[GT_PROGRAM_PARTS];
  gt__program_parts(key, preamble, parts);
  snprintf(
      what, sizeof what,
      "%s (tile %u, group %ux%u, variant %u; source 1 = prelude.glsl, 2 = the kernel, 3 = its shared part, "
      "4 = the group order)",
      gt__kernel_name(key->kernel), key->tile, key->group_cols, key->group_rows, key->variant);
  GLuint program = 0;
  GT__TRY(gt__program_build(ctx, parts, GT_PROGRAM_PARTS, what, &program));
  GT__TRY(gt__program_adopt(ctx, slot, key, program));
  gt__log(ctx, GT_LOG_DEBUG, "built %s", what);
  return GT_OK;
}

gt_program *gt__program_slot(gt_context *ctx, const gt_program_key *key) {
  uint32_t hash = key_hash(key);
  gt_program *free_slot = NULL, *oldest = NULL;
  for (uint32_t i = 0; i < ctx->program_slots; i++) {
    gt_program *p = &ctx->programs[i];
    if (p->name == 0) {
      if (free_slot == NULL) free_slot = p;
    } else if (p->hash == hash && gt__program_same_key(&p->key, key)) {
      p->used = ++ctx->program_clock;
      return p;
    } else if (oldest == NULL || ctx->program_clock - p->used > ctx->program_clock - oldest->used) {
      oldest = p; /* ages measured back from the clock, so its wrapping is harmless */
    }
  }
  if (free_slot != NULL || oldest == NULL) return free_slot;
  gt__log(ctx, GT_LOG_DEBUG, "program table full (%u slots): %s released for %s", ctx->program_slots,
          gt__kernel_name(oldest->key.kernel), gt__kernel_name(key->kernel));
  glDeleteProgram(oldest->name);
  memset(oldest, 0, sizeof *oldest);
  return oldest;
}

gt_status gt__program_get(gt_context *ctx, const gt_program_key *key, const gt_program **out) {
  gt_program *p = gt__program_slot(ctx, key);
  GT__CHECK(p != NULL, GT_ERR_OUT_OF_MEMORY);
  if (p->name == 0) GT__TRY(build(ctx, key, p));
  *out = p;
  return GT_OK;
}

gt_status gt__programs_build(gt_context *ctx, const gt_program_key *keys, int count) {
  for (int i = 0; i < count; i++) {
    const gt_program *p;
    if (keys[i].group_cols) GT__TRY(gt__program_get(ctx, &keys[i], &p));
  }
  return GT_OK;
}

void gt__program_release_all(gt_context *ctx) {
  for (uint32_t i = 0; i < ctx->program_slots; i++) {
    if (ctx->programs[i].name != 0) glDeleteProgram(ctx->programs[i].name);
    memset(&ctx->programs[i], 0, sizeof ctx->programs[i]);
  }
}

gt_status gt__program_for(gt_context *ctx, gt_kernel kernel, uint32_t tile, uint32_t group_cols,
                          uint32_t group_rows, uint32_t variant, gt_type elem, const gt_program **out) {
  gt_program_key key = {.kernel = kernel,
                        .tile = tile,
                        .group_cols = group_cols,
                        .group_rows = group_rows,
                        .variant = variant,
                        .elem = elem};
  return gt__program_get(ctx, &key, out);
}

void gt__user_kernel_delete(gt_user_kernel *k) {
  for (int v = 0; v < 2; v++)
    if (k->program[v]) glDeleteProgram(k->program[v]);
  memset(k, 0, sizeof *k);
}

void gt__user_kernels_release_all(gt_context *ctx) {
  for (size_t i = 0; i < GT_USER_KERNEL_TABLE_SIZE; i++)
    if (ctx->user_kernels[i].program[0]) gt__user_kernel_delete(&ctx->user_kernels[i]);
}
