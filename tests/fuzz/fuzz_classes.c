/* fuzz_classes.c - libFuzzer target for the bypass observer's class-file parser
 * (src/policy/observer/bypass_classes.c). Each input is parsed as a class file: acceptable is
 * 0 with lines of a known class, or -1 with a located message and nothing to free. Crashes,
 * leaks, sanitizer reports and hangs are failures. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/observer/bypass_classes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = 0;
  BpFileLine *lines = NULL;
  uint32_t n = 0;
  char msg[1200];
  msg[0] = 0;
  if (bp_classes_parse(text, "fuzz.cls", &lines, &n, msg, sizeof msg)) {
    if (!msg[0] || lines || n) abort();
  } else {
    for (uint32_t i = 0; i < n; i++)
      if (!lines[i].kernel[0] || lines[i].cls > 2) abort();
    bp_classes_free(lines, n);
  }
  free(text);
  return 0;
}
