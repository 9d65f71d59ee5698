// Louvain's local moving (src/programs/louvain): one synchronous sub-round over a list of
// vertices of the program's undirected view, a CSR in state arrays (no pages). As cdlp's mode
// (kernels_cdlp.h): each listed vertex's neighbour communities gathered with their positions,
// sorted per vertex (stably, so a community's weights are summed in list order, as the CPU
// kernel sums them), then G threads per vertex walk the runs. Part of kernels.h.
#pragma once

#include "kernels_common.h"

namespace ts {

// Products and differences rounded as the CPU kernel's JavaScript doubles are, never fused into
// one multiply-add: a gain then compares equal on both sides and ties break the same way.
TS_DEVICE double mulRn(double a, double b) {
#if TS_CUDA_SIDE
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
TS_DEVICE double subRn(double a, double b) {
#if TS_CUDA_SIDE
  return __dsub_rn(a, b);
#else
  return a - b;
#endif
}
TS_DEVICE double addRn(double a, double b) {
#if TS_CUDA_SIDE
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}

struct LvListArgs {
  const double* off;  // view offsets, n + 1
  const u32* list;    // the vertices evaluated, L
  u64* work;          // L + 1: each one's degree, then (KScanTile) the exclusive scan
  u32* seg;           // L + 1: the scan as u32 (KLvNarrow)
  u32 L, pad;
};
struct KLvDeg {
  using Args = LvListArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    for (u32 i = c.gtid(); i <= a.L; i += c.gstride()) {
      const u32 v = i < a.L ? a.list[i] : 0;
      a.work[i] = i < a.L ? (u64)a.off[v + 1] - (u64)a.off[v] : 0;
    }
  }
};
struct KLvNarrow {
  using Args = LvListArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    for (u32 i = c.gtid(); i <= a.L; i += c.gstride()) a.seg[i] = (u32)a.work[i];
  }
};

struct LvArgs {
  const double* off;
  const u32* adj;
  const double* wt;  // null: every weight 1
  const double* k;
  const u32* comm;
  const double* tot;
  const u32* size;
  const u32* list;
  const u8* flags;  // per listed vertex: 1 evaluate (its class's turn), 2 measure w(v, comm v)
  const u32* seg;   // L + 1 offsets into keys/vals
  u32* keys;        // neighbour communities (KLvGather), sorted per vertex
  u32* vals;        // their positions in the vertex's list
  u32* outNext;     // per listed vertex: its community after the sub-round
  double* outKin;   // per listed vertex with flag 2: w(v, comm v)
  u8* mark;         // n: movers and their neighbours
  double resolution, m2;
  u32 begin, end, G, pad;  // the listed vertices [begin, end) of this launch, G threads each
};

/** keys/vals of each listed vertex's segment: G threads per vertex. */
struct KLvGather {
  using Args = LvArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    const u32 groups = c.gstride() / a.G, lane = c.gtid() % a.G;
    for (u32 li = a.begin + c.gtid() / a.G; li < a.end; li += groups) {
      const u32 v = a.list[li];
      const u64 base = (u64)a.off[v];
      const u32 s = a.seg[li], d = a.seg[li + 1] - s;
      for (u32 j = lane; j < d; j += a.G) {
        a.keys[s + j] = a.comm[a.adj[base + j]];
        a.vals[s + j] = j;
      }
    }
  }
};

/**
 * Per listed vertex v, G threads: each run of equal communities in the sorted segment summed in
 * list order by the thread holding its start; the best other community by the gain
 * w(v, c) - γ k_v tot_c / m2 (ties to the smallest id) against staying, with the minimum-label rule
 * (src/programs/louvain/kernels.ts evaluate, whose semantics this follows exactly); a mover marks
 * itself and its neighbours. Shared memory: per thread its best gain, community and w(v, comm v),
 * per group whether v moved.
 */
struct KLvMove {
  using Args = LvArgs;
  static constexpr int phases = 3;
  TS_DEVICE static double weight(const Args& a, u64 base, u32 q) { return a.wt ? a.wt[base + a.vals[q]] : 1.0; }
  TS_DEVICE static void phase(int p, const Ctx& c, const Args& a) {
    double* bx = (double*)c.smem;
    double* own = bx + kBlock;
    u32* bc = (u32*)(own + kBlock);
    u32* moved = bc + kBlock;
    const u32 g = c.tid / a.G, lane = c.tid % a.G;
    const u32 li = a.begin + c.bid * (c.bdim / a.G) + g;
    if (p == 0) {
      bx[c.tid] = -1.7976931348623157e308;  // below any gain (finite sums)
      bc[c.tid] = 0xffffffffu;
      own[c.tid] = 0;
      if (lane == 0) moved[g] = 0;
      if (li >= a.end) return;
      const u32 v = a.list[li], cv = a.comm[v];
      const double f = mulRn(a.resolution, a.k[v]) / a.m2;
      const u64 base = (u64)a.off[v];
      const u32 s = a.seg[li], t = a.seg[li + 1];
      for (u32 q = s + lane; q < t; q += a.G) {
        const u32 cq = a.keys[q];
        if (q != s && a.keys[q - 1] == cq) continue;
        double sum = weight(a, base, q);
        for (u32 r = q + 1; r < t && a.keys[r] == cq; r++) sum = addRn(sum, weight(a, base, r));
        if (cq == cv) {
          own[c.tid] = sum;
          continue;
        }
        const double x = subRn(sum, mulRn(f, a.tot[cq]));
        if (x > bx[c.tid] || (x == bx[c.tid] && cq < bc[c.tid])) bx[c.tid] = x, bc[c.tid] = cq;
      }
    } else if (p == 1) {
      if (lane != 0 || li >= a.end) return;
      double x = bx[c.tid], o = 0;
      u32 best = bc[c.tid];
      for (u32 j = c.tid; j < c.tid + a.G; j++) {
        o = addRn(o, own[j]);
        if (bx[j] > x || (bx[j] == x && bc[j] < best)) x = bx[j], best = bc[j];
      }
      const u32 v = a.list[li], cv = a.comm[v];
      const u8 fl = a.flags[li];
      if (fl & 2) a.outKin[li] = o;
      u32 to = cv;
      if (fl & 1) {
        const double kv = a.k[v];
        const double f = mulRn(a.resolution, kv) / a.m2;
        const double stay = subRn(o, mulRn(f, subRn(a.tot[cv], kv)));
        if (best != 0xffffffffu && x > stay) to = best;
        // Lu, Halappanavar, Kalyanaraman 2015: a singleton joins another singleton only of smaller id.
        if (to != cv && a.size[cv] == 1 && a.size[to] == 1 && to > cv) to = cv;
      }
      a.outNext[li] = to;
      if (to != cv) moved[g] = 1, a.mark[v] = 1;
    } else {
      if (li >= a.end || moved[g] == 0) return;
      const u32 v = a.list[li];
      const u64 base = (u64)a.off[v], d = (u64)a.off[v + 1] - base;
      for (u64 j = lane; j < d; j += a.G) a.mark[a.adj[base + j]] = 1;
    }
  }
};
/** Shared memory of KLvMove: two doubles and a u32 per thread, a u32 per group. */
constexpr size_t kLvMoveSmem = kBlock * (8 + 8 + 4 + 4);

}  // namespace ts
