// BFS's every level on the team's threads in one native call each (src/programs/bfs/team.ts):
// GAPBS's direction-optimising loop (bfs.cc; Beamer, Asanović, Patterson SC 2012) with the
// socket's worker threads as its OpenMP team. team.ts's TypeScript loop does the same with a
// Team.loop a level; there V8 compiles the per-chunk code of every worker during a session's first
// runs, which are the slow ones (bench/results/h100-2026-11-28-first-runs, -gang-wakes).
//
// bfsTeam(out, in, deg, depth, seen, queue, maps, ctl, source, edges, params, stats)
//   out, in   page-set handles (pageSet) of the out- and in-pages (the same on undirected graphs)
//   deg       out-degrees (u32, n); depth (i32, n: -1 but the source's 0); seen (i32, (n+31)/32
//             words, the source's bit set): as the TypeScript kernels
//   queue     u32, 2n: two frontier lists (the source first in the first)
//   maps      u32, 3 * (n+31)/32 words: three frontier bitmaps (the source's bit in the first), zero
//   ctl       f64 of at least 32 + small + 1 entries, zero before the run: the team's words
//             (addon_team.h), then a short level's edge prefix; nothing in JS reads them
//   params    f64: alpha, beta, small, piece, grain, pullPiece, words (team.ts's constants)
//   stats     f64: [0] += this thread's edges examined, [1] = the levels run
//
// Every thread of the team calls it with the same arguments. A level is a phase of chunks
// (addon_team.h); its closer takes the next decision from the phase's sums (top-down or bottom-up,
// as team.ts). Top-down levels claim targets by compare-and-swap and append them to the next list
// through a per-thread buffer, a reservation a chunk (GAPBS's QueueBuffer); bottom-up levels read
// the frontier's bitmap over vertex pieces; each level also zeroes the map of the level before last.
#include "addon_cpu.h"
#include "addon_team.h"

#include <cstring>
#include <vector>

namespace ts {
namespace addon {
namespace {

using namespace cpu;
using team::ld;
using team::st;

// The phases' sums and the closer's words (addon_team.h), and the kinds of phase.
enum : size_t { FOUND, SCOUT, TAIL };  // vertices found (listed), their out-edges, the next list's tail
enum : size_t { C_SIZE, C_FEDGES, PULLING, AWAKE, SCOUTED, UNEXPLORED };  // team.ts's loop variables
enum : uint64_t { TD = 1, BU = 2, LIST = 3 };
/** A short top-down level's edge prefix: ctl from here. */
constexpr size_t PREFIX = team::WORDS;

struct Params {
  double alpha, beta;
  uint64_t small, piece, grain, pullPiece, words;
};

struct Run {
  team::Phases ph;
  const PageSetN* out;
  const PageSetN* in;
  const uint32_t* deg;
  int32_t* depth;
  int32_t* seen;
  uint32_t* queue;
  uint32_t* maps;
  uint64_t n, w, numEdges;
  Params p;
  uint64_t pulls, clearChunks;

