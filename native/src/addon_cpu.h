// The CPU kernels' shared pieces (addon_cpu.cpp, addon_bfs.cpp): page sets as raw pointers,
// argument readers, flag maps and the bottom-up BFS loop.
#pragma once

#include "addon.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace ts {
namespace addon {
namespace cpu {

/** A PageSet's pages as raw pointers; the JS PageSet owns the buffers and outlives the handle. */
struct PageSetN {
  std::vector<const uint32_t*> off, nbr;
  /** Each page's weights (nullptr: unweighted), float64 where wt64 is set, else float32. */
  std::vector<const void*> wt;
  std::vector<uint8_t> wt64;
  std::vector<uint32_t> vBegin, vEnd, edges;
  std::vector<uint8_t> split;
  const uint32_t* firstPageOf = nullptr;
  size_t n = 0;
};

template <typename T>
T* arrayArg(const Napi::CallbackInfo& info, size_t i, napi_typedarray_type type, const char* what, size_t* length = nullptr) {
  TA a;
  if (i >= info.Length() || !getTypedArray(info.Env(), info[i], &a) || a.type != type)
    throw codedError(info.Env(), "TS_ARG", std::string("cpu kernel: ") + what + " has the wrong type");
  if (length != nullptr) *length = a.length;
  return (T*)a.data;
}

inline const PageSetN* setArg(const Napi::CallbackInfo& info, size_t i) {
  if (i >= info.Length() || !info[i].IsExternal()) throw codedError(info.Env(), "TS_ARG", "cpu kernel: a page set handle is required");
  return info[i].As<Napi::External<PageSetN>>().Data();
}

/**
 * Calls f(page, a, b) on v's edges [from, to), counted from its first across its slices (one page
 * slice, or the pages of a split vertex), a slice at a time; f returns false to stop (then false).
 */
template <typename F>
bool forSlices(const PageSetN& s, uint32_t v, double from, double to, F f) {
  double before = 0;
  for (size_t pi = s.firstPageOf[v];;) {
    const bool split = s.split[pi] != 0;
    const uint32_t* off = s.off[pi];
    const uint32_t a = split ? 0 : off[v - s.vBegin[pi]], b = split ? s.edges[pi] : off[v - s.vBegin[pi] + 1];
    const double s0 = std::max<double>(a, a + from - before), e0 = std::min<double>(b, a + to - before);
    before += b - a;
    if (e0 > s0 && !f(pi, (uint32_t)s0, (uint32_t)e0)) return false;
    if (!split || ++pi >= s.off.size() || !s.split[pi] || s.vBegin[pi] != v) return true;
  }
}

/** forSlices with f(nbrs, a, b). */
template <typename F>
bool forEdges(const PageSetN& s, uint32_t v, double from, double to, F f) {
  return forSlices(s, v, from, to, [&](size_t pi, uint32_t a, uint32_t b) { return f(s.nbr[pi], a, b); });
}

/** A vertex flag map: a byte per vertex (Uint8Array) or a bit per vertex (Uint32Array words). */
struct Flags {
  void* data = nullptr;
  bool bits = false;
  size_t vertices = 0;
};

inline Flags flagsArg(const Napi::CallbackInfo& info, size_t i, const char* what) {
  TA a;
  if (i >= info.Length() || !getTypedArray(info.Env(), info[i], &a) || (a.type != napi_uint8_array && a.type != napi_uint32_array))
    throw codedError(info.Env(), "TS_ARG", std::string("cpu kernel: ") + what + " must be a Uint8Array (a byte a vertex) or a Uint32Array (a bit a vertex)");
  Flags f;
  f.data = a.data;
  f.bits = a.type == napi_uint32_array;
  f.vertices = f.bits ? a.length * 32 : a.length;
  return f;
}

/** Sets v's flag; bits are shared by 32 vertices that other threads may set at once. */
inline void flag(const Flags& f, uint32_t v) {
  if (f.bits) __atomic_fetch_or((uint32_t*)f.data + (v >> 5), 1u << (v & 31), __ATOMIC_RELAXED);
  else ((uint8_t*)f.data)[v] = 1;
}

/**
 * Top-down's claim of v for `level` (bfsPush, bfsTeam): a vertex whose `seen` bit is clear and
 * whose depth is -1 is claimed by compare-and-swap; the claimer sets the bit (a hint: a bit lost to
 * a racing word update costs a depth read) and v's flag in next. Returns whether this call claimed v.
 */
inline bool claim(int32_t* depth, int32_t* seen, const Flags& next, uint32_t v, int32_t level) {
  const int32_t bit = (int32_t)(1u << (v & 31));
  if ((__atomic_load_n(seen + (v >> 5), __ATOMIC_RELAXED) & bit) != 0) return false;
  int32_t expected = -1;
  if (__atomic_load_n(depth + v, __ATOMIC_RELAXED) != -1 || !__atomic_compare_exchange_n(depth + v, &expected, level, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return false;
  __atomic_fetch_or(seen + (v >> 5), bit, __ATOMIC_RELAXED);
  flag(next, v);
  return true;
}

/**
 * Bits of next gathered a word at a time over a pull's range [first, last) of vertex ids: a word
 * all of whose 32 vertices are in the range is this call's alone (one plain OR); the range's two
 * end words may be shared with another thread's range (one atomic OR each). An atomic OR per
 * vertex found (lock-prefixed, a full fence) stalled the loads of the scan around it.
 */
struct NextBits {
  uint32_t* words;
  uint32_t first, last;
  uint32_t word = UINT32_MAX, acc = 0;
  void set(uint32_t v) {
    const uint32_t w = v >> 5;
    if (w != word) (flush(), word = w);
    acc |= 1u << (v & 31);
  }
  void flush() {
    if (acc == 0) return;
    const uint64_t w0 = (uint64_t)word << 5;
    if (w0 >= first && w0 + 32 <= last) words[word] |= acc;
    else __atomic_fetch_or(words + word, acc, __ATOMIC_RELAXED);
    acc = 0;
  }
};

/** bfsPull's loop, the flag maps' kind a template argument (BITS: a frontier of n / 8 bytes stays in cache). */
template <bool BITS>
void pullLoop(const uint32_t* off, const uint32_t* nbrs, uint32_t vBegin, uint32_t lo, uint32_t hi, int32_t* depth, const Flags& fr, const Flags& next, int32_t level, uint64_t& edges, uint64_t& active) {
  const uint32_t* frw = (const uint32_t*)fr.data;
  const uint8_t* frb = (const uint8_t*)fr.data;
  NextBits bits{(uint32_t*)next.data, vBegin + lo, vBegin + hi};
  uint32_t start = off[lo];
  for (uint32_t i = lo; i < hi; i++) {
    const uint32_t end = off[i + 1];
    const uint32_t v = vBegin + i;
    if (depth[v] == -1) {
      uint32_t e = start;
      if (BITS)
        while (e < end && ((frw[nbrs[e] >> 5] >> (nbrs[e] & 31)) & 1u) == 0) e++;
      else
        while (e < end && frb[nbrs[e]] != 1) e++;
      if (e < end) {
        depth[v] = level;
        if (BITS) bits.set(v);
        else ((uint8_t*)next.data)[v] = 1;
        active++;
        edges += e - start + 1;
      } else {
        edges += end - start;
      }
    }
    start = end;
  }
  if (BITS) bits.flush();
}

}  // namespace cpu
}  // namespace addon
}  // namespace ts
