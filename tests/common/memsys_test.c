/* memsys_test.c - the memory-system test helpers (memsys_test.h). */
#include "memsys_test.h"

#include <stdio.h>
#include <string.h>

#include "core/config.h"
#include "sim/config_schema.h"
#include "sim/policies.h"
#include "test.h"

MemSys *test_memsys_open(const char *preset, const char *sets) {
  Config *cfg = cfg_create();
  CHECK(cfg_load_file(cfg, preset) == 0);
  char buf[512];
  snprintf(buf, sizeof buf, "%s", sets ? sets : "");
  for (char *k = strtok(buf, " "); k; k = strtok(NULL, " ")) CHECK(cfg_set(cfg, k) == 0);
  char err[512] = "";
  MemSys *ms = sim_memsys_create(cfg, NULL, err, sizeof err);
  if (!ms) fprintf(stderr, "sim_memsys_create: %s\n", err);
  cfg_free(cfg);
  return ms;
}

static int tok[3];

void test_memsys_three_loads(MemSys *ms, const uint32_t *sm, uint64_t t, uint64_t *done) {
  memsys_tick(ms, t);
  for (int k = 0; k < 3; k++) {
    MemRequest r = {.addr = (uint64_t)k * 256,
                    .line_addr = (uint64_t)k * 256,
                    .sm = (int32_t)sm[k],
                    .bytes = 128,
                    .unit = MEM_UNIT_L1D,
                    .user = &tok[k]};
    CHECK(cache_access(memsys_l1d(ms, sm[k]), &r, t).outcome == CACHE_MISS);
    done[k] = 0;
  }
  for (uint64_t c = t + 1; c < t + 3000; c++) {
    memsys_tick(ms, c);
    for (int k = 0; k < 3; k++) {
      const MemRequest *out = cache_take_reply(memsys_l1d(ms, sm[k]), c);
      if (out) {
        CHECK(out->user == &tok[k] && out->line_addr == (uint64_t)k * 256);
        done[k] = c;
      }
    }
  }
  for (int k = 0; k < 3; k++) CHECK(done[k] > 0);
}
