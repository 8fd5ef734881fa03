/* t108_warp_ops.c - CTA barriers and warp-collective operations (PTX ISA 9.0:
 * bar/barrier (sync, arrive, red), shfl.sync, vote.sync, match.sync,
 * activemask, bar.warp.sync) and the special registers %tid %ntid %ctaid
 * %nctaid %laneid %warpid %lanemask_* %clock64 in 1-, 2- and 3-D launches.
 *
 * shfl.sync is checked against the ISA pseudo-code:
 *   bval = b[4:0]; cval = c[4:0]; mask = c[12:8];
 *   maxLane = (lane & mask) | (cval & ~mask); minLane = lane & mask;
 *   up: j = lane - bval, p = j >= maxLane;  down: j = lane + bval, p = j <= maxLane;
 *   bfly: j = lane ^ bval, p = j <= maxLane; idx: j = minLane | (bval & ~mask), p = j <= maxLane;
 *   if (!p) j = lane;  d = a[j]. */
#include "common/opkit.h"

#include <stdlib.h>

TEST_GLOBALS;

#define N 128 /* one CTA of op_run: 4 warps */
/* ST_P2 for use inside a printf format */
#define ST_P2F "\n\tselp.u32 %%r29, 1, 0, %%p1;\n\tst.global.b32 [%%rd30+8], %%r29;"

/* ------------------------------------------------------------------ shfl.sync */
enum { UP, DOWN, BFLY, IDX };
static const char *const MODEN[] = {"up", "down", "bfly", "idx"};

static void shfl_model(int mode, const uint32_t *a, const uint32_t *b, uint32_t c, uint32_t member,
                       uint32_t *d, int *p) {
  for (int lane = 0; lane < 32; lane++) {
    if (!((member >> lane) & 1)) continue;
    int bval = (int)(b[lane] & 31), cval = (int)(c & 31), mask = (int)((c >> 8) & 31);
    int maxLane = (lane & mask) | (cval & ~mask), minLane = lane & mask;
    int j = 0, pv = 0;
    switch (mode) {
    case UP:
      j = lane - bval;
      pv = j >= maxLane;
      break;
    case DOWN:
      j = lane + bval;
      pv = j <= maxLane;
      break;
    case BFLY:
      j = lane ^ bval;
      pv = j <= maxLane;
      break;
    case IDX:
      j = minLane | (bval & ~mask);
      pv = j <= maxLane;
      break;
    }
    if (!pv) j = lane;
    d[lane] = a[j];
    p[lane] = pv;
  }
}

/* runs a full-warp shfl with per-lane a (=in.a) and b (register %r11 = in.b, or immediate) */
static void check_shfl(int mode, int b_imm, uint32_t bconst, uint32_t c) {
  uint64_t in[N][3], out[N][2];
  uint32_t a[N], b[N], d[32];
  int p[32];
  char body[512];
  uint64_t s = 77 + (uint64_t)mode * 1000 + c;
  for (int i = 0; i < N; i++) {
    a[i] = (uint32_t)ov_rand(&s);
    b[i] = b_imm ? bconst : (uint32_t)(ov_rand(&s) % 70); /* out-of-range values too */
    in[i][0] = a[i];
    in[i][1] = b[i];
    in[i][2] = 0;
  }
  if (b_imm)
    snprintf(body, sizeof body,
             "shfl.sync.%s.b32 %%r20|%%p1, %%r10, %u, 0x%x, -1;\n\tst.global.u32 [%%rd30], %%r20;" ST_P2F,
             MODEN[mode], bconst, c);
  else
    snprintf(body, sizeof body,
             "shfl.sync.%s.b32 %%r20|%%p1, %%r10, %%r11, 0x%x, 0xffffffff;\n\tst.global.u32 [%%rd30], "
             "%%r20;" ST_P2F,
             MODEN[mode], c);
  if (op_run(body, (const uint64_t(*)[3])in, N, out) != 0) {
    test_failures_++;
    return;
  }
  int bad = 0;
  for (int w = 0; w < N / 32; w++) {
    shfl_model(mode, a + 32 * w, b + 32 * w, c, 0xffffffffu, d, p);
    for (int l = 0; l < 32; l++) {
      int i = 32 * w + l;
      if ((uint32_t)out[i][0] != d[l] || out[i][1] != (uint64_t)p[l]) {
        if (bad++ < 4)
          fprintf(stderr, "  `%s` lane %d b=%u: got d=0x%x p=%d expected d=0x%x p=%d\n", body, l, b[i],
                  (uint32_t)out[i][0], (int)out[i][1], d[l], p[l]);
      }
    }
  }
  if (bad) test_failures_++;
}

