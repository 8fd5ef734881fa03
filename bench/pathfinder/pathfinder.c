/* pathfinder.c - host driver of the pathfinder benchmark: random 0..9 weight
 * grid, launches pathfinder_step once per pyramid of rows (ping-pong result
 * buffers, as Rodinia does) and compares the last row of costs exactly with a
 * row-by-row CPU dynamic program. */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define PF_BLOCK 256
#define PF_HALO 1

typedef struct PfSize {
  int cols, rows, pyramid;
} PfSize;
static const PfSize pf_sizes[BENCH_NSIZES] = {{8192, 41, 20}, {20000, 100, 20}, {100000, 100, 20}};

static int pf_run(BenchRun *r) {
  const PfSize sz = pf_sizes[r->size];
  const int cols = sz.cols, rows = sz.rows, ph = sz.pyramid;
  const size_t ncells = (size_t)rows * cols;
  const int border = ph * PF_HALO;
  const int block_out = PF_BLOCK - 2 * ph * PF_HALO;
  const unsigned nblocks = (unsigned)((cols + block_out - 1) / block_out);
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  WsDevPtr d_wall = 0, d_res[2] = {0, 0};
  BenchRng g;
  bench_rng_seed(&g, r->seed);

  int *wall = malloc(sizeof(int) * ncells);
  int *got = malloc(sizeof(int) * cols);
  int *ref = malloc(sizeof(int) * cols);
  int *tmp = malloc(sizeof(int) * cols);
  if (!wall || !got || !ref || !tmp) {
    fprintf(r->log, "pathfinder: out of host memory\n");
    goto fail;
  }
  for (size_t i = 0; i < ncells; i++) wall[i] = (int)bench_rng_below(&g, 10);
  if (r->verbose > 0)
    fprintf(r->log, "pathfinder: %d cols x %d rows, pyramid height %d, %u CTAs per launch\n", cols, rows, ph,
            nblocks);

  if (bench_load_module(r, "pathfinder", "pathfinder.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "pathfinder_step"));
  /* Row 0 seeds the costs; the kernel reads the remaining rows from d_wall. */
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_wall, sizeof(int) * (ncells - cols)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_res[0], sizeof(int) * cols));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_res[1], sizeof(int) * cols));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_wall, wall + cols, sizeof(int) * (ncells - cols)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_res[0], wall, sizeof(int) * cols));

  int src = 0;
  for (int t = 0; t < rows - 1; t += ph) {
    int iters = rows - 1 - t < ph ? rows - 1 - t : ph;
    int cols_arg = cols, rows_arg = rows, start = t, border_arg = border;
    void *params[] = {&iters,    &d_wall,   &d_res[src], &d_res[src ^ 1],
                      &cols_arg, &rows_arg, &start,      &border_arg};
    BENCH_CK(r, ws_launch_kernel(fn, nblocks, 1, 1, PF_BLOCK, 1, 1, 0, params));
    src ^= 1;
  }
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got, d_res[src], sizeof(int) * cols));

  memcpy(ref, wall, sizeof(int) * cols);
  for (int y = 1; y < rows; y++) {
    for (int x = 0; x < cols; x++) {
      int best = ref[x];
      if (x > 0 && ref[x - 1] < best) best = ref[x - 1];
      if (x < cols - 1 && ref[x + 1] < best) best = ref[x + 1];
      tmp[x] = best + wall[(size_t)y * cols + x];
    }
    memcpy(ref, tmp, sizeof(int) * cols);
  }
  status = bench_check_i32(r, "path cost", got, ref, (size_t)cols) ? BENCH_MISMATCH : BENCH_PASS;

fail:
  if (d_wall) ws_mem_free(r->ctx, d_wall);
  if (d_res[0]) ws_mem_free(r->ctx, d_res[0]);
  if (d_res[1]) ws_mem_free(r->ctx, d_res[1]);
  if (mod) ws_module_unload(mod);
  free(wall);
  free(got);
  free(ref);
  free(tmp);
  return status;
}

const BenchDesc bench_desc_pathfinder = {
    .name = "pathfinder",
    .summary = "Rodinia pathfinder: pyramid DP, 256-thread CTAs advance 20 rows in shared memory with a "
               "barrier per row and a shrinking halo (control)",
    .papers = "CAWA, coordinated bypassing",
    .suite = "I",
    .sizes = {"8192 cols x 41 rows, pyramid 20", "20000 cols x 100 rows, pyramid 20",
              "100000 cols x 100 rows, pyramid 20"},
    .run = pf_run,
};
