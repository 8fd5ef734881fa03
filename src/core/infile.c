/* infile.c - input files opened as regular files of bounded size (see infile.h).
 * The open is non-blocking so that a FIFO without a writer is refused at once. */
#include "core/infile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An open descriptor on a regular file of at most max bytes, or -1 with a message. */
static int in_fd(const char *path, size_t max, char *err, size_t errlen) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno)), -1;
  struct stat st;
  const char *why = fstat(fd, &st)                         ? strerror(errno)
                    : S_ISDIR(st.st_mode)                  ? "is a directory"
                    : !S_ISREG(st.st_mode)                 ? "not a regular file"
                    : (unsigned long long)st.st_size > max ? "too large"
                                                           : NULL;
  if (why) {
    close(fd);
    if (!strcmp(why, "too large"))
      return snprintf(err, errlen, "cannot read '%s': larger than %zu MiB", path, max >> 20), -1;
    return snprintf(err, errlen, "cannot read '%s': %s", path, why), -1;
  }
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  return fd;
}

FILE *in_open(const char *path, size_t max_bytes, char *err, size_t errlen) {
  int fd = in_fd(path, max_bytes, err, errlen);
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "r");
  if (!f) {
    snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
    close(fd);
  }
  return f;
}

char *in_read(const char *path, size_t max_bytes, size_t *len, char *err, size_t errlen) {
  int fd = in_fd(path, max_bytes, err, errlen);
  if (fd < 0) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (!buf) {
      close(fd);
      return snprintf(err, errlen, "cannot read '%s': out of memory", path), NULL;
    }
    if (n + 1 >= cap) { /* the file may have grown since the size check */
      if (cap > max_bytes) {
        free(buf);
        close(fd);
        return snprintf(err, errlen, "cannot read '%s': larger than %zu MiB", path, max_bytes >> 20), NULL;
      }
      char *nb = realloc(buf, cap * 2);
      if (!nb) free(buf);
      buf = nb, cap *= 2;
      continue;
    }
    ssize_t r = read(fd, buf + n, cap - 1 - n);
    if (r == 0) break;
    if (r < 0) {
      if (errno == EINTR) continue;
      snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
      free(buf);
      close(fd);
      return NULL;
    }
    n += (size_t)r;
  }
  close(fd);
  buf[n] = 0;
  const char *nul = memchr(buf, 0, n);
  if (nul) {
    unsigned line = 1;
    for (const char *c = buf; c < nul; c++) line += *c == '\n';
    snprintf(err, errlen, "%s:%u: a NUL byte (a text file is expected)", path, line);
    free(buf);
    return NULL;
  }
  if (len) *len = n;
  return buf;
}
