// Loop kernels: a program's whole phase in one call on the controller's thread (levels,
// pr_iterations and sssp_steps below).
//
// Kernel "levels": a claim traversal's levels in one call, for a GPU owning every vertex, or
// several owning every vertex together (src/programs/bfs/gpu.ts). Each level is a push or a pull
// chosen by Ligra's switch (Shun and Blelloch; Beamer's direction optimisation): pull when the
// frontier's vertices and out-edges exceed params.pullAbove. Run from JS, a level was a
// superstep: frames, a vote and five awaited controller calls, ~1 ms of host time a level against
// 0.06-2.6 ms of kernels (RMAT 24 on the H100 host). Here a level is the same device work
// (activePages, the kernel, flaggedDegrees, the frontier swap) with nothing between its launches
// and syncs but this thread.
//
// Request: levels.push / levels.pull (kernel names reading state roles depth, frontier, next and
// params.level, as bfs_push / bfs_pull do); setId / pages the push pages, levels.inSet /
// levels.inPages the pull pages. State roles: depth (i32: the claimed array, `unset` where
// unvisited), frontier and next (u8 flags: the frontier set, next clear), outDeg (u32 out-degrees);
// any other role is passed to both kernels (bc_forward / bc_forward_pull read sigma).
// Params: level (the frontier's), size and edges (its vertices and their out-edges), pullAbove,
// unset (default -1); with `source`, a fresh traversal: depth is set to `unset` but 0 at the
// source, the frontier to the source alone (level 0, size 1), next cleared, here (five calls from
// JS cost ~0.4 ms). A pull walks only pages with an unvisited vertex. Ends with an empty
// frontier: stats.levels levels run, stats.edges edges walked (a push its frontier's out-edges, a
// pull its pages'), stats.activated the vertices claimed, stats.directions a letter a level: T
// (top-down, push) or B (bottom-up, pull).
#include "controller_internal.h"

#include <array>
#include <cmath>
#include <limits>