static void test_shfl_full_warp(void) {
  /* c operands: CUDA's __shfl_*_sync(width) packing: up: (32-w)<<8, others: ((32-w)<<8) | 0x1f */
  static const int widths[] = {32, 16, 8, 4, 2};
  static const uint32_t deltas[] = {0, 1, 2, 3, 5, 16, 31, 32, 33};
  for (unsigned wi = 0; wi < 5; wi++) {
    uint32_t seg = (uint32_t)(32 - widths[wi]) << 8;
    for (unsigned di = 0; di < sizeof deltas / 4; di++) {
      check_shfl(UP, 1, deltas[di], seg);
      check_shfl(DOWN, 1, deltas[di], seg | 0x1f);
      check_shfl(BFLY, 1, deltas[di], seg | 0x1f);
      check_shfl(IDX, 1, deltas[di], seg | 0x1f);
    }
    check_shfl(IDX, 0, 0, seg | 0x1f); /* per-lane source lane in a register */
    check_shfl(BFLY, 0, 0, seg | 0x1f);
  }
  /* clamp values other than 0 / 0x1f */
  check_shfl(DOWN, 1, 3, 0x0f);
  check_shfl(UP, 1, 2, 0x05);
  check_shfl(IDX, 0, 0, 0x10);
  check_shfl(BFLY, 1, 4, 0x807);
  check_shfl(DOWN, 0, 0, 0x1c1f);
}

/* shfl in divergent code with a partial member mask: only even lanes execute (membermask 0x55555555) */
static void test_shfl_partial(void) {
  uint64_t in[N][3], out[N][2];
  uint32_t a[N], b[N], d[32];
  int p[32];
  static const struct {
    int mode;
    uint32_t b, c;
  } cases[] = {{BFLY, 2, 0x1f}, {DOWN, 2, 0x1f}, {UP, 4, 0}, {BFLY, 8, 0x181f}};
  for (unsigned ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
    char body[768];
    for (int i = 0; i < N; i++) {
      a[i] = 0x1000u * (uint32_t)i + 7;
      b[i] = cases[ci].b;
      in[i][0] = a[i];
      in[i][1] = in[i][2] = 0;
    }
    snprintf(body, sizeof body,
             "mov.u32 %%r20, 0xdead;\n\tmov.u32 %%r21, 9;\n\t"
             "mov.u32 %%r22, %%laneid;\n\tand.b32 %%r23, %%r22, 1;\n\tsetp.ne.u32 %%p2, %%r23, 0;\n\t"
             "@%%p2 bra $L__odd;\n\t"
             "shfl.sync.%s.b32 %%r20|%%p1, %%r10, %u, 0x%x, 0x55555555;\n\t"
             "selp.u32 %%r21, 1, 0, %%p1;\n"
             "$L__odd:\n\t"
             "st.global.u32 [%%rd30], %%r20;\n\tst.global.u32 [%%rd30+8], %%r21;",
             MODEN[cases[ci].mode], cases[ci].b, cases[ci].c);
    if (op_run(body, (const uint64_t(*)[3])in, N, out) != 0) {
      test_failures_++;
      continue;
    }
    int bad = 0;
    for (int w = 0; w < N / 32; w++) {
      shfl_model(cases[ci].mode, a + 32 * w, b + 32 * w, cases[ci].c, 0x55555555u, d, p);
      for (int l = 0; l < 32; l++) {
        int i = 32 * w + l;
        uint32_t ed = (l & 1) ? 0xdead : d[l];
        uint32_t ep = (l & 1) ? 9 : (uint32_t)p[l];
        if ((uint32_t)out[i][0] != ed || (uint32_t)out[i][1] != ep)
          if (bad++ < 4)
            fprintf(stderr, "  partial shfl.%s lane %d: got 0x%x/%u expected 0x%x/%u\n",
                    MODEN[cases[ci].mode], l, (uint32_t)out[i][0], (uint32_t)out[i][1], ed, ep);
      }
    }
    if (bad) test_failures_++;
  }
}

/* warp reduction as nvcc emits for __shfl_xor_sync / __shfl_down_sync loops */
static void test_shfl_reduction(void) {
  uint64_t in[N][3], out[N][2];
  for (int i = 0; i < N; i++) in[i][0] = (uint64_t)(i * 3 + 1), in[i][1] = in[i][2] = 0;
  const char *body = "mov.u32 %r20, %r10;\n\t"
                     "shfl.sync.bfly.b32 %r21, %r20, 16, 31, -1;\n\tadd.s32 %r20, %r20, %r21;\n\t"
                     "shfl.sync.bfly.b32 %r21, %r20, 8, 31, -1;\n\tadd.s32 %r20, %r20, %r21;\n\t"
                     "shfl.sync.bfly.b32 %r21, %r20, 4, 31, -1;\n\tadd.s32 %r20, %r20, %r21;\n\t"
                     "shfl.sync.bfly.b32 %r21, %r20, 2, 31, -1;\n\tadd.s32 %r20, %r20, %r21;\n\t"
                     "shfl.sync.bfly.b32 %r21, %r20, 1, 31, -1;\n\tadd.s32 %r20, %r20, %r21;\n\t"
                     "mov.b32 %f20, %r10;\n\t"
                     "shfl.sync.down.b32 %r22|%p1, %r10, 1, 31, -1;\n\t"
                     "@%p1 add.s32 %r23, %r22, 0;\n\t"
                     "@!%p1 mov.u32 %r23, 12345;\n\t"
                     "st.global.u32 [%rd30], %r20;\n\tst.global.u32 [%rd30+8], %r23;";
  if (op_run(body, (const uint64_t(*)[3])in, N, out) != 0) {
    test_failures_++;
    return;
  }
  for (int w = 0; w < N / 32; w++) {
    uint32_t sum = 0;
    for (int l = 0; l < 32; l++) sum += (uint32_t)((32 * w + l) * 3 + 1);
    for (int l = 0; l < 32; l++) {
      int i = 32 * w + l;
      CHECK_EQ_U64(out[i][0], sum);
      CHECK_EQ_U64(out[i][1], l == 31 ? 12345u : (uint32_t)((i + 1) * 3 + 1));
    }
  }
}

