/* infile.h - input files (profiles, class files, launch files) opened the way the
 * configuration files are: regular files only, of bounded size, so a FIFO, a device
 * such as /dev/zero or a directory is a clear error instead of a hang or an empty read
 * (src/core/infile.c). Depends on libc only. */
#ifndef WS_INFILE_H
#define WS_INFILE_H

#include <stddef.h>
#include <stdio.h>

/* A stream on `path` for reading, or NULL with "cannot read 'PATH': reason" in err
 * (reason: "not a regular file", "larger than N MiB", or the system's). */
FILE *in_open(const char *path, size_t max_bytes, char *err, size_t errlen);
/* The whole file, NUL-terminated (*len bytes before the NUL; a NUL inside the file is
 * refused with its line), or NULL with a message as in_open's. Free with free(). */
char *in_read(const char *path, size_t max_bytes, size_t *len, char *err, size_t errlen);

#endif
