/* outfile.h - every file warpsim writes, whole or not at all (src/core/outfile.c).
 *
 * Contract: out_check() or out_open() before the work, so an unwritable path fails early;
 * write to o->f; out_commit() makes the file appear whole (a regular file or a new name:
 * written to a unique temporary next to the symlink-resolved target and renamed over it)
 * or reports why not (ENOSPC, EACCES, a missing folder...) and leaves the old file as it
 * was. Devices and FIFOs are written directly, never truncated or replaced; a name of one
 * of this process's descriptors (/dev/stdout, /dev/fd/N, /proc/self/fd/N) writes to that
 * descriptor as the shell set it up (`>> log` appends). out_abort() drops it. */
#ifndef WS_OUTFILE_H
#define WS_OUTFILE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

typedef struct OutFile {
  FILE *f;
  const char *path;        /* as the user gave it (messages) */
  char target[PATH_MAX];   /* symlinks resolved */
  char tmp[PATH_MAX + 16]; /* temporary name, "" when writing directly */
  int fd;                  /* a descriptor of ours the path names (/dev/stdout), else -1 */
} OutFile;

/* 0, or -1 with "cannot write 'PATH': reason" in err. */
int out_check(const char *path, char *err, size_t errlen); /* could be written; nothing is created */
int out_open(OutFile *o, const char *path, char *err, size_t errlen);
int out_commit(OutFile *o, char *err, size_t errlen);
void out_abort(OutFile *o);
/* Whether two output paths would write the same regular file (one would lose the other). */
int out_same(const char *a, const char *b);

#endif
