/* gltile compile: builds every program this context can reach with the
 * device's own compiler and prints, per program, whether it built and
 * what the compiler said of it (registers, spills, threads or waves,
 * instructions, cycle estimates), where the driver reports that through
 * the GL debug output (Mesa's panfrost and v3d do; freedreno with
 * FD_MESA_DEBUG=shaderdb), and on V3D the TMU requests in the code the
 * driver prints (v3d_listing.h). The programs AUTO chooses are found by
 * running AUTO (compile_auto.c); the others are the context's program
 * list, every program a plan on it can name (gt_program_list).
 *
 * Fails (exit 1) when a program does not build, a program AUTO chooses
 * spills, an AUTO call fails, or GL reports an error. */
#include "compile.h"
#include "csv.h"
#include "ir3_listing.h"
#include "shader_stats.h"
#include "stderr_capture.h"
#include "v3d_listing.h"

#define GT_STATIC_LINKING_ONLY
#include <gltile/gltile_advanced.h>

#include <EGL/egl.h>
#include <stdlib.h>
#include <string.h>

#define DEBUG_OUTPUT 0x92E0
#define DEBUG_OUTPUT_SYNCHRONOUS 0x8242
typedef void(GL_APIENTRYP debug_proc)(GLenum, GLenum, GLuint, GLenum, GLsizei, const GLchar *, const void *);
typedef void(GL_APIENTRYP set_callback_fn)(debug_proc, const void *);

enum { MAX_PROGRAMS = GT_COMPILE_MAX_PROGRAMS };

typedef struct compiled {
  gt_program_id key;
  const char *label; /* a user kernel's program: no key */
  bool auto_chosen, built, has_stats;
  const char *call; /* AUTO's: the first catalogue call that asked for it (in uses) */
  shader_stats stats;
  bool has_step_stats;     /* a matmul's statistics with one more K step a */
  shader_stats step_stats; /* pass (gt_program_k_steps), where it has them */
} compiled;

static compiled programs[MAX_PROGRAMS];
/* The catalogue calls' programs, in the order of the calls. */
static chosen_program uses[GT_COMPILE_MAX_USES];
static size_t use_count;
static size_t program_count, programs_dropped;
/* The statistics lines the driver sent since the last reset, in order. */
enum { MAX_MESSAGES = 4 };
static char messages[MAX_MESSAGES][1024];
static int message_count;
static const char *renderer;

static void GL_APIENTRY on_message(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                   const GLchar *message, const void *user) {
  (void)source, (void)type, (void)id, (void)severity, (void)user;
  shader_stats probe;
  if (message == NULL) return;
  size_t n = length >= 0 ? (size_t)length : strlen(message);
  char text[sizeof messages[0]];
  snprintf(text, sizeof text, "%.*s", (int)(n < sizeof text ? n : sizeof text - 1), message);
  if (shader_stats_parse(text, renderer, &probe) && message_count < MAX_MESSAGES)
    memcpy(messages[message_count++], text, sizeof text);
}

/* Turns on the debug output with our callback; false where the context
 * has none (ES 3.2, or KHR_debug's twin). */
static bool listen(void) {
  set_callback_fn set = (set_callback_fn)eglGetProcAddress("glDebugMessageCallbackKHR");
  if (set == NULL) set = (set_callback_fn)eglGetProcAddress("glDebugMessageCallback");
  if (set == NULL) return false;
  glEnable(DEBUG_OUTPUT);
  glEnable(DEBUG_OUTPUT_SYNCHRONOUS);
  set(on_message, NULL);
  bool ok = glGetError() == GL_NO_ERROR;
  return ok;
}

static compiled *find_or_add(const gt_program_id *key) {
  for (size_t i = 0; i < program_count; i++)
    if (programs[i].label == NULL && memcmp(&programs[i].key, key, sizeof *key) == 0) return &programs[i];
  if (program_count == MAX_PROGRAMS) {
    programs_dropped++;
    return NULL;
  }
  compiled *c = &programs[program_count++];
  memset(c, 0, sizeof *c);
  c->key = *key;
  return c;
}

