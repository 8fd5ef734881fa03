/* spmv.c - host driver of the spmv benchmark (Parboil SpMV, JDS format):
 * a seeded sparse matrix shaped like Parboil's finite-element inputs (a band
 * around the diagonal plus a few far entries, avg +- avg/4 nonzeros per row),
 * converted to JDS with slices of 32 rows (Parboil's pad), the diagonal starts
 * and slice lengths copied to constant memory, 192-thread CTAs (the block size
 * Parboil's compute_active_thread picks on compute 2.x). The kernel is launched
 * `reps` times, as Parboil repeats it; y is checked against a CSR product on
 * the CPU in double. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SPMV_SLICE 32
#define SPMV_CTA 192
#define SPMV_MAX_DIAGS 5000
#define SPMV_MAX_SLICES 5000

typedef struct SpmvSize {
  int rows, avg_nnz, band, reps;
} SpmvSize;

/* paper: the size of Parboil's large input (Dubcova3: 146,689 rows, ~3.6M nonzeros). */
static const SpmvSize spmv_sizes[BENCH_NSIZES] = {
    {16384, 12, 256, 1}, {131072, 20, 2048, 2}, {146689, 24, 4096, 2}};

static int spmv_run(BenchRun *r) {
  const SpmvSize sz = spmv_sizes[r->size];
  const int n = sz.rows, slices = (n + SPMV_SLICE - 1) / SPMV_SLICE, padded = slices * SPMV_SLICE;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  WsDevPtr d_y = 0, d_val = 0, d_col = 0, d_perm = 0, d_x = 0, c_ptr = 0;
  size_t c_bytes = 0;
  int *row_ptr = malloc((size_t)(n + 1) * sizeof *row_ptr), *perm = malloc((size_t)padded * sizeof *perm);
  int *cnt = calloc((size_t)(2 * sz.avg_nnz + 2), sizeof *cnt),
      *slice_len = calloc(SPMV_MAX_SLICES, sizeof(int));
  int *diag_start = calloc(SPMV_MAX_DIAGS + 1, sizeof(int));
  int *col = NULL, *jcol = NULL;
  float *val = NULL, *jval = NULL, *x = malloc((size_t)n * sizeof *x), *got = malloc((size_t)n * sizeof *got);
  float *want = malloc((size_t)n * sizeof *want);
  if (!row_ptr || !perm || !cnt || !slice_len || !diag_start || !x || !got || !want) goto oom;
  if (slices > SPMV_MAX_SLICES) {
    fprintf(r->log, "spmv: %d slices exceed the constant table\n", slices);
    goto fail;
  }
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  /* Row lengths avg +- avg/4 (finite-element matrices have nearly equal rows, so the sort by
   * length keeps nearby rows nearby); entries: 90% in a band around the diagonal, 10% anywhere. */
  const int spread = sz.avg_nnz / 4, maxlen = sz.avg_nnz + spread;
  row_ptr[0] = 0;
  for (int i = 0; i < n; i++)
    row_ptr[i + 1] = row_ptr[i] + sz.avg_nnz - spread + (int)bench_rng_below(&g, (uint32_t)(2 * spread + 1));
  const size_t nnz = (size_t)row_ptr[n];
  col = malloc(nnz * sizeof *col);
  val = malloc(nnz * sizeof *val);
  if (!col || !val) goto oom;
  for (int i = 0; i < n; i++)
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++) {
      int c;
      if (bench_rng_below(&g, 10) == 0)
        c = (int)bench_rng_below(&g, (uint32_t)n);
      else {
        c = i - sz.band / 2 + (int)bench_rng_below(&g, (uint32_t)sz.band);
        c = c < 0 ? -c : (c >= n ? 2 * (n - 1) - c : c);
      }
      col[k] = c;
      val[k] = bench_rng_range(&g, -1.0f, 1.0f);
    }
  for (int i = 0; i < n; i++) x[i] = bench_rng_range(&g, -1.0f, 1.0f);

  /* JDS: stable sort of the rows by length, longest first (counting sort). */
  for (int i = 0; i < n; i++) cnt[row_ptr[i + 1] - row_ptr[i]]++;
  for (int len = maxlen, start = 0; len >= 0; len--) {
    const int c = cnt[len];
    cnt[len] = start;
    start += c;
  }
  for (int i = 0; i < n; i++) perm[cnt[row_ptr[i + 1] - row_ptr[i]]++] = i;
  for (int i = n; i < padded; i++) perm[i] = 0; /* padding rows are never stored (row >= rows) */
  for (int s = 0; s < slices; s++)
    slice_len[s] = row_ptr[perm[s * SPMV_SLICE] + 1] - row_ptr[perm[s * SPMV_SLICE]];
  /* Diagonal d: 32 entries for each slice longer than d (a prefix of the slices). */
  const int ndiag = slice_len[0];
  if (ndiag > SPMV_MAX_DIAGS) {
    fprintf(r->log, "spmv: %d diagonals exceed the constant table\n", ndiag);
    goto fail;
  }
  for (int d = 0, s = slices; d < ndiag; d++) {
    while (s > 0 && slice_len[s - 1] <= d) s--;
    diag_start[d + 1] = diag_start[d] + s * SPMV_SLICE;
  }
  const size_t jn = (size_t)diag_start[ndiag];
  jval = calloc(jn, sizeof *jval);
  jcol = calloc(jn, sizeof *jcol);
  if (!jval || !jcol) goto oom;
  for (int rr = 0; rr < n; rr++) {
    const int i = perm[rr];
    for (int d = 0; d < row_ptr[i + 1] - row_ptr[i]; d++) {
      jval[(size_t)diag_start[d] + rr] = val[row_ptr[i] + d];
      jcol[(size_t)diag_start[d] + rr] = col[row_ptr[i] + d];
    }
  }
  if (r->verbose > 0)
    fprintf(r->log, "spmv: %d rows, %zu nonzeros, %d diagonals, %zu JDS entries, %d launches\n", n, nnz,
            ndiag, jn, sz.reps);

  if (bench_load_module(r, "spmv", "spmv.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "spmv_jds"));
  BENCH_CK(r, ws_module_get_global(&c_ptr, &c_bytes, mod, "spmv_diag_start"));
  if (c_bytes != SPMV_MAX_DIAGS * sizeof(int)) {
    fprintf(r->log, "spmv: spmv_diag_start has %zu bytes\n", c_bytes);
    goto fail;
  }
  BENCH_CK(r, ws_memcpy_htod(r->ctx, c_ptr, diag_start, c_bytes));
  BENCH_CK(r, ws_module_get_global(&c_ptr, &c_bytes, mod, "spmv_slice_len"));
  if (c_bytes != SPMV_MAX_SLICES * sizeof(int)) {
    fprintf(r->log, "spmv: spmv_slice_len has %zu bytes\n", c_bytes);
    goto fail;
  }
  BENCH_CK(r, ws_memcpy_htod(r->ctx, c_ptr, slice_len, c_bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_y, (size_t)n * sizeof(float)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_val, jn * sizeof(float)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_col, jn * sizeof(int)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_perm, (size_t)padded * sizeof(int)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_x, (size_t)n * sizeof(float)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_val, jval, jn * sizeof(float)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_col, jcol, jn * sizeof(int)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_perm, perm, (size_t)padded * sizeof(int)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_x, x, (size_t)n * sizeof(float)));
  int rows = n;
  void *params[] = {&d_y, &d_val, &d_col, &d_perm, &d_x, &rows};
  for (int it = 0; it < sz.reps; it++)
    BENCH_CK(
        r, ws_launch_kernel(fn, (unsigned)((n + SPMV_CTA - 1) / SPMV_CTA), 1, 1, SPMV_CTA, 1, 1, 0, params));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got, d_y, (size_t)n * sizeof(float)));

  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++) s += (double)val[k] * x[col[k]];
    want[i] = (float)s;
  }
  /* A row sums up to 2*avg float products of magnitude < 1 in a different order (and with
   * FMAs): error ~ len * eps, absolute, since the sum can cancel to near zero. */
  status = bench_check_f32(r, "y", got, want, (size_t)n, 1e-5, 2e-6 * maxlen) ? BENCH_MISMATCH : BENCH_PASS;
  goto fail;
oom:
  fprintf(r->log, "spmv: out of host memory\n");
fail:
  if (d_y) ws_mem_free(r->ctx, d_y);
  if (d_val) ws_mem_free(r->ctx, d_val);
  if (d_col) ws_mem_free(r->ctx, d_col);
  if (d_perm) ws_mem_free(r->ctx, d_perm);
  if (d_x) ws_mem_free(r->ctx, d_x);
  if (mod) ws_module_unload(mod);
  free(row_ptr);
  free(perm);
  free(cnt);
  free(slice_len);
  free(diag_start);
  free(col);
  free(jcol);
  free(val);
  free(jval);
  free(x);
  free(got);
  free(want);
  return status;
}

const BenchDesc bench_desc_spmv = {
    .name = "spmv",
    .summary = "Parboil SpMV in JDS format: coalesced diagonal loads, gathered x loads whose reuse "
               "between nearby rows makes it cache-sensitive",
    .papers = "coordinated bypassing",
    .suite = "II",
    .sizes = {"16384 rows, ~12 nonzeros/row, 1 launch", "131072 rows, ~20 nonzeros/row, 2 launches",
              "146689 rows, ~24 nonzeros/row (Parboil large's shape), 2 launches"},
    .run = spmv_run,
};
