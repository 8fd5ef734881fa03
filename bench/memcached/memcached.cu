// memcached.cu - memcached GET on the GPU (after Memcached-GPU, Hetherington
// et al., as used by CCWS): one thread per request hashes its key (Jenkins
// one-at-a-time), walks the bucket chain of a chained hash table of fixed-size
// item records, compares keys byte by byte and copies the value bytes out.
#include <stdint.h>

#define MEMC_ITEM_BYTES 128 // item record: next, key_len, val_len, key, value
#define MEMC_ITEM_KEY 8     // key bytes start here (up to 48)
#define MEMC_ITEM_VAL 56    // value bytes start here (up to 72)
#define MEMC_REQ_STRIDE 48  // request key slot
#define MEMC_OUT_STRIDE 64  // response value slot
#define MEMC_NIL 0xffffffffu

extern "C" __global__ void memc_get(const uint8_t *__restrict__ req_keys,
                                    const uint8_t *__restrict__ req_lens, int nreq,
                                    const uint32_t *__restrict__ buckets, uint32_t bucket_mask,
                                    const uint8_t *__restrict__ items, uint8_t *out_vals,
                                    uint32_t *out_lens) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= nreq) return;
  const uint8_t *key = req_keys + (size_t)r * MEMC_REQ_STRIDE;
  uint32_t klen = req_lens[r];

  // Jenkins one-at-a-time hash over the key bytes.
  uint32_t h = 0;
  for (uint32_t i = 0; i < klen; i++) {
    h += key[i];
    h += h << 10;
    h ^= h >> 6;
  }
  h += h << 3;
  h ^= h >> 11;
  h += h << 15;

  // Walk the bucket chain; compare lengths, then bytes.
  uint32_t it = buckets[h & bucket_mask];
  while (it != MEMC_NIL) {
    const uint8_t *rec = items + (size_t)it * MEMC_ITEM_BYTES;
    uint32_t next = *(const uint32_t *)rec;
    if (rec[4] == klen) {
      uint32_t i = 0;
      while (i < klen && rec[MEMC_ITEM_KEY + i] == key[i]) i++;
      if (i == klen) break;
    }
    it = next;
  }

  if (it == MEMC_NIL) {
    out_lens[r] = MEMC_NIL;
    return;
  }
  const uint8_t *rec = items + (size_t)it * MEMC_ITEM_BYTES;
  uint32_t vlen = rec[5];
  uint8_t *out = out_vals + (size_t)r * MEMC_OUT_STRIDE;
  for (uint32_t i = 0; i < vlen; i++) out[i] = rec[MEMC_ITEM_VAL + i];
  out_lens[r] = vlen;
}
