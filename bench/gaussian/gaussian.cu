// gaussian.cu - Rodinia-style Gaussian elimination without pivoting, one
// column t per pair of launches. gaussian_fan1 computes the multipliers of
// column t, m[i][t] = a[i][t] / a[t][t] for the rows i below t (one thread per
// row, 512-thread CTAs); gaussian_fan2 updates the trailing submatrix
// a[i][j] -= m[i][t] * a[t][j] and the right-hand side b (4 x 4 CTAs, x = row,
// y = column, so a warp's 32 threads span 8 CTAs' worth of rows: the stores and
// the m loads are strided by the row length, as in the original).
extern "C" __global__ void gaussian_fan1(float *__restrict__ m, const float *__restrict__ a, int n, int t)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x; // row below the pivot, minus 1
  if (i >= n - 1 - t) return;
  const int row = i + t + 1;
  m[row * n + t] = a[row * n + t] / a[t * n + t];
}

extern "C" __global__ void gaussian_fan2(const float *__restrict__ m, float *__restrict__ a,
                                         float *__restrict__ b, int n, int t)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x; // row below the pivot, minus 1
  const int j = blockIdx.y * blockDim.y + threadIdx.y; // column from the pivot on
  if (i >= n - 1 - t || j >= n - t) return;
  const int row = i + t + 1, c = j + t;
  const float mult = m[row * n + t];
  a[row * n + c] -= mult * a[t * n + c];
  if (j == 0) b[row] -= mult * b[t];
}
