// PageRank's pull over one page's vertices (src/programs/pr/kernels.ts pr.pull), natively: each
// worker thread calls it per task. As TypeScript, a session's first run paid for the loops' JIT
// warm-up on every thread (the H200 host, RMAT 22, 16 threads: the first two supersteps 93-111 ms
// against 29 once warm). The same sums in the same order (this file is compiled with
// -ffp-contract=off), so the ranks equal the TypeScript's to the bit.
//
// prPull(offsets, nbrs, vBegin, lo, hi, outDeg, contrib | null, nextContrib, rank, base, damping,
//   r0, stats): vertices vBegin + [lo, hi) of the page; contrib null: the first iteration, every
//   in-neighbour u contributes r0 / outdeg(u) (0 for a sink). stats[0] += edges read, stats[1] +=
//   the dangling mass (the ranks of sinks, summed in vertex order from zero).
#include "addon_cpu.h"

namespace ts {
namespace addon {
namespace {

using namespace cpu;

Napi::Value PrPull(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  size_t nOff, nNbr, nDeg, nNext, nRank, nContrib = 0;
  const uint32_t* off = arrayArg<uint32_t>(info, 0, napi_uint32_array, "offsets", &nOff);
  const uint32_t* nbrs = arrayArg<uint32_t>(info, 1, napi_uint32_array, "nbrs", &nNbr);
  const uint32_t vBegin = (uint32_t)uintArg(info, 2, "vBegin", 0, true);
  const uint32_t lo = (uint32_t)uintArg(info, 3, "lo", 0, true), hi = (uint32_t)uintArg(info, 4, "hi", 0, true);
  const uint32_t* deg = arrayArg<uint32_t>(info, 5, napi_uint32_array, "outDeg", &nDeg);
  const bool first = info.Length() > 6 && (info[6].IsNull() || info[6].IsUndefined());
  const double* contrib = first ? nullptr : arrayArg<double>(info, 6, napi_float64_array, "contrib", &nContrib);
  double* nextContrib = arrayArg<double>(info, 7, napi_float64_array, "nextContrib", &nNext);
  double* rank = arrayArg<double>(info, 8, napi_float64_array, "rank", &nRank);
  const double base = numberArg(info, 9, "base", 0, true), d = numberArg(info, 10, "damping", 0, true);
  const double r0 = first ? numberArg(info, 11, "r0", 0, true) : 0;
  double* stats = arrayArg<double>(info, 12, napi_float64_array, "stats");
  const uint64_t end = (uint64_t)vBegin + hi;
  if (hi < lo || hi >= nOff || off[hi] > nNbr || end > nDeg || end > nNext || end > nRank || (!first && nContrib < nDeg))
    throw codedError(env, "TS_ARG", "prPull: range out of bounds");
  double dangling = 0;
  uint32_t e = off[lo];
  for (uint32_t i = lo; i < hi; i++) {
    const uint32_t b = off[i + 1];
    double s = 0;
    if (first) {
      for (; e < b; e++) {
        const uint32_t k = deg[nbrs[e]];
        if (k != 0) s += r0 / k;
      }
    } else
      for (; e < b; e++) s += contrib[nbrs[e]];
    const uint32_t v = vBegin + i;
    const double r = base + d * s;
    rank[v] = r;
    const uint32_t k = deg[v];
    if (k == 0) {
      nextContrib[v] = 0;
      dangling += r;
    } else
      nextContrib[v] = r / k;
  }
  stats[0] += (double)(off[hi] - off[lo]);
  stats[1] += dangling;
  return env.Undefined();
}

}  // namespace

void ExportPr(Napi::Object o) { o.Set("prPull", Napi::Function::New(o.Env(), PrPull, "prPull")); }

}  // namespace addon
}  // namespace ts
