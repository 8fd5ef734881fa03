/* outfile.c - output files written whole or not at all, without clobbering what the
 * user's path names. A regular file (or a new name) is written to a unique temporary
 * file next to its real location (symlinks resolved) and renamed over it at the end;
 * a device, FIFO or socket is written directly (a rename would replace the node), and
 * a name of one of our own descriptors (/dev/stdout) through that descriptor.
 * The output is opened before the simulation starts, so a path that cannot be
 * written fails in a second, not after an hour. Depends on libc only. */
#include "core/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void out_err(char *err, size_t errlen, const char *path, const char *what, int e) {
  snprintf(err, errlen, "cannot %s '%s': %s", what, path, strerror(e));
}

/* The descriptor N when `p` names one of this process's own (/dev/stdout, /dev/fd/N,
 * /proc/self/fd/N, /proc/<our pid>/fd/N), else -1. Following such a link would reach the
 * file behind the descriptor by name and lose how the shell opened it: `>> log` must
 * append, not replace the log. */
static int out_own_fd(const char *p) {
  if (!strcmp(p, "/dev/stdout")) return 1;
  if (!strcmp(p, "/dev/stderr")) return 2;
  if (!strcmp(p, "/dev/stdin")) return 0;
  char pid[32];
  snprintf(pid, sizeof pid, "/proc/%ld/fd/", (long)getpid());
  static const char *const dirs[] = {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", NULL};
  const char *rest = NULL;
  for (int i = 0; dirs[i] && !rest; i++)
    if (!strncmp(p, dirs[i], strlen(dirs[i]))) rest = p + strlen(dirs[i]);
  if (!rest && !strncmp(p, pid, strlen(pid))) rest = p + strlen(pid);
  if (!rest || !*rest || strlen(rest) > 9) return -1;
  for (const char *c = rest; *c; c++)
    if (*c < '0' || *c > '9') return -1;
  return atoi(rest);
}

/* The path a write should reach: symlinks followed (also a dangling one, whose
 * target is to be created), stopping at a name of our own descriptor (*fd). Returns 0,
 * or -1 with errno set. */
static int out_resolve(const char *path, char *out, size_t len, int *fd) {
  char cur[PATH_MAX];
  *fd = -1;
  if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur) return errno = ENAMETOOLONG, -1;
  for (int hops = 0; hops < 40; hops++) {
    struct stat st;
    if ((*fd = out_own_fd(cur)) >= 0) {
      if (fcntl(*fd, F_GETFD) < 0) return -1; /* EBADF: not open */
      snprintf(out, len, "%s", cur);
      return 0;
    }
    if (lstat(cur, &st) || !S_ISLNK(st.st_mode)) {
      if (snprintf(out, len, "%s", cur) >= (int)len) return errno = ENAMETOOLONG, -1;
      return 0;
    }
    char tgt[PATH_MAX];
    ssize_t n = readlink(cur, tgt, sizeof tgt - 1);
    if (n < 0) return -1;
    tgt[n] = 0;
    if (tgt[0] == '/') {
      snprintf(cur, sizeof cur, "%s", tgt);
    } else {
      char *slash = strrchr(cur, '/');
      char next[PATH_MAX];
      if (snprintf(next, sizeof next, "%.*s%s", slash ? (int)(slash - cur + 1) : 0, cur, tgt) >=
          (int)sizeof next)
        return errno = ENAMETOOLONG, -1;
      memcpy(cur, next, sizeof cur);
    }
  }
  return errno = ELOOP, -1;
}

/* Opens an existing device or FIFO for writing without truncating it (a FIFO waits for
 * its reader, as any writer's would: `cat fifo & warpsim ... --json fifo`). Returns the
 * descriptor or -1. */
static int out_open_node(const char *target) { return open(target, O_WRONLY | O_CLOEXEC | O_NOCTTY); }

int out_check(const char *path, char *err, size_t errlen) {
  char target[PATH_MAX];
  int fd;
  if (!path[0]) return out_err(err, errlen, path, "write", ENOENT), -1;
  if (out_resolve(path, target, sizeof target, &fd)) return out_err(err, errlen, path, "write", errno), -1;
  if (fd >= 0) {
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY) return out_err(err, errlen, path, "write", EBADF), -1;
    return 0;
  }
  struct stat st;
  if (stat(target, &st) == 0) {
    if (S_ISDIR(st.st_mode)) return out_err(err, errlen, path, "write", EISDIR), -1;
    if (!S_ISREG(st.st_mode))
      return access(target, W_OK) ? (out_err(err, errlen, path, "write", errno), -1) : 0;
  } else if (errno != ENOENT) {
    return out_err(err, errlen, path, "write", errno), -1;
  }
  /* a regular file or a new name: the temporary goes into its folder */
  char dir[PATH_MAX];
  const char *slash = strrchr(target, '/');
  if (!slash)
    snprintf(dir, sizeof dir, ".");
  else
    snprintf(dir, sizeof dir, "%.*s", slash == target ? 1 : (int)(slash - target), target);
  if (stat(dir, &st)) return out_err(err, errlen, path, "write", errno), -1;
  if (!S_ISDIR(st.st_mode)) return out_err(err, errlen, path, "write", ENOTDIR), -1;
  if (access(dir, W_OK | X_OK)) return out_err(err, errlen, path, "write", errno), -1;
  return 0;
}

