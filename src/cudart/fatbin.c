/* fatbin.c - the fat-binary reader of fatbin.h. Layout (as nvcc 12-13 write it): a 16-byte
 * header (magic, version, header size, size of what follows), then entries, each a header
 * (kind 1 = PTX, 2 = cubin ELF; its own size; payload size; arch; flags; sizes when
 * compressed) and a payload. Flag 0x8000 marks a zstd payload, 0x2000 an LZ4 one; zstd is
 * decoded by libzstd.so.1, opened at run time so that building needs no zstd headers. */
#include "cudart/fatbin.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { KIND_PTX = 1, KIND_ELF = 2, FLAG_LZ4 = 0x2000, FLAG_ZSTD = 0x8000 };

typedef struct EntryHeader {
  uint16_t kind, unknown;
  uint32_t header_size;
  uint64_t size;            /* payload bytes (padded) */
  uint32_t compressed_size; /* bytes of the compressed stream, when compressed */
  uint32_t unknown2;
  uint16_t minor, major;
  uint32_t arch;
  uint32_t name_off, name_len;
  uint64_t flags, zero, decompressed_size;
} EntryHeader;

static uint64_t rd(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

/* zstd through libzstd.so.1 (loaded once; NULL when the system has none). */
typedef size_t (*ZstdDecompress)(void *, size_t, const void *, size_t);
typedef unsigned (*ZstdIsError)(size_t);
static int zstd_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, size_t *out, char *err,
                       size_t errlen) {
  static void *lib;
  static ZstdDecompress dec;
  static ZstdIsError is_err;
  if (!lib) {
    lib = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libzstd.so", RTLD_NOW | RTLD_LOCAL);
    if (lib) {
      dec = (ZstdDecompress)(uintptr_t)dlsym(lib, "ZSTD_decompress");
      is_err = (ZstdIsError)(uintptr_t)dlsym(lib, "ZSTD_isError");
    }
  }
  if (!lib || !dec || !is_err) {
    snprintf(err, errlen,
             "the fat binary's code is zstd-compressed and libzstd.so.1 cannot be loaded (install libzstd1, "
             "or rebuild the program with nvcc -compress-mode=none)");
    return -1;
  }
  size_t r = dec(dst, cap, src, n);
  if (is_err(r)) {
    snprintf(err, errlen, "the fat binary's zstd-compressed code does not decompress");
    return -1;
  }
  *out = r;
  return 0;
}

/* LZ4 block format (older nvcc's -compress-all): sequences of literals and matches. */
static int lz4_decode(const uint8_t *s, size_t n, uint8_t *d, size_t cap, size_t *out) {
  size_t i = 0, o = 0;
  while (i < n) {
    unsigned tok = s[i++];
    size_t lit = tok >> 4;
    if (lit == 15)
      for (unsigned b = 255; b == 255 && i < n;) {
        b = s[i++];
        lit += b;
      }
    if (lit > n - i || lit > cap - o) return -1;
    memcpy(d + o, s + i, lit);
    i += lit;
    o += lit;
    if (i >= n) break;
    if (i + 2 > n) return -1;
    size_t off = s[i] | (size_t)s[i + 1] << 8;
    i += 2;
    size_t len = (tok & 15) + 4;
    if ((tok & 15) == 15)
      for (unsigned b = 255; b == 255 && i < n;) {
        b = s[i++];
        len += b;
      }
    if (!off || off > o || len > cap - o) return -1;
    for (size_t k = 0; k < len; k++, o++) d[o] = d[o - off];
  }
  *out = o;
  return 0;
}

/* The payload of an entry, decompressed into a malloc'd buffer (NUL-terminated). */
static uint8_t *entry_payload(const uint8_t *p, const EntryHeader *h, size_t *len, char *err, size_t errlen) {
  if (!(h->flags & (FLAG_ZSTD | FLAG_LZ4))) {
    uint8_t *b = malloc(h->size + 1);
    if (!b) {
      snprintf(err, errlen, "out of memory");
      return NULL;
    }
    memcpy(b, p, h->size);
    b[h->size] = 0;
    *len = h->size;
    return b;
  }
  size_t cap = h->decompressed_size, n = h->compressed_size ? h->compressed_size : h->size;
  if (n > h->size || cap > ((size_t)1 << 32)) {
    snprintf(err, errlen, "corrupt compressed fat-binary entry");
    return NULL;
  }
  uint8_t *b = malloc(cap + 1);
  if (!b) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  size_t got = 0;
  int rc =
      (h->flags & FLAG_ZSTD) ? zstd_decode(p, n, b, cap, &got, err, errlen) : lz4_decode(p, n, b, cap, &got);
  if (rc) {
    if (!(h->flags & FLAG_ZSTD))
      snprintf(err, errlen, "the fat binary's LZ4-compressed code does not decompress");
    free(b);
    return NULL;
  }
  b[got] = 0;
  *len = got;
  return b;
}