namespace ts {

namespace {

/** A loop kernel's params.k, or `dflt`; TS_ARG naming the kernel `what` where neither is there. */
double paramOf(const RunRequest& rq, const char* what, const char* k, const double* dflt = nullptr) {
  auto it = rq.params.find(k);
  if (it != rq.params.end()) return it->second;
  if (dflt == nullptr) throw CodedError("TS_ARG", std::string(what) + ": params." + k + " is required");
  return *dflt;
}

/** A loop kernel's state.k (the state array's name); TS_ARG naming the kernel `what` where it is missing. */
const std::string& roleOf(const RunRequest& rq, const char* what, const char* k) {
  auto it = rq.state.find(k);
  if (it == rq.state.end()) throw CodedError("TS_ARG", std::string(what) + ": state." + k + " is required");
  return it->second;
}

/** One inner call's page-cache and copy counters added to its loop's total. */
void addCall(RunStats& total, const RunStats& st) {
  total.hits += st.hits, total.misses += st.misses, total.evictions += st.evictions;
  total.bytesCopied += st.bytesCopied, total.fileBytes += st.fileBytes, total.bufferHits += st.bufferHits;
  total.copyMs += st.copyMs, total.kernelMs += st.kernelMs;
  total.cacheSlots = st.cacheSlots, total.slotBytes = st.slotBytes;
}

}  // namespace

RunStats Controller::runLevels(const RunRequest& rq) {
  const auto wall0 = std::chrono::steady_clock::now();
  const LevelsSpec& L = rq.levels;
  if (L.push.empty() || L.pull.empty() || L.push == "levels" || L.pull == "levels")
    throw CodedError("TS_ARG", "levels: levels.push and levels.pull must name a push and a pull kernel");
  auto param = [&](const char* k, const double* dflt = nullptr) { return paramOf(rq, "levels", k, dflt); };
  auto role = [&](const char* k) -> const std::string& { return roleOf(rq, "levels", k); };
  const std::string &depth = role("depth"), &fr = role("frontier"), &nx = role("next"), &deg = role("outDeg");
  const double minusOne = -1;
  const double pullAbove = param("pullAbove"), unset = param("unset", &minusOne);
  double level = param("level"), size = param("size"), edges = param("edges");
  const size_t n = findState(state_, fr, "levels").n;
  if (rq.params.count("source") > 0) {
    const double s = param("source");
    if (!(s >= 0 && s < (double)n && s == (double)(uint32_t)s)) throw CodedError("TS_RANGE", "levels: params.source is not a vertex");
    const uint32_t src = (uint32_t)s;
    const int32_t zero = 0;
    const uint8_t one = 1;
    fillState(depth, unset);
    scatterState(depth, &src, &zero, SType::I32, 1);
    fillState(fr, 0);
    scatterState(fr, &src, &one, SType::U8, 1);
    fillState(nx, 0);
  }
  // Several GPUs owning every vertex together (rq.exchange): each walks its own pages (pushes
  // from its sources, pulls into its vertices) over a whole copy of the state, so that all of them
  // see the same frontier, depths and counts and take the same directions. With peer access each
  // claim goes into the peers' copies as well (depth and next flag: Claims; the arrays exchanged at
  // a first meeting) and a level ends with a meeting that sums the claims (meetLevel), no flags
  // copied. A peer past the meeting claims into this one's next flags of the following level at
  // once, so the array that becomes them (this level's frontier, which no peer reads) is cleared
  // before the meeting, not after. Without peer access each ORs the others' next flags into its
  // own at the level's end (exchangeLevel).
  const bool multi = rq.exchange.on();
  const bool direct = directTo(rq.exchange) && rq.exchange.peers.size() <= kMaxStorePeers;
  std::unique_ptr<HeldPeers> held;  // the peers this GPU claims into, held from a meeting to the next
  // Each GPU's frontier and next flags swap every level (takeState): the peers' next flags are
  // their first level's next at even steps and its frontier at odd ones, so the two Claims go up once.
  const Claims* dClaims = nullptr;
  uint32_t step = 0;  // the loop posts' steps: with peer access the first meeting, then one a level
  if (direct) {
    StateArr &nxa = findState(state_, nx, "levels"), &fra = findState(state_, fr, "levels"), &da = findState(state_, depth, "levels");
    PeerBuffers peers;  // each peer's frontier, next flags and depth at the first level
    held = std::make_unique<HeldPeers>();
    meetLevel(rq.exchange, step++, nxa, 0, {fra.dev, nxa.dev, da.dev}, &peers, *held);
    Claims claims[2] = {};
    for (int parity = 0; parity < 2; parity++) {
      claims[parity].n = (u32)peers.size();
      for (size_t i = 0; i < peers.size(); i++) claims[parity].depth[i] = (u32*)peers[i][2], claims[parity].next[i] = (u8*)peers[i][1 - parity];
    }
    dClaims = (const Claims*)scratch("@levels.claims", sizeof(claims));
    be_->h2d((void*)dClaims, claims, sizeof(claims), 0);
    be_->syncStream(0);
  }
  // The push pages' vertex ranges (the pages of a vertex longer than a page share one): counting
  // the next frontier's out-edges also marks the ranges holding a frontier vertex
  // (flaggedDegrees), so a push level needs no scan of its own (activePages read every page's
  // flags: 0.25-0.47 ms a push level on RMAT 25, H100s). Overlapping ranges: scans as before.
  std::vector<uint32_t> ranges;       // unique, ascending, two numbers each
  std::vector<uint32_t> rangeOf;      // each of rq.pages' range
  std::vector<uint8_t> marks;         // the ranges holding a vertex of the current frontier
  bool marked = false;
  {
    std::vector<std::array<uint32_t, 3>> rs;  // begin, end, position in rq.pages
    for (uint32_t i = 0; i < (uint32_t)rq.pages.size(); i++) {
      auto it = pages_.find(key(rq.setId, rq.pages[i]));
      if (it == pages_.end()) throw CodedError("TS_BAD_PAGE", "levels: page " + std::to_string(rq.pages[i]) + " of set " + std::to_string(rq.setId) + " is not registered");
      rs.push_back({it->second.spec.vBegin, std::min<uint32_t>(it->second.spec.vEnd, (uint32_t)n), i});
    }
    std::sort(rs.begin(), rs.end());
    rangeOf.assign(rq.pages.size(), 0);
    for (const auto& [b, e, i] : rs) {
      const bool same = !ranges.empty() && ranges[ranges.size() - 2] == b && ranges.back() == e;
      if (!same && !ranges.empty() && b < ranges.back()) {
        ranges.clear();
        break;
      }
      if (!same) ranges.push_back(b), ranges.push_back(e);
      rangeOf[i] = (uint32_t)(ranges.size() / 2 - 1);
    }
  }
  // A fresh traversal's frontier is the source: its range, known here.
  if (rq.params.count("source") > 0 && !ranges.empty()) {
    const uint32_t src = (uint32_t)param("source");
    marks.assign(ranges.size() / 2, 0);
    for (size_t r = 0; r < marks.size(); r++) marks[r] = ranges[2 * r] <= src && src < ranges[2 * r + 1];
    marked = true;
  }
  RunRequest k;
  k.state = {{"depth", depth}, {"frontier", fr}, {"next", nx}};
  // Other roles go to the kernels as they are (bc's forward levels: sigma, the path counts).
  for (const auto& [r, name] : rq.state)
    if (r != "outDeg" && k.state.emplace(r, name).second && multi)
      throw CodedError("TS_ARG", "levels on several GPUs exchanges depth and the flags only: state." + r + " would differ between them");
  RunStats total;
  total.kernel = rq.kernel;
  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); };
  for (; size > 0; level++) {
    const auto t0 = Clock::now();
    const bool pull = size + edges > pullAbove;
    k.kernel = pull ? L.pull : L.push;
    k.setId = pull ? L.inSet : rq.setId;
    // Pull: the pages with a vertex still unset; push: those with a frontier vertex.
    if (pull) {
      k.pages = activePages(L.inSet, L.inPages, depth, unset);
    } else if (marked) {
      k.pages.clear();
      for (size_t i = 0; i < rq.pages.size(); i++)
        if (marks[rangeOf[i]]) k.pages.push_back(rq.pages[i]);
    } else {
      k.pages = activePages(rq.setId, rq.pages, fr, 1);
    }
    k.params["level"] = level;
    if (direct) k.claims = dClaims + (total.levels % 2);
    const double pagesMs = since(t0);
    const auto t1 = Clock::now();
    uint64_t activated = 0;
    if (!k.pages.empty()) {
      const RunStats st = run(k);
      activated = st.activated;
      total.pages += st.pages;
      addCall(total, st);
    }
    if (!pull) total.edges += edges;
    else
      for (uint32_t p : k.pages) total.edges += pages_.at(key(k.setId, p)).spec.edges;
    total.activated += activated;
    total.levels++;
    total.directions += pull ? 'B' : 'T';
    const double callMs = since(t1);
    const auto x0 = Clock::now();
    if (multi) {
      StateArr &nxa = findState(state_, nx, "levels"), &fra = findState(state_, fr, "levels");
      if (direct) {
        be_->memset(fra.dev, 0, fra.bytes, 0);
        be_->syncStream(0);
        held = std::make_unique<HeldPeers>();
        total.peerBytes += activated * (sizeof(int32_t) + 1) * rq.exchange.peers.size();  // each claim's depth and flag, to every peer
        activated = meetLevel(rq.exchange, step++, nxa, activated, {}, nullptr, *held);
      } else {
        activated += exchangeLevel(rq.exchange, step++, nxa, findState(state_, depth, "levels"), (int32_t)(level + 1));
        total.peerBytes += n * rq.exchange.peers.size();
      }
    }
    const double meetMs = since(x0);
    if (multi) total.peerWaitMs += meetMs;
    const auto t3 = Clock::now();
    size = (double)activated;
    edges = activated > 0 ? flaggedDegrees(nx, deg, 0, n, ranges.empty() ? nullptr : &ranges, &marks) : 0;
    marked = activated > 0 && !ranges.empty();
    // The claimed vertices are the next frontier; next comes out clear (cleared already where peers claim into it).
    takeState(fr, nx, !direct);
    total.levelTimes.insert(total.levelTimes.end(), {pagesMs, callMs, meetMs, since(t3)});
  }
  total.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall0).count();
  return total;
}