/* ------------------------------------------------------------------ vote / match / activemask */
static void test_vote(void) {
  uint64_t in[N][3], out[N][2];
  uint64_t s = 5;
  /* warp 0: all true, warp 1: none, warp 2: random, warp 3: only lane 17 */
  for (int i = 0; i < N; i++) {
    int w = i / 32, l = i % 32;
    int pv = w == 0 ? 1 : w == 1 ? 0 : w == 2 ? (int)(ov_rand(&s) & 1) : (l == 17);
    in[i][0] = (uint64_t)pv;
    in[i][1] = in[i][2] = 0;
  }
  const char *body =
      "setp.ne.u32 %p2, %r10, 0;\n\t"
      "vote.sync.ballot.b32 %r20, %p2, 0xffffffff;\n\t"
      "vote.sync.any.pred %p3, %p2, 0xffffffff;\n\t"
      "vote.sync.all.pred %p4, %p2, 0xffffffff;\n\t"
      "vote.sync.uni.pred %p5, %p2, 0xffffffff;\n\t"
      "vote.sync.ballot.b32 %r21, !%p2, 0xffffffff;\n\t"
      "vote.sync.all.pred %p6, !%p2, -1;\n\t"
      "selp.u32 %r22, 1, 0, %p3;\n\tselp.u32 %r23, 2, 0, %p4;\n\tselp.u32 %r24, 4, 0, %p5;\n\t"
      "selp.u32 %r25, 8, 0, %p6;\n\t"
      "or.b32 %r22, %r22, %r23;\n\tor.b32 %r22, %r22, %r24;\n\tor.b32 %r22, %r22, %r25;\n\t"
      "st.global.u32 [%rd30], %r20;\n\tst.global.u32 [%rd30+4], %r21;\n\tst.global.u32 [%rd30+8], %r22;";
  if (op_run(body, (const uint64_t(*)[3])in, N, out) != 0) {
    test_failures_++;
    return;
  }
  for (int w = 0; w < N / 32; w++) {
    uint32_t ballot = 0;
    for (int l = 0; l < 32; l++)
      if (in[32 * w + l][0]) ballot |= 1u << l;
    uint32_t flags = (ballot != 0) | (ballot == 0xffffffffu) << 1 |
                     (ballot == 0 || ballot == 0xffffffffu) << 2 | (ballot == 0) << 3;
    for (int l = 0; l < 32; l++) {
      int i = 32 * w + l;
      CHECK_EQ_U64(out[i][0], ((uint64_t)~ballot << 32) | ballot);
      CHECK_EQ_U64(out[i][1], flags);
    }
  }
}

/* vote and activemask in divergent code: only lanes with lane % 3 != 0 are active */
static void test_vote_divergent(void) {
  uint64_t in[N][3], out[N][2];
  uint32_t act = 0;
  char body[1024];
  for (int l = 0; l < 32; l++)
    if (l % 3) act |= 1u << l;
  for (int i = 0; i < N; i++) in[i][0] = (uint64_t)((i % 32) % 4 == 1), in[i][1] = in[i][2] = 0;
  snprintf(body, sizeof body,
           "mov.u32 %%r20, 0xbad;\n\tmov.u32 %%r21, 0xbad;\n\tmov.u32 %%r22, 0xbad;\n\t"
           "mov.u32 %%r26, %%laneid;\n\trem.u32 %%r27, %%r26, 3;\n\tsetp.eq.u32 %%p7, %%r27, 0;\n\t"
           "@%%p7 bra $L__skip;\n\t"
           "setp.ne.u32 %%p2, %%r10, 0;\n\t"
           "activemask.b32 %%r20;\n\t"
           "vote.sync.ballot.b32 %%r21, %%p2, %%r20;\n\t"
           "vote.sync.any.pred %%p3, %%p2, 0x%x;\n\t"
           "vote.sync.all.pred %%p4, %%p2, 0x%x;\n\t"
           "selp.u32 %%r22, 1, 0, %%p3;\n\tselp.u32 %%r23, 2, 0, %%p4;\n\tor.b32 %%r22, %%r22, %%r23;\n"
           "$L__skip:\n\t"
           "st.global.u32 [%%rd30], %%r20;\n\tst.global.u32 [%%rd30+4], %%r21;\n\tst.global.u32 [%%rd30+8], "
           "%%r22;",
           act, act);
  if (op_run(body, (const uint64_t(*)[3])in, N, out) != 0) {
    test_failures_++;
    return;
  }
  uint32_t ballot = 0;
  for (int l = 0; l < 32; l++)
    if ((act >> l & 1) && l % 4 == 1) ballot |= 1u << l;
  for (int i = 0; i < N; i++) {
    int l = i % 32;
    if (l % 3 == 0) {
      CHECK_EQ_U64(out[i][0], 0x00000badull << 32 | 0xbad);
      CHECK_EQ_U64(out[i][1], 0xbad);
    } else {
      CHECK_EQ_U64(out[i][0], ((uint64_t)ballot << 32) | act);
      CHECK_EQ_U64(out[i][1], (ballot != 0) | ((ballot == act) << 1));
    }
  }
}

