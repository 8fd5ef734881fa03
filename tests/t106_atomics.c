/* t106_atomics.c - atom and red on global, shared and generic addresses (PTX ISA 9.0 "atom", "red").
 *
 * Many threads (several CTAs for global) hit one address. Final values must be
 * exact; the values returned by atom (the old values) must be consistent with
 * some serial order: for add of 1 they are a permutation of init..init+N-1, for
 * exch the olds plus the final value are a permutation of init plus all operands,
 * for inc/dec (same operand everywhere) the olds are the sequence visited.
 *   inc(r, s) = (r >= s) ? 0 : r + 1;   dec(r, s) = (r == 0 || r > s) ? s : r - 1;
 *   cas(r, s, t) = (r == s) ? t : r;    exch(r, s) = s. */
#include "common/opkit.h"

#include <stdlib.h>

TEST_GLOBALS;

enum { SP_GLOBAL, SP_SHARED, SP_GENERIC_GLOBAL, SP_GENERIC_SHARED };
static const char *const SPNAME[] = {"global", "shared", "generic->global", "generic->shared"};

/* replaces $S (".global" / ".shared" / "") and $A (address register) in body */
static char *subst(const char *body, int space) {
  static const char *const S[] = {".global", ".shared", "", ""};
  static const char *const A[] = {"%rd3", "%r3", "%rd9", "%rd9"};
  size_t n = strlen(body) * 2 + 64;
  char *o = malloc(n), *w = o;
  if (!o) return NULL;
  for (const char *p = body; *p; p++) {
    if (p[0] == '$' && p[1] == 'S') {
      w += sprintf(w, "%s", S[space]);
      p++;
    } else if (p[0] == '$' && p[1] == 'A') {
      w += sprintf(w, "%s", A[space]);
      p++;
    } else
      *w++ = *p;
  }
  *w = 0;
  return o;
}

static char *atom_kernel(const char *body, int space) {
  int shared = space == SP_SHARED || space == SP_GENERIC_SHARED;
  char *b = subst(body, space);
  if (!b) return NULL;
  size_t n = strlen(b) + 4096;
  char *s = malloc(n);
  if (!s) {
    free(b);
    return NULL;
  }
  snprintf(s, n,
           PTX_HEADER ".visible .entry atomk(\n"
                      "\t.param .u64 atomk_param_0,\n"
                      "\t.param .u64 atomk_param_1,\n"
                      "\t.param .u64 atomk_param_2,\n"
                      "\t.param .u64 atomk_param_3\n"
                      ")\n"
                      "{\n"
                      "\t.reg .pred \t%%p<8>;\n"
                      "\t.reg .b32 \t%%r<32>;\n"
                      "\t.reg .b64 \t%%rd<32>;\n"
                      "\t.reg .f32 \t%%f<32>;\n"
                      "\t.reg .f64 \t%%fd<32>;\n"
                      "%s"
                      "\n"
                      "\tld.param.u64 \t%%rd1, [atomk_param_0];\n"
                      "\tld.param.u64 \t%%rd2, [atomk_param_1];\n"
                      "\tld.param.u64 \t%%rd9, [atomk_param_2];\n"
                      "\tld.param.u64 \t%%rd4, [atomk_param_3];\n"
                      "\tcvta.to.global.u64 \t%%rd1, %%rd1;\n"
                      "\tcvta.to.global.u64 \t%%rd2, %%rd2;\n"
                      "\tcvta.to.global.u64 \t%%rd3, %%rd9;\n"
                      "\tmov.u32 \t%%r1, %%tid.x;\n"
                      "\tmov.u32 \t%%r2, %%ctaid.x;\n"
                      "\tmov.u32 \t%%r4, %%ntid.x;\n"
                      "\tmad.lo.s32 \t%%r5, %%r2, %%r4, %%r1;\n"
                      "\tmul.wide.u32 \t%%rd5, %%r5, 16;\n"
                      "\tadd.s64 \t%%rd6, %%rd2, %%rd5;\n"
                      "\tmul.wide.u32 \t%%rd7, %%r5, 8;\n"
                      "\tadd.s64 \t%%rd8, %%rd1, %%rd7;\n"
                      "\tld.global.u64 \t%%rd10, [%%rd6];\n"
                      "\tld.global.u64 \t%%rd11, [%%rd6+8];\n"
                      "\tld.global.u32 \t%%r10, [%%rd6];\n"
                      "\tld.global.u32 \t%%r11, [%%rd6+8];\n"
                      "\tld.global.f32 \t%%f10, [%%rd6];\n"
                      "\tld.global.f32 \t%%f11, [%%rd6+8];\n"
                      "\tld.global.f64 \t%%fd10, [%%rd6];\n"
                      "\tld.global.f64 \t%%fd11, [%%rd6+8];\n"
                      "%s"
                      "\t// ---- body ----\n\t%s\n\t// ---- end ----\n"
                      "%s"
                      "\tret;\n"
                      "}\n",
           shared ? "\t.shared .align 8 .b8 sm[8];\n" : "",
           shared ? "\tmov.u32 \t%r3, sm;\n"
                    "\tmov.u64 \t%rd12, sm;\n"
                    "\tcvta.shared.u64 \t%rd9, %rd12;\n"
                    "\tsetp.ne.s32 \t%p7, %r1, 0;\n"
                    "\t@%p7 bra \t$L__init_done;\n"
                    "\tst.shared.u64 \t[sm], %rd4;\n"
                    "$L__init_done:\n"
                    "\tbar.sync \t0;\n"
                  : "",
           b,
           shared ? "\tbar.sync \t0;\n"
                    "\t@%p7 bra \t$L__fin_done;\n"
                    "\tld.shared.u64 \t%rd13, [sm];\n"
                    "\tst.global.u64 \t[%rd3], %rd13;\n"
                    "$L__fin_done:\n"
                  : "");
  free(b);
  return s;
}

