// Vertex-group pull kernel (KGroupPull) and its ops: BFS pull, WCC pull, Brandes backward.
// Part of kernels.h.
#pragma once

#include "kernels_common.h"

namespace ts {

// ---- vertex-group pull kernels ------------------------------------------------------------------

struct PullArgs {
  PageDev pg;
  Frontier fr;
  NextSet next;
  u32 G;  // threads per vertex: 1, 4, 32 or the whole block (page average degree decides)
  u32 level;
  u32 source;
  u32 pad;
  void* s0;
  void* s1;
  void* s2;
  void* s3;
  const Claims* claims;  // bfs_pull in levels on several GPUs: peers' copies to claim into
};

/**
 * Each group of G threads takes one vertex of the page; lanes read its in-edges with stride G
 * (coalesced for G >= 4), reduce in shared memory, lane 0 applies. Split pages write atomically.
 */
template <class Op, class A = PullArgs>
struct KGroupPull {
  using Args = A;
  static constexpr int phases = 2;
  TS_DEVICE static void phase(int p, const Ctx& c, const Args& a) {
    double* acc = (double*)c.smem;
    u8* want = (u8*)(c.smem + kBlock * 8);
    const u32 g = c.tid / a.G, lane = c.tid % a.G;
    const u32 li = c.bid * (c.bdim / a.G) + g;
    if (p == 0) {
      double r = Op::identity();
      bool w = false;
      if (li < a.pg.nv) {
        const u32 v = a.pg.vBegin + li;
        w = Op::want(a, v);
        if (w) {
          for (u32 e = a.pg.off[li] + lane; e < a.pg.off[li + 1]; e += a.G) {
            r = Op::combine(r, Op::gather(a, v, a.pg.nbr[e], a.pg.weight(e)));
            if (Op::done(r)) break;
          }
        }
      }
      acc[c.tid] = r;
      want[c.tid] = w ? 1 : 0;
    } else if (lane == 0 && li < a.pg.nv && want[c.tid]) {
      double r = acc[c.tid];
      for (u32 k = 1; k < a.G; k++) r = Op::combine(r, acc[c.tid + k]);
      Op::apply(a, a.pg.vBegin + li, r, a.pg.split != 0);
    }
  }
};
constexpr size_t kGroupPullSmem = kBlock * 9;

/** BFS pull: an unvisited vertex with an in-neighbour in the frontier joins at level+1. */
struct BfsPullOp {
  TS_DEVICE static double identity() { return 0.0; }
  TS_DEVICE static bool want(const PullArgs& a, u32 v) { return load_u32(&((u32*)a.s0)[v]) == kUnvisited; }
  TS_DEVICE static double gather(const PullArgs& a, u32, u32 u, double) { return a.fr.has(u) ? 1.0 : 0.0; }
  TS_DEVICE static double combine(double x, double y) { return x > y ? x : y; }
  TS_DEVICE static bool done(double r) { return r != 0.0; }
  TS_DEVICE static void apply(const PullArgs& a, u32 v, double r, bool) {
    if (r != 0.0 && atomic_cas_u32(&((u32*)a.s0)[v], kUnvisited, a.level + 1) == kUnvisited) {
      a.next.mark(v);
      if (a.claims != nullptr) a.claims->put(v, a.level + 1);
    }
  }
};

/** WCC pull: label[v] = min(label[v], min over neighbours), in place (monotone, so any order). */
struct WccPullOp {
  TS_DEVICE static double identity() { return 4294967296.0; }
  TS_DEVICE static bool want(const PullArgs&, u32) { return true; }
  TS_DEVICE static double gather(const PullArgs& a, u32, u32 u, double) { return (double)load_u32(&((u32*)a.s0)[u]); }
  TS_DEVICE static double combine(double x, double y) { return x < y ? x : y; }
  TS_DEVICE static bool done(double) { return false; }
  TS_DEVICE static void apply(const PullArgs& a, u32 v, double r, bool) {
    if (r >= 4294967296.0) return;
    const u32 m = (u32)r;
    if (m < atomic_min_u32(&((u32*)a.s0)[v], m)) a.next.mark(v);
  }
};

/**
 * Brandes forward pull (s0 = depth, s1 = sigma f64): an unvisited vertex sums sigma over its
 * in-neighbours in the frontier; a positive sum puts it at level+1 with that sigma (the CPU's
 * bcFwd pull). A split vertex's pages add their parts atomically (path counts are whole numbers:
 * any order gives the same sum), so a part also wants a vertex another part already put at level+1.
 */
struct BcForwardPullOp {
  TS_DEVICE static double identity() { return 0.0; }
  TS_DEVICE static bool want(const PullArgs& a, u32 v) {
    const u32 d = load_u32(&((u32*)a.s0)[v]);
    return d == kUnvisited || (a.pg.split != 0 && d == a.level + 1);
  }
  TS_DEVICE static double gather(const PullArgs& a, u32, u32 u, double) { return a.fr.has(u) ? ((const double*)a.s1)[u] : 0.0; }
  TS_DEVICE static double combine(double x, double y) { return x + y; }
  TS_DEVICE static bool done(double) { return false; }
  TS_DEVICE static void apply(const PullArgs& a, u32 v, double r, bool partial) {
    if (!(r > 0.0)) return;
    u32* depth = (u32*)a.s0;
    if (!partial) {
      depth[v] = a.level + 1;
      ((double*)a.s1)[v] = r;
      a.next.mark(v);
      return;
    }
    if (atomic_cas_u32(&depth[v], kUnvisited, a.level + 1) == kUnvisited) a.next.mark(v);
    atomic_add_f64(&((double*)a.s1)[v], r);
  }
};

/**
 * Brandes backward over out-edges, for the vertices at `level` (s0 = depth, s1 = sigma f64,
 * s2 = delta f64, s3 = optional bc f64): delta[v] = sigma[v] * sum over successors w at level+1 of
 * (1 + delta[w]) / sigma[w]; bc[v] += delta[v] unless v is the source. delta must start at 0.
 */
struct BcBackwardOp {
  TS_DEVICE static double identity() { return 0.0; }
  TS_DEVICE static bool want(const PullArgs& a, u32 v) { return ((const u32*)a.s0)[v] == a.level; }
  TS_DEVICE static double gather(const PullArgs& a, u32, u32 w, double) {
    if (((const u32*)a.s0)[w] != a.level + 1) return 0.0;
    return (1.0 + ((const double*)a.s2)[w]) / ((const double*)a.s1)[w];
  }
  TS_DEVICE static double combine(double x, double y) { return x + y; }
  TS_DEVICE static bool done(double) { return false; }
  TS_DEVICE static void apply(const PullArgs& a, u32 v, double r, bool partial) {
    const double val = ((const double*)a.s1)[v] * r;
    double* delta = (double*)a.s2;
    if (partial)
      atomic_add_f64(&delta[v], val);
    else
      delta[v] = val;
    if (a.s3 && v != a.source) atomic_add_f64(&((double*)a.s3)[v], val);
  }
};

}  // namespace ts
