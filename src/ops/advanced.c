/* The advanced surface for gltile's tools (gltile_advanced.h): type
 * names, the device entry's basis, the program list, and one program's
 * text and build, each a thin face over the library's own functions so
 * the tools keep no second model of it. */
#define GT_STATIC_LINKING_ONLY
#include <gltile/gltile_advanced.h>

#include "gl/program_table.h"
#include "plan/context.h"
#include "plan/program_list.h"
#include "plan/program_work.h"

#include <stdio.h>
#include <string.h>

const char *gt_type_name(gt_type t) {
#define GT__NAME_CASE(type, bytes, glsl, name, descr)                                                        \
  case type: return name;
  switch (t) { GT_EACH_TYPE(GT__NAME_CASE) }
  return NULL;
}

const char *gt_type_npy_descr(gt_type t) {
#define GT__DESCR_CASE(type, bytes, glsl, name, descr)                                                       \
  case type: return descr;
  switch (t) { GT_EACH_TYPE(GT__DESCR_CASE) }
  return NULL;
}

gt_type gt_type_from_name(const char *name) {
  for (int t = 1; name != NULL && t <= GT_TYPE_COUNT; t++)
    if (strcmp(gt_type_name((gt_type)t), name) == 0) return (gt_type)t;
  return (gt_type)0;
}

gt_type gt_type_from_npy_descr(const char *descr) {
  for (int t = 1; descr != NULL && t <= GT_TYPE_COUNT; t++)
    if (strcmp(gt_type_npy_descr((gt_type)t), descr) == 0) return (gt_type)t;
  return (gt_type)0;
}

gt_device_basis gt_context_device_basis(const gt_context *ctx) {
  if (ctx == NULL || ctx->device == NULL) return GT_DEVICE_NOT_MEASURED;
  return ctx->device->measured ? GT_DEVICE_MEASURED : ctx->device->compiled ? GT_DEVICE_COMPILED : GT_DEVICE_NOT_MEASURED;
}

void gt_device_entry_pretend(const char *renderer) { gt__device_entry_pretend(renderer); }

static gt_program_id id_of(const gt_program_key *k) {
  gt_program_id id = {(uint32_t)k->kernel, k->tile, k->group_cols, k->group_rows, k->variant, k->elem, k->format};
  return id;
}

/* The key of id; false where it names no kernel of the library's. */
static bool key_of(const gt_program_id *id, gt_program_key *k) {
  if (id == NULL || id->kernel >= GT_KERNEL_COUNT) return false;
  *k = (gt_program_key){(gt_kernel)id->kernel, id->tile, id->group_cols, id->group_rows, id->variant, id->elem,
                        id->format};
  return true;
}

size_t gt_program_list(const gt_context *ctx, gt_program_id *out, size_t capacity) {
  enum { MOST = 8192 };
  static gt_program_key keys[MOST]; /* tools only: a list at a time */
  size_t count = gt__program_list_collect(ctx, keys, MOST);
  for (size_t i = 0; i < count && i < capacity && i < MOST; i++)
    out[i] = id_of(&keys[i]);
  return count;
}

size_t gt_context_programs(const gt_context *ctx, gt_program_id *out, size_t capacity) {
  size_t count = 0;
  for (uint32_t i = 0; ctx != NULL && i < ctx->program_slots; i++)
    if (ctx->programs[i].name != 0) {
      if (count < capacity) out[count] = id_of(&ctx->programs[i].key);
      count++;
    }
  return count;
}

size_t gt_context_programs_used(const gt_context *ctx, uint32_t *clock, gt_program_id *out, size_t capacity) {
  size_t count = 0;
  if (ctx == NULL) return 0;
  /* ages measured back from the table's clock, as its eviction does, so
   * the clock's wrapping is harmless */
  uint32_t since = ctx->program_clock - *clock;
  for (uint32_t i = 0; i < ctx->program_slots; i++)
    if (ctx->programs[i].name != 0 && ctx->program_clock - ctx->programs[i].used < since) {
      if (count < capacity) out[count] = id_of(&ctx->programs[i].key);
      count++;
    }
  *clock = ctx->program_clock;
  return count;
}