/* Runs body for n threads (operands bc[i] = {b, c}); global: grid of n/block CTAs; shared: one CTA.
 * *final receives the target's 8 bytes, olds[i] the thread's output word. */
static int atom_run(const char *body, int space, const uint64_t (*bc)[2], int n, unsigned block,
                    uint64_t init, uint64_t *final, uint64_t *olds) {
  char *ptx = atom_kernel(body, space);
  TK k;
  int rc = -1;
  if (!ptx) return -1;
  if (space == SP_SHARED || space == SP_GENERIC_SHARED) block = (unsigned)n;
  if (tk_open(&k, ptx, "atomk") == 0) {
    WsDevPtr dout = tk_alloc(&k, 8 * (size_t)n, NULL);
    WsDevPtr din = tk_alloc(&k, 16 * (size_t)n, bc);
    WsDevPtr dtgt = tk_alloc(&k, 8, &init);
    void *params[4] = {&dout, &din, &dtgt, &init};
    if (dout && din && dtgt &&
        tk_launch(&k, (unsigned)n / block, 1, 1, block, 1, 1, 0, params) == WS_SUCCESS &&
        tk_get(&k, olds, dout, 8 * (size_t)n) == 0 && tk_get(&k, final, dtgt, 8) == 0)
      rc = 0;
  }
  if (rc) {
    fprintf(stderr, "  (%s, body: %s)\n", SPNAME[space], body);
    test_failures_++;
  }
  tk_close(&k);
  free(ptx);
  return rc;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}
/* multiset equality of a[0..n) and b[0..n) (both are sorted in place) */
static int same_multiset(uint64_t *a, uint64_t *b, int n) {
  qsort(a, (size_t)n, 8, cmp_u64);
  qsort(b, (size_t)n, 8, cmp_u64);
  return memcmp(a, b, 8 * (size_t)n) == 0;
}

#define NG 1024 /* threads for global tests: 8 CTAs x 128 */
#define NS 512  /* threads for shared tests: one CTA */

static uint64_t bc[NG][2], olds[NG + 1], expv[NG + 1];

