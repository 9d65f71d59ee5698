// Small utility kernels: fill, frontier scatter, axpb, outbox gather/reset, stream compaction.
// Part of kernels.h.
#pragma once

#include "ts_common.h"

namespace ts {

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

/**
 * Sum of deg[v] over the v in [begin, end) whose flag is set, into *out (a double: exact up to
 * 2^53): a pull's activated out-edges for Ligra's switch, without listing the flags on the host.
 */
struct FlagDegArgs {
  const u8* flags;
  const u32* deg;
  u32 begin, end;
  double* out;
  // Optional (nranges > 0): disjoint vertex ranges ascending ([2r], [2r + 1]); mark[r] set where a
  // flagged vertex falls in range r (the pages a push from these flags walks: levels).
  const u32* ranges;
  u32 nranges;
  u8* mark;
};
struct KFlagDeg {
  using Args = FlagDegArgs;
  static constexpr int phases = 2;
  // Block partial sums in shared memory (kBlock doubles), one atomic per block (blockSumTo).
  TS_DEVICE static void phase(int p, const Ctx& c, const Args& a) {
    double* part = (double*)c.smem;
    if (p == 0) {
      double s = 0;
      // kRun consecutive vertices a thread, so that a range found for one serves the next ones (a
      // search for every flagged vertex of a level's large frontier cost ~0.8 ms on RMAT 25, one
      // for every 8 vertices ~0.4).
      constexpr u32 kRun = 32;
      for (u64 c0 = a.begin + (u64)c.gtid() * kRun; c0 < a.end; c0 += (u64)c.gstride() * kRun) {
        const u32 e = (u32)(c0 + kRun < a.end ? c0 + kRun : a.end);
        u32 r = 0, rb = 1, re = 0;  // the range last found: [rb, re), none yet
        for (u32 i = (u32)c0; i < e; i++) {
          if (a.flags[i] == 0) continue;
          s += (double)a.deg[i];
          if (a.nranges == 0 || (rb <= i && i < re)) continue;
          u32 lo = 0, hi = a.nranges;  // the last range beginning at or before i
          while (hi - lo > 1) {
            const u32 mid = (lo + hi) / 2;
            if (a.ranges[2 * mid] <= i) lo = mid;
            else hi = mid;
          }
          r = lo, rb = a.ranges[2 * r], re = a.ranges[2 * r + 1];
          if (rb <= i && i < re && *(volatile u8*)&a.mark[r] == 0) a.mark[r] = 1;
        }
      }
      part[c.tid] = s;
      return;
    }
    blockSumTo(c, part, a.out);
  }
};

/**
 * next[v] |= other[v] over [0, n) (a peer GPU's next flags of the same level, its claims and its
 * owned vertices' pulls); where that sets a fresh flag, depth[v] = value (the level's depth: the
 * peer claimed v, which this device's copy had unset) and *out counts it (a double, one atomic a
 * block): both devices end the level with the same flags and depths (controller_levels.cpp).
 */
struct OrNextArgs {
  const u8* other;
  u8* next;
  i32* depth;
  u32 n;
  i32 value;
  double* out;
};
struct KOrNext {
  using Args = OrNextArgs;
  static constexpr int phases = 2;
  TS_DEVICE static void phase(int p, const Ctx& c, const Args& a) {
    double* part = (double*)c.smem;
    if (p == 0) {
      double s = 0;
      for (u32 i = c.gtid(); i < a.n; i += c.gstride())
        if (a.other[i] != 0 && a.next[i] == 0) {
          a.next[i] = 1;
          a.depth[i] = a.value;
          s += 1;
        }
      part[c.tid] = s;
      return;
    }
    blockSumTo(c, part, a.out);
  }
};

/**
 * flags[p] = 1 when some v in [ranges[2p], ranges[2p + 1]) has state[v] == value: the pages a
 * pull with EdgeMapOptions.pullIf must walk (Graphie's active pages; GTS's nextPIDSet).
 */
struct PageActiveArgs {
  const i32* state;  // null: test `bytes` for a set flag instead (a device frontier)
  const u32* ranges;
  u32 npages;
  i32 value;
  u8* flags;
  const u8* bytes;
  u32 split;  // blocks per page: a page's range is scanned in `split` parts
};
struct KPageActive {
  using Args = PageActiveArgs;
  static constexpr int phases = 1;
  // One block per page left most of an H100 idle and each thread ~300 dependent loads (0.8 ms a
  // call at RMAT 24): `split` blocks per page, each skipping a page another part already found.
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    for (u32 b = c.bid; b < a.npages * a.split; b += c.gdim) {
      const u32 p = b / a.split, part = b % a.split;
      if (*(volatile const u8*)&a.flags[p] != 0) continue;
      const u32 lo = a.ranges[2 * p], len = a.ranges[2 * p + 1] - lo;
      const u32 e = lo + (u32)((u64)len * (part + 1) / a.split);
      for (u32 v = lo + (u32)((u64)len * part / a.split) + c.tid; v < e; v += c.bdim)
        if (a.state != nullptr ? a.state[v] == a.value : a.bytes[v] != 0) {
          a.flags[p] = 1;
          break;
        }
    }
  }
};

