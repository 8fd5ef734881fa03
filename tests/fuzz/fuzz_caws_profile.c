/* fuzz_caws_profile.c - libFuzzer target for the CAWS oracle's profile parser
 * (src/policy/warp/caws_profile.c). Each input is parsed as a profile: acceptable is 0, or -1
 * with a located message; then every parsed entry is looked up again (the sorted order and
 * bsearch agree). Crashes, leaks, sanitizer reports and hangs are failures. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy/warp/caws_profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = 0;
  CawsProfile p = {0};
  char msg[1200];
  msg[0] = 0;
  if (caws_profile_parse(&p, text, "fuzz.prof", msg, sizeof msg)) {
    if (!msg[0]) abort(); /* an error always says what and where */
  } else {
    for (uint32_t i = 0; i < p.n; i++)
      if (!caws_profile_find(&p, p.e[i].launch, p.e[i].cta, p.e[i].warp)) abort();
  }
  caws_profile_free(&p);
  free(text);
  return 0;
}
