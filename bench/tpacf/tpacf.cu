// tpacf.cu - Parboil-style two-point angular correlation: one 256-thread CTA
// per histogram (DD, RR_i, DR_i); each thread owns a point, partners are staged
// through shared memory in 256-point tiles, the dot product is binned by binary
// search over constant-memory bin edges into per-warp shared sub-histograms
// (shared atomics), summed per CTA at the end.
#define TP_BLOCK 256
#define TP_WARPS (TP_BLOCK / 32)
#define TP_EDGES 21            // bin edges
#define TP_SLOTS (TP_EDGES + 1) // slot k: edges[k] < dot <= edges[k-1]

__constant__ float tp_edges[TP_EDGES];

// Number of edges >= dot (edges are descending).
static __device__ __forceinline__ int tp_slot(float dot)
{
  int lo = 0, hi = TP_EDGES;
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (tp_edges[mid] >= dot) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Points: coordinate arrays of (nsets + 1) sets of npoints each; set 0 is the
// data, sets 1..nsets the random catalogues. hists: (2 * nsets + 1) x TP_SLOTS.
extern "C" __global__ void tpacf_kernel(unsigned *__restrict__ hists, const float *__restrict__ px,
                                        const float *__restrict__ py, const float *__restrict__ pz,
                                        int npoints, int nsets)
{
  __shared__ float s_x[TP_BLOCK], s_y[TP_BLOCK], s_z[TP_BLOCK];
  __shared__ unsigned s_hist[TP_WARPS][TP_SLOTS];
  const int t = threadIdx.x, warp = t >> 5;
  for (int s = t; s < TP_WARPS * TP_SLOTS; s += TP_BLOCK) (&s_hist[0][0])[s] = 0;

  int set1, set2;
  if (blockIdx.x == 0) {
    set1 = set2 = 0; // DD
  } else if (blockIdx.x <= nsets) {
    set1 = set2 = blockIdx.x; // RR
  } else {
    set1 = 0; // DR
    set2 = blockIdx.x - nsets;
  }
  const bool autocorr = set1 == set2;
  const float *x1 = px + set1 * npoints, *y1 = py + set1 * npoints, *z1 = pz + set1 * npoints;
  const float *x2 = px + set2 * npoints, *y2 = py + set2 * npoints, *z2 = pz + set2 * npoints;

  for (int i0 = 0; i0 < npoints; i0 += TP_BLOCK) {
    const int i = i0 + t;
    float xi = 0.0f, yi = 0.0f, zi = 0.0f;
    if (i < npoints) {
      xi = x1[i];
      yi = y1[i];
      zi = z1[i];
    }
    for (int j0 = autocorr ? i0 : 0; j0 < npoints; j0 += TP_BLOCK) {
      __syncthreads();
      if (j0 + t < npoints) {
        s_x[t] = x2[j0 + t];
        s_y[t] = y2[j0 + t];
        s_z[t] = z2[j0 + t];
      }
      __syncthreads();
      if (i < npoints) {
        const int jn = min(TP_BLOCK, npoints - j0);
        // Autocorrelation counts each pair once: partners j > i only.
        for (int jj = autocorr && j0 == i0 ? t + 1 : 0; jj < jn; jj++) {
          const float dot = fmaf(zi, s_z[jj], fmaf(yi, s_y[jj], xi * s_x[jj]));
          atomicAdd(&s_hist[warp][tp_slot(dot)], 1u);
        }
      }
    }
  }
  __syncthreads();
  for (int s = t; s < TP_SLOTS; s += TP_BLOCK) {
    unsigned sum = 0;
    for (int w = 0; w < TP_WARPS; w++) sum += s_hist[w][s];
    hists[blockIdx.x * TP_SLOTS + s] = sum;
  }
}
