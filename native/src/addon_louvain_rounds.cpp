// Louvain's sequential path whole (src/programs/louvain/serial.ts sequentialRounds, its rounds
// and serial coarse levels), natively: the same moves and aggregations as the TypeScript calling
// the addon pass by pass, and the O(n) passes around them (class order, compaction, relabelling,
// totals) that a session's first run took cold in TypeScript.
//
// louvainRounds(off, adj, wt | null, k, loop, resolution, m2, opts) -> { comm, levels, rounds, sweeps }
//   The view as louvainAggregate's (off f64 n + 1, adj u32, wt f64 or null, k and loop f64 n).
//   opts: { classes, maxSweeps, tol, roundTol, maxRounds, batchVertices, batchEntries,
//   moveBatches, block, compact } (serial.ts's constants; batchVertices 0: no batched gathering;
//   moveBatches: the views of fewer entries move unbatched; compact false: the rounds run on
//   every vertex). comm: each vertex's community, dense ids in order of the smallest vertex, as
//   sequentialRounds returns it.
#include "addon.h"
#include "louvain_core.h"

#include <algorithm>
#include <vector>

namespace ts {
namespace addon {
namespace {

struct Opts {
  uint32_t classes, maxRounds, batchVertices;
  double maxSweeps, tol, roundTol;
  uint64_t batchEntries, moveBatches, block;
  bool compact;
};

/**
 * The call's arrays, as V8 buffers: freed memory the next run reuses (a run's fresh malloc'd
 * arrays, the coarse graphs above all, took their pages fresh from the kernel each run, and their
 * faults cost more than the passes).
 */
struct Arena {
  Napi::Env env;
  std::vector<Napi::ArrayBuffer> held;
  template <typename T>
  T* get(size_t count) {
    held.push_back(Napi::ArrayBuffer::New(env, std::max<size_t>(count, 1) * sizeof(T)));
    return (T*)held.back().Data();
  }
};

/** A coarse graph of the rounds (its arrays the arena's). */
struct Owned {
  size_t n = 0;
  double *off = nullptr, *wt = nullptr, *k = nullptr, *loop = nullptr;
  uint32_t* adj = nullptr;
  LvView view() const { return LvView{n, off, adj, wt, k, loop}; }
};

Owned aggregate(Arena& arena, const LvView& g, const uint32_t* comm, uint32_t C, const Opts& o) {
  Owned a;
  a.n = C;
  lvAggregate(g, comm, C, o.block, [&](uint64_t cap) {
    a.off = arena.get<double>((size_t)C + 1), a.k = arena.get<double>(C), a.loop = arena.get<double>(C);
    a.adj = arena.get<uint32_t>(cap), a.wt = arena.get<double>(cap);
    return LvOut{a.off, a.adj, a.wt, a.k, a.loop};
  });
  return a;
}

/** serial.ts relabel: communities renumbered 0..C-1 in order of their smallest vertex; returns C. */
uint32_t relabel(uint32_t* comm, size_t n, std::vector<int32_t>& map) {
  map.assign(n, -1);
  uint32_t c = 0;
  for (size_t v = 0; v < n; v++) {
    const uint32_t x = comm[v];
    if (map[x] == -1) map[x] = (int32_t)c++;
    comm[v] = (uint32_t)map[x];
  }
  return c;
}

LvMoved move(const LvView& g, uint32_t* comm, double* tot, uint32_t* size, const uint32_t* order, double resolution, double m2, const Opts& o) {
  const uint32_t batch = (uint64_t)g.off[g.n] >= o.moveBatches ? o.batchVertices : 0;
  return lvMoveOrdered(g, comm, tot, size, order, resolution, m2, o.maxSweeps, o.tol, batch, o.batchEntries);
}

/** serial.ts serialLevels (not classic): the coarse levels from g until one merges nothing; top gets each vertex's community. */
uint32_t serialLevels(Arena& arena, Owned g, std::vector<uint32_t>& top, double resolution, double m2, const Opts& o) {
  top.resize(g.n);
  for (size_t v = 0; v < g.n; v++) top[v] = (uint32_t)v;
  std::vector<uint32_t> comm, size, order;
  std::vector<double> tot;
  std::vector<int32_t> map;
  uint32_t levels = 0;
  for (;;) {
    const size_t n = g.n;
    comm.resize(n), order.resize(n);
    for (size_t v = 0; v < n; v++) comm[v] = order[v] = (uint32_t)v;
    tot.assign(g.k, g.k + n);
    size.assign(n, 1);
    move(g.view(), comm.data(), tot.data(), size.data(), order.data(), resolution, m2, o);
    const uint32_t C = relabel(comm.data(), n, map);
    if (C == n) break;
    levels++;
    for (auto& t : top) t = comm[t];
    g = aggregate(arena, g.view(), comm.data(), C, o);
  }
  return levels;
}

struct Rounds {
  uint32_t levels = 0, rounds = 0;
  double sweeps = 0;
};

/** serial.ts roundsOn: level 0 in `order`, then the coarse levels, while a refining round gains ROUND_TOL. */
Rounds roundsOn(Arena& arena, const LvView& g, const uint32_t* order, uint32_t* comm, double resolution, double m2, const Opts& o) {
  const size_t n = g.n;
  for (size_t v = 0; v < n; v++) comm[v] = (uint32_t)v;
  std::vector<double> tot(n);
  std::vector<uint32_t> size(n), top;
  std::vector<int32_t> map;
  Rounds r;
  while (r.rounds < o.maxRounds) {
    std::fill(tot.begin(), tot.end(), 0.0);
    std::fill(size.begin(), size.end(), 0u);
    for (size_t v = 0; v < n; v++) tot[comm[v]] += g.k[v], size[comm[v]]++;
    const LvMoved moved = move(g, comm, tot.data(), size.data(), order, resolution, m2, o);
    r.sweeps += moved.sweeps;
    if (r.rounds > 0 && moved.gain < o.roundTol) break;
    const uint32_t C = relabel(comm, n, map);
    uint32_t merged = 0;
    if (C < n) {
      merged = 1 + serialLevels(arena, aggregate(arena, g, comm, C, o), top, resolution, m2, o);
      for (size_t v = 0; v < n; v++) comm[v] = top[comm[v]];
    }
    if (r.rounds == 0) r.levels = merged;
    r.rounds++;
    if (merged <= 1) break;
  }
  relabel(comm, n, map);
  return r;
}

uint32_t optUint(Napi::Object o, const char* name, double most) {
  const Napi::Value x = o.Get(name);
  const double d = x.IsNumber() ? x.As<Napi::Number>().DoubleValue() : -1;
  if (!(d >= 0 && d <= most) || d != (double)(uint64_t)d) throw codedError(o.Env(), "TS_ARG", std::string("louvainRounds: opts.") + name + " must be a whole number from 0");
  return (uint32_t)d;
}

double optNumber(Napi::Object o, const char* name) {
  const Napi::Value x = o.Get(name);
  const double d = x.IsNumber() ? x.As<Napi::Number>().DoubleValue() : -1;
  if (!(d >= 0)) throw codedError(o.Env(), "TS_ARG", std::string("louvainRounds: opts.") + name + " must be a number from 0");
  return d;
}

Napi::Value LouvainRounds(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  TA off, adj, wt, k, loop;
  const LvArgs args{info, "louvainRounds"};
  const bool weighted = args.view(&off, &adj, &wt, &k);
  args.get(4, &loop, napi_float64_array, "loop");
  const double resolution = numberArg(info, 5, "louvainRounds: resolution", 0, true);
  const double m2 = numberArg(info, 6, "louvainRounds: m2", 0, true);
  if (info.Length() < 8 || !info[7].IsObject()) throw codedError(env, "TS_ARG", "louvainRounds: opts must be an object");
  const Napi::Object oo = info[7].As<Napi::Object>();
  const Opts o{optUint(oo, "classes", 1 << 16), optUint(oo, "maxRounds", 1 << 16), optUint(oo, "batchVertices", (1u << 20) - 1),
               optNumber(oo, "maxSweeps"), optNumber(oo, "tol"), optNumber(oo, "roundTol"),
               (uint64_t)optUint(oo, "batchEntries", 4294967295.0), (uint64_t)optNumber(oo, "moveBatches"), (uint64_t)optUint(oo, "block", 4294967295.0),
               oo.Get("compact").ToBoolean().Value()};
  if (o.classes == 0 || o.block == 0 || o.batchEntries == 0) throw codedError(env, "TS_ARG", "louvainRounds: opts.classes, block and batchEntries must be at least 1");
  if (off.length == 0) throw codedError(env, "TS_ARG", "louvainRounds: off needs n + 1 entries");
  const size_t n = off.length - 1;
  const double* offp = (const double*)off.data;
  if (k.length < n || loop.length < n || n >= (1u << 31)) throw codedError(env, "TS_ARG", "louvainRounds: k and loop need n entries");
  for (size_t v = 0; v < n; v++)
    if (!(offp[v + 1] >= offp[v])) throw codedError(env, "TS_ARG", "louvainRounds: off must not decrease");
  if (!(offp[0] == 0) || (uint64_t)offp[n] > adj.length || (weighted && (uint64_t)offp[n] > wt.length))
    throw codedError(env, "TS_ARG", "louvainRounds: adj and wt need off[n] entries");
  const uint32_t* adjp = (const uint32_t*)adj.data;
  for (uint64_t e = 0; e < (uint64_t)offp[n]; e++)
    if (adjp[e] >= n) throw codedError(env, "TS_ARG", "louvainRounds: adj holds vertex ids below n");
  const LvView g{n, offp, adjp, weighted ? (const double*)wt.data : nullptr, (const double*)k.data, (const double*)loop.data};
  // classOrder: the classes one after the other, each ascending (kernels.ts classOf).
  std::vector<uint32_t> order(n);
  for (uint32_t r = 0, i = 0; r < o.classes; r++)
    for (size_t v = 0; v < n; v++)
      if (((uint32_t)v * 0x9e3779b1u) % o.classes == r) order[i++] = (uint32_t)v;
  Napi::Uint32Array commOut = Napi::Uint32Array::New(env, n);
  uint32_t* comm = commOut.Data();
  size_t kept = 0;
  for (size_t v = 0; v < n; v++) kept += offp[v + 1] > offp[v] ? 1 : 0;
  Rounds r;
  std::vector<int32_t> map;
  Arena arena{env, {}};
  if (!o.compact || kept == n) {
    r = roundsOn(arena, g, order.data(), comm, resolution, m2, o);
  } else {
    // sequentialRounds' compaction: the vertices with neighbours renumbered in order, the lists'
    // entries and order kept, the order's sequence kept; the others each a community of their own.
    std::vector<int32_t> to(n, -1);
    std::vector<uint32_t> from(kept), sub(kept), rc(kept);
    uint32_t* cadj = arena.get<uint32_t>((size_t)offp[n]);
    std::vector<double> coff(kept + 1, 0.0), ck(kept), cloop(kept);
    for (size_t v = 0, i = 0; v < n; v++) {
      if (offp[v + 1] == offp[v]) continue;
      to[v] = (int32_t)i, from[i] = (uint32_t)v, ck[i] = g.k[v], cloop[i] = g.loop[v];
      coff[i + 1] = coff[i] + offp[v + 1] - offp[v];
      i++;
    }
    for (uint64_t e = 0; e < (uint64_t)offp[n]; e++) cadj[e] = (uint32_t)to[adjp[e]];
    for (size_t i = 0, j = 0; i < n; i++)
      if (to[order[i]] >= 0) sub[j++] = (uint32_t)to[order[i]];
    const LvView c{kept, coff.data(), cadj, g.wt, ck.data(), cloop.data()};
    r = roundsOn(arena, c, sub.data(), rc.data(), resolution, m2, o);
    for (size_t v = 0; v < n; v++) comm[v] = to[v] >= 0 ? from[rc[(size_t)to[v]]] : (uint32_t)v;
    relabel(comm, n, map);
  }
  Napi::Object out = Napi::Object::New(env);
  out.Set("comm", commOut);
  out.Set("levels", r.levels);
  out.Set("rounds", r.rounds);
  out.Set("sweeps", r.sweeps);
  return out;
}

}  // namespace

void ExportLouvainRounds(Napi::Object cpu) {
  cpu.Set("louvainRounds", Napi::Function::New(cpu.Env(), LouvainRounds, "louvainRounds"));
}

}  // namespace addon
}  // namespace ts
