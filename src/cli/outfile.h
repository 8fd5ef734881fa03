/* outfile.h - result files written whole or not at all (src/cli/outfile.c).
 *
 * Contract: out_open() before the work, so an unwritable path fails early; write to
 * o->f; out_commit() makes the file appear whole (a regular file or a new name: written
 * to a unique temporary next to the symlink-resolved target and renamed over it) or
 * reports why not (ENOSPC, EACCES, a missing folder...) and leaves the old file as it
 * was. Devices and FIFOs are written directly, never replaced. out_abort() drops it. */
#ifndef WS_OUTFILE_H
#define WS_OUTFILE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

typedef struct OutFile {
  FILE *f;
  const char *path;         /* as the user gave it (messages) */
  char target[PATH_MAX];    /* symlinks resolved */
  char tmp[PATH_MAX + 16];  /* temporary name, "" when writing directly */
} OutFile;

/* 0, or -1 with "cannot write 'PATH': reason" in err. */
int out_open(OutFile *o, const char *path, char *err, size_t errlen);
int out_commit(OutFile *o, char *err, size_t errlen);
void out_abort(OutFile *o);

#endif
