/* octree.c - host driver of the octree partitioning benchmark: Plummer-model
 * particles, one octree_level launch per tree level (global task queue, 128
 * threads per CTA), then a structural check of the GPU tree (every particle in
 * exactly one leaf, leaves inside their cubes and under the size limit) and a
 * comparison of its leaf multiset with a CPU build of the same tree. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define OCTREE_BLOCK 128
#define OCTREE_MAX_CTAS 120 /* 8 CTAs per SM on 15 SMs, looping over the queue */
#define OCTREE_MAX_LEAF 32  /* a node with more particles is split */
#define OCTREE_MAX_LEVEL 20 /* nodes at this depth are leaves whatever their size */

enum { OCTREE_HEAD = 0, OCTREE_TAIL = 1, OCTREE_NODES = 2, OCTREE_LEAVES = 3, OCTREE_NCTR = 4 };

static const int octree_sizes[BENCH_NSIZES] = {4096, 262144, 1048576};

/* Same 16-byte layout as the kernel's float4 (w holds the particle id). */
typedef struct OctreeParticle {
  float x, y, z;
  uint32_t id;
} OctreeParticle;
typedef struct OctreeGeom {
  float cx, cy, cz, half;
} OctreeGeom;
typedef struct OctreeInfo {
  int32_t start, count, level, parent;
} OctreeInfo;
typedef struct OctreeLeaf {
  OctreeGeom g;
  int32_t level, count;
  const uint32_t *ids;
} OctreeLeaf;

/* Plummer sphere (scale radius 1): r = (u^(-2/3) - 1)^(-1/2), isotropic,
 * truncated at r = 30 by resampling. */
static void octree_plummer(BenchRng *g, OctreeParticle *p, int n) {
  for (int i = 0; i < n; i++) {
    double r;
    do {
      double u = ((double)(bench_rng_u64(g) >> 11) + 1.0) / 9007199254740993.0;
      r = 1.0 / sqrt(pow(u, -2.0 / 3.0) - 1.0);
    } while (!(r < 30.0));
    double cz = 2.0 * bench_rng_float(g) - 1.0, phi = 6.283185307179586 * bench_rng_float(g);
    double s = sqrt(1.0 - cz * cz);
    p[i].x = (float)(r * s * cos(phi));
    p[i].y = (float)(r * s * sin(phi));
    p[i].z = (float)(r * cz);
    p[i].id = (uint32_t)i;
  }
}

static int octree_octant(const OctreeParticle *q, const OctreeGeom *g) {
  return (q->x >= g->cx ? 1 : 0) | (q->y >= g->cy ? 2 : 0) | (q->z >= g->cz ? 4 : 0);
}

static int octree_cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static int octree_cmp_leaf(const void *a, const void *b) {
  const OctreeLeaf *x = a, *y = b;
  if (x->level != y->level) return x->level < y->level ? -1 : 1;
  int c = memcmp(&x->g, &y->g, sizeof x->g);
  return c;
}

/* CPU build, level by level in queue order; the particles of each leaf end up
 * (id-sorted) in ids[leaf range]. Returns the number of leaves or -1. */
