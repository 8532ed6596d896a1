/* The names a user kernel's views and uniforms may take, and the words of
 * GLSL ES that stand in their way: keywords, reserved words and built-in
 * functions of GLSL ES 3.10 (and 3.20's additions, which a driver may
 * offer), among them the words that declare or reach memory. A name that
 * is one of these, or one of the library's, would not compile or would
 * mean something else; it is refused with the clash named, not left to a
 * driver's message. */
#include "plan/kernel_check.h"

#include <stdio.h>
#include <string.h>

/* Words that declare or reach memory a body was not given: blocks and
 * their layout, uniforms, the opaque types (only uniforms and parameters
 * can hold them) and the functions that reach images and atomic
 * counters. */
static const char *const memory_words[] = {"layout",
                                           "buffer",
                                           "uniform",
                                           "atomic_uint",
                                           "atomicCounter",
                                           "atomicCounterIncrement",
                                           "atomicCounterDecrement",
                                           "imageLoad",
                                           "imageStore",
                                           "imageSize",
                                           "imageSamples",
                                           "imageAtomicAdd",
                                           "imageAtomicMin",
                                           "imageAtomicMax",
                                           "imageAtomicAnd",
                                           "imageAtomicOr",
                                           "imageAtomicXor",
                                           "imageAtomicExchange",
                                           "imageAtomicCompSwap",
                                           "sampler1D",
                                           "sampler2D",
                                           "sampler3D",
                                           "samplerCube",
                                           "sampler1DShadow",
                                           "sampler2DShadow",
                                           "samplerCubeShadow",
                                           "sampler1DArray",
                                           "sampler2DArray",
                                           "sampler1DArrayShadow",
                                           "sampler2DArrayShadow",
                                           "isampler1D",
                                           "isampler2D",
                                           "isampler3D",
                                           "isamplerCube",
                                           "isampler1DArray",
                                           "isampler2DArray",
                                           "usampler1D",
                                           "usampler2D",
                                           "usampler3D",
                                           "usamplerCube",
                                           "usampler1DArray",
                                           "usampler2DArray",
                                           "sampler2DRect",
                                           "sampler2DRectShadow",
                                           "isampler2DRect",
                                           "usampler2DRect",
                                           "samplerBuffer",
                                           "isamplerBuffer",
                                           "usamplerBuffer",
                                           "sampler2DMS",
                                           "isampler2DMS",
                                           "usampler2DMS",
                                           "sampler2DMSArray",
                                           "isampler2DMSArray",
                                           "usampler2DMSArray",
                                           "samplerCubeArray",
                                           "samplerCubeArrayShadow",
                                           "isamplerCubeArray",
                                           "usamplerCubeArray",
                                           "sampler3DRect",
                                           "samplerExternalOES",
                                           "image1D",
                                           "iimage1D",
                                           "uimage1D",
                                           "image2D",
                                           "iimage2D",
                                           "uimage2D",
                                           "image3D",
                                           "iimage3D",
                                           "uimage3D",
                                           "image2DRect",
                                           "iimage2DRect",
                                           "uimage2DRect",
                                           "imageCube",
                                           "iimageCube",
                                           "uimageCube",
                                           "imageBuffer",
                                           "iimageBuffer",
                                           "uimageBuffer",
                                           "image1DArray",
                                           "iimage1DArray",
                                           "uimage1DArray",
                                           "image2DArray",
                                           "iimage2DArray",
                                           "uimage2DArray",
                                           "imageCubeArray",
                                           "iimageCubeArray",
                                           "uimageCubeArray",
                                           "image2DMS",
                                           "iimage2DMS",
                                           "uimage2DMS",
                                           "image2DMSArray",
                                           "iimage2DMSArray",
                                           "uimage2DMSArray",
                                           "image1DShadow",
                                           "image2DShadow",
                                           "image1DArrayShadow",
                                           "image2DArrayShadow"};

/* Every other keyword and reserved word, the built-in functions, and
 * main. */