/* Name of a program: its kernel file, tile, group, element and variant
 * flags (gt_program_name), or a user kernel's label. */
static void program_name(const compiled *c, char *out, size_t size) {
  if (c->label != NULL)
    snprintf(out, size, "%s", c->label);
  else
    gt_program_name(&c->key, out, size);
}

/* c's program, or its measuring form: one more K step a pass
 * (GT_PROGRAM_MEASURE_STEP_LINE after its preamble). */
static gt_status build_text(gt_context *ctx, const compiled *c, bool one_more_step, uint32_t *program) {
  if (!one_more_step) return gt_program_build_alone(ctx, &c->key, program);
  char preamble[GT_PROGRAM_PREAMBLE_BYTES + sizeof GT_PROGRAM_MEASURE_STEP_LINE];
  const char *parts[GT_PROGRAM_TEXT_PARTS];
  if (gt_program_text(&c->key, preamble, GT_PROGRAM_PREAMBLE_BYTES, parts) != GT_PROGRAM_TEXT_PARTS ||
      parts[0] != preamble)
    return GT_ERR_INVALID_ARGUMENT;
  strcat(preamble, GT_PROGRAM_MEASURE_STEP_LINE);
  return gt_program_build_text(ctx, parts, gt_program_kernel_file(&c->key), program);
}

/* Builds c's program (with one_more_step, its measuring form) on its own,
 * not in the context's table, and reads the compiler's statistics into
 * *stats; with `dispatch` runs one group of it over a scratch buffer with
 * zero extents, for drivers that compile at the first dispatch (v3d). */
static gt_status build_and_count(gt_context *ctx, const compiled *c, bool one_more_step, bool dispatch,
                                 GLuint scratch, bool *has_stats, shader_stats *stats) {
  message_count = 0;
  uint32_t program = 0;
  gt_status s = build_text(ctx, c, one_more_step, &program);
  if (s != GT_OK) return s;
  if (dispatch && message_count == 0) {
    glUseProgram(program);
    /* Every slot a library kernel declares (v3d and panfrost crash on a
     * declared block with nothing bound). */
    for (GLuint i = 0; i <= GT_PROGRAM_MAX_BINDING; i++)
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, i, scratch);
    GLuint images[2] = {0, 0};
    if (c->key.format) { /* image kernels read unit 0 and write unit 1 */
      static const GLenum internal[] = {0, GL_R32F, GL_R32I, GL_R32UI, GL_RGBA8};
      GLenum format = internal[c->key.format];
      glGenTextures(2, images);
      for (GLuint i = 0; i < 2; i++) {
        glBindTexture(GL_TEXTURE_2D, images[i]);
        glTexStorage2D(GL_TEXTURE_2D, 1, format, 16, 16);
        glBindImageTexture(i, images[i], 0, GL_FALSE, 0, i ? GL_WRITE_ONLY : GL_READ_ONLY, format);
      }
      glBindTexture(GL_TEXTURE_2D, 0);
    }
    glDispatchCompute(1, 1, 1);
    glFinish();
    glUseProgram(0);
    if (images[0]) glDeleteTextures(2, images);
  }
  *has_stats = message_count > 0 && shader_stats_parse(messages[0], renderer, stats);
  glDeleteProgram(program);
  GLenum error = glGetError();
  return error == GL_NO_ERROR ? GT_OK : error == GL_OUT_OF_MEMORY ? GT_ERR_OUT_OF_MEMORY : GT_ERR_GL;
}

/* The code the driver prints while it builds, read where it prints it:
 * V3D's TMU requests, Adreno's main loop. */
typedef struct driver_code {
  bool v3d, adreno, listening;
  stderr_capture capture;
  v3d_listing v3d_code;
  ir3_listing ir3_code;
} driver_code;

