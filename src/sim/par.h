/* par.h - the timing engine's worker threads: a fixed team that runs one
 * function on every member and waits for all of them, many times a simulated
 * cycle apart. Members wait by spinning briefly, then sleeping on a futex, so
 * a team larger than the cores still makes progress. Depends on the C library
 * and POSIX threads only. */
#ifndef WS_PAR_H
#define WS_PAR_H

#include <stdint.h>

typedef struct ParTeam ParTeam;
typedef void (*ParFn)(void *ctx, uint32_t member);

/* A team of n members: the caller of par_run is member 0, n - 1 threads the
 * others. NULL when a thread cannot be started or memory runs out. */
ParTeam *par_create(uint32_t n);
void par_free(ParTeam *p);
uint32_t par_size(const ParTeam *p);
/* Runs fn(ctx, m) for every member m (0 on the calling thread) and returns when
 * all have returned; their writes are then visible to the caller. */
void par_run(ParTeam *p, ParFn fn, void *ctx);
/* The cores this process may run on (at least 1). */
uint32_t par_cores(void);

#endif
