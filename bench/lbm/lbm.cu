// lbm.cu - Parboil-style LBM: one time step of a D3Q19 lattice-Boltzmann fluid
// (BGK collision, then "push" streaming) per launch. One thread per cell: a CTA
// is one x row (size_x threads), the grid is size_y x size_z. The grid is a
// structure of arrays: field e (19 distributions, then the cell's flags as a
// float's bits) of padded cell c at e * total + c, with the x rows padded, one
// padding row per z plane and two margin planes before and after, so that the
// pushes out of the domain land in padding, never on another cell. The thread
// loads its 19 values and flags (coalesced along x), collides (or bounces back
// on an obstacle; accelerated cells get a fixed inflow velocity) and stores
// each new value into the neighbour it streams to (coalesced, shifted by +-1).
#define LBM_Q 19
#define LBM_FLAGS 19
#define LBM_OBSTACLE 1
#define LBM_ACCEL 2
#define LBM_OMEGA 1.95f

// Directions C, N, S, E, W, T, B, NE, NW, SE, SW, NT, NB, ST, SB, ET, EB, WT, WB
// (N = +y, E = +x, T = +z), Parboil's order; weights 1/3, 1/18 (axes), 1/36.
#define LBM_DX {0, 0, 0, 1, -1, 0, 0, 1, -1, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1}
#define LBM_DY {0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1, 0, 0, 0, 0}
#define LBM_DZ {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1}
#define LBM_OPP {0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15}

extern "C" __global__ void lbm_stream_collide(const float *__restrict__ src, float *__restrict__ dst, int pitch_x,
                                              int pitch_y, int total)
{
  const int dx[LBM_Q] = LBM_DX, dy[LBM_Q] = LBM_DY, dz[LBM_Q] = LBM_DZ, opp[LBM_Q] = LBM_OPP;
  const int plane = pitch_x * pitch_y;
  const int c = (blockIdx.y + 2) * plane + blockIdx.x * pitch_x + threadIdx.x;
  float f[LBM_Q], out[LBM_Q];
#pragma unroll
  for (int e = 0; e < LBM_Q; e++) f[e] = src[e * total + c];
  const int flags = __float_as_int(src[LBM_FLAGS * total + c]);

  if (flags & LBM_OBSTACLE) {
#pragma unroll
    for (int e = 0; e < LBM_Q; e++) out[e] = f[opp[e]]; // bounce back
  } else {
    float rho = 0.0f, ux = 0.0f, uy = 0.0f, uz = 0.0f;
#pragma unroll
    for (int e = 0; e < LBM_Q; e++) {
      rho += f[e];
      ux += dx[e] * f[e];
      uy += dy[e] * f[e];
      uz += dz[e] * f[e];
    }
    ux /= rho;
    uy /= rho;
    uz /= rho;
    if (flags & LBM_ACCEL) {
      ux = 0.005f;
      uy = 0.002f;
      uz = 0.0f;
    }
    const float u2 = 1.5f * (ux * ux + uy * uy + uz * uz);
#pragma unroll
    for (int e = 0; e < LBM_Q; e++) {
      const float w = e == 0 ? 1.0f / 3.0f : (e < 7 ? 1.0f / 18.0f : 1.0f / 36.0f);
      const float cu = dx[e] * ux + dy[e] * uy + dz[e] * uz;
      out[e] = (1.0f - LBM_OMEGA) * f[e] + LBM_OMEGA * w * rho * (1.0f + cu * (4.5f * cu + 3.0f) - u2);
    }
  }
#pragma unroll
  for (int e = 0; e < LBM_Q; e++) dst[e * total + c + dz[e] * plane + dy[e] * pitch_x + dx[e]] = out[e];
}
