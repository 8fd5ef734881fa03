/* testutil.c - helpers for tests: file reading and one-kernel loading. */
#include "test.h"

#include <stdlib.h>

const char *test_path(const char *rel) { return rel; }

char *test_read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
  if (buf) buf[n] = 0;
  fclose(f);
  return buf;
}

int test_load(WsContext **ctx, WsModule **mod, WsFunction **fn, const char *ptx, const char *entry) {
  if (ws_ctx_create(ctx, NULL) != WS_SUCCESS) return -1;
  if (ws_module_load_data(*ctx, mod, ptx, "test.ptx") != WS_SUCCESS) {
    fprintf(stderr, "load: %s\n", ws_ctx_error(*ctx));
    return -1;
  }
  if (ws_module_get_function(fn, *mod, entry) != WS_SUCCESS) {
    fprintf(stderr, "get_function: %s\n", ws_ctx_error(*ctx));
    return -1;
  }
  return 0;
}
