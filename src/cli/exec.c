/* exec.c - `warpsim exec [options] -- PROGRAM ARGS`: runs an unmodified CUDA program on the
 * simulator. The program finds warpsim's libcudart.so.13 through LD_LIBRARY_PATH; the
 * configuration travels in WARPSIM_CUDART_* variables, and the library leaves its statistics
 * in a private folder that this command prints (and writes as --json) when the program ends.
 * The result is the program's exit status. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/outfile.h"
#include "cli/timeline_out.h"
#include "sim/gpu.h"

/* ---- the program's ELF: does it load libcudart.so dynamically? ---- */

typedef struct ElfFacts {
  int elf;           /* 1: an ELF64 file */
  int needs_cudart;  /* DT_NEEDED libcudart.so.* */
  int static_cudart; /* defines __cudaRegisterFatBinary itself: cudart linked in statically */
} ElfFacts;

static uint64_t rd(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

/* Reads the section headers: .dynamic + .dynstr give the DT_NEEDED names; .symtab/.dynsym +
 * their string tables tell whether the CUDA runtime's registration entry is defined inside. */
static void elf_facts(const char *path, ElfFacts *ef) {
  memset(ef, 0, sizeof *ef);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat sb;
  if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || sb.st_size < 64 || sb.st_size > ((off_t)1 << 31)) {
    close(fd);
    return;
  }
  size_t n = (size_t)sb.st_size;
  uint8_t *e = malloc(n);
  if (!e || read(fd, e, n) != (ssize_t)n) {
    free(e);
    close(fd);
    return;
  }
  close(fd);
  if (memcmp(e,
             "\x7f"
             "ELF",
             4) ||
      e[4] != 2) {
    free(e);
    return;
  }
  ef->elf = 1;
  uint64_t shoff = rd(e + 0x28, 8);
  unsigned shentsize = (unsigned)rd(e + 0x3a, 2), shnum = (unsigned)rd(e + 0x3c, 2);
  if (shentsize < 64 || shoff > n || (uint64_t)shnum * shentsize > n - shoff) {
    free(e);
    return;
  }
  for (unsigned i = 0; i < shnum; i++) {
    const uint8_t *sh = e + shoff + (size_t)i * shentsize;
    unsigned type = (unsigned)rd(sh + 4, 4), link = (unsigned)rd(sh + 0x28, 4);
    uint64_t off = rd(sh + 0x18, 8), size = rd(sh + 0x20, 8), entsize = rd(sh + 0x38, 8);
    if (off > n || size > n - off || link >= shnum) continue;
    const uint8_t *ls = e + shoff + (size_t)link * shentsize;
    uint64_t stroff = rd(ls + 0x18, 8), strsize = rd(ls + 0x20, 8);
    if (stroff > n || strsize > n - stroff) continue;
    const char *str = (const char *)e + stroff;
    if (type == 6 /* SHT_DYNAMIC */) {
      for (uint64_t k = 0; k + 16 <= size; k += 16) {
        uint64_t tag = rd(e + off + k, 8), val = rd(e + off + k + 8, 8);
        if (tag == 1 /* DT_NEEDED */ && val < strsize && !strncmp(str + val, "libcudart.so", 12))
          ef->needs_cudart = 1;
      }
    } else if ((type == 2 || type == 11) && entsize >= 24) { /* SHT_SYMTAB, SHT_DYNSYM */
      for (uint64_t k = 0; k + 24 <= size; k += entsize) {
        uint64_t name = rd(e + off + k, 4);
        unsigned shndx = (unsigned)rd(e + off + k + 6, 2);
        if (shndx && name < strsize && !strcmp(str + name, "__cudaRegisterFatBinary")) ef->static_cudart = 1;
      }
    }
  }
  free(e);
}

/* PROGRAM as execvp would find it (for the ELF check; execvp does the real search). */
static int find_program(const char *prog, char *out, size_t len) {
  if (strchr(prog, '/')) {
    snprintf(out, len, "%s", prog);
    return access(out, X_OK);
  }
  const char *path = getenv("PATH");
  for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
    const char *e = strchr(p, ':');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    snprintf(out, len, "%.*s/%s", (int)l, l ? p : ".", prog);
    if (!access(out, X_OK)) return 0;
    if (!e) break;
    p = e + 1;
  }
  return -1;
}

