// cutcp.cu - Parboil-style CUTCP: the cutoff Coulombic potential on a 3D
// lattice, e(p) = sum over atoms within the cutoff of q / r * (1 - r^2 / c^2)^2.
// Atoms are sorted into cubic bins of 4 A holding up to 8 atoms (x, y, z, q; a
// zero charge ends a bin); the bin grid is padded with empty bins so every
// neighbour offset is valid. One CTA (8 x 2 x 8 threads) computes a region of
// 8 x 8 x 8 lattice points, each thread 4 points 2h apart in y; the host
// launches one grid of (regions_x, regions_y) per z layer of regions. The CTA
// walks the neighbour-offset list (constant memory) 32 bins at a time: each
// half-warp copies 4 bins to shared memory (two coalesced floats per thread),
// barrier, then every thread runs over the cached atoms, barrier.
#define CP_BIN_DEPTH 8
#define CP_BIN_FLOATS (4 * CP_BIN_DEPTH)
#define CP_CACHE_BINS 32
#define CP_NBR_MAX 1331 // 11^3 offsets

__constant__ int cp_nbr_len;
__constant__ int3 cp_nbr[CP_NBR_MAX];

extern "C" __global__ void cutcp_lattice(int bin_dim_x, int bin_dim_y, const float *__restrict__ bin_zero,
                                         float h, float cutoff2, float inv_cutoff2, float *__restrict__ regions,
                                         int zr)
{
  __shared__ float cache[CP_CACHE_BINS * CP_BIN_FLOATS];
  const int tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const int half = tid >> 4, lane = tid & 15;
  float *out = regions + ((zr * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x) * 512;
  const float x = (8 * blockIdx.x + threadIdx.x) * h;
  const float y = (8 * blockIdx.y + threadIdx.y) * h;
  const float z = (8 * zr + threadIdx.z) * h;
  // The bin holding the region's centre; neighbour offsets are relative to it.
  const int bx = (int)floorf((8 * blockIdx.x + 4) * h * 0.25f);
  const int by = (int)floorf((8 * blockIdx.y + 4) * h * 0.25f);
  const int bz = (int)floorf((8 * zr + 4) * h * 0.25f);
  float e0 = 0.0f, e1 = 0.0f, e2 = 0.0f, e3 = 0.0f;

  for (int base = 0; base < cp_nbr_len; base += CP_CACHE_BINS) {
    for (int b = 0; b < 4; b++) {
      const int slot = half + 8 * b;
      if (base + slot >= cp_nbr_len) break;
      const int3 o = cp_nbr[base + slot];
      const float *src = bin_zero + (((bz + o.z) * bin_dim_y + by + o.y) * bin_dim_x + bx + o.x) * CP_BIN_FLOATS;
      cache[slot * CP_BIN_FLOATS + lane] = src[lane];
      cache[slot * CP_BIN_FLOATS + lane + 16] = src[lane + 16];
    }
    __syncthreads();
    const int nbins = cp_nbr_len - base < CP_CACHE_BINS ? cp_nbr_len - base : CP_CACHE_BINS;
    for (int b = 0; b < nbins; b++) {
      for (int a = 0; a < CP_BIN_DEPTH; a++) {
        const float *atom = &cache[b * CP_BIN_FLOATS + 4 * a];
        const float q = atom[3];
        if (q == 0.0f) break; // end of this bin's atoms
        const float dx = atom[0] - x, dz = atom[2] - z;
        const float dxdz2 = dx * dx + dz * dz;
        float dy = atom[1] - y;
        float r2 = dy * dy + dxdz2;
        if (r2 < cutoff2) {
          const float s = 1.0f - r2 * inv_cutoff2;
          e0 += q * rsqrtf(r2) * s * s;
        }
        dy -= 2.0f * h;
        r2 = dy * dy + dxdz2;
        if (r2 < cutoff2) {
          const float s = 1.0f - r2 * inv_cutoff2;
          e1 += q * rsqrtf(r2) * s * s;
        }
        dy -= 2.0f * h;
        r2 = dy * dy + dxdz2;
        if (r2 < cutoff2) {
          const float s = 1.0f - r2 * inv_cutoff2;
          e2 += q * rsqrtf(r2) * s * s;
        }
        dy -= 2.0f * h;
        r2 = dy * dy + dxdz2;
        if (r2 < cutoff2) {
          const float s = 1.0f - r2 * inv_cutoff2;
          e3 += q * rsqrtf(r2) * s * s;
        }
      }
    }
    __syncthreads();
  }
  // Region layout: [z][y-step i][y][x], the point's y being threadIdx.y + 2 i.
  out[half * 64 + lane] = e0;
  out[half * 64 + lane + 16] = e1;
  out[half * 64 + lane + 32] = e2;
  out[half * 64 + lane + 48] = e3;
}
