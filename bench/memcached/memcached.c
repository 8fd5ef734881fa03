/* memcached.c - host driver of the memcached GET benchmark: builds a chained
 * hash table of random string keys in a slab of 128-byte item records, issues
 * Zipf-distributed GET requests (plus misses), runs memc_get with one thread
 * per request and checks every response against a CPU lookup. */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define MEMC_ITEM_BYTES 128
#define MEMC_ITEM_KEY 8
#define MEMC_ITEM_VAL 56
#define MEMC_KEY_MAX 46
#define MEMC_VAL_MIN 8
#define MEMC_VAL_MAX 64
#define MEMC_REQ_STRIDE 48
#define MEMC_OUT_STRIDE 64
#define MEMC_NIL 0xffffffffu
#define MEMC_BLOCK 256
#define MEMC_ZIPF_S 0.99
#define MEMC_MISS_PERCENT 5

typedef struct MemcSize {
  uint32_t nkeys, nreq;
} MemcSize;
static const MemcSize memc_sizes[BENCH_NSIZES] = {{3000, 4096}, {98304, 131072}, {1000000, 1048576}};

static uint32_t memc_hash(const uint8_t *key, uint32_t len) {
  uint32_t h = 0;
  for (uint32_t i = 0; i < len; i++) {
    h += key[i];
    h += h << 10;
    h ^= h >> 6;
  }
  h += h << 3;
  h ^= h >> 11;
  h += h << 15;
  return h;
}