static int octree_cpu_build(const OctreeParticle *in, int n, OctreeGeom root, OctreeLeaf *leaves,
                            uint32_t *ids) {
  int cap = 2 * n + 8, nleaves = 0;
  OctreeParticle *cur = malloc(sizeof *cur * (size_t)n), *nxt = malloc(sizeof *nxt * (size_t)n);
  OctreeGeom *geom = malloc(sizeof *geom * (size_t)cap);
  OctreeInfo *info = malloc(sizeof *info * (size_t)cap);
  int *queue = malloc(sizeof(int) * (size_t)cap), *next = malloc(sizeof(int) * (size_t)cap);
  if (!cur || !nxt || !geom || !info || !queue || !next) {
    nleaves = -1;
    goto done;
  }
  memcpy(cur, in, sizeof *cur * (size_t)n);
  int nnodes = 1, nq = 1;
  geom[0] = root;
  info[0] = (OctreeInfo){0, n, 0, -1};
  queue[0] = 0;
  while (nq > 0) {
    int nn = 0;
    for (int qi = 0; qi < nq; qi++) {
      int node = queue[qi];
      OctreeGeom g = geom[node];
      OctreeInfo f = info[node];
      int count[8] = {0}, cursor[8];
      for (int p = f.start; p < f.start + f.count; p++) count[octree_octant(&cur[p], &g)]++;
      int base = f.start;
      for (int o = 0; o < 8; o++) {
        cursor[o] = base;
        if (count[o] > 0) {
          float h = 0.5f * g.half;
          int child = nnodes++;
          geom[child] = (OctreeGeom){g.cx + ((o & 1) ? h : -h), g.cy + ((o & 2) ? h : -h),
                                     g.cz + ((o & 4) ? h : -h), h};
          info[child] = (OctreeInfo){base, count[o], f.level + 1, node};
          if (count[o] > OCTREE_MAX_LEAF && f.level + 1 < OCTREE_MAX_LEVEL) {
            next[nn++] = child;
          } else {
            leaves[nleaves++] = (OctreeLeaf){geom[child], f.level + 1, count[o], ids + base};
          }
        }
        base += count[o];
      }
      for (int p = f.start; p < f.start + f.count; p++) nxt[cursor[octree_octant(&cur[p], &g)]++] = cur[p];
    }
    /* the scattered ranges become the current order */
    for (int qi = 0; qi < nq; qi++) {
      OctreeInfo f = info[queue[qi]];
      memcpy(cur + f.start, nxt + f.start, sizeof *cur * (size_t)f.count);
    }
    memcpy(queue, next, sizeof(int) * (size_t)nn);
    nq = nn;
  }
  for (int i = 0; i < n; i++) ids[i] = cur[i].id;
  for (int l = 0; l < nleaves; l++)
    qsort((void *)leaves[l].ids, (size_t)leaves[l].count, sizeof(uint32_t), octree_cmp_u32);
done:
  free(cur);
  free(nxt);
  free(geom);
  free(info);
  free(queue);
  free(next);
  return nleaves;
}

/* Structural check of the GPU tree and comparison with the CPU leaves. */
static size_t octree_check(BenchRun *r, const OctreeParticle *in, int n, const OctreeParticle *out,
                           const OctreeGeom *geom, const OctreeInfo *info, int nnodes, const int *leaf_idx,
                           int nleaves, OctreeLeaf *cpu, int cpu_nleaves, float root_half) {
  size_t bad = 0;
  OctreeLeaf *gpu = malloc(sizeof *gpu * (size_t)(nleaves > 0 ? nleaves : 1));
  uint32_t *ids = malloc(sizeof(uint32_t) * (size_t)n);
  unsigned char *seen = calloc((size_t)n, 1);
  if (!gpu || !ids || !seen) {
    fprintf(r->log, "octree: out of host memory in check\n");
    bad = 1;
    goto done;
  }
  if (nleaves != cpu_nleaves) {
    fprintf(r->log, "octree: %d leaves, CPU build has %d\n", nleaves, cpu_nleaves);
    bad++;
  }
  float eps = root_half * 1e-6f;
  long covered = 0;
  for (int l = 0; l < nleaves && bad < 10; l++) {
    int node = leaf_idx[l];
    if (node < 0 || node >= nnodes) {
      fprintf(r->log, "octree: leaf %d names node %d of %d\n", l, node, nnodes);
      bad++;
      continue;
    }
    OctreeGeom g = geom[node];
    OctreeInfo f = info[node];
    if (f.start < 0 || f.count <= 0 || f.start + f.count > n ||
        (f.count > OCTREE_MAX_LEAF && f.level < OCTREE_MAX_LEVEL)) {
      fprintf(r->log, "octree: leaf node %d has range [%d, +%d) at level %d\n", node, f.start, f.count,
              f.level);
      bad++;
      continue;
    }
    covered += f.count;
    for (int p = f.start; p < f.start + f.count; p++) {
      const OctreeParticle *q = &out[p];
      if (q->id >= (uint32_t)n || seen[q->id]++) {
        fprintf(r->log, "octree: out[%d] holds particle id %u twice or out of range\n", p, q->id);
        bad++;
        break;
      }
      const OctreeParticle *o = &in[q->id];
      if (q->x != o->x || q->y != o->y || q->z != o->z) {
        fprintf(r->log, "octree: out[%d] (id %u) has wrong coordinates\n", p, q->id);
        bad++;
        break;
      }
      if (fabsf(q->x - g.cx) > g.half + eps || fabsf(q->y - g.cy) > g.half + eps ||
          fabsf(q->z - g.cz) > g.half + eps) {
        fprintf(r->log, "octree: particle %u outside leaf node %d\n", q->id, node);
        bad++;
        break;
      }
      ids[p] = q->id;
    }
    qsort(ids + f.start, (size_t)f.count, sizeof(uint32_t), octree_cmp_u32);
    gpu[l] = (OctreeLeaf){g, f.level, f.count, ids + f.start};
  }
  if (bad) goto done;
  if (covered != n) {
    fprintf(r->log, "octree: leaves hold %ld particles, want %d\n", covered, n);
    bad++;
    goto done;
  }
  qsort(gpu, (size_t)nleaves, sizeof *gpu, octree_cmp_leaf);
  qsort(cpu, (size_t)cpu_nleaves, sizeof *cpu, octree_cmp_leaf);
  for (int l = 0; l < nleaves && bad < 10; l++) {
    const OctreeLeaf *a = &gpu[l], *b = &cpu[l];
    if (octree_cmp_leaf(a, b) != 0 || a->count != b->count ||
        memcmp(a->ids, b->ids, sizeof(uint32_t) * (size_t)a->count) != 0) {
      fprintf(r->log,
              "octree: leaf %d differs: GPU level %d centre (%g %g %g) %d particles, "
              "CPU level %d centre (%g %g %g) %d particles\n",
              l, a->level, a->g.cx, a->g.cy, a->g.cz, a->count, b->level, b->g.cx, b->g.cy, b->g.cz,
              b->count);
      bad++;
    }
  }
done:
  free(gpu);
  free(ids);
  free(seen);
  return bad;
}

