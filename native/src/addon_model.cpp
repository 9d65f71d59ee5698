// modelCount: the model's boundary message counts of a page partition (src/model/partition.ts
// countMatrices, bit for bit), on up to one thread per core. A multi-GPU sweep counts one partition
// per point over every edge of the page set; in JS that was nearly all of `tessera model`.
#include "addon.h"

#include <algorithm>
#include <atomic>
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
 * wait on the slowest). Dedup of w per source element p: stamp[w] holds one bit per element that
 * has counted w; the thread whose fetch_or sets p's bit counts it, so threads sharing p's pages
 * count each w once, as the JS pass's sequential stamp does. Elements run together (no barrier).
 */
template <typename S>
bool countPages(const std::vector<Page>& pages, const uint8_t* owner, size_t n, uint32_t k, uint64_t* agg, uint64_t* raw) {
  std::vector<S> stamp(n, 0);
  S* st = stamp.data();
  std::atomic<size_t> next{0};
  std::atomic<bool> bad{false};
  const size_t kk = size_t(k) * k;
  const size_t threads = std::min<size_t>(pages.size(), std::max<size_t>(1, std::thread::hardware_concurrency()));
  std::vector<std::vector<uint64_t>> local(threads, std::vector<uint64_t>(2 * kk, 0));
  auto work = [&](size_t t) {
    uint64_t* a = local[t].data();
    uint64_t* r = a + kk;
    for (size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < pages.size();) {
      const Page& pg = pages[i];
      const uint32_t p = pg.element;
      const S bit = S(1) << p;
      uint64_t* ar = a + size_t(p) * k;
      uint64_t* rr = r + size_t(p) * k;
      const uint32_t* nb = pg.nbrs;
      for (size_t j = 0; j < pg.length; j++) {
        const uint32_t w = nb[j];
        if (w >= n) {
          bad.store(true, std::memory_order_relaxed);
          return;
        }
        const uint32_t q = owner[w];
        if (q == p) continue;
        if (q >= k) {
          bad.store(true, std::memory_order_relaxed);
          return;
        }
        rr[q]++;
        // A plain look first: most repeats of w find the bit set and skip the locked op.
        if (__atomic_load_n(st + w, __ATOMIC_RELAXED) & bit) continue;
        if (!(__atomic_fetch_or(st + w, bit, __ATOMIC_RELAXED) & bit)) ar[q]++;
      }
    }
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; t++) pool.emplace_back(work, t);
  if (threads > 0) work(0);
  for (auto& th : pool) th.join();
  for (const auto& l : local)
    for (size_t x = 0; x < kk; x++) (agg[x] += l[x], raw[x] += l[kk + x]);
  return !bad.load();
}

}  // namespace

// modelCount(nbrs: Uint32Array[], pageElement: Uint8Array, owner: Uint8Array, k, agg, raw):
// page i's neighbour ids nbrs[i] are held by element pageElement[i] (255: no element); owner[w] is
// w's element. agg and raw (Float64Array, k x k, row = the pages' element) get, per p != q, the
// distinct w owned by q that p's pages name, and the edges to them. k <= 32.
Napi::Value ModelCount(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 6 || !info[0].IsArray()) throw codedError(env, "TS_ARG", "modelCount(nbrs, pageElement, owner, k, agg, raw)");
  Napi::Array arr = info[0].As<Napi::Array>();
  TA pe, ow, ag, rw;
  if (!getTypedArray(env, info[1], &pe) || pe.type != napi_uint8_array || pe.length != arr.Length())
    throw codedError(env, "TS_ARG", "modelCount: pageElement must be a Uint8Array with one entry per page");
  if (!getTypedArray(env, info[2], &ow) || ow.type != napi_uint8_array) throw codedError(env, "TS_ARG", "modelCount: owner must be a Uint8Array");
  const uint32_t k = (uint32_t)uintArg(info, 3, "modelCount: k", 0, true);
  if (k < 1 || k > 32) throw codedError(env, "TS_ARG", "modelCount: k must be in [1, 32]");
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
  const bool ok = k <= 8 ? countPages<uint8_t>(pages, owner, ow.length, k, agg.data(), raw.data())
                         : countPages<uint32_t>(pages, owner, ow.length, k, agg.data(), raw.data());
  if (!ok) throw codedError(env, "TS_ARG", "modelCount: a neighbour id >= owner.length, or an owner >= k");
  double* a = (double*)ag.data;
  double* r = (double*)rw.data;
  for (size_t x = 0; x < kk; x++) (a[x] = (double)agg[x], r[x] = (double)raw[x]);
  return env.Undefined();
}

}  // namespace addon
}  // namespace ts
