// User operator modules (kernels_user.h): loading, and the plan of kernel
// "user:<key>:<operator>:<push|pull|vertex>", which launches the module's entry points over the
// call's pages exactly as the built-in push (TWC) and vertex-group pull kernels are launched (a
// vertex pass: once over the owned vertices, no pages).
//   state roles s0..s7 -> the operator's state arrays, in the order of its Env; params x0..x7 ->
//   its arguments; params n (vertices), ownedBegin/ownedEnd or role `owned` (u8 map: pull applies
//   owned vertices only); roles frontier, next (u8 or u32 bitmap). Stats: sum (Env::addSum),
//   activated (vertices newly put in next).
#include "controller_internal.h"
#include "kernels_user.h"

#include <map>

namespace ts {

std::string Controller::loadOperators(const std::string& key, const std::string& path, const std::string& source, const std::string& cubin) {
  std::string built;
  void* mod = nullptr;
  if (emulated_) {
    mod = be_->moduleLoad(path, std::string());
  } else {
    if (cubin.empty()) built = be_->compileModule(source, key);
    mod = be_->moduleLoad(std::string(), cubin.empty() ? built : cubin);
  }
  auto it = modules_.find(key);
  if (it != modules_.end()) be_->moduleUnload(it->second.mod);
  modules_[key] = UserModule{mod, {}};
  return built;
}

void Controller::unloadOperators() {
  for (auto& kv : modules_) be_->moduleUnload(kv.second.mod);
  modules_.clear();
}

void* Controller::userFn(const std::string& key, const std::string& name) {
  auto it = modules_.find(key);
  if (it == modules_.end()) throw CodedError("TS_OPERATOR", "operator module '" + key + "' is not loaded (loadOperators first)");
  auto f = it->second.fns.find(name);
  if (f != it->second.fns.end()) return f->second;
  void* fn = be_->moduleFunction(it->second.mod, name);
  if (!fn) throw CodedError("TS_OPERATOR", "operator module '" + key + "' has no entry point " + name);
  it->second.fns[name] = fn;
  return fn;
}

void Controller::buildUserPlan(const RunRequest& rq, std::vector<HostPage*>& pages, Plan& pl) {
  const std::string& k = rq.kernel;
  const size_t c3 = k.rfind(':'), c2 = k.rfind(':', c3 - 1);
  if (c3 == std::string::npos || c2 == std::string::npos || c2 <= 5) throw CodedError("TS_KERNEL", "bad user kernel '" + k + "': user:<key>:<operator>:<push|pull|vertex>");
  const std::string key = k.substr(5, c2 - 5), op = k.substr(c2 + 1, c3 - c2 - 1), mode = k.substr(c3 + 1);
  if (mode != "push" && mode != "pull" && mode != "vertex") throw CodedError("TS_KERNEL", k + ": the mode must be push, pull or vertex");
  if (mode == "vertex" && !pages.empty()) throw CodedError("TS_ARG", k + ": a vertex pass reads no pages");
  auto param = [&](const std::string& name, double dflt) {
    auto it = rq.params.find(name);
    return it == rq.params.end() ? dflt : it->second;
  };
  const double nv = param("n", -1);
  if (!(nv >= 0)) throw CodedError("TS_ARG", k + ": params.n (the number of vertices) is required");
  const uint32_t n = (uint32_t)nv;
  for (auto* hp : pages)
    if (hp->spec.vEnd > n || (hp->anyNbr && hp->maxNbr >= n))
      throw CodedError("TS_RANGE", k + ": page " + std::to_string(hp->spec.index) + " reaches beyond params.n = " + std::to_string(n));
  UserArgs a{};
  a.n = n;
  for (int i = 0; i < kUserSlots; i++) {
    StateArr* s = role(rq, "s" + std::to_string(i), {SType::U8, SType::U32, SType::I32, SType::F32, SType::F64}, false);
    a.s[i] = s ? s->dev : nullptr;
    a.x[i] = param("x" + std::to_string(i), 0);
  }
  uint32_t* ctr = (uint32_t*)scratch("ctr", 4 * (4 + 4 * (size_t)nstreams_));
  // frontier and next: one byte per vertex, or a bitmap of u32 words
  auto bits = [&](const char* r, const uint8_t** bytes, const uint32_t** words) {
    StateArr* f = role(rq, r, {SType::U8, SType::U32}, false);
    if (!f) return;
    if (f->type == SType::U8 ? f->n < n : f->n * 32 < n) throw CodedError("TS_RANGE", k + ": state '" + r + "' is shorter than params.n");
    if (f->type == SType::U8) *bytes = (const uint8_t*)f->dev;
    else *words = (const uint32_t*)f->dev;
  };
  bits("frontier", &a.fr.bytes, &a.fr.bits);
  if (mode == "push" && !a.fr.bytes && !a.fr.bits) throw CodedError("TS_ARG", k + ": a push needs state.frontier");
  const uint8_t* nb = nullptr;
  const uint32_t* nw = nullptr;
  bits("next", &nb, &nw);
  a.next = NextSet{(uint32_t*)nw, (uint8_t*)nb, ctr};
  StateArr* om = role(rq, "owned", {SType::U8}, false);
  if (om && om->n < n) throw CodedError("TS_RANGE", k + ": the owned byte map is shorter than params.n");
  a.omap = om ? (const u8*)om->dev : nullptr;
  a.ob = (uint32_t)param("ownedBegin", 0);
  a.oe = (uint32_t)std::min<double>(param("ownedEnd", n), 4294967295.0);
  a.sum = (double*)scratch("user.sum", 8 * kUserSumSlots);
  double* sum = a.sum;
  pl.pre = [this, sum] { be_->memset(sum, 0, 8 * kUserSumSlots, 0); };
  pl.finish = [this, sum](RunStats& st) {
    std::vector<double> part(kUserSumSlots);
    be_->d2h(part.data(), sum, 8 * kUserSumSlots, 0);
    be_->syncStream(0);
    st.sum = 0;
    for (double x : part) st.sum += x;
    st.hasSum = true;
  };
  if (mode == "vertex") {
    void* fv = userFn(key, "tsu_" + op + "_vertex");
    const uint32_t span = a.omap ? n : (a.oe > a.ob ? a.oe - a.ob : 0);
    pl.pre = [this, sum, fv, a, span] {
      be_->memset(sum, 0, 8 * kUserSumSlots, 0);
      if (span > 0) be_->launchFn(fv, gridFor(span), kBlock, 0, 0, &a);
    };
    return;
  }
  if (mode == "push") {
    void* fb = userFn(key, "tsu_" + op + "_bin");
    void* fw = userFn(key, "tsu_" + op + "_warp");
    void* fk = userFn(key, "tsu_" + op + "_block");
    uint32_t maxNv = 1;
    for (auto* hp : pages) maxNv = std::max(maxNv, hp->nv());
    const size_t per = align256((size_t)maxNv * 4) * 2;
    uint8_t* twc = (uint8_t*)scratch("twc", (size_t)nstreams_ * per);
    pl.page = [this, a, fb, fw, fk, twc, per](HostPage&, const PageDev& pd, int s) {
      UserArgs b = a;
      b.pg = pd;
      b.lists.mid = (uint32_t*)(twc + per * s);
      b.lists.big = (uint32_t*)(twc + per * s + per / 2);
      b.lists.counts = (uint32_t*)scratch_["ctr"].p + 4 + 4 * s;
      be_->memset(b.lists.counts, 0, 16, s);
      be_->launchFn(fb, gridFor(pd.nv), kBlock, 0, s, &b);
      const uint32_t maxMid = std::min(pd.nv, pd.edges / kTwcSmall);
      if (maxMid > 0) be_->launchFn(fw, std::min<uint32_t>((maxMid + 7) / 8, 2048), kBlock, 0, s, &b);
      if (const uint32_t grid = twcBlockGrid(pd)) be_->launchFn(fk, grid, kBlock, 0, s, &b);
    };
    return;
  }
  void* fp = userFn(key, "tsu_" + op + "_pull");
  // A vertex longer than a page has pages of its own: their partial results combine into acc and
  // are applied once after all of them, so every one of its pages must be in the call.
  const auto named = splitGroups(rq, pages, "they must come together");
  if (!named.empty()) {
    auto ids = std::make_shared<std::vector<uint32_t>>();
    for (auto& sv : named) ids->push_back(sv.first);
    pl.keep.push_back(ids);
    a.acc = (double*)scratch("user.acc", (size_t)n * 8);
    uint32_t* dIds = (uint32_t*)scratch("user.split", ids->size() * 4);
    a.splitIds = dIds;
    a.nsplit = (uint32_t)ids->size();
    void* fi = userFn(key, "tsu_" + op + "_sinit");
    void* fa = userFn(key, "tsu_" + op + "_sapply");
    pl.pre = [this, sum, ids, dIds, fi, a] {
      be_->memset(sum, 0, 8 * kUserSumSlots, 0);
      be_->h2d(dIds, ids->data(), ids->size() * 4, 0);
      be_->launchFn(fi, gridFor(a.nsplit), kBlock, 0, 0, &a);
    };
    pl.post = [this, fa, a] { be_->launchFn(fa, gridFor(a.nsplit), kBlock, 0, 0, &a); };
  }
  pl.page = [this, a, fp](HostPage&, const PageDev& pd, int s) {
    UserArgs b = a;
    b.pg = pd;
    b.G = groupSize(pd);
    const uint32_t per = kBlock / b.G;
    be_->launchFn(fp, (pd.nv + per - 1) / per, kBlock, kGroupPullSmem, s, &b);
  };
  // Resident pages kPageBatch to a launch (as launchPages for the built-ins), not a launch a page.
  void* fb = userFn(key, "tsu_" + op + "_pages");
  pl.batch = [this, a, fb](const PageDev* pds, uint32_t n, int s) {
    UserPagesArgs b{};
    b.base = a;
    pageBatches(b, pds, n, groupSize, [&](const UserPagesArgs& x) { be_->launchFn(fb, x.blocks[x.count], kBlock, kGroupPullSmem, s, &x); });
  };
}

}  // namespace ts
