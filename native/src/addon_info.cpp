// Node-API: the object a controller's info() resolves with (addon.cpp), and cudaDeviceCount.
#include "addon.h"
#include "backend.h"
#include "controller.h"

namespace ts {
namespace addon {

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
  o.Set("streams", info.streams);
  Napi::Object t = Napi::Object::New(env);
  t.Set("calls", (double)info.totals.calls);
  t.Set("hits", (double)info.totals.hits);
  t.Set("misses", (double)info.totals.misses);
  t.Set("evictions", (double)info.totals.evictions);
  t.Set("bytesCopied", (double)info.totals.bytesCopied);
  t.Set("cacheResets", (double)info.totals.cacheResets);
  t.Set("copyMs", info.totals.copyMs);
  t.Set("kernelMs", info.totals.kernelMs);
  t.Set("wallMs", info.totals.wallMs);
  o.Set("totals", t);
  return o;
}

}  // namespace addon
}  // namespace ts
