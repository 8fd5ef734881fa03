/* t114_fatbin.c - the fat-binary reader of warpsim's CUDA runtime (src/cudart/fatbin.c) on
 * fat binaries built here byte by byte in the layout nvcc writes: the PTX of the lowest
 * compute architecture is chosen, LZ4-compressed entries are decoded, the register counts of
 * a cubin's kernels (the top byte of each .text.<kernel> section's sh_info) become
 * `//@warpsim regs` lines, a fat binary with only machine code has no PTX (and names its
 * sm_XX), and corrupt input is an error with a message, never a read past the buffer. */
#include "common/test.h"

#include <stdlib.h>

#include "../src/cudart/fatbin.c"

TEST_GLOBALS;

typedef struct Buf {
  uint8_t b[4096];
  size_t n;
} Buf;

static void put(Buf *o, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; i++) o->b[o->n++] = (uint8_t)(v >> (8 * i));
}
static void put_bytes(Buf *o, const void *p, size_t n) { memcpy(o->b + o->n, p, n), o->n += n; }

/* One entry: 64-byte header + payload. */
static void entry(Buf *o, int kind, unsigned arch, uint64_t flags, const void *payload, size_t n,
                  size_t csize, size_t dsize) {
  put(o, (uint64_t)kind, 2), put(o, 0x0101, 2), put(o, 64, 4), put(o, n, 8);
  put(o, csize, 4), put(o, 0, 4), put(o, 0, 2), put(o, 9, 2), put(o, arch, 4), put(o, 0, 4), put(o, 0, 4);
  put(o, flags, 8), put(o, 0, 8), put(o, dsize, 8);
  put_bytes(o, payload, n);
}

/* The 16-byte fat-binary header in front of `body`. */
static void fatbin(Buf *out, const Buf *body) {
  out->n = 0;
  put(out, FATBIN_MAGIC, 4), put(out, 1, 2), put(out, 16, 2), put(out, body->n, 8);
  put_bytes(out, body->b, body->n);
}

/* A minimal cubin: section 1 the section-name table, section 2 ".text.kern" with 37 registers. */
static size_t cubin(uint8_t *e) {
  static const char names[] = "\0.shstrtab\0.text.kern";
  memset(e, 0, 512);
  memcpy(e,
         "\x7f"
         "ELF\x02\x01\x01",
         7);
  size_t strs = 64, shoff = 128;
  memcpy(e + strs, names, sizeof names);
  e[0x28] = (uint8_t)shoff;
  e[0x3a] = 64, e[0x3c] = 3, e[0x3e] = 1;
  uint8_t *s1 = e + shoff + 64, *s2 = e + shoff + 128;
  s1[0] = 1, s1[0x18] = (uint8_t)strs, s1[0x20] = sizeof names;
  s2[0] = 11;
  uint32_t info = 37u << 24 | 5;
  memcpy(s2 + 0x2c, &info, 4);
  return shoff + 3 * 64;
}

static void test_ptx_and_regs(void) {
  Buf body = {.n = 0}, fb;
  uint8_t elf[512];
  size_t en = cubin(elf);
  const char p75[] = "// compute_75\n.version 9.0\n\0\0", p52[] = "// compute_52\n.version 9.0\n\0";
  entry(&body, 2, 75, 0x11, elf, en, 0, 0);
  entry(&body, 1, 75, 0x11, p75, sizeof p75, 0, 0);
  entry(&body, 1, 52, 0x11, p52, sizeof p52, 0, 0);
  fatbin(&fb, &body);
  FatbinInfo fi;
  char err[256];
  CHECK(fatbin_read(fb.b, &fi, err, sizeof err) == 0);
  CHECK(fi.ptx && !strcmp(fi.ptx, "// compute_52\n.version 9.0\n"));
  CHECK_EQ_U64(fi.ptx_arch, 52);
  CHECK(fi.regs && !strcmp(fi.regs, "//@warpsim regs kern 37\n"));
  CHECK(fi.nsass == 1 && fi.sass_archs[0] == 75);
  fatbin_info_free(&fi);
}

static void test_lz4(void) {
  /* "abc", then a match 3 back of 9 bytes: "abcabcabcabc" */
  static const uint8_t lz[] = {0x35, 'a', 'b', 'c', 3, 0};
  Buf body = {.n = 0}, fb;
  entry(&body, 1, 75, 0x2011, lz, sizeof lz, sizeof lz, 12);
  fatbin(&fb, &body);
  FatbinInfo fi;
  char err[256];
  CHECK(fatbin_read(fb.b, &fi, err, sizeof err) == 0);
  CHECK(fi.ptx && !strcmp(fi.ptx, "abcabcabcabc"));
  fatbin_info_free(&fi);
  /* a match reaching before the start of the output is corrupt, not a read outside it */
  static const uint8_t bad[] = {0x15, 'a', 9, 0};
  body.n = 0;
  entry(&body, 1, 75, 0x2011, bad, sizeof bad, sizeof bad, 12);
  fatbin(&fb, &body);
  CHECK(fatbin_read(fb.b, &fi, err, sizeof err) == -1);
  CHECK_STR_CONTAINS(err, "LZ4");
}

static void test_no_ptx_and_corrupt(void) {
  Buf body = {.n = 0}, fb;
  uint8_t elf[512];
  size_t en = cubin(elf);
  entry(&body, 2, 86, 0x11, elf, en, 0, 0);
  fatbin(&fb, &body);
  FatbinInfo fi;
  char err[256];
  CHECK(fatbin_read(fb.b, &fi, err, sizeof err) == 0);
  CHECK(fi.ptx == NULL && fi.nsass == 1 && fi.sass_archs[0] == 86);
  fatbin_info_free(&fi);
  uint8_t junk[64] = {1, 2, 3, 4};
  CHECK(fatbin_read(junk, &fi, err, sizeof err) == -1);
  CHECK_STR_CONTAINS(err, "bad magic");
  /* an entry whose size runs past the fat binary's end */
  body.n = 0;
  entry(&body, 1, 75, 0x11, "x", 1, 0, 0);
  fatbin(&fb, &body);
  fb.b[16 + 8] = 0xff;
  CHECK(fatbin_read(fb.b, &fi, err, sizeof err) == -1);
  CHECK_STR_CONTAINS(err, "corrupt");
  /* zstd flag on bytes that are not zstd: an error naming zstd (whether or not libzstd is installed) */
  body.n = 0;
  entry(&body, 1, 75, 0x8011, "not zstd", 8, 8, 100);
  fatbin(&fb, &body);
  CHECK(fatbin_read(fb.b, &fi, err, sizeof err) == -1);
  CHECK_STR_CONTAINS(err, "zstd");
}

int main(void) {
  TEST_RUN(test_ptx_and_regs);
  TEST_RUN(test_lz4);
  TEST_RUN(test_no_ptx_and_corrupt);
  return TEST_DONE();
}
