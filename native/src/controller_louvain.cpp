// louvain_move's plan: one synchronous sub-round of Louvain's local moving (kernels_louvain.h)
// over the program's undirected view in state arrays (no pages: the call names none). Roles:
// off (f64, n + 1), adj (u32, E), wt (f64, E; optional: every weight 1), k, tot (f64, n), comm,
// size (u32, n); list (u32) and flags (u8): the vertices to evaluate, their first `count`
// entries, those from param `heavyFrom` on of high degree (a block each); outNext (u32) and
// outKin (f64) per listed vertex; mark (u8, n: zeroed here, then set for movers and their
// neighbours, for compact). Params: count, heavyFrom, resolution, m2. stats.sum: the list's
// adjacency entries (the edges examined).
#include "controller_internal.h"

namespace ts {

void Controller::buildLouvainPlan(const RunRequest& rq, Plan& pl) {
  const std::string& k = rq.kernel;
  scratch("ctr", 4 * (4 + 4 * (size_t)nstreams_));  // run() clears the counters of every call
  StateArr* off = role(rq, "off", {SType::F64}, true);
  StateArr* adj = role(rq, "adj", {SType::U32}, true);
  StateArr* wt = role(rq, "wt", {SType::F64}, false);
  StateArr* kk = role(rq, "k", {SType::F64}, true);
  StateArr* comm = role(rq, "comm", {SType::U32}, true);
  StateArr* tot = role(rq, "tot", {SType::F64}, true);
  StateArr* size = role(rq, "size", {SType::U32}, true);
  StateArr* list = role(rq, "list", {SType::U32}, true);
  StateArr* flags = role(rq, "flags", {SType::U8}, true);
  StateArr* outNext = role(rq, "outNext", {SType::U32}, true);
  StateArr* outKin = role(rq, "outKin", {SType::F64}, true);
  StateArr* mark = role(rq, "mark", {SType::U8}, true);
  auto param = [&](const char* name, double dflt) {
    auto it = rq.params.find(name);
    return it == rq.params.end() ? dflt : it->second;
  };
  const uint32_t n = (uint32_t)comm->n;
  const uint32_t L = (uint32_t)param("count", 0);
  // The listed vertices before heavyFrom are light (G threads each), those from it heavy (a block each).
  const uint32_t light = (uint32_t)std::min<double>(param("heavyFrom", L), L);
  const double resolution = param("resolution", 1), m2 = param("m2", 0);
  if (off->n != (size_t)n + 1) throw CodedError("TS_RANGE", k + ": off must have n + 1 = " + std::to_string(n + 1) + " entries");
  if (kk->n < n || tot->n < n || size->n < n || mark->n < n) throw CodedError("TS_RANGE", k + ": k, tot, size and mark need an entry per vertex");
  if (list->n < L || flags->n < L || outNext->n < L || outKin->n < L)
    throw CodedError("TS_RANGE", k + ": list, flags, outNext and outKin need `count` = " + std::to_string(L) + " entries");
  if (!(m2 > 0)) throw CodedError("TS_ARG", k + ": m2 must be positive");
  double last = 0;
  be_->d2h(&last, (const double*)off->dev + n, 8, 0);
  be_->syncStream(0);
  if (adj->n < (size_t)last || (wt && wt->n < (size_t)last))
    throw CodedError("TS_RANGE", k + ": adj and wt need off[n] = " + std::to_string((uint64_t)last) + " entries");
  LvArgs a{};
  a.off = (const double*)off->dev;
  a.adj = (const u32*)adj->dev;
  a.wt = wt ? (const double*)wt->dev : nullptr;
  a.k = (const double*)kk->dev;
  a.comm = (const u32*)comm->dev;
  a.tot = (const double*)tot->dev;
  a.size = (const u32*)size->dev;
  a.list = (const u32*)list->dev;
  a.flags = (const u8*)flags->dev;
  a.outNext = (u32*)outNext->dev;
  a.outKin = (double*)outKin->dev;
  a.mark = (u8*)mark->dev;
  a.resolution = resolution;
  a.m2 = m2;
  auto total = std::make_shared<uint64_t>(0);
  pl.keep = {total};
  pl.pre = [=]() mutable {
    be_->memset(a.mark, 0, n, 0);
    if (L == 0) return;
    // Segment offsets: the listed degrees scanned (u64), then narrowed for the sort.
    u64* work = (u64*)scratch("lv.work", ((size_t)L + 1) * 8);
    u32* seg = (u32*)scratch("lv.seg", ((size_t)L + 1) * 4);
    const LvListArgs la{a.off, a.list, work, seg, L, 0};
    launch<KLvDeg>(gridFor((size_t)L + 1), 0, 0, la);
    scanU64(work, (uint64_t)L + 1, 0);
    // The scan at `light` and at L: the light vertices' entries and all of them.
    u64 lightEdges = 0;
    be_->d2h(&lightEdges, work + light, 8, 0);
    be_->d2h(total.get(), work + L, 8, 0);
    be_->syncStream(0);
    const uint64_t T = *total;
    if (T >= (1ull << 32)) throw CodedError("TS_RANGE", k + ": the listed vertices have " + std::to_string(T) + " adjacency entries; at most 2^32 - 1 per call");
    launch<KLvNarrow>(gridFor((size_t)L + 1), 0, 0, la);
    const size_t tb = align256(be_->sortPairsTempBytes(T, L));
    const size_t eb = align256((size_t)std::max<uint64_t>(T, 1) * 4);
    uint8_t* buf = (uint8_t*)scratch("lv.sort", 4 * eb + tb);
    u32* keys = (u32*)buf;
    u32* vals = (u32*)(buf + eb);
    a.keys = (u32*)(buf + 2 * eb);
    a.vals = (u32*)(buf + 3 * eb);
    a.seg = seg;
    // Light vertices: threads per vertex by their mean degree (as the vertex-group pulls).
    const double avg = light == 0 ? 0 : (double)lightEdges / light;
    const uint32_t G = avg < 3 ? 1 : avg < 24 ? 4 : avg < 192 ? 32 : kBlock;
    auto parts = [&](auto&& fn) {
      if (light > 0) fn(0u, light, G);
      if (L > light) fn(light, L, kBlock);
    };
    parts([&](uint32_t b, uint32_t e, uint32_t g) {
      LvArgs x = a;
      x.keys = keys, x.vals = vals, x.begin = b, x.end = e, x.G = g;
      launch<KLvGather>(gridFor((size_t)(e - b) * g), 0, 0, x);
    });
    be_->sortSegmentPairs(keys, a.keys, vals, a.vals, T, seg, L, buf + 4 * eb, tb, 0);
    parts([&](uint32_t b, uint32_t e, uint32_t g) {
      LvArgs x = a;
      x.begin = b, x.end = e, x.G = g;
      const uint32_t per = kBlock / g;
      launch<KLvMove>((e - b + per - 1) / per, kLvMoveSmem, 0, x);
    });
  };
  pl.finish = [total](RunStats& st) {
    st.sum = (double)*total;
    st.hasSum = true;
  };
}

}  // namespace ts