static int nthreads(int space) { return (space == SP_SHARED || space == SP_GENERIC_SHARED) ? NS : NG; }

static void report(int ok, const char *what, int space, uint64_t final, uint64_t expf) {
  if (!ok) {
    fprintf(stderr, "  %s [%s]: final 0x%" PRIx64 " expected 0x%" PRIx64 " (or inconsistent old values)\n",
            what, SPNAME[space], final, expf);
    test_failures_++;
  }
}

/* add of 1: final = init + N, olds = permutation of init..init+N-1 */
static void check_add_one(const char *body, int space, uint64_t init, uint64_t mask, int is_float,
                          int is_f64) {
  int n = nthreads(space);
  uint64_t final = 0;
  uint64_t one = is_f64 ? d2u(1.0) : is_float ? f2u(1.0f) : 1;
  for (int i = 0; i < n; i++) bc[i][0] = one, bc[i][1] = 0;
  if (atom_run(body, space, (const uint64_t(*)[2])bc, n, 128, init, &final, olds) != 0) return;
  for (int i = 0; i < n; i++) {
    olds[i] &= mask;
    if (is_f64)
      expv[i] = d2u(u2d(init) + i);
    else if (is_float)
      expv[i] = f2u(u2f((uint32_t)init) + (float)i);
    else
      expv[i] = (init + (uint64_t)i) & mask;
  }
  uint64_t expf = is_f64     ? d2u(u2d(init) + n)
                  : is_float ? f2u(u2f((uint32_t)init) + (float)n)
                             : (init + (uint64_t)n) & mask;
  report((final & mask) == expf && same_multiset(olds, expv, n), body, space, final & mask, expf);
}

static void test_atom_add_int(void) {
  for (int sp = 0; sp < 4; sp++) {
    check_add_one("atom$S.add.u32 %r20, [$A], %r10;\n\tst.global.u32 [%rd8], %r20;", sp, 1000, 0xffffffffull,
                  0, 0);
    check_add_one("atom$S.add.s32 %r20, [$A], %r10;\n\tst.global.u32 [%rd8], %r20;", sp, 0xfffffe00ull,
                  0xffffffffull, 0, 0); /* wraps through zero */
    check_add_one("atom$S.add.u64 %rd20, [$A], %rd10;\n\tst.global.u64 [%rd8], %rd20;", sp,
                  0xfffffffffffffe00ull, ~0ull, 0, 0);
  }
  check_add_one("atom.relaxed.gpu.global.add.u32 %r20, [%rd3], %r10;\n\tst.global.u32 [%rd8], %r20;",
                SP_GLOBAL, 7, 0xffffffffull, 0, 0);
  check_add_one("atom.global.add.u32 %r20, [%rd3], 1;\n\tst.global.u32 [%rd8], %r20;", SP_GLOBAL, 0,
                0xffffffffull, 0, 0); /* immediate operand */
}

static void test_atom_add_float(void) {
  for (int sp = 0; sp < 4; sp++) {
    check_add_one("atom$S.add.f32 %f20, [$A], %f10;\n\tst.global.f32 [%rd8], %f20;", sp, f2u(0.5f),
                  0xffffffffull, 1, 0);
    check_add_one("atom$S.add.f64 %fd20, [$A], %fd10;\n\tst.global.f64 [%rd8], %fd20;", sp, d2u(-3.0), ~0ull,
                  0, 1);
  }
}

/* operands that differ per thread: final only (sum is order independent for integers and
 * for these exactly-representable floats) */
