// Louvain's serial passes on the coordinator (src/programs/louvain/serial.ts), natively.
//
// louvainAggregate: Louvain's coarse graph (Blondel's phase 2; src/programs/louvain/serial.ts
// aggregate, whose result this equals bit for bit) on one thread per core. The coordinator runs it
// between levels, on views as large as level 0's (RMAT's first coarse level is about that large):
// a large share of a run's serial work as TypeScript on one thread.
//
// louvainAggregate(off, adj, wt | null, k, loop, comm, C, block) -> { off, adj, wt, k, loop }
//   off f64 (n + 1), adj u32, wt f64 (null: every weight 1), k and loop f64 (n), comm u32 (n: dense
//   community ids 0..C-1). Coarse vertex c's list: the communities its members' lists reach, other
//   than c, in the order the members (ascending) and their lists first reach them, each with the
//   summed weight; k[c] the members' k summed, loop[c] their loops and the weights inside c. Sums
//   as serial.ts aggregateSerial adds them: a community's members in blocks of at least `block`
//   entries (the last one shorter), each block summed in list order from zero, the blocks' sums
//   added in order. Blocks gathered on one thread per core, chunks handed out by an atomic counter
//   (a refining round's few communities hold the whole view), a community of one block written at
//   its bound in the output, the others' blocks folded in a second pass; the lists then moved down
//   over the gaps.
#include "addon.h"
#include "louvain_core.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <thread>
#include <vector>

namespace ts {
namespace addon {
namespace {

struct Csr {
  const double* off;
  const uint32_t* adj;
  const double* wt;
  const double* k;
  const double* loop;
  const uint32_t* comm;
  const uint32_t* members;
  const uint64_t* start;
};

/**
 * One thread's table: community -> summed weight, the keys in order of first touch. Open
 * addressing sized to the community's entries; for a community with more than C / 8 entries (a
 * hub's holds most of RMAT's edges), a dense array over the C communities (stamped, allocated on
 * the thread's first such community), whose locality the large hash table lacks.
 */
struct Table {
  std::vector<int64_t> keys;
  std::vector<double> vals;
  std::vector<uint32_t> slot;  // the used slots (hash) or the communities (dense), in order of first touch
  std::vector<double> dense;
  std::vector<int64_t> stamp;
  size_t used = 0;
  bool isDense = false;
  int64_t owner = -1;
  void start(size_t entries, uint32_t C, int64_t id) {
    isDense = entries > C / 8;
    if (isDense) {
      if (dense.size() < C) dense.resize(C), stamp.assign(C, -1), slot.resize(std::max<size_t>(slot.size(), C));
      owner = id;
      return;
    }
    size_t cap = 1024;
    while (cap < 2 * entries) cap *= 2;
    if (cap > keys.size()) keys.assign(cap, -1), vals.resize(cap), slot.resize(std::max<size_t>(slot.size(), cap));
  }
  void add(uint32_t c, double w) {
    if (isDense) {
      if (stamp[c] != owner) stamp[c] = owner, dense[c] = w, slot[used++] = c;
      else dense[c] += w;
      return;
    }
    const size_t mask = keys.size() - 1;
    size_t s = (size_t)((uint32_t)(c * 0x9e3779b1u)) & mask;
    while (keys[s] != -1 && keys[s] != (int64_t)c) s = (s + 1) & mask;
    if (keys[s] == -1) keys[s] = c, vals[s] = w, slot[used++] = (uint32_t)s;
    else vals[s] += w;
  }
  uint32_t key(size_t i) const { return isDense ? slot[i] : (uint32_t)keys[slot[i]]; }
  double value(size_t i) const { return isDense ? dense[slot[i]] : vals[slot[i]]; }
  void clear() {
    if (!isDense)
      for (size_t i = 0; i < used; i++) keys[slot[i]] = -1;
    used = 0;
  }
};

/** Members [from, to) of community c: their neighbours into t (first-touch order; `id` t's stamp), their k and loop sums into kc, loopc. */
inline void gather(const Csr& g, uint32_t C, uint32_t c, uint64_t from, uint64_t to, size_t edges, int64_t id, Table& t, double* kc, double* loopc) {
  t.start(edges, C, id);
  double k = 0, inside = 0;
  for (uint64_t i = from; i < to; i++) {
    const uint32_t v = g.members[i];
    k += g.k[v];
    inside += g.loop[v];
    const uint64_t b = (uint64_t)g.off[v + 1];
    for (uint64_t e = (uint64_t)g.off[v]; e < b; e++) {
      const uint32_t d = g.comm[g.adj[e]];
      const double w = g.wt ? g.wt[e] : 1.0;
      if (d == c) inside += w;
      else t.add(d, w);
    }
  }
  *kc = k;
  *loopc = inside;
}

/** Runs work(thread) on one thread per core (at most `most`), the last on this one. */
template <typename F>
void onThreads(size_t most, F work) {
  const size_t threads = std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), most));
  std::vector<std::thread> pool;
  for (size_t i = 1; i < threads; i++) pool.emplace_back(work, i);
  work(0);
  for (auto& th : pool) th.join();
}


}  // namespace