static void test_match(void) {
  uint64_t in[N][3], out[N][2];
  /* warp 0: value lane % 5; warp 1: all equal; warp 2: all distinct; warp 3: 64-bit values differing
   * only in the upper half for lanes >= 16 */
  for (int i = 0; i < N; i++) {
    int w = i / 32, l = i % 32;
    uint64_t v = w == 0   ? (uint64_t)(l % 5)
                 : w == 1 ? 42
                 : w == 2 ? (uint64_t)l * 1000
                          : (l >= 16 ? 1ull << 40 : 0) | 7;
    in[i][0] = v;
    in[i][1] = in[i][2] = 0;
  }
  const char *body2 = "match.any.sync.b32 %r20, %r10, 0xffffffff;\n\t"
                      "match.any.sync.b64 %r21, %rd10, 0xffffffff;\n\t"
                      "st.global.u32 [%rd30], %r20;\n\tst.global.u32 [%rd30+4], %r21;\n\t"
                      "match.all.sync.b32 %r22|%p1, %r10, 0xffffffff;\n\t"
                      "match.all.sync.b64 %r23|%p2, %rd10, 0xffffffff;\n\t"
                      "selp.u32 %r24, 1, 0, %p1;\n\tselp.u32 %r25, 2, 0, %p2;\n\tor.b32 %r24, %r24, %r25;\n\t"
                      "xor.b32 %r26, %r22, %r23;\n\t" /* both masks are 0 or 0xffffffff */
                      "or.b32 %r26, %r26, %r24;\n\t"
                      "and.b32 %r27, %r22, 0x100;\n\tor.b32 %r26, %r26, %r27;\n\t"
                      "and.b32 %r28, %r23, 0x200;\n\tor.b32 %r26, %r26, %r28;\n\t"
                      "st.global.u32 [%rd30+8], %r26;";
  if (op_run(body2, (const uint64_t(*)[3])in, N, out) != 0) {
    test_failures_++;
    return;
  }
  for (int w = 0; w < N / 32; w++) {
    int all32 = 1, all64 = 1;
    for (int l = 0; l < 32; l++) {
      all32 &= (uint32_t)in[32 * w + l][0] == (uint32_t)in[32 * w][0];
      all64 &= in[32 * w + l][0] == in[32 * w][0];
    }
    for (int l = 0; l < 32; l++) {
      int i = 32 * w + l;
      uint32_t m32 = 0, m64 = 0;
      for (int k = 0; k < 32; k++) {
        if ((uint32_t)in[32 * w + k][0] == (uint32_t)in[i][0]) m32 |= 1u << k;
        if (in[32 * w + k][0] == in[i][0]) m64 |= 1u << k;
      }
      CHECK_EQ_U64(out[i][0], ((uint64_t)m64 << 32) | m32);
      /* word 1: (d32 ^ d64) | p32 | p64<<1 | (d32 & 0x100) | (d64 & 0x200) */
      uint32_t d32 = all32 ? 0xffffffffu : 0, d64 = all64 ? 0xffffffffu : 0;
      uint32_t e = ((d32 ^ d64) | (uint32_t)all32 | (uint32_t)all64 << 1 | (d32 & 0x100) | (d64 & 0x200));
      CHECK_EQ_U64(out[i][1], e);
    }
  }
}

/* activemask in nested divergence + bar.warp.sync after reconvergence */
static void test_activemask(void) {
  uint64_t in[N][3], out[N][2];
  memset(in, 0, sizeof in);
  const char *body =
      "mov.u32 %r20, 0;\n\tmov.u32 %r21, 0;\n\t"
      "mov.u32 %r22, %laneid;\n\t"
      "and.b32 %r23, %r22, 3;\n\tsetp.ne.u32 %p2, %r23, 1;\n\t"
      "@%p2 bra $L__a;\n\t"
      "activemask.b32 %r20;\n\t"
      "setp.lt.u32 %p3, %r22, 16;\n\t"
      "@%p3 bra $L__a;\n\t"
      "activemask.b32 %r21;\n"
      "$L__a:\n\t"
      "bar.warp.sync -1;\n\t"
      "activemask.b32 %r24;\n\t"
      "st.global.u32 [%rd30], %r20;\n\tst.global.u32 [%rd30+4], %r21;\n\tst.global.u32 [%rd30+8], %r24;";
  if (op_run(body, (const uint64_t(*)[3])in, N, out) != 0) {
    test_failures_++;
    return;
  }
  for (int i = 0; i < N; i++) {
    int l = i % 32;
    uint32_t e0 = (l % 4 == 1) ? 0x22222222u : 0, e1 = (l % 4 == 1 && l >= 16) ? 0x22220000u : 0;
    CHECK_EQ_U64(out[i][0], ((uint64_t)e1 << 32) | e0);
    CHECK_EQ_U64(out[i][1], 0xffffffffu);
  }
}

