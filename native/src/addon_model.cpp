// modelCount: the model's boundary message counts of a page partition (src/model/partition.ts
// countMatrices, bit for bit), on up to one thread per core. A multi-GPU sweep counts one partition
// per point over every edge of the page set; in JS that was nearly all of `tessera model`.
#include "addon.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

namespace ts {
namespace addon {

namespace {

struct Page {
  const uint32_t* nbrs;
  size_t length;
  uint32_t element;
};

/**
 * Counts on the threads, which take pages in turn (pages differ in size; a static split would
 * wait on the slowest). cell[w] holds w's owner in its low kOwnerBits and, above them, one stamp
 * bit per element that has counted w (the owner's from the start): one random access per edge instead of an owner and a stamp
 * read. Dedup of w per source element p: the thread whose fetch_or sets p's bit counts it, so
 * threads sharing p's pages count each w once, as the JS pass's sequential stamp does. Elements
 * run together (no barrier).
 */
template <typename C, unsigned kOwnerBits>
bool countPages(const std::vector<Page>& pages, const uint8_t* owner, size_t n, uint32_t k, uint64_t* agg, uint64_t* raw) {
  std::unique_ptr<C[]> cells(new C[n]);
  C* cell = cells.get();
  const C ownerMask = C((1u << kOwnerBits) - 1);
  std::atomic<size_t> next{0};
  std::atomic<bool> bad{false};
  const size_t kk = size_t(k) * k;
  const size_t threads = std::max<size_t>(1, std::thread::hardware_concurrency());
  std::vector<std::vector<uint64_t>> local(threads, std::vector<uint64_t>(2 * kk, 0));
  // The cells from the owner map, a slice per thread (a large map's copy on one thread would be
  // a good part of a call).
  runOnThreads(threads, [&](size_t t) {
    for (size_t w = n * t / threads, e = n * (t + 1) / threads; w < e; w++) {
      if (owner[w] >= k) bad.store(true, std::memory_order_relaxed);
      cell[w] = owner[w] < k ? C(owner[w] | (C(1) << (kOwnerBits + owner[w]))) : C(0);
    }
  });
  if (bad.load()) return false;
  runOnThreads(threads, [&](size_t t) {
    uint64_t* a = local[t].data();
    uint64_t* r = a + kk;
    std::vector<uint64_t> hist(4 * size_t(k));
    for (size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < pages.size();) {
      const Page& pg = pages[i];
      const uint32_t p = pg.element;
      const C bit = C(C(1) << (kOwnerBits + p));
      uint64_t* ar = a + size_t(p) * k;
      uint64_t* rr = r + size_t(p) * k;
      const uint32_t* nb = pg.nbrs;
      // Edges per owner (own ones too, dropped below) in four interleaved histograms: runs of
      // one owner would chain the increments of one counter.
      std::fill(hist.begin(), hist.end(), 0);
      uint64_t* h = hist.data();
      for (size_t j = 0; j < pg.length; j++) {
        const uint32_t w = nb[j];
        if (w >= n) {
          bad.store(true, std::memory_order_relaxed);
          return;
        }
        const C c = __atomic_load_n(cell + w, __ATOMIC_RELAXED);
        const uint32_t q = c & ownerMask;
        h[(j & 3) * k + q]++;
        // Owner's own bit is set from the start (no message to itself); most repeats of w find
        // the bit set in that load and skip the locked op.
        if (c & bit) continue;
        if (!(__atomic_fetch_or(cell + w, bit, __ATOMIC_RELAXED) & bit)) ar[q]++;
      }
      for (uint32_t q = 0; q < k; q++)
        if (q != p) rr[q] += h[q] + h[k + q] + h[2 * k + q] + h[3 * k + q];
    }
  });
  for (const auto& l : local)
    for (size_t x = 0; x < kk; x++) (agg[x] += l[x], raw[x] += l[kk + x]);
  return !bad.load();
}

}  // namespace

// modelCount(nbrs: Uint32Array[], pageElement: Uint8Array, owner: Uint8Array, k, agg, raw):
// page i's neighbour ids nbrs[i] are held by element pageElement[i] (255: no element); owner[w] is
// w's element. agg and raw (Float64Array, k x k, row = the pages' element) get, per p != q, the
// distinct w owned by q that p's pages name, and the edges to them. k <= 24.
Napi::Value ModelCount(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 6 || !info[0].IsArray()) throw codedError(env, "TS_ARG", "modelCount(nbrs, pageElement, owner, k, agg, raw)");
  Napi::Array arr = info[0].As<Napi::Array>();
  TA pe, ow, ag, rw;
  if (!getTypedArray(env, info[1], &pe) || pe.type != napi_uint8_array || pe.length != arr.Length())
    throw codedError(env, "TS_ARG", "modelCount: pageElement must be a Uint8Array with one entry per page");
  if (!getTypedArray(env, info[2], &ow) || ow.type != napi_uint8_array) throw codedError(env, "TS_ARG", "modelCount: owner must be a Uint8Array");
  const uint32_t k = (uint32_t)uintArg(info, 3, "modelCount: k", 0, true);
  if (k < 1 || k > 24) throw codedError(env, "TS_ARG", "modelCount: k must be in [1, 24]");
  const size_t kk = size_t(k) * k;
  if (!getTypedArray(env, info[4], &ag) || ag.type != napi_float64_array || ag.length != kk || !getTypedArray(env, info[5], &rw) ||
      rw.type != napi_float64_array || rw.length != kk)
    throw codedError(env, "TS_ARG", "modelCount: agg and raw must be Float64Arrays of k x k");
  const uint8_t* elem = (const uint8_t*)pe.data;
  std::vector<Page> pages;
  pages.reserve(arr.Length());
  for (uint32_t i = 0; i < arr.Length(); i++) {
    if (elem[i] == 255) continue;
    if (elem[i] >= k) throw codedError(env, "TS_ARG", "modelCount: pageElement[" + std::to_string(i) + "] >= k");
    TA nb;
    if (!getTypedArray(env, arr.Get(i), &nb) || nb.type != napi_uint32_array)
      throw codedError(env, "TS_ARG", "modelCount: nbrs[" + std::to_string(i) + "] must be a Uint32Array");
    if (nb.length > 0) pages.push_back({(const uint32_t*)nb.data, nb.length, elem[i]});
  }
  std::vector<uint64_t> agg(kk, 0), raw(kk, 0);
  const uint8_t* owner = (const uint8_t*)ow.data;
  // The smallest cell that holds the owner and k stamp bits.
  const bool ok = k <= 4    ? countPages<uint8_t, 4>(pages, owner, ow.length, k, agg.data(), raw.data())
                  : k <= 12 ? countPages<uint16_t, 4>(pages, owner, ow.length, k, agg.data(), raw.data())
                            : countPages<uint32_t, 8>(pages, owner, ow.length, k, agg.data(), raw.data());
  if (!ok) throw codedError(env, "TS_ARG", "modelCount: an owner >= k, or a neighbour id >= owner.length");
  double* a = (double*)ag.data;
  double* r = (double*)rw.data;
  for (size_t x = 0; x < kk; x++) (a[x] = (double)agg[x], r[x] = (double)raw[x]);
  return env.Undefined();
}

}  // namespace addon
}  // namespace ts
