// sgemm.cu - Parboil-style register-tiled SGEMM, C = alpha * A * B^T + beta * C
// with column-major A (m x k, lda = m), B stored transposed (n x k, ldb = n) and
// C (m x n, ldc = m). A 16 x 8 CTA (128 threads) computes a 128 x 16 block of C:
// thread t owns row blockIdx.x * 128 + t and keeps its 16 results in registers.
// Per 8-deep slice of k the CTA stages an 8 x 16 tile of B in shared memory
// (one load per thread, coalesced), then each thread streams its own 8 values of
// A (coalesced across the CTA) and does 16 multiply-adds per value.
#define SG_TILE_N 16
#define SG_TILE_H 8
#define SG_TILE_M (SG_TILE_N * SG_TILE_H)

extern "C" __global__ void sgemm_nt(const float *__restrict__ A, int lda, const float *__restrict__ B,
                                    int ldb, float *__restrict__ C, int ldc, int k, float alpha,
                                    float beta)
{
  __shared__ float b_tile[SG_TILE_H][SG_TILE_N];
  float acc[SG_TILE_N];
#pragma unroll
  for (int c = 0; c < SG_TILE_N; c++) acc[c] = 0.0f;
  const int row = blockIdx.x * SG_TILE_M + threadIdx.y * SG_TILE_N + threadIdx.x;
  const int col0 = blockIdx.y * SG_TILE_N;

  for (int kk = 0; kk < k; kk += SG_TILE_H) {
    b_tile[threadIdx.y][threadIdx.x] = B[col0 + threadIdx.x + (kk + threadIdx.y) * ldb];
    __syncthreads();
#pragma unroll
    for (int h = 0; h < SG_TILE_H; h++) {
      const float a = A[row + (kk + h) * lda];
#pragma unroll
      for (int c = 0; c < SG_TILE_N; c++) acc[c] += a * b_tile[h][c];
    }
    __syncthreads();
  }
#pragma unroll
  for (int c = 0; c < SG_TILE_N; c++) {
    float *p = &C[row + (col0 + c) * ldc];
    *p = *p * beta + alpha * acc[c];
  }
}
