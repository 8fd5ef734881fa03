/* t105_mem.c - loads and stores in every state space (PTX ISA 9.0 "ld", "st",
 * "cvta", state spaces .global .shared .local .const .param, initialisers).
 *
 * Narrow loads into wider registers are zero-extended for .u/.b types and
 * sign-extended for .s types; narrow stores write the low bits of the register.
 * Vector accesses move consecutive elements. Shared memory is per CTA (static
 * and `.extern .shared` dynamic, which must not overlap), local memory per
 * thread (nvcc's __local_depot / %SPL / cvta.local pattern), .const and .global
 * variables take their initialisers and are reachable from the host through
 * ws_module_get_global. */
#include "common/opkit.h"

TEST_GLOBALS;

static uint64_t rd_le(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}
static uint64_t sx(uint64_t v, int bits) {
  uint64_t m = 1ull << (bits - 1);
  v &= (bits == 64) ? ~0ull : (1ull << bits) - 1;
  return (v ^ m) - m;
}

/* ------------------------------------------------------------------ loads */
static const char *LD_PTX =
    PTX_HEADER ".visible .entry ld_types(\n"
               "\t.param .u64 ld_types_param_0,\n"
               "\t.param .u64 ld_types_param_1\n"
               ")\n"
               "{\n"
               "\t.reg .pred \t%p<2>;\n"
               "\t.reg .b16 \t%rs<16>;\n"
               "\t.reg .b32 \t%r<40>;\n"
               "\t.reg .b64 \t%rd<40>;\n"
               "\t.reg .f32 \t%f<8>;\n"
               "\t.reg .f64 \t%fd<4>;\n"
               "\n"
               "\tld.param.u64 \t%rd1, [ld_types_param_0];\n"
               "\tld.param.u64 \t%rd10, [ld_types_param_1];\n"
               "\tcvta.to.global.u64 \t%rd1, %rd1;\n"
               "\tcvta.to.global.u64 \t%rd2, %rd10;\n"
               "\tmov.u32 \t%r39, %tid.x;\n"
               "\tsetp.ne.s32 \t%p1, %r39, 0;\n"
               "\t@%p1 bra \t$L__done;\n"
               "\tld.global.u8 \t%r1, [%rd2+1];\n"
               "\tst.global.u32 \t[%rd1], %r1;\n"
               "\tld.global.s8 \t%r2, [%rd2+1];\n"
               "\tst.global.u32 \t[%rd1+8], %r2;\n"
               "\tld.global.u16 \t%r3, [%rd2+2];\n"
               "\tst.global.u32 \t[%rd1+16], %r3;\n"
               "\tld.global.s16 \t%r4, [%rd2+2];\n"
               "\tst.global.u32 \t[%rd1+24], %r4;\n"
               "\tld.global.u32 \t%r5, [%rd2+4];\n"
               "\tst.global.u32 \t[%rd1+32], %r5;\n"
               "\tld.global.s32 \t%rd3, [%rd2+4];\n"
               "\tst.global.u64 \t[%rd1+40], %rd3;\n"
               "\tld.global.u32 \t%rd4, [%rd2+4];\n"
               "\tst.global.u64 \t[%rd1+48], %rd4;\n"
               "\tld.global.u64 \t%rd5, [%rd2+8];\n"
               "\tst.global.u64 \t[%rd1+56], %rd5;\n"
               "\tld.global.f32 \t%f1, [%rd2+16];\n"
               "\tst.global.f32 \t[%rd1+64], %f1;\n"
               "\tld.global.f64 \t%fd1, [%rd2+24];\n"
               "\tst.global.f64 \t[%rd1+72], %fd1;\n"
               "\tld.global.s8 \t%rs1, [%rd2+1];\n"
               "\tst.global.u16 \t[%rd1+80], %rs1;\n"
               "\tld.global.u8 \t%rs2, [%rd2+1];\n"
               "\tst.global.u16 \t[%rd1+88], %rs2;\n"
               "\tld.global.s16 \t%rd6, [%rd2+2];\n"
               "\tst.global.u64 \t[%rd1+96], %rd6;\n"
               "\tld.global.s8 \t%rd7, [%rd2+3];\n"
               "\tst.global.u64 \t[%rd1+104], %rd7;\n"
               "\tld.global.v2.u32 \t{%r6, %r7}, [%rd2+8];\n"
               "\tst.global.u32 \t[%rd1+112], %r6;\n"
               "\tst.global.u32 \t[%rd1+120], %r7;\n"
               "\tld.global.v4.u32 \t{%r8, %r9, %r10, %r11}, [%rd2+16];\n"
               "\tst.global.u32 \t[%rd1+128], %r8;\n"
               "\tst.global.u32 \t[%rd1+136], %r9;\n"
               "\tst.global.u32 \t[%rd1+144], %r10;\n"
               "\tst.global.u32 \t[%rd1+152], %r11;\n"
               "\tld.global.v2.u64 \t{%rd8, %rd9}, [%rd2+32];\n"
               "\tst.global.u64 \t[%rd1+160], %rd8;\n"
               "\tst.global.u64 \t[%rd1+168], %rd9;\n"
               "\tld.global.v4.f32 \t{%f2, %f3, %f4, %f5}, [%rd2+48];\n"
               "\tst.global.f32 \t[%rd1+176], %f2;\n"
               "\tst.global.f32 \t[%rd1+184], %f3;\n"
               "\tst.global.f32 \t[%rd1+192], %f4;\n"
               "\tst.global.f32 \t[%rd1+200], %f5;\n"
               "\tld.global.v2.f64 \t{%fd2, %fd3}, [%rd2+48];\n"
               "\tst.global.f64 \t[%rd1+208], %fd2;\n"
               "\tst.global.f64 \t[%rd1+216], %fd3;\n"
               "\tld.global.v4.u16 \t{%rs3, %rs4, %rs5, %rs6}, [%rd2+8];\n"
               "\tst.global.u16 \t[%rd1+224], %rs3;\n"
               "\tst.global.u16 \t[%rd1+232], %rs4;\n"
               "\tst.global.u16 \t[%rd1+240], %rs5;\n"
               "\tst.global.u16 \t[%rd1+248], %rs6;\n"
               "\tld.global.v4.u8 \t{%rs7, %rs8, %rs9, %rs10}, [%rd2+4];\n"
               "\tst.global.u16 \t[%rd1+256], %rs7;\n"
               "\tst.global.u16 \t[%rd1+264], %rs8;\n"
               "\tst.global.u16 \t[%rd1+272], %rs9;\n"
               "\tst.global.u16 \t[%rd1+280], %rs10;\n"
               "\tld.global.v2.s16 \t{%r12, %r13}, [%rd2];\n"
               "\tst.global.u32 \t[%rd1+288], %r12;\n"
               "\tst.global.u32 \t[%rd1+296], %r13;\n"
               "\tld.global.nc.u32 \t%r14, [%rd2+12];\n"
               "\tst.global.u32 \t[%rd1+304], %r14;\n"
               "\tld.global.nc.v2.u32 \t{%r15, %r16}, [%rd2+40];\n"
               "\tst.global.u32 \t[%rd1+312], %r15;\n"
               "\tst.global.u32 \t[%rd1+320], %r16;\n"
               "\tld.volatile.global.u32 \t%r17, [%rd2+20];\n"
               "\tst.global.u32 \t[%rd1+328], %r17;\n"
               "\tld.global.ca.u32 \t%r18, [%rd2+24];\n"
               "\tst.global.u32 \t[%rd1+336], %r18;\n"
               "\tld.global.cg.u32 \t%r19, [%rd2+28];\n"
               "\tst.global.u32 \t[%rd1+344], %r19;\n"
               "\tld.global.cs.u32 \t%r20, [%rd2+32];\n"
               "\tst.global.u32 \t[%rd1+352], %r20;\n"
               "\tld.relaxed.gpu.global.u32 \t%r21, [%rd2+36];\n"
               "\tst.global.u32 \t[%rd1+360], %r21;\n"
               "\tld.acquire.gpu.global.u32 \t%r22, [%rd2+40];\n"
               "\tst.global.u32 \t[%rd1+368], %r22;\n"
               "\tld.global.nc.u8 \t%rs11, [%rd2+5];\n"
               "\tst.global.u16 \t[%rd1+376], %rs11;\n"
               "\tld.u32 \t%r23, [%rd10+44];\n" /* generic load from the raw (generic) pointer */
               "\tst.global.u32 \t[%rd1+384], %r23;\n"
               "\tadd.s64 \t%rd11, %rd2, 32;\n"
               "\tld.global.u32 \t%r24, [%rd11+-8];\n" /* negative offsets */
               "\tst.global.u32 \t[%rd1+392], %r24;\n"
               "\tld.global.u64 \t%rd12, [%rd11+-16];\n"
               "\tst.global.u64 \t[%rd1+400], %rd12;\n"
               "\tld.global.nc.v4.f32 \t{%f2, %f3, %f4, %f5}, [%rd2+32];\n"
               "\tst.global.f32 \t[%rd1+408], %f5;\n"
               "\tld.global.s16 \t%rs12, [%rd2+2];\n"
               "\tst.global.u16 \t[%rd1+416], %rs12;\n"
               "$L__done:\n"
               "\tret;\n"
               "}\n";