static void test_atom_add_mixed(void) {
  for (int sp = 0; sp < 4; sp++) {
    int n = nthreads(sp);
    uint64_t final = 0, s32 = 0, s64 = 0;
    double sd = 0.25;
    float sf = 2.0f;
    for (int i = 0; i < n; i++) {
      int32_t v = (i * 7919) % 1000 - 500;
      bc[i][0] = (uint32_t)v;
      bc[i][1] = 0;
      s32 += (uint32_t)v;
    }
    if (atom_run("atom$S.add.s32 %r20, [$A], %r10;", sp, (const uint64_t(*)[2])bc, n, 128, 0, &final, olds) ==
        0)
      report((uint32_t) final == (uint32_t)s32, "atom.add.s32 mixed signs", sp, (uint32_t) final,
             (uint32_t)s32);
    for (int i = 0; i < n; i++) {
      bc[i][0] = (uint64_t)i * 0x100000001ull;
      s64 += bc[i][0];
    }
    if (atom_run("atom$S.add.u64 %rd20, [$A], %rd10;", sp, (const uint64_t(*)[2])bc, n, 128, 5, &final,
                 olds) == 0)
      report(final == s64 + 5, "atom.add.u64 large", sp, final, s64 + 5);
    for (int i = 0; i < n; i++) {
      float v = (float)(i % 7) - 3.0f;
      bc[i][0] = f2u(v);
      sf += v;
    }
    if (atom_run("atom$S.add.f32 %f20, [$A], %f10;", sp, (const uint64_t(*)[2])bc, n, 128, f2u(2.0f), &final,
                 olds) == 0)
      report((uint32_t) final == f2u(sf), "atom.add.f32 mixed", sp, (uint32_t) final, f2u(sf));
    for (int i = 0; i < n; i++) {
      double v = (double)(i % 13) * 0.5;
      bc[i][0] = d2u(v);
      sd += v;
    }
    if (atom_run("atom$S.add.f64 %fd20, [$A], %fd10;", sp, (const uint64_t(*)[2])bc, n, 128, d2u(0.25),
                 &final, olds) == 0)
      report(final == d2u(sd), "atom.add.f64 mixed", sp, final, d2u(sd));
  }
}

/* min/max: final = extreme of init and all operands; every old lies between final and init */
static void check_minmax(const char *body, int space, int bits, int is_signed, int is_max, uint64_t init) {
  int n = nthreads(space);
  uint64_t final = 0, mask = bits == 32 ? 0xffffffffull : ~0ull;
  for (int i = 0; i < n; i++) {
    int64_t v = (int64_t)((i * 7919) % 100003) - 50000;
    if (bits == 64) v *= 1000000007LL;
    bc[i][0] = (uint64_t)v & mask;
  }
#define KEY(x) (is_signed ? (bits == 32 ? (int64_t)(int32_t)(uint32_t)(x) : (int64_t)(x)) : 0)
#define LESS(x, y) (is_signed ? KEY(x) < KEY(y) : (x) < (y))
  uint64_t e = init & mask;
  for (int i = 0; i < n; i++)
    if (is_max ? LESS(e, bc[i][0]) : LESS(bc[i][0], e)) e = bc[i][0];
  if (atom_run(body, space, (const uint64_t(*)[2])bc, n, 128, init, &final, olds) != 0) return;
  int ok = (final & mask) == e;
  for (int i = 0; i < n && ok; i++) {
    uint64_t o = olds[i] & mask;
    /* old must be between the final value and init (inclusive) */
    if (is_max ? (LESS(o, init & mask) || LESS(e, o)) : (LESS(init & mask, o) || LESS(o, e))) ok = 0;
  }
  report(ok, body, space, final & mask, e);
#undef KEY
#undef LESS
}

static void test_atom_min_max(void) {
  for (int sp = 0; sp < 4; sp++) {
    check_minmax("atom$S.min.s32 %r20, [$A], %r10;\n\tst.global.u32 [%rd8], %r20;", sp, 32, 1, 0, 1000);
    check_minmax("atom$S.max.s32 %r20, [$A], %r10;\n\tst.global.u32 [%rd8], %r20;", sp, 32, 1, 1,
                 (uint32_t)-1000);
    check_minmax("atom$S.min.u32 %r20, [$A], %r10;\n\tst.global.u32 [%rd8], %r20;", sp, 32, 0, 0,
                 0xfffffff0u);
    check_minmax("atom$S.max.u32 %r20, [$A], %r10;\n\tst.global.u32 [%rd8], %r20;", sp, 32, 0, 1, 3);
    check_minmax("atom$S.min.s64 %rd20, [$A], %rd10;\n\tst.global.u64 [%rd8], %rd20;", sp, 64, 1, 0,
                 1ull << 40);
    check_minmax("atom$S.max.s64 %rd20, [$A], %rd10;\n\tst.global.u64 [%rd8], %rd20;", sp, 64, 1, 1,
                 (uint64_t) - (1LL << 40));
    check_minmax("atom$S.min.u64 %rd20, [$A], %rd10;\n\tst.global.u64 [%rd8], %rd20;", sp, 64, 0, 0, ~0ull);
    check_minmax("atom$S.max.u64 %rd20, [$A], %rd10;\n\tst.global.u64 [%rd8], %rd20;", sp, 64, 0, 1, 0);
  }
}

