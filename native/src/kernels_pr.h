// PageRank kernels: the pull gather over Garaph tiles (KPrPull) and the vertex apply (KPrApply).
// Part of kernels.h.
#pragma once

#include "kernels_common.h"

namespace ts {

// ---- PageRank pull: Garaph tiles, merge-based row sums in shared memory -------------------------

constexpr u32 kAccDoubles = 4096;  // tile vertex budget: kTileVMax at R <= 4, 4096 / R beyond (Garaph's R)
constexpr u32 kTileVMax = 1024;    // vertices per tile (one shared accumulator each)
constexpr u32 kTileEdges = 2048;   // edges per tile (8 per thread; 30 KiB of shared memory: 7 blocks per SM)

struct PrPullArgs {
  PageDev pg;
  const double* contrib;
  double* next;
  const u32* deg;  // KPrPull0: out-degrees (contrib unread)
  double r0;       // KPrPull0: every rank of the iteration before
};
/**
 * One block per tile (a contiguous edge range of the page and the vertices it touches), in the
 * merge-based CSR SpMV style (Merrill & Garland): phase 0 gathers contrib[src] for every edge of
 * the tile with coalesced index reads into shared memory (one pad slot per 8 values, so phase 1's
 * strided reads are free of bank conflicts); phase 1 gives each thread a run of consecutive edges,
 * finds its first row once (binary search in the tile's offsets) and sums in a register, adding
 * to the row's shared accumulator only when the row changes (instead of a search and a shared
 * atomic per edge); phase 2 writes each row once. A vertex the tile holds only part of (tile
 * boundary, split page) is added atomically; next[] was zeroed for the call's pages before.
 *
 * minBlocks (CUDA's __launch_bounds__ minimum blocks per SM): with kBlock as the only bound,
 * ptxas held this kernel to 32 registers (8 blocks per SM) and, short of registers, stored the
 * first gathers to shared memory before issuing the rest, so a thread waited for two or three
 * rounds of gathers instead of one. 4 lets it take 48 (5 blocks per SM) and keep all of a
 * thread's loads in flight: 49 -> 82 GTEPS on an H100 (RMAT-like scale 24).
 *
 * First = true (KPrPull0) is PageRank's first iteration, every rank r0: an edge's contribution is
 * r0 / outdeg(src), computed from the degree where it is read (the CPU kernel's division), so no
 * contributions are written and uploaded before the run.
 */
constexpr u32 kPrRun = kTileEdges / kBlock;  // edges per thread in phase 1 (8)
constexpr u32 kPrVals = kTileEdges + kTileEdges / kPrRun;
constexpr size_t kPrPullSmem = kPrVals * 8 + kTileVMax * 8 + (kTileVMax + 1) * 4 + 4;
static_assert(kPrPullSmem <= 48 * 1024, "pr_pull shared memory must fit the default 48 KiB");
TS_DEVICE u32 prSlot(u32 k) { return k + k / kPrRun; }

template <bool First>
struct KPrPullT {
  using Args = PrPullArgs;
  static constexpr int phases = 3;
  static constexpr int minBlocks = 4;
  TS_DEVICE static void phase(int p, const Ctx& c, const Args& a) {
    const Tile t = a.pg.tiles[c.bid];
    const u32 nvt = t.vHi - t.vLo;
    const u32 ne = t.eHi - t.eLo;
    double* vals = (double*)c.smem;
    double* acc = vals + kPrVals;
    u32* soff = (u32*)(acc + kTileVMax);
    if (p == 0) {
      for (u32 k = c.tid; k < nvt; k += c.bdim) acc[k] = 0.0;
      // Row offsets: every load of a thread issued before the first store (up to 5 in flight).
      constexpr u32 kOffPerThread = (kTileVMax + 1 + kBlock - 1) / kBlock;
      const u32* off = a.pg.off + t.vLo;
      for (u32 k0 = c.tid; k0 <= nvt; k0 += kOffPerThread * c.bdim) {
        u32 o[kOffPerThread];
#pragma unroll
        for (u32 j = 0; j < kOffPerThread; j++) o[j] = k0 + j * c.bdim <= nvt ? ldStream(off + k0 + j * c.bdim) : 0;
#pragma unroll
        for (u32 j = 0; j < kOffPerThread; j++)
          if (k0 + j * c.bdim <= nvt) soff[k0 + j * c.bdim] = o[j];
      }
      // kPrRun neighbour ids first, then kPrRun gathers: every load of a thread in flight at
      // once (a loop of load-then-gather keeps one outstanding, and the gathers are the kernel).
      const u32* nb = a.pg.nbr + t.eLo;
      for (u32 k0 = c.tid; k0 < ne; k0 += kPrRun * c.bdim) {
        u32 src[kPrRun];
        double v[kPrRun];
#pragma unroll
        for (u32 j = 0; j < kPrRun; j++) {
          const u32 k = k0 + j * c.bdim;
          src[j] = k < ne ? ldStream(nb + k) : 0;
        }
#pragma unroll
        for (u32 j = 0; j < kPrRun; j++) {
          if constexpr (First) {
            const u32 k = k0 + j * c.bdim < ne ? ldg(a.deg + src[j]) : 0;
            v[j] = k != 0 ? a.r0 / (double)k : 0.0;
          } else {
            v[j] = k0 + j * c.bdim < ne ? ldg(a.contrib + src[j]) : 0.0;
          }
        }
#pragma unroll
        for (u32 j = 0; j < kPrRun; j++) {
          const u32 k = k0 + j * c.bdim;
          if (k < ne) vals[prSlot(k)] = v[j];
        }
      }
    } else if (p == 1) {
      const u32 run = (ne + c.bdim - 1) / c.bdim;
      u32 k = c.tid * run;
      const u32 kEnd = k + run < ne ? k + run : ne;
      if (k >= kEnd) return;
      u32 i = upperBound(soff, nvt + 1, t.eLo + k) - 1;
      u32 rowEnd = soff[i + 1] - t.eLo;  // first tile edge of the next row
      double sum = 0.0;
      for (; k < kEnd; k++) {
        while (k >= rowEnd) {
          if (sum != 0.0) atomic_add_f64(&acc[i], sum);
          sum = 0.0;
          i++;
          rowEnd = soff[i + 1] - t.eLo;
        }
        sum += vals[prSlot(k)];
      }
      if (sum != 0.0) atomic_add_f64(&acc[i], sum);
    } else {
      for (u32 i = c.tid; i < nvt; i += c.bdim) {
        const double s = acc[i];
        const u32 v = a.pg.vBegin + t.vLo + i;
        const bool partial = a.pg.split != 0 || (i == 0 && soff[0] < t.eLo) || (i == nvt - 1 && soff[nvt] > t.eHi);
        if (partial)
          atomic_add_f64(&a.next[v], s);
        else
          a.next[v] = s;
      }
    }
  }
};
using KPrPull = KPrPullT<false>;
using KPrPull0 = KPrPullT<true>;

/**
 * PageRank's vertex apply over [begin, end) after the gather (rank = base + d * sum): the next
 * contribution rank / outDeg (0 for a dangling vertex, whose rank is summed instead: one partial
 * sum per block in shared memory, added once). The same IEEE division as the CPU kernel. With
 * `mask`, only the vertices whose byte is set (the caller's own, when it owns several ranges).
 */
struct PrApplyArgs {
  const double* rank;
  double* contrib;
  const u32* deg;
  double* dangling;
  u32 begin, end;
  const u8* mask;
};
struct KPrApply {
  using Args = PrApplyArgs;
  static constexpr int phases = 2;
  TS_DEVICE static void phase(int p, const Ctx& c, const Args& a) {
    double* acc = (double*)c.smem;
    if (p == 0) {
      double s = 0.0;
      for (u32 i = a.begin + c.gtid(); i < a.end; i += c.gstride()) {
        if (a.mask != nullptr && a.mask[i] == 0) continue;
        const u32 k = a.deg[i];
        const double r = a.rank[i];
        if (k == 0) {
          a.contrib[i] = 0.0;
          s += r;
        } else {
          a.contrib[i] = r / (double)k;
        }
      }
      acc[c.tid] = s;
    } else {
      blockSumTo(c, acc, a.dangling);
    }
  }
};
constexpr size_t kPrApplySmem = kBlock * 8;

/**
 * pr_pull's zeroing, Axpb and apply over many vertex ranges in one launch each (block b the b-th
 * chunk [chunks[2b], chunks[2b + 1])): a GPU of dealt pages (GTS's Strategy-S) owns hundreds of
 * ranges, and a memset and two launches a range cost more host and device time than the work.
 * KPrFinish is KAxpb (with `axpb`) then KPrApply (with deg: over [ab, ae) and the mask) per vertex,
 * each contribution also stored into the `nremote` peers' arrays (peer access: pr_iterations'
 * exchange in the apply instead of a copy after it).
 */
struct PrRangesArgs {
  double* out;
  double* contrib;
  const u32* deg;
  double* dangling;
  const u32* chunks;
  const u8* mask;
  double base, d;
  u32 ab, ae;
  u32 axpb;
  u32 nremote;
  double* remote[kMaxStorePeers];
};
struct KPrZero {
  using Args = PrRangesArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    const u32 b = a.chunks[2 * c.bid], e = a.chunks[2 * c.bid + 1];
    for (u32 i = b + c.tid; i < e; i += c.bdim) a.out[i] = 0.0;
  }
};
struct KPrFinish {
  using Args = PrRangesArgs;
  static constexpr int phases = 2;
  TS_DEVICE static void phase(int p, const Ctx& c, const Args& a) {
    double* acc = (double*)c.smem;
    if (p == 0) {
      const u32 b = a.chunks[2 * c.bid], e = a.chunks[2 * c.bid + 1];
      double s = 0.0;
      for (u32 i = b + c.tid; i < e; i += c.bdim) {
        double r = a.out[i];
        if (a.axpb != 0) {
          r = a.base + a.d * r;
          a.out[i] = r;
        }
        if (a.deg == nullptr || i < a.ab || i >= a.ae || (a.mask != nullptr && a.mask[i] == 0)) continue;
        const u32 k = a.deg[i];
        const double x = k == 0 ? 0.0 : r / (double)k;
        if (k == 0) s += r;
        a.contrib[i] = x;
        for (u32 q = 0; q < a.nremote; q++) a.remote[q][i] = x;
      }
      acc[c.tid] = s;
    } else if (a.deg != nullptr) {
      blockSumTo(c, acc, a.dangling);
    }
  }
};

}  // namespace ts