static void test_loads(void) {
  uint8_t in[64];
  uint64_t out[64];
  for (int i = 0; i < 64; i++) in[i] = (uint8_t)(0x81 + 37 * i);
  memset(out, 0, sizeof out);
  if (tk_run_io(LD_PTX, "ld_types", 1, 32, 0, in, sizeof in, out, sizeof out) != 0) return;
  struct {
    int slot;
    uint64_t exp;
    const char *what;
  } e[] = {
      {0, rd_le(in + 1, 1), "ld.u8 -> u32"},
      {1, sx(rd_le(in + 1, 1), 8) & 0xffffffffu, "ld.s8 -> 32 sign-extends"},
      {2, rd_le(in + 2, 2), "ld.u16 -> u32"},
      {3, sx(rd_le(in + 2, 2), 16) & 0xffffffffu, "ld.s16 -> 32 sign-extends"},
      {4, rd_le(in + 4, 4), "ld.u32"},
      {5, sx(rd_le(in + 4, 4), 32), "ld.s32 into a 64-bit register sign-extends"},
      {6, rd_le(in + 4, 4), "ld.u32 into a 64-bit register zero-extends"},
      {7, rd_le(in + 8, 8), "ld.u64"},
      {8, rd_le(in + 16, 4), "ld.f32"},
      {9, rd_le(in + 24, 8), "ld.f64"},
      {10, sx(rd_le(in + 1, 1), 8) & 0xffff, "ld.s8 -> b16 sign-extends"},
      {11, rd_le(in + 1, 1), "ld.u8 -> b16"},
      {12, sx(rd_le(in + 2, 2), 16), "ld.s16 -> 64"},
      {13, sx(rd_le(in + 3, 1), 8), "ld.s8 -> 64"},
      {14, rd_le(in + 8, 4), "v2.u32 [0]"},
      {15, rd_le(in + 12, 4), "v2.u32 [1]"},
      {16, rd_le(in + 16, 4), "v4.u32 [0]"},
      {17, rd_le(in + 20, 4), "v4.u32 [1]"},
      {18, rd_le(in + 24, 4), "v4.u32 [2]"},
      {19, rd_le(in + 28, 4), "v4.u32 [3]"},
      {20, rd_le(in + 32, 8), "v2.u64 [0]"},
      {21, rd_le(in + 40, 8), "v2.u64 [1]"},
      {22, rd_le(in + 48, 4), "v4.f32 [0]"},
      {23, rd_le(in + 52, 4), "v4.f32 [1]"},
      {24, rd_le(in + 56, 4), "v4.f32 [2]"},
      {25, rd_le(in + 60, 4), "v4.f32 [3]"},
      {26, rd_le(in + 48, 8), "v2.f64 [0]"},
      {27, rd_le(in + 56, 8), "v2.f64 [1]"},
      {28, rd_le(in + 8, 2), "v4.u16 [0]"},
      {29, rd_le(in + 10, 2), "v4.u16 [1]"},
      {30, rd_le(in + 12, 2), "v4.u16 [2]"},
      {31, rd_le(in + 14, 2), "v4.u16 [3]"},
      {32, rd_le(in + 4, 1), "v4.u8 [0]"},
      {33, rd_le(in + 5, 1), "v4.u8 [1]"},
      {34, rd_le(in + 6, 1), "v4.u8 [2]"},
      {35, rd_le(in + 7, 1), "v4.u8 [3]"},
      {36, sx(rd_le(in + 0, 2), 16) & 0xffffffffu, "v2.s16 [0] sign-extends"},
      {37, sx(rd_le(in + 2, 2), 16) & 0xffffffffu, "v2.s16 [1] sign-extends"},
      {38, rd_le(in + 12, 4), "ld.global.nc.u32"},
      {39, rd_le(in + 40, 4), "ld.global.nc.v2.u32 [0]"},
      {40, rd_le(in + 44, 4), "ld.global.nc.v2.u32 [1]"},
      {41, rd_le(in + 20, 4), "ld.volatile.global"},
      {42, rd_le(in + 24, 4), "ld.global.ca"},
      {43, rd_le(in + 28, 4), "ld.global.cg"},
      {44, rd_le(in + 32, 4), "ld.global.cs"},
      {45, rd_le(in + 36, 4), "ld.relaxed.gpu.global"},
      {46, rd_le(in + 40, 4), "ld.acquire.gpu.global"},
      {47, rd_le(in + 5, 1), "ld.global.nc.u8"},
      {48, rd_le(in + 44, 4), "generic ld.u32"},
      {49, rd_le(in + 24, 4), "ld [%rd+-8]"},
      {50, rd_le(in + 16, 8), "ld.u64 [%rd+-16]"},
      {51, rd_le(in + 44, 4), "ld.global.nc.v4.f32 [3]"},
      {52, sx(rd_le(in + 2, 2), 16) & 0xffff, "ld.s16 -> b16"},
  };
  for (unsigned i = 0; i < sizeof e / sizeof e[0]; i++)
    if (out[e[i].slot] != e[i].exp) {
      fprintf(stderr, "  %s: slot %d got 0x%" PRIx64 " expected 0x%" PRIx64 "\n", e[i].what, e[i].slot,
              out[e[i].slot], e[i].exp);
      test_failures_++;
    }
}