  uint64_t* sum(size_t i) const { return ph.sum(i); }
  uint64_t* state(size_t i) const { return ph.state(i); }
  uint32_t* list(uint64_t level) const { return queue + (level & 1) * n; }
  uint32_t* map(uint64_t level) const { return maps + (level % 3) * w; }
  /** Publishes a phase; top-down and bottom-up levels after the first also zero the map before last in extra chunks. */
  void publish(uint64_t kind, uint64_t level, uint64_t work, uint64_t size) const {
    const uint64_t clears = (kind == TD || kind == BU) && level > 0 ? clearChunks : 0;
    ph.publish(kind, level, work, work + clears, size);
  }
};

/**
 * The closer's decision after a phase (team.ts's loop; kind 0: the run's start, level 0's list
 * just made): publishes the next phase, or the end. Returns whether that phase has no chunk.
 */
bool advance(const Run& r) {
  const uint64_t kind = r.ph.kind(), found = ld(r.sum(FOUND)), out = ld(r.sum(SCOUT));
  uint64_t level = r.ph.level(), size = ld(r.state(C_SIZE)), scout = ld(r.state(SCOUTED)), fedges = ld(r.state(C_FEDGES));
  uint64_t pulling = ld(r.state(PULLING)), awake = ld(r.state(AWAKE));
  if (kind == TD) {
    size = found, scout = fedges = out, level++;
  } else if (kind == BU) {
    size = found, level++;
    const bool keep = size >= awake || (double)size > (double)r.n / r.p.beta;
    if (!keep && size > 0) {
      // Back to top-down: the new frontier listed from its flags first (scout 1, as team.ts).
      st(r.state(PULLING), 0), st(r.state(AWAKE), size), st(r.state(SCOUTED), 1), st(r.state(C_SIZE), size);
      r.publish(LIST, level, (r.w + r.p.words - 1) / r.p.words, size);
      return false;
    }
    awake = size;
  } else {
    fedges = out;
  }
  st(r.state(C_SIZE), size);
  if (size == 0) {
    r.publish(team::END, level, 0, 0);
    return false;
  }
  const uint64_t unexplored = ld(r.state(UNEXPLORED));
  if (!pulling && (double)scout > (double)unexplored / r.p.alpha) pulling = 1, awake = size;
  st(r.state(PULLING), pulling), st(r.state(AWAKE), awake), st(r.state(SCOUTED), scout), st(r.state(C_FEDGES), fedges);
  if (pulling) {
    r.publish(BU, level, r.pulls, size);
    return false;
  }
  st(r.state(UNEXPLORED), unexplored - std::min(unexplored, scout));
  uint64_t work;
  if (size > r.p.small) {
    work = (size + r.p.grain - 1) / r.p.grain;
  } else {
    // A short frontier (a hub's level) is cut by edges: its prefix for the chunks' searches.
    const uint32_t* list = r.list(level);
    uint64_t* pre = r.ph.ctl + PREFIX;
    pre[0] = 0;
    for (uint64_t i = 0; i < size; i++) pre[i + 1] = pre[i] + r.deg[list[i]];
    work = (fedges + r.p.piece - 1) / r.p.piece;
  }
  r.publish(TD, level, work, size);
  return work == 0 && level == 0;
}

/** This thread's claims of a top-down or listing chunk, appended to the next list a chunk at a time. */
struct Local {
  std::vector<uint32_t> ids;
  uint64_t degrees = 0;
  void flush(const Run& r, uint32_t* into) {
    if (!ids.empty()) {
      const uint64_t at = __atomic_fetch_add(r.sum(TAIL), ids.size(), __ATOMIC_RELAXED);
      std::memcpy(into + at, ids.data(), ids.size() * 4);
      __atomic_fetch_add(r.sum(FOUND), ids.size(), __ATOMIC_RELAXED);
      __atomic_fetch_add(r.sum(SCOUT), degrees, __ATOMIC_RELAXED);
    }
    ids.clear();
    degrees = 0;
  }
};

/** Top-down over u's out-edges [from, to): claims (addon_cpu.h claim, as bfsPush). */
void pushFrom(const Run& r, uint32_t u, double from, double to, int32_t level, const Flags& next, Local& mine, uint64_t& edges) {
  forEdges(*r.out, u, from, to, [&](const uint32_t* nbrs, uint32_t a, uint32_t b) {
    edges += b - a;
    for (uint32_t e = a; e < b; e++)
      if (claim(r.depth, r.seen, next, nbrs[e], level)) mine.ids.push_back(nbrs[e]), mine.degrees += r.deg[nbrs[e]];
    return true;
  });
}

/** Chunk c of a top-down level: GRAIN vertices of the list, or (a short list) PIECE of its edges. */
void pushChunk(const Run& r, uint64_t c, uint64_t level, uint64_t size, Local& mine, uint64_t& edges) {
  const uint32_t* list = r.list(level);
  const Flags next{r.map(level + 1), true, r.n};
  const int32_t d = (int32_t)level + 1;
  if (size > r.p.small) {
    for (uint64_t i = c * r.p.grain, e = std::min(size, (c + 1) * r.p.grain); i < e; i++) pushFrom(r, list[i], 0, INFINITY, d, next, mine, edges);
    return;
  }
  const uint64_t* pre = r.ph.ctl + PREFIX;
  const uint64_t e0 = c * r.p.piece, e1 = std::min(pre[size], e0 + r.p.piece);
  // The first vertex whose edges reach past e0.
  uint64_t i = std::upper_bound(pre + 1, pre + size + 1, e0) - (pre + 1);
  for (; i < size && pre[i] < e1; i++) {
    const uint64_t from = e0 > pre[i] ? e0 - pre[i] : 0, to = std::min<uint64_t>(r.deg[list[i]], e1 - pre[i]);
    pushFrom(r, list[i], (double)from, (double)to, d, next, mine, edges);
  }
}

/** Chunk c of a bottom-up level: vertices [c * pullPiece, ...) over the in-pages (bfsPull's loop). */
uint64_t pullChunk(const Run& r, uint64_t c, uint64_t level, uint64_t& edges) {
  const Flags cur{r.map(level), true, r.n}, next{r.map(level + 1), true, r.n};
  const PageSetN& s = *r.in;
  const int32_t d = (int32_t)level + 1;
  uint64_t active = 0;
  const uint32_t hi = (uint32_t)std::min(r.n, (c + 1) * r.p.pullPiece);
  for (uint32_t v = (uint32_t)(c * r.p.pullPiece); v < hi;) {
    const size_t pi = s.firstPageOf[v];
    if (s.split[pi] != 0) {
      // A hub's in-list over several pages: the loop over each page's one vertex (it stops
      // looking once a page found a frontier neighbour), as bfs/kernels.ts pullRange over a task's pages.
      for (size_t q = pi; q < s.off.size() && s.split[q] != 0 && s.vBegin[q] == v; q++) pullLoop<true>(s.off[q], s.nbr[q], v, 0, 1, r.depth, cur, next, d, edges, active);
      v++;
      continue;
    }
    const uint32_t ve = std::min(hi, s.vEnd[pi]);
    pullLoop<true>(s.off[pi], s.nbr[pi], s.vBegin[pi], v - s.vBegin[pi], ve - s.vBegin[pi], r.depth, cur, next, d, edges, active);
    v = ve;
  }
  return active;
}

/** Chunk c of a listing: the vertices flagged in words [c * words, ...) of the level's map. */
void listChunk(const Run& r, uint64_t c, uint64_t level, Local& mine) {
  const uint32_t* bits = r.map(level);
  for (uint64_t i = c * r.p.words, e = std::min(r.w, (c + 1) * r.p.words); i < e; i++)
    for (uint32_t x = bits[i]; x != 0; x &= x - 1) {
      const uint32_t v = (uint32_t)(32 * i + __builtin_ctz(x));
      mine.ids.push_back(v);
      mine.degrees += r.deg[v];
    }
}

Napi::Value BfsTeam(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Run r{};
  r.out = setArg(info, 0);
  r.in = setArg(info, 1);
  size_t nd, n, ns, nq, nm, nc, np, nst;
  r.deg = arrayArg<uint32_t>(info, 2, napi_uint32_array, "deg", &nd);
  r.depth = arrayArg<int32_t>(info, 3, napi_int32_array, "depth", &n);
  r.seen = arrayArg<int32_t>(info, 4, napi_int32_array, "seen", &ns);
  r.queue = arrayArg<uint32_t>(info, 5, napi_uint32_array, "queue", &nq);
  r.maps = arrayArg<uint32_t>(info, 6, napi_uint32_array, "maps", &nm);
  r.ph.ctl = (uint64_t*)arrayArg<double>(info, 7, napi_float64_array, "ctl", &nc);
  const double source = uintArg(info, 8, "source", 0, true);
  r.numEdges = (uint64_t)uintArg(info, 9, "edges", 0, true);
  const double* pa = arrayArg<double>(info, 10, napi_float64_array, "params", &np);
  double* stats = arrayArg<double>(info, 11, napi_float64_array, "stats", &nst);
  r.n = n, r.w = (n + 31) / 32;
  if (np < 7 || nst < 2) throw codedError(env, "TS_ARG", "bfsTeam: params needs 7 entries, stats 2");
  r.p = {pa[0], pa[1], (uint64_t)pa[2], (uint64_t)pa[3], (uint64_t)pa[4], (uint64_t)pa[5], (uint64_t)pa[6]};
  if (nd != n || ns < r.w || nq < 2 * n || nm < 3 * r.w || r.out->n != n || r.in->n != n || source >= (double)n || nc < PREFIX + r.p.small + 1 ||
      !(r.p.alpha > 0 && r.p.beta > 0) || r.p.piece == 0 || r.p.grain == 0 || r.p.pullPiece == 0 || r.p.words == 0)
    throw codedError(env, "TS_ARG", "bfsTeam: arrays of the wrong lengths (or a zero parameter)");
  r.pulls = (n + r.p.pullPiece - 1) / r.p.pullPiece;
  r.clearChunks = (r.w + r.p.words - 1) / r.p.words;
  uint64_t edges = 0;
  Local mine;
  mine.ids.reserve(1024);
  r.ph.run(
      [&] {
        // Level 0's frontier, the source, as if just listed.
        const uint64_t d = r.deg[(uint64_t)source];
        st(r.state(C_SIZE), 1), st(r.sum(SCOUT), d), st(r.state(SCOUTED), d), st(r.state(UNEXPLORED), r.numEdges);
        return advance(r);
      },
      [&](uint64_t kind, uint64_t level, uint64_t size, uint64_t j, uint64_t work) {
        if (j >= work) {
          uint32_t* old = r.map(level + 2);
          const uint64_t lo = (j - work) * r.p.words, hi = std::min(r.w, lo + r.p.words);
          std::memset(old + lo, 0, (hi - lo) * 4);
        } else if (kind == TD) {
          pushChunk(r, j, level, size, mine, edges);
          mine.flush(r, r.list(level + 1));
        } else if (kind == BU) {
          const uint64_t active = pullChunk(r, j, level, edges);
          if (active > 0) __atomic_fetch_add(r.sum(FOUND), active, __ATOMIC_RELAXED);
        } else {
          listChunk(r, j, level, mine);
          mine.flush(r, r.list(level));
        }
      },
      [&] { return advance(r); });
  stats[0] += (double)edges;
  stats[1] = (double)r.ph.level();
  return env.Undefined();
}

}  // namespace

void ExportBfs(Napi::Object cpu) { cpu.Set("bfsTeam", Napi::Function::New(cpu.Env(), BfsTeam, "bfsTeam")); }

}  // namespace addon
}  // namespace ts