static const char *const reserved_words[] = {
    /* keywords */
    "const", "shared", "coherent", "volatile", "restrict", "readonly", "writeonly", "centroid", "flat",
    "smooth", "break", "continue", "do", "for", "while", "switch", "case", "default", "if", "else", "in",
    "out", "inout", "int", "void", "bool", "true", "false", "float", "invariant", "discard", "return", "mat2",
    "mat3", "mat4", "mat2x2", "mat2x3", "mat2x4", "mat3x2", "mat3x3", "mat3x4", "mat4x2", "mat4x3", "mat4x4",
    "vec2", "vec3", "vec4", "ivec2", "ivec3", "ivec4", "bvec2", "bvec3", "bvec4", "uint", "uvec2", "uvec3",
    "uvec4", "lowp", "mediump", "highp", "precision", "struct", "precise", "patch", "sample",
    /* reserved for later versions */
    "attribute", "varying", "resource", "noperspective", "subroutine", "common", "partition", "active", "asm",
    "class", "union", "enum", "typedef", "template", "this", "goto", "inline", "noinline", "public", "static",
    "extern", "external", "interface", "long", "short", "double", "half", "fixed", "unsigned", "superp",
    "input", "output", "hvec2", "hvec3", "hvec4", "dvec2", "dvec3", "dvec4", "fvec2", "fvec3", "fvec4",
    "filter", "sizeof", "cast", "namespace", "using", "dmat2", "dmat3", "dmat4",
    /* built-in functions */
    "radians", "degrees", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh",
    "acosh", "atanh", "pow", "exp", "log", "exp2", "log2", "sqrt", "inversesqrt", "abs", "sign", "floor",
    "trunc", "round", "roundEven", "ceil", "fract", "mod", "modf", "min", "max", "clamp", "mix", "step",
    "smoothstep", "isnan", "isinf", "floatBitsToInt", "floatBitsToUint", "intBitsToFloat", "uintBitsToFloat",
    "fma", "frexp", "ldexp", "packSnorm2x16", "unpackSnorm2x16", "packUnorm2x16", "unpackUnorm2x16",
    "packHalf2x16", "unpackHalf2x16", "packSnorm4x8", "unpackSnorm4x8", "packUnorm4x8", "unpackUnorm4x8",
    "length", "distance", "dot", "cross", "normalize", "faceforward", "reflect", "refract", "matrixCompMult",
    "outerProduct", "transpose", "determinant", "inverse", "lessThan", "lessThanEqual", "greaterThan",
    "greaterThanEqual", "equal", "notEqual", "any", "all", "not", "uaddCarry", "usubBorrow", "umulExtended",
    "imulExtended", "bitfieldExtract", "bitfieldInsert", "bitfieldReverse", "bitCount", "findLSB", "findMSB",
    "textureSize", "texture", "textureProj", "textureLod", "textureOffset", "texelFetch", "texelFetchOffset",
    "textureProjOffset", "textureLodOffset", "textureProjLod", "textureProjLodOffset", "textureGrad",
    "textureGradOffset", "textureProjGrad", "textureProjGradOffset", "textureGather", "textureGatherOffset",
    "textureGatherOffsets", "atomicAdd", "atomicMin", "atomicMax", "atomicAnd", "atomicOr", "atomicXor",
    "atomicExchange", "atomicCompSwap", "dFdx", "dFdy", "fwidth", "interpolateAtCentroid",
    "interpolateAtSample", "interpolateAtOffset", "barrier", "memoryBarrier", "memoryBarrierAtomicCounter",
    "memoryBarrierBuffer", "memoryBarrierImage", "memoryBarrierShared", "groupMemoryBarrier", "main",
    "defined"};

static bool in_list(const char *const *list, size_t count, const char *word, size_t len) {
  for (size_t i = 0; i < count; i++)
    if (strlen(list[i]) == len && memcmp(list[i], word, len) == 0) return true;
  return false;
}

gt_glsl_word gt__glsl_word(const char *word, size_t len) {
  if (in_list(memory_words, sizeof memory_words / sizeof memory_words[0], word, len))
    return GT_GLSL_WORD_MEMORY;
  if (in_list(reserved_words, sizeof reserved_words / sizeof reserved_words[0], word, len))
    return GT_GLSL_WORD_RESERVED;
  return GT_GLSL_WORD_PLAIN;
}

