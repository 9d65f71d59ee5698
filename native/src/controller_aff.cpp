// wcc_afforest's plan: Afforest (kernels_aff.h) in three calls a GPU owning every vertex makes
// (src/programs/wcc/gpu.ts). State roles: comp (u32/i32, n: the forest, device scratch the host
// never reads); phase 2 also label (u32, n) and orig (u32, n: each vertex's original id). Params:
//   phase 0 (pages): comp reset, each vertex links its first `rounds` neighbours, compression;
//   phase 1 (pages): the vertices outside the sampled biggest component (params.skip, else the
//     most frequent root of 1024 samples, returned as stats.sum) link their neighbours from the
//     `from`-th on (a directed graph calls it again over its in-pages, from 0, with that skip);
//   phase 2 (no pages): compression, then label[v] = the smallest orig of v's tree.
// Kernel "aff_merge" (runAffMerge): several GPUs owning every vertex together each run the phases
// over their own pages and merge their forests after phases 0 and 1.
#include "controller_internal.h"

#include <unordered_map>

namespace ts {

void Controller::buildAffPlan(const RunRequest& rq, std::vector<HostPage*>& pages, Plan& pl) {
  const std::string& k = rq.kernel;
  scratch("ctr", 4 * (4 + 4 * (size_t)nstreams_));  // run() clears the counters of every call
  auto param = [&](const char* name) -> const double* {
    auto it = rq.params.find(name);
    return it == rq.params.end() ? nullptr : &it->second;
  };
  const double* phaseP = param("phase");
  if (!phaseP || (*phaseP != 0 && *phaseP != 1 && *phaseP != 2)) throw CodedError("TS_ARG", k + ": params.phase must be 0, 1 or 2");
  const int phase = (int)*phaseP;
  StateArr* comp = role(rq, "comp", {SType::U32, SType::I32}, true);
  const uint32_t n = (uint32_t)comp->n;
  u32* cp = (u32*)comp->dev;
  for (auto* hp : pages) {
    if (hp->spec.vEnd > n || (hp->anyNbr && hp->maxNbr >= n))
      throw CodedError("TS_RANGE", k + ": page " + std::to_string(hp->spec.index) + " reaches past comp's " + std::to_string(n) + " entries");
  }
  auto vertexPass = [this, cp, n](int mode, u32* label, const u32* orig) {
    launch<KAffVertex>(gridFor(n), 0, 0, AffVertexArgs{cp, label, orig, nullptr, nullptr, n, (u32)mode});
  };
  if (phase == 2) {
    if (!pages.empty()) throw CodedError("TS_ARG", k + ": phase 2 reads no pages");
    StateArr* label = role(rq, "label", {SType::U32}, true);
    StateArr* orig = role(rq, "orig", {SType::U32}, true);
    if (label->n < n || orig->n < n) throw CodedError("TS_RANGE", k + ": label and orig need comp's " + std::to_string(n) + " entries");
    u32* lp = (u32*)label->dev;
    const u32* op = (const u32*)orig->dev;
    pl.pre = [vertexPass, lp, op] {
      vertexPass(3, lp, op);
      vertexPass(2, lp, op);
      vertexPass(4, lp, op);
    };
    return;
  }
  const double* rounds = param(phase == 0 ? "rounds" : "from");
  if (!rounds || *rounds < 0 || *rounds > 4294967295.0) throw CodedError("TS_ARG", k + std::string(": params.") + (phase == 0 ? "rounds" : "from") + " (a count of edges) is required");
  AffLinkArgs a{};
  a.comp = cp;
  if (phase == 0) {
    a.first = 0;
    a.last = (u32)*rounds;
    pl.pre = [vertexPass] { vertexPass(0, nullptr, nullptr); };
    pl.post = [vertexPass] { vertexPass(1, nullptr, nullptr); };
  } else {
    a.first = (u32)*rounds;
    a.last = 0xffffffffu;
    a.useSkip = 1;
    auto skip = std::make_shared<uint32_t>(0);
    pl.keep = {skip};
    if (const double* s = param("skip")) {
      *skip = (uint32_t)*s;
    } else {
      // GAPBS SampleFrequentElement: the most frequent root among 1024 vertices (xorshift32 from
      // a fixed seed: the sample only steers the work, never the labels).
      constexpr uint32_t kSamples = 1024;
      u32* idx = (u32*)scratch("aff.idx", kSamples * 8);
      pl.pre = [this, idx, cp, n, skip] {
        std::vector<uint32_t> at(kSamples), got(kSamples);
        uint32_t x = 0x9e3779b9u;
        for (auto& v : at) {
          x ^= x << 13;
          x ^= x >> 17;
          x ^= x << 5;
          v = x % n;
        }
        be_->h2d(idx, at.data(), kSamples * 4, 0);
        launch<KAffVertex>(gridFor(kSamples), 0, 0, AffVertexArgs{cp, nullptr, nullptr, idx, idx + kSamples, kSamples, 5});
        be_->d2h(got.data(), idx + kSamples, kSamples * 4, 0);
        be_->syncStream(0);
        std::unordered_map<uint32_t, uint32_t> counts;
        uint32_t most = 0;
        for (uint32_t c : got)
          if (++counts[c] > most) most = counts[c], *skip = c;
      };
    }
    pl.finish = [skip](RunStats& st) {
      st.sum = (double)*skip;
      st.hasSum = true;
    };
  }
  // pre (the sampling, synchronous) has set the skip by the time run() launches the pages.
  // Sampling reads a few edges a vertex: a thread each; the final pass the page's group size.
  auto skip = pl.keep.empty() ? nullptr : std::static_pointer_cast<uint32_t>(pl.keep[0]);
  pl.batch = [this, a, skip, sample = phase == 0](const PageDev* pds, uint32_t n, int s) {
    AffLinkArgs b = a;
    if (skip) b.skip = *skip;
    launchPages<KAffLink>(b, pds, n, s, 0, [sample](const PageDev& pd) { return sample ? 1u : groupSize(pd); });
  };
  // A page loaded in this call (the cache streams): a batch of one.
  pl.page = [batch = pl.batch](HostPage&, const PageDev& pd, int s) { batch(&pd, 1, s); };
}

// Kernel "aff_merge": Afforest on several GPUs owning every vertex together (src/programs/wcc/
// gpu.ts). Each runs phases 0 and 1 over its own pages, so its forest `comp` holds only its edges;
// after each phase every member posts its compressed forest (params.step), copies each peer's
// into scratch, waits until every peer has copied its own (step + 1: no forest changes while a
// peer reads it), then links every vertex with its root in each copy (KAffMerge) and compresses.
// The union of the same edges gives every member the same array, each entry its tree's smallest
// vertex, so the sample of phase 1 (the biggest component skipped) and the labels of phase 2 are
// the same on every GPU. Request: state comp (u32/i32), params step (even; the next merge of a
// run takes step + 2), exchange (tag and peers; no ranges).
RunStats Controller::runAffMerge(const RunRequest& rq) {
  const auto wall0 = std::chrono::steady_clock::now();
  evUsed_ = 0;
  const ExchangeSpec& ex = rq.exchange;
  if (!ex.on()) throw CodedError("TS_ARG", "aff_merge: needs an exchange with the peers");
  auto it = rq.params.find("step");
  if (it == rq.params.end() || !(it->second >= 0 && it->second == (double)(uint32_t)it->second) || (uint32_t)it->second % 2 != 0)
    throw CodedError("TS_ARG", "aff_merge: params.step must be an even count");
  const uint32_t step = (uint32_t)it->second;
  StateArr* comp = role(rq, "comp", {SType::U32, SType::I32}, true);
  const size_t n = comp->n;
  RunStats st;
  st.kernel = rq.kernel;
  const auto t0 = std::chrono::steady_clock::now();
  u32* other = (u32*)scratch("@aff.other", n * 4 * ex.peers.size());
  // The caller's phase synced: this forest is final until every peer has copied it.
  st.peerBytes = gatherPeers(ex, step, *comp, other);
  st.peerWaitMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  Event k0 = timingEvent(), k1 = timingEvent();
  be_->record(k0, 0);
  for (size_t i = 0; i < ex.peers.size(); i++) launch<KAffMerge>(gridFor((uint32_t)n), 0, 0, AffMergeArgs{(u32*)comp->dev, other + i * n, (u32)n});
  launch<KAffVertex>(gridFor((uint32_t)n), 0, 0, AffVertexArgs{(u32*)comp->dev, nullptr, nullptr, nullptr, nullptr, (u32)n, 1});
  be_->record(k1, 0);
  be_->syncStream(0);
  st.kernelMs = be_->elapsedMs(k0, k1);
  st.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall0).count();
  return st;
}

}  // namespace ts
