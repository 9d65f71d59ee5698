// Afforest on the device (Sutton, Ben-Nun and Barak, IPDPS 2018; GAPBS cc.cc): a union-find
// forest `comp` hooked by compare-and-swap, the larger root under the smaller, so a tree's root is
// its smallest vertex. wcc_afforest's plan (controller_aff.cpp) runs these. Part of kernels.h.
#pragma once

#include "kernels_common.h"

namespace ts {

/** Hooks the trees of u and v (GAPBS Link): climbs until both reach one root or a CAS hooks one. */
TS_DEVICE void affLink(u32* comp, u32 u, u32 v) {
  u32 p1 = load_u32(&comp[u]), p2 = load_u32(&comp[v]);
  while (p1 != p2) {
    const u32 high = p1 > p2 ? p1 : p2, low = p1 + p2 - high;
    const u32 ph = load_u32(&comp[high]);
    // Already under `low`, or this CAS put it there; else another thread hooked `high` first: climb.
    if (ph == low || (ph == high && atomic_cas_u32(&comp[high], high, low) == high)) return;
    p1 = load_u32(&comp[load_u32(&comp[high])]);
    p2 = load_u32(&comp[low]);
  }
}

/**
 * One page: each vertex (a group of G lanes) links with its neighbours [first, last) of the
 * page (Afforest's sampling: [0, rounds); its final pass: [rounds, end) for the vertices whose
 * root is not `skip`, the sampled biggest component). A split page is one slice of a hub: its
 * edges are linked from 0 (linking an edge twice is harmless).
 */
struct AffLinkArgs {
  PageDev pg;
  u32* comp;
  u32 G, first, last, skip, useSkip;
};
struct KAffLink {
  using Args = AffLinkArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    const u32 g = c.tid / a.G, lane = c.tid % a.G;
    const u32 li = c.bid * (c.bdim / a.G) + g;
    if (li >= a.pg.nv) return;
    const u32 v = a.pg.vBegin + li;
    if (a.useSkip && load_u32(&a.comp[v]) == a.skip) return;
    const u32 b = a.pg.off[li], e = a.pg.off[li + 1], deg = e - b;
    const u32 first = a.pg.split ? 0 : a.first;
    const u32 lo = b + (first < deg ? first : deg), hi = b + (a.last < deg ? a.last : deg);
    for (u32 i = lo + lane; i < hi; i += a.G) affLink(a.comp, v, a.pg.nbr[i]);
  }
};

/**
 * Vertex passes over [0, n): mode 0 every vertex its own tree; 1 path compression (each vertex
 * points at its root); 2 compression, then each root's label lowered to its tree's smallest
 * original id (label holds the roots' own ids: mode 3 before); 3 label[v] = orig[v];
 * 4 label[v] = label[root] for the non-roots. The 1024 samples of the biggest component: mode 5
 * writes comp[idx[i]] to out[i].
 */
struct AffVertexArgs {
  u32* comp;
  u32* label;
  const u32* orig;
  const u32* idx;
  u32* out;
  u32 n, mode;
};
struct KAffVertex {
  using Args = AffVertexArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    for (u32 v = c.gtid(); v < a.n; v += c.gstride()) {
      switch (a.mode) {
        case 0: a.comp[v] = v; break;
        case 1:
        case 2: {
          // Path halving as GAPBS's Compress: other threads only move entries to ancestors.
          u32 p = load_u32(&a.comp[v]), pp = load_u32(&a.comp[p]);
          while (p != pp) {
            a.comp[v] = pp;
            p = pp;
            pp = load_u32(&a.comp[p]);
          }
          // A read first: the giant component's members would otherwise all hit one address.
          if (a.mode == 2 && p != v) {
            const u32 x = a.orig[v];
            if (x < load_u32(&a.label[p])) atomic_min_u32(&a.label[p], x);
          }
          break;
        }
        case 3: a.label[v] = a.orig[v]; break;
        case 4: {
          const u32 r = a.comp[v];
          if (r != v) a.label[v] = a.label[r];
          break;
        }
        default: a.out[v] = load_u32(&a.comp[a.idx[v]]); break;
      }
    }
  }
};

/**
 * Afforest across GPUs (controller_aff.cpp runAffMerge): links each vertex with its root in a
 * peer's compressed forest `other` (each entry a root: a tree's smallest vertex), so this forest
 * ends with the union of both partitions.
 */
struct AffMergeArgs {
  u32* comp;
  const u32* other;
  u32 n;
};
struct KAffMerge {
  using Args = AffMergeArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    for (u32 v = c.gtid(); v < a.n; v += c.gstride()) {
      const u32 o = a.other[v];
      if (o != v) affLink(a.comp, v, o);
    }
  }
};

}  // namespace ts