static bool keep_driver_code(const char *line, void *user) {
  driver_code *d = user;
  return (d->v3d && v3d_listing_line(&d->v3d_code, line)) || (d->adreno && ir3_listing_line(&d->ir3_code, line));
}

/* Starts reading the code the driver prints, where it prints it;
 * driver_code_end ends it. */
static void driver_code_begin(driver_code *code) {
  code->v3d = renderer != NULL && strstr(renderer, "V3D") != NULL && v3d_listing_printed();
  code->adreno = renderer != NULL && (strstr(renderer, "FD") != NULL || strstr(renderer, "Adreno") != NULL) &&
                 ir3_listing_printed();
  v3d_listing_start(&code->v3d_code);
  ir3_listing_start(&code->ir3_code);
  code->listening = (code->v3d || code->adreno) && stderr_capture_begin(&code->capture);
}

static void driver_code_end(driver_code *code) {
  if (code->listening) stderr_capture_end(&code->capture, keep_driver_code, code);
}

/* build_and_count, and where the driver prints its code, the figures its
 * statistics line lacks: on V3D the memory accesses (its TMU requests,
 * v3d_listing.h), on Adreno the main loop's instructions and memory
 * instructions (ir3_listing.h). */
static gt_status build_and_read(gt_context *ctx, const compiled *c, bool one_more_step, bool dispatch,
                                GLuint scratch, bool *has_stats, shader_stats *stats) {
  driver_code code;
  driver_code_begin(&code);
  gt_status s = build_and_count(ctx, c, one_more_step, dispatch, scratch, has_stats, stats);
  driver_code_end(&code);
  if (!*has_stats) return s;
  double requests = v3d_listing_requests(&code.v3d_code);
  if (stats->memory < 0) stats->memory = requests;
  ir3_listing_loop(&code.ir3_code, &stats->loop_inst, &stats->loop_memory);
  return s;
}

/* c's program and, for a matmul whose loop can be measured
 * (gt_program_k_steps), the same with one more K step a pass. */
static gt_status build_one(gt_context *ctx, compiled *c, bool dispatch, GLuint scratch) {
  gt_status s = build_and_read(ctx, c, false, dispatch, scratch, &c->has_stats, &c->stats);
  c->built = s == GT_OK;
  if (s != GT_OK || !c->has_stats || gt_program_k_steps(&c->key) == 0) return s;
  s = build_and_read(ctx, c, true, dispatch, scratch, &c->has_step_stats, &c->step_stats);
  if (s != GT_OK) c->built = false; /* the measuring form must build too */
  return s;
}

/* The user-kernel prelude: the README's kernel, built as gt_kernel_create
 * builds every kernel (with restrict, and the aliased program without),
 * each dispatched once (views apart, then overlapping) so that drivers
 * compiling at the first dispatch report too. Adds its two rows. */