/* ------------------------------------------------------------------ barriers */
static const char *BAR_PTX =
    PTX_HEADER ".visible .entry bars(\n"
               "\t.param .u64 bars_param_0\n"
               ")\n"
               "{\n"
               "\t.reg .pred \t%p<8>;\n"
               "\t.reg .b32 \t%r<48>;\n"
               "\t.reg .b64 \t%rd<8>;\n"
               "\t.shared .align 4 .b8 sh[1024];\n"
               "\t.shared .align 4 .b8 sh2[1024];\n"
               "\n"
               "\tld.param.u64 \t%rd1, [bars_param_0];\n"
               "\tcvta.to.global.u64 \t%rd1, %rd1;\n"
               "\tmov.u32 \t%r1, %tid.x;\n"
               "\tmov.u32 \t%r2, %ntid.x;\n"
               "\tmul.wide.u32 \t%rd2, %r1, 32;\n"
               "\tadd.s64 \t%rd3, %rd1, %rd2;\n"
               "\tmov.u32 \t%r3, sh;\n"
               "\tshl.b32 \t%r4, %r1, 2;\n"
               "\tadd.s32 \t%r5, %r3, %r4;\n"
               /* 1. 20 rounds: sh[t] = v; bar; v = sh[(t+37)%n] + 1; bar */
               "\tmov.u32 \t%r6, %r1;\n"
               "\tmov.u32 \t%r7, 0;\n"
               "\tadd.s32 \t%r8, %r1, 37;\n"
               "\trem.u32 \t%r8, %r8, %r2;\n"
               "\tshl.b32 \t%r9, %r8, 2;\n"
               "\tadd.s32 \t%r10, %r3, %r9;\n"
               "$L__round:\n"
               "\tst.shared.u32 \t[%r5], %r6;\n"
               "\tbar.sync \t0;\n"
               "\tld.shared.u32 \t%r11, [%r10];\n"
               "\tadd.s32 \t%r6, %r11, 1;\n"
               "\tbarrier.sync \t0;\n"
               "\tadd.s32 \t%r7, %r7, 1;\n"
               "\tsetp.lt.u32 \t%p1, %r7, 20;\n"
               "\t@%p1 bra \t$L__round;\n"
               "\tst.global.u32 \t[%rd3], %r6;\n"
               /* 2. bar.red.popc / and / or over the CTA */
               "\trem.u32 \t%r12, %r1, 3;\n"
               "\tsetp.eq.u32 \t%p2, %r12, 0;\n"
               "\tbar.red.popc.u32 \t%r13, 8, %p2;\n"
               "\tbar.red.popc.u32 \t%r14, 9, !%p2;\n"
               "\tbar.red.and.pred \t%p3, 10, %p2;\n"
               "\tsetp.lt.u32 \t%p4, %r1, 1000;\n"
               "\tbar.red.and.pred \t%p5, 11, %p4;\n"
               "\tbar.red.or.pred \t%p6, 12, %p2;\n"
               "\tsetp.eq.u32 \t%p7, %r1, 9999;\n"
               "\tbar.red.or.pred \t%p7, 13, %p7;\n"
               "\tselp.u32 \t%r15, 1, 0, %p3;\n"
               "\tselp.u32 \t%r16, 2, 0, %p5;\n"
               "\tselp.u32 \t%r17, 4, 0, %p6;\n"
               "\tselp.u32 \t%r18, 8, 0, %p7;\n"
               "\tor.b32 \t%r15, %r15, %r16;\n"
               "\tor.b32 \t%r15, %r15, %r17;\n"
               "\tor.b32 \t%r15, %r15, %r18;\n"
               "\tst.global.u32 \t[%rd3+4], %r13;\n"
               "\tst.global.u32 \t[%rd3+8], %r14;\n"
               "\tst.global.u32 \t[%rd3+12], %r15;\n"
               /* 3. named barriers with thread counts: each group of 2 warps (64 threads) syncs on its own
                *    barrier 1..4 (id in a register) and the two warps swap values through sh2 */
               "\tshr.u32 \t%r19, %r1, 6;\n"
               "\tadd.s32 \t%r34, %r19, 1;\n"
               "\tmov.u32 \t%r20, sh2;\n"
               "\tadd.s32 \t%r21, %r20, %r4;\n"
               "\tmul.lo.s32 \t%r22, %r1, 11;\n"
               "\tst.shared.u32 \t[%r21], %r22;\n"
               "\tsetp.eq.u32 \t%p1, %r19, 0;\n"
               "\t@%p1 bra \t$L__grp0;\n"
               "\tbar.sync \t%r34, 64;\n"
               "\tbra.uni \t$L__grpdone;\n"
               "$L__grp0:\n"
               "\tbar.sync \t1, 64;\n"
               "$L__grpdone:\n"
               "\txor.b32 \t%r23, %r1, 32;\n"
               "\tshl.b32 \t%r24, %r23, 2;\n"
               "\tadd.s32 \t%r25, %r20, %r24;\n"
               "\tld.shared.u32 \t%r26, [%r25];\n"
               "\tst.global.u32 \t[%rd3+16], %r26;\n"
               "\tbar.sync \t0;\n"
               /* 4. producer/consumer with bar.arrive: warp 0 produces into sh, arrives on barrier 5;
                *    warp 1 waits on barrier 5 and consumes; the other warps skip */
               "\tshr.u32 \t%r27, %r1, 5;\n"
               "\tsetp.eq.u32 \t%p1, %r27, 0;\n"
               "\tsetp.eq.u32 \t%p2, %r27, 1;\n"
               "\tmov.u32 \t%r28, 0;\n"
               "\t@!%p1 bra \t$L__notprod;\n"
               "\tadd.s32 \t%r29, %r1, 5000;\n"
               "\tst.shared.u32 \t[%r5], %r29;\n"
               "\tbar.arrive \t5, 64;\n"
               "$L__notprod:\n"
               "\t@!%p2 bra \t$L__notcons;\n"
               "\tbar.sync \t5, 64;\n"
               "\tsub.s32 \t%r30, %r4, 128;\n"
               "\tadd.s32 \t%r31, %r3, %r30;\n"
               "\tld.shared.u32 \t%r28, [%r31];\n"
               "$L__notcons:\n"
               "\tst.global.u32 \t[%rd3+20], %r28;\n"
               /* 5. barrier with a register operand for the barrier id */
               "\tmov.u32 \t%r32, 6;\n"
               "\tbar.sync \t%r32;\n"
               "\tmov.u32 \t%r33, 777;\n"
               "\tst.global.u32 \t[%rd3+24], %r33;\n"
               "\tret;\n"
               "}\n";

