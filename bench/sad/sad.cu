// sad.cu - Parboil-style SAD: full-search motion estimation, sums of absolute
// differences between every 4x4 ... 16x16 block of the current frame and the
// reference frame at each of the 33 x 33 displacements in a +-16 window.
//
// sad_4x4: one 61-thread CTA per 4x4 block; thread t computes the SADs of 18
// consecutive search positions (61 * 18 >= 1089), reading the 16 current
// pixels (global loads, the same 16 for every position) and 16 reference
// pixels (__ldg read-only loads, ld.global.nc, standing in for Parboil's clamped
// texture fetch; everything else is a plain ld.global as in Parboil) per
// position. sad_8x8 (one 32 x 4 CTA per macroblock, threadIdx.y = the 8x8
// quadrant) combines four 4x4 SADs into the 8x8, 8x4 and 4x8 SADs, two search
// positions per thread per trip (packed 16-bit pairs); sad_16x16 (32 x 1 per
// macroblock) combines the 8x8 SADs into 16x16, 16x8 and 8x16.
//
// SAD arrays: type T has c_T blocks per macroblock; block b of macroblock mb
// at (mb * c_T + b) * SAD_POS_PAD, one 16-bit SAD per search position.
#define SAD_RANGE 16
#define SAD_DIM 33
#define SAD_POS 1089
#define SAD_POS_PAD 1096
#define SAD_PER_THREAD 18

extern "C" __global__ void sad_4x4(unsigned short *sad4, const unsigned short *cur,
                                   const unsigned short *ref, int width, int height)
{
  const int bx = blockIdx.x, by = blockIdx.y; // 4x4 block coordinates
  const int mb = (by >> 2) * (gridDim.x >> 2) + (bx >> 2), sub = (by & 3) * 4 + (bx & 3);
  const int px = bx * 4, py = by * 4;
  unsigned short *out = sad4 + (mb * 16 + sub) * SAD_POS_PAD;
  const int first = threadIdx.x * SAD_PER_THREAD;
  const int last = first + SAD_PER_THREAD < SAD_POS ? first + SAD_PER_THREAD : SAD_POS;
  for (int pos = first; pos < last; pos++) {
    const int rx = px - SAD_RANGE + pos % SAD_DIM, ry = py - SAD_RANGE + pos / SAD_DIM;
    unsigned int sad = 0;
    for (int y = 0; y < 4; y++) {
      const int yy = min(max(ry + y, 0), height - 1); // clamp, as the texture's addressing mode
      for (int x = 0; x < 4; x++) {
        const int xx = min(max(rx + x, 0), width - 1);
        const int d = (int)__ldg(&ref[yy * width + xx]) - (int)cur[(py + y) * width + px + x];
        sad += d < 0 ? -d : d;
      }
    }
    out[pos] = (unsigned short)sad;
  }
}

extern "C" __global__ void sad_8x8(const unsigned short *sad4, unsigned short *sad8,
                                   unsigned short *sad8x4, unsigned short *sad4x8)
{
  const int mb = blockIdx.y * gridDim.x + blockIdx.x;
  const int qx = threadIdx.y & 1, qy = threadIdx.y >> 1; // 8x8 quadrant
  // The quadrant's four 4x4 SADs, as packed pairs of positions.
  const unsigned int *s00 = (const unsigned int *)(sad4 + (mb * 16 + (2 * qy) * 4 + 2 * qx) * SAD_POS_PAD);
  const unsigned int *s01 = s00 + SAD_POS_PAD / 2;     // right 4x4
  const unsigned int *s10 = s00 + 4 * SAD_POS_PAD / 2; // lower 4x4
  const unsigned int *s11 = s10 + SAD_POS_PAD / 2;
  unsigned int *o8 = (unsigned int *)(sad8 + (mb * 4 + threadIdx.y) * SAD_POS_PAD);
  unsigned int *o84t = (unsigned int *)(sad8x4 + (mb * 8 + qy * 4 + qx) * SAD_POS_PAD); // 8 wide, 4 tall
  unsigned int *o84b = o84t + 2 * SAD_POS_PAD / 2;
  unsigned int *o48l = (unsigned int *)(sad4x8 + (mb * 8 + qy * 4 + 2 * qx) * SAD_POS_PAD); // 4 wide, 8 tall
  unsigned int *o48r = o48l + SAD_POS_PAD / 2;
  for (int p = threadIdx.x; p < (SAD_POS + 1) / 2; p += 32) {
    const unsigned int a = s00[p], b = s01[p], c = s10[p], d = s11[p];
    // 16-bit lanes never carry: 4x4 SADs are < 4096, 8x8 sums < 16384.
    o84t[p] = a + b;
    o84b[p] = c + d;
    o48l[p] = a + c;
    o48r[p] = b + d;
    o8[p] = a + b + c + d;
  }
}

extern "C" __global__ void sad_16x16(const unsigned short *sad8, unsigned short *sad16,
                                     unsigned short *sad16x8, unsigned short *sad8x16)
{
  const int mb = blockIdx.y * gridDim.x + blockIdx.x;
  const unsigned int *q0 = (const unsigned int *)(sad8 + mb * 4 * SAD_POS_PAD);
  const unsigned int *q1 = q0 + SAD_POS_PAD / 2, *q2 = q0 + SAD_POS_PAD, *q3 = q0 + 3 * SAD_POS_PAD / 2;
  unsigned int *o16 = (unsigned int *)(sad16 + mb * SAD_POS_PAD);
  unsigned int *o168 = (unsigned int *)(sad16x8 + mb * 2 * SAD_POS_PAD);
  unsigned int *o816 = (unsigned int *)(sad8x16 + mb * 2 * SAD_POS_PAD);
  for (int p = threadIdx.x; p < (SAD_POS + 1) / 2; p += 32) {
    const unsigned int a = q0[p], b = q1[p], c = q2[p], d = q3[p];
    // 16x16 SADs are < 65536: still no carry between the lanes.
    o168[p] = a + b;
    o168[p + SAD_POS_PAD / 2] = c + d;
    o816[p] = a + c;
    o816[p + SAD_POS_PAD / 2] = b + d;
    o16[p] = a + b + c + d;
  }
}
