// Node-API: a controller's create() options and run() request checked, the objects its info() and
// run() resolve with (addon.cpp), cudaDeviceCount and dropFileCache.
#include <fcntl.h>

#include "addon.h"
#include "backend.h"
#include "controller.h"

namespace ts {
namespace addon {

// A page store (src/graph/store.ts) reads a graph larger than memory once per pass: the kernel's
// cache of what it read would hold host memory hostMemoryLimit leaves to others, and evict the
// slots' pages before its own. POSIX_FADV_DONTNEED lets the range's clean cached pages go.
Napi::Value DropFileCache(const Napi::CallbackInfo& info) {
  const double fd = numberArg(info, 0, "dropFileCache: fd", 0, true);
  const double off = numberArg(info, 1, "dropFileCache: offset", 0, true);
  const double len = numberArg(info, 2, "dropFileCache: length", 0, true);
  if (fd < 0 || off < 0 || len < 0) throw codedError(info.Env(), "TS_ARG", "dropFileCache: fd, offset and length must be >= 0");
  return Napi::Number::New(info.Env(), posix_fadvise((int)fd, (off_t)off, (off_t)len, POSIX_FADV_DONTNEED));
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

Napi::Object controllerInfo(Napi::Env env, const ts::ControllerInfo& info) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("device", info.device);
  o.Set("name", info.props.name);
  o.Set("emulated", info.props.emulated);
  o.Set("cudaBuild", info.cudaBuild);
  o.Set("computeCapability", info.props.emulated ? std::string("emulated")
                                                  : std::to_string(info.props.ccMajor) + "." + std::to_string(info.props.ccMinor));
  o.Set("multiProcessors", info.props.multiProcessors);
  o.Set("totalMemory", (double)info.props.totalMemory);
  o.Set("freeMemory", (double)info.props.freeMemory);
  o.Set("memoryLimit", (double)info.memoryLimit);
  o.Set("used", (double)info.used);
  o.Set("stateBytes", (double)info.stateBytes);
  o.Set("scratchBytes", (double)info.scratchBytes);
  o.Set("cacheBytes", (double)info.cacheBytes);
  o.Set("slotBytes", (double)info.slotBytes);
  o.Set("cacheSlots", info.cacheSlots);
  o.Set("residentPages", info.residentPages);
  o.Set("registeredPages", info.registeredPages);
  o.Set("pinnedPages", info.pinnedPages);
  o.Set("pinnedHostBytes", (double)info.pinnedHostBytes);
  o.Set("pinnedAsideBytes", (double)info.pinnedAsideBytes);
  o.Set("hostBufferBytes", (double)info.hostBufferBytes);
  o.Set("hostBufferLimit", (double)info.hostBufferLimit);
  o.Set("bufferedPages", info.bufferedPages);
  o.Set("streams", info.streams);
  Napi::Object t = Napi::Object::New(env);
  t.Set("calls", (double)info.totals.calls);
  t.Set("hits", (double)info.totals.hits);
  t.Set("misses", (double)info.totals.misses);
  t.Set("evictions", (double)info.totals.evictions);
  t.Set("bytesCopied", (double)info.totals.bytesCopied);
  t.Set("cacheResets", (double)info.totals.cacheResets);
  t.Set("narrowReads", (double)info.totals.narrowReads);
  t.Set("fileBytes", (double)info.totals.fileBytes);
  t.Set("bufferHits", (double)info.totals.bufferHits);
  t.Set("copyMs", info.totals.copyMs);
  t.Set("kernelMs", info.totals.kernelMs);
  t.Set("wallMs", info.totals.wallMs);
  o.Set("totals", t);
  return o;
}

Napi::Object runStatsObject(Napi::Env env, const ts::RunStats& st) {
  Napi::Object r = Napi::Object::New(env);
  r.Set("kernel", st.kernel);
  r.Set("pages", st.pages);
  r.Set("hits", st.hits);
  r.Set("misses", st.misses);
  r.Set("evictions", st.evictions);
  r.Set("bytesCopied", (double)st.bytesCopied);
  r.Set("fileBytes", (double)st.fileBytes);
  r.Set("bufferHits", st.bufferHits);
  r.Set("copyMs", st.copyMs);
  r.Set("kernelMs", st.kernelMs);
  r.Set("wallMs", st.wallMs);
  r.Set("activated", (double)st.activated);
  if (st.hasSum) r.Set("sum", st.sum);
  r.Set("cacheSlots", st.cacheSlots);
  r.Set("slotBytes", (double)st.slotBytes);
  if (st.peerBytes > 0 || st.peerWaitMs > 0) {
    r.Set("peerBytes", (double)st.peerBytes);
    r.Set("peerWaitMs", st.peerWaitMs);
  }
  if (st.levels > 0) {
    r.Set("levels", st.levels);
    r.Set("edges", st.edges);
    r.Set("directions", st.directions);
    Napi::Array lt = Napi::Array::New(env, st.levelTimes.size() / 4);
    for (size_t i = 0; i + 3 < st.levelTimes.size(); i += 4) {
      Napi::Array one = Napi::Array::New(env, 4);
      for (uint32_t j = 0; j < 4; j++) one.Set(j, st.levelTimes[i + j]);
      lt.Set((uint32_t)(i / 4), one);
    }
    r.Set("levelTimes", lt);
  }
  if (st.hasOutbox) {
    Napi::Object ob = idsValues(env, st.outIds.data(), st.outVals.data(), st.outIds.size());
    ob.Set("sent", (double)st.outboxSent);
    r.Set("outbox", ob);
  }
  return r;
}

void ExportFunctions(Napi::Env env, Napi::Object exports) {
  exports.Set("cudaDeviceCount", Napi::Function::New(env, DeviceCount, "cudaDeviceCount"));
  exports.Set("dropFileCache", Napi::Function::New(env, DropFileCache, "dropFileCache"));
  exports.Set("foldFlags", Napi::Function::New(env, FoldFlags, "foldFlags"));
  exports.Set("listFlags", Napi::Function::New(env, ListFlags, "listFlags"));
  exports.Set("fillArray", Napi::Function::New(env, FillArray, "fillArray"));
  exports.Set("populate", Napi::Function::New(env, Populate, "populate"));
  exports.Set("copyArray", Napi::Function::New(env, CopyArray, "copyArray"));
  exports.Set("fillIndex", Napi::Function::New(env, FillIndex, "fillIndex"));
  exports.Set("countEqual", Napi::Function::New(env, CountEqual, "countEqual"));
  exports.Set("tsrCheck", Napi::Function::New(env, TsrCheck, "tsrCheck"));
#if !defined(_WIN32)
  exports.Set("tsrLoad", Napi::Function::New(env, TsrLoad, "tsrLoad"));
  exports.Set("tsrStop", Napi::Function::New(env, TsrStop, "tsrStop"));
#endif
  exports.Set("modelCount", Napi::Function::New(env, ModelCount, "modelCount"));
  exports.Set("nvrtc", Napi::Function::New(env, Nvrtc, "nvrtc"));
  exports.Set("cpu", CpuKernels(env));
  exports.Set("flavor", Napi::String::New(env, ts::builtWithCuda() ? "cuda" : "host"));
  exports.Set("napiVersion", Napi::Number::New(env, NAPI_VERSION));
  exports.Set("abiVersion", Napi::Number::New(env, 1));
}

/** Calls fn(key, value) for each defined entry of the object at `v` (when it is one). */
template <typename F>
static void eachEntry(Napi::Value v, F fn) {
  if (!v.IsObject()) return;
  Napi::Object o = v.As<Napi::Object>();
  Napi::Array keys = o.GetPropertyNames();
  for (uint32_t i = 0; i < keys.Length(); i++) {
    const std::string k = keys.Get(i).ToString().Utf8Value();
    Napi::Value x = o.Get(k);
    if (!x.IsUndefined()) fn(k, x);
  }
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

ts::ExchangeSpec exchangeSpec(Napi::Env env, Napi::Value xv, const std::function<ts::Controller*(Napi::Value)>& peer) {
  ts::ExchangeSpec ex;
  Napi::Object x = xv.As<Napi::Object>();
  Napi::Value tag = x.Get("tag"), slot = x.Get("slot"), peers = x.Get("peers");
  if (!tag.IsNumber() || tag.As<Napi::Number>().DoubleValue() < 1 || !slot.IsString() || !peers.IsArray())
    throw codedError(env, "TS_ARG", "run: exchange needs a tag >= 1, a slot name, ranges and peers");
  ex.tag = (uint64_t)tag.As<Napi::Number>().DoubleValue();
  ex.slot = slot.As<Napi::String>().Utf8Value();
  ex.ranges = rangePairs(env, x.Get("ranges"), "run: exchange");
  Napi::Array pa = peers.As<Napi::Array>();
  for (uint32_t i = 0; i < pa.Length(); i++) ex.peers.push_back(peer(pa.Get(i)));
  return ex;
}

std::vector<std::pair<size_t, size_t>> rangePairs(Napi::Env env, Napi::Value v, const std::string& what) {
  TA r;
  if (!getTypedArray(env, v, &r) || r.type != napi_float64_array || r.length % 2 != 0)
    throw codedError(env, "TS_ARG", what + ": ranges must be a Float64Array of begin/end pairs");
  std::vector<std::pair<size_t, size_t>> out;
  const double* d = (const double*)r.data;
  for (size_t i = 0; i < r.length; i += 2) out.emplace_back((size_t)d[i], (size_t)d[i + 1]);
  return out;
}

ts::RunRequest runRequest(const Napi::CallbackInfo& info) {
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
  eachEntry(o.Get("params"), [&](const std::string& k, Napi::Value v) {
    if (!v.IsNumber()) throw codedError(env, "TS_ARG", "run: params." + k + " must be a number");
    rq.params[k] = v.As<Napi::Number>().DoubleValue();
  });
  eachEntry(o.Get("state"), [&](const std::string& k, Napi::Value v) {
    if (!v.IsString()) throw codedError(env, "TS_ARG", "run: state." + k + " must be a state array name");
    rq.state[k] = v.As<Napi::String>().Utf8Value();
  });
  // Kernel "levels" (controller_levels.cpp): { push, pull, inSet, inPages }.
  Napi::Value lv = o.Get("levels");
  if (lv.IsObject()) {
    Napi::Object l = lv.As<Napi::Object>();
    Napi::Value push = l.Get("push"), pull = l.Get("pull"), in = l.Get("inSet");
    if (!push.IsString() || !pull.IsString() || !in.IsNumber()) throw codedError(env, "TS_ARG", "run: levels needs push and pull kernel names and inSet");
    rq.levels.push = push.As<Napi::String>().Utf8Value();
    rq.levels.pull = pull.As<Napi::String>().Utf8Value();
    rq.levels.inSet = in.As<Napi::Number>().Int32Value();
    TA ip;
    if (!getTypedArray(env, l.Get("inPages"), &ip) || ip.type != napi_uint32_array) throw codedError(env, "TS_ARG", "run: levels.inPages must be a Uint32Array of page indices");
    rq.levels.inPages.assign((const uint32_t*)ip.data, (const uint32_t*)ip.data + ip.length);
  }
  return rq;
}

/** create()'s options object, each field checked (one coded error per bad field). */
CreateOptions createOptions(const Napi::CallbackInfo& info) {
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
  auto bytes = [&](const char* key, bool zero) -> double {
    Napi::Value v = o.Get(key);
    if (v.IsUndefined()) return 0;
    const double b = v.IsNumber() ? v.As<Napi::Number>().DoubleValue() : -1;
    if (!(b > 0 || (zero && b == 0)))
      throw codedError(env, "TS_ARG", std::string("create: options.") + key + " must be a " + (zero ? "non-negative" : "positive") + " number of bytes");
    return b;
  };
  const double limit = bytes("memoryLimit", false), hostBuffer = bytes("hostBuffer", true);
  int streams = 4;
  Napi::Value st = o.Get("streams");
  if (!st.IsUndefined()) {
    const double s = st.IsNumber() ? st.As<Napi::Number>().DoubleValue() : -1;
    if (!(s >= 1 && s <= 32 && s == (int)s)) throw codedError(env, "TS_ARG", "create: options.streams must be an integer in 1..32");
    streams = (int)s;
  }
  return CreateOptions{(int)d, em.As<Napi::Boolean>().Value(), limit, hostBuffer, streams};
}

}  // namespace addon
}  // namespace ts