uint64_t lvAggregate(const LvView& gv, const uint32_t* commp, uint32_t C, uint64_t block, const std::function<LvOut(uint64_t cap)>& alloc) {
  const size_t n = gv.n;
  const double* offp = gv.off;
  // Members of each community in vertex order (a counting sort).
  std::vector<uint64_t> start(C + 1, 0);
  for (size_t v = 0; v < n; v++) start[commp[v] + 1]++;
  for (uint32_t c = 0; c < C; c++) start[c + 1] += start[c];
  std::vector<uint64_t> fill(start.begin(), start.end() - 1);
  std::vector<uint32_t> members(n);
  for (size_t v = 0; v < n; v++) members[fill[commp[v]]++] = (uint32_t)v;
  const Csr g{offp, gv.adj, gv.wt, gv.k, gv.loop, commp, members.data(), start.data()};
  // Each community's list goes straight into the output at its bound (no list holds more than its
  // members' entries, nor more than the C - 1 other communities), then the lists move down over the
  // gaps in order. Per thread buffers copied into place touched ~3x the output's bytes in fresh
  // pages (the buffers' growth too): most of the pass on the 2-core box, whose page faults cost.
  // (A malloc'd output, which V8 does not zero, was slower: its pages came fresh from the kernel
  // each call, where V8's zeroed buffers reuse freed memory.) The blocks of a community of several
  // put their lists at bounds of their own in `part`.
  struct Block {
    uint32_t c;
    uint64_t from, to, edges, at;
  };
  std::vector<Block> blocks;
  std::vector<uint32_t> firstBlock(C + 1);
  std::vector<uint64_t> bound(C + 1, 0);
  uint64_t parts = 0;
  for (uint32_t c = 0; c < C; c++) {
    firstBlock[c] = (uint32_t)blocks.size();
    uint64_t e = 0;
    for (uint64_t i = start[c]; i < start[c + 1];) {
      Block bl{c, i, i, 0, 0};
      for (; i < start[c + 1] && bl.edges < block; i++) bl.edges += (uint64_t)(offp[members[i] + 1] - offp[members[i]]);
      bl.to = i;
      e += bl.edges;
      blocks.push_back(bl);
    }
    bound[c + 1] = bound[c] + std::min<uint64_t>(e, C - 1);
    if (blocks.size() - firstBlock[c] == 1) blocks.back().at = bound[c];
    else
      for (size_t b = firstBlock[c]; b < blocks.size(); b++) blocks[b].at = parts, parts += std::min<uint64_t>(blocks[b].edges, C - 1);
  }
  firstBlock[C] = (uint32_t)blocks.size();
  const uint64_t cap = bound[C];
  const LvOut out = alloc(cap);
  double* kc = out.k;
  double* loopc = out.loop;
  double* offc = out.off;
  uint32_t* adjc = out.adj;
  double* wtc = out.wt;
  std::vector<uint32_t> partAdj(parts);
  std::vector<double> partWt(parts);
  std::vector<uint32_t> count(C), blockCount(blocks.size());
  std::vector<double> blockK(blocks.size()), blockLoop(blocks.size());
  // Blocks handed out in chunks of about CHUNK entries (or 64 blocks) by an atomic counter.
  constexpr uint64_t CHUNK = 1 << 14;
  std::vector<uint32_t> chunks{0};
  for (uint64_t b = 0, e = 0; b < blocks.size(); b++) {
    e += blocks[b].edges;
    if (e >= CHUNK || b + 1 - chunks.back() >= 64 || b + 1 == blocks.size()) chunks.push_back((uint32_t)(b + 1)), e = 0;
  }
  std::atomic<size_t> nextChunk{0};
  onThreads(chunks.size() - 1, [&](size_t) {
    Table t;
    for (size_t ch; (ch = nextChunk.fetch_add(1)) + 1 < chunks.size();)
      for (uint32_t b = chunks[ch]; b < chunks[ch + 1]; b++) {
        const Block& bl = blocks[b];
        const bool whole = firstBlock[bl.c + 1] - firstBlock[bl.c] == 1;
        gather(g, C, bl.c, bl.from, bl.to, bl.edges, b, t, &blockK[b], &blockLoop[b]);
        blockCount[b] = (uint32_t)t.used;
        uint32_t* a = (whole ? adjc : partAdj.data()) + bl.at;
        double* w = (whole ? wtc : partWt.data()) + bl.at;
        for (size_t i = 0; i < t.used; i++) a[i] = t.key(i), w[i] = t.value(i);
        t.clear();
      }
  });
  // Communities of several blocks: their blocks' lists and sums added in order.
  std::vector<uint32_t> folded;
  for (uint32_t c = 0; c < C; c++) {
    if (firstBlock[c + 1] - firstBlock[c] > 1) folded.push_back(c);
    else if (firstBlock[c + 1] > firstBlock[c]) count[c] = blockCount[firstBlock[c]], kc[c] = blockK[firstBlock[c]], loopc[c] = blockLoop[firstBlock[c]];
  }
  std::atomic<size_t> nextFold{0};
  onThreads(folded.size(), [&](size_t) {
    Table t;
    for (size_t f; (f = nextFold.fetch_add(1)) < folded.size();) {
      const uint32_t c = folded[f];
      size_t entries = 0;
      for (uint32_t b = firstBlock[c]; b < firstBlock[c + 1]; b++) entries += blockCount[b];
      t.start(entries, C, c);
      double kk = 0, inside = 0;
      for (uint32_t b = firstBlock[c]; b < firstBlock[c + 1]; b++) {
        kk += blockK[b];
        inside += blockLoop[b];
        for (uint64_t i = blocks[b].at; i < blocks[b].at + blockCount[b]; i++) t.add(partAdj[i], partWt[i]);
      }
      kc[c] = kk, loopc[c] = inside, count[c] = (uint32_t)t.used;
      for (size_t i = 0; i < t.used; i++) adjc[bound[c] + i] = t.key(i), wtc[bound[c] + i] = t.value(i);
      t.clear();
    }
  });
  offc[0] = 0;
  uint64_t m = 0;
  for (uint32_t c = 0; c < C; c++) {
    // Down over the gaps: each list's place is at or below its bound, and the lists before it are in place.
    if (count[c] > 0 && m != bound[c]) {
      std::memmove(adjc + m, adjc + bound[c], (size_t)count[c] * 4);
      std::memmove(wtc + m, wtc + bound[c], (size_t)count[c] * 8);
    }
    offc[c + 1] = (double)(m += count[c]);
  }
  return m;
}

