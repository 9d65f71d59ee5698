// Betweenness's forward and backward steps (src/programs/bc/kernels.ts), natively: each worker
// thread calls them per task. As TypeScript a session's first run paid for their JIT warm-up on
// every thread (the first source's largest pull about twice its warm time on 16 threads).
//
// bcFwdPush(outSet, list, lo, hi, dist, sigma, next, found, level, stats): the out-edges of
//   list[lo, hi) (each u at depth level - 1): a vertex at depth -1 takes depth `level` by
//   compare-and-swap, and its winner flags it in next and appends it to found; a vertex at depth
//   `level` gets sigma[u] added by compare-and-swap on its 64 bits (the TypeScript takes a striped
//   lock; the path counts are whole numbers, so the sums are the same in any order).
//   stats[0] += edges, stats[1] += vertices appended.
// bcFwdPull(offsets, nbrs, vBegin, lo, hi, dist, sigma, frontier, next, level, stats): each vertex
//   vBegin + [lo, hi) of the page at depth -1 sums sigma over its in-neighbours in the frontier
//   (list order); a positive sum sets its depth, sigma and next flag. stats as bcFwdPush's.
// bcBackPull(offsets, nbrs, vBegin, lo, hi, dist, sigma, delta, bc, frontier, level, byDist, stats)
//   and bcBackPush(outSet, list, lo, hi, dist, sigma, delta, bc, level, byDist, stats): each vertex
//   v of the level (frontier[v] == 1, or dist[v] == level where byDist) takes
//   delta[v] = Σ (sigma[v] / sigma[w]) (1 + delta[w]) over its out-neighbours w at depth level + 1
//   in list order, and bc[v] += delta[v]: the TypeScript's sums to the bit (CMake compiles this file
//   with -ffp-contract=off). stats[0] += edges.
#include "addon_cpu.h"

#include <algorithm>

#include <cstring>

