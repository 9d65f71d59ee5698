// LCC kernels: sorted-adjacency intersection over the resident out-pages, per vertex and per
// split vertex. Part of kernels.h.
#pragma once

#include "kernels_common.h"

namespace ts {

// ---- LCC: sorted-adjacency intersection -----------------------------------------------------

/** A resident out-page as the LCC kernels index it. */
struct PageRef {
  const u32* off;
  const u32* nbr;
  u32 vBegin, nv;
};

/** N_out(u) over the resident out-pages: first[u] = first page holding u (or ~0). */
struct OutIndex {
  const PageRef* pages;
  const u32* first;
  u32 npages, n;
};

TS_DEVICE bool sortedHas(const u32* a, u32 n, u32 x) {
  u32 lo = 0, hi = n;
  while (lo < hi) {
    const u32 mid = (lo + hi) >> 1;
    const u32 y = a[mid];
    if (y == x) return true;
    if (y < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return false;
}

/** One piece of a split vertex's (sorted, distinct) neighbour list. */
struct Piece {
  const u32* nbr;
  u32 count, first, last, pad;
};

/** Is w in the neighbour list given either as one sorted list or as sorted pieces? */
struct NbrSet {
  const u32* list;
  u32 count;
  const Piece* pieces;
  u32 np;
  TS_DEVICE bool has(u32 w) const {
    if (!pieces) return sortedHas(list, count, w);
    for (u32 i = 0; i < np; i++)
      if (w >= pieces[i].first && w <= pieces[i].last) return sortedHas(pieces[i].nbr, pieces[i].count, w);
    return false;
  }
};

/** Ordered pairs (u, w) with u, w in N(v), u != w, w in N_out(u), for one u. */
TS_DEVICE double lccCountFrom(const OutIndex& o, const NbrSet& N, u32 v, u32 u) {
  double c = 0;
  if (u == v || u >= o.n) return 0;
  u32 p = o.first[u];
  if (p == 0xffffffffu) return 0;
  for (; p < o.npages; p++) {
    const PageRef r = o.pages[p];
    if (u < r.vBegin || u >= r.vBegin + r.nv) break;
    const u32 li = u - r.vBegin;
    for (u32 e = r.off[li]; e < r.off[li + 1]; e++) {
      const u32 w = r.nbr[e];
      if (w != u && w != v && N.has(w)) c += 1;
    }
    if (r.nv != 1) break;  // only split pages (one vertex each) continue on the next page
  }
  return c;
}

struct LccArgs {
  PageDev pg;
  OutIndex out;
  double* lcc;
  u32 G;
  /** 1: write t / 2 (with an out-set of every vertex's N(u): the triangles through v), not t / (d (d-1)). */
  u32 raw;
};
/** Groups of G threads per vertex of an undirected (distinct, sorted) page: lanes take u in N(v). */
struct KLcc {
  using Args = LccArgs;
  static constexpr int phases = 2;
  TS_DEVICE static void phase(int p, const Ctx& c, const Args& a) {
    double* acc = (double*)c.smem;
    const u32 g = c.tid / a.G, lane = c.tid % a.G;
    const u32 li = c.bid * (c.bdim / a.G) + g;
    if (li >= a.pg.nv) return;
    const u32 v = a.pg.vBegin + li;
    const u32* L = a.pg.nbr + a.pg.off[li];
    const u32 d = a.pg.off[li + 1] - a.pg.off[li];
    if (p == 0) {
      const NbrSet N{L, d, nullptr, 0};
      double cnt = 0;
      for (u32 k = lane; k < d; k += a.G) cnt += lccCountFrom(a.out, N, v, L[k]);
      acc[c.tid] = cnt;
    } else if (lane == 0) {
      double t = 0;
      for (u32 k = 0; k < a.G; k++) t += acc[c.tid + k];
      const double dd = (double)d - (sortedHas(L, d, v) ? 1.0 : 0.0);
      a.lcc[v] = a.raw ? t * 0.5 : dd > 1 ? t / (dd * (dd - 1)) : 0.0;
    }
  }
};
constexpr size_t kLccSmem = kBlock * 8;

struct LccSplitArgs {
  const Piece* pieces;
  const u32* start;  // pieces of split vertex i: [start[i], start[i+1])
  const u32* vids;
  OutIndex out;
  double* lcc;
  u32 raw, pad;
};
/** One block per split vertex: threads walk all of its pieces. */
struct KLccSplit {
  using Args = LccSplitArgs;
  static constexpr int phases = 2;
  TS_DEVICE static void phase(int p, const Ctx& c, const Args& a) {
    double* acc = (double*)c.smem;
    const u32 s = a.start[c.bid], np = a.start[c.bid + 1] - s;
    const Piece* P = a.pieces + s;
    const u32 v = a.vids[c.bid];
    const NbrSet N{nullptr, 0, P, np};
    if (p == 0) {
      double cnt = 0;
      for (u32 i = 0; i < np; i++)
        for (u32 k = c.tid; k < P[i].count; k += c.bdim) cnt += lccCountFrom(a.out, N, v, P[i].nbr[k]);
      acc[c.tid] = cnt;
    } else if (c.tid == 0) {
      double t = 0, d = 0;
      for (u32 k = 0; k < c.bdim; k++) t += acc[k];
      for (u32 i = 0; i < np; i++) d += P[i].count;
      if (N.has(v)) d -= 1;
      a.lcc[v] = a.raw ? t * 0.5 : d > 1 ? t / (d * (d - 1)) : 0.0;
    }
  }
};

}  // namespace ts