namespace {

Napi::Value LouvainAggregate(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  TA off, adj, wt, k, loop, comm;
  const LvArgs args{info, "louvainAggregate"};
  const bool weighted = args.view(&off, &adj, &wt, &k);
  args.get(4, &loop, napi_float64_array, "loop");
  args.get(5, &comm, napi_uint32_array, "comm");
  const double Cd = numberArg(info, 6, "louvainAggregate: C", 0, true);
  const double blockd = numberArg(info, 7, "louvainAggregate: block", 1, true);
  const size_t n = comm.length;
  const uint32_t C = (uint32_t)Cd;
  const uint64_t block = (uint64_t)blockd;
  if (off.length != n + 1 || k.length < n || loop.length < n || (double)C != Cd || C > n || (double)block != blockd)
    throw codedError(env, "TS_ARG", "louvainAggregate: off needs n + 1 entries, k and loop n, C at most n, block a whole number");
  const double* offp = (const double*)off.data;
  const uint32_t* commp = (const uint32_t*)comm.data;
  if ((uint64_t)offp[n] > adj.length || (weighted && (uint64_t)offp[n] > wt.length))
    throw codedError(env, "TS_ARG", "louvainAggregate: adj and wt need off[n] entries");
  for (size_t v = 0; v < n; v++)
    if (commp[v] >= C) throw codedError(env, "TS_ARG", "louvainAggregate: a community id is not below C");
  const LvView g{n, offp, (const uint32_t*)adj.data, weighted ? (const double*)wt.data : nullptr, (const double*)k.data, (const double*)loop.data};
  Napi::ArrayBuffer kb, lb, ob, ab, wb;
  const uint64_t m = lvAggregate(g, commp, C, block, [&](uint64_t cap) {
    kb = Napi::ArrayBuffer::New(env, (size_t)C * 8), lb = Napi::ArrayBuffer::New(env, (size_t)C * 8);
    ob = Napi::ArrayBuffer::New(env, ((size_t)C + 1) * 8);
    ab = Napi::ArrayBuffer::New(env, std::max<uint64_t>(cap, 1) * 4), wb = Napi::ArrayBuffer::New(env, std::max<uint64_t>(cap, 1) * 8);
    return LvOut{(double*)ob.Data(), (uint32_t*)ab.Data(), (double*)wb.Data(), (double*)kb.Data(), (double*)lb.Data()};
  });
  Napi::Object o = Napi::Object::New(env);
  o.Set("off", Napi::Float64Array::New(env, (size_t)C + 1, ob, 0));
  o.Set("adj", Napi::Uint32Array::New(env, m, ab, 0));
  o.Set("wt", Napi::Float64Array::New(env, m, wb, 0));
  o.Set("k", Napi::Float64Array::New(env, C, kb, 0));
  o.Set("loop", Napi::Float64Array::New(env, C, lb, 0));
  return o;
}


// louvainMoveOrdered(off, adj, wt | null, k, comm, tot, size, order, resolution, m2, maxSweeps, tol,
//   batchVertices?, batchEntries?) -> { sweeps, gain }: serial.ts moveOrdered (the sequential local
//   moving, pruned), the same operations in the same order (no fused multiply-adds: CMake compiles
//   this file with -ffp-contract=off), so comm, tot and size end as the TypeScript leaves them.
//
// With batchVertices > 0 and more than one core, the sweeps go in batches: up to batchVertices
// active vertices of the order (or until they hold batchEntries entries) gather their neighbouring
// communities' weights on every thread at once, from the communities as they stand before the
// batch; then this thread takes the batch's vertices in order as the serial loop does, each
// choice made on the live totals from the gathered weights, and gathers again itself for a vertex
// a neighbour's move in the batch made stale (or a move activated). A vertex's gathered weights
// depend only on its neighbours' communities, and a vertex's own community changes only by its
// own move, so every choice, total and slack is the serial loop's to the bit, on any number of
// threads. (Speculation with a serial commit, as in Blelloch, Fineman, Shun 2012, "Greedy
// sequential maximal independent set and matching are parallel on average".) The gathering
// threads also rank each vertex's options on the totals before the batch; where the first two
// and the second and third lie further apart than the batch's moves can have shifted any gain,
// this thread computes the two gains only, else it reads the whole list again. The movers'
// neighbour updates stay on this thread.

/** A vertex's neighbouring communities: ids and summed weights in first-touch order, the index of its own or -1. */
struct Touched {
  uint32_t* c;
  double* w;
  uint32_t t = 0;
  int32_t own = -1;
};

/** One thread's table for gathering (open addressing sized to the vertex's degree). */
struct HashGather {
  std::vector<uint32_t> key, at, slots;
  void run(uint64_t a, uint64_t b, const uint32_t* adj, const double* wt, const uint32_t* comm, uint32_t cv, Touched* out) {
    size_t cap = 16;
    while (cap < 2 * (b - a)) cap *= 2;
    if (key.size() < cap) key.assign(cap, UINT32_MAX), at.resize(cap), slots.resize(cap);
    const size_t mask = cap - 1;
    uint32_t t = 0;
    for (uint64_t e = a; e < b; e++) {
      const uint32_t c = comm[adj[e]];
      const double w = wt ? wt[e] : 1.0;
      size_t s = (size_t)((uint32_t)(c * 0x9e3779b1u)) & mask;
      while (key[s] != UINT32_MAX && key[s] != c) s = (s + 1) & mask;
      if (key[s] == UINT32_MAX) key[s] = c, at[s] = t, slots[t] = (uint32_t)s, out->c[t] = c, out->w[t] = w, t++;
      else out->w[at[s]] += w;
    }
    int32_t own = -1;
    for (uint32_t j = 0; j < t; j++) {
      if (out->c[j] == cv) own = (int32_t)j;
      key[slots[j]] = UINT32_MAX;
    }
    out->t = t;
    out->own = own;
  }
};

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/** An option that is the vertex's own community (Batch's top1, top2). */
constexpr int32_t STAY = -2;

/** A batch the threads gather: item i is vertex items[i], its lists from base[i] in c and w. */
struct Batch {
  std::atomic<uint64_t> ticket{0};  // count << 32 | next item: one word, so a claim reads the batch it belongs to
  std::atomic<uint32_t> done{0};
  std::atomic<bool> stop{false};
  std::vector<uint32_t> items, t, c;
  std::vector<uint64_t> base;
  /** Per item: its own community's index in its list (-1: none), and its two best options on the totals before the batch: index in the list, or STAY (its own community), or -1 (none); their gains and the third best's. */
  std::vector<int32_t> own, top1, top2;
  std::vector<double> w, x1, x2, x3;
  /** Claims and gathers items until the batch has none left; false once nothing was claimable. */
  template <typename G>
  bool help(G gatherItem) {
    bool any = false;
    for (;;) {
      uint64_t x = ticket.load(std::memory_order_acquire);
      if ((x & 0xffffffffu) >= (x >> 32)) return any;
      x = ticket.fetch_add(1, std::memory_order_acq_rel);
      const uint32_t i = (uint32_t)x;
      if (i >= (uint32_t)(x >> 32)) return any;
      gatherItem(i);
      any = true;
      done.fetch_add(1, std::memory_order_release);
    }
  }
};

}  // namespace

