/* par.c - the timing engine's worker threads (par.h). A run is announced by
 * bumping a generation counter and ends when every worker has bumped the done
 * counter; each side waits by spinning a little (a simulated cycle's work is
 * microseconds) and then sleeping on the counter's futex (Linux; elsewhere it
 * yields), so oversubscribed cores are handed over instead of burnt. */
#include "sim/par.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#endif

enum { PAR_SPIN = 256, PAR_YIELDS = 4 }; /* polls (about ten microseconds), then yields, before sleeping */

/* A counter others wait on, with the number of them asleep on it, on its own host cache line. */
typedef struct ParWord {
  _Alignas(64) uint32_t v;
  uint32_t sleepers;
} ParWord;

struct ParTeam {
  ParWord gen;  /* bumped to start a run (and to stop the team) */
  ParWord done; /* workers finished with the current run */
  ParFn fn;
  void *ctx;
  int quit;
  uint32_t n;
  pthread_t *threads;
  uint32_t started;
};

typedef struct ParArg {
  ParTeam *p;
  uint32_t member;
} ParArg;

static inline void par_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/* Returns the counter's value once it differs from `old`. */
static uint32_t par_wait(ParWord *w, uint32_t old) {
  uint32_t v;
  for (int i = 0; i < PAR_SPIN; i++) {
    if ((v = __atomic_load_n(&w->v, __ATOMIC_ACQUIRE)) != old) return v;
    par_pause();
  }
  for (int i = 0; i < PAR_YIELDS; i++) { /* a busy host: hand the core to whoever it waits on */
    if ((v = __atomic_load_n(&w->v, __ATOMIC_ACQUIRE)) != old) return v;
    sched_yield();
  }
  for (;;) {
    /* sleepers is raised before the last test and the waker reads it after its change
     * (both sequentially consistent): a change is never missed by both */
    __atomic_add_fetch(&w->sleepers, 1, __ATOMIC_SEQ_CST);
    if ((v = __atomic_load_n(&w->v, __ATOMIC_SEQ_CST)) == old) {
#ifdef __linux__
      syscall(SYS_futex, &w->v, FUTEX_WAIT_PRIVATE, old, NULL, NULL, 0);
#else
      sched_yield();
#endif
      v = __atomic_load_n(&w->v, __ATOMIC_ACQUIRE);
    }
    __atomic_sub_fetch(&w->sleepers, 1, __ATOMIC_SEQ_CST);
    if (v != old) return v;
  }
}

static void par_bump(ParWord *w) {
  __atomic_add_fetch(&w->v, 1, __ATOMIC_SEQ_CST);
#ifdef __linux__
  if (__atomic_load_n(&w->sleepers, __ATOMIC_SEQ_CST))
    syscall(SYS_futex, &w->v, FUTEX_WAKE_PRIVATE, 1 << 30, NULL, NULL, 0);
#endif
}

static void *par_worker(void *arg) {
  ParArg a = *(ParArg *)arg;
  free(arg);
  ParTeam *p = a.p;
  uint32_t seen = 0;
  for (;;) {
    seen = par_wait(&p->gen, seen);
    if (p->quit) return NULL;
    p->fn(p->ctx, a.member);
    par_bump(&p->done);
  }
}

ParTeam *par_create(uint32_t n) {
  ParTeam *p = aligned_alloc(64, (sizeof(ParTeam) + 63) / 64 * 64);
  if (!p) return NULL;
  *p = (ParTeam){.n = n ? n : 1};
  if (p->n > 1 && !(p->threads = calloc(p->n - 1, sizeof *p->threads))) {
    free(p);
    return NULL;
  }
  for (uint32_t m = 1; m < p->n; m++) {
    ParArg *a = malloc(sizeof *a);
    if (a) *a = (ParArg){p, m};
    if (!a || pthread_create(&p->threads[m - 1], NULL, par_worker, a)) {
      free(a);
      par_free(p);
      return NULL;
    }
    p->started++;
  }
  return p;
}

void par_free(ParTeam *p) {
  if (!p) return;
  p->quit = 1;
  par_bump(&p->gen);
  for (uint32_t i = 0; i < p->started; i++) pthread_join(p->threads[i], NULL);
  free(p->threads);
  free(p);
}

uint32_t par_size(const ParTeam *p) { return p->n; }

void par_run(ParTeam *p, ParFn fn, void *ctx) {
  p->fn = fn;
  p->ctx = ctx;
  const uint32_t done0 = __atomic_load_n(&p->done.v, __ATOMIC_ACQUIRE);
  par_bump(&p->gen);
  fn(ctx, 0);
  for (uint32_t d = done0; d - done0 != p->n - 1;) d = par_wait(&p->done, d);
}

uint32_t par_cores(void) {
#ifdef __linux__
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return (uint32_t)CPU_COUNT(&set);
#endif
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (uint32_t)n : 1;
}
