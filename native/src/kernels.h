// Kernel bodies, written once for both builds (see ts_common.h). A kernel is a struct with
//   using Args = ...;                 plain-old-data arguments (device pointers, sizes)
//   static constexpr int phases = N;  parts separated by __syncthreads()
//   static void phase(int p, const Ctx&, const Args&)
// The CUDA backend launches it as one __global__ that runs the phases with __syncthreads()
// between them; the host backend runs, per block, each phase for every thread before the next.
// So a kernel never relies on registers surviving a phase boundary (state that crosses goes
// through shared memory) nor on warp-synchronous execution.
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

// ---- small utility kernels ----------------------------------------------------------------

enum : u32 { kTypeU8 = 0, kTypeU32 = 1, kTypeI32 = 2, kTypeF32 = 3, kTypeF64 = 4 };

struct FillArgs {
  void* p;
  u32 begin, end, type;
  double v;
};
struct KFill {
  using Args = FillArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    for (u32 i = a.begin + c.gtid(); i < a.end; i += c.gstride()) {
      switch (a.type) {
        case kTypeU8: ((u8*)a.p)[i] = (u8)a.v; break;
        case kTypeU32: ((u32*)a.p)[i] = (u32)a.v; break;
        case kTypeI32: ((i32*)a.p)[i] = (i32)a.v; break;
        case kTypeF32: ((float*)a.p)[i] = (float)a.v; break;
        default: ((double*)a.p)[i] = a.v; break;
      }
    }
  }
};

/** Frontier list -> bitmap or bytes. */
struct ScatterArgs {
  const u32* list;
  u32 count;
  u32* bits;
  u8* bytes;
};
struct KScatter {
  using Args = ScatterArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    for (u32 i = c.gtid(); i < a.count; i += c.gstride()) {
      u32 v = a.list[i];
      if (a.bits)
        atomic_or_u32(&a.bits[v >> 5], 1u << (v & 31));
      else
        a.bytes[v] = 1;
    }
  }
};

/** x[v] = base + d * x[v] over [begin, end): PageRank's apply after the gather. */
struct AxpbArgs {
  double* x;
  u32 begin, end;
  double base, d;
};
struct KAxpb {
  using Args = AxpbArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    for (u32 i = a.begin + c.gtid(); i < a.end; i += c.gstride()) a.x[i] = a.base + a.d * a.x[i];
  }
};

struct OutboxArgs {
  const u32* ids;
  const u32* count;
  double* val;
  u32* flag;
  double* out;
  double identity;
};
/** out[i] = val[ids[i]]: the compact outbox copied back to the host. */
struct KOutboxGather {
  using Args = OutboxArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    u32 n = *a.count;
    for (u32 i = c.gtid(); i < n; i += c.gstride()) a.out[i] = a.val[a.ids[i]];
  }
};
/** Back to identity for the listed destinations only (the dense array stays clean). */
struct KOutboxReset {
  using Args = OutboxArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    u32 n = *a.count;
    for (u32 i = c.gtid(); i < n; i += c.gstride()) {
      u32 v = a.ids[i];
      a.val[v] = a.identity;
      a.flag[v >> 5] = 0;  // every bit set in this word belongs to a listed id
    }
  }
};

/**
 * Stream compaction of a byte flag set over [begin, end): the vertices whose flag is set, with
 * their state value as a double (the GPU actor's merges: only what changed crosses the link).
 * Block-aggregated: each thread counts its vertices, thread 0 reserves the block's slots with one
 * atomic, then each thread writes from its prefix. With ids == nullptr it only counts.
 */
struct CompactArgs {
  const u8* flags;
  const void* state;
  u32 type, begin, end;
  u32* ids;
  double* vals;
  u32* count;
  const u8* mask;  // optional: only vertices whose mask byte is set (an owner of several ranges)
};
TS_DEVICE bool compactHas(const CompactArgs& a, u32 i) { return a.flags[i] != 0 && (a.mask == nullptr || a.mask[i] != 0); }
TS_DEVICE double valueAt(const void* p, u32 type, u32 i) {
  switch (type) {
    case kTypeU8: return (double)((const u8*)p)[i];
    case kTypeU32: return (double)((const u32*)p)[i];
    case kTypeI32: return (double)((const i32*)p)[i];
    case kTypeF32: return (double)((const float*)p)[i];
    default: return ((const double*)p)[i];
  }
}
struct KCompact {
  using Args = CompactArgs;
  static constexpr int phases = 3;
  TS_DEVICE static void phase(int p, const Ctx& c, const Args& a) {
    u32* cnt = (u32*)c.smem;  // [bdim] per-thread counts, then exclusive prefix; [bdim]: block base
    if (p == 0) {
      u32 k = 0;
      for (u32 i = a.begin + c.gtid(); i < a.end; i += c.gstride()) k += compactHas(a, i);
      cnt[c.tid] = k;
    } else if (p == 1) {
      if (c.tid != 0) return;
      u32 total = 0;
      for (u32 t = 0; t < c.bdim; t++) {
        const u32 k = cnt[t];
        cnt[t] = total;
        total += k;
      }
      cnt[c.bdim] = total > 0 ? atomic_add_u32(a.count, total) : 0;
    } else if (a.ids != nullptr) {
      u32 at = cnt[c.bdim] + cnt[c.tid];
      for (u32 i = a.begin + c.gtid(); i < a.end; i += c.gstride()) {
        if (!compactHas(a, i)) continue;
        a.ids[at] = i;
        a.vals[at++] = valueAt(a.state, a.type, i);
      }
    }
  }
};
constexpr size_t kCompactSmem = (kBlock + 1) * 4;