static void test_barriers(void) {
  enum { NT = 256 };
  uint32_t out[NT * 8];
  WsLaunchStats st;
  TK k;
  if (tk_open(&k, BAR_PTX, "bars") != 0) {
    test_failures_++;
    tk_close(&k);
    return;
  }
  WsDevPtr dout = tk_alloc(&k, sizeof out, NULL);
  void *params[1] = {&dout};
  if (tk_launch(&k, 2, 1, 1, NT, 1, 1, 0, params) != WS_SUCCESS || tk_get(&k, out, dout, sizeof out) != 0) {
    test_failures_++;
    tk_close(&k);
    return;
  }
  st = *ws_ctx_last_stats(k.ctx);
  tk_close(&k);
  /* reference for the 20 rounds */
  uint32_t v[NT], nv[NT];
  for (int t = 0; t < NT; t++) v[t] = (uint32_t)t;
  for (int r = 0; r < 20; r++) {
    for (int t = 0; t < NT; t++) nv[t] = v[(t + 37) % NT] + 1;
    memcpy(v, nv, sizeof v);
  }
  uint32_t popc = 0;
  for (int t = 0; t < NT; t++) popc += (t % 3 == 0);
  int bad = 0;
  for (int t = 0; t < NT; t++) {
    const uint32_t *o = out + t * 8;
    uint32_t e[7] = {v[t],
                     popc,
                     NT - popc,
                     2u | 4u,
                     (uint32_t)(t ^ 32) * 11,
                     t >= 32 && t < 64 ? (uint32_t)(t - 32 + 5000) : 0,
                     777};
    for (int i = 0; i < 7; i++)
      if (o[i] != e[i] && bad++ < 10)
        fprintf(stderr, "  thread %d word %d: got %u expected %u\n", t, i, o[i], e[i]);
  }
  if (bad) test_failures_++;
  /* bar.sync/barrier.sync warp arrivals: per warp 40 (rounds) + 1 (named) + 1 (bar.sync 0) + 1 (register id),
   * plus warp 1's bar.sync 5 in each CTA; bar.red / bar.arrive may or may not be counted */
  uint64_t lo = 2 * (8 * 43 + 1), hi = lo + 2 * (8 * 6 + 1);
  if (st.barriers < lo || st.barriers > hi) {
    fprintf(stderr, "  stats.barriers = %" PRIu64 ", expected %" PRIu64 "..%" PRIu64 "\n", st.barriers, lo,
            hi);
    test_failures_++;
  }
}

/* a barrier waits only for non-exited warps: warps 1 and 3 return before bar.sync, warps 0 and 2
 * synchronise and exchange data through shared memory */
