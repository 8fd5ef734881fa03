// mri_q.cu - Parboil-style MRI-Q: the Q matrix of non-Cartesian MRI
// reconstruction, Q(x) = sum_k |phi(k)|^2 * exp(i 2 pi k . x), for every voxel x.
// mriq_phimag squares the trajectory's phi values (512-thread CTAs);
// mriq_compute (256-thread CTAs, one voxel per thread) is launched once per
// chunk of 1024 k-space samples staged in constant memory, reads its voxel's
// coordinates and running Q once, accumulates the chunk with sinf/cosf (two
// samples per trip, an odd first sample peeled) and writes Q back.
#define MQ_CHUNK 1024

struct MqSample { float kx, ky, kz, phi_mag; };
__constant__ MqSample mq_k[MQ_CHUNK];

extern "C" __global__ void mriq_phimag(const float *__restrict__ phi_r, const float *__restrict__ phi_i,
                                       float *__restrict__ phi_mag, int num_k)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < num_k) {
    const float r = phi_r[i], im = phi_i[i];
    phi_mag[i] = r * r + im * im;
  }
}

extern "C" __global__ void mriq_compute(int chunk_len, const float *__restrict__ x, const float *__restrict__ y,
                                        const float *__restrict__ z, float *__restrict__ q_r,
                                        float *__restrict__ q_i)
{
  const float two_pi = 6.2831853071795864769f;
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  const float vx = x[v], vy = y[v], vz = z[v];
  float qr = q_r[v], qi = q_i[v];
  int s = 0;
  if (chunk_len & 1) {
    const float arg = two_pi * (mq_k[0].kx * vx + mq_k[0].ky * vy + mq_k[0].kz * vz);
    qr += mq_k[0].phi_mag * cosf(arg);
    qi += mq_k[0].phi_mag * sinf(arg);
    s = 1;
  }
  for (; s < chunk_len; s += 2) {
    const float a0 = two_pi * (mq_k[s].kx * vx + mq_k[s].ky * vy + mq_k[s].kz * vz);
    const float a1 = two_pi * (mq_k[s + 1].kx * vx + mq_k[s + 1].ky * vy + mq_k[s + 1].kz * vz);
    qr += mq_k[s].phi_mag * cosf(a0);
    qi += mq_k[s].phi_mag * sinf(a0);
    qr += mq_k[s + 1].phi_mag * cosf(a1);
    qi += mq_k[s + 1].phi_mag * sinf(a1);
  }
  q_r[v] = qr;
  q_i[v] = qi;
}
