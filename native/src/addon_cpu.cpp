// Native CPU kernels of built-in programs, called by the socket workers' TS kernels once per task
// (src/programs/*/kernels.ts, afforest.ts): the same loops as the TS kernels beside them, which
// run where the addon does not load or TESSERA_NATIVE_KERNELS=0. Measured on one core, BFS's
// bottom-up level over RMAT 20: 8-11 ms as TypeScript, 4.3 ms as this C++; on 16 threads the
// TS workers spent 3.7x GAPBS's CPU time on the same levels (bench/results/
// h100-2026-11-26-native-kernels). Each call runs on the caller's thread over the task's vertex
// range; several workers call at once on disjoint ranges,
// sharing state arrays through SharedArrayBuffers (atomics where two ranges may write one entry).
//
// Functions (exported under `cpu`):
//   pageSet(pages, firstPageOf) -> handle   a page set's raw pointers (pages keep their buffers)
//   bfsPull(offsets, nbrs, vBegin, lo, hi, depth, frontier, next, level, stats)
//   bfsPush(out, list, lo, hi, edgeLo, edgeHi, depth, seen, next, level, found, stats)
//       (frontier and next: a byte a vertex, Uint8Array, or a bit a vertex, Uint32Array words)
//       (edgeLo < 0: whole vertices; found: room for every edge, the claimed ids written first)
//   listBits(bits, wlo, whi, out) -> k   (the set bits of words [wlo, whi) as vertex ids)
//   affSample(offsets, nbrs, vBegin, lo, hi, comp, rounds, stats)   (each vertex's first `rounds` edges)
//   affFinal(out, in | null, lo, hi, comp, skip, from, stats)   (vertex ids lo..hi, page sets)
//   affVertex(op, comp, label, lo, hi)   (op 0: compress + lower the roots' labels, 1: spread the
//       roots' labels)
//   wccTeam(out, in | null, orig, comp, label, ctl, rounds, piece, stats)   Afforest whole on a
//       team's threads (below; addon_team.h)
//   bfsTeam(...)   BFS's every level on a team's threads (addon_bfs.cpp, which shares addon_cpu.h)
// stats (Float64Array): [0] += edges examined, [1] += vertices activated.
#include "addon_cpu.h"
#include "addon_team.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>
#include <vector>