uint32_t gt_program_elements(const gt_program_id *id) {
  gt_program_key k;
  return key_of(id, &k) ? gt__program_elements(&k) : 0;
}

uint32_t gt_program_k_steps(const gt_program_id *id) {
  gt_program_key k;
  return key_of(id, &k) ? gt__program_k_steps(&k) : 0;
}

const char *gt_program_kernel_file(const gt_program_id *id) {
  gt_program_key k;
  return key_of(id, &k) ? gt__kernel_name(k.kernel) : "";
}

void gt_program_name(const gt_program_id *id, char *out, size_t size) {
  gt_program_key k;
  if (size == 0) return;
  out[0] = '\0';
  if (!key_of(id, &k)) return;
  const char *file = gt__kernel_name(k.kernel);
  size_t used = (size_t)snprintf(out, size, "%.*s t%u %ux%u %s", (int)(strlen(file) - 5), file, k.tile,
                                 k.group_cols, k.group_rows,
                                 k.format ? gt__format_name(k.format) : gt_type_name(k.elem) ? gt_type_name(k.elem) : "?");
#define GT__NAME_FLAG(name, bit)                                                                             \
  if ((k.variant & GT_VARIANT_##name) && used < size) used += (size_t)snprintf(out + used, size - used, " " #name);
  GT_EACH_VARIANT_FLAG(GT__NAME_FLAG)
  uint32_t turns = (k.variant >> GT_VARIANT_ROTATE_SHIFT) & 3u;
  if (k.format && used < size) snprintf(out + used, size - used, " ROTATE=%u", turns);
}

int gt_program_text(const gt_program_id *id, char *preamble, size_t preamble_size,
                    const char *parts[GT_PROGRAM_TEXT_PARTS]) {
  gt_program_key k;
  if (!key_of(id, &k) || gt__program_preamble(&k, preamble, preamble_size) == 0) return 0;
  gt__program_parts(&k, preamble, parts);
  return GT_PROGRAM_PARTS;
}

gt_status gt_program_build_text(gt_context *ctx, const char *const parts[GT_PROGRAM_TEXT_PARTS], const char *name,
                                uint32_t *program) {
  GT__CHECK(program != NULL, GT_ERR_INVALID_ARGUMENT);
  *program = 0;
  GT__CHECK(parts != NULL && name != NULL, GT_ERR_INVALID_ARGUMENT);
  for (int i = 0; i < GT_PROGRAM_PARTS; i++)
    GT__CHECK(parts[i] != NULL, GT_ERR_INVALID_ARGUMENT);
  GT__TRY(gt__context_check(ctx));
  GLuint built = 0;
  GT__TRY(gt__program_build(ctx, parts, GT_PROGRAM_PARTS, name, &built));
  *program = built;
  return GT_OK;
}

gt_status gt_program_build_alone(gt_context *ctx, const gt_program_id *id, uint32_t *program) {
  GT__CHECK(program != NULL, GT_ERR_INVALID_ARGUMENT);
  *program = 0;
  char preamble[GT_PREAMBLE_BYTES];
  const char *parts[GT_PROGRAM_PARTS];
  GT__CHECK(gt_program_text(id, preamble, sizeof preamble, parts) == GT_PROGRAM_PARTS, GT_ERR_INVALID_ARGUMENT);
  return gt_program_build_text(ctx, parts, gt_program_kernel_file(id), program);
}

/* The advanced header repeats the library's sizes for its callers. */
typedef char gt__advanced_parts_agree[(int)GT_PROGRAM_TEXT_PARTS == (int)GT_PROGRAM_PARTS ? 1 : -1];
typedef char gt__advanced_preamble_agrees[(int)GT_PROGRAM_PREAMBLE_BYTES == (int)GT_PREAMBLE_BYTES ? 1 : -1];
typedef char gt__advanced_binding_agrees[(int)GT_PROGRAM_MAX_BINDING == (int)GT_BINDING_SHIFTS ? 1 : -1];
