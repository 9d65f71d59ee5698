// CDLP kernels: neighbour-label gather and the most frequent label per sorted segment.
// Part of kernels.h.
#pragma once

#include "kernels_common.h"

namespace ts {

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

}  // namespace ts
