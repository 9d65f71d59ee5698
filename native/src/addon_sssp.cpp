// SSSP's push and pull (src/programs/sssp/kernels.ts), natively: each worker thread calls them per
// task. As TypeScript, a session's first run paid for the loops' JIT warm-up on every thread (the
// H200 host, RMAT 22, 16 threads: its first supersteps of each kind 2-3x their warm time).
//
// ssspPush(outSet, list, lo, hi, dist, next, found, stats): relaxes the out-edges of list[lo, hi)
//   (weights 1 on an unweighted graph): a candidate below dist[v] lowers it by compare-and-swap on
//   its 64 bits (the TypeScript takes a striped lock instead: Atomics has no float64 operations);
//   the thread that lowers it and first sets next[v] (an atomic exchange) appends v to found.
//   stats[0] += edges, stats[1] += vertices appended.
// ssspPull(offsets, nbrs, weights | null, vBegin, lo, hi, dist, frontier, next, stats): each vertex
//   vBegin + [lo, hi) of the page takes the min of dist[u] + w over its in-neighbours u in the
//   frontier; one writer per vertex. stats[0] += edges, stats[1] += vertices lowered.
// ssspSelect: below.
// Distances are sums along paths, each dist[u] + w once: the same values as the TypeScript's.
#include "addon_cpu.h"

#include <cstring>

