// Types the kernel families share: tiles, a page as the device sees it, frontier and next
// sets, the outbox (aggregation at the source), upperBound. Part of kernels.h.
#pragma once

#include "ts_common.h"

namespace ts {

struct Tile {
  u32 vLo, vHi, eLo, eHi;  // page-local vertex range and page-local edge range of one block
};

/** One page as the device sees it (a cache slot holding [offsets | nbrs | weights | tiles]). */
struct PageDev {
  const u32* off;
  const u32* nbr;
  const void* w;
  const Tile* tiles;
  u32 vBegin, nv, edges, wbytes, split, ntiles, R;
  TS_DEVICE double weight(u32 e) const {
    return wbytes == 8 ? ((const double*)w)[e] : wbytes == 4 ? (double)((const float*)w)[e] : 1.0;
  }
};

/**
 * A traversal's claims written into other GPUs' copies too (peer access; controller_levels.cpp):
 * each claimed vertex's depth and next flag in every peer's arrays, so that no exchange of the
 * flags follows the level. In device memory; kernels hold a pointer (null: none).
 */
/** Peers one kernel stores into (Claims; pr_pull's contributions, PrRangesArgs::remote). */
constexpr u32 kMaxStorePeers = 7;
struct Claims {
  u32 n;
  u32* depth[kMaxStorePeers];
  u8* next[kMaxStorePeers];
  TS_DEVICE void put(u32 v, u32 d) const {
    for (u32 q = 0; q < n; q++) {
      depth[q][v] = d;
      next[q][v] = 1;
    }
  }
};

/** Active set read by a kernel: a bitmap (u32 words), a byte per vertex, or everything. */
struct Frontier {
  const u32* bits;
  const u8* bytes;
  TS_DEVICE bool has(u32 v) const {
    if (bytes) return bytes[v] != 0;
    if (bits) return ((bits[v >> 5] >> (v & 31)) & 1u) != 0;
    return true;
  }
};

/** Next active set (bitmap or bytes) and a counter of vertices newly put in it. */
struct NextSet {
  u32* bits;
  u8* bytes;
  u32* counter;
  TS_DEVICE bool mark(u32 v) const {
    bool fresh = true;
    if (bits) {
      u32 m = 1u << (v & 31);
      fresh = (atomic_or_u32(&bits[v >> 5], m) & m) == 0;
    } else if (bytes) {
      // byte arrays are allocated in whole 32-bit words, so the containing word is ours
      uintptr_t a = (uintptr_t)(bytes + v);
      u32* word = (u32*)(a & ~(uintptr_t)3);
      u32 sh = (u32)(a & 3) * 8;
      fresh = ((atomic_or_u32(word, 1u << sh) >> sh) & 0xffu) == 0;
    }
    if (fresh && counter) atomic_add_u32(counter, 1);
    return fresh;
  }
};

enum : u32 { kReduceNone = 0, kReduceMin = 1, kReduceSum = 2 };

/**
 * Aggregation at the source (TOTEM): updates to vertices the caller does not own are reduced into
 * a dense per-vertex value array and listed once per destination; the controller gathers the list
 * after the call and returns (ids, values) to JS. Owned: [begin, end), or with `map` (an owner
 * owning several ranges, e.g. RAND pages) the vertices whose byte is set; one range keeps the
 * compare (no extra load per edge).
 */
struct Outbox {
  double* val;
  u32* flag;
  u32* ids;
  u32* count;
  u32 begin, end, op;
  u32* sent;      // messages before aggregation (optional)
  const u8* map;  // owned byte map (optional)
  TS_DEVICE bool owned(u32 v) const { return op == kReduceNone || (map ? map[v] != 0 : (v >= begin && v < end)); }
  TS_DEVICE void put(u32 v, double x) const {
    if (sent) atomic_add_u32(sent, 1);
    if (op == kReduceMin)
      atomic_min_f64(&val[v], x);
    else
      atomic_add_f64(&val[v], x);
    u32 m = 1u << (v & 31);
    if ((atomic_or_u32(&flag[v >> 5], m) & m) == 0) ids[atomic_add_u32(count, 1)] = v;
  }
};

TS_DEVICE u32 upperBound(const u32* a, u32 n, u32 x) {
  u32 lo = 0, hi = n;
  while (lo < hi) {
    u32 mid = (lo + hi) >> 1;
    if (a[mid] <= x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/** Pages one KPages launch covers: its parameter stays under 4 KiB. */
constexpr u32 kPageBatch = 32;

/**
 * Kernel K (whose Args has a PageDev `pg`) over up to kPageBatch resident pages in one launch: the
 * grid is the pages' grids one after another, and each block runs K as the block of its page's
 * grid it is. Over a resident graph a superstep's cost was its launches (261 pages at RMAT 24).
 */
template <class K>
struct KPages {
  struct Args {
    typename K::Args base;
    PageDev pg[kPageBatch];
    u32 G[kPageBatch];               // each page's threads per vertex, where K's Args has G
    u32 blocks[kPageBatch + 1];      // prefix sums of the pages' grids
    u32 count;
  };
  static constexpr int phases = K::phases;
  TS_DEVICE static void phase(int p, const Ctx& c, const Args& a) {
    u32 i = 0;
    while (i + 1 < a.count && a.blocks[i + 1] <= c.bid) i++;
    typename K::Args b = a.base;
    b.pg = a.pg[i];
    b.G = a.G[i];
    const Ctx d{c.tid, c.bid - a.blocks[i], c.bdim, a.blocks[i + 1] - a.blocks[i], c.smem};
    K::phase(p, d, b);
  }
};

}  // namespace ts