LvMoved lvMoveOrdered(const LvView& g, uint32_t* cp, double* totp, uint32_t* sizep, const uint32_t* orderp, double resolution, double m2, double maxSweeps, double tol, uint32_t batchV, uint64_t batchE) {
  const size_t n = g.n;
  const double* offp = g.off;
  const uint32_t* adjp = g.adj;
  const double* wtp = g.wt;
  const double* kp = g.k;
  const size_t threads = std::min<size_t>(32, std::max<size_t>(1, std::thread::hardware_concurrency()));
  const uint32_t B = threads > 1 ? batchV : 0;
  const uint64_t E = batchE;
  // This thread's gathering: a scatter over every community, stamped with the gather's number
  // (the serial loop's; the batch threads' hash tables, tried here too, made it slower).
  std::vector<double> slack(n);
  std::vector<uint32_t> stamp(n, 0), where(n), tc(n), dirty(n, 0);
  std::vector<double> tw(n);
  std::vector<uint8_t> act(n, 1);
  uint32_t tick = 0;
  auto gatherHere = [&](uint32_t v, uint32_t cv, Touched* o) {
    if (++tick == UINT32_MAX) std::fill(stamp.begin(), stamp.end(), 0), tick = 1;
    uint32_t t = 0;
    for (uint64_t e = (uint64_t)offp[v]; e < (uint64_t)offp[v + 1]; e++) {
      const uint32_t c = cp[adjp[e]];
      const double w = wtp ? wtp[e] : 1.0;
      if (stamp[c] != tick) stamp[c] = tick, where[c] = t, o->c[t] = c, o->w[t] = w, t++;
      else o->w[where[c]] += w;
    }
    o->t = t;
    o->own = stamp[cv] == tick ? (int32_t)where[cv] : -1;
  };
  double sweeps = 0, total = 0, moved = 0, gain = 0;
  uint32_t batchId = 0;
  double movedK = 0;  // the movers' k in this batch: no community's total moved further since it began
  // The move (serial.ts's loop body after the choice): totals, sizes, slack, and the neighbours'.
  auto apply = [&](uint32_t v, uint32_t cv, double kv, double stay, uint32_t best, double bestGain, double second) {
    if (best != cv && sizep[cv] == 0 && sizep[best] == 1 && best > cv) best = cv, bestGain = stay, second = HUGE_VAL;
    // Math.max(second, 0) as JavaScript has it (+0 for -0).
    slack[v] = bestGain - (second > 0 ? second : 0.0);
    totp[best] += kv;
    sizep[best]++;
    if (best == cv) return;
    cp[v] = best;
    moved++;
    movedK += kv;
    gain += (2 * (bestGain - stay)) / m2;
    const double g2 = (2 * resolution * kv) / m2;
    for (uint64_t e = (uint64_t)offp[v]; e < (uint64_t)offp[v + 1]; e++) {
      const uint32_t u = adjp[e];
      dirty[u] = batchId;
      if (cp[u] == best) continue;
      const double left = slack[u] - 2 * (wtp ? wtp[e] : 1.0) - g2 * kp[u];
      slack[u] = left;
      if (left < 0) act[u] = 1;
    }
  };
  // v's choice from its gathered weights on the live totals.
  auto choose = [&](uint32_t v, const Touched& o) {
    const uint32_t cv = cp[v];
    const double kv = kp[v];
    totp[cv] -= kv;
    sizep[cv]--;
    const double f = (resolution * kv) / m2;
    const double stay = (o.own >= 0 ? o.w[o.own] : 0) - f * totp[cv];
    uint32_t best = cv;
    double bestGain = stay, second = -HUGE_VAL;
    for (uint32_t j = 0; j < o.t; j++) {
      const uint32_t c = o.c[j];
      if (c == cv) continue;
      const double x = o.w[j] - f * totp[c];
      if (x > bestGain || (x == bestGain && best != cv && c < best)) second = bestGain, best = c, bestGain = x;
      else if (x > second) second = x;
    }
    apply(v, cv, kv, stay, best, bestGain, second);
  };
  Touched here{tc.data(), tw.data()};
  Batch bt;
  if (B > 0) {
    uint64_t maxDeg = 0;
    for (size_t v = 0; v < n; v++) maxDeg = std::max<uint64_t>(maxDeg, (uint64_t)(offp[v + 1] - offp[v]));
    bt.items.resize(B), bt.t.resize(B), bt.own.resize(B), bt.base.resize(B + 1);
    bt.top1.resize(B), bt.top2.resize(B), bt.x1.resize(B), bt.x2.resize(B), bt.x3.resize(B);
    bt.c.resize(E + maxDeg), bt.w.resize(E + maxDeg);
  }
  auto gatherItem = [&](HashGather& h, uint32_t i) {
    const uint32_t v = bt.items[i];
    Touched o{bt.c.data() + bt.base[i], bt.w.data() + bt.base[i]};
    const uint32_t cv = cp[v];
    h.run((uint64_t)offp[v], (uint64_t)offp[v + 1], adjp, wtp, cp, cv, &o);
    bt.t[i] = o.t, bt.own[i] = o.own;
    // The three best options on the totals before the batch (the leader's choice stands on them
    // where no total can have moved enough since to reorder the first two).
    const double f = (resolution * kp[v]) / m2;
    int32_t b1 = STAY, b2 = -1;
    double y1 = (o.own >= 0 ? o.w[o.own] : 0) - f * (totp[cv] - kp[v]), y2 = -HUGE_VAL, y3 = -HUGE_VAL;
    for (uint32_t j = 0; j < o.t; j++) {
      if (o.c[j] == cv) continue;
      const double x = o.w[j] - f * totp[o.c[j]];
      if (x > y1) y3 = y2, b2 = b1, y2 = y1, b1 = (int32_t)j, y1 = x;
      else if (x > y2) y3 = y2, b2 = (int32_t)j, y2 = x;
      else if (x > y3) y3 = x;
    }
    bt.top1[i] = b1, bt.top2[i] = b2, bt.x1[i] = y1, bt.x2[i] = y2, bt.x3[i] = y3;
  };
  // An item's choice from its ranked options: each option's gain is off its value before the
  // batch by at most f times how far its community's total moved (movedK, plus the additions'
  // rounding); with the first two options and the second and third further apart than twice that,
  // the live order of the first two is theirs, and their live gains are computed as choose does.
  auto chooseRanked = [&](uint32_t v, uint32_t x, const Touched& o, double epsTot) -> bool {
    const double kv = kp[v], f = (resolution * kv) / m2;
    const double bound = 2 * (f * (movedK + epsTot) + 1e-15 * (std::fabs(bt.x1[x]) + f * m2));
    if (!(bt.x1[x] - bt.x2[x] > bound) || (bt.top2[x] != -1 && !(bt.x2[x] - bt.x3[x] > bound))) return false;
    const uint32_t cv = cp[v];
    totp[cv] -= kv;
    sizep[cv]--;
    const double stay = (o.own >= 0 ? o.w[o.own] : 0) - f * totp[cv];
    auto gainOf = [&](int32_t j) { return j == STAY ? stay : o.w[j] - f * totp[o.c[j]]; };
    const uint32_t best = bt.top1[x] == STAY ? cv : o.c[bt.top1[x]];
    apply(v, cv, kv, stay, best, gainOf(bt.top1[x]), bt.top2[x] == -1 ? -HUGE_VAL : gainOf(bt.top2[x]));
    return true;
  };
  auto sweepsLoop = [&](HashGather* h) {
    while (sweeps < maxSweeps) {
      sweeps++;
      moved = 0, gain = 0;
      for (size_t i0 = 0; i0 < n;) {
        // The batch: the order's next active vertices (this thread only writes act and comm).
        uint32_t cnt = 0;
        uint64_t ent = 0;
        size_t i1 = i0;
        if (B > 0)
          while (i1 < n && cnt < B && ent < E) {
            const uint32_t v = orderp[i1++];
            if (act[v] == 0) continue;
            bt.items[cnt] = v, bt.base[cnt++] = ent;
            ent += (uint64_t)(offp[v + 1] - offp[v]);
          }
        else i1 = n;
        batchId++;
        const bool shared = cnt > 1 && ent >= E / 8;
        if (shared) {
          bt.done.store(0, std::memory_order_relaxed);
          bt.ticket.store((uint64_t)cnt << 32, std::memory_order_release);
          bt.help([&](uint32_t i) { gatherItem(*h, i); });
          while (bt.done.load(std::memory_order_acquire) < cnt) relax();
        }
        uint32_t j = 0;
        movedK = 0;
        // The totals' rounding: at most two additions a vertex of the batch, each within an ulp of m2.
        const double epsTot = m2 * 2.3e-16 * (2.0 * (double)(i1 - i0) + 2);
        for (size_t i = i0; i < i1; i++) {
          const uint32_t v = orderp[i];
          if (act[v] == 0) continue;
          act[v] = 0;
          if (shared && j < cnt && bt.items[j] == v) {
            const uint32_t x = j++;
            if (dirty[v] != batchId) {
              const Touched o{bt.c.data() + bt.base[x], bt.w.data() + bt.base[x], bt.t[x], bt.own[x]};
              if (!chooseRanked(v, x, o, epsTot)) choose(v, o);
              continue;
            }
          }
          gatherHere(v, cp[v], &here);
          choose(v, here);
        }
        i0 = i1;
      }
      total += gain;
      if (moved == 0 || gain < tol) break;
    }
  };
  if (B == 0) {
    sweepsLoop(nullptr);
  } else {
    // Part 0 runs the sweeps; the others gather whatever batch is open until it stops.
    runOnThreads(threads, [&](size_t p) {
      HashGather h;
      if (p == 0) {
        sweepsLoop(&h);
        bt.stop.store(true, std::memory_order_release);
        return;
      }
      for (unsigned idle = 0; !bt.stop.load(std::memory_order_acquire);) {
        if (bt.help([&](uint32_t i) { gatherItem(h, i); })) idle = 0;
        else if (++idle < 4096) relax();
        else std::this_thread::yield();
      }
    });
  }
  return LvMoved{sweeps, total};
}