static const char *BAREXIT_PTX = PTX_HEADER ".visible .entry barexit(\n"
                                            "\t.param .u64 barexit_param_0\n"
                                            ")\n"
                                            "{\n"
                                            "\t.reg .pred \t%p<4>;\n"
                                            "\t.reg .b32 \t%r<16>;\n"
                                            "\t.reg .b64 \t%rd<8>;\n"
                                            "\t.shared .align 4 .b8 sh[512];\n"
                                            "\n"
                                            "\tld.param.u64 \t%rd1, [barexit_param_0];\n"
                                            "\tcvta.to.global.u64 \t%rd1, %rd1;\n"
                                            "\tmov.u32 \t%r1, %tid.x;\n"
                                            "\tmul.wide.u32 \t%rd2, %r1, 4;\n"
                                            "\tadd.s64 \t%rd3, %rd1, %rd2;\n"
                                            "\tshr.u32 \t%r2, %r1, 5;\n"
                                            "\tand.b32 \t%r3, %r2, 1;\n"
                                            "\tsetp.eq.u32 \t%p1, %r3, 1;\n"
                                            "\t@%p1 bra \t$L__leave;\n"
                                            "\tmov.u32 \t%r4, sh;\n"
                                            "\tshl.b32 \t%r5, %r1, 2;\n"
                                            "\tadd.s32 \t%r6, %r4, %r5;\n"
                                            "\tmul.lo.s32 \t%r7, %r1, 13;\n"
                                            "\tst.shared.u32 \t[%r6], %r7;\n"
                                            "\tbar.sync \t0;\n"
                                            "\txor.b32 \t%r8, %r1, 64;\n"
                                            "\tshl.b32 \t%r9, %r8, 2;\n"
                                            "\tadd.s32 \t%r10, %r4, %r9;\n"
                                            "\tld.shared.u32 \t%r11, [%r10];\n"
                                            "\tst.global.u32 \t[%rd3], %r11;\n"
                                            "\tret;\n"
                                            "$L__leave:\n"
                                            "\tmov.u32 \t%r12, 99;\n"
                                            "\tst.global.u32 \t[%rd3], %r12;\n"
                                            "\tret;\n"
                                            "}\n";
static void test_barrier_after_exit(void) {
  uint32_t out[128];
  if (tk_run_io(BAREXIT_PTX, "barexit", 1, 128, 0, NULL, 0, out, sizeof out) != 0) return;
  for (int t = 0; t < 128; t++) {
    uint32_t e = ((t >> 5) & 1) ? 99u : (uint32_t)(t ^ 64) * 13u;
    if (out[t] != e) {
      fprintf(stderr, "  barexit thread %d: got %u expected %u\n", t, out[t], e);
      test_failures_++;
      break;
    }
  }
}

/* ------------------------------------------------------------------ special registers */
static const char *SREG_PTX = PTX_HEADER ".visible .entry sregs(\n"
                                         "\t.param .u64 sregs_param_0\n"
                                         ")\n"
                                         "{\n"
                                         "\t.reg .b32 \t%r<40>;\n"
                                         "\t.reg .b64 \t%rd<16>;\n"
                                         "\n"
                                         "\tld.param.u64 \t%rd1, [sregs_param_0];\n"
                                         "\tcvta.to.global.u64 \t%rd1, %rd1;\n"
                                         "\tmov.u32 \t%r1, %tid.x;\n"
                                         "\tmov.u32 \t%r2, %tid.y;\n"
                                         "\tmov.u32 \t%r3, %tid.z;\n"
                                         "\tmov.u32 \t%r4, %ntid.x;\n"
                                         "\tmov.u32 \t%r5, %ntid.y;\n"
                                         "\tmov.u32 \t%r6, %ntid.z;\n"
                                         "\tmov.u32 \t%r7, %ctaid.x;\n"
                                         "\tmov.u32 \t%r8, %ctaid.y;\n"
                                         "\tmov.u32 \t%r9, %ctaid.z;\n"
                                         "\tmov.u32 \t%r10, %nctaid.x;\n"
                                         "\tmov.u32 \t%r11, %nctaid.y;\n"
                                         "\tmov.u32 \t%r12, %nctaid.z;\n"
                                         "\tmov.u32 \t%r13, %laneid;\n"
                                         "\tmov.u32 \t%r14, %warpid;\n"
                                         "\tmov.u32 \t%r15, %lanemask_lt;\n"
                                         "\tmov.u32 \t%r16, %lanemask_eq;\n"
                                         "\tmov.u32 \t%r17, %lanemask_ge;\n"
                                         "\tmov.u64 \t%rd2, %clock64;\n"
                                         /* linear ids */
                                         "\tmad.lo.s32 \t%r20, %r3, %r5, %r2;\n"
                                         "\tmad.lo.s32 \t%r20, %r20, %r4, %r1;\n" /* thread in CTA */
                                         "\tmul.lo.s32 \t%r21, %r4, %r5;\n"
                                         "\tmul.lo.s32 \t%r21, %r21, %r6;\n" /* CTA size */
                                         "\tmad.lo.s32 \t%r22, %r9, %r11, %r8;\n"
                                         "\tmad.lo.s32 \t%r22, %r22, %r10, %r7;\n"  /* CTA id */
                                         "\tmad.lo.s32 \t%r23, %r22, %r21, %r20;\n" /* global id */
                                         "\tmul.wide.u32 \t%rd3, %r23, 80;\n"
                                         "\tadd.s64 \t%rd4, %rd1, %rd3;\n"
                                         "\tst.global.u32 \t[%rd4], %r1;\n"
                                         "\tst.global.u32 \t[%rd4+4], %r2;\n"
                                         "\tst.global.u32 \t[%rd4+8], %r3;\n"
                                         "\tst.global.u32 \t[%rd4+12], %r4;\n"
                                         "\tst.global.u32 \t[%rd4+16], %r5;\n"
                                         "\tst.global.u32 \t[%rd4+20], %r6;\n"
                                         "\tst.global.u32 \t[%rd4+24], %r7;\n"
                                         "\tst.global.u32 \t[%rd4+28], %r8;\n"
                                         "\tst.global.u32 \t[%rd4+32], %r9;\n"
                                         "\tst.global.u32 \t[%rd4+36], %r10;\n"
                                         "\tst.global.u32 \t[%rd4+40], %r11;\n"
                                         "\tst.global.u32 \t[%rd4+44], %r12;\n"
                                         "\tst.global.u32 \t[%rd4+48], %r13;\n"
                                         "\tst.global.u32 \t[%rd4+52], %r14;\n"
                                         "\tst.global.u32 \t[%rd4+56], %r15;\n"
                                         "\tst.global.u32 \t[%rd4+60], %r16;\n"
                                         "\tst.global.u32 \t[%rd4+64], %r17;\n"
                                         "\tmov.u64 \t%rd5, %clock64;\n"
                                         "\tsub.s64 \t%rd6, %rd5, %rd2;\n"
                                         "\tst.global.u64 \t[%rd4+72], %rd6;\n"
                                         "\tret;\n"
                                         "}\n";