/* ------------------------------------------------------------------ stores */
static const char *ST_PTX =
    PTX_HEADER ".visible .entry st_types(\n"
               "\t.param .u64 st_types_param_0,\n"
               "\t.param .u64 st_types_param_1\n"
               ")\n"
               "{\n"
               "\t.reg .pred \t%p<2>;\n"
               "\t.reg .b16 \t%rs<8>;\n"
               "\t.reg .b32 \t%r<16>;\n"
               "\t.reg .b64 \t%rd<16>;\n"
               "\t.reg .f32 \t%f<4>;\n"
               "\t.reg .f64 \t%fd<4>;\n"
               "\n"
               "\tld.param.u64 \t%rd10, [st_types_param_0];\n"
               "\tcvta.to.global.u64 \t%rd1, %rd10;\n"
               "\tmov.u32 \t%r15, %tid.x;\n"
               "\tsetp.ne.s32 \t%p1, %r15, 0;\n"
               "\t@%p1 bra \t$L__done;\n"
               "\tmov.u32 \t%r1, 0x12345678;\n"
               "\tmov.u32 \t%r2, -559038737;\n" /* 0xdeadbeef */
               "\tmov.u32 \t%r3, 0x0a0b0c0d;\n"
               "\tmov.u32 \t%r4, 0x7fffffff;\n"
               "\tmov.u64 \t%rd3, 0x1122334455667788;\n"
               "\tmov.u64 \t%rd4, -2;\n"
               "\tmov.u16 \t%rs1, 0xabcd;\n"
               "\tmov.u16 \t%rs2, 0x1234;\n"
               "\tmov.u16 \t%rs3, 0x00ff;\n"
               "\tmov.u16 \t%rs4, 0x8000;\n"
               "\tmov.f32 \t%f1, 0f3FC00000;\n"
               "\tmov.f32 \t%f2, 0fC0000000;\n"
               "\tmov.f64 \t%fd1, 0d400921FB54442D18;\n"
               "\tmov.f64 \t%fd2, 0dBFF0000000000000;\n"
               "\tst.global.u8 \t[%rd1], %r1;\n"
               "\tst.global.u16 \t[%rd1+8], %r1;\n"
               "\tst.global.u32 \t[%rd1+16], %r1;\n"
               "\tst.global.u64 \t[%rd1+24], %rd3;\n"
               "\tst.global.u8 \t[%rd1+32], %rs1;\n"
               "\tst.global.v2.u32 \t[%rd1+40], {%r1, %r2};\n"
               "\tst.global.v4.u32 \t[%rd1+48], {%r1, %r2, %r3, %r4};\n"
               "\tst.global.v2.u64 \t[%rd1+64], {%rd3, %rd4};\n"
               "\tst.global.v4.u16 \t[%rd1+80], {%rs1, %rs2, %rs3, %rs4};\n"
               "\tst.global.v2.f32 \t[%rd1+88], {%f1, %f2};\n"
               "\tst.global.v2.f64 \t[%rd1+96], {%fd1, %fd2};\n"
               "\tst.volatile.global.u32 \t[%rd1+112], %r2;\n"
               "\tst.global.wb.u32 \t[%rd1+116], %r1;\n"
               "\tst.relaxed.gpu.global.u32 \t[%rd1+120], %r3;\n"
               "\tst.release.gpu.global.u32 \t[%rd1+124], %r4;\n"
               "\tst.global.v4.u8 \t[%rd1+128], {%rs1, %rs2, %rs3, %rs4};\n"
               "\tst.u32 \t[%rd10+136], %r3;\n" /* generic store through the raw pointer */
               "\tadd.s64 \t%rd5, %rd1, 160;\n"
               "\tst.global.u32 \t[%rd5+-8], %r1;\n"
               "\tld.global.u32 \t%r5, [%rd5+-8];\n"
               "\tst.global.u32 \t[%rd5+-4], %r5;\n"
               "\tst.global.u16 \t[%rd1+162], %rs2;\n" /* a 16-bit store in the middle of a word */
               "\tst.global.u8 \t[%rd1+167], %r3;\n"
               "\tst.global.f32 \t[%rd1+168], %f2;\n"
               "\tst.global.b64 \t[%rd1+176], %fd1;\n"
               "$L__done:\n"
               "\tret;\n"
               "}\n";