namespace ts {
namespace addon {
namespace {

using namespace cpu;

inline int32_t load(const int32_t* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }

/** Hooks the trees of u and v, the larger root under the smaller (GAPBS cc.cc Link; afforest.ts link). */
inline void link(int32_t* comp, int32_t u, int32_t v) {
  int32_t p1 = load(comp + u), p2 = load(comp + v);
  while (p1 != p2) {
    const int32_t high = p1 > p2 ? p1 : p2, low = p1 + p2 - high;
    int32_t pHigh = load(comp + high);
    if (pHigh == low) return;
    if (pHigh == high) {
      int32_t expected = high;
      if (__atomic_compare_exchange_n(comp + high, &expected, low, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
    }
    p1 = load(comp + load(comp + high));
    p2 = load(comp + low);
  }
}

/** Whether v's tree is skip's: climbs to skip or a root and points v there (afforest.ts inTree). */
inline bool inTree(int32_t* comp, uint32_t v, int32_t skip) {
  const int32_t at = load(comp + v);
  int32_t x = at;
  for (int32_t up; x != skip && (up = load(comp + x)) != x; x = up) {
  }
  if (x != at) __atomic_store_n(comp + v, x, __ATOMIC_RELAXED);
  return x == skip;
}

/** Links v with its neighbours in set from its `from`-th on. */
double linkAll(int32_t* comp, const PageSetN& s, uint32_t v, uint32_t from) {
  double edges = 0;
  forEdges(s, v, from, INFINITY, [&](const uint32_t* nb, uint32_t a, uint32_t b) {
    for (uint32_t e = a; e < b; e++) link(comp, (int32_t)v, (int32_t)nb[e]);
    edges += b - a;
    return true;
  });
  return edges;
}

/**
 * Links each vertex of [lo, hi) outside the tree `skip` with its neighbours in `set` from its
 * `from`-th on, a page at a time: a call per vertex (forEdges) cost ~10 ns each, and the final
 * pass visits every vertex outside the sampled component, RMAT's isolated ones included.
 */
double linkRange(int32_t* comp, const PageSetN& s, uint32_t lo, uint32_t hi, int32_t skip, uint32_t from) {
  double edges = 0;
  for (uint32_t v = lo; v < hi;) {
    const size_t pi = s.firstPageOf[v];
    if (s.split[pi] != 0) {
      if (!inTree(comp, v, skip)) edges += linkAll(comp, s, v, from);
      v++;
      continue;
    }
    const uint32_t* off = s.off[pi];
    const uint32_t* nb = s.nbr[pi];
    const uint32_t vb = s.vBegin[pi];
    const uint32_t ve = std::min(hi, s.vEnd[pi]);
    for (; v < ve; v++) {
      // Nothing left to link here (RMAT's isolated tail, and most vertices past their first
      // `from` out-edges): not even the climb.
      const uint32_t a = off[v - vb] + from, b = off[v - vb + 1];
      if (a >= b || inTree(comp, v, skip)) continue;
      for (uint32_t e = a; e < b; e++) link(comp, (int32_t)v, (int32_t)nb[e]);
      edges += b - a;
    }
  }
  return edges;
}

Napi::Value PageSet(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[0].IsArray()) throw codedError(env, "TS_ARG", "pageSet: pages must be an array");
  Napi::Array pages = info[0].As<Napi::Array>();
  auto* s = new PageSetN();
  try {
    s->firstPageOf = arrayArg<uint32_t>(info, 1, napi_uint32_array, "firstPageOf", &s->n);
    for (uint32_t i = 0; i < pages.Length(); i++) {
      Napi::Object p = pages.Get(i).As<Napi::Object>();
      TA o, nb;
      if (!getTypedArray(env, p.Get("offsets"), &o) || !getTypedArray(env, p.Get("nbrs"), &nb) || o.type != napi_uint32_array || nb.type != napi_uint32_array)
        throw codedError(env, "TS_ARG", "pageSet: a page's offsets and nbrs must be Uint32Arrays");
      s->off.push_back((const uint32_t*)o.data);
      s->nbr.push_back((const uint32_t*)nb.data);
      s->vBegin.push_back(p.Get("vBegin").As<Napi::Number>().Uint32Value());
      s->vEnd.push_back(p.Get("vEnd").As<Napi::Number>().Uint32Value());
      s->edges.push_back(p.Get("edges").As<Napi::Number>().Uint32Value());
      s->split.push_back(p.Get("split").ToBoolean().Value() ? 1 : 0);
      TA w;
      const bool weighted = getTypedArray(env, p.Get("weights"), &w);
      if (weighted && ((w.type != napi_float32_array && w.type != napi_float64_array) || w.length < s->edges.back()))
        throw codedError(env, "TS_ARG", "pageSet: a page's weights must be a Float32Array or Float64Array of its edges");
      s->wt.push_back(weighted ? w.data : nullptr);
      s->wt64.push_back(weighted && w.type == napi_float64_array ? 1 : 0);
    }
  } catch (...) {
    delete s;
    throw;
  }
  return Napi::External<PageSetN>::New(env, s, [](Napi::Env, PageSetN* d) { delete d; });
}

Napi::Value BfsPull(const Napi::CallbackInfo& info) {
  size_t nOff, nv;
  const uint32_t* off = arrayArg<uint32_t>(info, 0, napi_uint32_array, "offsets", &nOff);
  const uint32_t* nbrs = arrayArg<uint32_t>(info, 1, napi_uint32_array, "nbrs");
  const uint32_t vBegin = (uint32_t)uintArg(info, 2, "vBegin", 0, true);
  const uint32_t lo = (uint32_t)uintArg(info, 3, "lo", 0, true), hi = (uint32_t)uintArg(info, 4, "hi", 0, true);
  int32_t* depth = arrayArg<int32_t>(info, 5, napi_int32_array, "depth", &nv);
  const Flags fr = flagsArg(info, 6, "frontier"), next = flagsArg(info, 7, "next");
  const int32_t level = (int32_t)numberArg(info, 8, "level", 0, true);
  double* stats = arrayArg<double>(info, 9, napi_float64_array, "stats");
  if (hi < lo || hi >= nOff || vBegin + hi > nv || next.vertices < nv || fr.vertices < nv || fr.bits != next.bits) throw codedError(info.Env(), "TS_ARG", "bfsPull: range out of bounds (or frontier and next of two kinds)");
  uint64_t edges = 0, active = 0;
  if (fr.bits) pullLoop<true>(off, nbrs, vBegin, lo, hi, depth, fr, next, level, edges, active);
  else pullLoop<false>(off, nbrs, vBegin, lo, hi, depth, fr, next, level, edges, active);
  stats[0] += (double)edges;
  stats[1] += (double)active;
  return info.Env().Undefined();
}

/**
 * Top-down BFS over list[lo, hi) (or list[lo]'s out-edges [edgeLo, edgeHi), counted from its first,
 * across its split pages), as bfs/kernels.ts push: a vertex whose `seen` bit is clear and whose
 * depth is -1 is claimed by compare-and-swap; the claimer sets the bit (a hint: a bit lost to a
 * racing word update costs a depth read), next[v] and found[k++].
 */
Napi::Value BfsPush(const Napi::CallbackInfo& info) {
  const PageSetN* out = setArg(info, 0);
  size_t nl, nv, ns, nf;
  const uint32_t* list = arrayArg<uint32_t>(info, 1, napi_uint32_array, "list", &nl);
  const uint32_t lo = (uint32_t)uintArg(info, 2, "lo", 0, true), hi = (uint32_t)uintArg(info, 3, "hi", 0, true);
  const double edgeLo = numberArg(info, 4, "edgeLo", -1, true), edgeHi = numberArg(info, 5, "edgeHi", -1, true);
  int32_t* depth = arrayArg<int32_t>(info, 6, napi_int32_array, "depth", &nv);
  int32_t* seen = arrayArg<int32_t>(info, 7, napi_int32_array, "seen", &ns);
  const Flags next = flagsArg(info, 8, "next");
  const int32_t level = (int32_t)numberArg(info, 9, "level", 0, true);
  uint32_t* found = arrayArg<uint32_t>(info, 10, napi_uint32_array, "found", &nf);
  double* stats = arrayArg<double>(info, 11, napi_float64_array, "stats");
  if (hi < lo || hi > nl || out->n != nv || next.vertices < nv || ns < (nv + 31) / 32) throw codedError(info.Env(), "TS_ARG", "bfsPush: range out of bounds");
  uint64_t edges = 0;
  size_t k = 0;
  auto scan = [&](const uint32_t* nbrs, uint32_t a, uint32_t b) -> bool {
    if (k + (b - a) > nf) return false;
    edges += b - a;
    for (uint32_t e = a; e < b; e++)
      if (claim(depth, seen, next, nbrs[e], level)) found[k++] = nbrs[e];
    return true;
  };
  bool room = true;
  for (uint32_t i = lo; i < hi && room; i++) {
    const uint32_t u = list[i];
    if (u >= nv) throw codedError(info.Env(), "TS_ARG", "bfsPush: a listed vertex is out of range");
    // u's out-edges, or only [edgeLo, edgeHi) of them.
    room = forEdges(*out, u, edgeLo >= 0 ? edgeLo : 0, edgeLo >= 0 ? edgeHi : INFINITY, scan);
  }
  if (!room) throw codedError(info.Env(), "TS_ARG", "bfsPush: found has no room for the task's edges");
  stats[0] += (double)edges;
  stats[1] += (double)k;
  return info.Env().Undefined();
}

/** Links each vertex of a page's range [lo, hi) with its first `rounds` neighbours; returns the edges. */
double sampleRun(int32_t* comp, const uint32_t* off, const uint32_t* nbrs, uint32_t vBegin, uint32_t lo, uint32_t hi, uint32_t rounds) {
  uint64_t edges = 0;
  for (uint32_t i = lo; i < hi; i++) {
    const uint32_t a = off[i], b = std::min(off[i + 1], a + rounds);
    for (uint32_t e = a; e < b; e++) link(comp, (int32_t)(vBegin + i), (int32_t)nbrs[e]);
    edges += b - a;
  }
  return (double)edges;
}

Napi::Value AffSample(const Napi::CallbackInfo& info) {
  size_t nOff;
  const uint32_t* off = arrayArg<uint32_t>(info, 0, napi_uint32_array, "offsets", &nOff);
  const uint32_t* nbrs = arrayArg<uint32_t>(info, 1, napi_uint32_array, "nbrs");
  const uint32_t vBegin = (uint32_t)uintArg(info, 2, "vBegin", 0, true);
  const uint32_t lo = (uint32_t)uintArg(info, 3, "lo", 0, true), hi = (uint32_t)uintArg(info, 4, "hi", 0, true);
  size_t n;
  int32_t* comp = arrayArg<int32_t>(info, 5, napi_int32_array, "comp", &n);
  const uint32_t rounds = (uint32_t)uintArg(info, 6, "rounds", 0, true);
  double* stats = arrayArg<double>(info, 7, napi_float64_array, "stats");
  if (hi < lo || hi >= nOff || vBegin + hi > n) throw codedError(info.Env(), "TS_ARG", "affSample: range out of bounds");
  stats[0] += sampleRun(comp, off, nbrs, vBegin, lo, hi, rounds);
  return info.Env().Undefined();
}

Napi::Value AffFinal(const Napi::CallbackInfo& info) {
  const PageSetN* out = setArg(info, 0);
  const PageSetN* in = info.Length() > 1 && info[1].IsExternal() ? setArg(info, 1) : nullptr;
  const uint32_t lo = (uint32_t)uintArg(info, 2, "lo", 0, true), hi = (uint32_t)uintArg(info, 3, "hi", 0, true);
  size_t n;
  int32_t* comp = arrayArg<int32_t>(info, 4, napi_int32_array, "comp", &n);
  const int32_t skip = (int32_t)numberArg(info, 5, "skip", 0, true);
  const uint32_t from = (uint32_t)uintArg(info, 6, "from", 0, true);
  double* stats = arrayArg<double>(info, 7, napi_float64_array, "stats");
  if (hi < lo || hi > n || out->n != n || (in != nullptr && in->n != n)) throw codedError(info.Env(), "TS_ARG", "affFinal: range out of bounds");
  // The out-pass over the range, then the in-pass (GAPBS checks each vertex once for both): a
  // vertex found in the sampled tree in either pass is in it for good (hooks move roots only), so
  // an edge is skipped only where both ends are in that tree, as in GAPBS. The trees are not
  // compressed before this pass: inTree climbs (and shortens) each vertex's path.
  double edges = linkRange(comp, *out, lo, hi, skip, from);
  if (in != nullptr) edges += linkRange(comp, *in, lo, hi, skip, 0);
  stats[0] += edges;
  return info.Env().Undefined();
}

/** Every vertex of [lo, hi) points at its root (path halving, as afforest.ts), whose label it lowers to its own. */
void compressMin(int32_t* comp, uint32_t* label, uint32_t lo, uint32_t hi) {
  for (uint32_t v = lo; v < hi; v++) {
    int32_t c = load(comp + v);
    for (int32_t up; (up = load(comp + c)) != c; c = up) __atomic_store_n(comp + v, up, __ATOMIC_RELAXED);
    if (c == (int32_t)v) continue;
    const uint32_t x = label[v];
    uint32_t cur = __atomic_load_n(label + c, __ATOMIC_RELAXED);
    while (x < cur && !__atomic_compare_exchange_n(label + c, &cur, x, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
  }
}

/** Every vertex of [lo, hi) takes its root's label (after compressMin everywhere). */
void spread(const int32_t* comp, uint32_t* label, uint32_t lo, uint32_t hi) {
  for (uint32_t v = lo; v < hi; v++) {
    const int32_t r = comp[v];
    if (r != (int32_t)v) label[v] = label[r];
  }
}

/** The vertex maps: op 0 compress + lower the roots' labels, 1 spread the roots' labels. */
Napi::Value AffVertex(const Napi::CallbackInfo& info) {
  const uint32_t op = (uint32_t)uintArg(info, 0, "op", 0, true);
  size_t n, nl = 0;
  int32_t* comp = arrayArg<int32_t>(info, 1, napi_int32_array, "comp", &n);
  uint32_t* label = arrayArg<uint32_t>(info, 2, napi_uint32_array, "label", &nl);
  const uint32_t lo = (uint32_t)uintArg(info, 3, "lo", 0, true), hi = (uint32_t)uintArg(info, 4, "hi", 0, true);
  if (hi < lo || hi > n || nl < n || op > 1) throw codedError(info.Env(), "TS_ARG", "affVertex: range out of bounds");
  if (op == 0) compressMin(comp, label, lo, hi);
  else spread(comp, label, lo, hi);
  return info.Env().Undefined();
}

/**
 * Links each vertex of [lo, hi) with its first `rounds` neighbours in s (a split vertex: across
 * its pages, as many as they take: the final pass skips its first `rounds` wherever they lie).
 */
double sampleRange(int32_t* comp, const PageSetN& s, uint32_t lo, uint32_t hi, uint32_t rounds) {
  double edges = 0;
  for (uint32_t v = lo; v < hi;) {
    size_t pi = s.firstPageOf[v];
    const uint32_t* nb = s.nbr[pi];
    if (s.split[pi] != 0) {
      for (uint32_t left = rounds; left > 0 && pi < s.vBegin.size() && s.split[pi] != 0 && s.vBegin[pi] == v; pi++) {
        const uint32_t b = std::min(s.edges[pi], left);
        for (uint32_t e = 0; e < b; e++) link(comp, (int32_t)v, (int32_t)s.nbr[pi][e]);
        edges += b;
        left -= b;
      }
      v++;
      continue;
    }
    const uint32_t vb = s.vBegin[pi], ve = std::min(hi, s.vEnd[pi]);
    edges += sampleRun(comp, s.off[pi], nb, vb, v - vb, ve - vb, rounds);
    v = ve;
  }
  return edges;
}

/** The most frequent root among 1024 sampled vertices (afforest.ts mostFrequent's sample; ties to the smallest root: the sample only steers the work). */
int32_t mostFrequent(const int32_t* comp, uint32_t n) {
  std::vector<int32_t> roots(1024);
  uint32_t x = 0x9e3779b9u;
  for (int32_t& r : roots) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    int32_t c = load(comp + x % n);
    for (int32_t up; (up = load(comp + c)) != c; c = up) {
    }
    r = c;
  }
  std::sort(roots.begin(), roots.end());
  int32_t best = roots[0];
  size_t most = 0;
  for (size_t i = 0, j; i < roots.size(); i = j) {
    for (j = i; j < roots.size() && roots[j] == roots[i]; j++) {
    }
    if (j - i > most) most = j - i, best = roots[i];
  }
  return best;
}

// wccTeam(out, in | null, orig, comp, label, ctl, rounds, piece, stats): Afforest (afforest.ts and
// index.ts's driver) on a team's threads in one call each, in phases (addon_team.h) over vertex
// pieces: comp[v] = v and label[v] = orig[v]; each vertex linked with its first `rounds'
// out-neighbours; the closer samples the most frequent root; the vertices outside its tree link
// the rest of their out-edges and their in-edges (affFinal); every vertex compressed to its root,
// lowering the root's label; every vertex takes its root's label. stats[0] += this thread's edges.
enum : uint64_t { W_INIT = 1, W_SAMPLE, W_FINAL, W_COMPRESS, W_SPREAD };

Napi::Value WccTeam(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const PageSetN* out = setArg(info, 0);
  const PageSetN* in = info[1].IsExternal() ? setArg(info, 1) : nullptr;
  size_t no, n, nl, nc, nst;
  const uint32_t* orig = arrayArg<uint32_t>(info, 2, napi_uint32_array, "orig", &no);
  int32_t* comp = arrayArg<int32_t>(info, 3, napi_int32_array, "comp", &n);
  uint32_t* label = arrayArg<uint32_t>(info, 4, napi_uint32_array, "label", &nl);
  team::Phases ph{(uint64_t*)arrayArg<double>(info, 5, napi_float64_array, "ctl", &nc)};
  const uint32_t rounds = (uint32_t)uintArg(info, 6, "rounds", 0, true);
  const uint64_t piece = (uint64_t)uintArg(info, 7, "piece", 0, true);
  double* stats = arrayArg<double>(info, 8, napi_float64_array, "stats", &nst);
  if (no != n || nl != n || out->n != n || (in != nullptr && in->n != n) || nc < team::WORDS || piece == 0 || nst < 1 || n >= INT32_MAX)
    throw codedError(env, "TS_ARG", "wccTeam: arrays of the wrong lengths (or a zero piece)");
  const uint64_t chunks = (n + piece - 1) / piece;
  const auto next = [&] {
    const uint64_t kind = ph.kind();
    if (kind == W_SAMPLE) team::st(ph.state(0), (uint64_t)mostFrequent(comp, (uint32_t)n));
    ph.publish(n == 0 || kind == W_SPREAD ? team::END : kind + 1, 0, chunks, chunks, 0);
    return false;
  };
  double edges = 0;
  ph.run(next,
         [&](uint64_t kind, uint64_t, uint64_t, uint64_t j, uint64_t) {
           const uint32_t lo = (uint32_t)(j * piece), hi = (uint32_t)std::min<uint64_t>(n, (j + 1) * piece);
           if (kind == W_INIT) {
             for (uint32_t v = lo; v < hi; v++) comp[v] = (int32_t)v, label[v] = orig[v];
           } else if (kind == W_SAMPLE) {
             edges += sampleRange(comp, *out, lo, hi, rounds);
           } else if (kind == W_FINAL) {
             const int32_t skip = (int32_t)team::ld(ph.state(0));
             edges += linkRange(comp, *out, lo, hi, skip, rounds);
             if (in != nullptr) edges += linkRange(comp, *in, lo, hi, skip, 0);
           } else if (kind == W_COMPRESS) {
             compressMin(comp, label, lo, hi);
           } else {
             spread(comp, label, lo, hi);
           }
         },
         next);
  stats[0] += edges;
  return env.Undefined();
}

/** listBits(bits, wlo, whi, out) -> k: the vertices whose bits are set in words [wlo, whi), ascending, into out[0, k). */
Napi::Value ListBits(const Napi::CallbackInfo& info) {
  size_t nw, no;
  const uint32_t* bits = arrayArg<uint32_t>(info, 0, napi_uint32_array, "bits", &nw);
  const uint32_t wlo = (uint32_t)uintArg(info, 1, "wlo", 0, true), whi = (uint32_t)uintArg(info, 2, "whi", 0, true);
  uint32_t* out = arrayArg<uint32_t>(info, 3, napi_uint32_array, "out", &no);
  if (whi < wlo || whi > nw) throw codedError(info.Env(), "TS_ARG", "listBits: words out of bounds");
  size_t k = 0;
  for (uint32_t w = wlo; w < whi; w++) {
    for (uint32_t x = bits[w]; x != 0; x &= x - 1) {
      if (k == no) throw codedError(info.Env(), "TS_ARG", "listBits: out has no room for every set bit");
      out[k++] = 32 * w + (uint32_t)__builtin_ctz(x);
    }
  }
  return Napi::Number::New(info.Env(), (double)k);
}

/**
 * The out-degrees summed over ids[0, k) (a push's claimed vertices) or, with ids null, over the
 * vertices of [lo, hi) whose next flag is set (a pull's): the engine's count of the next
 * frontier's edges. In TypeScript these loops ran cold in a session's first superstep (3-5 ms
 * for 49 K ids on a thread of the 2-core box, against 0.1 once compiled).
 */
Napi::Value DegreeSum(const Napi::CallbackInfo& info) {
  size_t n, nk = 0, nf = 0;
  const uint32_t* deg = arrayArg<uint32_t>(info, 0, napi_uint32_array, "deg", &n);
  double sum = 0;
  if (info[1].IsTypedArray()) {
    const uint32_t* ids = arrayArg<uint32_t>(info, 1, napi_uint32_array, "ids", &nk);
    const uint32_t k = (uint32_t)uintArg(info, 2, "k", 0, true);
    if (k > nk) throw codedError(info.Env(), "TS_ARG", "degreeSum: k out of bounds");
    uint64_t s = 0;
    for (uint32_t i = 0; i < k; i++) {
      if (ids[i] >= n) throw codedError(info.Env(), "TS_ARG", "degreeSum: id out of bounds");
      s += deg[ids[i]];
    }
    sum = (double)s;
  } else {
    const uint8_t* flags = arrayArg<uint8_t>(info, 3, napi_uint8_array, "flags", &nf);
    const uint32_t lo = (uint32_t)uintArg(info, 4, "lo", 0, true), hi = (uint32_t)uintArg(info, 5, "hi", 0, true);
    if (hi < lo || hi > n || hi > nf) throw codedError(info.Env(), "TS_ARG", "degreeSum: range out of bounds");
    uint64_t s = 0;
    for (uint32_t v = lo; v < hi; v++)
      if (flags[v] != 0) s += deg[v];
    sum = (double)s;
  }
  return Napi::Number::New(info.Env(), sum);
}

/** One page's weights: sum and count of the finite ones (each >= 0), the first negative or NaN one's index or -1. */
template <typename W>
void scanWeights(const W* w, uint32_t edges, double* out) {
  double sum = 0, count = 0, bad = -1;
  for (uint32_t e = 0; e < edges; e++) {
    const double x = w[e];
    if (x >= 0) {
      if (x != INFINITY) sum += x, count++;
      continue;
    }
    bad = e;
    break;
  }
  out[0] = sum, out[1] = count, out[2] = bad;
}

// weightScan(set, out): sssp's weight check (src/programs/sssp/index.ts weightMean) over every page
// of a page set on the addon's threads, a page at a time: out[3i..3i+2] = page i's scanWeights (each
// page's sum in edge order, as the TypeScript adds them; an unweighted page's weights are 1). A
// first run paid ~330 ms for it on one thread (RMAT 22, the H200 host).
Napi::Value WeightScan(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const PageSetN* set = setArg(info, 0);
  const size_t pages = set->off.size();
  size_t nOut;
  double* out = arrayArg<double>(info, 1, napi_float64_array, "out", &nOut);
  if (nOut < 3 * pages) throw codedError(env, "TS_ARG", "weightScan: out needs three entries a page");
  std::atomic<size_t> next{0};
  runOnThreads(std::min<size_t>(pages, std::max(1u, std::thread::hardware_concurrency())), [&](size_t) {
    for (size_t i; (i = next.fetch_add(1)) < pages;) {
      const void* w = set->wt[i];
      if (w == nullptr) out[3 * i] = out[3 * i + 1] = set->edges[i], out[3 * i + 2] = -1;
      else if (set->wt64[i]) scanWeights((const double*)w, set->edges[i], out + 3 * i);
      else scanWeights((const float*)w, set->edges[i], out + 3 * i);
    }
  });
  return env.Undefined();
}

}  // namespace

Napi::Object CpuKernels(Napi::Env env) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("pageSet", Napi::Function::New(env, PageSet, "pageSet"));
  o.Set("bfsPull", Napi::Function::New(env, BfsPull, "bfsPull"));
  o.Set("bfsPush", Napi::Function::New(env, BfsPush, "bfsPush"));
  o.Set("affSample", Napi::Function::New(env, AffSample, "affSample"));
  o.Set("affFinal", Napi::Function::New(env, AffFinal, "affFinal"));
  o.Set("affVertex", Napi::Function::New(env, AffVertex, "affVertex"));
  o.Set("degreeSum", Napi::Function::New(env, DegreeSum, "degreeSum"));
  o.Set("listBits", Napi::Function::New(env, ListBits, "listBits"));
  o.Set("wccTeam", Napi::Function::New(env, WccTeam, "wccTeam"));
  o.Set("weightScan", Napi::Function::New(env, WeightScan, "weightScan"));
  ExportLouvain(o);
  ExportBfs(o);
  ExportPr(o);
  ExportSssp(o);
  ExportLouvainView(o);
  ExportLouvainRounds(o);
  ExportBc(o);
  return o;
}

}  // namespace addon
}  // namespace ts