// Kernel "pr_iterations": PageRank's fixed iterations in one call, for a GPU owning every vertex
// or several owning every vertex together (src/programs/pr/gpu.ts). Run from JS, an iteration
// was a superstep: frames, a vote and the handlers' calls on the main thread that the coordinator
// and every GPU actor share, ~1.2-1.6 ms a superstep against ~4 ms of kernels on each of two H200s
// at RMAT 25 (bench/results/h200-x2-2026-11-27-exchange). Here an iteration is pr_pull's device
// work and, on several GPUs, the exchange of the new contributions and dangling masses.
//
// Request: setId / pages the pull pages; params iterations, damping, n (the vertex count of the
// base), r0 (every rank before the first iteration), dangling (the dangling mass of r0), and
// applyBegin / applyEnd as pr_pull's, optional wholeRanks (several GPUs: 1 leaves every rank on
// each GPU); state contrib and nextContrib (two f64 arrays the
// iterations write in turn, nextContrib first), rank (f64: the last iteration's ranks), outDeg,
// and pr_pull's optional owned. Iteration i computes base = (1 - d) / n + d * dangling / n as
// the driver does (src/programs/pr/index.ts), so one call gives the ranks its supersteps give.
// stats.sum: the last iteration's dangling mass over the owned vertices; stats.levels the
// iterations run, stats.edges the edges they read.
RunStats Controller::runPrIterations(const RunRequest& rq) {
  const auto wall0 = std::chrono::steady_clock::now();
  auto param = [&](const char* k) { return paramOf(rq, "pr_iterations", k); };
  auto role = [&](const char* k) -> const std::string& { return roleOf(rq, "pr_iterations", k); };
  const double iterations = param("iterations"), d = param("damping"), nv = param("n"), r0 = param("r0");
  double dangling = param("dangling");
  if (!(iterations >= 0 && iterations == (double)(uint32_t)iterations)) throw CodedError("TS_RANGE", "pr_iterations: params.iterations must be a count");
  if (!(nv >= 1)) throw CodedError("TS_RANGE", "pr_iterations: params.n must be the vertex count");
  const std::string bufs[2] = {role("nextContrib"), role("contrib")};
  if (bufs[0] == bufs[1]) throw CodedError("TS_ARG", "pr_iterations: contrib and nextContrib must be two arrays");
  RunRequest k;
  k.kernel = "pr_pull";
  k.setId = rq.setId;
  for (const char* p : {"applyBegin", "applyEnd"})
    if (rq.params.count(p) > 0) k.params[p] = rq.params.at(p);
  k.params["d"] = d;
  k.state = {{"next", role("rank")}, {"outDeg", role("outDeg")}};
  if (rq.state.count("owned") > 0) k.state["owned"] = rq.state.at("owned");
  double pageEdges = 0;
  for (uint32_t p : rq.pages) {
    auto it = pages_.find(key(rq.setId, p));
    if (it != pages_.end()) pageEdges += it->second.spec.edges;
  }
  const bool multi = rq.exchange.on();
  // wholeRanks: several GPUs end with every rank on each (copied at a last meeting), so each reads
  // back an even share instead of its owned ranges (P leaves one GPU nearly every vertex, S each
  // many small ranges).
  const double zero = 0;
  const bool whole = multi && paramOf(rq, "pr_iterations", "wholeRanks", &zero) != 0;
  k.pages = rq.pages;
  StateArr* arr[3] = {&findState(state_, bufs[0], "pr_iterations"), &findState(state_, bufs[1], "pr_iterations"), &findState(state_, role("rank"), "pr_iterations")};
  if (multi && (arr[0]->type != SType::F64 || arr[1]->type != SType::F64 || arr[2]->type != SType::F64))
    throw CodedError("TS_TYPE", "pr_iterations on several GPUs: the contributions and ranks must be f64");
  const bool direct = directTo(rq.exchange);
  PeerBuffers peerBufs;  // each peer's arrays (contributions in turn, ranks), learnt at the first meeting
  std::unique_ptr<HeldPeers> held;  // the peers this GPU writes into, held from a meeting to the next
  RunStats total;
  total.kernel = rq.kernel;
  for (uint32_t it = 0; it < (uint32_t)iterations; it++) {
    k.params["base"] = (1 - d) / nv + (d * dangling) / nv;
    k.state["nextContrib"] = bufs[it % 2];
    if (it == 0) {
      k.params["r0"] = r0;
    } else {
      k.params.erase("r0");
      k.state["contrib"] = bufs[(it + 1) % 2];
    }
    // No peer reads the last iteration's contributions or mass (a hand-back takes each GPU's own
    // ranges; the engine sums the masses). With wholeRanks each copies the peers' owned ranks at a
    // last meeting (pulled, not pushed: a page straddling two GPUs' ranges has its kernel write the
    // peer's ranks too, so a push could land before that write).
    const bool last = it + 1 == (uint32_t)iterations;
    const bool meet = multi && (!last || whole);
    const int target = last ? 2 : (int)(it % 2);  // the array posted: contributions, last the ranks
    // From the second iteration on, each GPU writes its owned contributions into the peers' copies
    // of the iteration's array itself: with peer access, pr_pull's apply stores each one there as
    // it computes it (no copy after the kernels; GTS §4.1's peer copies, fused), else the owned
    // ranges are copied after them. The peer finished reading that array (its contributions of the
    // iteration before last) before the meeting that let this iteration start, and starts the
    // next only after this one's meeting post, made once its kernels (and copies) are done.
    const bool push = meet && !last && held != nullptr;
    k.remote.clear();
    if (push && direct)
      for (const auto& b : peerBufs) k.remote.push_back((double*)b[target]);
    double sum = 0;
    if (!k.pages.empty()) {
      const RunStats st = run(k);
      sum = st.sum;
      addCall(total, st);
    }
    if (push) {
      const auto x0 = std::chrono::steady_clock::now();
      for (size_t i = 0; i < rq.exchange.peers.size(); i++)
        for (const auto& [b, e] : rq.exchange.ranges) {
          if (e > arr[target]->n) throw CodedError("TS_RANGE", "pr_iterations: an owned range past the contributions");
          if (!direct) be_->peerCopyTo((double*)peerBufs[i][target] + b, rq.exchange.peers[i]->device_, (const double*)arr[target]->dev + b, (e - b) * sizeof(double), 0);
          total.peerBytes += (e - b) * sizeof(double);
        }
      be_->syncStream(0);
      total.peerWaitMs += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - x0).count();
    }
    held.reset();
    if (meet) {
      const auto x0 = std::chrono::steady_clock::now();
      held = std::make_unique<HeldPeers>();
      const double all = meetIteration(rq.exchange, it, *arr[target], {arr[0]->dev, arr[1]->dev, arr[2]->dev}, sum, !push, peerBufs, *held);
      if (!last) sum = all;
      total.peerWaitMs += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - x0).count();
      if (!push)
        for (const auto& [b, e] : rq.exchange.ranges) total.peerBytes += (e - b) * sizeof(double) * rq.exchange.peers.size();
    }
    dangling = sum;
    total.levels++;
    total.edges += pageEdges;
  }
  total.pages = (uint32_t)rq.pages.size();
  total.hasSum = true;
  total.sum = dangling;
  total.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall0).count();
  return total;
}

