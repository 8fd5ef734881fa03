// cfd.cu - finite-volume Euler solver on an unstructured grid (the Rodinia cfd
// algorithm, after Corrigan et al. AIAA-2009-4001): per-element step factor,
// flux through the 4 faces of each element with indirect neighbour gathers,
// and the Runge-Kutta update. One thread per element, 192 threads per CTA;
// arrays are structure-of-arrays with stride nelr (elements padded to 192).
#define CFD_NNB 4
#define CFD_NDIM 3
#define CFD_NVAR 5
#define CFD_DENSITY 0
#define CFD_MOMENTUM 1
#define CFD_ENERGY 4
#define CFD_GAMMA 1.4f
#define CFD_SMOOTHING 0.2f
#define CFD_RK 3

// Free-stream state and its flux contributions (set by the host).
__constant__ float cfd_ff_variable[CFD_NVAR];
__constant__ float cfd_ff_flux[12]; // momentum x (3), momentum y (3), momentum z (3), energy (3)

struct CfdVec { float x, y, z; };

__device__ static inline float cfd_pressure(float density, float energy, float speed_sqd) {
  return (CFD_GAMMA - 1.0f) * (energy - 0.5f * density * speed_sqd);
}

__device__ static inline float cfd_speed_of_sound(float density, float pressure) {
  return sqrtf(CFD_GAMMA * pressure / density);
}

// Flux contributions of a state: rows of the momentum flux tensor and energy flux.
__device__ static inline void cfd_flux_contribution(float density, CfdVec m, float energy, CfdVec v,
                                                    float pressure, CfdVec &fx, CfdVec &fy, CfdVec &fz,
                                                    CfdVec &fe) {
  fx.x = m.x * v.x + pressure;
  fx.y = m.x * v.y;
  fx.z = m.x * v.z;
  fy.x = fx.y;
  fy.y = m.y * v.y + pressure;
  fy.z = m.y * v.z;
  fz.x = fx.z;
  fz.y = fy.z;
  fz.z = m.z * v.z + pressure;
  float ep = energy + pressure;
  fe.x = v.x * ep;
  fe.y = v.y * ep;
  fe.z = v.z * ep;
}

extern "C" __global__ void cfd_compute_step_factor(int nelr, const float *variables, const float *areas,
                                                   float *step_factors) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  float density = variables[i + CFD_DENSITY * nelr];
  CfdVec m;
  m.x = variables[i + (CFD_MOMENTUM + 0) * nelr];
  m.y = variables[i + (CFD_MOMENTUM + 1) * nelr];
  m.z = variables[i + (CFD_MOMENTUM + 2) * nelr];
  float energy = variables[i + CFD_ENERGY * nelr];
  CfdVec v = {m.x / density, m.y / density, m.z / density};
  float speed_sqd = v.x * v.x + v.y * v.y + v.z * v.z;
  float pressure = cfd_pressure(density, energy, speed_sqd);
  float c = cfd_speed_of_sound(density, pressure);
  step_factors[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(speed_sqd) + c));
}

