// Per-kernel plans: a call's state roles bound and checked (role), and buildPlan's Plan (pre, per-page
// and post launches) for each kernel family: pr_pull, push (TWC), vertex-group pull, cdlp (lcc_tri: controller_tri.cpp, louvain_move: controller_louvain.cpp).
#include "controller_internal.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <unordered_map>

namespace ts {

namespace {
// pr_pull over more merged vertex ranges than this zeroes and finishes them in one launch each
// (KPrZero, KPrFinish) over chunks of at most kRangeChunk vertices.
constexpr size_t kFewRanges = 2;
constexpr uint32_t kRangeChunk = 1u << 15;
}  // namespace

StateArr* Controller::role(const RunRequest& rq, const std::string& r, std::initializer_list<SType> types, bool required) {
  auto m = rq.state.find(r);
  const std::string name = m != rq.state.end() ? m->second : r;
  auto it = state_.find(name);
  if (it == state_.end()) {
    if (!required && m == rq.state.end()) return nullptr;
    throw CodedError("TS_NO_STATE", rq.kernel + ": state '" + r + "' -> no array named '" + name + "' (allocState it first)");
  }
  bool ok = false;
  std::string list;
  for (SType t : types) {
    ok = ok || it->second.type == t;
    list += std::string(list.empty() ? "" : "/") + stypeName(t);
  }
  // an optional role binds to the array of its own name only when the type fits
  if (!ok && !required && m == rq.state.end()) return nullptr;
  if (!ok)
    throw CodedError("TS_TYPE", rq.kernel + ": state '" + r + "' ('" + name + "') must be " + list + ", it is " +
                                    stypeName(it->second.type));
  return &it->second;
}

// ---- kernels --------------------------------------------------------------------------------

template <class Op>
void Controller::pushPage(PushArgs a, const PageDev& pd, int s, uint8_t* twc, size_t per) {
  a.pg = pd;
  a.lists.mid = (uint32_t*)(twc + per * s);
  a.lists.big = (uint32_t*)(twc + per * s + per / 2);
  a.lists.counts = (uint32_t*)scratch_["ctr"].p + 4 + 4 * s;
  be_->memset(a.lists.counts, 0, 16, s);
  launch<KTwcBin<Op>>(gridFor(pd.nv), 0, s, a);
  const uint32_t maxMid = std::min(pd.nv, pd.edges / kTwcSmall);
  if (maxMid > 0) launch<KTwcWarp<Op>>(std::min<uint32_t>((maxMid + 7) / 8, 2048), 0, s, a);
  if (const uint32_t grid = twcBlockGrid(pd)) launch<KTwcBlock<Op>>(grid, 0, s, a);
}

template <class Op>
void Controller::pullPage(PullArgs a, const PageDev& pd, int s) {
  a.pg = pd;
  a.G = groupSize(pd);
  const uint32_t per = kBlock / a.G;
  launch<KGroupPull<Op>>((pd.nv + per - 1) / per, kGroupPullSmem, s, a);
}

std::map<uint32_t, std::vector<HostPage*>> Controller::splitGroups(const RunRequest& rq, const std::vector<HostPage*>& pages, const char* why) {
  std::map<uint32_t, std::vector<HostPage*>> groups;
  for (auto* hp : pages)
    if (isSplit(*hp)) groups[hp->spec.vBegin].push_back(hp);
  if (groups.empty()) return groups;
  std::map<uint32_t, size_t> registered;
  for (auto& kv : pages_)
    if (kv.second.spec.setId == rq.setId && groups.count(kv.second.spec.vBegin) && isSplit(kv.second)) registered[kv.second.spec.vBegin]++;
  for (auto& g : groups) {
    if (registered[g.first] != g.second.size())
      throw CodedError("TS_ARG", rq.kernel + ": vertex " + std::to_string(g.first) + " spans " + std::to_string(registered[g.first]) +
                                     " split pages but the call names " + std::to_string(g.second.size()) + " of them; " + why);
    std::sort(g.second.begin(), g.second.end(), [](HostPage* x, HostPage* y) { return x->spec.index < y->spec.index; });
  }
  return groups;
}

void Controller::buildPlan(const RunRequest& rq, std::vector<HostPage*>& pages, Plan& pl) {
  const std::string& k = rq.kernel;
  if (k.rfind("user:", 0) == 0) return buildUserPlan(rq, pages, pl);
  if (k == "lcc_tri") return buildTriPlan(rq, pl);
  if (k == "louvain_move") return buildLouvainPlan(rq, pl);
  if (k == "wcc_afforest") return buildAffPlan(rq, pages, pl);
  auto param = [&](const char* name, double dflt) {
    auto it = rq.params.find(name);
    return it == rq.params.end() ? dflt : it->second;
  };
  auto need = [&](const char* name) {
    auto it = rq.params.find(name);
    if (it == rq.params.end()) throw CodedError("TS_ARG", k + ": params." + name + " is required");
    return it->second;
  };
  uint32_t maxNv = 1, maxE = 1;
  for (auto* hp : pages) {
    maxNv = std::max(maxNv, hp->nv());
    maxE = std::max(maxE, hp->spec.edges);
  }
  uint32_t* ctr = (uint32_t*)scratch("ctr", 4 * (4 + 4 * (size_t)nstreams_));
  if (k == "touch") {
    const TouchArgs t{PageDev{}, (u32*)scratch("touch.sink", 4), 1, 0xffffffffu};
    pl.batch = [this, t](const PageDev* pds, uint32_t n, int s) { launchPages<KTouch>(t, pds, n, s, 0, [](const PageDev& pd) { return groupSize(pd); }); };
    pl.page = [batch = pl.batch](HostPage&, const PageDev& pd, int s) { batch(&pd, 1, s); };
    return;
  }
  // vertex ranges must lie inside targets, neighbour ids inside sources
  auto checkTarget = [&](StateArr* a, const char* r) {
    if (!a) return;
    for (auto* hp : pages)
      if (hp->spec.vEnd > a->n)
        throw CodedError("TS_RANGE", k + ": page " + std::to_string(hp->spec.index) + " holds vertices up to " +
                                         std::to_string(hp->spec.vEnd - 1) + " but state '" + r + "' has length " +
                                         std::to_string(a->n));
  };
  auto checkSource = [&](StateArr* a, const char* r) {
    if (!a) return;
    for (auto* hp : pages)
      if (hp->anyNbr && hp->maxNbr >= a->n)
        throw CodedError("TS_RANGE", k + ": page " + std::to_string(hp->spec.index) + " has neighbour id " +
                                         std::to_string(hp->maxNbr) + " but state '" + r + "' has length " + std::to_string(a->n));
  };
  auto checkBoth = [&](StateArr* a, const char* r) {
    checkTarget(a, r);
    checkSource(a, r);
  };
  // frontier: bitmap (u32 words) or bytes (u8), or a list scattered into a bitmap
  auto frontier = [&](uint32_t n, bool required) {
    Frontier f{nullptr, nullptr};
    StateArr* fl = role(rq, "frontierList", {SType::U32}, false);
    StateArr* fr = role(rq, "frontier", {SType::U32, SType::U8}, required && !fl);
    if (fl) {
      const uint32_t count = (uint32_t)param("frontierSize", (double)fl->n);
      if (count > fl->n) throw CodedError("TS_RANGE", k + ": params.frontierSize exceeds the frontierList length");
      const size_t words = (n + 31) / 32;
      uint32_t* bits = (uint32_t*)scratch("frontierBits", words * 4);
      const uint32_t* list = (const uint32_t*)fl->dev;
      pl.pre = [this, bits, words, list, count, prev = pl.pre] {
        if (prev) prev();
        be_->memset(bits, 0, words * 4, 0);
        launch<KScatter>(gridFor(count), 0, 0, ScatterArgs{list, count, bits, nullptr});
      };
      f.bits = bits;
    } else if (fr) {
      if (fr->type == SType::U8) {
        if (fr->n < n) throw CodedError("TS_RANGE", k + ": frontier bytes are shorter than the vertex state (" + std::to_string(n) + ")");
        f.bytes = (const uint8_t*)fr->dev;
      } else {
        if (fr->n * 32 < n) throw CodedError("TS_RANGE", k + ": frontier bitmap has " + std::to_string(fr->n) + " words, " + std::to_string(n) + " vertices need " + std::to_string((n + 31) / 32));
        f.bits = (const uint32_t*)fr->dev;
      }
    }
    return f;
  };
  auto next = [&](uint32_t n) {
    NextSet s{nullptr, nullptr, ctr};
    StateArr* nx = role(rq, "next", {SType::U32, SType::U8}, false);
    if (nx) {
      if (nx->type == SType::U8) {
        if (nx->n < n) throw CodedError("TS_RANGE", k + ": next bytes are shorter than the vertex state");
        s.bytes = (uint8_t*)nx->dev;
      } else {
        if (nx->n * 32 < n) throw CodedError("TS_RANGE", k + ": next bitmap has too few words for " + std::to_string(n) + " vertices");
        s.bits = (uint32_t*)nx->dev;
      }
    }
    return s;
  };
  // Owned vertices: params ownedBegin/ownedEnd (one range), or state role `owned` (a u8 byte map,
  // for an owner of several ranges); updates to any other vertex go to the outbox.
  auto outbox = [&](uint32_t n, uint32_t op) {
    StateArr* om = role(rq, "owned", {SType::U8}, false);
    if (om && om->n < n) throw CodedError("TS_RANGE", k + ": the owned byte map is shorter than the vertex state (" + std::to_string(n) + ")");
    if (om && (rq.params.count("ownedBegin") || rq.params.count("ownedEnd")))
      throw CodedError("TS_ARG", k + ": name the owned vertices by params.ownedBegin/ownedEnd or by state.owned, not both");
    const double b = om ? 0 : param("ownedBegin", 0), e = om ? 0 : param("ownedEnd", (double)n);
    if (!om && b <= 0 && e >= n) return Outbox{nullptr, nullptr, nullptr, nullptr, 0, 0, kReduceNone, nullptr, nullptr};
    if (b < 0 || e < b) throw CodedError("TS_ARG", k + ": params.ownedBegin/ownedEnd must satisfy 0 <= begin <= end");
    const size_t words = (n + 31) / 32;
    bool f1 = false, f2 = false;
    double* val = (double*)scratch("outbox.val", (size_t)n * 8, &f1);
    uint32_t* flag = (uint32_t*)scratch("outbox.flag", words * 4, &f2);
    uint32_t* ids = (uint32_t*)scratch("outbox.ids", (size_t)n * 4);
    scratch("outbox.out", (size_t)n * 8);
    const double ident = op == kReduceMin ? INFINITY : 0.0;
    if (f1 || f2 || outboxN_ < n || outboxOp_ != op) {
      launch<KFill>(gridFor(n), 0, 0, FillArgs{val, 0, n, kTypeF64, ident});
      be_->memset(flag, 0, words * 4, 0);
      outboxN_ = n;
      outboxOp_ = op;
    }
    pl.outbox = true;
    pl.obIdentity = ident;
    pl.ob = Outbox{val, flag, ids, ctr + 1, (uint32_t)b, (uint32_t)std::min<double>(e, 4294967295.0), op, ctr + 2, om ? (const u8*)om->dev : nullptr};
    return pl.ob;
  };
  // TWC lists per stream: [mid | big], each maxNv u32
  const size_t twcPer = align256((size_t)maxNv * 4) * 2;
  auto twcScratch = [&] { return (uint8_t*)scratch("twc", (size_t)nstreams_ * twcPer); };

  if (k == "pr_pull") {
    // PageRank's first iteration (param r0, every rank r0): no contrib; each edge's contribution
    // is r0 / outDeg[src] (KPrPull0), outDeg named for the apply below.
    const bool first = rq.params.count("r0") != 0;
    StateArr* contrib = first ? nullptr : role(rq, "contrib", {SType::F64}, true);
    StateArr* nxt = role(rq, "next", {SType::F64}, true);
    checkSource(contrib, "contrib");
    checkTarget(nxt, "next");
    const double base = param("base", 0), d = param("d", 1), r0 = param("r0", 0);
    // merged vertex ranges of the call's pages: zeroed before, base + d * sum after
    std::vector<std::pair<uint32_t, uint32_t>> ranges;
    for (auto* hp : pages) ranges.push_back({hp->spec.vBegin, hp->spec.vEnd});
    std::sort(ranges.begin(), ranges.end());
    std::vector<std::pair<uint32_t, uint32_t>> merged;
    for (auto& r : ranges) {
      if (!merged.empty() && r.first <= merged.back().second)
        merged.back().second = std::max(merged.back().second, r.second);
      else
        merged.push_back(r);
    }
    double* out = (double*)nxt->dev;
    const double* cb = contrib ? (const double*)contrib->dev : nullptr;
    // Optional vertex apply (the CPU kernel's next contribution and dangling mass) over the
    // merged ranges clipped to [applyBegin, applyEnd).
    StateArr* deg = role(rq, "outDeg", {SType::U32}, first);
    StateArr* nc = role(rq, "nextContrib", {SType::F64}, false);
    if ((deg == nullptr) != (nc == nullptr)) throw CodedError("TS_ARG", "pr_pull: name both outDeg and nextContrib for the vertex apply, or neither");
    checkTarget(deg, "outDeg");
    if (first) checkSource(deg, "outDeg");
    checkTarget(nc, "nextContrib");
    pl.pre = [this, merged, out] {
      for (auto& r : merged) be_->memset(out + r.first, 0, (size_t)(r.second - r.first) * 8, 0);
    };
    const uint32_t* dg = deg ? (const uint32_t*)deg->dev : nullptr;
    pl.page = [this, cb, out, first, dg, r0](HostPage&, const PageDev& pd, int s) {
      if (first)
        launch<KPrPull0>(pd.ntiles, kPrPullSmem, s, PrPullArgs{pd, nullptr, out, dg, r0});
      else
        launch<KPrPull>(pd.ntiles, kPrPullSmem, s, PrPullArgs{pd, cb, out, nullptr, 0});
    };
    double* dangling = nullptr;
    if (deg) {
      dangling = (double*)scratch("pr.dangling", 8);
      pl.pre = [this, merged, out, dangling] {
        be_->memset(dangling, 0, 8, 0);
        for (auto& r : merged) be_->memset(out + r.first, 0, (size_t)(r.second - r.first) * 8, 0);
      };
      pl.finish = [this, dangling](RunStats& st) {
        be_->d2h(&st.sum, dangling, 8, 0);
        be_->syncStream(0);
        st.hasSum = true;
      };
    }
    const double ab = param("applyBegin", 0), ae = param("applyEnd", 4294967295.0);
    // ...and, with state role `owned` (a u8 byte map), to the vertices whose byte is set: a GPU
    // actor owning several ranges applies its own vertices of the pages in one call.
    StateArr* om = role(rq, "owned", {SType::U8}, false);
    if (om && !deg) throw CodedError("TS_ARG", "pr_pull: state.owned restricts the vertex apply: name outDeg and nextContrib too");
    checkTarget(om, "owned");
    const u8* mask = om ? (const u8*)om->dev : nullptr;
    double* ncp = nc ? (double*)nc->dev : nullptr;
    if (!rq.remote.empty() && (!deg || rq.remote.size() > kMaxStorePeers)) throw CodedError("TS_ARG", "pr_pull: peers' arrays need the vertex apply (outDeg, nextContrib), at most " + std::to_string(kMaxStorePeers));
    if (merged.size() > kFewRanges || !rq.remote.empty()) {
      // Many ranges (dealt pages), or peers' arrays to write: the zeroing and the finish as one
      // launch each over chunks.
      std::vector<u32> chunks;
      for (auto& r : merged)
        for (u32 x = r.first; x < r.second; x += kRangeChunk) chunks.push_back(x), chunks.push_back(std::min<u32>(r.second, x + kRangeChunk));
      u32* dc = (u32*)scratch("pr.chunks", chunks.size() * 4);
      PrRangesArgs ra{out, ncp, dg, dangling, dc, mask, base, d, (u32)std::max<double>(ab, 0), (u32)std::min<double>(ae, 4294967295.0), (u32)!(base == 0 && d == 1), (u32)rq.remote.size(), {}};
      for (size_t q = 0; q < rq.remote.size(); q++) ra.remote[q] = rq.remote[q];
      const u32 nb = (u32)(chunks.size() / 2);
      pl.pre = [this, chunks, dc, dangling, ra, nb] {
        be_->h2d(dc, chunks.data(), chunks.size() * 4, 0);
        if (dangling) be_->memset(dangling, 0, 8, 0);
        launch<KPrZero>(nb, 0, 0, ra);
      };
      pl.post = [this, ra, nb] {
        if (ra.axpb != 0 || ra.deg != nullptr) launch<KPrFinish>(nb, kPrApplySmem, 0, ra);
      };
      return;
    }
    pl.post = [this, merged, out, base, d, dg, ncp, dangling, ab, ae, mask] {
      if (!(base == 0 && d == 1))
        for (auto& r : merged) launch<KAxpb>(gridFor(r.second - r.first), 0, 0, AxpbArgs{out, r.first, r.second, base, d});
      if (!dg) return;
      for (auto& r : merged) {
        const uint32_t b = (uint32_t)std::max<double>(r.first, ab), e = (uint32_t)std::min<double>(r.second, ae);
        if (e > b) launch<KPrApply>(gridFor(e - b), kPrApplySmem, 0, PrApplyArgs{out, ncp, dg, dangling, b, e, mask});
      }
    };
    return;
  }

  if (k == "bfs_push" || k == "sssp_push" || k == "wcc_push" || k == "pr_push" || k == "bc_forward") {
    PushArgs a{};
    uint32_t n = 0;
    uint32_t op = kReduceMin;
    if (k == "bfs_push" || k == "bc_forward") {
      StateArr* depth = role(rq, "depth", {SType::U32, SType::I32}, true);
      checkBoth(depth, "depth");
      a.s0 = depth->dev;
      n = (uint32_t)depth->n;
      a.level = (uint32_t)need("level");
      if (k == "bfs_push") a.claims = (const Claims*)rq.claims;
      if (k == "bc_forward") {
        StateArr* sigma = role(rq, "sigma", {SType::F64}, true);
        checkBoth(sigma, "sigma");
        a.s1 = sigma->dev;
      }
    } else if (k == "sssp_push") {
      StateArr* dist = role(rq, "dist", {SType::F64}, true);
      checkBoth(dist, "dist");
      a.s0 = dist->dev;
      n = (uint32_t)dist->n;
    } else if (k == "wcc_push") {
      StateArr* label = role(rq, "label", {SType::U32, SType::I32}, true);
      checkBoth(label, "label");
      a.s0 = label->dev;
      n = (uint32_t)label->n;
    } else {
      StateArr* contrib = role(rq, "contrib", {SType::F64}, true);
      StateArr* acc = role(rq, "next", {SType::F64}, true);
      checkTarget(contrib, "contrib");
      checkSource(acc, "next");
      a.s0 = contrib->dev;
      a.s1 = acc->dev;
      n = (uint32_t)acc->n;
      op = kReduceSum;
    }
    const bool frontierRequired = k == "bfs_push" || k == "sssp_push" || k == "bc_forward";
    a.fr = frontier(n, frontierRequired);
    if (k != "pr_push") a.next = next(n);
    a.ob = outbox(n, op);
    if (k == "bc_forward" && a.ob.op != kReduceNone)
      throw CodedError("TS_ARG", "bc_forward: an outbox (ownedBegin/ownedEnd) is not supported: the forward pass updates depth and sigma together");
    uint8_t* twc = twcScratch();
    pl.page = [this, a, k, twc, twcPer](HostPage&, const PageDev& pd, int s) {
      if (k == "bfs_push") pushPage<BfsPushOp>(a, pd, s, twc, twcPer);
      else if (k == "sssp_push") pushPage<SsspPushOp>(a, pd, s, twc, twcPer);
      else if (k == "wcc_push") pushPage<WccPushOp>(a, pd, s, twc, twcPer);
      else if (k == "pr_push") pushPage<PrPushOp>(a, pd, s, twc, twcPer);
      else pushPage<BcForwardOp>(a, pd, s, twc, twcPer);
    };
    return;
  }

  if (k == "bfs_pull" || k == "wcc_pull" || k == "bc_backward" || k == "bc_forward_pull") {
    PullArgs a{};
    if (k == "bfs_pull" || k == "bc_forward_pull") {
      // A level's claims by depth; bc's forward pull also sums the path counts (sigma).
      StateArr* depth = role(rq, "depth", {SType::U32, SType::I32}, true);
      StateArr* sigma = k == "bc_forward_pull" ? role(rq, "sigma", {SType::F64}, true) : nullptr;
      checkBoth(depth, "depth");
      a.s0 = depth->dev;
      if (sigma != nullptr) {
        checkBoth(sigma, "sigma");
        a.s1 = sigma->dev;
      } else {
        a.claims = (const Claims*)rq.claims;
      }
      a.level = (uint32_t)need("level");
      a.fr = frontier((uint32_t)depth->n, true);
      a.next = next((uint32_t)depth->n);
    } else if (k == "wcc_pull") {
      StateArr* label = role(rq, "label", {SType::U32, SType::I32}, true);
      checkBoth(label, "label");
      a.s0 = label->dev;
      a.next = next((uint32_t)label->n);
    } else {
      StateArr* depth = role(rq, "depth", {SType::U32, SType::I32}, true);
      StateArr* sigma = role(rq, "sigma", {SType::F64}, true);
      StateArr* delta = role(rq, "delta", {SType::F64}, true);
      StateArr* bc = role(rq, "bc", {SType::F64}, false);
      checkBoth(depth, "depth");
      checkBoth(sigma, "sigma");
      checkBoth(delta, "delta");
      checkTarget(bc, "bc");
      a.s0 = depth->dev;
      a.s1 = sigma->dev;
      a.s2 = delta->dev;
      a.s3 = bc ? bc->dev : nullptr;
      a.level = (uint32_t)need("level");
      a.source = (uint32_t)param("source", 4294967295.0);
      a.next = NextSet{nullptr, nullptr, ctr};
    }
    pl.page = [this, a, k](HostPage&, const PageDev& pd, int s) {
      if (k == "bfs_pull") pullPage<BfsPullOp>(a, pd, s);
      else if (k == "wcc_pull") pullPage<WccPullOp>(a, pd, s);
      else if (k == "bc_forward_pull") pullPage<BcForwardPullOp>(a, pd, s);
      else pullPage<BcBackwardOp>(a, pd, s);
    };
    pl.batch = [this, a, k](const PageDev* pds, uint32_t n, int s) {
      if (k == "bfs_pull") launchPages<KPullBfs>(a, pds, n, s, kGroupPullSmem, groupSize);
      else if (k == "wcc_pull") launchPages<KPullWcc>(a, pds, n, s, kGroupPullSmem, groupSize);
      else if (k == "bc_forward_pull") launchPages<KPullBcFwd>(a, pds, n, s, kGroupPullSmem, groupSize);
      else launchPages<KPullBc>(a, pds, n, s, kGroupPullSmem, groupSize);
    };
    return;
  }

  if (k == "cdlp_pull") {
    StateArr* label = role(rq, "label", {SType::U32, SType::I32}, true);
    StateArr* nxt = role(rq, "next", {SType::U32, SType::I32}, true);
    checkSource(label, "label");
    checkTarget(label, "label");
    checkTarget(nxt, "next");
    if (label == nxt) throw CodedError("TS_ARG", "cdlp_pull: label and next must be different arrays (synchronous update)");
    const uint32_t* lab = (const uint32_t*)label->dev;
    uint32_t* out = (uint32_t*)nxt->dev;
    // per stream: keys, alt (maxE each) and sort temporaries
    const size_t tmp = align256(be_->sortTempBytes(maxE, maxNv));
    const size_t per = align256((size_t)maxE * 4) * 2 + tmp;
    uint8_t* cs = (uint8_t*)scratch("cdlp", per * nstreams_);
    // split vertices: every page of the vertex must be in this call; their keys go to one buffer
    auto splitPages = splitGroups(rq, pages, "the most frequent label needs all of a vertex's pages in one call");
    std::unordered_map<int64_t, size_t> pos;  // page key -> position in split keys
    size_t total = 0;
    pl.keep32.clear();
    pl.keep32b.clear();
    if (!splitPages.empty()) {
      for (auto& sv : splitPages) {
        pl.keep32.push_back((uint32_t)total);
        pl.keep32b.push_back(sv.first);
        for (auto* hp : sv.second) {
          pos[key(hp->spec.setId, hp->spec.index)] = total;
          total += hp->spec.edges;
        }
      }
      pl.keep32.push_back((uint32_t)total);
    }
    uint8_t* ss = nullptr;
    size_t stmp = 0;
    const uint32_t nsplit = (uint32_t)pl.keep32b.size();
    if (nsplit > 0) {
      stmp = align256(be_->sortTempBytes(total, nsplit));
      ss = (uint8_t*)scratch("cdlp.split", align256(total * 4) * 2 + stmp + align256(((size_t)nsplit + 1) * 4) + align256((size_t)nsplit * 4));
    }
    pl.page = [this, cs, per, lab, out, ss, pos](HostPage& hp, const PageDev& pd, int s) {
      if (pd.split) {
        uint32_t* keys = (uint32_t*)ss + pos.at(key(hp.spec.setId, hp.spec.index));
        launch<KCdlpGather>(gridFor(pd.edges), 0, s, CdlpGatherArgs{pd, lab, keys});
        return;
      }
      uint8_t* mine = cs + per * s;
      uint32_t* keys = (uint32_t*)mine;
      uint32_t* alt = (uint32_t*)(mine + align256((size_t)pd.edges * 4));
      void* temp = mine + 2 * align256((size_t)pd.edges * 4);
      const size_t tempBytes = per - 2 * align256((size_t)pd.edges * 4);
      launch<KCdlpGather>(gridFor(pd.edges), 0, s, CdlpGatherArgs{pd, lab, keys});
      uint32_t* sorted = be_->sortSegments(keys, alt, pd.edges, pd.off, pd.nv, temp, tempBytes, s);
      const uint32_t G = groupSize(pd);
      CdlpModeArgs m{pd.off, sorted, nullptr, lab, out, pd.nv, G, pd.vBegin, 0};
      launch<KCdlpMode>((pd.nv + (kBlock / G) - 1) / (kBlock / G), kCdlpModeSmem, s, m);
    };
    if (nsplit > 0) {
      pl.post = [this, ss, total, stmp, nsplit, lab, out, &pl] {
        uint32_t* keys = (uint32_t*)ss;
        uint32_t* alt = (uint32_t*)(ss + align256(total * 4));
        uint8_t* temp = ss + 2 * align256(total * 4);
        uint32_t* segOff = (uint32_t*)(temp + stmp);
        uint32_t* vids = (uint32_t*)((uint8_t*)segOff + align256(((size_t)nsplit + 1) * 4));
        be_->h2d(segOff, pl.keep32.data(), pl.keep32.size() * 4, 0);
        be_->h2d(vids, pl.keep32b.data(), pl.keep32b.size() * 4, 0);
        uint32_t* sorted = be_->sortSegments(keys, alt, total, segOff, nsplit, temp, stmp, 0);
        CdlpModeArgs m{segOff, sorted, vids, lab, out, nsplit, kBlock, 0, 0};
        launch<KCdlpMode>(nsplit, kCdlpModeSmem, 0, m);
      };
    }
    return;
  }

  throw CodedError("TS_KERNEL", "unknown kernel '" + k +
                                    "': one of pr_pull, pr_push, bfs_push, bfs_pull, sssp_push, wcc_pull, wcc_push, cdlp_pull, "
                                    "bc_forward, bc_forward_pull, bc_backward, lcc_tri, louvain_move, wcc_afforest, levels, pr_iterations, sssp_steps, aff_merge, touch");
}

}  // namespace ts
