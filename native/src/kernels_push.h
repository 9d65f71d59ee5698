// Push kernels with TWC load balance (KTwcBin/Warp/Block) and their per-edge ops: BFS, SSSP,
// WCC, PageRank push, Brandes forward. Part of kernels.h.
#pragma once

#include "kernels_common.h"

namespace ts {

// ---- push kernels with TWC load balance (GraphScope) -------------------------------------------

constexpr u32 kTwcSmall = 32;   // degree < 32: one thread per vertex
constexpr u32 kTwcLarge = 256;  // 32 <= degree < 256: one warp; >= 256: one block
// >= kTwcHuge: every block of KTwcBlock's grid (one block walked RMAT 24's 239 k-edge source in
// 1.5 ms on an H100: a BFS's whole first level)
constexpr u32 kTwcHuge = 16384;

struct TwcLists {
  u32* mid;     // mid vertices from the front; huge ones from the back (mid[nv - 1 - k]): at most nv in all
  u32* big;
  u32* counts;  // [0] unused, [1] mid, [2] big, [3] huge
};

struct PushArgs {
  PageDev pg;
  Frontier fr;
  NextSet next;
  Outbox ob;
  TwcLists lists;
  void* s0;
  void* s1;
  u32 level;
  u32 pad;
  const Claims* claims;  // bfs_push in levels on several GPUs: peers' copies to claim into
};

/** Bins the page's active vertices by degree; does the small ones itself (thread per vertex). */
template <class Op, class A = PushArgs>
struct KTwcBin {
  using Args = A;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    for (u32 i = c.gtid(); i < a.pg.nv; i += c.gstride()) {
      const u32 u = a.pg.vBegin + i;
      if (!a.fr.has(u)) continue;
      const u32 lo = a.pg.off[i], hi = a.pg.off[i + 1];
      const u32 d = hi - lo;
      if (d == 0) continue;
      if (d < kTwcSmall) {
        const typename Op::Src s = Op::load(a, u);
        for (u32 e = lo; e < hi; e++) Op::edge(a, s, a.pg.nbr[e], a.pg.weight(e));
      } else if (d < kTwcLarge) {
        a.lists.mid[atomic_add_u32(&a.lists.counts[1], 1)] = i;
      } else if (d >= kTwcHuge) {
        a.lists.mid[a.pg.nv - 1 - atomic_add_u32(&a.lists.counts[3], 1)] = i;
      } else {
        a.lists.big[atomic_add_u32(&a.lists.counts[2], 1)] = i;
      }
    }
  }
};

template <class Op, class A = PushArgs>
struct KTwcWarp {
  using Args = A;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    const u32 n = a.lists.counts[1];
    const u32 lane = c.lane();
    for (u32 k = c.gtid() / kWarp; k < n; k += c.gstride() / kWarp) {
      const u32 i = a.lists.mid[k];
      const u32 u = a.pg.vBegin + i;
      const typename Op::Src s = Op::load(a, u);
      for (u32 e = a.pg.off[i] + lane; e < a.pg.off[i + 1]; e += kWarp) Op::edge(a, s, a.pg.nbr[e], a.pg.weight(e));
    }
  }
};

template <class Op, class A = PushArgs>
struct KTwcBlock {
  using Args = A;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    const u32 n = a.lists.counts[2];
    for (u32 k = c.bid; k < n; k += c.gdim) {
      const u32 i = a.lists.big[k];
      const u32 u = a.pg.vBegin + i;
      const typename Op::Src s = Op::load(a, u);
      for (u32 e = a.pg.off[i] + c.tid; e < a.pg.off[i + 1]; e += c.bdim) Op::edge(a, s, a.pg.nbr[e], a.pg.weight(e));
    }
    // Huge vertices: each one's edges over the whole grid.
    const u32 h = a.lists.counts[3];
    for (u32 k = 0; k < h; k++) {
      const u32 i = a.lists.mid[a.pg.nv - 1 - k];
      const u32 u = a.pg.vBegin + i;
      const typename Op::Src s = Op::load(a, u);
      for (u32 e = a.pg.off[i] + c.gtid(); e < a.pg.off[i + 1]; e += c.gstride()) Op::edge(a, s, a.pg.nbr[e], a.pg.weight(e));
    }
  }
};

/** BFS push: claim unvisited out-neighbours at level+1 (s0 = depth u32/i32). */
struct BfsPushOp {
  struct Src {};
  TS_DEVICE static Src load(const PushArgs&, u32) { return Src{}; }
  TS_DEVICE static void edge(const PushArgs& a, Src, u32 v, double) {
    u32* depth = (u32*)a.s0;
    if (load_u32(&depth[v]) != kUnvisited) return;
    if (a.ob.owned(v)) {
      if (atomic_cas_u32(&depth[v], kUnvisited, a.level + 1) == kUnvisited) {
        a.next.mark(v);
        if (a.claims != nullptr) a.claims->put(v, a.level + 1);
      }
    } else {
      a.ob.put(v, (double)(a.level + 1));
    }
  }
};

/** SSSP push: relax out-edges with atomicMin on f64 distances (s0 = dist f64). */
struct SsspPushOp {
  using Src = double;
  TS_DEVICE static Src load(const PushArgs& a, u32 u) { return load_f64(&((double*)a.s0)[u]); }
  TS_DEVICE static void edge(const PushArgs& a, Src du, u32 v, double w) {
    double* dist = (double*)a.s0;
    const double nd = du + w;
    if (!(nd < load_f64(&dist[v]))) return;
    if (a.ob.owned(v)) {
      if (nd < atomic_min_f64(&dist[v], nd)) a.next.mark(v);
    } else {
      a.ob.put(v, nd);
    }
  }
};

/** WCC push: min label propagation (s0 = label u32). */
struct WccPushOp {
  using Src = u32;
  TS_DEVICE static Src load(const PushArgs& a, u32 u) { return load_u32(&((u32*)a.s0)[u]); }
  TS_DEVICE static void edge(const PushArgs& a, Src lu, u32 v, double) {
    u32* label = (u32*)a.s0;
    if (!(lu < load_u32(&label[v]))) return;
    if (a.ob.owned(v)) {
      if (lu < atomic_min_u32(&label[v], lu)) a.next.mark(v);
    } else {
      a.ob.put(v, (double)lu);
    }
  }
};

/** PageRank push: acc[v] += contrib[u] (s0 = contrib f64, s1 = acc f64); remote sums go out. */
struct PrPushOp {
  using Src = double;
  TS_DEVICE static Src load(const PushArgs& a, u32 u) { return ((const double*)a.s0)[u]; }
  TS_DEVICE static void edge(const PushArgs& a, Src x, u32 v, double) {
    if (a.ob.owned(v))
      atomic_add_f64(&((double*)a.s1)[v], x);
    else
      a.ob.put(v, x);
  }
};

/** Brandes forward (s0 = depth u32/i32, s1 = sigma f64): claim level+1, sigma[v] += sigma[u]. */
struct BcForwardOp {
  using Src = double;
  TS_DEVICE static Src load(const PushArgs& a, u32 u) { return ((const double*)a.s1)[u]; }
  TS_DEVICE static void edge(const PushArgs& a, Src su, u32 v, double) {
    u32* depth = (u32*)a.s0;
    u32 d = load_u32(&depth[v]);
    if (d == kUnvisited) {
      if (atomic_cas_u32(&depth[v], kUnvisited, a.level + 1) == kUnvisited) a.next.mark(v);
      d = load_u32(&depth[v]);
    }
    if (d == a.level + 1) atomic_add_f64(&((double*)a.s1)[v], su);
  }
};

}  // namespace ts
