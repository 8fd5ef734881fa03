/* mem_assert.h - internal-invariant checks of the memory system: a failure
 * prints the cycle, the component and a message, then aborts. Input errors
 * (configuration) never use this: they return a message instead. */
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

#endif