/**
 * Reads every offset and neighbour id of a page: the engine's warm-up pass over the pages
 * (src/engine/warm-up-gpu.ts), so that a session's first run does not find the device cold. It
 * writes `sink` (scratch) only when the xor of what it read equals `never`, which keeps the loads.
 */
struct TouchArgs {
  PageDev pg;
  u32* sink;
  u32 G, never;
};
struct KTouch {
  using Args = TouchArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    const u32 g = c.tid / a.G, lane = c.tid % a.G;
    const u32 li = c.bid * (c.bdim / a.G) + g;
    if (li >= a.pg.nv) return;
    const u32 b = a.pg.off[li], e = a.pg.off[li + 1];
    u32 x = b ^ e;
    for (u32 i = b + lane; i < e; i += a.G) x ^= a.pg.nbr[i];
    if (x == a.never) *a.sink = x;
  }
};

/**
 * The smallest and largest of n 32-bit values as order keys (value ^ flip: 0x80000000 for i32):
 * out[0] = min key, out[1] = ~max key (both lowered by atomic min; out starts at 0xffffffff). A
 * read-back packs the values into 1 or 2 bytes where their span allows (KPack, readState).
 */
struct MinMaxArgs {
  const u32* src;
  u32 n, flip;
  u32* out;
};
struct KMinMax {
  using Args = MinMaxArgs;
  static constexpr int phases = 2;
  TS_DEVICE static void phase(int p, const Ctx& c, const Args& a) {
    u32* part = (u32*)c.smem;
    if (p == 0) {
      u32 lo = 0xffffffffu, nhi = 0xffffffffu;
      for (u32 i = c.gtid(); i < a.n; i += c.gstride()) {
        const u32 k = ldStream(a.src + i) ^ a.flip;
        lo = k < lo ? k : lo;
        nhi = ~k < nhi ? ~k : nhi;
      }
      part[2 * c.tid] = lo;
      part[2 * c.tid + 1] = nhi;
      return;
    }
    if (c.tid != 0) return;
    u32 lo = 0xffffffffu, nhi = 0xffffffffu;
    for (u32 t = 0; t < c.bdim; t++) {
      lo = part[2 * t] < lo ? part[2 * t] : lo;
      nhi = part[2 * t + 1] < nhi ? part[2 * t + 1] : nhi;
    }
    atomic_min_u32(a.out, lo);
    atomic_min_u32(a.out + 1, nhi);
  }
};

