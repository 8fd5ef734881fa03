/* timeline_out.c - the timeline file of `run` and `launch` (timeline.file; doc/timeline.md):
 * opened before the run (an unwritable path fails at once), written whole or not at all
 * (core/outfile.h), gzip-compressed when the name ends in .gz through the system's gzip (a
 * pipe to `gzip -c -n`: no library to build against; Perfetto and the viewer open .json.gz). */
#include "cli/timeline_out.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int ends_with(const char *s, const char *tail) {
  size_t n = strlen(s), m = strlen(tail);
  return n >= m && !strcmp(s + n - m, tail);
}

int cli_timeline_open(CliTimeline *t, const Config *cfg, const char *cmd) {
  memset(t, 0, sizeof *t);
  t->gz = -1;
  const char *path = cfg ? cfg_str(cfg, "timeline.file") : "none";
  if (!strcmp(path, "none")) return 0;
  char err[PATH_MAX + 128];
  if (out_open(&t->of, path, err, sizeof err)) {
    fprintf(stderr, "%s: timeline: %s\n", cmd, err);
    return -1;
  }
  t->f = t->of.f;
  if (ends_with(path, ".gz")) {
    int p[2];
    fflush(t->of.f);
    if (pipe(p)) {
      fprintf(stderr, "%s: timeline: pipe: %s\n", cmd, strerror(errno));
      out_abort(&t->of);
      return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
      fprintf(stderr, "%s: timeline: fork: %s\n", cmd, strerror(errno));
      close(p[0]), close(p[1]);
      out_abort(&t->of);
      return -1;
    }
    if (pid == 0) {
      dup2(p[0], 0);
      dup2(fileno(t->of.f), 1);
      close(p[0]), close(p[1]);
      execlp("gzip", "gzip", "-c", "-n", "-6", (char *)NULL);
      _exit(127);
    }
    close(p[0]);
    t->gz = pid;
    if (!(t->f = fdopen(p[1], "w"))) {
      close(p[1]);
      cli_timeline_abort(t);
      return -1;
    }
  }
  return 0;
}

int cli_timeline_close(CliTimeline *t, Gpu *g, const char *cmd) {
  if (!t->f) return 0;
  int bad = g ? gpu_timeline_finish(g) : 0;
  int e = bad ? errno : 0;
  if (t->gz >= 0) {
    if (fclose(t->f) && !e) e = errno ? errno : EIO;
    int st = 0;
    while (waitpid(t->gz, &st, 0) < 0 && errno == EINTR) {
    }
    t->gz = -1;
    if (!WIFEXITED(st) || WEXITSTATUS(st)) {
      fprintf(stderr, "%s: timeline: gzip failed (%s)\n", cmd,
              WIFEXITED(st) && WEXITSTATUS(st) == 127 ? "not installed" : "exit status");
      t->f = NULL;
      out_abort(&t->of);
      return -1;
    }
  }
  t->f = NULL;
  if (e) {
    fprintf(stderr, "%s: timeline: cannot write '%s': %s\n", cmd, t->of.path, strerror(e));
    out_abort(&t->of);
    return -1;
  }
  char err[PATH_MAX + 128];
  if (out_commit(&t->of, err, sizeof err)) {
    fprintf(stderr, "%s: timeline: %s\n", cmd, err);
    return -1;
  }
  return 0;
}

void cli_timeline_abort(CliTimeline *t) {
  if (t->gz >= 0) {
    if (t->f) fclose(t->f);
    kill(t->gz, SIGTERM);
    while (waitpid(t->gz, NULL, 0) < 0 && errno == EINTR) {
    }
    t->gz = -1;
  }
  t->f = NULL;
  out_abort(&t->of);
}
