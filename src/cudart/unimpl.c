/* unimpl.c - the CUDA runtime functions warpsim does not implement (unimplemented.def): each
 * prints its name and returns cudaErrorNotSupported; `warpsim exec` then fails the run. The
 * stubs take no parameters: on x86-64 the caller's arguments are simply ignored. */
#include <stdio.h>

#include "cudart/cudart.h"

static cudaError_t unsupported(const char *name) {
  cudart_init(); /* the statistics (written at exit) count the call */
  cudart.unsupported++;
  fprintf(
      stderr,
      "warpsim cudart: %s is not supported by warpsim's CUDA runtime (doc/cuda-runtime.md lists what is)\n",
      name);
  return cudart_ret(cudaErrorNotSupported);
}

#define X(name) CUDART_API cudaError_t name(void);
#include "cudart/unimplemented.def"
#undef X
#define X(name)                                                                                              \
  CUDART_API cudaError_t name(void) { return unsupported(#name); }
#include "cudart/unimplemented.def"
#undef X
