/* mem_assert.h - internal-invariant checks of the memory system: a failure
 * prints the cycle, the component and a message, then aborts. Input errors
 * (configuration) never use this: they return a message instead.
 * MEM_ASSERT is always on. MEM_DCHECK is for invariants of warpsim's own
 * per-request bookkeeping that a caller has already established (a capacity
 * tested just before the push, a port index the memory system computed, a
 * fill matching the MSHR entry it names): on in builds with WS_CHECKS (the
 * test build: every test runs with them), compiled out of the release build,
 * where they cost about 2% of the host instructions. Checks of what a policy plugin
 * returns stay MEM_ASSERTs. */
#ifndef WS_MEM_ASSERT_H
#define WS_MEM_ASSERT_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#define MEM_ASSERT(cond, cycle, component, ...)                                                              \
  do {                                                                                                       \
    if (!(cond)) {                                                                                           \
      fprintf(stderr, "internal error at cycle %" PRIu64 " in %s (%s:%d): ", (uint64_t)(cycle), (component), \
              __FILE__, __LINE__);                                                                           \
      fprintf(stderr, __VA_ARGS__);                                                                          \
      fprintf(stderr, " [%s]\n", #cond);                                                                     \
      abort();                                                                                               \
    }                                                                                                        \
  } while (0)

#ifdef WS_CHECKS
#define MEM_DCHECK(cond, cycle, component, ...) MEM_ASSERT(cond, cycle, component, __VA_ARGS__)
#else /* not evaluated; sizeof keeps its operands "used" without evaluating them */
#define MEM_DCHECK(cond, cycle, component, ...)                                                              \
  ((void)sizeof(!(cond)), (void)sizeof(cycle), (void)sizeof(component))
#endif

#endif
