/* outfile.c - result files written whole or not at all, without clobbering what the
 * user's path names. A regular file (or a new name) is written to a unique temporary
 * file next to its real location (symlinks resolved) and renamed over it at the end;
 * a device, FIFO or socket is written directly (a rename would replace the node).
 * The output is opened before the simulation starts, so a path that cannot be
 * written fails in a second, not after an hour. Depends on libc only. */
#include "cli/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void out_err(char *err, size_t errlen, const char *path, const char *what, int e) {
  snprintf(err, errlen, "cannot %s '%s': %s", what, path, strerror(e));
}

/* The path a write should reach: symlinks followed (also a dangling one, whose
 * target is to be created). Returns 0, or -1 with errno set. */
static int out_resolve(const char *path, char *out, size_t len) {
  char cur[PATH_MAX];
  if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur) return errno = ENAMETOOLONG, -1;
  for (int hops = 0; hops < 40; hops++) {
    struct stat st;
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
      if (snprintf(next, sizeof next, "%.*s%s", slash ? (int)(slash - cur + 1) : 0, cur, tgt) >= (int)sizeof next)
        return errno = ENAMETOOLONG, -1;
      memcpy(cur, next, sizeof cur);
    }
  }
  return errno = ELOOP, -1;
}

int out_open(OutFile *o, const char *path, char *err, size_t errlen) {
  memset(o, 0, sizeof *o);
  o->path = path;
  if (out_resolve(path, o->target, sizeof o->target)) return out_err(err, errlen, path, "write", errno), -1;
  struct stat st;
  int exists = stat(o->target, &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return out_err(err, errlen, path, "write", EISDIR), -1;
  if (exists && !S_ISREG(st.st_mode)) { /* device, FIFO, socket: write through, never replace */
    if (!(o->f = fopen(o->target, "wb"))) return out_err(err, errlen, path, "write", errno), -1;
    return 0;
  }
  const char *slash = strrchr(o->target, '/');
  int dl = slash ? (int)(slash - o->target + 1) : 0;
  if (snprintf(o->tmp, sizeof o->tmp, "%.*s.%s.XXXXXX", dl, o->target, o->target + dl) >= (int)sizeof o->tmp)
    return out_err(err, errlen, path, "write", ENAMETOOLONG), -1;
  int fd = mkstemp(o->tmp);
  if (fd < 0) { o->tmp[0] = 0; return out_err(err, errlen, path, "write", errno), -1; }
  mode_t mode;
  if (exists) mode = st.st_mode & 07777;
  else { mode_t um = umask(0); umask(um); mode = 0666 & ~um; }
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
  int bad = ferror(o->f); /* errno still holds the failed write's reason */
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
  if (o->f) fclose(o->f);
  o->f = NULL;
  if (o->tmp[0]) unlink(o->tmp);
  o->tmp[0] = 0;
}