/* The folder of libcudart.so.13: build/rel/lib next to build/rel/warpsim (also for the ASan
 * build's build/asan/warpsim: the library is built in the release flavour only), or <prefix>/lib. */
static int find_libdir(char *out, size_t len) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return -1;
  exe[n] = 0;
  char *slash = strrchr(exe, '/');
  if (!slash) return -1;
  *slash = 0;
  const char *cands[3] = {"%s/lib", "%s/../lib", "%s/../rel/lib"};
  for (int i = 0; i < 3; i++) {
    char f[PATH_MAX + 32];
    snprintf(out, len, cands[i], exe);
    snprintf(f, sizeof f, "%s/libcudart.so.13", out);
    if (!access(f, R_OK)) return 0;
  }
  return -1;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len + 4096 + 1 > cap) {
      cap = cap ? 2 * cap : 65536;
      char *nb = realloc(buf, cap);
      if (!nb) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = nb;
    }
    size_t got = fread(buf + len, 1, 4096, f);
    len += got;
    if (!got) break;
  }
  fclose(f);
  buf[len] = 0;
  return buf;
}

static void remove_report(const char *dir) {
  const char *names[] = {"stats.txt", "stats.json", "stats.txt.tmp", "stats.json.tmp"};
  char p[PATH_MAX];
  for (int i = 0; i < 4; i++) {
    snprintf(p, sizeof p, "%s/%s", dir, names[i]);
    unlink(p);
  }
  rmdir(dir);
}

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

