// Node-API binding: one NativeController per device, each with its own native worker thread and
// a job queue. Every long operation runs on that thread (the CUDA context is used from it only)
// and settles a Promise through a thread-safe function. Typed arrays and page buffers handed to a
// job are kept alive by references until the job has settled (pages: until replaced or closed).
#include <napi.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "controller.h"

namespace {

using ts::CodedError;

struct Job {
  std::function<void()> work;                        // worker thread
  std::function<Napi::Value(Napi::Env)> settle;      // JS thread, after work succeeded
  std::unique_ptr<Napi::Promise::Deferred> deferred;
  std::vector<std::unique_ptr<Napi::Reference<Napi::Value>>> keep;
  std::vector<void*> release;  // page owners (Napi::Reference<Napi::Value>*) to delete on the JS thread
  bool ok = true;
  bool closeAfter = false;     // stop the worker after this job (close, failed create)
  bool closeOnError = false;
  std::string code, message;
};

class NativeController;
void CallJs(Napi::Env env, Napi::Function, NativeController* ctx, Job* job);
using Tsfn = Napi::TypedThreadSafeFunction<NativeController, Job, CallJs>;

std::mutex gLiveMutex;
std::set<NativeController*> gLive;

Napi::Error codedError(Napi::Env env, const std::string& code, const std::string& msg) {
  Napi::Error e = Napi::Error::New(env, msg);
  e.Set("code", Napi::String::New(env, code));
  return e;
}

struct TA {
  napi_typedarray_type type;
  size_t length = 0;
  void* data = nullptr;
};

/** Typed-array info via the C API: works for views over SharedArrayBuffers too. */
bool getTypedArray(Napi::Env env, Napi::Value v, TA* out) {
  bool is = false;
  if (napi_is_typedarray(env, v, &is) != napi_ok || !is) return false;
  napi_value ab;
  size_t off;
  return napi_get_typedarray_info(env, v, &out->type, &out->length, &out->data, &ab, &off) == napi_ok;
}

bool typedArrayState(napi_typedarray_type t, ts::SType* s) {
  switch (t) {
    case napi_float64_array: *s = ts::SType::F64; return true;
    case napi_float32_array: *s = ts::SType::F32; return true;
    case napi_uint32_array: *s = ts::SType::U32; return true;
    case napi_int32_array: *s = ts::SType::I32; return true;
    case napi_uint8_array:
    case napi_uint8_clamped_array: *s = ts::SType::U8; return true;
    default: return false;
  }
}

double numberArg(const Napi::CallbackInfo& info, size_t i, const char* what, double dflt, bool required) {
  if (i >= info.Length() || info[i].IsUndefined()) {
    if (required) throw codedError(info.Env(), "TS_ARG", std::string(what) + " is required");
    return dflt;
  }
  if (!info[i].IsNumber()) throw codedError(info.Env(), "TS_ARG", std::string(what) + " must be a number");
  return info[i].As<Napi::Number>().DoubleValue();
}

double uintArg(const Napi::CallbackInfo& info, size_t i, const char* what, double dflt, bool required) {
  const double x = numberArg(info, i, what, dflt, required);
  if (!(x >= 0 && x <= 4294967295.0 && x == (double)(uint64_t)x))
    throw codedError(info.Env(), "TS_ARG", std::string(what) + " must be an integer in [0, 2^32), got " + std::to_string(x));
  return x;
}

std::string stringArg(const Napi::CallbackInfo& info, size_t i, const char* what) {
  if (i >= info.Length() || !info[i].IsString()) throw codedError(info.Env(), "TS_ARG", std::string(what) + " must be a string");
  return info[i].As<Napi::String>().Utf8Value();
}

class NativeController : public Napi::ObjectWrap<NativeController> {
 public:
  static Napi::Function Init(Napi::Env env) {
    return DefineClass(env, "NativeController",
                       {
                           InstanceMethod("info", &NativeController::Info),
                           InstanceMethod("allocState", &NativeController::AllocState),
                           InstanceMethod("freeState", &NativeController::FreeState),
                           InstanceMethod("writeState", &NativeController::WriteState),
                           InstanceMethod("readState", &NativeController::ReadState),
                           InstanceMethod("fillState", &NativeController::FillState),
                           InstanceMethod("pinHost", &NativeController::PinHost),
                           InstanceMethod("compact", &NativeController::Compact),
                           InstanceMethod("unpinHost", &NativeController::UnpinHost),
                           InstanceMethod("registerPage", &NativeController::RegisterPage),
                           InstanceMethod("unregisterSet", &NativeController::UnregisterSet),
                           InstanceMethod("run", &NativeController::Run),
                           InstanceMethod("close", &NativeController::Close),
                       });
  }

