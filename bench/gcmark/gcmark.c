/* gcmark.c - host driver of the garbage-collector mark benchmark: generates a
 * synthetic Java-like heap (objects with a variable number of pointer fields,
 * allocation locality plus long-range references, null fields, garbage), marks
 * it level by level with gc_mark (host swaps the worklists) and compares the
 * mark bitmap with a CPU traversal from the same roots. */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define GC_BLOCK 256
#define GC_NEAR 64         /* allocation-locality window, in objects */
#define GC_CHUNK 1024      /* objects per allocation chunk */
#define GC_DEAD_PERCENT 35 /* chunks whose objects only garbage points to */

typedef struct GcSize {
  uint32_t nobjs;
} GcSize;
static const GcSize gc_sizes[BENCH_NSIZES] = {{16384}, {393216}, {4194304}};

/* Number of pointer fields: mostly small objects, a few reference arrays. */
static uint32_t gc_pick_nptr(BenchRng *g) {
  uint32_t u = bench_rng_below(g, 100);
  if (u < 20) return 0;
  if (u < 40) return 1;
  if (u < 65) return 2;
  if (u < 80) return 3;
  if (u < 95) return 4 + bench_rng_below(g, 4);
  return 8 + bench_rng_below(g, 57);
}

/* CPU reference: BFS from the roots over the same heap. */
static uint32_t gc_reference(const uint32_t *heap, const uint32_t *roots, uint32_t nroots, uint32_t *marks,
                             uint32_t *queue, uint32_t *levels) {
  uint32_t head = 0, tail = 0, lvl = 0;
  for (uint32_t i = 0; i < nroots; i++) {
    uint32_t p = roots[i];
    if (!(marks[p >> 5] & (1u << (p & 31)))) {
      marks[p >> 5] |= 1u << (p & 31);
      queue[tail++] = p;
    }
  }
  while (head < tail) {
    uint32_t end = tail;
    lvl++;
    for (; head < end; head++) {
      uint32_t o = queue[head], nptr = heap[o] & 0xffffu;
      for (uint32_t i = 0; i < nptr; i++) {
        uint32_t p = heap[o + 1 + i];
        if (p && !(marks[p >> 5] & (1u << (p & 31)))) {
          marks[p >> 5] |= 1u << (p & 31);
          queue[tail++] = p;
        }
      }
    }
  }
  *levels = lvl;
  return tail;
}