/* inc/dec with the same limit in every thread: the visited sequence is order independent */
static void check_incdec(const char *body, int space, int is_dec, uint32_t limit, uint32_t init) {
  int n = nthreads(space);
  uint64_t final = 0;
  for (int i = 0; i < n; i++) bc[i][0] = limit, bc[i][1] = 0;
  uint32_t r = init;
  for (int i = 0; i < n; i++) {
    expv[i] = r;
    if (is_dec)
      r = (r == 0 || r > limit) ? limit : r - 1;
    else
      r = (r >= limit) ? 0 : r + 1;
  }
  if (atom_run(body, space, (const uint64_t(*)[2])bc, n, 128, init, &final, olds) != 0) return;
  for (int i = 0; i < n; i++) olds[i] &= 0xffffffffull;
  report((uint32_t) final == r && same_multiset(olds, expv, n), body, space, (uint32_t) final, r);
}

static void test_atom_inc_dec(void) {
  for (int sp = 0; sp < 4; sp++) {
    check_incdec("atom$S.inc.u32 %r20, [$A], %r10;\n\tst.global.u32 [%rd8], %r20;", sp, 0, 10, 0);
    check_incdec("atom$S.inc.u32 %r20, [$A], %r10;\n\tst.global.u32 [%rd8], %r20;", sp, 0, 100,
                 250); /* r >= s -> 0 */
    check_incdec("atom$S.dec.u32 %r20, [$A], %r10;\n\tst.global.u32 [%rd8], %r20;", sp, 1, 10, 0);
    check_incdec("atom$S.dec.u32 %r20, [$A], %r10;\n\tst.global.u32 [%rd8], %r20;", sp, 1, 17,
                 1000); /* r > s -> s */
  }
  check_incdec("atom.global.inc.u32 %r20, [%rd3], 0xffffffff;\n\tst.global.u32 [%rd8], %r20;", SP_GLOBAL, 0,
               0xffffffffu, 0xfffffe00u);
}

/* exch: olds + final = init + all operands (as multisets) */
static void check_exch(const char *body, int space, int bits) {
  int n = nthreads(space);
  uint64_t final = 0, mask = bits == 32 ? 0xffffffffull : ~0ull, init = 0xabcdef0123456789ull & mask;
  for (int i = 0; i < n; i++) {
    bc[i][0] = ((uint64_t)i * 0x9e3779b97f4a7c15ull + 100) & mask;
    expv[i] = bc[i][0];
  }
  expv[n] = init;
  if (atom_run(body, space, (const uint64_t(*)[2])bc, n, 128, init, &final, olds) != 0) return;
  for (int i = 0; i < n; i++) olds[i] &= mask;
  olds[n] = final & mask;
  report(same_multiset(olds, expv, n + 1), body, space, final & mask, 0);
}

static void test_atom_exch(void) {
  for (int sp = 0; sp < 4; sp++) {
    check_exch("atom$S.exch.b32 %r20, [$A], %r10;\n\tst.global.u32 [%rd8], %r20;", sp, 32);
    check_exch("atom$S.exch.b64 %rd20, [$A], %rd10;\n\tst.global.u64 [%rd8], %rd20;", sp, 64);
  }
}

