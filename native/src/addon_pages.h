// registerPage's and registerPages' page arguments as a PageSpec (addon.cpp): a page's index,
// its bytes (a Uint8Array view of its SharedArrayBuffer, or { fd, offset, length } for a page
// read from a file whenever it is loaded), vBegin, vEnd, edges, weightBytes and split.
#pragma once

#include "addon.h"
#include "controller.h"

#include <functional>
#include <string>
#include <vector>

namespace ts {
namespace addon {

/** Argument i of a page (0: pageIndex .. 6: split), from a call or from an entry of a list. */
struct PageArgs {
  Napi::Env env;
  const char* fn;
  std::function<Napi::Value(size_t)> at;
  size_t count;
  Napi::Value get(size_t i) const { return i < count ? at(i) : env.Undefined(); }
  double uint(size_t i, const char* what, bool required) const { return uintValue(env, get(i), (std::string(fn) + ": " + what).c_str(), 0, required); }
};

/** The page's spec under setId; its owner (the buffer argument, kept alive) is the caller's to set. */
inline PageSpec pageSpec(const PageArgs& a, int setId) {
  PageSpec sp;
  sp.setId = setId;
  sp.index = (uint32_t)a.uint(0, "pageIndex", true);
  const Napi::Value buf = a.get(1);
  TA ta;
  if (buf.IsObject() && !buf.IsTypedArray() && buf.As<Napi::Object>().Has("fd")) {
    Napi::Object f = buf.As<Napi::Object>();
    sp.fd = f.Get("fd").ToNumber().Int32Value();
    sp.fileOffset = (uint64_t)f.Get("offset").ToNumber().DoubleValue();
    sp.dataBytes = (size_t)f.Get("length").ToNumber().DoubleValue();
  } else if (!getTypedArray(a.env, buf, &ta) || ta.type != napi_uint8_array) {
    throw codedError(a.env, "TS_ARG", std::string(a.fn) + ": the page buffer must be given as a Uint8Array view of its SharedArrayBuffer, or as { fd, offset, length }");
  } else {
    sp.data = (const uint8_t*)ta.data, sp.dataBytes = ta.length;
  }
  sp.vBegin = (uint32_t)a.uint(2, "vBegin", true);
  sp.vEnd = (uint32_t)a.uint(3, "vEnd", true);
  sp.edges = (uint32_t)a.uint(4, "edges", true);
  sp.wbytes = (uint32_t)a.uint(5, "weightBytes", false);
  if (a.get(6).IsBoolean()) sp.split = a.get(6).As<Napi::Boolean>().Value() ? 1 : 0;
  if ((size_t)sp.data % 8 != 0) throw codedError(a.env, "TS_ARG", std::string(a.fn) + ": the page buffer must be 8-byte aligned");
  return sp;
}

inline int setIdArg(const Napi::CallbackInfo& info, const char* fn) {
  const double setId = numberArg(info, 0, (std::string(fn) + ": setId").c_str(), 0, true);
  if (setId != (double)(int)setId || setId < 0) throw codedError(info.Env(), "TS_ARG", std::string(fn) + ": setId must be a non-negative integer");
  return (int)setId;
}

/** registerPages(setId, pages): each entry's spec (owners unset); *list the pages array. */
inline std::vector<PageSpec> pageSpecs(const Napi::CallbackInfo& info, Napi::Array* list) {
  Napi::Env env = info.Env();
  const int setId = setIdArg(info, "registerPages");
  if (info.Length() < 2 || !info[1].IsArray()) throw codedError(env, "TS_ARG", "registerPages: pages must be an array of [pageIndex, buffer, vBegin, vEnd, edges, weightBytes?, split?]");
  *list = info[1].As<Napi::Array>();
  std::vector<PageSpec> specs;
  for (uint32_t k = 0; k < list->Length(); k++) {
    Napi::Value e = list->Get(k);
    if (!e.IsArray()) throw codedError(env, "TS_ARG", "registerPages: page entry " + std::to_string(k) + " must be an array");
    Napi::Array a = e.As<Napi::Array>();
    specs.push_back(pageSpec(PageArgs{env, "registerPages", [&](size_t i) { return a.Get((uint32_t)i); }, a.Length()}, setId));
  }
  return specs;
}

}  // namespace addon
}  // namespace ts
