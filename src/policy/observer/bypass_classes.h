/* bypass_classes.h - the class file of coordinated bypassing (`warpsim classify` writes it,
 * the bypass observer reads it, src/policy/observer/bypass.c): its parser, apart so that a
 * fuzz target (tests/fuzz/fuzz_classes.c) drives it alone.
 *
 * Text form: '#' comments and blank lines; "KERNEL PC CLASS" with PC a decimal 32-bit
 * policy PC and CLASS ca, cg or cm; a (kernel, pc) pair at most once. */
#ifndef WS_BYPASS_CLASSES_H
#define WS_BYPASS_CLASSES_H

#include <stddef.h>
#include <stdint.h>

#define BP_CLASSES_MAX_FILE ((size_t)64 << 20) /* bytes of a class file */

typedef struct BpFileLine {
  char *kernel;
  uint32_t pc;
  uint8_t cls; /* MEM_CLASS_* */
} BpFileLine;

/* MEM_CLASS_* of "ca", "cg", "cm", else 0xFF. */
uint8_t bp_class_of(const char *s);
/* Parses `text` (named `path` in messages): 0 with the lines in *out (*n of them; free
 * with bp_classes_free), or -1 with "PATH:LINE: what" in msg and nothing to free. */
int bp_classes_parse(const char *text, const char *path, BpFileLine **out, uint32_t *n, char *msg,
                     size_t len);
void bp_classes_free(BpFileLine *lines, uint32_t n);

#endif
