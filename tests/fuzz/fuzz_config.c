/* fuzz_config.c - libFuzzer target for the configuration parser (src/core/config.c).
 *
 * Each input is loaded as a config file over the built-in schema, then as a --set override.
 * Acceptable: success, or -1 with a non-empty "where: what" message; crashes, leaks and
 * sanitizer reports are failures. `include` lines may name real files (read-only). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "sim/config_schema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = 0;
  Config *cfg = cfg_create();
  if (!cfg) { free(text); return 0; }
  if (cfg_load_string(cfg, text, "fuzz.cfg") && !cfg_error(cfg)[0]) abort();
  if (cfg_set(cfg, text) && !cfg_error(cfg)[0]) abort();
  cfg_free(cfg);
  free(text);
  return 0;
}