namespace ts {
namespace addon {
namespace {

using namespace cpu;

inline double loadDist(const double* p) {
  const uint64_t b = __atomic_load_n((const uint64_t*)p, __ATOMIC_RELAXED);
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

/** dist[v] = min(dist[v], c) by compare-and-swap; whether this call lowered it. */
inline bool lower(double* p, double c) {
  uint64_t* cell = (uint64_t*)p;
  uint64_t cur = __atomic_load_n(cell, __ATOMIC_RELAXED);
  for (;;) {
    double d;
    std::memcpy(&d, &cur, 8);
    if (!(c < d)) return false;
    uint64_t want;
    std::memcpy(&want, &c, 8);
    if (__atomic_compare_exchange_n(cell, &cur, want, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return true;
  }
}

template <typename W>
inline double weightAt(const void* w, uint32_t e) {
  return ((const W*)w)[e];
}

Napi::Value SsspPush(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const PageSetN* out = setArg(info, 0);
  size_t nl, nv, nn, nf;
  const uint32_t* list = arrayArg<uint32_t>(info, 1, napi_uint32_array, "list", &nl);
  const uint32_t lo = (uint32_t)uintArg(info, 2, "lo", 0, true), hi = (uint32_t)uintArg(info, 3, "hi", 0, true);
  double* dist = arrayArg<double>(info, 4, napi_float64_array, "dist", &nv);
  uint8_t* next = arrayArg<uint8_t>(info, 5, napi_uint8_array, "next", &nn);
  uint32_t* found = arrayArg<uint32_t>(info, 6, napi_uint32_array, "found", &nf);
  double* stats = arrayArg<double>(info, 7, napi_float64_array, "stats");
  if (hi < lo || hi > nl || out->n != nv || nn < nv) throw codedError(env, "TS_ARG", "ssspPush: range out of bounds");
  uint64_t edges = 0;
  size_t k = 0;
  for (uint32_t i = lo; i < hi; i++) {
    const uint32_t u = list[i];
    if (u >= nv) throw codedError(env, "TS_ARG", "ssspPush: a listed vertex is out of range");
    const double du = loadDist(dist + u);
    const bool room = forSlices(*out, u, 0, INFINITY, [&](size_t pi, uint32_t a, uint32_t b) -> bool {
      if (k + (b - a) > nf) return false;
      edges += b - a;
      const uint32_t* nb = out->nbr[pi];
      const void* w = out->wt[pi];
      const bool w64 = out->wt64[pi] != 0;
      for (uint32_t e = a; e < b; e++) {
        const uint32_t v = nb[e];
        const double c = du + (w == nullptr ? 1.0 : w64 ? weightAt<double>(w, e) : weightAt<float>(w, e));
        if (lower(dist + v, c) && __atomic_exchange_n(next + v, (uint8_t)1, __ATOMIC_RELAXED) == 0) found[k++] = v;
      }
      return true;
    });
    if (!room) throw codedError(env, "TS_ARG", "ssspPush: found has no room for the task's edges");
  }
  stats[0] += (double)edges;
  stats[1] += (double)k;
  return env.Undefined();
}

template <typename W>
uint64_t pullLoop(const uint32_t* off, const uint32_t* nbrs, const void* wt, uint32_t vBegin, uint32_t lo, uint32_t hi, double* dist, const uint8_t* fr, uint8_t* next) {
  uint64_t lowered = 0;
  for (uint32_t i = lo; i < hi; i++) {
    const uint32_t v = vBegin + i;
    double best = loadDist(dist + v);
    for (uint32_t e = off[i], b = off[i + 1]; e < b; e++) {
      const uint32_t u = nbrs[e];
      if (fr[u] != 1) continue;
      const double c = loadDist(dist + u) + (wt == nullptr ? 1.0 : weightAt<W>(wt, e));
      if (c < best) best = c;
    }
    if (best < loadDist(dist + v)) {
      uint64_t b;
      std::memcpy(&b, &best, 8);
      __atomic_store_n((uint64_t*)(dist + v), b, __ATOMIC_RELAXED);
      next[v] = 1;
      lowered++;
    }
  }
  return lowered;
}

Napi::Value SsspPull(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  size_t nOff, nNbr, nv, nfr, nn, nw = 0;
  const uint32_t* off = arrayArg<uint32_t>(info, 0, napi_uint32_array, "offsets", &nOff);
  const uint32_t* nbrs = arrayArg<uint32_t>(info, 1, napi_uint32_array, "nbrs", &nNbr);
  TA w;
  const bool weighted = info.Length() > 2 && !info[2].IsNull() && !info[2].IsUndefined();
  if (weighted && (!getTypedArray(env, info[2], &w) || (w.type != napi_float32_array && w.type != napi_float64_array)))
    throw codedError(env, "TS_ARG", "ssspPull: weights must be a Float32Array, a Float64Array or null");
  if (weighted) nw = w.length;
  const uint32_t vBegin = (uint32_t)uintArg(info, 3, "vBegin", 0, true);
  const uint32_t lo = (uint32_t)uintArg(info, 4, "lo", 0, true), hi = (uint32_t)uintArg(info, 5, "hi", 0, true);
  double* dist = arrayArg<double>(info, 6, napi_float64_array, "dist", &nv);
  const uint8_t* fr = arrayArg<uint8_t>(info, 7, napi_uint8_array, "frontier", &nfr);
  uint8_t* next = arrayArg<uint8_t>(info, 8, napi_uint8_array, "next", &nn);
  double* stats = arrayArg<double>(info, 9, napi_float64_array, "stats");
  if (hi < lo || hi >= nOff || off[hi] > nNbr || (weighted && off[hi] > nw) || (uint64_t)vBegin + hi > nv || nfr < nv || nn < nv)
    throw codedError(env, "TS_ARG", "ssspPull: range out of bounds");
  const uint64_t lowered = !weighted ? pullLoop<double>(off, nbrs, nullptr, vBegin, lo, hi, dist, fr, next)
                           : w.type == napi_float64_array ? pullLoop<double>(off, nbrs, w.data, vBegin, lo, hi, dist, fr, next)
                                                          : pullLoop<float>(off, nbrs, w.data, vBegin, lo, hi, dist, fr, next);
  stats[0] += (double)(off[hi] - off[lo]);
  stats[1] += (double)lowered;
  return env.Undefined();
}

// ssspSelect(dist, pending, act | null, next, lo, hi, bound, low, stats): delta.ts's bucket filter
//   (kernels.ts ssspSelect) over vertices [lo, hi): act given, its flags join pending first; a
//   pending vertex with dist < bound leaves pending and is flagged in next (stats[0] += 1), the
//   others' smallest distance lowers low[0] by compare-and-swap (stats[1] += 1 each).
Napi::Value SsspSelect(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  size_t nv, np, na = 0, nn, nl;
  const double* dist = arrayArg<double>(info, 0, napi_float64_array, "dist", &nv);
  uint8_t* pending = arrayArg<uint8_t>(info, 1, napi_uint8_array, "pending", &np);
  const bool merge = info.Length() > 2 && !info[2].IsNull() && !info[2].IsUndefined();
  const uint8_t* act = merge ? arrayArg<uint8_t>(info, 2, napi_uint8_array, "act", &na) : nullptr;
  uint8_t* next = arrayArg<uint8_t>(info, 3, napi_uint8_array, "next", &nn);
  const uint32_t lo = (uint32_t)uintArg(info, 4, "lo", 0, true), hi = (uint32_t)uintArg(info, 5, "hi", 0, true);
  const double bound = numberArg(info, 6, "bound", 0, true);
  double* low = arrayArg<double>(info, 7, napi_float64_array, "low", &nl);
  double* stats = arrayArg<double>(info, 8, napi_float64_array, "stats");
  if (hi < lo || hi > nv || hi > np || hi > nn || (merge && hi > na) || nl < 1) throw codedError(env, "TS_ARG", "ssspSelect: range out of bounds");
  double m = INFINITY;
  uint64_t taken = 0, left = 0;
  for (uint32_t v = lo; v < hi; v++) {
    if (merge && act[v] != 0) pending[v] = 1;
    if (pending[v] == 0) continue;
    const double d = loadDist(dist + v);
    if (d < bound) {
      next[v] = 1;
      pending[v] = 0;
      taken++;
    } else {
      left++;
      if (d < m) m = d;
    }
  }
  if (m < INFINITY) lower(low, m);
  stats[0] += (double)taken;
  stats[1] += (double)left;
  return env.Undefined();
}

}  // namespace

void ExportSssp(Napi::Object o) {
  o.Set("ssspSelect", Napi::Function::New(o.Env(), SsspSelect, "ssspSelect"));
  o.Set("ssspPush", Napi::Function::New(o.Env(), SsspPush, "ssspPush"));
  o.Set("ssspPull", Napi::Function::New(o.Env(), SsspPull, "ssspPull"));
}

}  // namespace addon
}  // namespace ts