static int gc_run(BenchRun *r) {
  const uint32_t nobjs = gc_sizes[r->size].nobjs;
  const uint32_t nroots = nobjs / 1024 + 16;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  WsDevPtr d_heap = 0, d_work[2] = {0, 0}, d_marks = 0, d_count = 0;
  BenchRng g;
  bench_rng_seed(&g, r->seed);

  uint32_t *obj_at = malloc(sizeof(uint32_t) * nobjs); /* object index -> heap word offset */
  uint8_t *nptr_of = malloc(nobjs);
  uint8_t *nscal_of = malloc(nobjs);
  uint32_t *roots = malloc(sizeof(uint32_t) * nroots);
  uint8_t *dead = malloc(nobjs / GC_CHUNK + 1);
  uint32_t *heap = NULL, *marks = NULL, *ref_marks = NULL, *queue = NULL;
  if (!obj_at || !nptr_of || !nscal_of || !roots || !dead) goto oom;
  for (uint32_t c = 0; c <= nobjs / GC_CHUNK; c++) dead[c] = bench_rng_below(&g, 100) < GC_DEAD_PERCENT;
  dead[0] = 0; /* the roots need a live chunk */

  /* Layout: word 0 is reserved so that 0 is the null reference. */
  uint64_t words = 1;
  for (uint32_t i = 0; i < nobjs; i++) {
    nptr_of[i] = (uint8_t)gc_pick_nptr(&g);
    nscal_of[i] = (uint8_t)bench_rng_below(&g, 8);
    obj_at[i] = (uint32_t)words;
    words += 1u + nptr_of[i] + nscal_of[i];
  }
  const size_t nmarkw = (size_t)(words + 31) / 32;
  heap = calloc((size_t)words, sizeof(uint32_t));
  marks = calloc(nmarkw, sizeof(uint32_t));
  ref_marks = calloc(nmarkw, sizeof(uint32_t));
  queue = malloc(sizeof(uint32_t) * nobjs);
  if (!heap || !marks || !ref_marks || !queue) goto oom;
  uint64_t nfields = 0, nnull = 0;
  for (uint32_t i = 0; i < nobjs; i++) {
    uint32_t o = obj_at[i];
    heap[o] = nptr_of[i] | (uint32_t)nscal_of[i] << 16;
    for (uint32_t f = 0; f < nptr_of[i]; f++) {
      uint32_t u = bench_rng_below(&g, 100), tgt;
      nfields++;
      if (u < 20) { /* null field */
        heap[o + 1 + f] = 0;
        nnull++;
        continue;
      }
      if (u < 60) { /* allocation locality: a nearby object */
        int64_t t = (int64_t)i + (int64_t)bench_rng_below(&g, 2 * GC_NEAR + 1) - GC_NEAR;
        tgt = (uint32_t)(t < 0 ? 0 : t >= nobjs ? nobjs - 1 : t);
      } else {
        tgt = bench_rng_below(&g, nobjs);
      }
      /* Objects of live chunks never point into dead chunks (retry, else null). */
      for (int retry = 0; retry < 4 && !dead[i / GC_CHUNK] && dead[tgt / GC_CHUNK]; retry++)
        tgt = bench_rng_below(&g, nobjs);
      if (!dead[i / GC_CHUNK] && dead[tgt / GC_CHUNK]) {
        heap[o + 1 + f] = 0;
        nnull++;
        continue;
      }
      heap[o + 1 + f] = obj_at[tgt];
    }
    for (uint32_t s = 0; s < nscal_of[i]; s++) heap[o + 1 + nptr_of[i] + s] = (uint32_t)bench_rng_u64(&g);
  }
  for (uint32_t i = 0; i < nroots; i++) {
    uint32_t k;
    do k = bench_rng_below(&g, nobjs);
    while (dead[k / GC_CHUNK]);
    roots[i] = obj_at[k];
  }

  uint32_t ref_levels = 0;
  uint32_t nlive = gc_reference(heap, roots, nroots, ref_marks, queue, &ref_levels);
  if (r->verbose > 0)
    fprintf(r->log,
            "gcmark: %u objects in %llu words, %llu pointer fields (%llu null), %u roots; "
            "%u live objects, %u levels\n",
            nobjs, (unsigned long long)words, (unsigned long long)nfields, (unsigned long long)nnull, nroots,
            nlive, ref_levels);

  /* Initial grey set: the distinct roots, marked. */
  uint32_t nwork = 0;
  for (uint32_t i = 0; i < nroots; i++) {
    uint32_t p = roots[i];
    if (!(marks[p >> 5] & (1u << (p & 31)))) {
      marks[p >> 5] |= 1u << (p & 31);
      queue[nwork++] = p;
    }
  }

  if (bench_load_module(r, "gcmark", "gcmark.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "gc_mark"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_heap, sizeof(uint32_t) * (size_t)words));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_work[0], sizeof(uint32_t) * nobjs));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_work[1], sizeof(uint32_t) * nobjs));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_marks, sizeof(uint32_t) * nmarkw));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_count, sizeof(uint32_t)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_heap, heap, sizeof(uint32_t) * (size_t)words));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_marks, marks, sizeof(uint32_t) * nmarkw));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_work[0], queue, sizeof(uint32_t) * nwork));

  uint32_t levels = 0, pushed = nwork;
  int cur = 0;
  while (nwork > 0) {
    if (levels > nobjs) {
      fprintf(r->log, "gcmark: worklist did not drain after %u levels\n", levels);
      status = BENCH_MISMATCH;
      goto fail;
    }
    BENCH_CK(r, ws_memset_d32(r->ctx, d_count, 0, 1));
    void *params[] = {&d_heap, &d_work[cur], &nwork, &d_marks, &d_work[cur ^ 1], &d_count};
    BENCH_CK(r, ws_launch_kernel(fn, (nwork + GC_BLOCK - 1) / GC_BLOCK, 1, 1, GC_BLOCK, 1, 1, 0, params));
    BENCH_CK(r, ws_memcpy_dtoh(r->ctx, &nwork, d_count, sizeof(uint32_t)));
    if (nwork > nobjs) {
      fprintf(r->log, "gcmark: level %u pushed %u objects (more than exist)\n", levels, nwork);
      status = BENCH_MISMATCH;
      goto fail;
    }
    pushed += nwork;
    levels++;
    cur ^= 1;
  }
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, marks, d_marks, sizeof(uint32_t) * nmarkw));

  size_t bad = bench_check_u32(r, "mark word", marks, ref_marks, nmarkw);
  if (pushed != nlive) {
    fprintf(r->log, "gcmark: %u objects pushed, %u live\n", pushed, nlive);
    bad++;
  }
  if (levels != ref_levels) {
    fprintf(r->log, "gcmark: %u levels, CPU traversal has %u\n", levels, ref_levels);
    bad++;
  }
  status = bad ? BENCH_MISMATCH : BENCH_PASS;
  goto fail;

oom:
  fprintf(r->log, "gcmark: out of host memory\n");
fail:
  if (d_heap) ws_mem_free(r->ctx, d_heap);
  if (d_work[0]) ws_mem_free(r->ctx, d_work[0]);
  if (d_work[1]) ws_mem_free(r->ctx, d_work[1]);
  if (d_marks) ws_mem_free(r->ctx, d_marks);
  if (d_count) ws_mem_free(r->ctx, d_count);
  if (mod) ws_module_unload(mod);
  free(obj_at);
  free(nptr_of);
  free(nscal_of);
  free(roots);
  free(dead);
  free(heap);
  free(marks);
  free(ref_marks);
  free(queue);
  return status;
}

const BenchDesc bench_desc_gcmark = {
    .name = "gcmark",
    .summary = "GC mark phase: worklist BFS over an object graph, atomicOr mark bits, atomicAdd pushes "
               "(irregular, cache-sensitive)",
    .papers = "CCWS",
    .suite = "I",
    .sizes = {"16K objects", "384K objects", "4M objects"},
    .run = gc_run,
};