int cli_exec(int argc, char **argv) {
  RunOpts ro = {0};
  const char *json = NULL;
  int i = 0;
  for (; i < argc && strcmp(argv[i], "--"); i++) {
    int k = cli_parse_run_opt(&ro, argc, argv, &i);
    if (k < 0) return 2;
    if (k) continue;
    static const char *const valued[] = {"--json", NULL};
    if (cli_missing_value("warpsim exec", argc, argv, i, valued)) return 2;
    if (!strcmp(argv[i], "--json") && i + 1 < argc)
      json = argv[++i];
    else if (argv[i][0] == '-') {
      fprintf(stderr,
              "warpsim exec: unknown option '%s' (valid: --config, --sched, --set, --functional, "
              "--max-insts, --max-cycles, --threads, --json FILE, --timeline FILE, --timeline-cycles A:B, "
              "--timeline-sms LIST; then -- PROGRAM ARGS)\n",
              argv[i]);
      return 2;
    } else
      break; /* the program, without a "--" before it */
  }
  if (i < argc && !strcmp(argv[i], "--")) i++;
  if (i >= argc) {
    fprintf(stderr, "warpsim exec: which program? (warpsim exec [options] -- PROGRAM ARGS)\n");
    return 2;
  }
  char **pargv = argv + i;
  Config *cfg = cli_make_config(&ro);
  if (!cfg) return 2;
  char err[1024];
  Gpu *g = gpu_create(cfg, err, sizeof err); /* the configuration is checked before the program runs */
  if (!g) {
    fprintf(stderr, "warpsim: %s\n", err);
    cfg_free(cfg);
    return 2;
  }
  gpu_free(g);
  if (ro.functional && strcmp(cfg_str(cfg, "timeline.file"), "none")) {
    fprintf(stderr, "warpsim exec: a timeline needs the timing model (drop --functional or --timeline)\n");
    cfg_free(cfg);
    return 2;
  }
  char prog[PATH_MAX];
  if (find_program(pargv[0], prog, sizeof prog)) {
    fprintf(stderr, "warpsim exec: %s: no such program (or not executable)\n", pargv[0]);
    cfg_free(cfg);
    return 2;
  }
  ElfFacts ef;
  elf_facts(prog, &ef);
  if (ef.elf && ef.static_cudart && !ef.needs_cudart) {
    fprintf(stderr,
            "warpsim exec: %s links the CUDA runtime statically (nvcc's default), so warpsim's libcudart.so "
            "cannot "
            "replace it: rebuild it with nvcc -cudart shared\n",
            pargv[0]);
    cfg_free(cfg);
    return 2;
  }
  if (ef.elf && !ef.needs_cudart)
    fprintf(stderr, "warpsim exec: warning: %s does not load libcudart.so itself (a library of it may)\n",
            pargv[0]);
  char libdir[PATH_MAX], preset[PATH_MAX];
  if (find_libdir(libdir, sizeof libdir)) {
    fprintf(stderr, "warpsim exec: warpsim's libcudart.so.13 is not built (make) or not installed next to "
                    "this warpsim\n");
    cfg_free(cfg);
    return 2;
  }
  cli_find_config(ro.config ? ro.config : "gtx480", preset, sizeof preset);
  char abs_preset[PATH_MAX];
  if (!realpath(preset, abs_preset)) snprintf(abs_preset, sizeof abs_preset, "%s", preset);
  if (json && strcmp(cfg_str(cfg, "timeline.file"), "none") &&
      out_same(json, cfg_str(cfg, "timeline.file"))) {
    fprintf(stderr, "warpsim exec: --json %s and the timeline %s are the same file (one would be lost)\n",
            json, cfg_str(cfg, "timeline.file"));
    cfg_free(cfg);
    return 2;
  }
  OutFile of = {0};
  if (json && out_open(&of, json, err, sizeof err)) {
    fprintf(stderr, "warpsim exec: %s\n", err);
    cfg_free(cfg);
    return 1;
  }
  CliTimeline
      tl; /* opened here (an unwritable path fails now), written by the library through its descriptor */
  if (cli_timeline_open(&tl, cfg, "warpsim exec")) {
    out_abort(&of);
    cfg_free(cfg);
    return 1;
  }
  char dir[] = "/tmp/warpsim-exec.XXXXXX";
  if (!mkdtemp(dir)) {
    fprintf(stderr, "warpsim exec: cannot make a temporary folder: %s\n", strerror(errno));
    cli_timeline_abort(&tl);
    out_abort(&of);
    cfg_free(cfg);
    return 1;
  }

  /* the environment of the program */
  char *sets = calloc(1, 1);
  size_t slen = 0;
  const char *list[MAX_SETS + 7];
  int nl = 0;
  if (ro.sched_set[0]) list[nl++] = ro.sched_set;
  for (int c = 0; c < 2; c++)
    if (ro.limit_sets[c][0]) list[nl++] = ro.limit_sets[c];
  if (ro.threads_set[0]) list[nl++] = ro.threads_set;
  for (int c = 1; c < 3; c++)
    if (ro.tl_sets[c][0]) list[nl++] = ro.tl_sets[c];
  for (int k = 0; k < ro.nsets; k++) list[nl++] = ro.sets[k];
  for (int k = 0; k < nl && sets; k++) {
    size_t l = strlen(list[k]);
    char *ns = realloc(sets, slen + l + 2);
    if (!ns) {
      free(sets);
      sets = NULL;
      break;
    }
    sets = ns;
    memcpy(sets + slen, list[k], l);
    slen += l;
    sets[slen++] = '\n';
    sets[slen] = 0;
  }
  char label[600];
  size_t ll =
      (size_t)snprintf(label, sizeof label, "%s%s", ro.config ? ro.config : "gtx480", nl ? " with" : "");
  for (int k = 0; k < nl && ll < sizeof label; k++)
    ll += (size_t)snprintf(label + ll, sizeof label - ll, " %s", list[k]);
  const char *old_ld = getenv("LD_LIBRARY_PATH");
  char *ld = malloc(strlen(libdir) + (old_ld ? strlen(old_ld) : 0) + 2);
  if (!sets || !ld) {
    fprintf(stderr, "warpsim exec: out of memory\n");
    free(sets);
    free(ld);
    remove_report(dir);
    cli_timeline_abort(&tl);
    out_abort(&of);
    cfg_free(cfg);
    return 1;
  }
  if (tl.f) fflush(tl.f);
  sprintf(ld, "%s%s%s", libdir, old_ld && *old_ld ? ":" : "", old_ld && *old_ld ? old_ld : "");
  fflush(stdout);
  fflush(stderr);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    /* the program dies with this command: a sweep that stops a run (time limit, Ctrl-C, killed)
     * stops warpsim, and no orphaned program keeps running and writing into the run's folder */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(137);
    setenv("LD_LIBRARY_PATH", ld, 1);
    setenv("WARPSIM_CUDART_CONFIG", abs_preset, 1);
    setenv("WARPSIM_CUDART_SETS", sets, 1);
    setenv("WARPSIM_CUDART_LABEL", label, 1);
    setenv("WARPSIM_CUDART_REPORT", dir, 1);
    if (ro.functional)
      setenv("WARPSIM_CUDART_FUNCTIONAL", "1", 1);
    else
      unsetenv("WARPSIM_CUDART_FUNCTIONAL");
    unsetenv("WARPSIM_CUDART_TIMELINE_FD");
    if (tl.f) {
      char fd[16];
      snprintf(fd, sizeof fd, "%d", fileno(tl.f));
      fcntl(fileno(tl.f), F_SETFD, 0); /* kept across exec */
      setenv("WARPSIM_CUDART_TIMELINE_FD", fd, 1);
    }
    execvp(pargv[0], pargv);
    fprintf(stderr, "warpsim exec: cannot run %s: %s\n", pargv[0], strerror(errno));
    _exit(127);
  }
  free(sets);
  free(ld);
  cfg_free(cfg);
  if (pid < 0) {
    fprintf(stderr, "warpsim exec: fork: %s\n", strerror(errno));
    remove_report(dir);
    cli_timeline_abort(&tl);
    out_abort(&of);
    return 1;
  }
  int ws = 0;
  while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
  }
  int status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + (WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);

  char p[PATH_MAX + 16];
  snprintf(p, sizeof p, "%s/stats.txt", dir);
  char *text = slurp(p);
  snprintf(p, sizeof p, "%s/stats.json", dir);
  char *js = slurp(p);
  remove_report(dir);
  printf("program              %s", pargv[0]);
  for (int k = 1; pargv[k]; k++) printf(" %s", pargv[k]);
  printf("\n");
  if (WIFSIGNALED(ws))
    printf("exit                 killed by signal %d (%s)\n", WTERMSIG(ws), strsignal(WTERMSIG(ws)));
  else
    printf("exit                 %d\n", status);
  int rc = status;
  if (!text || !js) {
    fprintf(stderr,
            "warpsim exec: %s left no statistics: it made no CUDA call through warpsim's libcudart.so%s\n",
            pargv[0], WIFSIGNALED(ws) ? ", or it was killed before it could write them" : "");
    if (!rc) rc = 1;
  } else {
    fputs(text, stdout);
    const char *u = strstr(js, "\"unsupported_calls\": ");
    unsigned nu = u ? (unsigned)strtoul(u + 21, NULL, 10) : 0;
    const char *fl = strstr(js, "\"failed_launches\": ");
    unsigned nf = fl ? (unsigned)strtoul(fl + 19, NULL, 10) : 0;
    if (nu && !rc) {
      fprintf(
          stderr,
          "warpsim exec: %s called %u CUDA function(s) that warpsim does not support (named above): failed\n",
          pargv[0], nu);
      rc = 1;
    }
    if (nf && !rc) {
      fprintf(stderr,
              "warpsim exec: %s exited 0, but %u of its kernel launches failed (messages above): failed\n",
              pargv[0], nf);
      rc = 1;
    }
  }
  fflush(stdout);
  if (tl.f) { /* the library ended the JSON; kept only then */
    const char *tw = js ? strstr(js, "\"timeline_written\": ") : NULL;
    if (tw && !strncmp(tw + 20, "true", 4)) {
      if (cli_timeline_close(&tl, NULL, "warpsim exec") && !rc) rc = 1;
    } else {
      fprintf(stderr, "warpsim exec: no timeline written: %s\n",
              js ? "the program launched no kernel, or writing it failed" : "no statistics");
      cli_timeline_abort(&tl);
    }
  }
  if (json) {
    if (js) {
      fputs("{\n  \"program\": ", of.f);
      json_string(of.f, pargv[0]);
      fputs(",\n  \"args\": [", of.f);
      for (int k = 1; pargv[k]; k++) {
        if (k > 1) fputs(", ", of.f);
        json_string(of.f, pargv[k]);
      }
      fprintf(of.f, "],\n  \"exit_status\": %d,\n", status);
      const char *body = strchr(js, '{');
      fputs(body ? body + 1 : "}\n", of.f);
      if (out_commit(&of, err, sizeof err)) {
        fprintf(stderr, "warpsim exec: %s\n", err);
        if (!rc) rc = 1;
      }
    }
    out_abort(&of);
  }
  free(text);
  free(js);
  return rc;
}