/* and/or/xor: final = init OP all operands */
static void check_bitop(const char *body, int space, int bits, int op, uint64_t init) {
  int n = nthreads(space);
  uint64_t final = 0, mask = bits == 32 ? 0xffffffffull : ~0ull, e = init & mask;
  for (int i = 0; i < n; i++) {
    uint64_t bit = 1ull << (i % bits);
    bc[i][0] = (op == 0 ? ~bit : (op == 1 ? bit : bit | (1ull << ((i * 5) % bits)))) & mask;
    e = op == 0 ? (e & bc[i][0]) : op == 1 ? (e | bc[i][0]) : (e ^ bc[i][0]);
  }
  if (atom_run(body, space, (const uint64_t(*)[2])bc, n, 128, init, &final, olds) != 0) return;
  report((final & mask) == e, body, space, final & mask, e);
}

static void test_atom_bitops(void) {
  for (int sp = 0; sp < 4; sp++) {
    check_bitop("atom$S.and.b32 %r20, [$A], %r10;", sp, 32, 0, 0xffffffffull);
    check_bitop("atom$S.or.b32 %r20, [$A], %r10;", sp, 32, 1, 0x100);
    check_bitop("atom$S.xor.b32 %r20, [$A], %r10;", sp, 32, 2, 0x5a5a5a5a);
    check_bitop("atom$S.and.b64 %rd20, [$A], %rd10;", sp, 64, 0, ~0ull);
    check_bitop("atom$S.or.b64 %rd20, [$A], %rd10;", sp, 64, 1, 0);
    check_bitop("atom$S.xor.b64 %rd20, [$A], %rd10;", sp, 64, 2, 0x123456789abcdef0ull);
  }
}

/* cas: only the thread whose compare value matches succeeds; everybody else sees init or the new value */
static void check_cas_single(const char *body, int space, int bits) {
  int n = nthreads(space), winner = n / 3;
  uint64_t final = 0, mask = bits == 32 ? 0xffffffffull : ~0ull;
  uint64_t init = 0x0123456789abcdefull & mask, newv = 0xfedcba9876543210ull & mask;
  for (int i = 0; i < n; i++) {
    bc[i][0] = i == winner ? init : (init + 1 + (uint64_t)i) & mask; /* compare */
    bc[i][1] = i == winner ? newv : (uint64_t)i;                     /* swap */
  }
  if (atom_run(body, space, (const uint64_t(*)[2])bc, n, 128, init, &final, olds) != 0) return;
  int ok = (final & mask) == newv && (olds[winner] & mask) == init;
  for (int i = 0; i < n; i++)
    if ((olds[i] & mask) != init && (olds[i] & mask) != newv) ok = 0;
  report(ok, body, space, final & mask, newv);
}

/* cas loop: every thread increments with a compare-and-swap retry loop (divergent retries) */
static void check_cas_loop(const char *body, int space, int bits) {
  int n = nthreads(space);
  uint64_t final = 0, mask = bits == 32 ? 0xffffffffull : ~0ull, init = 40;
  for (int i = 0; i < n; i++) {
    bc[i][0] = bc[i][1] = 0;
    expv[i] = init + 1 + (uint64_t)i;
  }
  if (atom_run(body, space, (const uint64_t(*)[2])bc, n, 128, init, &final, olds) != 0) return;
  for (int i = 0; i < n; i++) olds[i] &= mask;
  report((final & mask) == init + (uint64_t)n && same_multiset(olds, expv, n), body, space, final & mask,
         init + (uint64_t)n);
}

