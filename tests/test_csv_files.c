/* The CSV and SVG files `gltile bench` and `gltile compile` write, read
 * back as a user reads them: by Python's csv module and its XML parser
 * (csv_files.py holds the checks of every column of every row). The
 * labels in them hold commas (plan labels, "auto+bias,relu", the
 * user-kernel programs); quotes, CR and LF come in through the renderer
 * string, which Mesa lets a user set (its driconf option
 * force_gl_renderer, read from the environment): the real one with such
 * characters after it, so every choice made by renderer stays the same.
 *
 * usage: test_csv_files PATH_TO_GLTILE PATH_TO_CSV_FILES_PY [EMULATOR]
 * Exits 77 (skipped) when python3 cannot be run or `gltile info` cannot
 * open a GL context (exit 1). */
/* fork, execvp, waitpid, setenv and mkdtemp are POSIX, not C99. */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "scratch_dir.h"

static const char *gltile, *checker, *emulator;

/* After the real renderer: a comma, double quotes, XML's specials and a
 * CR LF, so each kind of character needs its quoting or escaping. */
static const char suffix[] = " \"csv\", <a & b>\r\n'c'";

/* Runs argv (searched on PATH) with stdout into out_name in the scratch
 * directory when given, stderr to ours. Returns the exit status, 127
 * when argv[0] could not be started, 128 + a signal. */
static int run_program(char *const *argv, const char *out_name) {
  const char *out_path = out_name ? path_in_dir(out_name) : NULL;
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (out_path) {
      int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (o < 0 || dup2(o, 1) < 0) _exit(126);
    }
    execvp(argv[0], argv);
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* gltile (under the emulator of a cross build) with the NULL-terminated
 * args; stdout to out.txt. */
static int run_gltile(const char *const *args) {
  char *argv[32];
  int n = 0;
  if (emulator) argv[n++] = (char *)emulator;
  argv[n++] = (char *)gltile;
  for (int i = 0; args[i] != NULL && n < 31; i++)
    argv[n++] = (char *)args[i];
  argv[n] = NULL;
  return run_program(argv, "out.txt");
}

static int run_checker(const char *const *args) {
  char *argv[16];
  int n = 0;
  argv[n++] = "python3";
  argv[n++] = (char *)checker;
  for (int i = 0; args[i] != NULL && n < 15; i++)
    argv[n++] = (char *)args[i];
  argv[n] = NULL;
  return run_program(argv, NULL);
}

/* The renderer `gltile info` printed (out.txt): the text after
 * "renderer:" and its padding up to the line "version:", since the
 * renderer itself may hold line breaks. */
static bool read_renderer(char *out, size_t size) {
  static char text[8192];
  FILE *f = fopen(path_in_dir("out.txt"), "rb");
  size_t got = f ? fread(text, 1, sizeof text - 1, f) : 0;
  if (f) fclose(f);
  text[got] = '\0';
  const char *start = strstr(text, "renderer:"), *end = strstr(text, "\nversion:");
  if (start == NULL || end == NULL || end < start) return false;
  start += strlen("renderer:");
  start += strspn(start, " ");
  snprintf(out, size, "%.*s", (int)(end - start), start);
  return true;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: test_csv_files PATH_TO_GLTILE PATH_TO_CSV_FILES_PY [EMULATOR]\n");
    return 1;
  }
  gltile = argv[1];
  checker = argv[2];
  emulator = argc > 3 && argv[3][0] ? argv[3] : NULL;
  if (!scratch_make("gltile_csv")) return 1;
  char *probe[] = {"python3", "-c", "import csv, xml.etree.ElementTree", NULL};
  int python_rc = run_program(probe, NULL);
  if (python_rc != 0) {
    printf("python3 %s: skipped (the files are read back with its csv module)\n",
           python_rc == 127 ? "not found on PATH" : "cannot import csv and xml.etree");
    remove_dir();
    return 77;
  }
  const char *info[] = {"info", NULL};
  int info_rc = run_gltile(info);
  char real[512];
  if (info_rc == 1) {
    printf("gltile info failed, no OpenGL ES 3.1 context: skipped\n");
    remove_dir();
    return 77;
  }
  if (info_rc != 0 || !read_renderer(real, sizeof real)) {
    fprintf(stderr, "gltile info: exit %d, or no renderer line\n", info_rc);
    remove_dir();
    return 1;
  }
  char wanted[sizeof real + sizeof suffix], renderer[sizeof wanted];
  snprintf(wanted, sizeof wanted, "%s%s", real, suffix);
  setenv("force_gl_renderer", wanted, 1);
  CHECK_EQ_U(run_gltile(info), 0);
  CHECK(read_renderer(renderer, sizeof renderer));
  if (strcmp(renderer, wanted) != 0)
    printf("this driver does not take force_gl_renderer: no quote, CR or LF reaches the files here "
           "(the csv test checks the writer's quoting of them)\n");

  /* Plan labels with commas where the registers kernel reads vectors
   * ("registers 32 vec4 a,b,c"), and the epilogue's row always. */
  const char *csv = path_in_dir("bench.csv"), *svg = path_in_dir("bench.svg");
  const char *bench[] = {"bench",     "--op",       "matmul",     "--sizes", "64,33x17x9",
                         "--reps",    "1",          "--strategy", "auto",    "--matmul-kernel",
                         "registers", "--epilogue", "--csv",      csv,       "--svg",
                         svg,         NULL};
  CHECK_EQ_U(run_gltile(bench), 0);
  const char *bench_checks[] = {"bench", csv, svg, renderer, NULL};
  CHECK_EQ_U(run_checker(bench_checks), 0);

  /* The user-kernel prelude's two programs (names with commas) alone:
   * no catalogue, so seconds rather than minutes on llvmpipe. */
  const char *compiled = path_in_dir("compile.csv");
  const char *compile[] = {"compile", "--no-catalogue", "--only", "user kernel", "--csv", compiled, NULL};
  CHECK_EQ_U(run_gltile(compile), 0);
  const char *compile_checks[] = {"compile", compiled, renderer, NULL};
  CHECK_EQ_U(run_checker(compile_checks), 0);
  remove_dir();
  return CHECK_SUMMARY();
}