static gt_status user_kernel(gt_context *ctx, bool dispatch) {
  gt_kernel_desc kd;
  memset(&kd, 0, sizeof kd);
  kd.body = "void main() {\n"
            "  uvec2 g = gt_global();\n"
            "  if (gt_in_domain(g)) y_write(g, x_read(g) * factor);\n"
            "}\n";
  kd.tile_rows = kd.tile_cols = 8;
  kd.view_count = 2;
  kd.views[0] = (gt_kernel_view){"x", GT_F32, GT_ACCESS_READ};
  kd.views[1] = (gt_kernel_view){"y", GT_F32, GT_ACCESS_WRITE};
  kd.uniform_count = 1;
  kd.uniforms[0] = (gt_kernel_uniform){"factor", GT_UNIFORM_FLOAT};
  if (program_count + 2 > MAX_PROGRAMS) return GT_ERR_OUT_OF_MEMORY;
  compiled *rows = &programs[program_count];
  program_count += 2;
  memset(rows, 0, 2 * sizeof *rows);
  rows[0].label = "user kernel (prelude, restrict)";
  rows[1].label = "user kernel (prelude, aliased)";
  rows[0].auto_chosen = rows[1].auto_chosen = true;
  message_count = 0;
  gt_kernel_id k = 0;
  gt_status s = gt_kernel_create(ctx, &kd, &k);
  rows[0].built = rows[1].built = s == GT_OK;
  if (s != GT_OK) return s;
  if (dispatch && message_count == 0) {
    GLuint buffer = tool_buffer(64 * 64, NULL);
    gt_view apart[2] = {{buffer, 0, 32, 32, 64, GT_F32}, {buffer, 32, 32, 32, 64, GT_F32}};
    gt_view overlapping[2] = {{buffer, 0, 32, 32, 64, GT_F32}, {buffer, 1, 32, 32, 64, GT_F32}};
    gt_uniform_value factor = {.f = 2.0f};
    gt_dispatch_desc dd = {{32, 32}, GT_POLICY_PAD, apart, &factor};
    s = gt_kernel_dispatch(ctx, k, &dd, NULL);
    dd.views = overlapping;
    if (s == GT_OK) s = gt_kernel_dispatch(ctx, k, &dd, NULL);
    if (s == GT_OK) s = gt_finish(ctx);
    glDeleteBuffers(1, &buffer);
  }
  for (int i = 0; i < 2 && i < message_count; i++)
    rows[i].has_stats = shader_stats_parse(messages[i], renderer, &rows[i].stats);
  gt_kernel_destroy(ctx, k);
  return s;
}

static void print_value(double v, const char *fmt) {
  if (v < 0)
    fputs("       -", stdout);
  else
    printf(fmt, v);
}

/* The compiler's instructions and memory accesses per element a
 * transpose, copy or image program moves (gt_program_elements): -1 where
 * the program moves none, or the driver did not say. */
static void per_element(const compiled *c, double *inst, double *memory) {
  uint32_t elements = c->label == NULL ? gt_program_elements(&c->key) : 0;
  *inst = *memory = -1;
  if (!c->has_stats || elements == 0) return;
  if (c->stats.inst >= 0) *inst = c->stats.inst / elements;
  if (c->stats.memory >= 0) *memory = c->stats.memory / elements;
}

/* The compiler's instructions and memory accesses for one K step of one
 * invocation of a matmul program, over the k a pass steps
 * (gt_program_k_steps): on Adreno, where the code was read, its main
 * loop's; elsewhere its measuring form's counts less its own; -1 where
 * unknown. */
static void per_step(const compiled *c, double *inst, double *loads) {
  uint32_t steps = c->label == NULL ? gt_program_k_steps(&c->key) : 0;
  *inst = *loads = -1;
  if (!c->has_stats || steps == 0) return;
  const shader_stats *one = &c->stats, *more = &c->step_stats;
  if (one->loop_inst >= 0) {
    *inst = one->loop_inst / steps;
    *loads = one->loop_memory / steps;
    return;
  }
  if (!c->has_step_stats) return;
  if (one->inst >= 0 && more->inst >= 0) *inst = (more->inst - one->inst) / steps;
  if (one->memory >= 0 && more->memory >= 0) *loads = (more->memory - one->memory) / steps;
}

static void print_row(const compiled *c) {
  char name[256];
  program_name(c, name, sizeof name);
  printf("%-4s %-6s", c->label ? "user" : c->auto_chosen ? "AUTO" : "", c->built ? "built" : "FAILED");
  if (c->has_stats) {
    const shader_stats *s = &c->stats;
    print_value(s->inst, " %7.0f");
    print_value(s->registers, " %7.0f");
    printf(" %4.0f:%-4.0f", s->spills < 0 ? 0 : s->spills, s->fills < 0 ? 0 : s->fills);
    print_value(s->occupancy, " %4.0f");
    printf("/%-2.0f", s->occupancy_max);
    print_value(s->cycles, " %7.2f");
    print_value(s->arith, " %7.2f");
    print_value(s->ldst, " %7.2f");
    print_value(s->nops, " %7.0f");
    print_value(s->sync_stalls, " %7.0f");
    double inst, memory;
    per_element(c, &inst, &memory);
    print_value(inst, " %7.2f");
    print_value(memory, " %7.2f");
    per_step(c, &inst, &memory);
    print_value(inst, " %7.2f");
    print_value(memory, " %7.2f");
  }
  printf("  %s\n", name);
}

