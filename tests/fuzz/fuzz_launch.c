/* fuzz_launch.c - libFuzzer target for the launch-file parser (src/cli/launch.c).
 *
 * Each input is parsed with cli_launch_parse over a context of 64 MiB of device memory: every
 * statement is checked and buffers are allocated and filled, but no PTX is loaded, nothing is
 * launched and no output file is written. Acceptable: 0, or -1 after a located message; crashes,
 * leaks, sanitizer reports and hangs are failures. The benchmark registry and embedded PTX are
 * empty stubs here (the CLI links against them). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli/cli.h"

const BenchDesc *const bench_registry[] = {NULL};
typedef struct BenchPtxFile { const char *path; const char *text; } BenchPtxFile;
const BenchPtxFile bench_ptx_files[] = {{NULL, NULL}};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = 0;
  cli_launch_parse(text, "fuzz.launch", 64u << 20);
  free(text);
  return 0;
}
