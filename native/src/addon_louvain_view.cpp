// The undirected view's merge (src/engine/undirected-csr.ts fillVertices: louvain, kcore) and
// Louvain's modularity pass (src/programs/louvain/kernels.ts louvainIntra): each worker thread
// calls them per task of their supersteps. As TypeScript, a session's first run paid
// for the merge's JIT warm-up on every thread (the H200 host, RMAT 16, 16 threads: `merged` 34 ms
// in a first run's worker against ~6 once warm).
//
// undirectedFill(outSet, inSet | null, v0, v1, count, deg, off, adj | null, wt | null, k) -> bad
//   For v in [v0, v1): v's out- and in-lists (inSet null: the out-list alone), each ascending,
//   merged into its undirected neighbours, the smaller weight where both hold u (1 on an
//   unweighted page). count != 0: deg[v] = their number, k[v] = their weights summed in order, and
//   the negative or NaN weights counted (returned); else the list written from off[v] into adj
//   and wt (wt null: not written).
#include "addon_cpu.h"

#include <cmath>

namespace ts {
namespace addon {
namespace {

using namespace cpu;

/** A vertex's list over its page slices (one, or a split vertex's pages), read in order. */
struct Cursor {
  const PageSetN* s = nullptr;
  uint32_t v = 0;
  size_t pi = 0;
  uint32_t e = 0, end = 0;
  bool done = true;
  void start(const PageSetN* set, uint32_t vertex) {
    s = set, v = vertex, pi = set->firstPageOf[vertex];
    const bool split = s->split[pi] != 0;
    e = split ? 0 : s->off[pi][v - s->vBegin[pi]];
    end = split ? s->edges[pi] : s->off[pi][v - s->vBegin[pi] + 1];
    done = false;
    settle();
  }
  /** Past an exhausted slice: the split vertex's next page, or done. */
  void settle() {
    while (e >= end) {
      if (!s->split[pi] || ++pi >= s->off.size() || !s->split[pi] || s->vBegin[pi] != v) {
        done = true;
        return;
      }
      e = 0, end = s->edges[pi];
    }
  }
  uint32_t id() const { return done ? UINT32_MAX : s->nbr[pi][e]; }
  double weight() const {
    const void* w = s->wt[pi];
    return w == nullptr ? 1.0 : s->wt64[pi] ? ((const double*)w)[e] : (double)((const float*)w)[e];
  }
  void next() {
    e++;
    settle();
  }
};

Napi::Value LouvainFillNative(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const PageSetN* out = setArg(info, 0);
  const bool directed = info.Length() > 1 && !info[1].IsNull() && !info[1].IsUndefined();
  const PageSetN* in = directed ? setArg(info, 1) : nullptr;
  const uint32_t v0 = (uint32_t)uintArg(info, 2, "v0", 0, true), v1 = (uint32_t)uintArg(info, 3, "v1", 0, true);
  const bool count = numberArg(info, 4, "count", 0, true) != 0;
  size_t nd, no, nk, na = 0, nw = 0;
  uint32_t* deg = arrayArg<uint32_t>(info, 5, napi_uint32_array, "deg", &nd);
  const double* off = arrayArg<double>(info, 6, napi_float64_array, "off", &no);
  const bool lists = !count;
  uint32_t* adj = lists ? arrayArg<uint32_t>(info, 7, napi_uint32_array, "adj", &na) : nullptr;
  const bool weights = lists && info.Length() > 8 && !info[8].IsNull() && !info[8].IsUndefined();
  double* wt = weights ? arrayArg<double>(info, 8, napi_float64_array, "wt", &nw) : nullptr;
  double* k = arrayArg<double>(info, 9, napi_float64_array, "k", &nk);
  if (v1 < v0 || v1 > out->n || v1 > nd || v1 > nk || (lists && v1 >= no) || (in != nullptr && in->n != out->n))
    throw codedError(env, "TS_ARG", "undirectedFill: range out of bounds");
  if (lists && v1 > v0 && ((uint64_t)off[v1] > na || (weights && (uint64_t)off[v1] > nw)))
    throw codedError(env, "TS_ARG", "undirectedFill: adj and wt need off[v1] entries");
  double bad = 0;
  Cursor a, b;
  for (uint32_t v = v0; v < v1; v++) {
    a.start(out, v);
    if (in != nullptr) b.start(in, v);
    else b.done = true;
    uint64_t d = 0, at = lists ? (uint64_t)off[v] : 0;
    double sum = 0;
    while (!a.done || !b.done) {
      const uint32_t x = a.id(), y = b.id();
      uint32_t u;
      double w;
      if (x < y) u = x, w = a.weight(), a.next();
      else if (y < x) u = y, w = b.weight(), b.next();
      else {
        // Math.min's: NaN if either is (a bad weight the count reports).
        const double wa = a.weight(), wb = b.weight();
        u = x, w = std::isnan(wa) || std::isnan(wb) ? NAN : std::min(wa, wb), a.next(), b.next();
      }
      if (!(w >= 0)) bad++;
      if (lists) {
        if (at + d >= (uint64_t)off[v + 1]) throw codedError(env, "TS_ARG", "undirectedFill: a list is longer than off gives it");
        adj[at + d] = u;
        if (weights) wt[at + d] = w;
      }
      sum += w;
      d++;
    }
    if (count) deg[v] = (uint32_t)d, k[v] = sum;
  }
  return Napi::Number::New(env, bad);
}

// louvainIntra(off, adj, wt | null, label, vBegin, lo, hi, stats): the modularity pass
//   (kernels.ts louvainIntra) over vertices vBegin + [lo, hi) of the view: stats[0] += their
//   entries, stats[1] += the weights (1 where wt is null) to neighbours of the same label, summed
//   in vertex and list order from zero (the TypeScript's sum).
Napi::Value LouvainIntra(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  size_t no, na, nw = 0, nl;
  const double* off = arrayArg<double>(info, 0, napi_float64_array, "off", &no);
  const uint32_t* adj = arrayArg<uint32_t>(info, 1, napi_uint32_array, "adj", &na);
  const bool weighted = info.Length() > 2 && !info[2].IsNull() && !info[2].IsUndefined();
  const double* wt = weighted ? arrayArg<double>(info, 2, napi_float64_array, "wt", &nw) : nullptr;
  const uint32_t* label = arrayArg<uint32_t>(info, 3, napi_uint32_array, "label", &nl);
  const uint32_t vBegin = (uint32_t)uintArg(info, 4, "vBegin", 0, true);
  const uint32_t lo = (uint32_t)uintArg(info, 5, "lo", 0, true), hi = (uint32_t)uintArg(info, 6, "hi", 0, true);
  double* stats = arrayArg<double>(info, 7, napi_float64_array, "stats");
  const uint64_t v1 = (uint64_t)vBegin + hi;
  if (hi < lo || v1 >= no || v1 > nl || (uint64_t)off[v1] > na || (weighted && (uint64_t)off[v1] > nw))
    throw codedError(env, "TS_ARG", "louvainIntra: range out of bounds");
  double inside = 0;
  for (uint64_t v = (uint64_t)vBegin + lo; v < v1; v++) {
    const uint32_t l = label[v];
    for (uint64_t e = (uint64_t)off[v], b = (uint64_t)off[v + 1]; e < b; e++) {
      const uint32_t u = adj[e];
      if (u >= nl) throw codedError(env, "TS_ARG", "louvainIntra: a neighbour is out of range");
      if (label[u] == l) inside += weighted ? wt[e] : 1.0;
    }
  }
  stats[0] += off[v1] - off[(uint64_t)vBegin + lo];
  stats[1] += inside;
  return env.Undefined();
}

// louvainRenumber(adj, to, out): out[e] = to[adj[e]] (serial.ts sequentialRounds: the lists of the
//   vertices with neighbours renumbered; every id they hold has a new one, to[u] >= 0).
Napi::Value LouvainRenumber(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  size_t na, nt, no;
  const uint32_t* adj = arrayArg<uint32_t>(info, 0, napi_uint32_array, "adj", &na);
  const int32_t* to = arrayArg<int32_t>(info, 1, napi_int32_array, "to", &nt);
  uint32_t* out = arrayArg<uint32_t>(info, 2, napi_uint32_array, "out", &no);
  if (no < na) throw codedError(env, "TS_ARG", "louvainRenumber: out needs adj's length");
  for (size_t e = 0; e < na; e++) {
    const uint32_t u = adj[e];
    if (u >= nt || to[u] < 0) throw codedError(env, "TS_ARG", "louvainRenumber: a listed id has no new one");
    out[e] = (uint32_t)to[u];
  }
  return env.Undefined();
}

}  // namespace

void ExportLouvainView(Napi::Object o) {
  o.Set("louvainRenumber", Napi::Function::New(o.Env(), LouvainRenumber, "louvainRenumber"));
  o.Set("undirectedFill", Napi::Function::New(o.Env(), LouvainFillNative, "undirectedFill"));
  o.Set("louvainIntra", Napi::Function::New(o.Env(), LouvainIntra, "louvainIntra"));
}

}  // namespace addon
}  // namespace ts