/* Every call that asked for c, in order, "; " between. */
static void csv_calls(csv_writer *w, const compiled *c) {
  static char text[GT_COMPILE_MAX_USES / 4 * GT_COMPILE_CALL_TEXT];
  size_t at = 0;
  text[0] = '\0';
  for (size_t i = 0; i < use_count && c->label == NULL; i++)
    if (memcmp(&uses[i].key, &c->key, sizeof c->key) == 0 && at < sizeof text) {
      int n = snprintf(text + at, sizeof text - at, "%s%s", at ? "; " : "", uses[i].call);
      at += n > 0 ? (size_t)n : 0;
    }
  csv_text(w, text);
}

static void csv_row(csv_writer *w, const compiled *c) {
  char name[256];
  program_name(c, name, sizeof name);
  csv_text(w, renderer);
  csv_text(w, name);
  csv_text(w, c->call ? c->call : "");
  csv_calls(w, c);
  csv_text(w, c->label ? "user" : c->auto_chosen ? "yes" : "no");
  csv_text(w, c->built ? "yes" : "no");
  const shader_stats *s = &c->stats;
  double per_elem_inst, per_elem_mem, per_step_inst, per_step_loads;
  per_element(c, &per_elem_inst, &per_elem_mem);
  per_step(c, &per_step_inst, &per_step_loads);
  double values[] = {s->inst,      s->registers,  s->spills,     s->fills,       s->occupancy,
                     s->occupancy_max, s->cycles, s->arith,      s->ldst,        s->nops,
                     s->sync_stalls, s->memory,   per_elem_inst, per_elem_mem,   per_step_inst,
                     per_step_loads};
  /* Empty where the driver said nothing, or not this figure (< 0). */
  for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
    if (c->has_stats && values[i] >= 0)
      csv_number(w, "%g", values[i]);
    else
      csv_empty(w);
  csv_text(w, c->has_stats ? s->line : "");
  csv_end_row(w);
}

static int usage(FILE *f) {
  fputs("usage: gltile compile [--stats] [--require-stats] [--auto | --no-catalogue] [--only TEXT]\n"
        "                      [--csv FILE] [--min-limits] [--tile 8|16|32] [--device-entry R]\n"
        "                      [--matmul-kernel registers|registers-k1|shared|texels|device]\n"
        "  builds every program this device can reach with its own compiler; AUTO marks\n"
        "  those AUTO chooses (found by running AUTO on a catalogue of views)\n"
        "  --stats       also run one group of each program over a scratch buffer, for\n"
        "                drivers that compile at the first dispatch (v3d); for compilers'\n"
        "                statistics on a fake device (docs/performance.md)\n"
        "  --auto        only the programs AUTO chooses\n"
        "  --require-stats  fail where a program AUTO chooses (or the user-kernel prelude)\n"
        "                has no statistics from the compiler\n"
        "  --no-catalogue  do not run AUTO on the catalogue first, which builds every\n"
        "                program AUTO chooses: quicker with --only, but no row is AUTO\n"
        "  --only TEXT   only the programs whose names hold TEXT (\"matmul_blocked t32\")\n"
        "  --csv FILE    every row as CSV, quoted as bench --csv is (RFC 4180)\n"
        "  --min-limits  clamp the device limits to the ES 3.1 minimums\n"
        "  --tile N      the context's default tile (default: the device table's)\n"
        "  --matmul-kernel K   the kernel matmul's AUTO runs (default: the device table's)\n"
        "  --device-entry R   make every choice from the device-table entry of renderer R\n"
        "                (llvmpipe, FD630, Mali-G52: another entry's programs on this compiler)\n",
        f);
  return f == stdout ? 0 : 2;
}

