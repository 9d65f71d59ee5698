// Degree-ordered ("forward") triangle enumeration over a flat N+ CSR (Schank–Wagner; GAPBS tc's
// ordered count), as LCC and TC count triangles: each triangle w < u < v is found once, at v, by
// intersecting N+(v)[0..j) with N+(u) for u = N+(v)[j]. The work is cut into equal pieces: one
// "search" per element of the shorter list of each (v, j) pair, found in the longer by a
// galloping binary search (the per-element search of Green et al. and Hu et al.'s TriCore);
// an exclusive scan of the per-pair counts lets every thread take kTriChunk consecutive searches
// (merge-path style balance: a hub row costs no more than its searches). Corners are counted
// as LCC's CPU kernel does (src/programs/lcc/kernels.ts lccTri): v's share per thread, u's and
// w's per N+ slot (acc, u32: a slot is hit at most once per j, so atomics there never pile up),
// flushed to the per-vertex f64 counts at the end (exact: integers below 2^53). Part of kernels.h.
#pragma once

#include "kernels_common.h"

namespace ts {

/** Searches per thread of KTri: enough to amortise its two binary searches for the first slot and row. */
constexpr u32 kTriChunk = 32;
/** Items per thread of the scan's tiles (a tile is kBlock * kScanItems entries). */
constexpr u32 kScanItems = 8;
constexpr u32 kScanTile = kBlock * kScanItems;
constexpr size_t kScanSmem = 2 * kBlock * 8;

/** The vertices whose triangles the call enumerates: [begin, end), or the bytes set in map. */
struct TriOwned {
  const u8* map;
  u32 begin, end;
  TS_DEVICE bool has(u32 v) const { return map ? map[v] != 0 : (v >= begin && v < end); }
};

struct TriCostArgs {
  const double* off;  // N+ offsets, n + 1 (f64 on the host: the driver's prefix sum)
  const u32* fwd;
  u64* work;          // per slot: searches of the pair (v, slot); work[T] = 0 (the scan's total)
  TriOwned own;
  u32 n, pad;
};
/** work[e] = min(j, |N+(u)|) for slot e = (v, j), u = N+(v)[j], v owned; else 0. */
struct KTriCost {
  using Args = TriCostArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    if (c.gtid() == 0) a.work[(u64)a.off[a.n]] = 0;
    for (u32 v = c.gtid(); v < a.n; v += c.gstride()) {
      const u64 a0 = (u64)a.off[v], a1 = (u64)a.off[v + 1];
      const bool mine = a.own.has(v);
      for (u64 e = a0; e < a1; e++) {
        u64 w = 0;
        if (mine) {
          const u32 u = a.fwd[e];
          const u64 du = (u64)a.off[u + 1] - (u64)a.off[u];
          w = e - a0 < du ? e - a0 : du;
        }
        a.work[e] = w;
      }
    }
  }
};

struct ScanArgs {
  u64* a;
  u64* sums;  // one per tile: its total (KScanTile), or what to add to it (KScanAdd)
  u64 n;
};
/** Exclusive scan of each tile of a in place (Hillis–Steele over the threads' sums); sums[tile] = its total. */
struct KScanTile {
  using Args = ScanArgs;
  static constexpr int phases = 10;  // load, log2(kBlock) = 8 steps, write
  TS_DEVICE static u64 own(const Ctx& c, const Args& a) {
    const u64 base = (u64)c.bid * kScanTile + (u64)c.tid * kScanItems;
    u64 s = 0;
    for (u32 i = 0; i < kScanItems && base + i < a.n; i++) s += a.a[base + i];
    return s;
  }
  TS_DEVICE static void phase(int p, const Ctx& c, const Args& a) {
    u64* sm = (u64*)c.smem;
    if (p == 0) {
      sm[c.tid] = own(c, a);
    } else if (p <= 8) {
      const u32 d = 1u << (p - 1);
      const u64* src = sm + ((p - 1) & 1) * kBlock;
      u64* dst = sm + (p & 1) * kBlock;
      dst[c.tid] = src[c.tid] + (c.tid >= d ? src[c.tid - d] : 0);
    } else {
      const u64 incl = sm[c.tid];  // step 8 wrote buffer 0
      u64 run = incl - own(c, a);
      const u64 base = (u64)c.bid * kScanTile + (u64)c.tid * kScanItems;
      for (u32 i = 0; i < kScanItems && base + i < a.n; i++) {
        const u64 x = a.a[base + i];
        a.a[base + i] = run;
        run += x;
      }
      if (c.tid == kBlock - 1) a.sums[c.bid] = incl;
    }
  }
};
/** a[i] += sums[tile of i]: the scanned tile totals added back. */
struct KScanAdd {
  using Args = ScanArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    const u64 add = a.sums[c.bid];
    const u64 base = (u64)c.bid * kScanTile + (u64)c.tid * kScanItems;
    for (u32 i = 0; i < kScanItems && base + i < a.n; i++) a.a[base + i] += add;
  }
};