namespace {

Napi::Value LouvainMoveOrdered(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  TA off, adj, wt, k, comm, tot, size, order;
  const LvArgs args{info, "louvainMoveOrdered"};
  const bool weighted = args.view(&off, &adj, &wt, &k);
  args.get(4, &comm, napi_uint32_array, "comm");
  args.get(5, &tot, napi_float64_array, "tot");
  args.get(6, &size, napi_uint32_array, "size");
  args.get(7, &order, napi_uint32_array, "order");
  const double resolution = numberArg(info, 8, "louvainMoveOrdered: resolution", 0, true);
  const double m2 = numberArg(info, 9, "louvainMoveOrdered: m2", 0, true);
  const double maxSweeps = numberArg(info, 10, "louvainMoveOrdered: maxSweeps", 0, true);
  const double tol = numberArg(info, 11, "louvainMoveOrdered: tol", 0, true);
  const double batchV = info.Length() > 12 ? numberArg(info, 12, "louvainMoveOrdered: batchVertices", 0, true) : 0;
  const double batchE = info.Length() > 13 ? numberArg(info, 13, "louvainMoveOrdered: batchEntries", 1, true) : 1;
  const size_t n = comm.length;
  const double* offp = (const double*)off.data;
  if (off.length != n + 1 || k.length < n || tot.length < n || size.length < n || order.length != n || n >= (1u << 31))
    throw codedError(env, "TS_ARG", "louvainMoveOrdered: off needs n + 1 entries, k, tot, size and order n");
  if ((uint64_t)offp[n] > adj.length || (weighted && (uint64_t)offp[n] > wt.length))
    throw codedError(env, "TS_ARG", "louvainMoveOrdered: adj and wt need off[n] entries");
  if (batchV >= (double)(1u << 20)) throw codedError(env, "TS_ARG", "louvainMoveOrdered: batchVertices below 2^20");
  const uint32_t* orderp = (const uint32_t*)order.data;
  uint32_t* cp = (uint32_t*)comm.data;
  for (size_t i = 0; i < n; i++)
    if (orderp[i] >= n || cp[i] >= n) throw codedError(env, "TS_ARG", "louvainMoveOrdered: order and comm hold vertex ids below n");
  const LvView g{n, offp, (const uint32_t*)adj.data, weighted ? (const double*)wt.data : nullptr, (const double*)k.data, nullptr};
  const LvMoved r = lvMoveOrdered(g, cp, (double*)tot.data, (uint32_t*)size.data, orderp, resolution, m2, maxSweeps, tol, (uint32_t)batchV, (uint64_t)batchE);
  Napi::Object o = Napi::Object::New(env);
  o.Set("sweeps", r.sweeps);
  o.Set("gain", r.gain);
  return o;
}

}  // namespace

void ExportLouvain(Napi::Object cpu) {
  cpu.Set("louvainAggregate", Napi::Function::New(cpu.Env(), LouvainAggregate, "louvainAggregate"));
  cpu.Set("louvainMoveOrdered", Napi::Function::New(cpu.Env(), LouvainMoveOrdered, "louvainMoveOrdered"));
}

}  // namespace addon
}  // namespace ts
