/* t702_dram_fidelity.c - GPGPU-Sim 3.2.2's DRAM details, so its timing matches:
 * bank groups (column commands tCCDL apart in one group, tCCD across groups;
 * the group is bank >> 3 for 16 banks in 4 groups, as 3.2.2 computes it), a
 * row-hit stream inside one group at 2/3 of the channel's peak, the
 * write-to-read turnaround (tWTR = tWL + burst + tCDLR), read-to-precharge in
 * a group (tRTPL; none when 0), GPGPU-Sim's address
 * mask inside a channel (GTX480: bank bits 8, 13-15; GT200's mask equals the
 * linear map of 2 KB rows), and the configuration errors. */
#include <stdlib.h>

#include "common/test.h"
#include "core/config.h"
#include "sim/config_schema.h"
#include "mem/addrmap.h"
#include "mem/dram.h"
#include "mem/memsys.h"
#include "sim/policies.h"

TEST_GLOBALS;

/* gtx480's GDDR5 timing with the DRAM clock equal to the core clock. */
static DramParams params(uint32_t groups, uint32_t ccdl, bool turnaround) {
  return (DramParams){.name = "dram",
                      .banks = 16,
                      .row_size = 4096,
                      .bus_width = 8,
                      .data_rate = 4,
                      .burst_length = 8,
                      .tCL = 12,
                      .tRCD = 12,
                      .tRP = 12,
                      .tRAS = 28,
                      .tRC = 40,
                      .tCCD = 2,
                      .tRRD = 6,
                      .tWL = 4,
                      .tWR = 12,
                      .bank_groups = groups,
                      .tCCDL = ccdl,
                      .tRTPL = 2,
                      .tCDLR = 5,
                      .turnaround = turnaround,
                      .queue_size = 16,
                      .return_queue = 64,
                      .dram_mhz = 1000,
                      .core_mhz = 1000};
}

static MemRequest rd(int tag) {
  return (MemRequest){
      .addr = (uint64_t)tag * 128, .line_addr = (uint64_t)tag * 128, .sm = 0, .warp = tag, .bytes = 128};
}

/* Ticks until `n` reads returned after t; their return cycles in out[]. */
static void returns(DramChannel *d, uint64_t t, int n, uint64_t *out) {
  int got = 0;
  for (uint64_t c = t; c < t + 10000 && got < n; c++) {
    dram_tick(d, c);
    for (; dram_peek_return(d, c) && got < n; dram_pop_return(d)) out[got++] = c;
  }
  CHECK(got == n);
}

/* Opens row 0 of banks 0 and b, then reads bank 0 and bank b at once:
 * the gap between their returns. */
static uint64_t gap(DramParams p, uint32_t b) {
  DramChannel *d = dram_create(&p, (char[128]){0}, 128);
  if (!d) {
    CHECK(0);
    return 0;
  }
  uint64_t r[2];
  MemRequest m = rd(1);
  dram_push(d, &m, 0, 0, 1), dram_push(d, &m, b, 0, 1);
  returns(d, 1, 2, r);
  dram_tick(d, 500);
  dram_push(d, &m, 0, 0, 500), dram_push(d, &m, b, 0, 500);
  returns(d, 500, 2, r);
  dram_free(d);
  return r[1] - r[0];
}

static void test_bank_groups(void) {
  /* a 128 B read is 2 bursts of 64 B (2 command cycles each), issued in its bank's group */
  CHECK_EQ_U64(gap(params(1, 0, false), 1), 4); /* no groups: tCCD = burst: back to back */
  CHECK_EQ_U64(gap(params(4, 3, false), 1), 6); /* banks 0, 1 share a group: every burst 3 apart */
  CHECK_EQ_U64(gap(params(4, 3, false), 8),
               5); /* bank 8 is in the other group: tCCD after the first's last burst */
  CHECK_EQ_U64(gap(params(4, 3, false), 7),
               6); /* 3.2.2's group of 16 banks / 4 groups is bank >> 3: 7 is with 0 */
  /* 16 groups of 16 banks: 3.2.2's bank >> 1 still pairs banks 0 and 1, bank 2 is apart */
  CHECK_EQ_U64(gap(params(16, 3, false), 1), 6);
  CHECK_EQ_U64(gap(params(16, 3, false), 2), 5);
}