extern "C" __global__ void cfd_compute_flux(int nelr, const int *neighbours, const float *normals,
                                            const float *variables, float *fluxes) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  float density_i = variables[i + CFD_DENSITY * nelr];
  CfdVec m_i;
  m_i.x = variables[i + (CFD_MOMENTUM + 0) * nelr];
  m_i.y = variables[i + (CFD_MOMENTUM + 1) * nelr];
  m_i.z = variables[i + (CFD_MOMENTUM + 2) * nelr];
  float energy_i = variables[i + CFD_ENERGY * nelr];
  CfdVec v_i = {m_i.x / density_i, m_i.y / density_i, m_i.z / density_i};
  float speed_sqd_i = v_i.x * v_i.x + v_i.y * v_i.y + v_i.z * v_i.z;
  float speed_i = sqrtf(speed_sqd_i);
  float pressure_i = cfd_pressure(density_i, energy_i, speed_sqd_i);
  float c_i = cfd_speed_of_sound(density_i, pressure_i);
  CfdVec fx_i, fy_i, fz_i, fe_i;
  cfd_flux_contribution(density_i, m_i, energy_i, v_i, pressure_i, fx_i, fy_i, fz_i, fe_i);

  float flux_density = 0.0f, flux_energy = 0.0f;
  CfdVec flux_m = {0.0f, 0.0f, 0.0f};
  for (int j = 0; j < CFD_NNB; j++) {
    int nb = neighbours[i + j * nelr];
    CfdVec n;
    n.x = normals[i + (j + 0 * CFD_NNB) * nelr];
    n.y = normals[i + (j + 1 * CFD_NNB) * nelr];
    n.z = normals[i + (j + 2 * CFD_NNB) * nelr];
    float n_len = sqrtf(n.x * n.x + n.y * n.y + n.z * n.z);
    if (nb >= 0) { // interior face: gather the neighbour's state
      float density_nb = variables[nb + CFD_DENSITY * nelr];
      CfdVec m_nb;
      m_nb.x = variables[nb + (CFD_MOMENTUM + 0) * nelr];
      m_nb.y = variables[nb + (CFD_MOMENTUM + 1) * nelr];
      m_nb.z = variables[nb + (CFD_MOMENTUM + 2) * nelr];
      float energy_nb = variables[nb + CFD_ENERGY * nelr];
      CfdVec v_nb = {m_nb.x / density_nb, m_nb.y / density_nb, m_nb.z / density_nb};
      float speed_sqd_nb = v_nb.x * v_nb.x + v_nb.y * v_nb.y + v_nb.z * v_nb.z;
      float pressure_nb = cfd_pressure(density_nb, energy_nb, speed_sqd_nb);
      float c_nb = cfd_speed_of_sound(density_nb, pressure_nb);
      CfdVec fx_nb, fy_nb, fz_nb, fe_nb;
      cfd_flux_contribution(density_nb, m_nb, energy_nb, v_nb, pressure_nb, fx_nb, fy_nb, fz_nb, fe_nb);

      // Artificial dissipation.
      float f = -n_len * CFD_SMOOTHING * 0.5f * (speed_i + sqrtf(speed_sqd_nb) + c_i + c_nb);
      flux_density += f * (density_i - density_nb);
      flux_energy += f * (energy_i - energy_nb);
      flux_m.x += f * (m_i.x - m_nb.x);
      flux_m.y += f * (m_i.y - m_nb.y);
      flux_m.z += f * (m_i.z - m_nb.z);
      // Central flux, one normal component at a time.
      f = 0.5f * n.x;
      flux_density += f * (m_nb.x + m_i.x);
      flux_energy += f * (fe_nb.x + fe_i.x);
      flux_m.x += f * (fx_nb.x + fx_i.x);
      flux_m.y += f * (fy_nb.x + fy_i.x);
      flux_m.z += f * (fz_nb.x + fz_i.x);
      f = 0.5f * n.y;
      flux_density += f * (m_nb.y + m_i.y);
      flux_energy += f * (fe_nb.y + fe_i.y);
      flux_m.x += f * (fx_nb.y + fx_i.y);
      flux_m.y += f * (fy_nb.y + fy_i.y);
      flux_m.z += f * (fz_nb.y + fz_i.y);
      f = 0.5f * n.z;
      flux_density += f * (m_nb.z + m_i.z);
      flux_energy += f * (fe_nb.z + fe_i.z);
      flux_m.x += f * (fx_nb.z + fx_i.z);
      flux_m.y += f * (fy_nb.z + fy_i.z);
      flux_m.z += f * (fz_nb.z + fz_i.z);
    } else if (nb == -1) { // wall (wing surface): pressure only
      flux_m.x += n.x * pressure_i;
      flux_m.y += n.y * pressure_i;
      flux_m.z += n.z * pressure_i;
    } else if (nb == -2) { // far field: free-stream state from constant memory
      float f = 0.5f * n.x;
      flux_density += f * (cfd_ff_variable[CFD_MOMENTUM + 0] + m_i.x);
      flux_energy += f * (cfd_ff_flux[9] + fe_i.x);
      flux_m.x += f * (cfd_ff_flux[0] + fx_i.x);
      flux_m.y += f * (cfd_ff_flux[3] + fy_i.x);
      flux_m.z += f * (cfd_ff_flux[6] + fz_i.x);
      f = 0.5f * n.y;
      flux_density += f * (cfd_ff_variable[CFD_MOMENTUM + 1] + m_i.y);
      flux_energy += f * (cfd_ff_flux[10] + fe_i.y);
      flux_m.x += f * (cfd_ff_flux[1] + fx_i.y);
      flux_m.y += f * (cfd_ff_flux[4] + fy_i.y);
      flux_m.z += f * (cfd_ff_flux[7] + fz_i.y);
      f = 0.5f * n.z;
      flux_density += f * (cfd_ff_variable[CFD_MOMENTUM + 2] + m_i.z);
      flux_energy += f * (cfd_ff_flux[11] + fe_i.z);
      flux_m.x += f * (cfd_ff_flux[2] + fx_i.z);
      flux_m.y += f * (cfd_ff_flux[5] + fy_i.z);
      flux_m.z += f * (cfd_ff_flux[8] + fz_i.z);
    }
  }
  fluxes[i + CFD_DENSITY * nelr] = flux_density;
  fluxes[i + (CFD_MOMENTUM + 0) * nelr] = flux_m.x;
  fluxes[i + (CFD_MOMENTUM + 1) * nelr] = flux_m.y;
  fluxes[i + (CFD_MOMENTUM + 2) * nelr] = flux_m.z;
  fluxes[i + CFD_ENERGY * nelr] = flux_energy;
}

extern "C" __global__ void cfd_time_step(int stage, int nelr, const float *old_variables,
                                         float *variables, const float *step_factors,
                                         const float *fluxes) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  float f = step_factors[i] / (float)(CFD_RK + 1 - stage);
  for (int v = 0; v < CFD_NVAR; v++)
    variables[i + v * nelr] = old_variables[i + v * nelr] + f * fluxes[i + v * nelr];
}
