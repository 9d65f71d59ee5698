// Shared by the Node-API files (addon.cpp, addon_info.cpp, addon_passes.cpp): coded errors, argument checks,
// typed-array access, and the module functions that addon_passes.cpp defines.
#pragma once

#include <napi.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace ts {
struct ControllerInfo;
struct RunRequest;
struct ExchangeSpec;
class Controller;
enum class SType : uint32_t;
struct RunStats;
namespace addon {

/** A controller's create() options, checked (addon_info.cpp). */
struct CreateOptions {
  int device;
  bool emulated;
  double memoryLimit, hostBuffer;
  int streams;
};
CreateOptions createOptions(const Napi::CallbackInfo& info);
/** run(kernel, { setId, pages, params?, state? })'s arguments, checked (addon_info.cpp). */
ts::RunRequest runRequest(const Napi::CallbackInfo& info);
/** The state type of a typed array's elements; false for types state arrays do not hold. */
bool typedArrayState(napi_typedarray_type t, ts::SType* s);
/**
 * run's `exchange` option { tag, slot, ranges: Float64Array [b0, e0, ...], peers } as a
 * ts::ExchangeSpec; `peer` checks each peer object and gives its controller.
 */
ts::ExchangeSpec exchangeSpec(Napi::Env env, Napi::Value xv, const std::function<ts::Controller*(Napi::Value)>& peer);
/** A Float64Array of begin/end pairs as ranges; else TS_ARG "<what>: ranges must be ...". */
std::vector<std::pair<size_t, size_t>> rangePairs(Napi::Env env, Napi::Value v, const std::string& what);

/** What a controller's info() resolves with (addon_info.cpp). */
Napi::Object controllerInfo(Napi::Env env, const ts::ControllerInfo& info);
/** A run's statistics (RunStats in actors/gpu/native.ts). */
Napi::Object runStatsObject(Napi::Env env, const ts::RunStats& st);

/**
 * fn(p) for every p in [0, parts), once each, on the threads the addon keeps for its host passes
 * and the caller's (addon_passes.cpp); a thread each where those are busy.
 */
void runOnThreads(size_t parts, const std::function<void(size_t)>& fn);

/**
 * Asks for transparent huge pages over the 2 MiB-aligned interior of [p, p + bytes), where the
 * kernel gives them only on request (enabled = madvise, the default of many distributions): a
 * state array kernels read at random (depth, labels, distances, contributions; 16-128 MB) costs a
 * page walk per access with 4 KiB pages. Called before the fill's first touch of a fresh array,
 * so its faults take 2 MiB pages; an array touched before gets them when khugepaged collapses it.
 * A .tsr's page buffers too, before they are read into (addon_tsr.cpp).
 */
inline void adviseHugePages(void* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const uintptr_t huge = uintptr_t(2) << 20;
  const uintptr_t b = ((uintptr_t)p + huge - 1) & ~(huge - 1), e = ((uintptr_t)p + bytes) & ~(huge - 1);
  if (e > b && std::getenv("TESSERA_NO_HUGEPAGES") == nullptr) madvise((void*)b, e - b, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

inline Napi::Error codedError(Napi::Env env, const std::string& code, const std::string& msg) {
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
inline bool getTypedArray(Napi::Env env, Napi::Value v, TA* out) {
  bool is = false;
  if (napi_is_typedarray(env, v, &is) != napi_ok || !is) return false;
  napi_value ab;
  size_t off;
  return napi_get_typedarray_info(env, v, &out->type, &out->length, &out->data, &ab, &off) == napi_ok;
}

/** A number argument's value v (undefined: dflt, or an error where required); numberArg's, also for an array entry's. */
inline double numberValue(Napi::Env env, Napi::Value v, const char* what, double dflt, bool required) {
  if (v.IsUndefined()) {
    if (required) throw codedError(env, "TS_ARG", std::string(what) + " is required");
    return dflt;
  }
  if (!v.IsNumber()) throw codedError(env, "TS_ARG", std::string(what) + " must be a number");
  return v.As<Napi::Number>().DoubleValue();
}

inline double uintValue(Napi::Env env, Napi::Value v, const char* what, double dflt, bool required) {
  const double x = numberValue(env, v, what, dflt, required);
  if (!(x >= 0 && x <= 4294967295.0 && x == (double)(uint64_t)x))
    throw codedError(env, "TS_ARG", std::string(what) + " must be an integer in [0, 2^32), got " + std::to_string(x));
  return x;
}

inline double numberArg(const Napi::CallbackInfo& info, size_t i, const char* what, double dflt, bool required) {
  return numberValue(info.Env(), i < info.Length() ? info[i] : info.Env().Undefined(), what, dflt, required);
}

inline double uintArg(const Napi::CallbackInfo& info, size_t i, const char* what, double dflt, bool required) {
  return uintValue(info.Env(), i < info.Length() ? info[i] : info.Env().Undefined(), what, dflt, required);
}

inline std::string stringArg(const Napi::CallbackInfo& info, size_t i, const char* what) {
  if (i >= info.Length() || !info[i].IsString()) throw codedError(info.Env(), "TS_ARG", std::string(what) + " must be a string");
  return info[i].As<Napi::String>().Utf8Value();
}

/** { ids: Uint32Array, values: Float64Array }, copies of n entries (compacted changes, outboxes). */
inline Napi::Object idsValues(Napi::Env env, const uint32_t* ids, const double* vals, size_t n) {
  Napi::ArrayBuffer ib = Napi::ArrayBuffer::New(env, n * 4), vb = Napi::ArrayBuffer::New(env, n * 8);
  if (n) {
    std::memcpy(ib.Data(), ids, n * 4);
    std::memcpy(vb.Data(), vals, n * 8);
  }
  Napi::Object o = Napi::Object::New(env);
  o.Set("ids", Napi::Uint32Array::New(env, n, ib, 0));
  o.Set("values", Napi::Float64Array::New(env, n, vb, 0));
  return o;
}

// The coordinator's host passes (addon_passes.cpp), exported as module functions.
Napi::Value FoldFlags(const Napi::CallbackInfo& info);
Napi::Value ListFlags(const Napi::CallbackInfo& info);
Napi::Value FillArray(const Napi::CallbackInfo& info);
Napi::Value Populate(const Napi::CallbackInfo& info);
Napi::Value CopyArray(const Napi::CallbackInfo& info);
Napi::Value FillIndex(const Napi::CallbackInfo& info);
Napi::Value CountEqual(const Napi::CallbackInfo& info);
Napi::Value Nvrtc(const Napi::CallbackInfo& info);
// tsrCheck(blobs, spec, n, out): a .tsr load's checksums and page checks (addon_tsr.cpp).
Napi::Value TsrCheck(const Napi::CallbackInfo& info);
// tsrLoad(fd, blobs, positions, spec, n, check, out) -> Promise: the same with the blobs' reads (addon_tsr.cpp).
Napi::Value TsrLoad(const Napi::CallbackInfo& info);
// tsrStop(): the loads in flight stop at their next chunk (the process is exiting: addon_tsr.cpp).
Napi::Value TsrStop(const Napi::CallbackInfo& info);
// modelCount(nbrs, pageElement, owner, k, agg, raw): a partition's boundary counts (addon_model.cpp).
Napi::Value ModelCount(const Napi::CallbackInfo& info);
// cudaDeviceCount() -> { count, reason? } (addon_info.cpp).
Napi::Value DeviceCount(const Napi::CallbackInfo& info);
// dropFileCache(fd, offset, length) -> 0 or an errno (addon_info.cpp).
Napi::Value DropFileCache(const Napi::CallbackInfo& info);
// The module's functions besides create (addon_info.cpp): the passes, CPU kernels, build facts.
void ExportFunctions(Napi::Env env, Napi::Object exports);
// The built-in programs' native CPU kernels (addon_cpu.cpp), exported as `cpu`.
Napi::Object CpuKernels(Napi::Env env);
// louvainAggregate, louvainMoveOrdered (addon_louvain.cpp), added to `cpu`.
void ExportLouvain(Napi::Object cpu);
// bfsTeam (addon_bfs.cpp), added to `cpu`.
void ExportBfs(Napi::Object cpu);
// prPull (addon_pr.cpp), added to `cpu`.
void ExportPr(Napi::Object cpu);
// ssspPush, ssspPull, ssspSelect (addon_sssp.cpp), added to `cpu`.
void ExportSssp(Napi::Object cpu);
// undirectedFill (addon_louvain_view.cpp), added to `cpu`.
void ExportLouvainView(Napi::Object cpu);
// bcFwdPush, bcFwdPull, bcBackPull, bcBackPush (addon_bc.cpp), added to `cpu`.
void ExportBc(Napi::Object cpu);
// louvainRounds (addon_louvain_rounds.cpp), added to `cpu`.
void ExportLouvainRounds(Napi::Object cpu);

}  // namespace addon
}  // namespace ts