/* Row hits streaming in one group: one 64 B burst per tCCDL = 3 cycles, 2/3 of the bus. */
static void test_stream_in_one_group(void) {
  for (int grp = 0; grp < 2; grp++) {
    DramParams p = grp ? params(4, 3, false) : params(1, 0, false);
    DramChannel *d = dram_create(&p, (char[128]){0}, 128);
    if (!d) {
      CHECK(0);
      return;
    }
    int pushed = 0, got = 0;
    uint64_t first = 0, last = 0;
    for (uint64_t c = 1; c < 100000 && got < 2000; c++) {
      while (pushed < 2000 && dram_can_accept(d)) {
        MemRequest m = rd(pushed);
        dram_push(d, &m, (uint32_t)(pushed++ & 1), 0, c); /* banks 0 and 1, one row each */
      }
      dram_tick(d, c);
      for (; dram_peek_return(d, c); dram_pop_return(d)) {
        if (!got) first = c;
        last = c, got++;
      }
    }
    CHECK(got == 2000);
    double per = (double)(last - first) / (got - 1); /* cycles per 128 B: 4 at peak, 6 in one group */
    CHECK(per > (grp ? 5.99 : 3.99) && per < (grp ? 6.01 : 4.01));
    dram_free(d);
  }
}

/* A read right after a write (other bank, open rows) waits tWTR after the write's last burst. */
static void test_write_to_read(void) {
  uint64_t at[2];
  for (int on = 0; on < 2; on++) {
    DramParams p = params(1, 0, on);
    DramChannel *d = dram_create(&p, (char[128]){0}, 128);
    if (!d) {
      CHECK(0);
      return;
    }
    uint64_t r[2];
    MemRequest m = rd(1), w = rd(2);
    w.is_write = 1;
    dram_push(d, &m, 2, 0, 1), dram_push(d, &m, 3, 0, 1);
    returns(d, 1, 2, r);
    dram_tick(d, 500);
    dram_push(d, &w, 2, 0, 500), dram_push(d, &m, 3, 0, 500);
    returns(d, 500, 1, r);
    at[on] = r[0];
    CHECK_EQ_U64(dram_stats(d)->writes, 1);
    dram_free(d);
  }
  /* write bursts at 501, 503; off: the read's column at 505 (tCCD after them);
   * on: at 503 + tWL 4 + burst 2 + tCDLR 5 = 514 */
  CHECK_EQ_U64(at[1] - at[0], 514 - 505);
}

/* A read, then a row conflict in another bank of its group: the precharge
 * waits tRTPL after the read's last burst, and not at all when tRTPL = 0. */
static uint64_t conflict_return(uint32_t rtpl) {
  DramParams p = params(1, 0, false);
  p.tRTPL = rtpl;
  DramChannel *d = dram_create(&p, (char[128]){0}, 128);
  if (!d) {
    CHECK(0);
    return 0;
  }
  uint64_t r[2];
  MemRequest m = rd(1);
  dram_push(d, &m, 0, 0, 1), dram_push(d, &m, 1, 0, 1);
  returns(d, 1, 2, r);
  dram_tick(d, 500);
  dram_push(d, &m, 0, 0, 500), dram_push(d, &m, 1, 5, 500);
  returns(d, 500, 2, r);
  dram_free(d);
  return r[1];
}

static void test_read_to_precharge(void) {
  /* read bursts at 501, 503; PRE at 502 (the next command cycle), or 503 + tRTPL 2 = 505 */
  CHECK_EQ_U64(conflict_return(2) - conflict_return(0), 3);
}

