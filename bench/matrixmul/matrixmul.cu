// matrixmul.cu - CUDA SDK-style tiled matrix multiply C = A * B (row-major).
// Each CTA computes one TILE x TILE block of C; per step along the shared
// dimension it stages one tile of A and one of B in shared memory, with a
// barrier after the loads and one after the multiply-accumulate.
// matrixmul_32: 32 x 32 tiles (1024 threads); matrixmul_16: 16 x 16 tiles.

template <int TILE>
static __device__ __forceinline__ void matrixmul_tile(float *__restrict__ c, const float *__restrict__ a,
                                                      const float *__restrict__ b, int wa, int wb)
{
  __shared__ float s_a[TILE][TILE];
  __shared__ float s_b[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  // Row block of A and column block of B this CTA walks along.
  const int a_first = wa * TILE * blockIdx.y;
  const int a_last = a_first + wa - 1;
  const int b_first = TILE * blockIdx.x;
  float sum = 0.0f;
  for (int ai = a_first, bi = b_first; ai <= a_last; ai += TILE, bi += TILE * wb) {
    s_a[ty][tx] = a[ai + wa * ty + tx];
    s_b[ty][tx] = b[bi + wb * ty + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; k++) sum += s_a[ty][k] * s_b[k][tx];
    __syncthreads();
  }
  c[wb * TILE * blockIdx.y + TILE * blockIdx.x + wb * ty + tx] = sum;
}

// Grid (wb / 32, ha / 32), block (32, 32). At most 32 registers per thread so that
// a 1024-thread CTA fits the 32768 registers of a Fermi SM (as the SDK's build does);
// unconstrained, ptxas uses 44 and no CTA could be resident.
extern "C" __global__ void __maxnreg__(32) matrixmul_32(float *__restrict__ c, const float *__restrict__ a,
                                        const float *__restrict__ b, int wa, int wb)
{
  matrixmul_tile<32>(c, a, b, wa, wb);
}

// Grid (wb / 16, ha / 16), block (16, 16).
extern "C" __global__ void matrixmul_16(float *__restrict__ c, const float *__restrict__ a,
                                        const float *__restrict__ b, int wa, int wb)
{
  matrixmul_tile<16>(c, a, b, wa, wb);
}
