/* sweep.c - `warpsim sweep`, `warpsim report` and `warpsim reproduce`: hands the command line to the
 * experiment tool (tools/wsexp, Python 3 stdlib), telling it which warpsim binary to run. Depends on nothing
 * else in warpsim; the tool calls back only through `warpsim run` / `warpsim config`. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* tools/wsexp: $WARPSIM_TOOLS, else next to the binary's tree (build/<flavour>/warpsim ->
 * ../../tools), else under the current directory. */
static int find_tool(char *out, size_t len, const char *exe) {
  const char *env = getenv("WARPSIM_TOOLS");
  if (env && *env) {
    snprintf(out, len, "%s/wsexp", env);
    return is_dir(out) ? 0 : -1;
  }
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", exe);
  char *slash = strrchr(dir, '/');
  if (slash) {
    *slash = 0;
    snprintf(out, len, "%s/../../tools/wsexp", dir);
    if (is_dir(out)) return 0;
    snprintf(out, len, "%s/../tools/wsexp", dir);
    if (is_dir(out)) return 0;
  }
  snprintf(out, len, "tools/wsexp");
  return is_dir(out) ? 0 : -1;
}

int cli_exp(const char *cmd, int argc, char **argv) {
  char exe[PATH_MAX], tool[PATH_MAX + 32];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) {
    fprintf(stderr, "warpsim %s: cannot find its own binary (/proc/self/exe)\n", cmd);
    return 2;
  }
  exe[n] = 0;
  if (find_tool(tool, sizeof tool, exe)) {
    fprintf(
        stderr,
        "warpsim %s: cannot find tools/wsexp (next to the source tree of %s; set WARPSIM_TOOLS=DIR/tools)\n",
        cmd, exe);
    return 2;
  }
  if (!getenv("WARPSIM_BIN")) setenv("WARPSIM_BIN", exe, 1);
  /* wsexp is a package: `python3 -m wsexp` with its parent folder first on the module path, and
   * not the working directory (PYTHONSAFEPATH), so a folder named wsexp there cannot stand in. */
  char path[2 * PATH_MAX + 64];
  const char *old = getenv("PYTHONPATH");
  snprintf(path, sizeof path, "%.*s%s%s", (int)(strlen(tool) - strlen("/wsexp")), tool,
           old && *old ? ":" : "", old && *old ? old : "");
  setenv("PYTHONPATH", path, 1);
  setenv("PYTHONSAFEPATH", "1", 1);
  const char *py = getenv("WARPSIM_PYTHON");
  if (!py || !*py) py = "python3";
  char **args = calloc((size_t)argc + 5, sizeof *args);
  if (!args) {
    fprintf(stderr, "warpsim %s: out of memory\n", cmd);
    return 2;
  }
  args[0] = (char *)py;
  args[1] = (char *)"-m";
  args[2] = (char *)"wsexp";
  args[3] = (char *)cmd;
  for (int i = 0; i < argc; i++) args[4 + i] = argv[i];
  fflush(stdout);
  execvp(py, args);
  fprintf(stderr, "warpsim %s: cannot run %s (needs Python 3; tools/setup-debian.sh installs it)\n", cmd, py);
  free(args);
  return 2;
}