/* Key `id` (unique by its base-36 suffix): a random wiki-like title + "~id". */
static uint32_t memc_make_key(BenchRng *g, uint32_t id, uint8_t *key) {
  static const char alpha[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789";
  char suffix[16];
  int slen = 0;
  do {
    uint32_t d = id % 36;
    suffix[slen++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
    id /= 36;
  } while (id);
  uint32_t tlen = 4 + bench_rng_below(g, (uint32_t)(MEMC_KEY_MAX - 1 - slen - 4 + 1));
  uint32_t n = 0;
  for (uint32_t i = 0; i < tlen; i++) key[n++] = (uint8_t)alpha[bench_rng_below(g, sizeof alpha - 1)];
  key[n++] = '~';
  while (slen) key[n++] = (uint8_t)suffix[--slen];
  return n;
}

/* CPU reference of the GET: same table walk as the kernel. */
static void memc_reference(const uint8_t *keys, const uint8_t *lens, uint32_t nreq, const uint32_t *buckets,
                           uint32_t mask, const uint8_t *items, uint8_t *out_vals, uint32_t *out_lens) {
  for (uint32_t r = 0; r < nreq; r++) {
    const uint8_t *key = keys + (size_t)r * MEMC_REQ_STRIDE;
    uint32_t it = buckets[memc_hash(key, lens[r]) & mask];
    while (it != MEMC_NIL) {
      const uint8_t *rec = items + (size_t)it * MEMC_ITEM_BYTES;
      if (rec[4] == lens[r] && memcmp(rec + MEMC_ITEM_KEY, key, lens[r]) == 0) break;
      memcpy(&it, rec, 4);
    }
    if (it == MEMC_NIL) {
      out_lens[r] = MEMC_NIL;
      continue;
    }
    const uint8_t *rec = items + (size_t)it * MEMC_ITEM_BYTES;
    memcpy(out_vals + (size_t)r * MEMC_OUT_STRIDE, rec + MEMC_ITEM_VAL, rec[5]);
    out_lens[r] = rec[5];
  }
}

static int memc_run(BenchRun *r) {
  const MemcSize sz = memc_sizes[r->size];
  const uint32_t nkeys = sz.nkeys, nreq = sz.nreq;
  const uint32_t nmiss = nkeys / 4 + 1;
  uint32_t nbuckets = 1;
  while ((uint64_t)nbuckets * 3 < (uint64_t)nkeys * 2) nbuckets <<= 1; /* load factor <= 1.5 */
  const uint32_t mask = nbuckets - 1;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  WsDevPtr d_keys = 0, d_lens = 0, d_buckets = 0, d_items = 0, d_out = 0, d_olens = 0;
  BenchZipf zipf = {0};
  BenchRng g;
  bench_rng_seed(&g, r->seed);

  uint8_t *items = calloc((size_t)nkeys, MEMC_ITEM_BYTES);
  uint32_t *buckets = malloc(sizeof(uint32_t) * nbuckets);
  uint32_t *slot_of = malloc(sizeof(uint32_t) * nkeys);  /* key id -> item slot */
  uint32_t *rank_key = malloc(sizeof(uint32_t) * nkeys); /* popularity rank -> key id */
  uint8_t *miss_keys = malloc((size_t)nmiss * MEMC_REQ_STRIDE);
  uint8_t *miss_lens = malloc(nmiss);
  uint8_t *req_keys = calloc((size_t)nreq, MEMC_REQ_STRIDE);
  uint8_t *req_lens = malloc(nreq);
  uint8_t *out_vals = calloc((size_t)nreq, MEMC_OUT_STRIDE);
  uint8_t *ref_vals = calloc((size_t)nreq, MEMC_OUT_STRIDE);
  uint32_t *out_lens = malloc(sizeof(uint32_t) * nreq);
  uint32_t *ref_lens = malloc(sizeof(uint32_t) * nreq);
  if (!items || !buckets || !slot_of || !rank_key || !miss_keys || !miss_lens || !req_keys || !req_lens ||
      !out_vals || !ref_vals || !out_lens || !ref_lens || bench_zipf_init(&zipf, nkeys, MEMC_ZIPF_S) != 0) {
    fprintf(r->log, "memcached: out of host memory\n");
    goto fail;
  }

  /* Slab: key ids land in randomly permuted item slots; insertion at the chain head
   * in random order, as memcached's assoc_insert does. */
  for (uint32_t i = 0; i < nkeys; i++) slot_of[i] = i;
  for (uint32_t i = nkeys - 1; i > 0; i--) {
    uint32_t j = bench_rng_below(&g, i + 1), t = slot_of[i];
    slot_of[i] = slot_of[j];
    slot_of[j] = t;
  }
  for (uint32_t i = 0; i < nbuckets; i++) buckets[i] = MEMC_NIL;
  uint64_t key_bytes = 0;
  for (uint32_t id = 0; id < nkeys; id++) {
    uint8_t *rec = items + (size_t)slot_of[id] * MEMC_ITEM_BYTES;
    uint32_t klen = memc_make_key(&g, id, rec + MEMC_ITEM_KEY);
    uint32_t vlen = MEMC_VAL_MIN + bench_rng_below(&g, MEMC_VAL_MAX - MEMC_VAL_MIN + 1);
    for (uint32_t i = 0; i < vlen; i++) rec[MEMC_ITEM_VAL + i] = (uint8_t)bench_rng_u64(&g);
    rec[4] = (uint8_t)klen;
    rec[5] = (uint8_t)vlen;
    key_bytes += klen;
    uint32_t b = memc_hash(rec + MEMC_ITEM_KEY, klen) & mask;
    memcpy(rec, &buckets[b], 4);
    buckets[b] = slot_of[id];
  }
  for (uint32_t i = 0; i < nmiss; i++)
    miss_lens[i] = (uint8_t)memc_make_key(&g, nkeys + i, miss_keys + (size_t)i * MEMC_REQ_STRIDE);

  /* Requests: Zipf over popularity ranks, ranks mapped to random key ids. */
  for (uint32_t i = 0; i < nkeys; i++) rank_key[i] = i;
  for (uint32_t i = nkeys - 1; i > 0; i--) {
    uint32_t j = bench_rng_below(&g, i + 1), t = rank_key[i];
    rank_key[i] = rank_key[j];
    rank_key[j] = t;
  }
  uint32_t nmisses = 0;
  for (uint32_t q = 0; q < nreq; q++) {
    uint8_t *dst = req_keys + (size_t)q * MEMC_REQ_STRIDE;
    if (bench_rng_below(&g, 100) < MEMC_MISS_PERCENT) {
      uint32_t m = bench_rng_below(&g, nmiss);
      req_lens[q] = miss_lens[m];
      memcpy(dst, miss_keys + (size_t)m * MEMC_REQ_STRIDE, miss_lens[m]);
      nmisses++;
    } else {
      const uint8_t *rec = items + (size_t)slot_of[rank_key[bench_zipf_next(&zipf, &g)]] * MEMC_ITEM_BYTES;
      req_lens[q] = rec[4];
      memcpy(dst, rec + MEMC_ITEM_KEY, rec[4]);
    }
  }
  if (r->verbose > 0)
    fprintf(r->log, "memcached: %u keys (mean key %.1f B), %u buckets, %u GETs (Zipf %.2f, %u misses)\n",
            nkeys, (double)key_bytes / nkeys, nbuckets, nreq, MEMC_ZIPF_S, nmisses);

  if (bench_load_module(r, "memcached", "memcached.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "memc_get"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_keys, (size_t)nreq * MEMC_REQ_STRIDE));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_lens, nreq));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_buckets, sizeof(uint32_t) * nbuckets));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_items, (size_t)nkeys * MEMC_ITEM_BYTES));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_out, (size_t)nreq * MEMC_OUT_STRIDE));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_olens, sizeof(uint32_t) * nreq));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_keys, req_keys, (size_t)nreq * MEMC_REQ_STRIDE));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_lens, req_lens, nreq));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_buckets, buckets, sizeof(uint32_t) * nbuckets));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_items, items, (size_t)nkeys * MEMC_ITEM_BYTES));
  BENCH_CK(r, ws_memset_d8(r->ctx, d_out, 0, (size_t)nreq * MEMC_OUT_STRIDE));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_olens, 0, nreq));

  int n = (int)nreq;
  void *params[] = {&d_keys, &d_lens, &n, &d_buckets, (void *)&mask, &d_items, &d_out, &d_olens};
  BENCH_CK(r, ws_launch_kernel(fn, (nreq + MEMC_BLOCK - 1) / MEMC_BLOCK, 1, 1, MEMC_BLOCK, 1, 1, 0, params));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, out_vals, d_out, (size_t)nreq * MEMC_OUT_STRIDE));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, out_lens, d_olens, sizeof(uint32_t) * nreq));

  memc_reference(req_keys, req_lens, nreq, buckets, mask, items, ref_vals, ref_lens);
  size_t bad = bench_check_u32(r, "value length", out_lens, ref_lens, nreq);
  if (memcmp(out_vals, ref_vals, (size_t)nreq * MEMC_OUT_STRIDE) != 0) {
    uint32_t shown = 0;
    for (size_t i = 0; i < (size_t)nreq * MEMC_OUT_STRIDE && shown < 10; i++)
      if (out_vals[i] != ref_vals[i]) {
        fprintf(r->log, "value byte %zu of request %zu: got %u, want %u\n", i % MEMC_OUT_STRIDE,
                i / MEMC_OUT_STRIDE, out_vals[i], ref_vals[i]);
        shown++;
      }
    bad++;
  }
  status = bad ? BENCH_MISMATCH : BENCH_PASS;

fail:
  if (d_keys) ws_mem_free(r->ctx, d_keys);
  if (d_lens) ws_mem_free(r->ctx, d_lens);
  if (d_buckets) ws_mem_free(r->ctx, d_buckets);
  if (d_items) ws_mem_free(r->ctx, d_items);
  if (d_out) ws_mem_free(r->ctx, d_out);
  if (d_olens) ws_mem_free(r->ctx, d_olens);
  if (mod) ws_module_unload(mod);
  bench_zipf_free(&zipf);
  free(items);
  free(buckets);
  free(slot_of);
  free(rank_key);
  free(miss_keys);
  free(miss_lens);
  free(req_keys);
  free(req_lens);
  free(out_vals);
  free(ref_vals);
  free(out_lens);
  free(ref_lens);
  return status;
}

const BenchDesc bench_desc_memcached = {
    .name = "memcached",
    .summary = "memcached GET: Jenkins hash, bucket-chain walk, byte-wise key compare, value copy; "
               "Zipf requests (irregular, cache-sensitive)",
    .papers = "CCWS",
    .suite = "I",
    .sizes = {"3K keys, 4K GETs", "96K keys, 128K GETs", "1M keys, 1M GETs"},
    .run = memc_run,
};