static void test_address_mask(void) {
  AddrMap m = addrmap_make(1, 256, 16, 4096);
  char why[128] = "";
  CHECK(addrmap_parse_mask(&m, "RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS", 16, 128, why, sizeof why) == 0);
  const struct {
    uint64_t local;
    uint32_t bank, row;
  } c[] = {
      {0, 0, 0},
      {128, 0, 0},
      {256, 1, 0},
      {512, 0, 0},
      {768, 1, 0},
      {0x2000, 2, 0},
      {0x2100, 3, 0},
      {0xE100, 15, 0},
      {0x10000, 0, 1},
      {0x10100, 1, 1},
      {1ull << 32, 0, 1u << 16},
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    CHECK_EQ_U64(addrmap_bank(&m, c[i].local), c[i].bank);
    CHECK_EQ_U64(addrmap_row(&m, c[i].local), c[i].row);
  }
  /* GT200's mask (CCWS) is the linear map of 2 KB rows over 8 banks */
  AddrMap g = addrmap_make(1, 256, 8, 2048), lin = addrmap_make(1, 256, 8, 2048);
  CHECK(addrmap_parse_mask(&g, "RRRR.RRRRRRRR.RRBBBCCC.CCCSSSSS", 8, 128, why, sizeof why) == 0);
  for (uint64_t a = 0; a < (1u << 22); a += 128 * 37) {
    CHECK_EQ_U64(addrmap_bank(&g, a), addrmap_bank(&lin, a));
    CHECK_EQ_U64(addrmap_row(&g, a), addrmap_row(&lin, a));
  }
  CHECK(addrmap_parse_mask(&g, "RRRR.RRRRRRRR.RRBBBCCC.CCCSSSSS", 16, 128, why, sizeof why) != 0);
  CHECK_STR_CONTAINS(why, "3 bank bits make 8 banks, not 16");
  CHECK(addrmap_parse_mask(&g, "RRRR.RRRRRRRR.RRCCCCCC.CBBBSSSS", 8, 128, why, sizeof why) != 0);
  CHECK_STR_CONTAINS(why, "span banks");
  CHECK(addrmap_parse_mask(&g, "RRRR.XBBBCCCC.CCCSSSSS", 8, 128, why, sizeof why) != 0);
  CHECK_STR_CONTAINS(why, "'X'");
}

static void test_config_errors(void) {
  const char *bad[] = {"dram.bank_groups=3", "dram.addr_map=RRRR.BBBBB.CCCCSSSS",
                       "dram.addr_map=RRRRBBBCCCCCCSSSSS"};
  const char *key[] = {"dram.bank_groups", "dram.addr_map", "dram.addr_map"};
  for (int k = 0; k < 3; k++) {
    Config *cfg = cfg_create();
    CHECK(cfg_load_file(cfg, "configs/gtx480.cfg") == 0);
    CHECK(cfg_set(cfg, bad[k]) == 0);
    char err[512] = "";
    MemSys *ms = sim_memsys_create(cfg, NULL, err, sizeof err);
    CHECK(ms == NULL);
    CHECK_STR_CONTAINS(err, key[k]);
    memsys_free(ms);
    cfg_free(cfg);
  }
  Config *cfg = cfg_create(); /* the presets load */
  CHECK(cfg_load_file(cfg, "configs/ccws-gt200.cfg") == 0);
  char err[512] = "";
  MemSys *ms = sim_memsys_create(cfg, NULL, err, sizeof err);
  CHECK(ms != NULL);
  memsys_free(ms);
  cfg_free(cfg);
}

int main(void) {
  TEST_RUN(test_bank_groups);
  TEST_RUN(test_stream_in_one_group);
  TEST_RUN(test_write_to_read);
  TEST_RUN(test_read_to_precharge);
  TEST_RUN(test_address_mask);
  TEST_RUN(test_config_errors);
  return TEST_DONE();
}
