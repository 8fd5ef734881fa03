/* t305_belady.c - offline L1D replay (analysis/belady.c) on hand-made
 * streams with known miss counts: OPT (Belady's MIN) against LRU and FIFO on
 * a 1-set 2-way cache; write-evict stores invalidate and end a line's future
 * for OPT; merges promote under LRU only with merge_touch; sets are indexed
 * by line number; the l1d-trace text format is read per SM with the online
 * outcomes, bypasses left out and instruction counts summed; malformed lines
 * are errors naming the line. */
#include <stdlib.h>

#include "analysis/belady.h"
#include "common/test.h"

TEST_GLOBALS;

static const BeladyGeom one_set_2way = {.sets = 1, .assoc = 2, .line_size = 128};

static uint64_t replay(const BeladyStream *s, BeladyGeom g, BeladyPolicy p) {
  BeladyResult r;
  CHECK(belady_replay(s, g, p, &r) == 0);
  return r.misses;
}

static void free_stream(BeladyStream *s) {
  free(s->line);
  free(s->store);
}

/* A B C A B D A D B C B (lines 0, 128, 256, 384): OPT misses 7 (hits at
 * A, A, D, B); LRU and FIFO 9. */
static void test_opt_known_misses(void) {
  BeladyStream s = {0};
  const char *seq = "ABCABDADBCB";
  for (const char *c = seq; *c; c++)
    CHECK(belady_stream_push(&s, (uint64_t)(*c - 'A') * 128, BELADY_LOAD) == 0);
  CHECK_EQ_U64(replay(&s, one_set_2way, BELADY_OPT), 7);
  CHECK_EQ_U64(replay(&s, one_set_2way, BELADY_LRU), 9);
  CHECK_EQ_U64(replay(&s, one_set_2way, BELADY_FIFO), 9);
  BeladyResult r;
  CHECK(belady_replay(&s, one_set_2way, BELADY_OPT, &r) == 0);
  CHECK_EQ_U64(r.loads, 11);
  /* 4 ways hold every line: compulsory misses only, under every policy */
  BeladyGeom big = {.sets = 1, .assoc = 4, .line_size = 128};
  for (int p = 0; p < BELADY__COUNT; p++) CHECK_EQ_U64(replay(&s, big, (BeladyPolicy)p), 4);
  /* 2 sets of 1 way: A, C in set 0, B, D in set 1 (line number mod 2) */
  BeladyGeom two = {.sets = 2, .assoc = 1, .line_size = 128};
  CHECK_EQ_U64(replay(&s, two, BELADY_LRU), 7); /* set 0: A C A A C (4), set 1: B B D D B B (3) */
  free_stream(&s);
  /* LRU and FIFO differ: A B A C B (2 ways): LRU keeps A (used at 3), FIFO evicts it */
  BeladyStream t = {0};
  for (const char *c = "ABACA"; *c; c++) belady_stream_push(&t, (uint64_t)(*c - 'A') * 128, BELADY_LOAD);
  CHECK_EQ_U64(replay(&t, one_set_2way, BELADY_LRU), 3);
  CHECK_EQ_U64(replay(&t, one_set_2way, BELADY_FIFO), 4);
  CHECK_EQ_U64(replay(&t, one_set_2way, BELADY_OPT), 3);
  free_stream(&t);
  /* a merge is a hit that does not promote under LRU: A B A(merge) C evicts A */
  BeladyStream m = {0};
  belady_stream_push(&m, 0, BELADY_LOAD);
  belady_stream_push(&m, 128, BELADY_LOAD);
  belady_stream_push(&m, 0, BELADY_MERGE);
  belady_stream_push(&m, 256, BELADY_LOAD);
  belady_stream_push(&m, 0, BELADY_LOAD);
  CHECK_EQ_U64(replay(&m, one_set_2way, BELADY_LRU), 4);
  BeladyGeom touch = one_set_2way;
  touch.merge_touch = true; /* the online cache's merge_touch: the merge promotes, C evicts B */
  CHECK_EQ_U64(replay(&m, touch, BELADY_LRU), 3);
  CHECK_EQ_U64(replay(&m, touch, BELADY_OPT), replay(&m, one_set_2way, BELADY_OPT));
  m.store[2] = BELADY_LOAD; /* a real hit promotes: C evicts B */
  CHECK_EQ_U64(replay(&m, one_set_2way, BELADY_LRU), 3);
  free_stream(&m);
  BeladyResult bad;
  CHECK(belady_replay(&t, (BeladyGeom){.sets = 1, .assoc = 2, .line_size = 100}, BELADY_OPT, &bad) != 0);
}

