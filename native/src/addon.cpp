// Node-API binding: one NativeController per device, each with its own native worker thread and
// a job queue (addon_jobs.h). Every long operation runs on that thread (the CUDA context is used
// from it only, but for pinAside's page locking on a side thread) and settles a Promise through a
// thread-safe function. Typed arrays and page buffers handed to a
// job are kept alive by references until the job has settled (pages: until replaced or closed).
// The coordinator's host passes (foldFlags, listFlags, fillArray, copyArray) are in addon_passes.cpp.
#include <napi.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "controller.h"
#include "addon.h"
#include "addon_jobs.h"
#include "addon_pages.h"

namespace {

using ts::CodedError;
using namespace ts::addon;

struct AddonData {
  Napi::FunctionReference ctor;
};

class NativeController;
void CallJs(Napi::Env env, Napi::Function, NativeController* ctx, Job* job);
using Tsfn = Napi::TypedThreadSafeFunction<NativeController, Job, CallJs>;

std::mutex gLiveMutex;
std::set<NativeController*> gLive;

class NativeController : public Napi::ObjectWrap<NativeController> {
 public:
  static Napi::Function Init(Napi::Env env) {
    return DefineClass(env, "NativeController",
                       {
                           InstanceMethod("info", &NativeController::Info),
                           InstanceMethod("allocState", &NativeController::AllocState),
                           InstanceMethod("freeState", &NativeController::FreeState),
                           InstanceMethod("freeScratch", &NativeController::FreeScratch),
                           InstanceMethod("writeState", &NativeController::WriteState),
                           InstanceMethod("readState", &NativeController::ReadState),
                           InstanceMethod("fillState", &NativeController::FillState),
                           InstanceMethod("copyState", &NativeController::CopyState),
                           InstanceMethod("takeState", &NativeController::TakeState),
                           InstanceMethod("copyFromPeer", &NativeController::CopyFromPeer),
                           InstanceMethod("enablePeer", &NativeController::EnablePeer),
                           InstanceMethod("abortExchanges", &NativeController::AbortExchanges),
                           InstanceMethod("flaggedDegrees", &NativeController::FlaggedDegrees),
                           InstanceMethod("scatterState", &NativeController::ScatterState),
                           InstanceMethod("activePages", &NativeController::ActivePages),
                           InstanceMethod("preload", &NativeController::Preload),
                           InstanceMethod("pinHost", &NativeController::PinHost),
                           InstanceMethod("compact", &NativeController::Compact),
                           InstanceMethod("unpinHost", &NativeController::UnpinHost),
                           InstanceMethod("pinAside", &NativeController::PinAside),
                           InstanceMethod("unpinAside", &NativeController::UnpinAside),
                           InstanceMethod("registerPage", &NativeController::RegisterPage),
                           InstanceMethod("registerPages", &NativeController::RegisterPages),
                           InstanceMethod("unregisterSet", &NativeController::UnregisterSet),
                           InstanceMethod("run", &NativeController::Run),
                           InstanceMethod("loadOperators", &NativeController::LoadOperators),
                           InstanceMethod("close", &NativeController::Close),
                       });
  }