const char *gt__kernel_refusal_id(gt_kernel_refusal r) {
  switch (r) {
  case GT_KERNEL_ACCEPTED: return "";
#define GT__KERNEL_REFUSAL_ID(id, text)                                                                      \
  case GT_KERNEL_REFUSED_##id: return #id;
    GT_EACH_KERNEL_REFUSAL(GT__KERNEL_REFUSAL_ID)
  }
  return "";
}

const char *gt__kernel_refusal_text(gt_kernel_refusal r) {
  switch (r) {
  case GT_KERNEL_ACCEPTED: return "";
#define GT__KERNEL_REFUSAL_TEXT(id, text)                                                                    \
  case GT_KERNEL_REFUSED_##id: return text;
    GT_EACH_KERNEL_REFUSAL(GT__KERNEL_REFUSAL_TEXT)
  }
  return "";
}

static bool plain(const char *name) {
  if (name == NULL || name[0] == '\0' || strlen(name) > GT_KERNEL_MAX_NAME) return false;
  if (name[0] >= '0' && name[0] <= '9') return false;
  for (const char *p = name; *p; p++) {
    bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_';
    if (!ok) return false;
  }
  return true;
}

/* The prefixes GLSL reserves (gl_ for built-ins, GL_ for macros, __
 * anywhere) and the library's own: its prelude, preamble and generated
 * declarations use gt_ and GT_ only, but for the prelude's two guarded
 * access macros. */
static bool library_name(const char *name) {
  static const char *const prefixes[] = {"gt_", "gl_", "GT_", "GL_"};
  for (size_t i = 0; i < 4; i++)
    if (strncmp(name, prefixes[i], 3) == 0) return true;
  return strstr(name, "__") != NULL || strcmp(name, "guarded_read") == 0 ||
         strcmp(name, "guarded_write") == 0;
}

/* name is view's name followed by one of its helpers' suffixes. */
static bool helper_of(const char *name, const char *view) {
  static const char *const suffixes[] = {"_index", "_extent", "_read", "_write"};
  size_t n = strlen(view);
  if (strncmp(name, view, n) != 0) return false;
  for (size_t i = 0; i < 4; i++)
    if (strcmp(name + n, suffixes[i]) == 0) return true;
  return false;
}

static gt_kernel_refusal refuse(gt_kernel_verdict *v, gt_kernel_refusal r, const char *name) {
  v->refusal = r;
  v->line = 0;
  snprintf(v->where, sizeof v->where, "%s", name ? name : "(NULL)");
  return r;
}

gt_kernel_refusal gt__kernel_check_names(const gt_kernel_desc *d, gt_kernel_verdict *v) {
  const char *names[GT_KERNEL_MAX_VIEWS + GT_KERNEL_MAX_UNIFORMS];
  uint32_t n = 0;
  for (uint32_t i = 0; i < d->view_count; i++)
    names[n++] = d->views[i].name;
  for (uint32_t i = 0; i < d->uniform_count; i++)
    names[n++] = d->uniforms[i].name;
  for (uint32_t i = 0; i < n; i++) {
    if (!plain(names[i])) return refuse(v, GT_KERNEL_REFUSED_NAME_NOT_PLAIN, names[i]);
    if (library_name(names[i])) return refuse(v, GT_KERNEL_REFUSED_NAME_LIBRARY, names[i]);
    if (gt__glsl_word(names[i], strlen(names[i])) != GT_GLSL_WORD_PLAIN)
      return refuse(v, GT_KERNEL_REFUSED_NAME_RESERVED, names[i]);
  }
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = 0; j < n; j++) {
      if (j > i && strcmp(names[i], names[j]) == 0)
        return refuse(v, GT_KERNEL_REFUSED_NAME_REPEATED, names[i]);
      if (j < d->view_count && helper_of(names[i], names[j]))
        return refuse(v, GT_KERNEL_REFUSED_NAME_HELPER, names[i]);
    }
  return GT_KERNEL_ACCEPTED;
}