static int octree_run(BenchRun *r) {
  int n = octree_sizes[r->size], cap = 2 * n + 8, qcap = n / (OCTREE_MAX_LEAF + 1) + 2;
  int max_leaf = OCTREE_MAX_LEAF, max_level = OCTREE_MAX_LEVEL;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  WsDevPtr d_buf[2] = {0, 0}, d_out = 0, d_geom = 0, d_info = 0, d_leaves = 0, d_q[2] = {0, 0}, d_ctr = 0;
  OctreeParticle *in = malloc(sizeof *in * (size_t)n), *out = malloc(sizeof *out * (size_t)n);
  OctreeGeom *geom = malloc(sizeof *geom * (size_t)cap);
  OctreeInfo *info = malloc(sizeof *info * (size_t)cap);
  int *leaf_idx = malloc(sizeof(int) * (size_t)n);
  OctreeLeaf *cpu = malloc(sizeof *cpu * (size_t)n);
  uint32_t *cpu_ids = malloc(sizeof(uint32_t) * (size_t)n);
  if (!in || !out || !geom || !info || !leaf_idx || !cpu || !cpu_ids) {
    fprintf(r->log, "octree: out of host memory\n");
    goto fail;
  }

  BenchRng g;
  bench_rng_seed(&g, r->seed);
  octree_plummer(&g, in, n);
  float lo[3] = {in[0].x, in[0].y, in[0].z}, hi[3] = {in[0].x, in[0].y, in[0].z};
  for (int i = 1; i < n; i++) {
    float v[3] = {in[i].x, in[i].y, in[i].z};
    for (int d = 0; d < 3; d++) {
      if (v[d] < lo[d]) lo[d] = v[d];
      if (v[d] > hi[d]) hi[d] = v[d];
    }
  }
  float ext = fmaxf(hi[0] - lo[0], fmaxf(hi[1] - lo[1], hi[2] - lo[2]));
  OctreeGeom root = {0.5f * (lo[0] + hi[0]), 0.5f * (lo[1] + hi[1]), 0.5f * (lo[2] + hi[2]),
                     0.5f * ext * 1.001f};
  int cpu_nleaves = octree_cpu_build(in, n, root, cpu, cpu_ids);
  if (cpu_nleaves < 0) {
    fprintf(r->log, "octree: out of host memory\n");
    goto fail;
  }

  if (bench_load_module(r, "octree", "octree.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "octree_level"));
  size_t pbytes = sizeof *in * (size_t)n;
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_buf[0], pbytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_buf[1], pbytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_out, pbytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_geom, sizeof *geom * (size_t)cap));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_info, sizeof *info * (size_t)cap));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_leaves, sizeof(int) * (size_t)n));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_q[0], sizeof(int) * (size_t)qcap));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_q[1], sizeof(int) * (size_t)qcap));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_ctr, sizeof(int) * OCTREE_NCTR));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_buf[0], in, pbytes));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_out, 0xffffffffu, (size_t)n * 4));
  OctreeInfo root_info = {0, n, 0, -1};
  int zero = 0, ctr_init[OCTREE_NCTR] = {0, 0, 1, 0};
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_geom, &root, sizeof root));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_info, &root_info, sizeof root_info));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_q[0], &zero, sizeof zero));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_ctr, ctr_init, sizeof ctr_init));

  int n_in = 1, level = 0, ctr[OCTREE_NCTR];
  while (n_in > 0) {
    unsigned grid = (unsigned)(n_in < OCTREE_MAX_CTAS ? n_in : OCTREE_MAX_CTAS);
    void *params[] = {&d_q[level & 1],
                      &n_in,
                      &d_q[(level + 1) & 1],
                      &d_geom,
                      &d_info,
                      &d_leaves,
                      &d_buf[level & 1],
                      &d_buf[(level + 1) & 1],
                      &d_out,
                      &d_ctr,
                      &max_leaf,
                      &max_level};
    BENCH_CK(r, ws_memset_d32(r->ctx, d_ctr, 0, 2)); /* queue head and tail */
    BENCH_CK(r, ws_launch_kernel(fn, grid, 1, 1, OCTREE_BLOCK, 1, 1, 0, params));
    BENCH_CK(r, ws_memcpy_dtoh(r->ctx, ctr, d_ctr, sizeof ctr));
    if (ctr[OCTREE_TAIL] > qcap || ctr[OCTREE_NODES] > cap || ctr[OCTREE_LEAVES] > n) {
      fprintf(r->log, "octree: level %d overflowed: queue %d nodes %d leaves %d\n", level, ctr[OCTREE_TAIL],
              ctr[OCTREE_NODES], ctr[OCTREE_LEAVES]);
      status = BENCH_MISMATCH;
      goto fail;
    }
    if (r->verbose > 1) fprintf(r->log, "octree: level %d: %d tasks on %u CTAs\n", level, n_in, grid);
    n_in = ctr[OCTREE_TAIL];
    level++;
  }
  int nnodes = ctr[OCTREE_NODES], nleaves = ctr[OCTREE_LEAVES];
  if (r->verbose > 0)
    fprintf(r->log, "octree: %d Plummer particles, %d levels, %d nodes, %d leaves (CPU %d)\n", n, level,
            nnodes, nleaves, cpu_nleaves);
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, out, d_out, pbytes));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, geom, d_geom, sizeof *geom * (size_t)nnodes));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, info, d_info, sizeof *info * (size_t)nnodes));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, leaf_idx, d_leaves, sizeof(int) * (size_t)nleaves));

  status = octree_check(r, in, n, out, geom, info, nnodes, leaf_idx, nleaves, cpu, cpu_nleaves, root.half)
               ? BENCH_MISMATCH
               : BENCH_PASS;

fail:
  for (int b = 0; b < 2; b++) {
    if (d_buf[b]) ws_mem_free(r->ctx, d_buf[b]);
    if (d_q[b]) ws_mem_free(r->ctx, d_q[b]);
  }
  if (d_out) ws_mem_free(r->ctx, d_out);
  if (d_geom) ws_mem_free(r->ctx, d_geom);
  if (d_info) ws_mem_free(r->ctx, d_info);
  if (d_leaves) ws_mem_free(r->ctx, d_leaves);
  if (d_ctr) ws_mem_free(r->ctx, d_ctr);
  if (mod) ws_module_unload(mod);
  free(in);
  free(out);
  free(geom);
  free(info);
  free(leaf_idx);
  free(cpu);
  free(cpu_ids);
  return status;
}

const BenchDesc bench_desc_octree = {
    .name = "octree",
    .summary =
        "octree partitioning: global task queue popped with atomics, shared-atomic octant counts, barriers",
    .papers = "BAWS",
    .suite = "II",
    .sizes = {"4096 Plummer particles", "262144 Plummer particles", "1048576 Plummer particles"},
    .run = octree_run,
};
