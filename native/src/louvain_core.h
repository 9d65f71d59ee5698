// Louvain's coordinator passes as plain C++ (addon_louvain.cpp), shared by their Node-API
// functions there and by the whole sequential path (addon_louvain_rounds.cpp).
#pragma once

#include "addon.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace ts {
namespace addon {

/** A weighted undirected CSR (serial.ts WCsr): off f64 (n + 1), adj u32, wt f64 or null (every weight 1), k and loop f64 (n; loop may be null where unread). */
struct LvView {
  size_t n;
  const double* off;
  const uint32_t* adj;
  const double* wt;
  const double* k;
  const double* loop;
};

/** Where lvAggregate writes a coarse graph: off (C + 1), adj and wt (cap), k and loop (C). */
struct LvOut {
  double* off;
  uint32_t* adj;
  double* wt;
  double* k;
  double* loop;
};

/**
 * serial.ts aggregate (louvainAggregate's header in addon_louvain.cpp): the coarse graph of the
 * dense partition comm (ids below C) into the arrays alloc(cap) gives once the output's bound
 * is known (cap entries at most); returns the entries written.
 */
uint64_t lvAggregate(const LvView& g, const uint32_t* comm, uint32_t C, uint64_t block, const std::function<LvOut(uint64_t cap)>& alloc);

/** A call's typed-array arguments, each checked for its type (errors name the function). */
struct LvArgs {
  const Napi::CallbackInfo& info;
  const char* fn;
  void get(size_t i, TA* a, napi_typedarray_type type, const char* what) const {
    if (i >= info.Length() || !getTypedArray(info.Env(), info[i], a) || a->type != type)
      throw codedError(info.Env(), "TS_ARG", std::string(fn) + ": " + what + " has the wrong type");
  }
  /** The view at 0-3: off (f64), adj (u32), wt (f64, or null: every weight 1), k (f64); whether weighted. */
  bool view(TA* off, TA* adj, TA* wt, TA* k) const {
    get(0, off, napi_float64_array, "off");
    get(1, adj, napi_uint32_array, "adj");
    const bool weighted = info.Length() > 2 && !info[2].IsNull() && !info[2].IsUndefined();
    if (weighted) get(2, wt, napi_float64_array, "wt");
    get(3, k, napi_float64_array, "k");
    return weighted;
  }
};

struct LvMoved {
  double sweeps, gain;
};

/** serial.ts moveOrdered (louvainMoveOrdered's header): comm, tot and size as the TypeScript leaves them. */
LvMoved lvMoveOrdered(const LvView& g, uint32_t* comm, double* tot, uint32_t* size, const uint32_t* order, double resolution, double m2, double maxSweeps, double tol, uint32_t batchVertices, uint64_t batchEntries);

}  // namespace addon
}  // namespace ts