int tool_cmd_compile(int argc, char **argv) {
  bool stats = false, auto_only = false, min_limits = false, catalogue = true, require_stats = false;
  const char *csv = NULL, *only = NULL;
  gt_matmul_kernel kernel = GT_MATMUL_KERNEL_DEVICE;
  uint32_t tile = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--stats") == 0)
      stats = true;
    else if (strcmp(argv[i], "--auto") == 0)
      auto_only = true;
    else if (strcmp(argv[i], "--require-stats") == 0)
      require_stats = true;
    else if (strcmp(argv[i], "--no-catalogue") == 0)
      catalogue = false;
    else if (strcmp(argv[i], "--min-limits") == 0)
      min_limits = true;
    else if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc)
      csv = argv[++i];
    else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
      only = argv[++i];
    else if (strcmp(argv[i], "--device-entry") == 0 && i + 1 < argc)
      gt_device_entry_pretend(argv[++i]); /* before any context is made */
    else if (strcmp(argv[i], "--tile") == 0 && i + 1 < argc) {
      if (tool_parse_u32(argv[++i], 32, &tile)) return usage(stderr);
    } else if (strcmp(argv[i], "--matmul-kernel") == 0 && i + 1 < argc) {
      const char *v = argv[++i];
      kernel = strcmp(v, "registers") == 0      ? GT_MATMUL_KERNEL_REGISTERS
               : strcmp(v, "registers-k1") == 0 ? GT_MATMUL_KERNEL_REGISTERS_K1
               : strcmp(v, "shared") == 0       ? GT_MATMUL_KERNEL_SHARED
               : strcmp(v, "texels") == 0       ? GT_MATMUL_KERNEL_TEXELS
                                                : GT_MATMUL_KERNEL_DEVICE;
    }
    else
      return usage(strcmp(argv[i], "--help") == 0 ? stdout : stderr);
  }
  /* Without the catalogue AUTO has chosen nothing: --auto would list nothing. */
  if (auto_only && !catalogue) return usage(stderr);
  gt_egl egl;
  gt_context *ctx;
  gt_context_desc desc = tool_desc(min_limits, kernel);
  desc.tile = tile;
  /* Room for every program AUTO builds over the catalogue: those still in
   * the table afterwards are the ones marked AUTO. */
  desc.program_slots = MAX_PROGRAMS;
  int failures = 0, refused = 0;
  static gt_program_id listed[MAX_PROGRAMS];
  if (catalogue) {
    failures += compile_auto_keys(&desc, uses, GT_COMPILE_MAX_USES, &use_count, &refused);
    if (use_count > GT_COMPILE_MAX_USES) {
      fprintf(stderr, "gltile compile: %zu uses of programs past the list's %d\n", use_count,
              (int)GT_COMPILE_MAX_USES);
      failures++;
      use_count = GT_COMPILE_MAX_USES;
    }
    for (size_t i = 0; i < use_count; i++) {
      compiled *c = find_or_add(&uses[i].key);
      if (c == NULL) continue;
      c->auto_chosen = true;
      if (c->call == NULL) c->call = uses[i].call;
    }
  }
  if (tool_open(&desc, &egl, &ctx)) return 1;
  renderer = gt_context_renderer(ctx);
  bool listening = listen();
  if (!auto_only) {
    size_t count = gt_program_list(ctx, listed, MAX_PROGRAMS);
    for (size_t i = 0; i < count && i < MAX_PROGRAMS; i++)
      find_or_add(&listed[i]);
    if (count > MAX_PROGRAMS) programs_dropped += count - MAX_PROGRAMS;
  }
  GLuint scratch = stats ? tool_buffer(1u << 18, NULL) : 0;
  int auto_count = 0, auto_short = 0;
  if (only != NULL) { /* keep the programs whose names hold `only` */
    size_t kept = 0;
    for (size_t i = 0; i < program_count; i++) {
      char name[256];
      program_name(&programs[i], name, sizeof name);
      if (strstr(name, only) != NULL) programs[kept++] = programs[i];
    }
    program_count = kept;
  }
  size_t library_programs = program_count;
  /* The user kernel's code is read only to be kept out of stderr. */
  driver_code code;
  driver_code_begin(&code);
  gt_status us = only == NULL || strstr("user kernel", only) ? user_kernel(ctx, stats) : GT_OK;
  driver_code_end(&code);
  if (us != GT_OK) {
    fprintf(stderr, "gltile compile: user kernel: %s\n", gt_status_string(us));
    failures++;
  }
  for (size_t i = 0; i < program_count; i++) {
    compiled *c = &programs[i];
    gt_status s = i < library_programs ? build_one(ctx, c, stats, scratch) : GT_OK;
    if (s != GT_OK) {
      char name[256];
      program_name(c, name, sizeof name);
      fprintf(stderr, "gltile compile: %s: %s\n", name, gt_status_string(s));
      failures++;
    }
    if (c->auto_chosen) { /* and the user-kernel prelude's two */
      auto_count += c->label == NULL;
      const char *why = c->has_stats ? shader_stats_shortfall(&c->stats) : "";
      if (*why) auto_short++;
      if (strcmp(why, "spills") == 0) failures++;
      if (require_stats && !c->has_stats) {
        char name[256];
        program_name(c, name, sizeof name);
        fprintf(stderr, "gltile compile: %s: the compiler reported no statistics\n", name);
        failures++;
      }
    }
  }
  if (scratch) glDeleteBuffers(1, &scratch);
  char refusals[64] = "AUTO not run: --no-catalogue";
  if (catalogue) snprintf(refusals, sizeof refusals, "%d AUTO calls the device refuses", refused);
  printf("%s: %zu programs, %d chosen by AUTO, %zu of the user-kernel prelude (%s)%s\n", renderer,
         program_count, auto_count, program_count - library_programs, refusals,
         listening ? "" : "; no debug output, so no statistics");
  printf(
      "auto built     inst    regs spills:fills occ/max  cycles   arith    ldst    nops   sy-st  inst/el  mem/el"
      " inst/k  mem/k  program\n");
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < program_count; i++)
      if (programs[i].auto_chosen == (pass == 0)) print_row(&programs[i]);
  if (csv) {
    FILE *f = fopen(csv, "w");
    if (f == NULL) {
      fprintf(stderr, "gltile compile: cannot write %s\n", csv);
      failures++;
    } else {
      static const char *const header[] = {
          "renderer",  "program",       "call",   "calls", "auto",  "built", "inst", "registers", "spills", "fills",
          "occupancy", "occupancy_max", "cycles", "arith", "ldst", "nops",      "sync_stalls", "memory",
          "per_elem_inst", "per_elem_mem", "per_step_inst", "per_step_loads", "stats"};
      csv_writer w = csv_on(f);
      csv_header(&w, header, sizeof header / sizeof header[0]);
      for (size_t i = 0; i < program_count; i++)
        csv_row(&w, &programs[i]);
      failures += ferror(f) != 0;
      if (fclose(f) != 0) failures++;
    }
  }
  if (programs_dropped) {
    fprintf(stderr, "gltile compile: %zu programs past the list's %d not built\n", programs_dropped,
            (int)MAX_PROGRAMS);
    failures++;
  }
  printf("%d AUTO or user-kernel programs below full occupancy or spilling; %d failures\n", auto_short,
         failures);
  tool_close(&egl, ctx);
  return failures ? 1 : 0;
}