static void check_sregs(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz) {
  unsigned nthr = gx * gy * gz * bx * by * bz, cta = bx * by * bz;
  uint32_t *out = calloc(nthr, 80);
  TK k;
  if (!out) return;
  if (tk_open(&k, SREG_PTX, "sregs") != 0) {
    test_failures_++;
    tk_close(&k);
    free(out);
    return;
  }
  WsDevPtr dout = tk_alloc(&k, (size_t)nthr * 80, NULL);
  void *params[1] = {&dout};
  if (tk_launch(&k, gx, gy, gz, bx, by, bz, 0, params) != WS_SUCCESS ||
      tk_get(&k, out, dout, (size_t)nthr * 80) != 0) {
    test_failures_++;
    tk_close(&k);
    free(out);
    return;
  }
  tk_close(&k);
  int bad = 0;
  unsigned nwarps = (cta + 31) / 32;
  for (unsigned g = 0; g < nthr; g++) {
    const uint32_t *o = out + g * 20;
    unsigned c = g / cta, t = g % cta;
    unsigned lane = t % 32;
    uint32_t e[17] = {t % bx,
                      (t / bx) % by,
                      t / (bx * by),
                      bx,
                      by,
                      bz,
                      c % gx,
                      (c / gx) % gy,
                      c / (gx * gy),
                      gx,
                      gy,
                      gz,
                      lane,
                      0,
                      (1u << lane) - 1,
                      1u << lane,
                      ~((1u << lane) - 1)};
    for (int i = 0; i < 17; i++) {
      if (i == 13) continue; /* %warpid: checked below */
      if (o[i] != e[i] && bad++ < 10)
        fprintf(stderr, "  grid (%u,%u,%u) block (%u,%u,%u) thread %u word %d: got %u expected %u\n", gx, gy,
                gz, bx, by, bz, g, i, o[i], e[i]);
    }
    /* %warpid: same for all lanes of a warp, different between warps of one CTA */
    const uint32_t *first = out + (c * cta + (t / 32) * 32) * 20;
    if (o[13] != first[13] && bad++ < 10)
      fprintf(stderr, "  thread %u: %%warpid differs inside its warp\n", g);
    if (lane == 0)
      for (unsigned w2 = 0; w2 < t / 32; w2++)
        if (out[(c * cta + w2 * 32) * 20 + 13] == o[13] && bad++ < 10)
          fprintf(stderr, "  CTA %u: warps %u and %u share %%warpid %u\n", c, w2, t / 32, o[13]);
    (void)nwarps;
    /* %clock64 does not go backwards */
    uint64_t dclk = (uint64_t)o[18] | (uint64_t)o[19] << 32;
    if ((int64_t)dclk < 0 && bad++ < 10) fprintf(stderr, "  thread %u: %%clock64 went backwards\n", g);
  }
  if (bad) test_failures_++;
  free(out);
}

static void test_special_registers(void) {
  check_sregs(3, 1, 1, 96, 1, 1);
  check_sregs(2, 3, 1, 8, 12, 1);
  check_sregs(2, 2, 2, 4, 3, 5); /* 60 threads: the second warp is partial */
  check_sregs(1, 1, 3, 1, 1, 33);
  check_sregs(5, 1, 2, 33, 2, 1);
}

int main(void) {
  TEST_RUN(test_shfl_full_warp);
  TEST_RUN(test_shfl_partial);
  TEST_RUN(test_shfl_reduction);
  TEST_RUN(test_vote);
  TEST_RUN(test_vote_divergent);
  TEST_RUN(test_match);
  TEST_RUN(test_activemask);
  TEST_RUN(test_barriers);
  TEST_RUN(test_barrier_after_exit);
  TEST_RUN(test_special_registers);
  return TEST_DONE();
}