  NativeController(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NativeController>(info) {
    Napi::Env env = info.Env();
    const CreateOptions o = createOptions(info);
    device_ = o.device;
    ctl_ = std::make_unique<ts::Controller>(o.device, o.emulated, o.memoryLimit, o.streams, o.hostBuffer);
    tsfn_ = Tsfn::New(env, "tessera-gpu", 0, 1, this);
    tsfn_.Unref(env);
    // The side thread: jobs that must neither wait behind the controller's queue nor hold it up
    // (pinAside's page locking, milliseconds an array). The worker stops it before the shutdown.
    side_.start([this](Job* j) {
      settleFrom(j);
      return false;
    });
    worker_.start(
        [this](Job* j) {
          const bool last = j->closeAfter || (!j->ok && j->closeOnError);
          if (last) shutdown();
          settleFrom(j);
          return last;
        },
        [this] { shutdown(); });
    std::lock_guard<std::mutex> lk(gLiveMutex);
    gLive.insert(this);
  }

  ~NativeController() override {
    {
      std::lock_guard<std::mutex> lk(gLiveMutex);
      gLive.erase(this);
    }
    stopWorker(true);
    for (void* o : ownersAtExit_) delete (Napi::Reference<Napi::Value>*)o;
    for (void* o : pageOwners_) delete (Napi::Reference<Napi::Value>*)o;
    for (auto& kv : hostPins_)
      for (auto* r : kv.second) delete r;
    for (auto& kv : asideRefs_) delete kv.second;
  }

  /** Env teardown: stop the thread without touching JS (the process is exiting). */
  void teardown() { stopWorker(true); }

  /** The create job: initialises the device on the worker thread; resolves with this object. */
  Napi::Value Start(Napi::Env env) {
    Job* j = newJob(env);
    j->closeOnError = true;
    j->work = [this] { ctl_->init(); };
    j->settle = [this](Napi::Env) { return Value(); };
    return enqueue(env, j);
  }

  void finish(Napi::Env env, Job* job) {
    for (void* o : job->release) delete (Napi::Reference<Napi::Value>*)o;
    if (job->ok) {
      Napi::Value v;
      try {
        v = job->settle ? job->settle(env) : env.Undefined();
      } catch (const Napi::Error& e) {
        job->deferred->Reject(e.Value());
        v = Napi::Value();
      }
      if (!v.IsEmpty()) job->deferred->Resolve(v);
    } else {
      job->deferred->Reject(codedError(env, job->code, job->message).Value());
    }
    if (job->closeAfter || (!job->ok && job->closeOnError)) {
      stopWorker(false);
      if (!closedRefsReleased_) {
        closedRefsReleased_ = true;
        for (void* o : ownersAtExit_) delete (Napi::Reference<Napi::Value>*)o;
        ownersAtExit_.clear();
      }
    }
    delete job;
    if (--pending_ == 0) {
      tsfn_.Unref(env);
      Unref();
    }
  }

 private:
  Job* newJob(Napi::Env env) {
    Job* j = new Job();
    j->deferred = std::make_unique<Napi::Promise::Deferred>(Napi::Promise::Deferred::New(env));
    return j;
  }

  /** A job that resolves with undefined once `work` ran on the controller's thread. */
  Napi::Value queue(Napi::Env env, std::function<void()> work) {
    Job* j = newJob(env);
    j->work = std::move(work);
    return enqueue(env, j);
  }

  Napi::Value enqueue(Napi::Env env, Job* j, bool side = false) {
    Napi::Promise p = j->deferred->Promise();
    if (stopping_) {
      j->deferred->Reject(codedError(env, "TS_CLOSED", "the GPU controller is closed").Value());
      delete j;
      return p;
    }
    if (pending_++ == 0) {
      tsfn_.Ref(env);
      Ref();
    }
    if (j->closeAfter) stopping_ = true;
    (side ? side_ : worker_).push(j);
    return p;
  }

  void settleFrom(Job* j) {
    if (tsfn_.BlockingCall(j) != napi_ok) {
      // the environment is going away: nothing can be settled any more
      for (auto& r : j->keep) r->SuppressDestruct();
      delete j;
    }
  }

  /** The worker's last act: the side thread finishes its jobs and ends, then the device shuts down. */
  void shutdown() {
    side_.requestStop();
    side_.join();
    try {
      ctl_->shutdown();
    } catch (...) {
    }
  }

  void stopWorker(bool abort) {
    if (!worker_.joinable()) return;
    worker_.requestStop();
    if (abort) tsfn_.Abort();
    worker_.join();
    if (!abort) tsfn_.Release();
    stopping_ = true;
  }

  // ---- methods ----

  Napi::Value Info(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    Job* j = newJob(env);
    auto out = std::make_shared<ts::ControllerInfo>();
    j->work = [this, out] { *out = ctl_->info(); };
    j->settle = [out](Napi::Env env) -> Napi::Value { return controllerInfo(env, *out); };
    return enqueue(env, j);
  }

  Napi::Value AllocState(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const std::string name = stringArg(info, 0, "allocState: name");
    const std::string type = stringArg(info, 1, "allocState: type");
    ts::SType t;
    if (!ts::parseSType(type, &t)) throw codedError(env, "TS_ARG", "allocState: type must be one of f64, f32, u32, i32, u8; got '" + type + "'");
    const size_t n = (size_t)uintArg(info, 2, "allocState: length", 0, true);
    return queue(env, [this, name, t, n] { ctl_->allocState(name, t, n); });
  }

  Napi::Value FreeState(const Napi::CallbackInfo& info) {
    const std::string name = stringArg(info, 0, "freeState: name");
    return queue(info.Env(), [this, name] { ctl_->freeState(name); });
  }

  Napi::Value FreeScratch(const Napi::CallbackInfo& info) {
    return queue(info.Env(), [this] { ctl_->freeScratch(); });
  }

  Napi::Value WriteState(const Napi::CallbackInfo& info) { return copyState(info, true); }
  Napi::Value ReadState(const Napi::CallbackInfo& info) { return copyState(info, false); }

  Napi::Value copyState(const Napi::CallbackInfo& info, bool write) {
    Napi::Env env = info.Env();
    const char* op = write ? "writeState" : "readState";
    const std::string name = stringArg(info, 0, write ? "writeState: name" : "readState: name");
    TA ta;
    ts::SType t;
    if (info.Length() < 2 || !getTypedArray(env, info[1], &ta) || !typedArrayState(ta.type, &t))
      throw codedError(env, "TS_ARG", std::string(op) + ": a Float64Array, Float32Array, Uint32Array, Int32Array or Uint8Array is required");
    const size_t offset = (size_t)uintArg(info, 2, write ? "writeState: offset" : "readState: offset", 0, false);
    Job* j = newJob(env);
    j->keep.push_back(std::make_unique<Napi::Reference<Napi::Value>>(Napi::Persistent(info[1])));
    Napi::Reference<Napi::Value>* keep = j->keep.back().get();
    void* data = ta.data;
    const size_t len = ta.length;
    if (write)
      j->work = [this, name, data, t, len, offset] { ctl_->writeState(name, data, t, len, offset); };
    else
      j->work = [this, name, data, t, len, offset] { ctl_->readState(name, data, t, len, offset); };
    if (!write) j->settle = [keep](Napi::Env) { return keep->Value(); };
    return enqueue(env, j);
  }

  /** compact(flags, state, begin, end, mask?) -> Promise<{ ids: Uint32Array, values: Float64Array }>. */
  Napi::Value Compact(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const std::string flags = stringArg(info, 0, "compact: flag array name");
    const std::string state = stringArg(info, 1, "compact: state array name");
    const size_t begin = (size_t)uintArg(info, 2, "compact: begin", 0, true);
    const size_t end = (size_t)uintArg(info, 3, "compact: end", 0, true);
    const std::string mask = info.Length() > 4 && !info[4].IsUndefined() ? stringArg(info, 4, "compact: mask array name") : std::string();
    const std::string before = info.Length() > 5 && !info[5].IsUndefined() ? stringArg(info, 5, "compact: before array name") : std::string();
    const bool delta = info.Length() > 6 && info[6].ToBoolean();
    Job* j = newJob(env);
    auto ids = std::make_shared<std::vector<uint32_t>>();
    auto vals = std::make_shared<std::vector<double>>();
    j->work = [=] { ctl_->compact(flags, state, begin, end, *ids, *vals, mask, before, delta); };
    j->settle = [ids, vals](Napi::Env env) -> Napi::Value { return idsValues(env, ids->data(), vals->data(), ids->size()); };
    return enqueue(env, j);
  }

  /**
   * loadOperators(key, path, source, cubin?) -> Promise<Uint8Array | undefined>: a user operator
   * module (controller_user.cpp); resolves with the cubin NVRTC built, for the caller's cache.
   */
  Napi::Value LoadOperators(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const std::string key = stringArg(info, 0, "loadOperators: key"), path = stringArg(info, 1, "loadOperators: path");
    const std::string source = stringArg(info, 2, "loadOperators: source");
    TA c;
    const bool hasCubin = info.Length() > 3 && !info[3].IsUndefined();
    if (hasCubin && !getTypedArray(env, info[3], &c)) throw codedError(env, "TS_ARG", "loadOperators: cubin must be a Uint8Array");
    auto cubin = std::make_shared<std::string>(hasCubin ? std::string((const char*)c.data, c.length) : std::string());
    auto built = std::make_shared<std::string>();
    Job* j = newJob(env);
    j->work = [this, key, path, source, cubin, built] { *built = ctl_->loadOperators(key, path, source, *cubin); };
    j->settle = [built](Napi::Env env) -> Napi::Value {
      if (built->empty()) return env.Undefined();
      Napi::ArrayBuffer b = Napi::ArrayBuffer::New(env, built->size());
      std::memcpy(b.Data(), built->data(), built->size());
      return Napi::Uint8Array::New(env, built->size(), b, 0);
    };
    return enqueue(env, j);
  }

  /**
   * pinHost(view) -> Promise<boolean>: page-locks the view's bytes until unpinHost(view) or close;
   * the addon holds a reference so the buffer cannot be collected while the device may DMA it.
   */
  Napi::Value PinHost(const Napi::CallbackInfo& info) { return pinView(info, false); }

  /**
   * pinAside(view) -> Promise<boolean>: pinHost on the side thread (the controller's queue goes
   * on meanwhile); once it resolves true every GPU's copies to and from the view are direct DMA.
   * Held, the buffer kept alive, until unpinAside(view) or close.
   */
  Napi::Value PinAside(const Napi::CallbackInfo& info) { return pinView(info, true); }

  Napi::Value pinView(const Napi::CallbackInfo& info, bool aside) {
    Napi::Env env = info.Env();
    const char* name = aside ? "pinAside" : "pinHost";
    TA ta;
    if (info.Length() < 1 || !getTypedArray(env, info[0], &ta))
      throw codedError(env, "TS_ARG", std::string(name) + ": a typed array (view of the host buffer to page-lock) is required");
    size_t elem = 1;
    ts::SType t;
    if (typedArrayState(ta.type, &t)) elem = ts::stypeSize(t);
    void* p = ta.data;
    const size_t bytes = ta.length * elem;
    Job* j = newJob(env);
    auto ok = std::make_shared<bool>(false);
    j->work = [this, p, bytes, ok, aside] { *ok = aside ? ctl_->pinAside(p, bytes) : ctl_->pinHost(p, bytes); };
    auto* ref = new Napi::Reference<Napi::Value>(Napi::Persistent(info[0]));
    j->settle = [this, p, ok, ref, aside](Napi::Env env) {
      if (*ok && !aside) hostPins_[p].push_back(ref);
      else if (*ok && asideRefs_.count(p) == 0) asideRefs_[p] = ref;
      else delete ref;  // declined, or locked aside already (counted once)
      return Napi::Boolean::New(env, *ok);
    };
    return enqueue(env, j, aside);
  }

  /** unpinAside(view) -> Promise<void>: after the side thread's earlier jobs; no copy may use the view any more. */
  Napi::Value UnpinAside(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    TA ta;
    if (info.Length() < 1 || !getTypedArray(env, info[0], &ta)) throw codedError(env, "TS_ARG", "unpinAside: a typed array is required");
    void* p = ta.data;
    Job* j = newJob(env);
    j->work = [this, p] { ctl_->unpinAside(p); };
    j->settle = [this, p](Napi::Env env) {
      auto it = asideRefs_.find(p);
      if (it != asideRefs_.end()) {
        delete it->second;
        asideRefs_.erase(it);
      }
      return env.Undefined();
    };
    return enqueue(env, j, true);
  }

  Napi::Value UnpinHost(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    TA ta;
    if (info.Length() < 1 || !getTypedArray(env, info[0], &ta)) throw codedError(env, "TS_ARG", "unpinHost: a typed array is required");
    void* p = ta.data;
    Job* j = newJob(env);
    j->work = [this, p] { ctl_->unpinHost(p); };
    j->settle = [this, p](Napi::Env env) {
      auto it = hostPins_.find(p);
      if (it != hostPins_.end() && !it->second.empty()) {
        delete it->second.back();
        it->second.pop_back();
        if (it->second.empty()) hostPins_.erase(it);
      }
      return env.Undefined();
    };
    return enqueue(env, j);
  }

  Napi::Value FillState(const Napi::CallbackInfo& info) {
    const std::string name = stringArg(info, 0, "fillState: name");
    const double v = numberArg(info, 1, "fillState: value", 0, true);
    return queue(info.Env(), [this, name, v] { ctl_->fillState(name, v); });
  }

  /** copyState(dst, src, begin, end): device to device, the link untouched. */
  Napi::Value CopyState(const Napi::CallbackInfo& info) {
    const std::string dst = stringArg(info, 0, "copyState: dst"), src = stringArg(info, 1, "copyState: src");
    const size_t b = (size_t)uintArg(info, 2, "copyState: begin", 0, true), e = (size_t)uintArg(info, 3, "copyState: end", 0, true);
    return queue(info.Env(), [this, dst, src, b, e] { ctl_->copyState(dst, src, b, e); });
  }

  /** takeState(dst, src): dst takes src's values, src is zeroed (a frontier from the next flags, no copy). */
  Napi::Value TakeState(const Napi::CallbackInfo& info) {
    const std::string dst = stringArg(info, 0, "takeState: dst"), src = stringArg(info, 1, "takeState: src");
    return queue(info.Env(), [this, dst, src] { ctl_->takeState(dst, src); });
  }

  /** `v` as a NativeController (a peer on another device), open. */
  NativeController* peerOf(Napi::Env env, Napi::Value v, const char* what) {
    AddonData* data = env.GetInstanceData<AddonData>();
    if (!v.IsObject() || !v.As<Napi::Object>().InstanceOf(data->ctor.Value())) throw codedError(env, "TS_ARG", std::string(what) + ": a native controller is required");
    NativeController* p = Unwrap(v.As<Napi::Object>());
    if (p == this || p->ctl_ == nullptr || p->stopping_) throw codedError(env, "TS_ARG", std::string(what) + ": the peer must be another open controller");
    return p;
  }

  NativeController* peerArg(const Napi::CallbackInfo& info, size_t i, const char* what) {
    return peerOf(info.Env(), info.Length() > i ? info[i] : info.Env().Undefined(), what);
  }

  /** copyFromPeer(peer, src, dst, ranges: Float64Array [b0, e0, b1, e1, ...]) -> Promise<bytes>. */
  Napi::Value CopyFromPeer(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    NativeController* peer = peerArg(info, 0, "copyFromPeer");
    const std::string src = stringArg(info, 1, "copyFromPeer: src"), dst = stringArg(info, 2, "copyFromPeer: dst");
    const auto ranges = rangePairs(env, info.Length() > 3 ? info[3] : env.Undefined(), "copyFromPeer");
    auto bytes = std::make_shared<size_t>(0);
    Job* j = newJob(env);
    j->keep.push_back(std::make_unique<Napi::Reference<Napi::Value>>(Napi::Persistent(info[0])));
    ts::Controller* other = peer->ctl_.get();
    j->work = [this, other, src, dst, ranges, bytes] { *bytes = ctl_->copyFromPeer(*other, src, dst, ranges); };
    j->settle = [bytes](Napi::Env env) -> Napi::Value { return Napi::Number::New(env, (double)*bytes); };
    return enqueue(env, j);
  }

  /** flaggedDegrees(flags, deg, begin, end) -> Promise<number>: sum of deg[v] over v with flags[v] set. */
  Napi::Value FlaggedDegrees(const Napi::CallbackInfo& info) {
    const std::string flags = stringArg(info, 0, "flaggedDegrees: flags"), deg = stringArg(info, 1, "flaggedDegrees: degrees");
    const size_t b = (size_t)uintArg(info, 2, "flaggedDegrees: begin", 0, true), e = (size_t)uintArg(info, 3, "flaggedDegrees: end", 0, true);
    auto sum = std::make_shared<double>(0);
    Job* j = newJob(info.Env());
    j->work = [this, flags, deg, b, e, sum] { *sum = ctl_->flaggedDegrees(flags, deg, b, e); };
    j->settle = [sum](Napi::Env env) -> Napi::Value { return Napi::Number::New(env, *sum); };
    return enqueue(info.Env(), j);
  }

  /**
   * scatterState(name, ids, values[, op, next]) -> Promise<void | number>: name[ids[i]] = values[i]
   * on the device; with op ('claim' | 'min' | 'max') reduced instead, marking the u8 array `next`
   * where a value changed, resolving with the fresh marks.
   */
  Napi::Value ScatterState(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const std::string name = stringArg(info, 0, "scatterState: name");
    TA ia, va;
    ts::SType t;
    if (info.Length() < 3 || !getTypedArray(env, info[1], &ia) || ia.type != napi_uint32_array || !getTypedArray(env, info[2], &va) || !typedArrayState(va.type, &t) || va.length != ia.length)
      throw codedError(env, "TS_ARG", "scatterState: ids must be a Uint32Array and values a typed array of the state's type, as long");
    const std::string op = info.Length() > 3 ? stringArg(info, 3, "scatterState: op") : "";
    const uint32_t code = op == "claim" ? ts::kMergeClaim : op == "min" ? ts::kMergeMin : op == "max" ? ts::kMergeMax : 0;
    if (!op.empty() && code == 0) throw codedError(env, "TS_ARG", "scatterState: op must be claim, min or max");
    const std::string next = code != 0 ? stringArg(info, 4, "scatterState: next") : "";
    auto fresh = std::make_shared<uint32_t>(0);
    Job* j = newJob(env);
    for (int k = 1; k <= 2; k++) j->keep.push_back(std::make_unique<Napi::Reference<Napi::Value>>(Napi::Persistent(info[k])));
    j->work = [this, name, ids = (const uint32_t*)ia.data, vals = (const void*)va.data, t, n = ia.length, code, next, fresh] {
      if (code == 0) ctl_->scatterState(name, ids, vals, t, n);
      else *fresh = ctl_->mergeState(name, ids, vals, t, n, code, next);
    };
    if (code != 0) j->settle = [fresh](Napi::Env env) -> Napi::Value { return Napi::Number::New(env, *fresh); };
    return enqueue(env, j);
  }

  /** activePages(setId, pages, state, value) -> Promise<Uint32Array>: those with a vertex whose i32 state is value (u8 state: a set flag). */
  Napi::Value ActivePages(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const int setId = (int)uintArg(info, 0, "activePages: setId", 0, true);
    TA pa;
    if (info.Length() < 2 || !getTypedArray(env, info[1], &pa) || pa.type != napi_uint32_array) throw codedError(env, "TS_ARG", "activePages: pages must be a Uint32Array");
    auto pages = std::make_shared<std::vector<uint32_t>>((const uint32_t*)pa.data, (const uint32_t*)pa.data + pa.length);
    const std::string state = stringArg(info, 2, "activePages: state");
    const double value = numberArg(info, 3, "activePages: value", 0, true);
    Job* j = newJob(env);
    j->work = [this, setId, pages, state, value] { *pages = ctl_->activePages(setId, *pages, state, value); };
    j->settle = [pages](Napi::Env env) -> Napi::Value {
      Napi::Uint32Array r = Napi::Uint32Array::New(env, pages->size());
      if (!pages->empty()) std::memcpy(r.Data(), pages->data(), pages->size() * 4);
      return r;
    };
    return enqueue(env, j);
  }

  /** preload(setId, pages, reserve) -> Promise<number>: pages copied into the cache ahead of runs (Controller::preload). */
  Napi::Value Preload(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const int setId = (int)uintArg(info, 0, "preload: setId", 0, true);
    TA pa;
    if (info.Length() < 2 || !getTypedArray(env, info[1], &pa) || pa.type != napi_uint32_array) throw codedError(env, "TS_ARG", "preload: pages must be a Uint32Array");
    std::vector<uint32_t> pages((const uint32_t*)pa.data, (const uint32_t*)pa.data + pa.length);
    const size_t reserve = (size_t)numberArg(info, 2, "preload: reserve", 0, true);
    auto n = std::make_shared<size_t>(0);
    Job* j = newJob(env);
    j->work = [this, setId, pages = std::move(pages), reserve, n] { *n = ctl_->preload(setId, pages, reserve); };
    j->settle = [n](Napi::Env e) { return Napi::Number::New(e, (double)*n); };
    return enqueue(env, j);
  }

  /** abortExchanges(tag): ends this controller's waits for peers' posts up to tag (not queued: a run may be waiting). */
  Napi::Value AbortExchanges(const Napi::CallbackInfo& info) {
    const double tag = numberArg(info, 0, "abortExchanges: tag", 0, true);
    if (ctl_ != nullptr) ctl_->abortExchanges((uint64_t)tag);
    return info.Env().Undefined();
  }

  /** enablePeer(peer) -> Promise<boolean>: whether this device reads the peer's memory directly. */
  Napi::Value EnablePeer(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    ts::Controller* other = peerArg(info, 0, "enablePeer")->ctl_.get();
    auto ok = std::make_shared<bool>(false);
    Job* j = newJob(env);
    j->work = [this, other, ok] { *ok = ctl_->enablePeer(*other); };
    j->settle = [ok](Napi::Env env) -> Napi::Value { return Napi::Boolean::New(env, *ok); };
    return enqueue(env, j);
  }

  Napi::Value RegisterPage(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const int setId = setIdArg(info, "registerPage");
    ts::PageSpec sp = pageSpec(PageArgs{env, "registerPage", [&](size_t i) { return info[i + 1]; }, info.Length() - std::min<size_t>(info.Length(), 1)}, setId);
    auto* owner = new Napi::Reference<Napi::Value>(Napi::Persistent(info[2]));
    sp.owner = owner;
    pageOwners_.insert(owner);
    Job* j = newJob(env);
    auto replaced = std::make_shared<std::vector<void*>>();
    j->work = [this, sp, replaced] { replaced->push_back(ctl_->registerPage(sp)); };
    j->settle = [this, replaced](Napi::Env env) { return dropReplaced(env, *replaced); };
    failOwner_[j] = {owner};  // released by CallJs if the registration fails
    return enqueue(env, j);
  }

  // registerPages(setId, pages) -> undefined: registerPage for each entry of pages (an array of
  // [pageIndex, buffer, vBegin, vEnd, edges, weightBytes?, split?]) in one call, the pages checked
  // and tiled on the controller's copy threads together; none registered where one fails.
  Napi::Value RegisterPages(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    Napi::Array list;
    std::vector<ts::PageSpec> specs = pageSpecs(info, &list);
    std::vector<void*> owners;
    for (uint32_t k = 0; k < list.Length(); k++) {
      auto* owner = new Napi::Reference<Napi::Value>(Napi::Persistent(list.Get(k).As<Napi::Array>().Get(1u)));
      specs[k].owner = owner;
      pageOwners_.insert(owner);
      owners.push_back(owner);
    }
    Job* j = newJob(env);
    auto replaced = std::make_shared<std::vector<void*>>();
    j->work = [this, specs = std::move(specs), replaced] { *replaced = ctl_->registerPages(specs); };
    j->settle = [this, replaced](Napi::Env env) { return dropReplaced(env, *replaced); };
    failOwner_[j] = std::move(owners);
    return enqueue(env, j);
  }

  /** Releases the owners of the pages a registration replaced. */
  Napi::Value dropReplaced(Napi::Env env, const std::vector<void*>& replaced) {
    for (void* o : replaced) {
      if (!o) continue;
      pageOwners_.erase(o);
      delete (Napi::Reference<Napi::Value>*)o;
    }
    return env.Undefined();
  }

  Napi::Value UnregisterSet(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const double setId = numberArg(info, 0, "unregisterSet: setId", 0, true);
    Job* j = newJob(env);
    auto owners = std::make_shared<std::vector<void*>>();
    j->work = [this, setId, owners] { *owners = ctl_->unregisterSet((int)setId); };
    j->settle = [this, owners](Napi::Env env) {
      for (void* o : *owners) {
        pageOwners_.erase(o);
        delete (Napi::Reference<Napi::Value>*)o;
      }
      return env.Undefined();
    };
    return enqueue(env, j);
  }

  Napi::Value Run(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    ts::RunRequest rq = runRequest(info);
    std::vector<Napi::Value> peers;
    Napi::Value xv = info[1].As<Napi::Object>().Get("exchange");
    if (xv.IsObject()) rq.exchange = exchangeSpec(env, xv, [&](Napi::Value p) { return (peers.push_back(p), peerOf(env, p, "run: exchange.peers")->ctl_.get()); });
    Job* j = newJob(env);
    for (Napi::Value p : peers) j->keep.push_back(std::make_unique<Napi::Reference<Napi::Value>>(Napi::Persistent(p)));
    auto st = std::make_shared<ts::RunStats>();
    j->work = [this, rq, st] { *st = ctl_->run(rq); };
    j->settle = [st](Napi::Env env) -> Napi::Value {
      return runStatsObject(env, *st);
    };
    return enqueue(env, j);
  }

  Napi::Value Close(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (stopping_) {
      auto d = Napi::Promise::Deferred::New(env);
      d.Resolve(env.Undefined());
      return d.Promise();
    }
    Job* j = newJob(env);
    j->closeAfter = true;
    j->work = [] {};
    return enqueue(env, j);
  }

 public:
  std::unique_ptr<ts::Controller> ctl_;
  std::set<void*> pageOwners_;
  std::map<Job*, std::vector<void*>> failOwner_;
  /** Host views pinned by pinHost: kept alive until unpinHost or close. */
  std::map<void*, std::vector<Napi::Reference<Napi::Value>*>> hostPins_;
  /** Host views pinned by pinAside: kept alive until unpinAside or close. */
  std::map<void*, Napi::Reference<Napi::Value>*> asideRefs_;
  std::vector<void*> ownersAtExit_;

 private:
  int device_ = 0;
  Tsfn tsfn_;
  JobThread worker_, side_;
  bool stopping_ = false;  // JS thread: no more jobs accepted
  bool closedRefsReleased_ = false;
  int pending_ = 0;        // JS thread only
};

void CallJs(Napi::Env env, Napi::Function, NativeController* ctx, Job* job) {
  if (env == nullptr || ctx == nullptr) {
    for (auto& r : job->keep) r->SuppressDestruct();
    delete job;
    return;
  }
  // registerPage bookkeeping: a failed registration releases its owner here
  auto fo = ctx->failOwner_.find(job);
  if (fo != ctx->failOwner_.end()) {
    if (!job->ok)
      for (void* o : fo->second) ctx->pageOwners_.erase(o), job->release.push_back(o);
    ctx->failOwner_.erase(fo);
  }
  if (job->closeAfter || (!job->ok && job->closeOnError)) {
    for (void* o : ctx->pageOwners_) ctx->ownersAtExit_.push_back(o);
    ctx->pageOwners_.clear();
    for (auto& kv : ctx->hostPins_)
      for (auto* r : kv.second) ctx->ownersAtExit_.push_back(r);
    for (auto& kv : ctx->asideRefs_) ctx->ownersAtExit_.push_back(kv.second);
    ctx->hostPins_.clear();
    ctx->asideRefs_.clear();
  }
  ctx->finish(env, job);
}

Napi::Value Create(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  AddonData* data = env.GetInstanceData<AddonData>();
  Napi::Object obj = data->ctor.New({info.Length() > 0 ? info[0] : env.Undefined()});
  return NativeController::Unwrap(obj)->Start(env);
}

// An environment's exit tears down the controllers it created only: socket workers load the addon
// for their CPU kernels (addon_cpu.cpp), and a worker ending must leave the coordinator's GPUs alone.
void Teardown(void* env) {
  std::vector<NativeController*> live;
  {
    std::lock_guard<std::mutex> lk(gLiveMutex);
    for (auto* c : gLive)
      if ((napi_env)c->Env() == (napi_env)env) live.push_back(c);
  }
  for (auto* c : live) c->teardown();
}

Napi::Object InitModule(Napi::Env env, Napi::Object exports) {
  // The kernels load with the CUDA context (opened while the graph loads, or at create), not at
  // each one's first launch inside a session's first run (+2-3 ms for BFS and WCC on the H200
  // host, bench/results/h200-2026-11-27-cli-start). Before the first CUDA call; a user's setting stays.
#ifndef _WIN32
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);
#endif
  auto* data = new AddonData();
  data->ctor = Napi::Persistent(NativeController::Init(env));
  env.SetInstanceData<AddonData>(data);
  napi_add_env_cleanup_hook(env, Teardown, (napi_env)env);
  exports.Set("create", Napi::Function::New(env, Create, "create"));
  ExportFunctions(env, exports);
  return exports;
}

}  // namespace

NODE_API_MODULE(tessera_native, InitModule)