/** First index in [lo, n) of the sorted a with a[i] >= x, galloping from lo (x's predecessor was found there). */
TS_DEVICE u32 gallop(const u32* a, u32 lo, u32 n, u32 x) {
  u32 hi = lo, step = 1;
  while (hi < n && ldg(a + hi) < x) {
    lo = hi + 1;
    hi += step;
    step <<= 1;
  }
  if (hi > n) hi = n;
  while (lo < hi) {
    const u32 m = (lo + hi) >> 1;
    if (ldg(a + m) < x)
      lo = m + 1;
    else
      hi = m;
  }
  return lo;
}

struct TriArgs {
  const double* off;
  const u32* fwd;
  const u8* mult;  // mult(v, N+(v)[j]) per slot; null: every multiplicity 1 (triangle counts)
  const u64* work;  // exclusive scan of KTriCost's counts, T + 1 entries
  u32* acc;         // per slot: the count of the vertex in it, flushed by KTriFlush
  double* tri;
  u64 total, T;     // searches; slots
  u32 n, pad;
};
/** Searches [k * kTriChunk, (k + 1) * kTriChunk) of the scan, for k over the threads (grid-stride). */
struct KTri {
  using Args = TriArgs;
  static constexpr int phases = 1;
  TS_DEVICE static u32 m(const Args& a, u64 e) { return a.mult ? ldg(a.mult + e) : 1u; }
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    for (u64 k = c.gtid(); k * kTriChunk < a.total; k += c.gstride()) {
      const u64 t0 = k * kTriChunk, t1 = t0 + kTriChunk < a.total ? t0 + kTriChunk : a.total;
      // The slot holding search t0: the last e with work[e] <= t0 (slots without searches share
      // their successor's start, so it has some); its row v: the last with off[v] <= e.
      u64 lo = 0, hi = a.T + 1;
      while (lo < hi) {
        const u64 mid = (lo + hi) >> 1;
        if (ldg(a.work + mid) <= t0)
          lo = mid + 1;
        else
          hi = mid;
      }
      u64 e = lo - 1;
      u32 vl = 0, vh = a.n + 1;
      while (vl < vh) {
        const u32 mid = (vl + vh) >> 1;
        if ((u64)ldg(a.off + mid) <= e)
          vl = mid + 1;
        else
          vh = mid;
      }
      u32 v = vl - 1;
      u64 tv = 0;
      for (u64 t = t0; t < t1;) {
        while (ldg(a.work + e + 1) <= t) e++;
        if (e >= (u64)ldg(a.off + v + 1)) {
          if (tv) atomic_add_f64(&a.tri[v], (double)tv);
          tv = 0;
          while (e >= (u64)ldg(a.off + v + 1)) v++;
        }
        const u64 a0 = (u64)ldg(a.off + v);
        const u32 j = (u32)(e - a0), u = ldg(a.fwd + e);
        const u64 b0 = (u64)ldg(a.off + u);
        const u32 du = (u32)((u64)ldg(a.off + u + 1) - b0);
        const u64 w0 = ldg(a.work + e), w1 = ldg(a.work + e + 1);
        const u64 end = w1 < t1 ? w1 : t1;
        u32 i = (u32)(t - w0);
        const u32 iEnd = (u32)(end - w0);
        const u32 mvu = m(a, e);
        // The shorter of the prefix N+(v)[0..j) and N+(u) is walked, each element searched in the other.
        const bool prefix = j <= du;
        const u32* S = a.fwd + (prefix ? a0 : b0);
        const u32* L = a.fwd + (prefix ? b0 : a0);
        const u32 nl = prefix ? du : j;
        u32 tu = 0, at = 0;
        for (; i < iEnd; i++) {
          const u32 w = ldg(S + i);
          at = gallop(L, at, nl, w);
          if (at < nl && ldg(L + at) == w) {
            const u32 ia = prefix ? i : at, ib = prefix ? at : i;  // w's positions in N+(v) and N+(u)
            tv += m(a, b0 + ib);
            tu += m(a, a0 + ia);
            atomic_add_u32(&a.acc[a0 + ia], mvu);
            at++;
          }
        }
        if (tu) atomic_add_u32(&a.acc[e], tu);
        t = end;
      }
      if (tv) atomic_add_f64(&a.tri[v], (double)tv);
    }
  }
};

struct TriFlushArgs {
  const u32* fwd;
  const u32* acc;
  double* tri;
  u8* touched;  // per vertex: 1 where tri is not 0 (KTriMark), for the compaction
  u64 T;
  u32 n, pad;
};
/** tri[N+ slot's vertex] += acc[slot]. */
struct KTriFlush {
  using Args = TriFlushArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    for (u64 e = c.gtid(); e < a.T; e += c.gstride())
      if (a.acc[e]) atomic_add_f64(&a.tri[a.fwd[e]], (double)a.acc[e]);
  }
};
struct KTriMark {
  using Args = TriFlushArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    for (u32 v = c.gtid(); v < a.n; v += c.gstride()) a.touched[v] = a.tri[v] != 0 ? 1 : 0;
  }
};

}  // namespace ts
