/* caws_profile.h - the CAWS oracle's per-warp criticality profile (src/policy/warp/gcaws.c
 * writes and reads it): its entries in memory and the parser of its text form, kept apart
 * so that a fuzz target (tests/fuzz/fuzz_caws_profile.c) drives the parser alone.
 *
 * Text form: '#' comments and blank lines; "kernel LAUNCH NAME" (the kernel of launch
 * index LAUNCH); "LAUNCH CTA WARP CYCLES" (a warp's execution time). LAUNCH is below
 * CAWS_MAX_LAUNCH, CTA and WARP are 32-bit, CYCLES 64-bit, all decimal. */
#ifndef WS_CAWS_PROFILE_H
#define WS_CAWS_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#define CAWS_MAX_LAUNCH 1000000u          /* kernel launches one profile describes */
#define CAWS_MAX_FILE ((size_t)256 << 20) /* bytes of a profile file */

typedef struct CawsEntry {
  uint32_t launch, cta, warp;
  uint64_t cycles;
} CawsEntry;

typedef struct CawsProfile {
  CawsEntry *e;
  uint32_t n, cap;
  char **names; /* per launch index: the kernel's name (NULL unknown) */
  uint32_t nnames;
} CawsProfile;

/* 0, or -1 when out of memory (or launch >= CAWS_MAX_LAUNCH). */
int caws_profile_name(CawsProfile *p, uint32_t launch, const char *name);
int caws_profile_add(CawsProfile *p, CawsEntry e);
void caws_profile_sort(CawsProfile *p);
/* Parses `text` (named `path` in messages) into p and sorts it: 0, or -1 with
 * "PATH:LINE: what" in msg. Entries read before an error stay in p (caws_profile_free). */
int caws_profile_parse(CawsProfile *p, const char *text, const char *path, char *msg, size_t len);
/* The entry of (launch, cta, warp) of a sorted profile, or NULL. */
const CawsEntry *caws_profile_find(const CawsProfile *p, uint32_t launch, uint32_t cta, uint32_t warp);
void caws_profile_free(CawsProfile *p);

#endif