static int append(char **s, const char *add) {
  size_t a = *s ? strlen(*s) : 0, b = strlen(add);
  char *n = realloc(*s, a + b + 1);
  if (!n) return -1;
  memcpy(n + a, add, b + 1);
  *s = n;
  return 0;
}

/* A cubin keeps each kernel's code in section ".text.<kernel>" whose sh_info holds the
 * register count in its top byte (what cuobjdump -res-usage prints). */
int fatbin_elf_regs(const uint8_t *e, size_t size, char **regs) {
  if (size < 64 ||
      memcmp(e,
             "\x7f"
             "ELF",
             4) ||
      e[4] != 2)
    return -1;
  uint64_t shoff = rd(e + 0x28, 8);
  unsigned shentsize = (unsigned)rd(e + 0x3a, 2), shnum = (unsigned)rd(e + 0x3c, 2),
           shstrndx = (unsigned)rd(e + 0x3e, 2);
  if (shentsize < 64 || shstrndx >= shnum || shoff > size || (uint64_t)shnum * shentsize > size - shoff)
    return -1;
  const uint8_t *strsh = e + shoff + (size_t)shstrndx * shentsize;
  uint64_t stroff = rd(strsh + 0x18, 8), strsize = rd(strsh + 0x20, 8);
  if (stroff > size || strsize > size - stroff) return -1;
  for (unsigned i = 0; i < shnum; i++) {
    const uint8_t *sh = e + shoff + (size_t)i * shentsize;
    uint32_t name = (uint32_t)rd(sh, 4);
    if (name >= strsize) continue;
    const char *nm = (const char *)e + stroff + name;
    if (!memchr(nm, 0, strsize - name) || strncmp(nm, ".text.", 6)) continue;
    unsigned n = (unsigned)(rd(sh + 0x2c, 4) >> 24);
    char line[1100];
    snprintf(line, sizeof line, "//@warpsim regs %s %u\n", nm + 6, n);
    if (append(regs, line)) return -1;
  }
  return 0;
}

int fatbin_read(const void *data, FatbinInfo *info, char *err, size_t errlen) {
  memset(info, 0, sizeof *info);
  const uint8_t *p = data;
  if (!p || rd(p, 4) != FATBIN_MAGIC) {
    snprintf(err, errlen, "not a fat binary (bad magic)");
    return -1;
  }
  uint64_t hsize = rd(p + 6, 2), total = rd(p + 8, 8);
  if (hsize < 16 || total > ((uint64_t)1 << 34)) {
    snprintf(err, errlen, "corrupt fat-binary header");
    return -1;
  }
  const uint8_t *q = p + hsize, *end = q + total;
  unsigned regs_arch = 0;
  info->regs = calloc(1, 1);
  if (!info->regs) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  while (q + 64 <= end) {
    EntryHeader h = {0};
    h.kind = (uint16_t)rd(q, 2);
    h.header_size = (uint32_t)rd(q + 4, 4);
    h.size = rd(q + 8, 8);
    h.compressed_size = (uint32_t)rd(q + 16, 4);
    h.arch = (uint32_t)rd(q + 28, 4);
    h.flags = rd(q + 40, 8);
    h.decompressed_size = rd(q + 56, 8);
    if (h.header_size < 64 || h.header_size > (size_t)(end - q) ||
        h.size > (size_t)(end - q) - h.header_size) {
      snprintf(err, errlen, "corrupt fat-binary entry");
      fatbin_info_free(info);
      return -1;
    }
    const uint8_t *payload = q + h.header_size;
    if (h.kind == KIND_PTX && (!info->ptx || h.arch < info->ptx_arch)) {
      size_t len;
      uint8_t *b = entry_payload(payload, &h, &len, err, errlen);
      if (!b) {
        fatbin_info_free(info);
        return -1;
      }
      free(info->ptx);
      info->ptx = (char *)b;
      info->ptx_arch = h.arch;
    } else if (h.kind == KIND_ELF) {
      if (info->nsass < 8) info->sass_archs[info->nsass++] = h.arch;
      size_t len;
      char perr[200];
      uint8_t *b =
          (!regs_arch || h.arch < regs_arch) ? entry_payload(payload, &h, &len, perr, sizeof perr) : NULL;
      char *regs = calloc(1, 1);
      /* the lowest arch's counts, as tools/annotate_regs.sh takes sm_75's; optional: estimate without */
      if (b && regs && !fatbin_elf_regs(b, len, &regs)) {
        free(info->regs);
        info->regs = regs;
        regs = NULL;
        regs_arch = h.arch;
      }
      free(regs);
      free(b);
    }
    q = payload + h.size;
  }
  return 0;
}

void fatbin_info_free(FatbinInfo *info) {
  free(info->ptx);
  free(info->regs);
  memset(info, 0, sizeof *info);
}