static void test_atom_cas(void) {
  for (int sp = 0; sp < 4; sp++) {
    check_cas_single("atom$S.cas.b32 %r20, [$A], %r10, %r11;\n\tst.global.u32 [%rd8], %r20;", sp, 32);
    check_cas_single("atom$S.cas.b64 %rd20, [$A], %rd10, %rd11;\n\tst.global.u64 [%rd8], %rd20;", sp, 64);
    check_cas_loop("ld.volatile$S.u32 %r21, [$A];\n"
                   "$L__retry:\n\t"
                   "add.s32 %r22, %r21, 1;\n\t"
                   "atom$S.cas.b32 %r23, [$A], %r21, %r22;\n\t"
                   "setp.ne.s32 %p1, %r23, %r21;\n\t"
                   "mov.u32 %r21, %r23;\n\t"
                   "@%p1 bra $L__retry;\n\t"
                   "st.global.u32 [%rd8], %r22;",
                   sp, 32);
    check_cas_loop("ld.volatile$S.u64 %rd21, [$A];\n"
                   "$L__retry:\n\t"
                   "add.s64 %rd22, %rd21, 1;\n\t"
                   "atom$S.cas.b64 %rd23, [$A], %rd21, %rd22;\n\t"
                   "setp.ne.s64 %p1, %rd23, %rd21;\n\t"
                   "mov.u64 %rd21, %rd23;\n\t"
                   "@%p1 bra $L__retry;\n\t"
                   "st.global.u64 [%rd8], %rd22;",
                   sp, 64);
  }
}

/* red: no return value; final values only */
static void test_red(void) {
  for (int sp = 0; sp < 4; sp++) {
    int n = nthreads(sp);
    uint64_t final = 0;
    for (int i = 0; i < n; i++) bc[i][0] = (uint64_t)i + 1, bc[i][1] = 0;
    if (atom_run("red$S.add.u32 [$A], %r10;", sp, (const uint64_t(*)[2])bc, n, 128, 3, &final, olds) == 0)
      report((uint32_t) final == 3 + (uint32_t)(n * (n + 1) / 2), "red.add.u32", sp, (uint32_t) final,
             3 + (uint32_t)(n * (n + 1) / 2));
    if (atom_run("red$S.add.u64 [$A], %rd10;", sp, (const uint64_t(*)[2])bc, n, 128, 1ull << 40, &final,
                 olds) == 0)
      report(final == (1ull << 40) + (uint64_t)(n * (n + 1) / 2), "red.add.u64", sp, final,
             (1ull << 40) + (uint64_t)(n * (n + 1) / 2));
    if (atom_run("red$S.max.s32 [$A], %r10;", sp, (const uint64_t(*)[2])bc, n, 128, (uint32_t)-5, &final,
                 olds) == 0)
      report((uint32_t) final == (uint32_t)n, "red.max.s32", sp, (uint32_t) final, (uint32_t)n);
    if (atom_run("red$S.min.u32 [$A], %r10;", sp, (const uint64_t(*)[2])bc, n, 128, 0xffffffffull, &final,
                 olds) == 0)
      report((uint32_t) final == 1, "red.min.u32", sp, (uint32_t) final, 1);
    if (atom_run("red$S.or.b32 [$A], %r10;", sp, (const uint64_t(*)[2])bc, n, 128, 0, &final, olds) == 0) {
      uint32_t e = 0;
      for (int i = 0; i < n; i++) e |= (uint32_t)bc[i][0];
      report((uint32_t) final == e, "red.or.b32", sp, (uint32_t) final, e);
    }
    if (atom_run("red$S.inc.u32 [$A], %r11;", sp, (const uint64_t(*)[2])bc, n, 128, 0, &final, olds) == 0)
      report((uint32_t) final == 0, "red.inc.u32 (limit 0: stays 0)", sp, (uint32_t) final, 0);
    for (int i = 0; i < n; i++) bc[i][0] = f2u(0.25f);
    if (atom_run("red$S.add.f32 [$A], %f10;", sp, (const uint64_t(*)[2])bc, n, 128, f2u(1.0f), &final,
                 olds) == 0)
      report((uint32_t) final == f2u(1.0f + 0.25f * (float)n), "red.add.f32", sp, (uint32_t) final,
             f2u(1.0f + 0.25f * (float)n));
    for (int i = 0; i < n; i++) bc[i][0] = d2u(-0.125);
    if (atom_run("red$S.add.f64 [$A], %fd10;", sp, (const uint64_t(*)[2])bc, n, 128, d2u(0.0), &final,
                 olds) == 0)
      report(final == d2u(-0.125 * n), "red.add.f64", sp, final, d2u(-0.125 * n));
  }
}