/** dst[i] = src[i] - base (wrapping), in `width` bytes (1 or 2): the packed read-back of KMinMax's range. */
struct PackArgs {
  const u32* src;
  u32 n, base, width;
  void* dst;
};
struct KPack {
  using Args = PackArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    for (u32 i = c.gtid(); i < a.n; i += c.gstride()) {
      const u32 d = ldStream(a.src + i) - a.base;
      if (a.width == 1) ((u8*)a.dst)[i] = (u8)d;
      else ((u16*)a.dst)[i] = (u16)d;
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

/** dst[ids[i]] = vals[i] (both of `type`): patching a device copy where the host's changed. */
struct ScatterValsArgs {
  void* dst;
  const u32* ids;
  const void* vals;
  u32 count, type;
};
struct KScatterVals {
  using Args = ScatterValsArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    for (u32 i = c.gtid(); i < a.count; i += c.gstride()) {
      const u32 v = a.ids[i];
      switch (a.type) {
        case kTypeU8: ((u8*)a.dst)[v] = ((const u8*)a.vals)[i]; break;
        case kTypeF64: ((double*)a.dst)[v] = ((const double*)a.vals)[i]; break;
        default: ((u32*)a.dst)[v] = ((const u32*)a.vals)[i]; break;  // u32, i32, f32: 4 bytes each
      }
    }
  }
};

/**
 * dst[ids[i]] reduced with vals[i] ('claim': set where -1; 'min' / 'max'), marking `next` where
 * the value changed (its counter counts fresh marks): updates other GPUs sent for vertices this
 * one owns (actors/gpu/held.ts), applied as the coordinator's fold would.
 */
enum : u32 { kMergeClaim = 1, kMergeMin = 2, kMergeMax = 3 };
struct MergeValsArgs {
  void* dst;
  const u32* ids;
  const void* vals;
  u32 count, type, op;
  NextSet next;
};
struct KMergeVals {
  using Args = MergeValsArgs;
  static constexpr int phases = 1;
  TS_DEVICE static float asF32(u32 b) {
#if TS_CUDA_SIDE
    return __uint_as_float(b);
#else
    float x;
    std::memcpy(&x, &b, 4);
    return x;
#endif
  }
  template <class T>
  TS_DEVICE static bool better(u32 op, T x, T old) {
    return op == kMergeMin ? x < old : x > old;
  }
  TS_DEVICE static bool apply32(const Args& a, u32 v, u32 bits) {
    u32* p = (u32*)a.dst + v;
    if (a.op == kMergeClaim) return atomic_cas_u32(p, kUnvisited, bits) == kUnvisited;
    u32 old = load_u32(p);
    for (;;) {
      bool b;
      if (a.type == kTypeI32) b = better<i32>(a.op, (i32)bits, (i32)old);
      else if (a.type == kTypeF32) b = better<float>(a.op, asF32(bits), asF32(old));
      else b = better<u32>(a.op, bits, old);
      if (!b) return false;
      const u32 seen = atomic_cas_u32(p, old, bits);
      if (seen == old) return true;
      old = seen;
    }
  }
  TS_DEVICE static bool apply64(const Args& a, u32 v, double x) {
    u64* p = (u64*)a.dst + v;
    const u64 bits = f64_bits(x);
    if (a.op == kMergeClaim) return bits_f64(atomic_cas_u64(p, f64_bits(-1.0), bits)) == -1.0;
    u64 old = f64_bits(load_f64((const double*)p));
    while (better<double>(a.op, x, bits_f64(old))) {
      const u64 seen = atomic_cas_u64(p, old, bits);
      if (seen == old) return true;
      old = seen;
    }
    return false;
  }
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    for (u32 i = c.gtid(); i < a.count; i += c.gstride()) {
      const u32 v = a.ids[i];
      const bool changed = a.type == kTypeF64 ? apply64(a, v, ((const double*)a.vals)[i]) : apply32(a, v, ((const u32*)a.vals)[i]);
      if (changed) a.next.mark(v);
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
  // optional, instead of flags: the vertices whose value differs from `before` (same type); with
  // `delta`, the listed value is the difference (a GPU operator's writes to a 'sum' array)
  const void* before;
  u32 delta;
};
TS_DEVICE double valueAt(const void* p, u32 type, u32 i);
TS_DEVICE bool compactHas(const CompactArgs& a, u32 i) {
  if (a.mask != nullptr && a.mask[i] == 0) return false;
  if (a.before == nullptr) return a.flags[i] != 0;
  const double x = valueAt(a.state, a.type, i), y = valueAt(a.before, a.type, i);
  return x != y && (x == x || y == y);
}
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
        a.vals[at++] = valueAt(a.state, a.type, i) - (a.delta ? valueAt(a.before, a.type, i) : 0.0);
      }
    }
  }
};
constexpr size_t kCompactSmem = (kBlock + 1) * 4;

/**
 * sssp_steps' selection (controller_levels.cpp), the CPU's dense bucket step (sssp/kernels.ts
 * ssspSelect) over flags: a vertex pending or just improved (next) joins the frontier where its
 * distance is below `bound` (the current bucket's end), else stays pending; next comes out clear.
 * out->count counts the frontier and out->edges its out-edges (deg), out->low is the smallest
 * distance left pending (the next bucket's); each added or lowered once a block.
 */
struct SelectOut {
  double low, edges;
  u32 count;
};
struct SsspSelectArgs {
  const double* dist;
  const u32* deg;
  u8 *pending, *next, *frontier;
  u32 n;
  double bound;
  SelectOut* out;
};
struct KSsspSelect {
  using Args = SsspSelectArgs;
  static constexpr int phases = 2;
  TS_DEVICE static void phase(int p, const Ctx& c, const Args& a) {
    SelectOut* part = (SelectOut*)c.smem;
    const double inf = bits_f64(0x7ff0000000000000ull);
    if (p == 0) {
      SelectOut s{inf, 0, 0};
      for (u32 v = c.gtid(); v < a.n; v += c.gstride()) {
        const u8 nx = a.next[v], was = a.pending[v] | nx;
        u8 in = 0;
        if (was != 0) {
          const double d = a.dist[v];
          if (d < a.bound) in = 1, s.count++, s.edges += a.deg[v];
          else s.low = d < s.low ? d : s.low;
          a.pending[v] = in ^ 1;
        }
        if (nx != 0) a.next[v] = 0;
        a.frontier[v] = in;
      }
      part[c.tid] = s;
      return;
    }
    if (c.tid != 0) return;
    SelectOut s{inf, 0, 0};
    for (u32 t = 0; t < c.bdim; t++) {
      s.low = part[t].low < s.low ? part[t].low : s.low;
      s.edges += part[t].edges;
      s.count += part[t].count;
    }
    if (s.count == 0 && !(s.low < inf)) return;
    atomic_add_u32(&a.out->count, s.count);
    atomic_add_f64(&a.out->edges, s.edges);
    if (s.low < inf) atomic_min_f64(&a.out->low, s.low);
  }
};
constexpr size_t kSsspSelectSmem = kBlock * sizeof(SelectOut);

}  // namespace ts
