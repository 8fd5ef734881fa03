// stencil.cu - Parboil-style 7-point 3-D Jacobi stencil with 2.5-D blocking: a
// 32 x 4 CTA owns a 64 x 4 column of the x-y plane (two points per thread) and
// marches along z with the planes below/above in registers and the current
// plane in shared memory (tile-edge neighbours from global memory); two
// barriers per plane.
#define ST_TX 32
#define ST_TY 4

#define ST_IDX(x, y, z) ((x) + nx * ((y) + ny * (z)))

// Grid (ceil(nx / 64), ceil(ny / 4)), block (32, 4).
extern "C" __global__ void stencil_kernel(float c0, float c1, const float *__restrict__ a0,
                                          float *__restrict__ anext, int nx, int ny, int nz)
{
  __shared__ float s_cur[ST_TY][2 * ST_TX];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.x * 2 * ST_TX + tx; // first point
  const int i2 = i + ST_TX;                  // second point
  const int j = blockIdx.y * ST_TY + ty;
  const bool in1 = i < nx && j < ny;
  const bool in2 = i2 < nx && j < ny;
  const bool inner1 = i > 0 && j > 0 && i < nx - 1 && j < ny - 1;
  const bool inner2 = i2 > 0 && j > 0 && i2 < nx - 1 && j < ny - 1;
  const bool x_lo = tx == 0, x_hi = tx == ST_TX - 1; // x_hi: edge for the second point
  const bool y_lo = ty == 0, y_hi = ty == ST_TY - 1;

  s_cur[ty][tx] = 0.0f;
  s_cur[ty][tx + ST_TX] = 0.0f;
  __syncthreads();
  float below = 0.0f, below2 = 0.0f, above = 0.0f, above2 = 0.0f;
  if (in1) {
    below = a0[ST_IDX(i, j, 0)];
    s_cur[ty][tx] = a0[ST_IDX(i, j, 1)];
  }
  if (in2) {
    below2 = a0[ST_IDX(i2, j, 0)];
    s_cur[ty][tx + ST_TX] = a0[ST_IDX(i2, j, 1)];
  }
  __syncthreads();
  for (int k = 1; k < nz - 1; k++) {
    if (in1) above = a0[ST_IDX(i, j, k + 1)];
    if (in2) above2 = a0[ST_IDX(i2, j, k + 1)];
    if (inner1) {
      const float up = y_hi ? a0[ST_IDX(i, j + 1, k)] : s_cur[ty + 1][tx];
      const float down = y_lo ? a0[ST_IDX(i, j - 1, k)] : s_cur[ty - 1][tx];
      const float left = x_lo ? a0[ST_IDX(i - 1, j, k)] : s_cur[ty][tx - 1];
      const float right = s_cur[ty][tx + 1];
      anext[ST_IDX(i, j, k)] = (above + below + up + down + right + left) * c1 - s_cur[ty][tx] * c0;
    }
    if (inner2) {
      const float up = y_hi ? a0[ST_IDX(i2, j + 1, k)] : s_cur[ty + 1][tx + ST_TX];
      const float down = y_lo ? a0[ST_IDX(i2, j - 1, k)] : s_cur[ty - 1][tx + ST_TX];
      const float left = s_cur[ty][tx + ST_TX - 1];
      const float right = x_hi ? a0[ST_IDX(i2 + 1, j, k)] : s_cur[ty][tx + ST_TX + 1];
      anext[ST_IDX(i2, j, k)] =
          (above2 + below2 + up + down + right + left) * c1 - s_cur[ty][tx + ST_TX] * c0;
    }
    __syncthreads();
    below = s_cur[ty][tx];
    s_cur[ty][tx] = above;
    below2 = s_cur[ty][tx + ST_TX];
    s_cur[ty][tx + ST_TX] = above2;
    __syncthreads();
  }
}