  NativeController(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NativeController>(info) {
    Napi::Env env = info.Env();
    if (info.Length() < 1 || !info[0].IsObject()) throw codedError(env, "TS_ARG", "create: options object required");
    Napi::Object o = info[0].As<Napi::Object>();
    Napi::Value dev = o.Get("device");
    if (!dev.IsNumber()) throw codedError(env, "TS_ARG", "create: options.device must be a number");
    const double d = dev.As<Napi::Number>().DoubleValue();
    if (d != (double)(int64_t)d || d < -2147483648.0 || d > 2147483647.0)
      throw codedError(env, "TS_BAD_DEVICE", "GPU device " + std::to_string(d) + " does not exist: the device index must be an integer");
    Napi::Value em = o.Get("emulated");
    if (!em.IsBoolean()) throw codedError(env, "TS_ARG", "create: options.emulated must be true or false");
    double limit = 0;
    Napi::Value ml = o.Get("memoryLimit");
    if (!ml.IsUndefined()) {
      if (!ml.IsNumber() || !(ml.As<Napi::Number>().DoubleValue() > 0))
        throw codedError(env, "TS_ARG", "create: options.memoryLimit must be a positive number of bytes");
      limit = ml.As<Napi::Number>().DoubleValue();
    }
    int streams = 4;
    Napi::Value st = o.Get("streams");
    if (!st.IsUndefined()) {
      const double s = st.IsNumber() ? st.As<Napi::Number>().DoubleValue() : -1;
      if (!(s >= 1 && s <= 32 && s == (int)s)) throw codedError(env, "TS_ARG", "create: options.streams must be an integer in 1..32");
      streams = (int)s;
    }
    device_ = (int)d;
    ctl_ = std::make_unique<ts::Controller>((int)d, em.As<Napi::Boolean>().Value(), limit, streams);
    tsfn_ = Tsfn::New(env, "tessera-gpu", 0, 1, this);
    tsfn_.Unref(env);
    worker_ = std::thread([this] { loop(); });
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

  Napi::Value enqueue(Napi::Env env, Job* j) {
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
    {
      std::lock_guard<std::mutex> lk(m_);
      q_.push_back(j);
    }
    cv_.notify_one();
    return p;
  }

  void loop() {
    for (;;) {
      Job* j = nullptr;
      {
        std::unique_lock<std::mutex> lk(m_);
        cv_.wait(lk, [this] { return stop_ || !q_.empty(); });
        if (q_.empty()) break;  // stop_ and nothing left
        j = q_.front();
        q_.pop_front();
      }
      try {
        j->work();
      } catch (const CodedError& e) {
        j->ok = false;
        j->code = e.code;
        j->message = e.what();
      } catch (const std::exception& e) {
        j->ok = false;
        j->code = "TS_NATIVE";
        j->message = e.what();
      } catch (...) {
        j->ok = false;
        j->code = "TS_NATIVE";
        j->message = "unknown native error";
      }
      const bool last = j->closeAfter || (!j->ok && j->closeOnError);
      if (last) {
        try {
          ctl_->shutdown();
        } catch (...) {
        }
      }
      if (tsfn_.BlockingCall(j) != napi_ok) {
        // the environment is going away: nothing can be settled any more
        for (auto& r : j->keep) r->SuppressDestruct();
        delete j;
      }
      if (last) break;
    }
    try {
      ctl_->shutdown();
    } catch (...) {
    }
  }

  void stopWorker(bool abort) {
    if (!worker_.joinable()) return;
    {
      std::lock_guard<std::mutex> lk(m_);
      stop_ = true;
    }
    cv_.notify_one();
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
    j->settle = [out](Napi::Env env) -> Napi::Value {
      Napi::Object o = Napi::Object::New(env);
      o.Set("device", out->device);
      o.Set("name", out->props.name);
      o.Set("emulated", out->props.emulated);
      o.Set("cudaBuild", out->cudaBuild);
      o.Set("computeCapability", out->props.emulated ? std::string("emulated")
                                                      : std::to_string(out->props.ccMajor) + "." + std::to_string(out->props.ccMinor));
      o.Set("multiProcessors", out->props.multiProcessors);
      o.Set("totalMemory", (double)out->props.totalMemory);
      o.Set("freeMemory", (double)out->props.freeMemory);
      o.Set("memoryLimit", (double)out->memoryLimit);
      o.Set("used", (double)out->used);
      o.Set("stateBytes", (double)out->stateBytes);
      o.Set("scratchBytes", (double)out->scratchBytes);
      o.Set("cacheBytes", (double)out->cacheBytes);
      o.Set("slotBytes", (double)out->slotBytes);
      o.Set("cacheSlots", out->cacheSlots);
      o.Set("residentPages", out->residentPages);
      o.Set("registeredPages", out->registeredPages);
      o.Set("pinnedPages", out->pinnedPages);
      o.Set("pinnedHostBytes", (double)out->pinnedHostBytes);
      o.Set("streams", out->streams);
      Napi::Object t = Napi::Object::New(env);
      t.Set("calls", (double)out->totals.calls);
      t.Set("hits", (double)out->totals.hits);
      t.Set("misses", (double)out->totals.misses);
      t.Set("evictions", (double)out->totals.evictions);
      t.Set("bytesCopied", (double)out->totals.bytesCopied);
      t.Set("cacheResets", (double)out->totals.cacheResets);
      t.Set("copyMs", out->totals.copyMs);
      t.Set("kernelMs", out->totals.kernelMs);
      t.Set("wallMs", out->totals.wallMs);
      o.Set("totals", t);
      return o;
    };
    return enqueue(env, j);
  }

  Napi::Value AllocState(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const std::string name = stringArg(info, 0, "allocState: name");
    const std::string type = stringArg(info, 1, "allocState: type");
    ts::SType t;
    if (!ts::parseSType(type, &t)) throw codedError(env, "TS_ARG", "allocState: type must be one of f64, f32, u32, i32, u8; got '" + type + "'");
    const size_t n = (size_t)uintArg(info, 2, "allocState: length", 0, true);
    Job* j = newJob(env);
    j->work = [this, name, t, n] { ctl_->allocState(name, t, n); };
    return enqueue(env, j);
  }

  Napi::Value FreeState(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const std::string name = stringArg(info, 0, "freeState: name");
    Job* j = newJob(env);
    j->work = [this, name] { ctl_->freeState(name); };
    return enqueue(env, j);
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
    Job* j = newJob(env);
    auto ids = std::make_shared<std::vector<uint32_t>>();
    auto vals = std::make_shared<std::vector<double>>();
    j->work = [this, flags, state, begin, end, ids, vals, mask] { ctl_->compact(flags, state, begin, end, *ids, *vals, mask); };
    j->settle = [ids, vals](Napi::Env env) {
      const size_t n = ids->size();
      Napi::ArrayBuffer ib = Napi::ArrayBuffer::New(env, n * 4);
      Napi::ArrayBuffer vb = Napi::ArrayBuffer::New(env, n * 8);
      if (n) {
        std::memcpy(ib.Data(), ids->data(), n * 4);
        std::memcpy(vb.Data(), vals->data(), n * 8);
      }
      Napi::Object o = Napi::Object::New(env);
      o.Set("ids", Napi::Uint32Array::New(env, n, ib, 0));
      o.Set("values", Napi::Float64Array::New(env, n, vb, 0));
      return o;
    };
    return enqueue(env, j);
  }

  /**
   * pinHost(view) -> Promise<boolean>: page-locks the view's bytes until unpinHost(view) or close;
   * the addon holds a reference so the buffer cannot be collected while the device may DMA it.
   */
  Napi::Value PinHost(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    TA ta;
    if (info.Length() < 1 || !getTypedArray(env, info[0], &ta))
      throw codedError(env, "TS_ARG", "pinHost: a typed array (view of the host buffer to page-lock) is required");
    size_t elem = 1;
    ts::SType t;
    if (typedArrayState(ta.type, &t)) elem = ts::stypeSize(t);
    void* p = ta.data;
    const size_t bytes = ta.length * elem;
    Job* j = newJob(env);
    auto ok = std::make_shared<bool>(false);
    j->work = [this, p, bytes, ok] { *ok = ctl_->pinHost(p, bytes); };
    auto* ref = new Napi::Reference<Napi::Value>(Napi::Persistent(info[0]));
    j->settle = [this, p, ok, ref](Napi::Env env) {
      if (*ok) hostPins_[p].push_back(ref);
      else delete ref;
      return Napi::Boolean::New(env, *ok);
    };
    return enqueue(env, j);
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
    Napi::Env env = info.Env();
    const std::string name = stringArg(info, 0, "fillState: name");
    const double v = numberArg(info, 1, "fillState: value", 0, true);
    Job* j = newJob(env);
    j->work = [this, name, v] { ctl_->fillState(name, v); };
    return enqueue(env, j);
  }

  Napi::Value RegisterPage(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    ts::PageSpec sp;
    const double setId = numberArg(info, 0, "registerPage: setId", 0, true);
    if (setId != (double)(int)setId || setId < 0) throw codedError(env, "TS_ARG", "registerPage: setId must be a non-negative integer");
    sp.setId = (int)setId;
    sp.index = (uint32_t)uintArg(info, 1, "registerPage: pageIndex", 0, true);
    TA ta;
    if (info.Length() < 3 || !getTypedArray(env, info[2], &ta) || ta.type != napi_uint8_array)
      throw codedError(env, "TS_ARG", "registerPage: the page buffer must be given as a Uint8Array view of its SharedArrayBuffer");
    sp.data = (const uint8_t*)ta.data;
    sp.dataBytes = ta.length;
    sp.vBegin = (uint32_t)uintArg(info, 3, "registerPage: vBegin", 0, true);
    sp.vEnd = (uint32_t)uintArg(info, 4, "registerPage: vEnd", 0, true);
    sp.edges = (uint32_t)uintArg(info, 5, "registerPage: edges", 0, true);
    sp.wbytes = (uint32_t)uintArg(info, 6, "registerPage: weightBytes", 0, false);
    if (info.Length() > 7 && info[7].IsBoolean()) sp.split = info[7].As<Napi::Boolean>().Value() ? 1 : 0;
    if ((size_t)sp.data % 8 != 0) throw codedError(env, "TS_ARG", "registerPage: the page buffer must be 8-byte aligned");
    auto* owner = new Napi::Reference<Napi::Value>(Napi::Persistent(info[2]));
    sp.owner = owner;
    pageOwners_.insert(owner);
    Job* j = newJob(env);
    auto replaced = std::make_shared<void*>(nullptr);
    j->work = [this, sp, replaced] { *replaced = ctl_->registerPage(sp); };
    j->settle = [this, replaced](Napi::Env env) {
      if (*replaced) {
        pageOwners_.erase(*replaced);
        delete (Napi::Reference<Napi::Value>*)*replaced;
      }
      return env.Undefined();
    };
    failOwner_[j] = owner;  // released by CallJs if the registration fails
    return enqueue(env, j);
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
    ts::RunRequest rq;
    rq.kernel = stringArg(info, 0, "run: kernel name");
    if (info.Length() < 2 || !info[1].IsObject()) throw codedError(env, "TS_ARG", "run: options { setId, pages, params?, state? } required");
    Napi::Object o = info[1].As<Napi::Object>();
    Napi::Value sid = o.Get("setId");
    rq.setId = sid.IsNumber() ? sid.As<Napi::Number>().Int32Value() : 0;
    Napi::Value pg = o.Get("pages");
    TA ta;
    if (pg.IsArray()) {
      Napi::Array a = pg.As<Napi::Array>();
      for (uint32_t i = 0; i < a.Length(); i++) {
        Napi::Value x = a.Get(i);
        if (!x.IsNumber()) throw codedError(env, "TS_ARG", "run: pages must hold page indices");
        rq.pages.push_back(x.As<Napi::Number>().Uint32Value());
      }
    } else if (getTypedArray(env, pg, &ta) && ta.type == napi_uint32_array) {
      const uint32_t* p = (const uint32_t*)ta.data;
      rq.pages.assign(p, p + ta.length);
    } else {
      throw codedError(env, "TS_ARG", "run: pages must be an array (or Uint32Array) of page indices");
    }
    Napi::Value pr = o.Get("params");
    if (pr.IsObject()) {
      Napi::Object po = pr.As<Napi::Object>();
      Napi::Array keys = po.GetPropertyNames();
      for (uint32_t i = 0; i < keys.Length(); i++) {
        std::string k = keys.Get(i).ToString().Utf8Value();
        Napi::Value v = po.Get(k);
        if (v.IsUndefined()) continue;
        if (!v.IsNumber()) throw codedError(env, "TS_ARG", "run: params." + k + " must be a number");
        rq.params[k] = v.As<Napi::Number>().DoubleValue();
      }
    }
    Napi::Value sv = o.Get("state");
    if (sv.IsObject()) {
      Napi::Object so = sv.As<Napi::Object>();
      Napi::Array keys = so.GetPropertyNames();
      for (uint32_t i = 0; i < keys.Length(); i++) {
        std::string k = keys.Get(i).ToString().Utf8Value();
        Napi::Value v = so.Get(k);
        if (v.IsUndefined()) continue;
        if (!v.IsString()) throw codedError(env, "TS_ARG", "run: state." + k + " must be a state array name");
        rq.state[k] = v.As<Napi::String>().Utf8Value();
      }
    }
    Job* j = newJob(env);
    auto st = std::make_shared<ts::RunStats>();
    j->work = [this, rq, st] { *st = ctl_->run(rq); };
    j->settle = [st](Napi::Env env) -> Napi::Value {
      Napi::Object r = Napi::Object::New(env);
      r.Set("kernel", st->kernel);
      r.Set("pages", st->pages);
      r.Set("hits", st->hits);
      r.Set("misses", st->misses);
      r.Set("evictions", st->evictions);
      r.Set("bytesCopied", (double)st->bytesCopied);
      r.Set("copyMs", st->copyMs);
      r.Set("kernelMs", st->kernelMs);
      r.Set("wallMs", st->wallMs);
      r.Set("activated", (double)st->activated);
      if (st->hasSum) r.Set("sum", st->sum);
      r.Set("cacheSlots", st->cacheSlots);
      r.Set("slotBytes", (double)st->slotBytes);
      if (st->hasOutbox) {
        const size_t n = st->outIds.size();
        Napi::ArrayBuffer ib = Napi::ArrayBuffer::New(env, n * 4);
        Napi::ArrayBuffer vb = Napi::ArrayBuffer::New(env, n * 8);
        if (n) {
          std::memcpy(ib.Data(), st->outIds.data(), n * 4);
          std::memcpy(vb.Data(), st->outVals.data(), n * 8);
        }
        Napi::Object ob = Napi::Object::New(env);
        ob.Set("ids", Napi::Uint32Array::New(env, n, ib, 0));
        ob.Set("values", Napi::Float64Array::New(env, n, vb, 0));
        ob.Set("sent", (double)st->outboxSent);
        r.Set("outbox", ob);
      }
      return r;
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
  std::map<Job*, void*> failOwner_;
  /** Host views pinned by pinHost: kept alive until unpinHost or close. */
  std::map<void*, std::vector<Napi::Reference<Napi::Value>*>> hostPins_;
  std::vector<void*> ownersAtExit_;

 private:
  int device_ = 0;
  Tsfn tsfn_;
  std::thread worker_;
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<Job*> q_;
  bool stop_ = false;
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
    if (!job->ok) {
      ctx->pageOwners_.erase(fo->second);
      job->release.push_back(fo->second);
    }
    ctx->failOwner_.erase(fo);
  }
  if (job->closeAfter || (!job->ok && job->closeOnError)) {
    for (void* o : ctx->pageOwners_) ctx->ownersAtExit_.push_back(o);
    ctx->pageOwners_.clear();
    for (auto& kv : ctx->hostPins_)
      for (auto* r : kv.second) ctx->ownersAtExit_.push_back(r);
    ctx->hostPins_.clear();
  }
  ctx->finish(env, job);
}

struct AddonData {
  Napi::FunctionReference ctor;
};

Napi::Value Create(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  AddonData* data = env.GetInstanceData<AddonData>();
  Napi::Object obj = data->ctor.New({info.Length() > 0 ? info[0] : env.Undefined()});
  return NativeController::Unwrap(obj)->Start(env);
}

Napi::Value DeviceCount(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::string why;
  const int n = ts::cudaDeviceCount(&why);
  Napi::Object o = Napi::Object::New(env);
  o.Set("count", n < 0 ? 0 : n);
  if (n < 0) o.Set("reason", why);
  return o;
}


// ---- Host threads for the coordinator's passes (foldFlags, listFlags, fillArray) -------------------

/** Parts to cut n items into: one per core at most, `minPerPart` items each at least. */
size_t partsFor(size_t n, size_t minPerPart) {
  const size_t hw = std::max<size_t>(1, std::thread::hardware_concurrency());
  return std::min<size_t>(hw, std::max<size_t>(1, n / minPerPart));
}

/** Runs fn(p, lo, hi) for each of `parts` equal slices of [0, n), on a thread each (the last on this one). */
template <typename F>
void runParts(size_t n, size_t parts, F fn) {
  std::vector<std::thread> threads;
  for (size_t p = 0; p < parts; p++) {
    const size_t lo = n * p / parts, hi = n * (p + 1) / parts;
    if (p + 1 == parts) fn(p, lo, hi);
    else threads.emplace_back(fn, p, lo, hi);
  }
  for (auto& t : threads) t.join();
}

// ---- foldFlags: the coordinator's fold of flagged changes (src/engine/coordinator.ts) -------------
//
// foldFlags(op, state, next, flags, begin, value | values, wantList) -> { active, found? }
// For every i with flags[i] != 0 and v = begin + i: 'claim' sets state[v] = value where it is -1;
// 'min' lowers state[v] to values[i]; a changed v whose next[v] is 0 gets next[v] = 1, counts in
// active and (wantList) joins found in ascending order. The same as foldClaimFlags / foldMinFlags in
// TypeScript, on several threads: a push level of RMAT 24 folds ~10 M claims (~170 ms in JS). The
// caller is at the superstep's barrier: no other thread writes these arrays meanwhile, and the
// chunks touch disjoint vertices.

template <typename T, bool kClaim>
void foldChunk(T* state, uint8_t* next, const uint8_t* flags, const T* values, T value, size_t begin, size_t lo, size_t hi,
               uint32_t* found, size_t* active) {
  size_t act = 0;
  // One flag: the branches of the original loop (kept for a chunk's ragged ends).
  auto one = [&](size_t i) {
    if (flags[i] == 0) return;
    const size_t v = begin + i;
    if (kClaim) {
      if (state[v] != (T)-1) return;
      state[v] = value;
    } else {
      const T x = values[i];
      if (!(x < state[v])) return;
      state[v] = x;
    }
    if (next[v] != 0) return;
    next[v] = 1;
    if (found != nullptr) found[act] = (uint32_t)v;
    act++;
  };
  size_t i = lo;
  for (; i < hi && ((begin + i) & 7) != 0; i++) one(i);
  // Eight flags at a time: a clear word is skipped; a set one is folded without branches (a push
  // level sets a third of the flags at random: the branches mispredicted). found[act] is written
  // for every flag and kept only where act advances; the chunk owns found[0, hi - lo).
  for (; i + 8 <= hi; i += 8) {
    uint64_t w;
    std::memcpy(&w, flags + i, 8);
    if (w == 0) continue;
    for (size_t j = i; j < i + 8; j++) {
      const size_t v = begin + j;
      const bool f = flags[j] != 0;
      const T old = state[v];
      bool changed;
      if (kClaim) {
        changed = f & (old == (T)-1);
        state[v] = changed ? value : old;
      } else {
        const T x = values[j];
        changed = f & (x < old);
        state[v] = changed ? x : old;
      }
      const uint8_t nx = next[v];
      const bool fresh = changed & (nx == 0);
      next[v] = nx | (uint8_t)changed;
      if (found != nullptr) found[act] = (uint32_t)v;
      act += fresh;
    }
  }
  for (; i < hi; i++) one(i);
  *active = act;
}

// Chunk p writes its activated ids at found + lo (it has at most hi - lo of them); the chunks are
// then moved down to one ascending list. Returns how many.
template <typename T, bool kClaim>
size_t foldAll(T* state, uint8_t* next, const uint8_t* flags, const T* values, T value, size_t begin, size_t n, uint32_t* found,
               size_t* activeOut) {
  const size_t parts = partsFor(n, size_t(1) << 20);  // ~1 M flags per thread at least
  std::vector<size_t> active(parts, 0);
  runParts(n, parts, [&](size_t p, size_t lo, size_t hi) {
    foldChunk<T, kClaim>(state, next, flags, values, value, begin, lo, hi, found ? found + lo : nullptr, &active[p]);
  });
  size_t at = 0, total = 0;
  for (size_t p = 0; p < parts; p++) {
    const size_t lo = n * p / parts;
    if (found != nullptr && at != lo && active[p] > 0) std::memmove(found + at, found + lo, active[p] * 4);
    at += active[p];
    total += active[p];
  }
  *activeOut = total;
  return total;
}

template <typename T>
size_t foldTyped(bool claim, void* state, uint8_t* next, const uint8_t* flags, const void* values, double value, size_t begin, size_t n,
                 uint32_t* found, size_t* active) {
  if (claim) return foldAll<T, true>((T*)state, next, flags, nullptr, (T)value, begin, n, found, active);
  return foldAll<T, false>((T*)state, next, flags, (const T*)values, (T)0, begin, n, found, active);
}

Napi::Value FoldFlags(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const std::string op = stringArg(info, 0, "foldFlags: op");
  const bool claim = op == "claim";
  if (!claim && op != "min") throw codedError(env, "TS_ARG", "foldFlags: op must be 'claim' or 'min'");
  TA state, next, flags, values;
  if (info.Length() < 6 || !getTypedArray(env, info[1], &state) || !getTypedArray(env, info[2], &next) || !getTypedArray(env, info[3], &flags))
    throw codedError(env, "TS_ARG", "foldFlags: state, next and flags must be typed arrays");
  if (next.type != napi_uint8_array || flags.type != napi_uint8_array) throw codedError(env, "TS_ARG", "foldFlags: next and flags must be Uint8Arrays");
  const size_t begin = (size_t)uintArg(info, 4, "foldFlags: begin", 0, true);
  const size_t n = flags.length;
  if (begin + n > state.length || begin + n > next.length) throw codedError(env, "TS_ARG", "foldFlags: the flags' range lies outside state or next");
  double value = 0;
  if (claim) value = numberArg(info, 5, "foldFlags: value", 0, true);
  else {
    if (!getTypedArray(env, info[5], &values) || values.type != state.type || values.length < n)
      throw codedError(env, "TS_ARG", "foldFlags: values must be a typed array of the state's type with one entry per flag");
  }
  const bool wantList = info.Length() > 6 && info[6].ToBoolean().Value();
  if (!claim && state.type == napi_uint8_array) throw codedError(env, "TS_ARG", "foldFlags: state must be an Int32, Uint32, Float32 or Float64 array");
  // The list's room: one id per flag at most; malloc'd (untouched pages cost nothing) and handed
  // to JS as an external buffer freed with it.
  uint32_t* found = wantList ? (uint32_t*)std::malloc(std::max<size_t>(4, n * 4)) : nullptr;
  if (wantList && found == nullptr) throw codedError(env, "TS_OOM", "foldFlags: no host memory for the list of activated vertices");
  size_t active = 0;
  uint8_t* nx = (uint8_t*)next.data;
  const uint8_t* fl = (const uint8_t*)flags.data;
  switch (state.type) {
    case napi_int32_array: foldTyped<int32_t>(claim, state.data, nx, fl, values.data, value, begin, n, found, &active); break;
    case napi_uint32_array:
      if (claim) {
        std::free(found);
        throw codedError(env, "TS_ARG", "foldFlags: claim needs a signed state (-1 = unclaimed)");
      }
      foldTyped<uint32_t>(false, state.data, nx, fl, values.data, value, begin, n, found, &active);
      break;
    case napi_float64_array: foldTyped<double>(claim, state.data, nx, fl, values.data, value, begin, n, found, &active); break;
    case napi_float32_array: foldTyped<float>(claim, state.data, nx, fl, values.data, value, begin, n, found, &active); break;
    default:
      std::free(found);
      throw codedError(env, "TS_ARG", "foldFlags: state must be an Int32, Uint32, Float32 or Float64 array");
  }
  Napi::Object out = Napi::Object::New(env);
  out.Set("active", Napi::Number::New(env, (double)active));
  if (wantList) {
    Napi::ArrayBuffer ab = Napi::ArrayBuffer::New(env, found, std::max<size_t>(4, n * 4), [](Napi::Env, void* d) { std::free(d); });
    out.Set("found", Napi::Uint32Array::New(env, active, ab, 0));
  }
  return out;
}

// ---- listFlags: the coordinator's next frontier list (src/engine/coordinator.ts listOf) ---------
//
// listFlags(flags, out, degree?) -> { count, edges }
// Writes the indices i with flags[i] != 0 into out in ascending order (at most out.length of them)
// and, with `degree`, sums degree[i] over those written (the frontier's out-edges, which the next
// superstep's direction switch and task cut need). Several threads: each counts its chunk's flags
// (a popcount per word), then writes them from its prefix offset. A push level of RMAT 24 lists
// ~6 M of 16.8 M vertices (15 ms on the H100 host's 16 threads with a branch per flag).

struct ListPart {
  size_t count = 0;
  double edges = 0;
};

/** Set bytes of a word of 0/non-0 flags, as 0x01 bytes (so a popcount counts them). */
static inline uint64_t setBytes(uint64_t w) {
  w |= w >> 4;
  w |= w >> 2;
  w |= w >> 1;
  return w & 0x0101010101010101ULL;
}

static void countChunk(const uint8_t* flags, size_t lo, size_t hi, ListPart* part) {
  size_t c = 0;
  size_t i = lo;
  for (; i < hi && (i & 7) != 0; i++) c += flags[i] != 0;
  for (; i + 8 <= hi; i += 8) {
    uint64_t w;
    std::memcpy(&w, flags + i, 8);
    if (w != 0) c += (size_t)__builtin_popcountll(setBytes(w));
  }
  for (; i < hi; i++) c += flags[i] != 0;
  part->count = c;
}

// Writes the chunk's ids into out[at, end) and sums their degrees. Within a set word, without
// branches: out[k] is written for every flag and k advances only on set ones (a third of the flags
// of a big push level are set at random: the branches mispredicted); only where eight writes
// stay below `end`, the chunk's last slot, as the next slot belongs to the next chunk.
static void writeChunk(const uint8_t* flags, const uint32_t* deg, size_t lo, size_t hi, uint32_t* out, size_t at, size_t end, double* edges) {
  size_t k = at;
  uint64_t e = 0;
  auto one = [&](size_t i) {
    if (flags[i] == 0 || k >= end) return;
    out[k++] = (uint32_t)i;
    if (deg != nullptr) e += deg[i];
  };
  size_t i = lo;
  for (; i < hi && (i & 7) != 0; i++) one(i);
  for (; i + 8 <= hi; i += 8) {
    uint64_t w;
    std::memcpy(&w, flags + i, 8);
    if (w == 0) continue;
    if (k + 8 > end) {
      for (size_t j = i; j < i + 8; j++) one(j);
      continue;
    }
    for (size_t j = i; j < i + 8; j++) {
      const size_t f = flags[j] != 0;
      out[k] = (uint32_t)j;
      if (deg != nullptr) e += deg[j] & (0u - (uint32_t)f);
      k += f;
    }
  }
  for (; i < hi; i++) one(i);
  *edges = (double)e;
}

Napi::Value ListFlags(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  TA flags, out, deg;
  if (info.Length() < 2 || !getTypedArray(env, info[0], &flags) || !getTypedArray(env, info[1], &out) || flags.type != napi_uint8_array ||
      out.type != napi_uint32_array)
    throw codedError(env, "TS_ARG", "listFlags: flags must be a Uint8Array and out a Uint32Array");
  const bool withDeg = info.Length() > 2 && !info[2].IsUndefined();
  if (withDeg && (!getTypedArray(env, info[2], &deg) || deg.type != napi_uint32_array || deg.length < flags.length))
    throw codedError(env, "TS_ARG", "listFlags: degree must be a Uint32Array with an entry per flag");
  const size_t n = flags.length;
  const uint8_t* fl = (const uint8_t*)flags.data;
  const uint32_t* dg = withDeg ? (const uint32_t*)deg.data : nullptr;
  uint32_t* o = (uint32_t*)out.data;
  const size_t parts = partsFor(n, size_t(1) << 20);  // ~1 M flags per thread at least
  std::vector<ListPart> part(parts);
  runParts(n, parts, [&](size_t p, size_t lo, size_t hi) { countChunk(fl, lo, hi, &part[p]); });
  std::vector<size_t> at(parts, 0);
  size_t total = 0;
  for (size_t p = 0; p < parts; p++) (at[p] = total, total += part[p].count);
  const size_t cap = out.length;
  runParts(n, parts, [&](size_t p, size_t lo, size_t hi) {
    writeChunk(fl, dg, lo, hi, o, std::min(at[p], cap), std::min(at[p] + part[p].count, cap), &part[p].edges);
  });
  double edges = 0;
  for (size_t p = 0; p < parts; p++) edges += part[p].edges;
  Napi::Object res = Napi::Object::New(env);
  res.Set("count", Napi::Number::New(env, (double)std::min(total, cap)));
  res.Set("edges", Napi::Number::New(env, edges));
  return res;
}

// ---- fillArray: large state arrays set on several threads (src/engine/fill.ts) ------------------
//
// fillArray(array, value): array[i] = value for every i. A fresh run's state array is fresh memory
// (V8 gets it zeroed and unmapped): filling it on one thread pays a 4 KiB page fault at a time
// (RMAT 24's 67 MB depth array: 30-57 ms on the H100 host, up to a third of a GPU BFS run); each
// thread here fills (and faults in) its own chunk. (Asking for huge pages first, MADV_HUGEPAGE,
// was tried: 7-94 ms for 67 MB from run to run on the 2-core box, vs a steady 18-19 ms without.)

template <typename T>
void fillChunks(T* a, size_t n, T value) {
  const size_t parts = partsFor(n, (size_t(4) << 20) / sizeof(T));  // ~4 MiB per thread at least
  runParts(n, parts, [=](size_t, size_t lo, size_t hi) { std::fill(a + lo, a + hi, value); });
}

Napi::Value FillArray(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  TA a;
  if (info.Length() < 2 || !getTypedArray(env, info[0], &a)) throw codedError(env, "TS_ARG", "fillArray: array must be a typed array");
  const double value = numberArg(info, 1, "fillArray: value", 0, true);
  switch (a.type) {
    case napi_int32_array: fillChunks<int32_t>((int32_t*)a.data, a.length, (int32_t)(int64_t)value); break;
    case napi_uint32_array: fillChunks<uint32_t>((uint32_t*)a.data, a.length, (uint32_t)(int64_t)value); break;
    case napi_float32_array: fillChunks<float>((float*)a.data, a.length, (float)value); break;
    case napi_float64_array: fillChunks<double>((double*)a.data, a.length, value); break;
    case napi_uint8_array: fillChunks<uint8_t>((uint8_t*)a.data, a.length, (uint8_t)(int64_t)value); break;  // as Uint8Array.fill: modulo 256
    default: throw codedError(env, "TS_ARG", "fillArray: array must be an Int32, Uint32, Float32, Float64 or Uint8 array");
  }
  return env.Undefined();
}

void Teardown(void*) {
  std::vector<NativeController*> live;
  {
    std::lock_guard<std::mutex> lk(gLiveMutex);
    live.assign(gLive.begin(), gLive.end());
  }
  for (auto* c : live) c->teardown();
}

Napi::Object InitModule(Napi::Env env, Napi::Object exports) {
  auto* data = new AddonData();
  data->ctor = Napi::Persistent(NativeController::Init(env));
  env.SetInstanceData<AddonData>(data);
  napi_add_env_cleanup_hook(env, Teardown, nullptr);
  exports.Set("create", Napi::Function::New(env, Create, "create"));
  exports.Set("cudaDeviceCount", Napi::Function::New(env, DeviceCount, "cudaDeviceCount"));
  exports.Set("foldFlags", Napi::Function::New(env, FoldFlags, "foldFlags"));
  exports.Set("listFlags", Napi::Function::New(env, ListFlags, "listFlags"));
  exports.Set("fillArray", Napi::Function::New(env, FillArray, "fillArray"));
  exports.Set("flavor", Napi::String::New(env, ts::builtWithCuda() ? "cuda" : "host"));
  exports.Set("napiVersion", Napi::Number::New(env, NAPI_VERSION));
  exports.Set("abiVersion", Napi::Number::New(env, 1));
  return exports;
}

}  // namespace

NODE_API_MODULE(tessera_native, InitModule)