static void put_le(uint8_t *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void test_stores(void) {
  uint8_t out[256], exp[256];
  memset(exp, 0, sizeof exp);
  put_le(exp + 0, 0x78, 1);
  put_le(exp + 8, 0x5678, 2);
  put_le(exp + 16, 0x12345678, 4);
  put_le(exp + 24, 0x1122334455667788ull, 8);
  put_le(exp + 32, 0xcd, 1);
  put_le(exp + 40, 0x12345678, 4);
  put_le(exp + 44, 0xdeadbeef, 4);
  put_le(exp + 48, 0x12345678, 4);
  put_le(exp + 52, 0xdeadbeef, 4);
  put_le(exp + 56, 0x0a0b0c0d, 4);
  put_le(exp + 60, 0x7fffffff, 4);
  put_le(exp + 64, 0x1122334455667788ull, 8);
  put_le(exp + 72, 0xfffffffffffffffeull, 8);
  put_le(exp + 80, 0xabcd, 2);
  put_le(exp + 82, 0x1234, 2);
  put_le(exp + 84, 0x00ff, 2);
  put_le(exp + 86, 0x8000, 2);
  put_le(exp + 88, 0x3fc00000, 4);
  put_le(exp + 92, 0xc0000000, 4);
  put_le(exp + 96, 0x400921fb54442d18ull, 8);
  put_le(exp + 104, 0xbff0000000000000ull, 8);
  put_le(exp + 112, 0xdeadbeef, 4);
  put_le(exp + 116, 0x12345678, 4);
  put_le(exp + 120, 0x0a0b0c0d, 4);
  put_le(exp + 124, 0x7fffffff, 4);
  put_le(exp + 128, 0xcd, 1);
  put_le(exp + 129, 0x34, 1);
  put_le(exp + 130, 0xff, 1);
  put_le(exp + 131, 0x00, 1);
  put_le(exp + 136, 0x0a0b0c0d, 4);
  put_le(exp + 152, 0x12345678, 4);
  put_le(exp + 156, 0x12345678, 4);
  put_le(exp + 162, 0x1234, 2);
  put_le(exp + 167, 0x0d, 1);
  put_le(exp + 168, 0xc0000000, 4);
  put_le(exp + 176, 0x400921fb54442d18ull, 8);
  if (tk_run_io(ST_PTX, "st_types", 1, 32, 0, NULL, 0, out, sizeof out) != 0) return;
  for (int i = 0; i < 256; i++)
    if (out[i] != exp[i]) {
      fprintf(stderr, "  store result byte %d: got 0x%02x expected 0x%02x\n", i, out[i], exp[i]);
      test_failures_++;
    }
}

/* ------------------------------------------------------------------ shared memory */
static const char *SH_PTX =
    PTX_HEADER ".visible .entry shmem(\n"
               "\t.param .u64 shmem_param_0\n"
               ")\n"
               "{\n"
               "\t.reg .pred \t%p<2>;\n"
               "\t.reg .b32 \t%r<40>;\n"
               "\t.reg .b64 \t%rd<16>;\n"
               "\t// demoted variable\n"
               "\t.shared .align 16 .b8 _ZZ5shmemE2sh[1024];\n"
               "\n"
               "\tld.param.u64 \t%rd1, [shmem_param_0];\n"
               "\tcvta.to.global.u64 \t%rd1, %rd1;\n"
               "\tmov.u32 \t%r1, %tid.x;\n"
               "\tmov.u32 \t%r2, %ntid.x;\n"
               "\tmov.u32 \t%r3, %ctaid.x;\n"
               "\tmad.lo.s32 \t%r4, %r3, 1000, %r1;\n"
               "\tshl.b32 \t%r5, %r1, 2;\n"
               "\tmov.u32 \t%r6, _ZZ5shmemE2sh;\n"
               "\tadd.s32 \t%r7, %r6, %r5;\n"
               "\tst.shared.u32 \t[%r7], %r4;\n"
               "\tbar.sync \t0;\n"
               "\tsub.s32 \t%r8, %r2, 1;\n"
               "\tsub.s32 \t%r8, %r8, %r1;\n"
               "\tshl.b32 \t%r9, %r8, 2;\n"
               "\tadd.s32 \t%r10, %r6, %r9;\n"
               "\tld.shared.u32 \t%r11, [%r10];\n"
               "\tmad.lo.s32 \t%r12, %r3, %r2, %r1;\n"
               "\tmul.wide.u32 \t%rd2, %r12, 32;\n"
               "\tadd.s64 \t%rd3, %rd1, %rd2;\n"
               "\tst.global.u32 \t[%rd3], %r11;\n"
               "\tbar.sync \t0;\n"
               /* generic store into shared through cvta.shared */
               "\tmov.u64 \t%rd4, _ZZ5shmemE2sh;\n"
               "\tcvta.shared.u64 \t%rd5, %rd4;\n"
               "\tmul.wide.u32 \t%rd6, %r1, 4;\n"
               "\tadd.s64 \t%rd7, %rd5, %rd6;\n"
               "\tadd.s32 \t%r13, %r4, 7;\n"
               "\tst.u32 \t[%rd7], %r13;\n"
               "\tbar.sync \t0;\n"
               "\tld.shared.u32 \t%r14, [%r10];\n"
               "\tst.global.u32 \t[%rd3+4], %r14;\n"
               "\tand.b32 \t%r22, %r1, 127;\n"
               "\tshl.b32 \t%r23, %r22, 3;\n"
               "\tadd.s32 \t%r24, %r6, %r23;\n"
               "\tld.shared.v2.u32 \t{%r25, %r26}, [%r24];\n"
               "\tst.global.u32 \t[%rd3+20], %r25;\n"
               "\tst.global.u32 \t[%rd3+24], %r26;\n"
               "\tbar.sync \t0;\n"
               /* symbol+offset addressing */
               "\tsetp.ne.s32 \t%p1, %r1, 0;\n"
               "\t@%p1 bra \t$L__skip;\n"
               "\tst.shared.u32 \t[_ZZ5shmemE2sh+8], %r4;\n"
               "$L__skip:\n"
               "\tbar.sync \t0;\n"
               "\tld.shared.u32 \t%r15, [_ZZ5shmemE2sh+8];\n"
               "\tst.global.u32 \t[%rd3+8], %r15;\n"
               /* cvta.to.shared of the generic address gives back the shared address */
               "\tcvta.to.shared.u64 \t%rd8, %rd7;\n"
               "\tsub.s64 \t%rd9, %rd8, %rd4;\n"
               "\tcvt.u32.u64 \t%r16, %rd9;\n"
               "\tst.global.u32 \t[%rd3+12], %r16;\n"
               "\tbar.sync \t0;\n"
               /* byte stores, word loads */
               "\tadd.s32 \t%r17, %r6, %r1;\n"
               "\tst.shared.u8 \t[%r17+512], %r1;\n"
               "\tbar.sync \t0;\n"
               "\tand.b32 \t%r18, %r1, 63;\n"
               "\tshl.b32 \t%r19, %r18, 2;\n"
               "\tadd.s32 \t%r20, %r6, %r19;\n"
               "\tld.shared.u32 \t%r21, [%r20+512];\n"
               "\tst.global.u32 \t[%rd3+16], %r21;\n"
               "\tret;\n"
               "}\n";

static void test_shared_static(void) {
  enum { CTAS = 3, NT = 256 };
  uint32_t out[CTAS * NT * 8];
  if (tk_run_io(SH_PTX, "shmem", CTAS, NT, 0, NULL, 0, out, sizeof out) != 0) return;
  int bad = 0;
  for (uint32_t c = 0; c < CTAS; c++)
    for (uint32_t t = 0; t < NT; t++) {
      const uint32_t *o = out + (c * NT + t) * 8;
      uint32_t rev = NT - 1 - t, k = t % 128, b = (t % 64) * 4;
      uint32_t e[7] = {c * 1000 + rev,
                       c * 1000 + rev + 7,
                       c * 1000,
                       t * 4,
                       b | (b + 1) << 8 | (b + 2) << 16 | (uint32_t)(b + 3) << 24,
                       c * 1000 + 2 * k + 7,
                       c * 1000 + 2 * k + 1 + 7};
      static const char *const what[7] = {"st/ld.shared via mov.u32 sym", "generic st through cvta.shared",
                                          "[sym+8] addressing",           "cvta.to.shared round trip",
                                          "st.shared.u8 + ld.shared.u32", "ld.shared.v2.u32 [0]",
                                          "ld.shared.v2.u32 [1]"};
      for (int i = 0; i < 7; i++)
        if (o[i] != e[i] && bad++ < 10)
          fprintf(stderr, "  CTA %u thread %u %s: got 0x%x expected 0x%x\n", c, t, what[i], o[i], e[i]);
    }
  if (bad) {
    fprintf(stderr, "  %d shared-memory mismatches\n", bad);
    test_failures_++;
  }
}

static const char *DSH_PTX = PTX_HEADER ".extern .shared .align 16 .b8 dsh[];\n"
                                        "\n"
                                        ".visible .entry dynsh(\n"
                                        "\t.param .u64 dynsh_param_0\n"
                                        ")\n"
                                        "{\n"
                                        "\t.reg .pred \t%p<2>;\n"
                                        "\t.reg .b32 \t%r<40>;\n"
                                        "\t.reg .b64 \t%rd<16>;\n"
                                        "\t.shared .align 4 .b8 ssh[128];\n"
                                        "\n"
                                        "\tld.param.u64 \t%rd1, [dynsh_param_0];\n"
                                        "\tcvta.to.global.u64 \t%rd1, %rd1;\n"
                                        "\tmov.u32 \t%r1, %tid.x;\n"
                                        "\tmov.u32 \t%r2, %ntid.x;\n"
                                        "\tmov.u32 \t%r3, dsh;\n"
                                        "\tshl.b32 \t%r4, %r1, 2;\n"
                                        "\tadd.s32 \t%r5, %r3, %r4;\n"
                                        "\tmul.lo.s32 \t%r6, %r1, 5;\n"
                                        "\tadd.s32 \t%r6, %r6, 1;\n"
                                        "\tst.shared.u32 \t[%r5], %r6;\n"
                                        "\tmul.lo.s32 \t%r7, %r1, 9;\n"
                                        "\tst.shared.u32 \t[%r5+512], %r7;\n"
                                        "\tsetp.ge.u32 \t%p1, %r1, 32;\n"
                                        "\t@%p1 bra \t$L__nost;\n"
                                        "\tmov.u32 \t%r8, ssh;\n"
                                        "\tadd.s32 \t%r9, %r8, %r4;\n"
                                        "\tadd.s32 \t%r10, %r1, 43776;\n" /* 0xAB00 + tid */
                                        "\tst.shared.u32 \t[%r9], %r10;\n"
                                        "$L__nost:\n"
                                        "\tbar.sync \t0;\n"
                                        "\tsub.s32 \t%r11, %r2, 1;\n"
                                        "\tsub.s32 \t%r11, %r11, %r1;\n"
                                        "\tshl.b32 \t%r12, %r11, 2;\n"
                                        "\tadd.s32 \t%r13, %r3, %r12;\n"
                                        "\tld.shared.u32 \t%r14, [%r13];\n"
                                        "\tadd.s32 \t%r15, %r1, 1;\n"
                                        "\trem.u32 \t%r15, %r15, %r2;\n"
                                        "\tshl.b32 \t%r16, %r15, 2;\n"
                                        "\tadd.s32 \t%r17, %r3, %r16;\n"
                                        "\tld.shared.u32 \t%r18, [%r17+512];\n"
                                        "\tand.b32 \t%r19, %r1, 31;\n"
                                        "\tshl.b32 \t%r20, %r19, 2;\n"
                                        "\tmov.u32 \t%r21, ssh;\n"
                                        "\tadd.s32 \t%r22, %r21, %r20;\n"
                                        "\tld.shared.u32 \t%r23, [%r22];\n"
                                        "\tmul.wide.u32 \t%rd2, %r1, 16;\n"
                                        "\tadd.s64 \t%rd3, %rd1, %rd2;\n"
                                        "\tst.global.u32 \t[%rd3], %r14;\n"
                                        "\tst.global.u32 \t[%rd3+4], %r18;\n"
                                        "\tst.global.u32 \t[%rd3+8], %r23;\n"
                                        "\tret;\n"
                                        "}\n";

static void test_shared_dynamic(void) {
  enum { NT = 128 };
  uint32_t out[NT * 4];
  if (tk_run_io(DSH_PTX, "dynsh", 2, NT, NT * 8, NULL, 0, out, sizeof out) != 0) return;
  /* both CTAs write the same slots (same values); that is fine */
  int bad = 0;
  for (uint32_t t = 0; t < NT; t++) {
    uint32_t e0 = (NT - 1 - t) * 5 + 1, e1 = ((t + 1) % NT) * 9, e2 = 0xab00 + (t % 32);
    if (out[t * 4] != e0 || out[t * 4 + 1] != e1 || out[t * 4 + 2] != e2) {
      if (bad++ < 8)
        fprintf(stderr, "  thread %u: got %u %u 0x%x expected %u %u 0x%x\n", t, out[t * 4], out[t * 4 + 1],
                out[t * 4 + 2], e0, e1, e2);
    }
  }
  if (bad) test_failures_++;
}

/* ------------------------------------------------------------------ local memory */
static const char *LOCAL_PTX = PTX_HEADER ".visible .entry localmem(\n"
                                          "\t.param .u64 localmem_param_0\n"
                                          ")\n"
                                          "{\n"
                                          "\t.local .align 8 .b8 \t__local_depot0[128];\n"
                                          "\t.reg .b64 \t%SP;\n"
                                          "\t.reg .b64 \t%SPL;\n"
                                          "\t.reg .pred \t%p<4>;\n"
                                          "\t.reg .b32 \t%r<32>;\n"
                                          "\t.reg .b64 \t%rd<32>;\n"
                                          "\n"
                                          "\tmov.u64 \t%SPL, __local_depot0;\n"
                                          "\tcvta.local.u64 \t%SP, %SPL;\n"
                                          "\tld.param.u64 \t%rd1, [localmem_param_0];\n"
                                          "\tcvta.to.global.u64 \t%rd1, %rd1;\n"
                                          "\tmov.u32 \t%r1, %tid.x;\n"
                                          "\tmov.u32 \t%r2, %ctaid.x;\n"
                                          "\tmov.u32 \t%r3, %ntid.x;\n"
                                          "\tmad.lo.s32 \t%r4, %r2, %r3, %r1;\n"
                                          "\tadd.u64 \t%rd2, %SP, 0;\n"
                                          "\tadd.u64 \t%rd3, %SPL, 0;\n"
                                          "\tmov.u32 \t%r5, 0;\n"
                                          "$L__fill:\n"
                                          "\tmad.lo.s32 \t%r6, %r4, 100, %r5;\n"
                                          "\tmul.wide.u32 \t%rd4, %r5, 4;\n"
                                          "\tadd.s64 \t%rd5, %rd3, %rd4;\n"
                                          "\tst.local.u32 \t[%rd5], %r6;\n"
                                          "\tadd.s32 \t%r5, %r5, 1;\n"
                                          "\tsetp.lt.u32 \t%p1, %r5, 16;\n"
                                          "\t@%p1 bra \t$L__fill;\n"
                                          "\tand.b32 \t%r7, %r4, 15;\n"
                                          "\tmul.wide.u32 \t%rd6, %r7, 4;\n"
                                          "\tadd.s64 \t%rd7, %rd2, %rd6;\n"
                                          "\tld.u32 \t%r8, [%rd7];\n"
                                          "\tadd.s32 \t%r9, %r8, 1;\n"
                                          "\tst.u32 \t[%rd2+64], %r9;\n"
                                          "\tld.local.u32 \t%r10, [%rd3+64];\n"
                                          "\tmov.u64 \t%rd8, 81985529216486895;\n" /* 0x0123456789abcdef */
                                          "\tcvt.u64.u32 \t%rd9, %r4;\n"
                                          "\txor.b64 \t%rd10, %rd8, %rd9;\n"
                                          "\tst.local.u64 \t[%rd3+72], %rd10;\n"
                                          "\tst.local.v2.u32 \t[%rd3+80], {%r4, %r8};\n"
                                          "\tld.local.v2.u32 \t{%r11, %r12}, [%rd3+80];\n"
                                          "\tld.u64 \t%rd11, [%rd2+72];\n"
                                          "\tst.local.u32 \t[__local_depot0+96], %r4;\n"
                                          "\tld.local.u32 \t%r13, [__local_depot0+96];\n"
                                          "\tmul.wide.u32 \t%rd12, %r4, 32;\n"
                                          "\tadd.s64 \t%rd13, %rd1, %rd12;\n"
                                          "\tst.global.u32 \t[%rd13], %r8;\n"
                                          "\tst.global.u32 \t[%rd13+4], %r10;\n"
                                          "\tst.global.u64 \t[%rd13+8], %rd11;\n"
                                          "\tst.global.u32 \t[%rd13+16], %r11;\n"
                                          "\tst.global.u32 \t[%rd13+20], %r12;\n"
                                          "\tst.global.u32 \t[%rd13+24], %r13;\n"
                                          "\tret;\n"
                                          "}\n";

static void test_local(void) {
  enum { CTAS = 2, NT = 96 };
  uint32_t out[CTAS * NT * 8];
  if (tk_run_io(LOCAL_PTX, "localmem", CTAS, NT, 0, NULL, 0, out, sizeof out) != 0) return;
  int bad = 0;
  for (uint32_t g = 0; g < CTAS * NT; g++) {
    const uint32_t *o = out + g * 8;
    uint32_t v = g * 100 + g % 16;
    uint64_t x = 0x0123456789abcdefull ^ g, got64 = (uint64_t)o[2] | (uint64_t)o[3] << 32;
    if (o[0] != v || o[1] != v + 1 || got64 != x || o[4] != g || o[5] != v || o[6] != g) {
      if (bad++ < 8)
        fprintf(stderr,
                "  thread %u: got %u %u 0x%" PRIx64 " %u %u %u expected %u %u 0x%" PRIx64 " %u %u %u\n", g,
                o[0], o[1], got64, o[4], o[5], o[6], v, v + 1, x, g, v, g);
    }
  }
  if (bad) test_failures_++;
}

/* ------------------------------------------------------------------ const memory */
static const char *CONST_PTX =
    PTX_HEADER ".const .align 4 .b8 ctab[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 255, 255, 255, 255};\n"
               ".const .align 8 .u64 c64[2] = {81985529216486895, 42};\n"
               ".const .align 4 .f32 cf[2] = {0f3FC00000, 0f40490FDB};\n"
               ".const .align 4 .u32 chex[2] = {0xdeadbeef, 0x7fffffff};\n"
               ".const .align 4 .u32 cset[64];\n"
               "\n"
               ".visible .entry constmem(\n"
               "\t.param .u64 constmem_param_0\n"
               ")\n"
               "{\n"
               "\t.reg .b32 \t%r<16>;\n"
               "\t.reg .b64 \t%rd<16>;\n"
               "\t.reg .f32 \t%f<2>;\n"
               "\n"
               "\tld.param.u64 \t%rd1, [constmem_param_0];\n"
               "\tcvta.to.global.u64 \t%rd1, %rd1;\n"
               "\tmov.u32 \t%r10, %tid.x;\n"
               "\tld.const.u32 \t%r1, [ctab+4];\n"
               "\tld.const.u32 \t%r2, [ctab+12];\n"
               "\tld.const.u64 \t%rd2, [c64];\n"
               "\tld.const.u64 \t%rd3, [c64+8];\n"
               "\tld.const.f32 \t%f1, [cf+4];\n"
               "\tmov.u64 \t%rd4, ctab;\n"
               "\tand.b32 \t%r3, %r10, 3;\n"
               "\tmul.wide.u32 \t%rd5, %r3, 4;\n"
               "\tadd.s64 \t%rd6, %rd4, %rd5;\n"
               "\tld.const.u32 \t%r4, [%rd6];\n"
               "\tmov.u64 \t%rd7, cset;\n"
               "\tmul.wide.u32 \t%rd8, %r10, 4;\n"
               "\tadd.s64 \t%rd9, %rd7, %rd8;\n"
               "\tld.const.u32 \t%r5, [%rd9];\n"
               "\tld.const.s8 \t%r6, [ctab+13];\n"
               "\tld.const.u32 \t%r7, [chex];\n"
               "\tmul.wide.u32 \t%rd10, %r10, 64;\n"
               "\tadd.s64 \t%rd11, %rd1, %rd10;\n"
               "\tst.global.u32 \t[%rd11], %r1;\n"
               "\tst.global.u32 \t[%rd11+4], %r2;\n"
               "\tst.global.u64 \t[%rd11+8], %rd2;\n"
               "\tst.global.u64 \t[%rd11+16], %rd3;\n"
               "\tst.global.f32 \t[%rd11+24], %f1;\n"
               "\tst.global.u32 \t[%rd11+28], %r4;\n"
               "\tst.global.u32 \t[%rd11+32], %r5;\n"
               "\tst.global.u32 \t[%rd11+36], %r6;\n"
               "\tst.global.u32 \t[%rd11+40], %r7;\n"
               "\tret;\n"
               "}\n";

static void test_const(void) {
  enum { NT = 64 };
  TK k;
  if (tk_open(&k, CONST_PTX, "constmem") != 0) {
    test_failures_++;
    tk_close(&k);
    return;
  }
  WsDevPtr cset = 0, ctab = 0;
  size_t bytes = 0;
  WsResult r = ws_module_get_global(&cset, &bytes, k.mod, "cset");
  CHECK(r == WS_SUCCESS);
  CHECK_EQ_U64(bytes, 256);
  uint32_t vals[64];
  for (int i = 0; i < 64; i++) vals[i] = 1000u + 3u * (uint32_t)i;
  if (r == WS_SUCCESS) CHECK(ws_memcpy_htod(k.ctx, cset, vals, sizeof vals) == WS_SUCCESS);
  r = ws_module_get_global(&ctab, &bytes, k.mod, "ctab");
  CHECK(r == WS_SUCCESS);
  CHECK_EQ_U64(bytes, 16);
  if (r == WS_SUCCESS) {
    uint8_t init[16];
    static const uint8_t ref[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 255, 255, 255, 255};
    CHECK(ws_memcpy_dtoh(k.ctx, init, ctab, 16) == WS_SUCCESS);
    CHECK(memcmp(init, ref, 16) == 0);
  }
  WsDevPtr dummy;
  CHECK(ws_module_get_global(&dummy, &bytes, k.mod, "no_such_symbol") == WS_ERROR_NOT_FOUND);
  WsDevPtr dout = tk_alloc(&k, NT * 64, NULL);
  void *params[1] = {&dout};
  uint32_t out[NT * 16];
  if (tk_launch(&k, 1, 1, 1, NT, 1, 1, 0, params) == WS_SUCCESS && tk_get(&k, out, dout, sizeof out) == 0) {
    static const uint32_t tab[4] = {1, 2, 3, 0xffffffff};
    int bad = 0;
    for (uint32_t t = 0; t < NT; t++) {
      const uint32_t *o = out + t * 16;
      uint32_t e[11] = {2,          0xffffffff, 0x89abcdef,   0x01234567, 42,        0,
                        0x40490fdb, tab[t % 4], 1000 + 3 * t, 0xffffffff, 0xdeadbeef};
      for (int i = 0; i < 11; i++)
        if (o[i] != e[i] && bad++ < 8)
          fprintf(stderr, "  thread %u word %d: got 0x%x expected 0x%x\n", t, i, o[i], e[i]);
    }
    if (bad) test_failures_++;
  } else
    test_failures_++;
  tk_close(&k);
}

/* ------------------------------------------------------------------ .global variables */
static const char *GLOB_PTX = PTX_HEADER ".global .align 4 .u32 gtab[4] = {10, 20, 30, 40};\n"
                                         ".global .align 4 .b8 gbytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n"
                                         ".visible .global .align 4 .u32 gcounter;\n"
                                         ".global .align 8 .u64 gzero[2];\n"
                                         "\n"
                                         ".visible .entry globvars(\n"
                                         "\t.param .u64 globvars_param_0\n"
                                         ")\n"
                                         "{\n"
                                         "\t.reg .pred \t%p<2>;\n"
                                         "\t.reg .b32 \t%r<16>;\n"
                                         "\t.reg .b64 \t%rd<16>;\n"
                                         "\n"
                                         "\tld.param.u64 \t%rd1, [globvars_param_0];\n"
                                         "\tcvta.to.global.u64 \t%rd1, %rd1;\n"
                                         "\tmov.u32 \t%r10, %tid.x;\n"
                                         "\tsetp.ne.s32 \t%p1, %r10, 0;\n"
                                         "\t@%p1 bra \t$L__done;\n"
                                         "\tld.global.u32 \t%r1, [gtab+8];\n"
                                         "\tmov.u64 \t%rd2, gtab;\n"
                                         "\tld.global.u32 \t%r2, [%rd2+12];\n"
                                         "\tld.global.u32 \t%r3, [gbytes+4];\n"
                                         "\tld.global.u64 \t%rd3, [gzero+8];\n"
                                         "\tmov.u32 \t%r4, 99;\n"
                                         "\tst.global.u32 \t[gcounter], %r4;\n"
                                         "\tatom.global.add.u32 \t%r5, [gcounter], 1;\n"
                                         "\tcvta.global.u64 \t%rd4, %rd2;\n"
                                         "\tld.u32 \t%r6, [%rd4+4];\n"
                                         "\tst.global.u32 \t[%rd1], %r1;\n"
                                         "\tst.global.u32 \t[%rd1+4], %r2;\n"
                                         "\tst.global.u32 \t[%rd1+8], %r3;\n"
                                         "\tst.global.u64 \t[%rd1+16], %rd3;\n"
                                         "\tst.global.u32 \t[%rd1+24], %r5;\n"
                                         "\tst.global.u32 \t[%rd1+28], %r6;\n"
                                         "$L__done:\n"
                                         "\tret;\n"
                                         "}\n";

static void test_global_vars(void) {
  TK k;
  if (tk_open(&k, GLOB_PTX, "globvars") != 0) {
    test_failures_++;
    tk_close(&k);
    return;
  }
  WsDevPtr dout = tk_alloc(&k, 64, NULL);
  void *params[1] = {&dout};
  uint32_t out[16];
  if (tk_launch(&k, 1, 1, 1, 32, 1, 1, 0, params) == WS_SUCCESS && tk_get(&k, out, dout, 64) == 0) {
    CHECK_EQ_U64(out[0], 30);
    CHECK_EQ_U64(out[1], 40);
    CHECK_EQ_U64(out[2], 0x08070605);
    CHECK_EQ_U64(out[4], 0);
    CHECK_EQ_U64(out[5], 0);
    CHECK_EQ_U64(out[6], 99);
    CHECK_EQ_U64(out[7], 20);
  } else
    test_failures_++;
  WsDevPtr gc = 0, gt = 0;
  size_t bytes = 0;
  if (ws_module_get_global(&gc, &bytes, k.mod, "gcounter") == WS_SUCCESS) {
    uint32_t v = 0;
    CHECK_EQ_U64(bytes, 4);
    CHECK(ws_memcpy_dtoh(k.ctx, &v, gc, 4) == WS_SUCCESS);
    CHECK_EQ_U64(v, 100);
  } else {
    fprintf(stderr, "  get_global(gcounter): %s\n", ws_ctx_error(k.ctx));
    test_failures_++;
  }
  /* host writes to an initialised .global array are seen by the next launch */
  if (ws_module_get_global(&gt, &bytes, k.mod, "gtab") == WS_SUCCESS) {
    uint32_t nv[4] = {5, 6, 7, 8};
    CHECK_EQ_U64(bytes, 16);
    CHECK(ws_memcpy_htod(k.ctx, gt, nv, 16) == WS_SUCCESS);
    if (tk_launch(&k, 1, 1, 1, 32, 1, 1, 0, params) == WS_SUCCESS && tk_get(&k, out, dout, 64) == 0) {
      CHECK_EQ_U64(out[0], 7);
      CHECK_EQ_U64(out[1], 8);
      CHECK_EQ_U64(out[7], 6);
    } else
      test_failures_++;
  } else {
    fprintf(stderr, "  get_global(gtab): %s\n", ws_ctx_error(k.ctx));
    test_failures_++;
  }
  tk_close(&k);
}

/* ------------------------------------------------------------------ parameters */
static const char *PARAM_PTX = PTX_HEADER ".visible .entry params(\n"
                                          "\t.param .u64 params_param_0,\n"
                                          "\t.param .u32 params_param_1,\n"
                                          "\t.param .f32 params_param_2,\n"
                                          "\t.param .f64 params_param_3,\n"
                                          "\t.param .u8 params_param_4,\n"
                                          "\t.param .align 8 .b8 params_param_5[16],\n"
                                          "\t.param .u16 params_param_6,\n"
                                          "\t.param .s32 params_param_7\n"
                                          ")\n"
                                          "{\n"
                                          "\t.reg .b16 \t%rs<4>;\n"
                                          "\t.reg .b32 \t%r<16>;\n"
                                          "\t.reg .b64 \t%rd<8>;\n"
                                          "\t.reg .f32 \t%f<2>;\n"
                                          "\t.reg .f64 \t%fd<2>;\n"
                                          "\n"
                                          "\tld.param.u64 \t%rd1, [params_param_0];\n"
                                          "\tcvta.to.global.u64 \t%rd1, %rd1;\n"
                                          "\tld.param.u32 \t%r1, [params_param_1];\n"
                                          "\tld.param.f32 \t%f1, [params_param_2];\n"
                                          "\tld.param.f64 \t%fd1, [params_param_3];\n"
                                          "\tld.param.u8 \t%rs1, [params_param_4];\n"
                                          "\tld.param.u32 \t%r2, [params_param_5];\n"
                                          "\tld.param.u32 \t%r3, [params_param_5+4];\n"
                                          "\tld.param.u64 \t%rd2, [params_param_5+8];\n"
                                          "\tld.param.u16 \t%rs2, [params_param_6];\n"
                                          "\tld.param.s32 \t%r4, [params_param_7];\n"
                                          "\tld.param.v2.u32 \t{%r5, %r6}, [params_param_5];\n"
                                          "\tmov.u32 \t%r7, %tid.x;\n"
                                          "\tmul.wide.u32 \t%rd3, %r7, 96;\n"
                                          "\tadd.s64 \t%rd4, %rd1, %rd3;\n"
                                          "\tst.global.u32 \t[%rd4], %r1;\n"
                                          "\tst.global.f32 \t[%rd4+8], %f1;\n"
                                          "\tst.global.f64 \t[%rd4+16], %fd1;\n"
                                          "\tst.global.u16 \t[%rd4+24], %rs1;\n"
                                          "\tst.global.u32 \t[%rd4+32], %r2;\n"
                                          "\tst.global.u32 \t[%rd4+40], %r3;\n"
                                          "\tst.global.u64 \t[%rd4+48], %rd2;\n"
                                          "\tst.global.u16 \t[%rd4+56], %rs2;\n"
                                          "\tst.global.u32 \t[%rd4+64], %r4;\n"
                                          "\tst.global.u32 \t[%rd4+72], %r5;\n"
                                          "\tst.global.u32 \t[%rd4+80], %r6;\n"
                                          "\tret;\n"
                                          "}\n";

static void test_params(void) {
  TK k;
  if (tk_open(&k, PARAM_PTX, "params") != 0) {
    test_failures_++;
    tk_close(&k);
    return;
  }
  CHECK_EQ_U64(ws_function_param_count(k.fn), 8);
  static const size_t sizes[8] = {8, 4, 4, 8, 1, 16, 2, 4};
  for (int i = 0; i < 8; i++)
    if (ws_function_param_size(k.fn, i) != sizes[i]) {
      fprintf(stderr, "  param %d size %zu expected %zu\n", i, ws_function_param_size(k.fn, i), sizes[i]);
      test_failures_++;
    }
  CHECK(strcmp(ws_function_name(k.fn), "params") == 0);
  WsDevPtr dout = tk_alloc(&k, 96 * 64, NULL);
  uint32_t pa = 0xcafebabe;
  float pb = -3.25f;
  double pc = 6.02214076e23;
  uint8_t pd = 0xe7;
  struct {
    uint32_t x, y;
    uint64_t z;
  } ps = {0x11111111, 0x22222222, 0x3333333344444444ull};
  uint16_t pe = 0xbeef;
  int32_t pf = -123456;
  void *params[8] = {&dout, &pa, &pb, &pc, &pd, &ps, &pe, &pf};
  uint64_t out[12 * 64];
  if (tk_launch(&k, 1, 1, 1, 64, 1, 1, 0, params) == WS_SUCCESS && tk_get(&k, out, dout, sizeof out) == 0) {
    for (int t = 0; t < 64; t += 21) {
      const uint64_t *o = out + t * 12;
      CHECK_EQ_U64(o[0], 0xcafebabe);
      CHECK_EQ_U64(o[1], f2u(-3.25f));
      CHECK_EQ_U64(o[2], d2u(6.02214076e23));
      CHECK_EQ_U64(o[3], 0xe7);
      CHECK_EQ_U64(o[4], 0x11111111);
      CHECK_EQ_U64(o[5], 0x22222222);
      CHECK_EQ_U64(o[6], 0x3333333344444444ull);
      CHECK_EQ_U64(o[7], 0xbeef);
      CHECK_EQ_U64(o[8], (uint32_t)-123456);
      CHECK_EQ_U64(o[9], 0x11111111);
      CHECK_EQ_U64(o[10], 0x22222222);
    }
  } else
    test_failures_++;
  tk_close(&k);
}

/* ------------------------------------------------------------------ cvta.global round trip */
static const char *CVTA_PTX =
    PTX_HEADER ".visible .entry cvta_rt(\n"
               "\t.param .u64 cvta_rt_param_0\n"
               ")\n"
               "{\n"
               "\t.reg .b32 \t%r<8>;\n"
               "\t.reg .b64 \t%rd<8>;\n"
               "\n"
               "\tld.param.u64 \t%rd1, [cvta_rt_param_0];\n"
               "\tcvta.to.global.u64 \t%rd2, %rd1;\n"
               "\tcvta.global.u64 \t%rd3, %rd2;\n"
               "\tsub.s64 \t%rd4, %rd3, %rd1;\n"
               "\tmov.u32 \t%r1, %tid.x;\n"
               "\tmul.wide.u32 \t%rd5, %r1, 16;\n"
               "\tadd.s64 \t%rd6, %rd3, %rd5;\n"
               "\tst.u64 \t[%rd6], %rd4;\n" /* generic store */
               "\tadd.s32 \t%r2, %r1, 1000;\n"
               "\tst.global.u32 \t[%rd6+8], %r2;\n" /* .global store through the round-tripped address */
               "\tret;\n"
               "}\n";
static void test_cvta_roundtrip(void) {
  uint64_t out[64];
  if (tk_run_io(CVTA_PTX, "cvta_rt", 1, 32, 0, NULL, 0, out, sizeof out) != 0) return;
  for (int t = 0; t < 32; t++) {
    CHECK_EQ_U64(out[2 * t], 0);
    CHECK_EQ_U64(out[2 * t + 1], 1000 + t);
  }
}

/* initialisers with extreme values; "-9223372036854775808" = INT64_MIN.
 * Regression test: the core once negated the literal as int64_t while parsing initialisers
 * (src/ptx/parse.c, signed overflow, UBSan abort). Kept last in main(). */
static const char *INIT_PTX = PTX_HEADER ".global .align 8 .s64 gmin = -9223372036854775808;\n"
                                         ".global .align 8 .u64 gmax = 18446744073709551615;\n"
                                         ".global .align 4 .s32 gneg[3] = {-1, -2147483648, 2147483647};\n"
                                         ".global .align 4 .f32 gf[2] = {-1.5, 0fFF800000};\n"
                                         ".global .align 8 .f64 gd = 0d3FF8000000000000;\n"
                                         "\n"
                                         ".visible .entry inits(\n"
                                         "\t.param .u64 inits_param_0\n"
                                         ")\n"
                                         "{\n"
                                         "\tret;\n"
                                         "}\n";
static void test_initializer_extremes(void) {
  TK k;
  if (tk_open(&k, INIT_PTX, "inits") != 0) {
    test_failures_++;
    tk_close(&k);
    return;
  }
  static const struct {
    const char *name;
    size_t bytes;
    uint64_t lo, hi;
  } g[] = {{"gmin", 8, 0x8000000000000000ull, 0},
           {"gmax", 8, ~0ull, 0},
           {"gneg", 12, 0x80000000ffffffffull, 0x7fffffff},
           {"gf", 8, 0xff800000bfc00000ull, 0},
           {"gd", 8, 0x3ff8000000000000ull, 0}};
  for (unsigned i = 0; i < sizeof g / sizeof g[0]; i++) {
    WsDevPtr p = 0;
    size_t bytes = 0;
    uint64_t v[2] = {0, 0};
    if (ws_module_get_global(&p, &bytes, k.mod, g[i].name) != WS_SUCCESS) {
      fprintf(stderr, "  get_global(%s): %s\n", g[i].name, ws_ctx_error(k.ctx));
      test_failures_++;
      continue;
    }
    CHECK_EQ_U64(bytes, g[i].bytes);
    if (ws_memcpy_dtoh(k.ctx, v, p, g[i].bytes) == WS_SUCCESS) {
      if (v[0] != g[i].lo || v[1] != g[i].hi) {
        fprintf(stderr, "  %s: got 0x%" PRIx64 " 0x%" PRIx64 " expected 0x%" PRIx64 " 0x%" PRIx64 "\n",
                g[i].name, v[0], v[1], g[i].lo, g[i].hi);
        test_failures_++;
      }
    } else
      test_failures_++;
  }
  tk_close(&k);
}

int main(void) {
  TEST_RUN(test_loads);
  TEST_RUN(test_stores);
  TEST_RUN(test_shared_static);
  TEST_RUN(test_shared_dynamic);
  TEST_RUN(test_local);
  TEST_RUN(test_const);
  TEST_RUN(test_global_vars);
  TEST_RUN(test_params);
  TEST_RUN(test_cvta_roundtrip);
  TEST_RUN(test_initializer_extremes); /* once crashed the core: keep last */
  return TEST_DONE();
}