// ---- PageRank pull: Garaph tiles, merge-based row sums in shared memory -------------------------

constexpr u32 kAccDoubles = 4096;  // tile vertex budget: kTileVMax at R <= 4, 4096 / R beyond (Garaph's R)
constexpr u32 kTileVMax = 1024;    // vertices per tile (one shared accumulator each)
constexpr u32 kTileEdges = 2048;   // edges per tile (8 per thread; 30 KiB of shared memory: 7 blocks per SM)

struct PrPullArgs {
  PageDev pg;
  const double* contrib;
  double* next;
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
 */
constexpr u32 kPrRun = kTileEdges / kBlock;  // edges per thread in phase 1 (8)
constexpr u32 kPrVals = kTileEdges + kTileEdges / kPrRun;
constexpr size_t kPrPullSmem = kPrVals * 8 + kTileVMax * 8 + (kTileVMax + 1) * 4 + 4;
static_assert(kPrPullSmem <= 48 * 1024, "pr_pull shared memory must fit the default 48 KiB");
TS_DEVICE u32 prSlot(u32 k) { return k + k / kPrRun; }

struct KPrPull {
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
        for (u32 j = 0; j < kPrRun; j++) v[j] = k0 + j * c.bdim < ne ? ldg(a.contrib + src[j]) : 0.0;
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
    } else if (c.tid == 0) {
      double s = 0.0;
      for (u32 k = 0; k < c.bdim; k++) s += acc[k];
      if (s != 0.0) atomic_add_f64(a.dangling, s);
    }
  }
};
constexpr size_t kPrApplySmem = kBlock * 8;

// ---- push kernels with TWC load balance (GraphScope) -------------------------------------------

constexpr u32 kTwcSmall = 32;   // degree < 32: one thread per vertex
constexpr u32 kTwcLarge = 256;  // 32 <= degree < 256: one warp; >= 256: one block

struct TwcLists {
  u32* mid;
  u32* big;
  u32* counts;  // [0] unused, [1] mid, [2] big
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
};

/** Bins the page's active vertices by degree; does the small ones itself (thread per vertex). */
template <class Op>
struct KTwcBin {
  using Args = PushArgs;
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
      } else {
        a.lists.big[atomic_add_u32(&a.lists.counts[2], 1)] = i;
      }
    }
  }
};

