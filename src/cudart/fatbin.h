/* fatbin.h - reads the fat binary nvcc embeds in a program: the PTX of each
 * compute architecture (zstd-compressed or not) and the register counts of
 * the kernels in its cubins (ELF). Pure parsing: no runtime, no simulator. */
#ifndef WS_FATBIN_H
#define WS_FATBIN_H

#include <stddef.h>
#include <stdint.h>

/* __fatBinC_Wrapper_t of crt/fatbinary_section.h: what __cudaRegisterFatBinary receives. */
#define FATBIN_WRAPPER_MAGIC 0x466243B1u
#define FATBIN_MAGIC 0xBA55ED50u

typedef struct FatbinInfo {
  char *ptx;              /* malloc'd NUL-terminated PTX of the lowest compute arch, NULL if none */
  unsigned ptx_arch;      /* its arch (75 = compute_75) */
  char *regs;             /* malloc'd "//@warpsim regs <kernel> <n>\n" lines from the cubins ("" none) */
  unsigned sass_archs[8]; /* the sm_XX of the cubins (for the "no PTX" message) */
  int nsass;
} FatbinInfo;

/* Parses the fat binary at `data` (a FATBIN_MAGIC header). Returns 0, or -1 with a message in
 * err (bad header, a compressed entry that cannot be decompressed). A fat binary without PTX is
 * not an error here: info->ptx is NULL. */
int fatbin_read(const void *data, FatbinInfo *info, char *err, size_t errlen);
void fatbin_info_free(FatbinInfo *info);
/* Register counts of the kernels of one cubin (ELF64), appended to *regs as annotation lines. */
int fatbin_elf_regs(const uint8_t *elf, size_t size, char **regs);

#endif