/* A B C S(B) B A: at C, B's next load comes after a store (which would
 * invalidate it), so OPT evicts B, not A: 4 misses. Ignoring the store it
 * would evict A (next use 5 > 4) and miss 5 times. */
static void test_stores_write_evict(void) {
  BeladyStream s = {0};
  const char *seq = "ABCsBA";
  for (const char *c = seq; *c; c++)
    belady_stream_push(&s, (uint64_t)((*c == 's' ? 'B' : *c) - 'A') * 128,
                       *c == 's' ? BELADY_STORE : BELADY_LOAD);
  BeladyResult r;
  CHECK(belady_replay(&s, one_set_2way, BELADY_OPT, &r) == 0);
  CHECK_EQ_U64(r.misses, 4);
  CHECK_EQ_U64(r.loads, 5);
  CHECK_EQ_U64(r.invalidations, 0); /* B was gone already */
  /* LRU: A B C(evicts A) S(B) invalidates B, B miss, A miss */
  CHECK(belady_replay(&s, one_set_2way, BELADY_LRU, &r) == 0);
  CHECK_EQ_U64(r.misses, 5);
  CHECK_EQ_U64(r.invalidations, 1);
  free_stream(&s);
}

/* Fills: a line allocated by a miss stays reserved until its fill (F), as
 * online. A B C on 2 ways with A reserved (no fill yet): C evicts B, the
 * oldest unreserved line (without fills: A); a store to the reserved A does
 * not invalidate it; A's fill makes it a victim again. The trace reads F and
 * A (an atomic hit: a promoting reference). */
static void test_fills(void) {
  BeladyStream s = {0};
  belady_stream_push(&s, 0, BELADY_LOAD);   /* A: miss, reserved */
  belady_stream_push(&s, 128, BELADY_LOAD); /* B: miss, reserved */
  belady_stream_push(&s, 128, BELADY_FILL); /* B valid */
  belady_stream_push(&s, 256, BELADY_LOAD); /* C: miss; A is reserved, so B goes */
  belady_stream_push(&s, 0, BELADY_STORE);  /* A reserved: stays */
  belady_stream_push(&s, 0, BELADY_MERGE);  /* A: merge (hit) */
  belady_stream_push(&s, 128,
                     BELADY_LOAD); /* B: miss; C is reserved, A too: every way reserved, oldest (A) goes */
  BeladyResult r;
  s.fills = 1; /* as the trace reader counts F lines: reservations on */
  CHECK(belady_replay(&s, one_set_2way, BELADY_LRU, &r) == 0);
  CHECK_EQ_U64(r.misses, 4);
  CHECK_EQ_U64(r.invalidations, 0);
  CHECK_EQ_U64(r.loads, 5); /* fills and stores are not loads */
  CHECK(belady_replay(&s, one_set_2way, BELADY_FIFO, &r) == 0);
  CHECK_EQ_U64(r.misses, 4);
  /* without fills (an older trace) lines are valid at once: C evicts A, so the
   * store finds nothing, A's merge misses (evicting B) and B misses (evicting C) */
  s.fills = 0;
  CHECK(belady_replay(&s, one_set_2way, BELADY_LRU, &r) == 0);
  CHECK_EQ_U64(r.misses, 5);
  /* OPT ignores reservations: at C it evicts A (a store comes before A's next load), then C at A: 4 */
  s.fills = 1;
  CHECK(belady_replay(&s, one_set_2way, BELADY_OPT, &r) == 0);
  CHECK_EQ_U64(r.misses, 4);
  free_stream(&s);

  FILE *f = tmpfile();
  CHECK(f != NULL);
  if (!f) return;
  fputs("10 0 1 0 5 0 M\n30 0 4294967295 4294967295 5 0 F\n31 0 2 0 9 0 A\n# insts 0 10\n", f);
  rewind(f);
  BeladyTrace tr;
  char err[128] = "";
  CHECK(belady_trace_read(f, &tr, err, sizeof err) == 0);
  fclose(f);
  CHECK_EQ_U64(tr.nsm, 1);
  if (tr.nsm == 1) {
    CHECK_EQ_U64(tr.sm[0].n, 3);
    CHECK_EQ_U64(tr.sm[0].fills, 1);
    CHECK_EQ_U64(tr.sm[0].hits, 1); /* the atomic hit */
    CHECK(tr.sm[0].store[1] == BELADY_FILL && tr.sm[0].store[2] == BELADY_LOAD);
    CHECK(belady_replay(&tr.sm[0], one_set_2way, BELADY_LRU, &r) == 0);
    CHECK_EQ_U64(r.loads, 2);
    CHECK_EQ_U64(r.misses, 1);
  }
  belady_trace_free(&tr);
}