/* atomics on several distinct addresses: histogram of tid % 37 into 37 shared bins and global bins */
static const char *HIST_PTX = PTX_HEADER ".visible .entry hist(\n"
                                         "\t.param .u64 hist_param_0\n"
                                         ")\n"
                                         "{\n"
                                         "\t.reg .pred \t%p<4>;\n"
                                         "\t.reg .b32 \t%r<32>;\n"
                                         "\t.reg .b64 \t%rd<16>;\n"
                                         "\t.shared .align 4 .b8 bins[148];\n"
                                         "\n"
                                         "\tld.param.u64 \t%rd1, [hist_param_0];\n"
                                         "\tcvta.to.global.u64 \t%rd1, %rd1;\n"
                                         "\tmov.u32 \t%r1, %tid.x;\n"
                                         "\tmov.u32 \t%r2, %ctaid.x;\n"
                                         "\tmov.u32 \t%r3, %ntid.x;\n"
                                         "\tsetp.ge.u32 \t%p1, %r1, 37;\n"
                                         "\t@%p1 bra \t$L__z;\n"
                                         "\tshl.b32 \t%r4, %r1, 2;\n"
                                         "\tmov.u32 \t%r5, bins;\n"
                                         "\tadd.s32 \t%r6, %r5, %r4;\n"
                                         "\tmov.u32 \t%r7, 0;\n"
                                         "\tst.shared.u32 \t[%r6], %r7;\n"
                                         "$L__z:\n"
                                         "\tbar.sync \t0;\n"
                                         "\tmad.lo.s32 \t%r8, %r2, %r3, %r1;\n"
                                         "\tmul.lo.s32 \t%r9, %r8, 7;\n"
                                         "\trem.u32 \t%r10, %r9, 37;\n"
                                         "\tshl.b32 \t%r11, %r10, 2;\n"
                                         "\tmov.u32 \t%r12, bins;\n"
                                         "\tadd.s32 \t%r13, %r12, %r11;\n"
                                         "\tatom.shared.add.u32 \t%r14, [%r13], 1;\n"
                                         "\tbar.sync \t0;\n"
                                         "\t@%p1 bra \t$L__done;\n"
                                         "\tshl.b32 \t%r15, %r1, 2;\n"
                                         "\tadd.s32 \t%r16, %r12, %r15;\n"
                                         "\tld.shared.u32 \t%r17, [%r16];\n"
                                         "\tmul.wide.u32 \t%rd2, %r1, 4;\n"
                                         "\tadd.s64 \t%rd3, %rd1, %rd2;\n"
                                         "\tred.global.add.u32 \t[%rd3], %r17;\n"
                                         "$L__done:\n"
                                         "\tret;\n"
                                         "}\n";

static void test_histogram(void) {
  enum { CTAS = 12, NT = 256 };
  uint32_t out[37], e[37];
  memset(e, 0, sizeof e);
  for (uint32_t g = 0; g < CTAS * NT; g++) e[(g * 7) % 37]++;
  if (tk_run_io(HIST_PTX, "hist", CTAS, NT, 0, NULL, 0, out, sizeof out) != 0) return;
  for (int i = 0; i < 37; i++)
    if (out[i] != e[i]) {
      fprintf(stderr, "  bin %d: got %u expected %u\n", i, out[i], e[i]);
      test_failures_++;
    }
}

int main(void) {
  TEST_RUN(test_atom_add_int);
  TEST_RUN(test_atom_add_float);
  TEST_RUN(test_atom_add_mixed);
  TEST_RUN(test_atom_min_max);
  TEST_RUN(test_atom_inc_dec);
  TEST_RUN(test_atom_exch);
  TEST_RUN(test_atom_bitops);
  TEST_RUN(test_atom_cas);
  TEST_RUN(test_red);
  TEST_RUN(test_histogram);
  return TEST_DONE();
}
