/* fuzz_ptx.c - libFuzzer target for warpsim's PTX front end (lexer, parser, layout).
 *
 * Each input is loaded with ws_module_load_data. The only acceptable outcomes are
 * WS_SUCCESS (the module is unloaded again) and WS_ERROR_INVALID_PTX (or
 * WS_ERROR_OUT_OF_MEMORY for huge declarations) with a non-empty message; anything
 * else aborts, and so do crashes, leaks and sanitizer reports. See README.md. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/warpsim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  WsContext *ctx = NULL;
  WsModule *mod = NULL;
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = 0; /* the API takes NUL-terminated text: embedded NULs just end it early */
  if (ws_ctx_create(&ctx, NULL) != WS_SUCCESS) {
    free(text);
    return 0;
  }
  WsResult r = ws_module_load_data(ctx, &mod, text, "fuzz.ptx");
  if (r == WS_SUCCESS) {
    ws_module_unload(mod);
  } else {
    const char *msg = ws_ctx_error(ctx);
    if ((r != WS_ERROR_INVALID_PTX && r != WS_ERROR_OUT_OF_MEMORY) || !msg || !msg[0]) abort();
  }
  ws_ctx_destroy(ctx);
  free(text);
  return 0;
}