int out_open(OutFile *o, const char *path, char *err, size_t errlen) {
  memset(o, 0, sizeof *o);
  o->path = path;
  o->fd = -1;
  int own;
  if (out_resolve(path, o->target, sizeof o->target, &own))
    return out_err(err, errlen, path, "write", errno), -1;
  if (own >= 0) { /* our stdout or another open descriptor: written as the shell opened it */
    int d = fcntl(own, F_DUPFD_CLOEXEC, 3);
    if (d < 0 || !(o->f = fdopen(d, "w"))) {
      int e = errno;
      if (d >= 0) close(d);
      return out_err(err, errlen, path, "write", e), -1;
    }
    o->fd = own;
    setvbuf(o->f, NULL, _IOFBF,
            1u << 20); /* kept until the commit, after what we print on the same descriptor */
    return 0;
  }
  struct stat st;
  int exists = stat(o->target, &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return out_err(err, errlen, path, "write", EISDIR), -1;
  if (exists && !S_ISREG(st.st_mode)) { /* device, FIFO, socket: write through, never replace or truncate */
    int d = out_open_node(o->target);
    if (d < 0 || !(o->f = fdopen(d, "w"))) {
      int e = errno;
      if (d >= 0) close(d);
      return out_err(err, errlen, path, "write", e), -1;
    }
    return 0;
  }
  const char *slash = strrchr(o->target, '/');
  int dl = slash ? (int)(slash - o->target + 1) : 0;
  if (snprintf(o->tmp, sizeof o->tmp, "%.*s.%s.XXXXXX", dl, o->target, o->target + dl) >= (int)sizeof o->tmp)
    return out_err(err, errlen, path, "write", ENAMETOOLONG), -1;
  int fd = mkstemp(o->tmp);
  if (fd < 0) {
    o->tmp[0] = 0;
    return out_err(err, errlen, path, "write", errno), -1;
  }
  mode_t mode;
  if (exists)
    mode = st.st_mode & 07777;
  else {
    mode_t um = umask(0);
    umask(um);
    mode = 0666 & ~um;
  }
  if (fchmod(fd, mode) || !(o->f = fdopen(fd, "wb"))) {
    int e = errno;
    close(fd);
    unlink(o->tmp);
    o->tmp[0] = 0;
    return out_err(err, errlen, path, "write", e), -1;
  }
  return 0;
}

int out_commit(OutFile *o, char *err, size_t errlen) {
  if (!o->f) return out_err(err, errlen, o->path, "write", EBADF), -1;
  if (o->fd >= 0) fflush(o->fd == 2 ? stderr : stdout); /* what we printed before comes first */
  int bad = ferror(o->f);                               /* errno still holds the failed write's reason */
  int e = bad ? (errno ? errno : EIO) : 0;
  if (fflush(o->f) && !e) e = errno ? errno : EIO;
  if (o->tmp[0] && !e && fsync(fileno(o->f)) && errno != EINVAL) e = errno;
  if (fclose(o->f) && !e) e = errno ? errno : EIO;
  o->f = NULL;
  if (!e && o->tmp[0] && rename(o->tmp, o->target)) e = errno;
  if (e) {
    if (o->tmp[0]) unlink(o->tmp);
    o->tmp[0] = 0;
    return out_err(err, errlen, o->path, "write", e), -1;
  }
  o->tmp[0] = 0;
  return 0;
}

void out_abort(OutFile *o) {
  if (o->f && !o->tmp[0]) __fpurge(o->f); /* written directly: an unfinished output leaves nothing */
  if (o->f) fclose(o->f);
  o->f = NULL;
  if (o->tmp[0]) unlink(o->tmp);
  o->tmp[0] = 0;
}

int out_same(const char *a, const char *b) {
  char ta[PATH_MAX], tb[PATH_MAX];
  int fa, fb;
  if (out_resolve(a, ta, sizeof ta, &fa) || out_resolve(b, tb, sizeof tb, &fb)) return !strcmp(a, b);
  if (fa >= 0 || fb >= 0) return 0; /* a descriptor (/dev/stdout): written in turn, nothing lost */
  struct stat x, y;
  if (!stat(ta, &x) && !stat(tb, &y))
    return x.st_dev == y.st_dev && x.st_ino == y.st_ino && S_ISREG(x.st_mode);
  char ra[PATH_MAX], rb[PATH_MAX]; /* new names: the same folder and name */
  const char *sa = strrchr(ta, '/'), *sb = strrchr(tb, '/');
  snprintf(ra, sizeof ra, "%.*s", sa ? (int)(sa - ta) : 1, sa ? ta : ".");
  snprintf(rb, sizeof rb, "%.*s", sb ? (int)(sb - tb) : 1, sb ? tb : ".");
  if (stat(ra, &x) || stat(rb, &y)) return !strcmp(ta, tb);
  return x.st_dev == y.st_dev && x.st_ino == y.st_ino && !strcmp(sa ? sa + 1 : ta, sb ? sb + 1 : tb);
}
