/* gltile's advanced surface: what its own tools (`gltile info`, `tune`,
 * `compile`, the build's GLSL check) need beyond gltile.h: the names of
 * element types, how a device-table entry was chosen, the programs a
 * context can reach, their GLSL text, and building one program alone.
 *
 * This surface is not stable: any version, a patch one included, may
 * change or remove what is here, and the ABI rules of gltile.h do not
 * hold for it. gltile is a static library, so a program that includes this
 * header and links the archive it was built with always agrees with it;
 * define GT_STATIC_LINKING_ONLY before including it, to say so. */
#ifndef GLTILE_GLTILE_ADVANCED_H
#define GLTILE_GLTILE_ADVANCED_H

#ifndef GT_STATIC_LINKING_ONLY
#error "gltile_advanced.h is not a stable API: define GT_STATIC_LINKING_ONLY before including it"
#endif

#include <gltile/gltile.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* ------------------------------------------------------------------ */
/* Element types.                                                      */

/* The short name of t ("f32", "u8", ...) and its NumPy descr ("<f4",
 * "|u1", ...); NULL for an unknown type. */
const char *gt_type_name(gt_type t);
const char *gt_type_npy_descr(gt_type t);

/* The type of a short name or a NumPy descr, matched whole; 0 (no type)
 * where none matches. */
gt_type gt_type_from_name(const char *name);
gt_type gt_type_from_npy_descr(const char *descr);

/* ------------------------------------------------------------------ */
/* The device table.                                                    */

/* How the choices of a context's device-table entry were made. */
typedef enum gt_device_basis {
  GT_DEVICE_NOT_MEASURED = 0, /* guessed from the kind of GPU */
  GT_DEVICE_MEASURED = 1,     /* measured on such a device */
  GT_DEVICE_COMPILED = 2      /* chosen from its compiler's statistics, not measured */
} gt_device_basis;

gt_device_basis gt_context_device_basis(const gt_context *ctx);

/* Contexts made after this call take the device-table entry of renderer
 * (NULL: their own), so a tool describes or runs another device's choices
 * on this one. Not thread-safe: call it while no context is being made. */
void gt_device_entry_pretend(const char *renderer);

/* ------------------------------------------------------------------ */
/* Programs.                                                           */

/* A program of the library's: the fields of its key (which kernel, tile,
 * group and variant flags, element type or texel format). Two ids name
 * the same program when every field is equal. */
typedef struct gt_program_id {
  uint32_t kernel, tile, group_cols, group_rows, variant;
  gt_type elem;     /* 0 for images */
  gt_format format; /* 0 but for images */
} gt_program_id;

/* The distinct programs plans on ctx can name (its program list), or
 * with ctx NULL those of every device-table entry and limit set (what the
 * build checks), sorted, into out (room for capacity). Returns how many
 * there are: more than capacity where they did not all fit. No GL. */
size_t gt_program_list(const gt_context *ctx, gt_program_id *out, size_t capacity);

/* The programs ctx holds built now (its program table), into out.
 * Returns how many. No GL. */
size_t gt_context_programs(const gt_context *ctx, gt_program_id *out, size_t capacity);

/* The programs ctx holds that plans asked for since *clock (0 at first:
 * every one), into out; *clock then gets the program table's clock now,
 * for the next call. Returns how many. No GL. */
size_t gt_context_programs_used(const gt_context *ctx, uint32_t *clock, gt_program_id *out, size_t capacity);

/* A program's name: its kernel file and, as its preamble spells them,
 * tile, group, element and variant defines ("matmul_blocked t32 8x8 f32
 * TRANS_A VEC4_B"); "" where id names no program. */
void gt_program_name(const gt_program_id *id, char *out, size_t size);

/* The elements one invocation of a transpose, copy or image program
 * moves, in its element type (an in-place transpose's: its share of the
 * square); 0 for programs that move none (matmul) and for an id of no
 * program. A compiler's instructions for the program over this are its
 * cost per element. */
uint32_t gt_program_elements(const gt_program_id *id);

/* The k one pass of a matmul program's main K loop steps through (1 for
 * one k a step, 2 for the registers kernel's interior, 4 for its quads),
 * where the program
 * can be built with one more step a pass: GT_PROGRAM_MEASURE_STEP_LINE
 * added to its preamble (gt_program_text, gt_program_build_text). The
 * compiler's counts of that program less the program's own, over this,
 * are its cost per K step. 0 for other programs and an id of no program. */
uint32_t gt_program_k_steps(const gt_program_id *id);
#define GT_PROGRAM_MEASURE_STEP_LINE "#define GT_MEASURE_STEP\n"

/* The kernel file a program runs ("matmul_blocked.comp"). */
const char *gt_program_kernel_file(const gt_program_id *id);

/* A program's GLSL text as the library compiles it, in the given order:
 * parts[0] the preamble (written into preamble, room preamble_size), then
 * the prelude, shared parts and kernel. Returns the count of parts
 * (GT_PROGRAM_TEXT_PARTS), or 0 where id names no program or preamble is
 * too small. No GL. */
enum { GT_PROGRAM_TEXT_PARTS = 8, GT_PROGRAM_PREAMBLE_BYTES = 2048 };
int gt_program_text(const gt_program_id *id, char *preamble, size_t preamble_size,
                    const char *parts[GT_PROGRAM_TEXT_PARTS]);

/* The line a program's preamble enables 16-bit storage with, where it
 * takes them (gt_program_text puts it in parts[0]), for tools that check
 * the text with a compiler that knows another extension for them. */
#define GT_PROGRAM_HALF_STORAGE_LINE "#extension GL_NV_gpu_shader5 : require\n"

/* The highest storage-block binding any library kernel declares: a tool
 * dispatching a program alone binds a buffer at each slot up to it. */
enum { GT_PROGRAM_MAX_BINDING = 5 };

/* Compiles and links id's program outside ctx's table (its messages go to
 * ctx's logger). The program is the caller's: delete it with
 * glDeleteProgram.
 * Returns    GT_OK and *program; GT_ERR_INVALID_ARGUMENT (NULL, an id of
 *            no program); GT_ERR_NO_CONTEXT; GT_ERR_SHADER_BUILD;
 *            GT_ERR_OUT_OF_MEMORY; GT_ERR_CONTEXT_LOST; GT_ERR_GL. */
gt_status gt_program_build_alone(gt_context *ctx, const gt_program_id *id, uint32_t *program);

/* As gt_program_build_alone, from parts a caller took from gt_program_text
 * and may have changed (a define added to the preamble); name names the
 * program in ctx's log. The text is built as given: the driver's compiler
 * is its only check.
 * Returns    as gt_program_build_alone; GT_ERR_INVALID_ARGUMENT also for a
 *            NULL part or name. */
gt_status gt_program_build_text(gt_context *ctx, const char *const parts[GT_PROGRAM_TEXT_PARTS], const char *name,
                                uint32_t *program);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* GLTILE_GLTILE_ADVANCED_H */