static void test_trace_read(void) {
  FILE *f = tmpfile();
  CHECK(f != NULL);
  if (!f) return;
  fputs("# warpsim L1D access trace\n# kernel k 0\n"
        "10 0 1 0 5 0 M\n11 1 0 1 5 80 M\n12 0 2 0 5 0 G\n13 0 1 0 6 100 B\n14 0 1 0 5 0 H\n15 1 3 1 7 80 S\n"
        "# insts 0 100\n# insts 1 40\n# kernel k 1\n16 0 1 0 5 0 H\n# insts 0 50\n",
        f);
  rewind(f);
  BeladyTrace t;
  char err[128] = "";
  CHECK(belady_trace_read(f, &t, err, sizeof err) == 0);
  fclose(f);
  CHECK_EQ_U64(t.nsm, 2);
  if (t.nsm == 2) {
    CHECK_EQ_U64(t.sm[0].n, 4); /* M G H H: the bypass is not an L1 access */
    CHECK_EQ_U64(t.sm[0].misses, 1);
    CHECK_EQ_U64(t.sm[0].merges, 1);
    CHECK_EQ_U64(t.sm[0].hits, 2);
    CHECK_EQ_U64(t.sm[0].bypasses, 1);
    CHECK_EQ_U64(t.sm[0].insts, 150);
    CHECK_EQ_U64(t.sm[1].n, 2);
    CHECK_EQ_U64(t.sm[1].stores, 1);
    CHECK_EQ_U64(t.sm[1].line[0], 0x80);
    CHECK_EQ_U64(t.sm[1].insts, 40);
    /* the merge is a hit in a replay: SM 0 misses once, like the online cache */
    BeladyResult r;
    CHECK(belady_replay(&t.sm[0], one_set_2way, BELADY_LRU, &r) == 0);
    CHECK_EQ_U64(r.misses, 1);
  }
  belady_trace_free(&t);
  f = tmpfile();
  fputs("# x\n10 0 1 0 5 0 M\n10 0 1 zz\n", f);
  rewind(f);
  CHECK(belady_trace_read(f, &t, err, sizeof err) != 0);
  CHECK_STR_CONTAINS(err, "line 3");
  fclose(f);
}

int main(void) {
  TEST_RUN(test_opt_known_misses);
  TEST_RUN(test_stores_write_evict);
  TEST_RUN(test_fills);
  TEST_RUN(test_trace_read);
  return TEST_DONE();
}
