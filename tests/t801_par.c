/* t801_par.c - the engine's worker team (src/sim/par.c): every run calls the function once on
 * every member, the caller as member 0, and returns only when all have returned, so the writes
 * of one run are seen by the next; many short runs in a row (the engine runs one a cycle), more
 * members than cores, a team of one, and creating and freeing teams repeatedly. */
#include <stdlib.h>

#include "common/test.h"
#include "sim/par.h"

TEST_GLOBALS;

typedef struct Work {
  uint32_t n;
  uint64_t round;
  uint64_t *seen;    /* per member: the round it last ran in */
  uint64_t *sum;     /* per member: its running sum of what the previous round left in slot[] */
  uint64_t *slot[2]; /* per member: written in odd rounds to slot[1], even to slot[0], read the round after */
} Work;

static void member(void *ctx, uint32_t m) {
  Work *w = ctx;
  w->seen[m] = w->round;
  uint64_t s = 0;
  const uint64_t *last = w->slot[(w->round - 1) % 2]; /* every member's write of the last run */
  for (uint32_t k = 0; k < w->n; k++) s += last[k];
  w->sum[m] += s;
  w->slot[w->round % 2][m] = w->round + m; /* read in the next run only: par_run returns between */
}

static void check_team(uint32_t n, uint64_t rounds) {
  ParTeam *p = par_create(n);
  CHECK(p != NULL);
  if (!p) return;
  CHECK_EQ_U64(par_size(p), n ? n : 1);
  n = par_size(p);
  Work w = {.n = n, .seen = calloc(n, 8), .sum = calloc(n, 8), .slot = {calloc(n, 8), calloc(n, 8)}};
  uint64_t *want = calloc(n, 8);
  uint64_t *slots = calloc(n, 8);
  for (w.round = 1; w.round <= rounds; w.round++) {
    uint64_t s = 0;
    for (uint32_t k = 0; k < n; k++) s += slots[k];
    par_run(p, member, &w);
    for (uint32_t m = 0; m < n; m++) {
      CHECK_EQ_U64(w.seen[m], w.round);
      want[m] += s;
      slots[m] = w.round + m;
    }
  }
  for (uint32_t m = 0; m < n; m++) CHECK_EQ_U64(w.sum[m], want[m]);
  par_free(p);
  free(w.seen), free(w.sum), free(w.slot[0]), free(w.slot[1]), free(want), free(slots);
}

static void test_teams(void) {
  check_team(1, 200);
  check_team(2, 2000);
  check_team(3, 1000);
  check_team(2 * par_cores() + 1, 100); /* more members than cores */
  check_team(0, 10);                    /* 0 is a team of one */
}

static void test_create_free(void) {
  for (int i = 0; i < 50; i++) {
    ParTeam *p = par_create(3);
    CHECK(p != NULL);
    par_free(p);
  }
  CHECK(par_cores() >= 1);
}

int main(void) {
  TEST_RUN(test_teams);
  TEST_RUN(test_create_free);
  return TEST_DONE();
}