template <class Op>
struct KTwcWarp {
  using Args = PushArgs;
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

template <class Op>
struct KTwcBlock {
  using Args = PushArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    const u32 n = a.lists.counts[2];
    for (u32 k = c.bid; k < n; k += c.gdim) {
      const u32 i = a.lists.big[k];
      const u32 u = a.pg.vBegin + i;
      const typename Op::Src s = Op::load(a, u);
      for (u32 e = a.pg.off[i] + c.tid; e < a.pg.off[i + 1]; e += c.bdim) Op::edge(a, s, a.pg.nbr[e], a.pg.weight(e));
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
      if (atomic_cas_u32(&depth[v], kUnvisited, a.level + 1) == kUnvisited) a.next.mark(v);
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
};

/**
 * Each group of G threads takes one vertex of the page; lanes read its in-edges with stride G
 * (coalesced for G >= 4), reduce in shared memory, lane 0 applies. Split pages write atomically.
 */
template <class Op>
struct KGroupPull {
  using Args = PullArgs;
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
    if (r != 0.0 && atomic_cas_u32(&((u32*)a.s0)[v], kUnvisited, a.level + 1) == kUnvisited) a.next.mark(v);
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

// ---- CDLP: gather neighbour labels, sort each vertex's segment, longest run wins --------------

struct CdlpGatherArgs {
  PageDev pg;
  const u32* label;
  u32* keys;
};
struct KCdlpGather {
  using Args = CdlpGatherArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    for (u32 e = c.gtid(); e < a.pg.edges; e += c.gstride()) a.keys[e] = a.label[a.pg.nbr[e]];
  }
};

struct CdlpModeArgs {
  const u32* segOff;  // nv + 1 offsets into keys (sorted within each segment)
  const u32* keys;
  const u32* vids;  // vertex of each segment, or null: vBegin + index
  const u32* label;
  u32* next;
  u32 nv, G, vBegin, pad;
};
/**
 * Groups of G threads per vertex; each run start in the sorted segment measures its run and
 * offers (length << 32 | ~label) to the group's shared max, so the longest run wins and ties go
 * to the smallest label. A vertex without neighbours keeps its label.
 */
struct KCdlpMode {
  using Args = CdlpModeArgs;
  static constexpr int phases = 3;
  TS_DEVICE static void phase(int p, const Ctx& c, const Args& a) {
    u64* best = (u64*)c.smem;
    const u32 g = c.tid / a.G, lane = c.tid % a.G;
    const u32 li = c.bid * (c.bdim / a.G) + g;
    if (p == 0) {
      if (lane == 0) best[g] = 0;
    } else if (p == 1) {
      if (li >= a.nv) return;
      const u32 s = a.segOff[li], t = a.segOff[li + 1];
      for (u32 q = s + lane; q < t; q += a.G) {
        const u32 k = a.keys[q];
        if (q != s && a.keys[q - 1] == k) continue;
        u32 r = q + 1;
        while (r < t && a.keys[r] == k) r++;
        atomic_max_u64(&best[g], ((u64)(r - q) << 32) | (u64)(0xffffffffu - k));
      }
    } else if (lane == 0 && li < a.nv) {
      const u32 v = a.vids ? a.vids[li] : a.vBegin + li;
      a.next[v] = a.segOff[li] == a.segOff[li + 1] ? a.label[v] : 0xffffffffu - (u32)(best[g] & 0xffffffffu);
    }
  }
};
constexpr size_t kCdlpModeSmem = kBlock * 8;

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
  u32 G, pad;
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
      a.lcc[v] = dd > 1 ? t / (dd * (dd - 1)) : 0.0;
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
      a.lcc[v] = d > 1 ? t / (d * (d - 1)) : 0.0;
    }
  }
};

// ---- kernel registry ----------------------------------------------------------------------------

using KBinBfs = KTwcBin<BfsPushOp>;
using KWarpBfs = KTwcWarp<BfsPushOp>;
using KBlockBfs = KTwcBlock<BfsPushOp>;
using KBinSssp = KTwcBin<SsspPushOp>;
using KWarpSssp = KTwcWarp<SsspPushOp>;
using KBlockSssp = KTwcBlock<SsspPushOp>;
using KBinWcc = KTwcBin<WccPushOp>;
using KWarpWcc = KTwcWarp<WccPushOp>;
using KBlockWcc = KTwcBlock<WccPushOp>;
using KBinPr = KTwcBin<PrPushOp>;
using KWarpPr = KTwcWarp<PrPushOp>;
using KBlockPr = KTwcBlock<PrPushOp>;
using KBinBc = KTwcBin<BcForwardOp>;
using KWarpBc = KTwcWarp<BcForwardOp>;
using KBlockBc = KTwcBlock<BcForwardOp>;
using KPullBfs = KGroupPull<BfsPullOp>;
using KPullWcc = KGroupPull<WccPullOp>;
using KPullBc = KGroupPull<BcBackwardOp>;

#define TS_KERNEL_LIST(X)                                                                      \
  X(Fill) X(Scatter) X(Axpb) X(OutboxGather) X(OutboxReset) X(Compact) X(PrPull) X(PrApply) X(BinBfs)    \
  X(WarpBfs)                                                                                   \
  X(BlockBfs) X(BinSssp) X(WarpSssp) X(BlockSssp) X(BinWcc) X(WarpWcc) X(BlockWcc) X(BinPr)  \
  X(WarpPr) X(BlockPr) X(BinBc) X(WarpBc) X(BlockBc) X(PullBfs) X(PullWcc) X(PullBc)         \
  X(CdlpGather) X(CdlpMode) X(Lcc) X(LccSplit)

enum KernelId : int {
#define TS_KID(name) kid_##name,
  TS_KERNEL_LIST(TS_KID)
#undef TS_KID
  kid_Count
};

template <class K>
struct KernelIdOf;
#define TS_KIDOF(name) \
  template <>          \
  struct KernelIdOf<K##name> { static constexpr int value = kid_##name; };
TS_KERNEL_LIST(TS_KIDOF)
#undef TS_KIDOF

}  // namespace ts