// Kernel "sssp_steps": delta-stepping in one call, for one GPU owning every vertex
// (src/programs/sssp/gpu.ts). Run from JS, each bucket step was a superstep whose improvements
// came back to the coordinator's lists and went up again as the next frontier. Here the buckets
// are a pending flag per vertex, as the CPU's dense way keeps them (sssp/delta.ts): a step
// selects the pending vertices below the bucket's end (KSsspSelect, which also merges the last
// push's improvements and finds the lowest distance left pending), pushes from them (sssp_push
// over the out-pages holding one) and repeats; an empty selection moves to the lowest pending
// bucket, none left ends the run.
//
// Request: setId / pages the push pages; params source and window (> 0, Infinity: Bellman-Ford);
// state roles dist (f64), frontier, next and pending (u8 flags of the vertex count), outDeg (u32
// out-degrees). dist is set here (Infinity, 0 at the source) and so are the flags. stats.levels:
// the push steps run; stats.edges: their frontiers' out-edges; stats.activated: the improvements.
RunStats Controller::runSsspSteps(const RunRequest& rq) {
  const auto wall0 = std::chrono::steady_clock::now();
  auto param = [&](const char* k) { return paramOf(rq, "sssp_steps", k); };
  auto role = [&](const char* k) -> const std::string& { return roleOf(rq, "sssp_steps", k); };
  const std::string &dist = role("dist"), &fr = role("frontier"), &nx = role("next"), &pend = role("pending"), &deg = role("outDeg");
  if (rq.exchange.on()) throw CodedError("TS_ARG", "sssp_steps runs on one GPU owning every vertex");
  const double w = param("window"), s = param("source");
  if (!(w > 0)) throw CodedError("TS_RANGE", "sssp_steps: params.window must be > 0");
  StateArr& d = findState(state_, dist, "sssp_steps");
  const size_t n = d.n;
  if (d.type != SType::F64) throw CodedError("TS_TYPE", "sssp_steps: dist must hold f64");
  StateArr* flags[3] = {&findState(state_, fr, "sssp_steps"), &findState(state_, nx, "sssp_steps"), &findState(state_, pend, "sssp_steps")};
  for (StateArr* f : flags)
    if (f->type != SType::U8 || f->n != n) throw CodedError("TS_TYPE", "sssp_steps: frontier, next and pending must be u8 flags of dist's length");
  StateArr& dg = findState(state_, deg, "sssp_steps");
  if (dg.type != SType::U32 || dg.n < n) throw CodedError("TS_TYPE", "sssp_steps: outDeg must hold a u32 per vertex");
  if (!(s >= 0 && s < (double)n && s == (double)(uint32_t)s)) throw CodedError("TS_RANGE", "sssp_steps: params.source is not a vertex");
  const uint32_t src = (uint32_t)s;
  const double zero = 0;
  const uint8_t one = 1;
  fillState(dist, std::numeric_limits<double>::infinity());
  scatterState(dist, &src, &zero, SType::F64, 1);
  fillState(fr, 0);
  fillState(nx, 0);
  fillState(pend, 0);
  scatterState(pend, &src, &one, SType::U8, 1);
  SelectOut* out = (SelectOut*)scratch("@sssp.select", sizeof(SelectOut));
  RunRequest k;
  k.kernel = "sssp_push";
  k.setId = rq.setId;
  k.state = {{"dist", dist}, {"frontier", fr}, {"next", nx}};
  RunStats total;
  total.kernel = rq.kernel;
  double bucket = 0, chosen = -std::numeric_limits<double>::infinity();  // chosen: the pending distance that chose the bucket
  for (;;) {
    // The bucket's end; with an infinite window every pending vertex (Bellman-Ford's frontier);
    // just above `chosen` where w is too small beside it for bucket + 1 to give another end (as
    // sssp/delta.ts bucketEnd).
    double bound = std::isinf(w) ? std::numeric_limits<double>::infinity() : (bucket + 1) * w;
    if (!(bound > chosen)) bound = std::nextafter(chosen, std::numeric_limits<double>::infinity());
    const SelectOut init{std::numeric_limits<double>::infinity(), 0, 0};
    be_->h2d(out, &init, sizeof init, 0);
    launch<KSsspSelect>(gridFor(n), kSsspSelectSmem, 0, SsspSelectArgs{(const double*)d.dev, (const u32*)dg.dev, (u8*)flags[2]->dev, (u8*)flags[1]->dev, (u8*)flags[0]->dev, (u32)n, bound, out});
    SelectOut got;
    be_->d2h(&got, out, sizeof got, 0);
    be_->syncStream(0);
    if (got.count == 0) {
      if (!(got.low < std::numeric_limits<double>::infinity())) break;
      bucket = std::floor(got.low / w);
      chosen = got.low;
      continue;
    }
    k.pages = activePages(rq.setId, rq.pages, fr, 1);
    if (!k.pages.empty()) {
      const RunStats st = run(k);
      total.activated += st.activated;
      total.pages += st.pages;
      addCall(total, st);
    }
    total.levels++;
    total.edges += got.edges;
  }
  total.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall0).count();
  return total;
}

}  // namespace ts
