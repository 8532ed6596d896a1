/* The ABI that programs built against gltile.h rely on: every enum
 * constant's value, every enum 32 bits wide, every public struct's size on
 * 64-bit (LP64) and 32-bit (ILP32) targets, and gt_version() agreeing with
 * the header. A change that moves any of them fails here: make it on
 * purpose, with the version and the README's compatibility policy, and then
 * update the table. */
#include <gltile/gltile.h>

#include <stdio.h>
#include <string.h>

#include "check.h"

typedef struct named_value {
  const char *name;
  long got, want;
} named_value;

#define ENUM(name, value) {#name, (long)(name), value}

static const named_value constants[] = {
    ENUM(GT_OK, 0),
    ENUM(GT_ERR_INVALID_ARGUMENT, 1),
    ENUM(GT_ERR_SHAPE_MISMATCH, 2),
    ENUM(GT_ERR_OUT_OF_RANGE, 3),
    ENUM(GT_ERR_ALIASED, 4),
    ENUM(GT_ERR_UNSUPPORTED, 5),
    ENUM(GT_ERR_NO_CONTEXT, 6),
    ENUM(GT_ERR_SHADER_BUILD, 7),
    ENUM(GT_ERR_GL, 8),
    ENUM(GT_ERR_OUT_OF_MEMORY, 9),
    ENUM(GT_ERR_CONTEXT_LOST, 10),
    ENUM(GT_ERR_TIMEOUT, 11),
    ENUM(GT_ERR_BUSY, 12),
    ENUM(GT_ERR_BAD_CACHE, 13),
    ENUM(GT_F32, 1),
    ENUM(GT_I32, 2),
    ENUM(GT_U32, 3),
    ENUM(GT_F16, 4),
    ENUM(GT_I16, 5),
    ENUM(GT_U16, 6),
    ENUM(GT_I8, 7),
    ENUM(GT_U8, 8),
    ENUM(GT_STRATEGY_AUTO, 0),
    ENUM(GT_STRATEGY_SIMPLE, 1),
    ENUM(GT_STRATEGY_TILED_EVEN, 2),
    ENUM(GT_STRATEGY_TILED_PAD, 3),
    ENUM(GT_STRATEGY_TRUNCATE_A, 4),
    ENUM(GT_STRATEGY_TRUNCATE_B, 5),
    ENUM(GT_FORMAT_R32F, 1),
    ENUM(GT_FORMAT_R32I, 2),
    ENUM(GT_FORMAT_R32UI, 3),
    ENUM(GT_FORMAT_RGBA8, 4),
    ENUM(GT_MATMUL_KERNEL_DEVICE, 0),
    ENUM(GT_MATMUL_KERNEL_REGISTERS, 1),
    ENUM(GT_MATMUL_KERNEL_SHARED, 2),
    ENUM(GT_MATMUL_KERNEL_TEXELS, 3),
    ENUM(GT_MATMUL_KERNEL_REGISTERS_K1, 4),
    ENUM(GT_UNIFORM_INT, 1),
    ENUM(GT_UNIFORM_UINT, 2),
    ENUM(GT_UNIFORM_FLOAT, 3),
    ENUM(GT_UNIFORM_VEC4, 4),
    ENUM(GT_ACCESS_READ, 1),
    ENUM(GT_ACCESS_WRITE, 2),
    ENUM(GT_ACCESS_READ_WRITE, 3),
    ENUM(GT_POLICY_EXACT, 0),
    ENUM(GT_POLICY_PAD, 1),
    ENUM(GT_POLICY_TRUNCATE, 2),
    ENUM(GT_ACTIVATION_NONE, 0),
    ENUM(GT_ACTIVATION_RELU, 1),
    ENUM(GT_ACTIVATION_CLAMP, 2),
    ENUM(GT_PRECISION_FLOAT, 0),
    ENUM(GT_PRECISION_HALF_IF_FASTER, 1),
    ENUM(GT_PRECISION_HALF, 2),
};

#define ENUM_SIZE(type) {#type, (long)sizeof(type), 4}

static const named_value enum_sizes[] = {
    ENUM_SIZE(gt_status),
    ENUM_SIZE(gt_type),
    ENUM_SIZE(gt_strategy),
    ENUM_SIZE(gt_format),
    ENUM_SIZE(gt_matmul_kernel),
    ENUM_SIZE(gt_access),
    ENUM_SIZE(gt_uniform_type),
    ENUM_SIZE(gt_policy),
    ENUM_SIZE(gt_activation),
    ENUM_SIZE(gt_precision),
};

/* sizeof on LP64 and ILP32 (pointers and size_t of 8 or 4 bytes). */
typedef struct struct_size {
  const char *name;
  size_t got, lp64, ilp32;
} struct_size;

#define STRUCT(type, lp64, ilp32) {#type, sizeof(type), lp64, ilp32}

static const struct_size structs[] = {
    STRUCT(gt_extent, 8, 8),
    STRUCT(gt_view, 32, 24),
    STRUCT(gt_image, 28, 28),
    STRUCT(gt_allocator, 24, 12),
    STRUCT(gt_logger, 16, 8),
    STRUCT(gt_context_desc, 96, 80),
    STRUCT(gt_egl, 32, 16),
    STRUCT(gt_transpose_desc, 8, 8),
    STRUCT(gt_matmul_desc, 168, 128),
    STRUCT(gt_quantization, 88, 68),
    STRUCT(gt_batch, 32, 16),
    STRUCT(gt_limits, 72, 72),
    STRUCT(gt_fence, 8, 4),
    STRUCT(gt_kernel_view, 16, 12),
    STRUCT(gt_kernel_uniform, 16, 8),
    STRUCT(gt_kernel_desc, 288, 180),
    STRUCT(gt_uniform_value, 16, 16),
    STRUCT(gt_dispatch_desc, 32, 20),
    STRUCT(gt_dispatch_result, 24, 24),
    STRUCT(gt_plan, 200, 200),
};

static void check_values(const named_value *v, size_t n, const char *what) {
  for (size_t i = 0; i < n; i++) {
    if (v[i].got != v[i].want)
      printf("FAILED: %s %s is %ld, the ABI says %ld\n", what, v[i].name, v[i].got, v[i].want);
    CHECK(v[i].got == v[i].want);
  }
}

int main(void) {
  check_values(constants, sizeof constants / sizeof constants[0], "enum constant");
  check_values(enum_sizes, sizeof enum_sizes / sizeof enum_sizes[0], "sizeof");
  int wide = sizeof(void *) == 8 && sizeof(size_t) == 8;
  CHECK(wide || (sizeof(void *) == 4 && sizeof(size_t) == 4));
  for (size_t i = 0; i < sizeof structs / sizeof structs[0]; i++) {
    size_t want = wide ? structs[i].lp64 : structs[i].ilp32;
    if (structs[i].got != want)
      printf("FAILED: sizeof(%s) is %zu, the %s ABI says %zu\n", structs[i].name, structs[i].got,
             wide ? "LP64" : "ILP32", want);
    CHECK(structs[i].got == want);
  }
  CHECK_EQ_U(gt_version(), GT_VERSION_NUMBER);
  printf("gltile %u.%u.%u: %zu enum constants, %zu enums, %zu structs as the ABI table says\n",
         GT_VERSION_MAJOR, GT_VERSION_MINOR, GT_VERSION_PATCH, sizeof constants / sizeof constants[0],
         sizeof enum_sizes / sizeof enum_sizes[0], sizeof structs / sizeof structs[0]);
  return CHECK_SUMMARY();
}
