// lud.cu - blocked right-looking LU decomposition without pivoting (the
// Rodinia lud algorithm), in place on a dim x dim row-major matrix, 16x16
// blocks staged in shared memory. For each block step at `offset`:
//   lud_diagonal  (1 CTA, 16 threads)   factors the diagonal block,
//   lud_perimeter (n CTAs, 32 threads)  solves the block row (U) and column (L),
//   lud_internal  (n x n CTAs, 16x16)   updates the trailing matrix.
#define LUD_BS 16

extern "C" __global__ void lud_diagonal(float *m, int dim, int offset) {
  __shared__ float s[LUD_BS][LUD_BS];
  int tx = threadIdx.x;
  float *a = m + offset * dim + offset;
  for (int i = 0; i < LUD_BS; i++) s[i][tx] = a[i * dim + tx];
  __syncthreads();
  for (int i = 0; i < LUD_BS - 1; i++) {
    if (tx > i) { // column i of L
      for (int j = 0; j < i; j++) s[tx][i] -= s[tx][j] * s[j][i];
      s[tx][i] /= s[i][i];
    }
    __syncthreads();
    if (tx > i) { // row i+1 of U
      for (int j = 0; j < i + 1; j++) s[i + 1][tx] -= s[i + 1][j] * s[j][tx];
    }
    __syncthreads();
  }
  for (int i = 1; i < LUD_BS; i++) a[i * dim + tx] = s[i][tx];
}

extern "C" __global__ void lud_perimeter(float *m, int dim, int offset) {
  __shared__ float dia[LUD_BS][LUD_BS];
  __shared__ float row[LUD_BS][LUD_BS];
  __shared__ float col[LUD_BS][LUD_BS];
  int tx = threadIdx.x;
  int blk = (blockIdx.x + 1) * LUD_BS; // block offset right of / below the diagonal block
  float *a = m + offset * dim + offset;

  if (tx < LUD_BS) { // upper half of the diagonal block and the block to its right
    int c = tx;
    for (int i = 0; i < LUD_BS / 2; i++) dia[i][c] = a[i * dim + c];
    for (int i = 0; i < LUD_BS; i++) row[i][c] = a[i * dim + blk + c];
  } else { // lower half of the diagonal block and the block below it
    int c = tx - LUD_BS;
    for (int i = LUD_BS / 2; i < LUD_BS; i++) dia[i][c] = a[i * dim + c];
    for (int i = 0; i < LUD_BS; i++) col[i][c] = a[(blk + i) * dim + c];
  }
  __syncthreads();

  if (tx < LUD_BS) { // column c of U: forward substitution with unit-lower L
    int c = tx;
    for (int i = 1; i < LUD_BS; i++)
      for (int j = 0; j < i; j++) row[i][c] -= dia[i][j] * row[j][c];
  } else { // row r of L: solve against upper U
    int r = tx - LUD_BS;
    for (int i = 0; i < LUD_BS; i++) {
      for (int j = 0; j < i; j++) col[r][i] -= col[r][j] * dia[j][i];
      col[r][i] /= dia[i][i];
    }
  }
  __syncthreads();

  if (tx < LUD_BS) {
    int c = tx;
    for (int i = 1; i < LUD_BS; i++) a[i * dim + blk + c] = row[i][c];
  } else {
    int c = tx - LUD_BS;
    for (int i = 0; i < LUD_BS; i++) a[(blk + i) * dim + c] = col[i][c];
  }
}

extern "C" __global__ void lud_internal(float *m, int dim, int offset) {
  __shared__ float prow[LUD_BS][LUD_BS];
  __shared__ float pcol[LUD_BS][LUD_BS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int r0 = offset + (blockIdx.y + 1) * LUD_BS;
  int c0 = offset + (blockIdx.x + 1) * LUD_BS;

  prow[ty][tx] = m[(offset + ty) * dim + c0 + tx];
  pcol[ty][tx] = m[(r0 + ty) * dim + offset + tx];
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k < LUD_BS; k++) sum += pcol[ty][k] * prow[k][tx];
  m[(r0 + ty) * dim + c0 + tx] -= sum;
}