namespace ts {
namespace addon {
namespace {

using namespace cpu;

/** sigma[v] += x by compare-and-swap on its 64 bits. */
inline void addSigma(double* p, double x) {
  uint64_t* cell = (uint64_t*)p;
  uint64_t cur = __atomic_load_n(cell, __ATOMIC_RELAXED);
  for (;;) {
    double d;
    std::memcpy(&d, &cur, 8);
    const double s = d + x;
    uint64_t want;
    std::memcpy(&want, &s, 8);
    if (__atomic_compare_exchange_n(cell, &cur, want, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
  }
}

int32_t levelArg(const Napi::CallbackInfo& info, size_t i, const char* fn) {
  const double x = numberArg(info, i, (std::string(fn) + ": level").c_str(), 0, true);
  if (!(x >= 0 && x < 2147483647.0) || x != (double)(int32_t)x) throw codedError(info.Env(), "TS_ARG", std::string(fn) + ": level must be a whole number from 0");
  return (int32_t)x;
}

/** A push's arguments at 0-3 (outSet, list, lo, hi), checked against n vertices. */
struct ListArgs {
  const PageSetN* out;
  const uint32_t* list;
  uint32_t lo, hi;
  size_t nl;
  ListArgs(const Napi::CallbackInfo& info) : out(setArg(info, 0)) {
    list = arrayArg<uint32_t>(info, 1, napi_uint32_array, "list", &nl);
    lo = (uint32_t)uintArg(info, 2, "lo", 0, true), hi = (uint32_t)uintArg(info, 3, "hi", 0, true);
  }
  bool ok(size_t n) const { return !(hi < lo || hi > nl || out->n != n); }
};

Napi::Value BcFwdPush(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const ListArgs p(info);
  const PageSetN* out = p.out;
  size_t nd, ns, nn, nf;
  int32_t* dist = arrayArg<int32_t>(info, 4, napi_int32_array, "dist", &nd);
  double* sigma = arrayArg<double>(info, 5, napi_float64_array, "sigma", &ns);
  uint8_t* next = arrayArg<uint8_t>(info, 6, napi_uint8_array, "next", &nn);
  uint32_t* found = arrayArg<uint32_t>(info, 7, napi_uint32_array, "found", &nf);
  const int32_t level = levelArg(info, 8, "bcFwdPush");
  double* stats = arrayArg<double>(info, 9, napi_float64_array, "stats");
  // Every array holds at least the graph's n entries (a few vertices' arrays are padded to 8 bytes:
  // lengths differ by type, so none stands for n).
  const size_t n = out->n;
  if (!p.ok(n) || nd < n || ns < n || nn < n) throw codedError(env, "TS_ARG", "bcFwdPush: range out of bounds");
  uint64_t edges = 0;
  size_t k = 0;
  for (uint32_t i = p.lo; i < p.hi; i++) {
    const uint32_t u = p.list[i];
    if (u >= n) throw codedError(env, "TS_ARG", "bcFwdPush: a listed vertex is out of range");
    const double su = sigma[u];
    const bool room = forSlices(*out, u, 0, INFINITY, [&](size_t pi, uint32_t a, uint32_t b) -> bool {
      if (k + (b - a) > nf) return false;
      edges += b - a;
      const uint32_t* nb = out->nbr[pi];
      for (uint32_t e = a; e < b; e++) {
        const uint32_t v = nb[e];
        int32_t dv = __atomic_load_n(dist + v, __ATOMIC_RELAXED);
        if (dv == -1) {
          int32_t want = -1;
          if (__atomic_compare_exchange_n(dist + v, &want, level, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
            dv = level;
            next[v] = 1;
            found[k++] = v;
          } else {
            dv = want;
          }
        }
        if (dv == level) addSigma(sigma + v, su);
      }
      return true;
    });
    if (!room) throw codedError(env, "TS_ARG", "bcFwdPush: found has no room for the task's edges");
  }
  stats[0] += (double)edges;
  stats[1] += (double)k;
  return env.Undefined();
}

/** A single page's arguments at 0-4 (offsets, nbrs, vBegin, lo, hi), checked against n vertices. */
struct PageArgs {
  const uint32_t *off, *nbrs;
  uint32_t vBegin, lo, hi;
  size_t nOff, nNbr;
  PageArgs(const Napi::CallbackInfo& info) {
    off = arrayArg<uint32_t>(info, 0, napi_uint32_array, "offsets", &nOff);
    nbrs = arrayArg<uint32_t>(info, 1, napi_uint32_array, "nbrs", &nNbr);
    vBegin = (uint32_t)uintArg(info, 2, "vBegin", 0, true);
    lo = (uint32_t)uintArg(info, 3, "lo", 0, true), hi = (uint32_t)uintArg(info, 4, "hi", 0, true);
  }
  /** The range within the page and the graph's n vertices (the page's ids are the graph's: not scanned). */
  bool ok(size_t n) const { return !(hi < lo || hi >= nOff || off[hi] > nNbr || (uint64_t)vBegin + hi > n); }
};

Napi::Value BcFwdPull(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const PageArgs p(info);
  size_t nd, ns, nfr, nn;
  int32_t* dist = arrayArg<int32_t>(info, 5, napi_int32_array, "dist", &nd);
  double* sigma = arrayArg<double>(info, 6, napi_float64_array, "sigma", &ns);
  const uint8_t* fr = arrayArg<uint8_t>(info, 7, napi_uint8_array, "frontier", &nfr);
  uint8_t* next = arrayArg<uint8_t>(info, 8, napi_uint8_array, "next", &nn);
  const int32_t level = levelArg(info, 9, "bcFwdPull");
  double* stats = arrayArg<double>(info, 10, napi_float64_array, "stats");
  // The arrays' common length bounds the range (padded arrays of a few vertices differ in length).
  if (!p.ok(std::min({nd, ns, nfr, nn}))) throw codedError(env, "TS_ARG", "bcFwdPull: range out of bounds");
  uint64_t edges = 0, found = 0;
  for (uint32_t i = p.lo; i < p.hi; i++) {
    const uint32_t v = p.vBegin + i;
    if (dist[v] != -1) continue;
    double s = 0;
    const uint32_t b = p.off[i + 1];
    for (uint32_t e = p.off[i]; e < b; e++)
      if (fr[p.nbrs[e]] == 1) s += sigma[p.nbrs[e]];
    edges += b - p.off[i];
    if (s > 0) {
      dist[v] = level;
      sigma[v] = s;
      next[v] = 1;
      found++;
    }
  }
  stats[0] += (double)edges;
  stats[1] += (double)found;
  return env.Undefined();
}

/** delta[v] and bc[v] from v's out-neighbours at depth `below`, over the slices `each` gives. */
template <typename Each>
inline uint64_t backOne(uint32_t v, int32_t below, const int32_t* dist, const double* sigma, double* delta, double* bc, Each each) {
  const double sv = sigma[v];
  double dv = 0;
  uint64_t edges = 0;
  each([&](const uint32_t* nb, uint32_t a, uint32_t b) {
    edges += b - a;
    for (uint32_t e = a; e < b; e++) {
      const uint32_t w = nb[e];
      if (dist[w] == below) dv += (sv / sigma[w]) * (1 + delta[w]);
    }
  });
  delta[v] = dv;
  bc[v] += dv;
  return edges;
}

Napi::Value BcBackPull(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const PageArgs p(info);
  size_t nd, ns, nde, nb, nfr;
  const int32_t* dist = arrayArg<int32_t>(info, 5, napi_int32_array, "dist", &nd);
  const double* sigma = arrayArg<double>(info, 6, napi_float64_array, "sigma", &ns);
  double* delta = arrayArg<double>(info, 7, napi_float64_array, "delta", &nde);
  double* bc = arrayArg<double>(info, 8, napi_float64_array, "bc", &nb);
  const uint8_t* fr = arrayArg<uint8_t>(info, 9, napi_uint8_array, "frontier", &nfr);
  const int32_t level = levelArg(info, 10, "bcBackPull");
  const bool byDist = info.Length() > 11 && info[11].ToBoolean().Value();
  double* stats = arrayArg<double>(info, 12, napi_float64_array, "stats");
  if (!p.ok(std::min({nd, ns, nde, nb, nfr}))) throw codedError(env, "TS_ARG", "bcBackPull: range out of bounds");
  uint64_t edges = 0;
  for (uint32_t i = p.lo; i < p.hi; i++) {
    const uint32_t v = p.vBegin + i;
    if (byDist ? dist[v] != level : fr[v] != 1) continue;
    edges += backOne(v, level + 1, dist, sigma, delta, bc, [&](auto f) { f(p.nbrs, p.off[i], p.off[i + 1]); });
  }
  stats[0] += (double)edges;
  return env.Undefined();
}

Napi::Value BcBackPush(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const ListArgs p(info);
  const PageSetN* out = p.out;
  size_t nd, ns, nde, nb;
  const int32_t* dist = arrayArg<int32_t>(info, 4, napi_int32_array, "dist", &nd);
  const double* sigma = arrayArg<double>(info, 5, napi_float64_array, "sigma", &ns);
  double* delta = arrayArg<double>(info, 6, napi_float64_array, "delta", &nde);
  double* bc = arrayArg<double>(info, 7, napi_float64_array, "bc", &nb);
  const int32_t level = levelArg(info, 8, "bcBackPush");
  const bool byDist = info.Length() > 9 && info[9].ToBoolean().Value();
  double* stats = arrayArg<double>(info, 10, napi_float64_array, "stats");
  if (!p.ok(nd) || ns < nd || nde < nd || nb < nd) throw codedError(env, "TS_ARG", "bcBackPush: range out of bounds");
  uint64_t edges = 0;
  for (uint32_t i = p.lo; i < p.hi; i++) {
    const uint32_t v = p.list[i];
    if (v >= nd) throw codedError(env, "TS_ARG", "bcBackPush: a listed vertex is out of range");
    if (byDist && dist[v] != level) continue;
    edges += backOne(v, level + 1, dist, sigma, delta, bc, [&](auto f) {
      forSlices(*out, v, 0, INFINITY, [&](size_t pi, uint32_t a, uint32_t b) {
        f(out->nbr[pi], a, b);
        return true;
      });
    });
  }
  stats[0] += (double)edges;
  return env.Undefined();
}

}  // namespace

void ExportBc(Napi::Object o) {
  o.Set("bcFwdPush", Napi::Function::New(o.Env(), BcFwdPush, "bcFwdPush"));
  o.Set("bcFwdPull", Napi::Function::New(o.Env(), BcFwdPull, "bcFwdPull"));
  o.Set("bcBackPull", Napi::Function::New(o.Env(), BcBackPull, "bcBackPull"));
  o.Set("bcBackPush", Napi::Function::New(o.Env(), BcBackPush, "bcBackPush"));
}

}  // namespace addon
}  // namespace ts
