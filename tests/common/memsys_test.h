/* memsys_test.h - test helpers for the memory system on its own (no SMs): a MemSys built from a
 * preset plus overrides, and loads from several SMs whose reply cycles a test compares. */
#ifndef WS_TEST_MEMSYS_H
#define WS_TEST_MEMSYS_H

#include <stdint.h>

#include "mem/memsys.h"

/* `preset` (e.g. "configs/ccws-gt200.cfg"), then each "key=value" of `sets` (space-separated,
 * may be NULL). A bad key is a test failure; NULL (reason on stderr) if the system is refused. */
MemSys *test_memsys_open(const char *preset, const char *sets);
/* SMs sm[0..2] load line k*256 (k = 0, 1, 2: partitions 0, 1, 2) into their L1Ds at cycle t; the
 * memory system is ticked until t + 3000 and done[k] is the cycle SM sm[k]'s reply came back (a
 * missing or misrouted reply is a test failure). */
void test_memsys_three_loads(MemSys *ms, const uint32_t *sm, uint64_t t, uint64_t *done);

#endif
