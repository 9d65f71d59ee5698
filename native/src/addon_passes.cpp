// The coordinator's host passes, exported by the addon: foldFlags, listFlags and fillArray, each
// on up to one thread per core (partsFor / runParts). Plain host code: no device, no controller.
#include "addon.h"
#include "backend.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace ts {
namespace addon {

// ---- Host threads for the coordinator's passes (foldFlags, listFlags, fillArray) -------------------

/** Parts to cut n items into: one per core at most, `minPerPart` items each at least. */
size_t partsFor(size_t n, size_t minPerPart) {
  const size_t hw = std::max<size_t>(1, std::thread::hardware_concurrency());
  return std::min<size_t>(hw, std::max<size_t>(1, n / minPerPart));
}

/**
 * Threads kept for the passes: starting a std::thread per part cost more than a 4-16 MiB fill
 * itself on the 16-core host (RMAT 22 BFS's 16 MiB depth fill: ~2.5 ms a run), so the parts
 * run on threads that wait for them, plus the caller's. One pass at a time: a caller that finds
 * the pool in use (another JS thread) starts threads of its own instead.
 */
class PartPool {
 public:
  static PartPool& get() {
    static PartPool* pool = new PartPool();  // never destroyed: its threads may outlive static teardown
    return *pool;
  }
  /** fn(p) for every p in [0, parts), on the pool and this thread; false (nothing run) when busy. */
  bool run(size_t parts, const std::function<void(size_t)>& fn) {
    std::unique_lock<std::mutex> own(use_, std::try_to_lock);
    if (!own.owns_lock()) return false;
    Job j;
    j.fn = &fn;
    j.parts = parts;
    j.left = parts;
    {
      std::lock_guard<std::mutex> lk(m_);
      job_ = &j;
      gen_++;
    }
    cv_.notify_all();
    help(j);
    std::unique_lock<std::mutex> lk(m_);
    done_.wait(lk, [&] { return j.left == 0 && j.users == 0; });
    job_ = nullptr;
    return true;
  }

 private:
  struct Job {
    const std::function<void(size_t)>* fn = nullptr;
    size_t parts = 0;
    std::atomic<size_t> next{0};
    size_t left = 0;  // parts not finished (under m_)
    int users = 0;    // pool threads holding the job (under m_)
  };
  PartPool() {
    const size_t hw = std::max<size_t>(1, std::thread::hardware_concurrency());
    for (size_t i = 1; i < hw; i++) std::thread([this] { loop(); }).detach();
  }
  void help(Job& j) {
    for (size_t p; (p = j.next.fetch_add(1)) < j.parts;) {
      (*j.fn)(p);
      std::lock_guard<std::mutex> lk(m_);
      if (--j.left == 0 && j.users == 0) done_.notify_all();
    }
  }
  void loop() {
    uint64_t seen = 0;
    for (;;) {
      Job* j;
      {
        std::unique_lock<std::mutex> lk(m_);
        cv_.wait(lk, [&] { return gen_ != seen && job_ != nullptr; });
        seen = gen_;
        j = job_;
        j->users++;
      }
      help(*j);
      std::lock_guard<std::mutex> lk(m_);
      if (--j->users == 0 && j->left == 0) done_.notify_all();
    }
  }
  std::mutex use_, m_;
  std::condition_variable cv_, done_;
  Job* job_ = nullptr;
  uint64_t gen_ = 0;
};

void runOnThreads(size_t parts, const std::function<void(size_t)>& fn) {
  if (parts <= 1) {
    if (parts == 1) fn(0);
    return;
  }
  if (PartPool::get().run(parts, fn)) return;
  std::vector<std::thread> threads;
  for (size_t p = 0; p + 1 < parts; p++) threads.emplace_back(fn, p);
  fn(parts - 1);
  for (auto& t : threads) t.join();
}

/** Runs fn(p, lo, hi) for each of `parts` equal slices of [0, n) (runOnThreads). */
template <typename F>
void runParts(size_t n, size_t parts, F fn) {
  if (parts <= 1) return fn(0, 0, n);
  runOnThreads(parts, [&](size_t p) { fn(p, n * p / parts, n * (p + 1) / parts); });
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
  const size_t parts = partsFor(n, size_t(256) << 10);  // ~256 K flags per thread at least
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
  const size_t parts = partsFor(n, size_t(256) << 10);  // ~256 K flags per thread at least
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
// advise (default true) asks for huge pages first (adviseHugePages); the caller passes false for an
// array advised before (a pooled one): each madvise takes the process's memory map lock for
// writing, which beside a GPU's driver threads can stall a small fill for milliseconds
// (bench/results/h200-x2-2026-11-29-recycled).

template <typename T>
void fillChunks(T* a, size_t n, T value) {
  const size_t parts = partsFor(n, (size_t(512) << 10) / sizeof(T));  // ~512 KiB per thread at least
  runParts(n, parts, [=](size_t, size_t lo, size_t hi) { std::fill(a + lo, a + hi, value); });
}

Napi::Value FillArray(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  TA a;
  if (info.Length() < 2 || !getTypedArray(env, info[0], &a)) throw codedError(env, "TS_ARG", "fillArray: array must be a typed array");
  const double value = numberArg(info, 1, "fillArray: value", 0, true);
  if (info.Length() < 3 || info[2].IsUndefined() || info[2].ToBoolean().Value()) adviseHugePages(a.data, a.length * (a.type == napi_float64_array ? 8 : a.type == napi_uint8_array ? 1 : 4));
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

/**
 * fillIndex(array, advise = true): array[i] = i (wcc's union-find parents), over the threads as
 * fillArray, huge pages asked for first unless advise is false (as fillArray's).
 */
Napi::Value FillIndex(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  TA a;
  if (info.Length() < 1 || !getTypedArray(env, info[0], &a)) throw codedError(env, "TS_ARG", "fillIndex: array must be a typed array");
  const size_t n = a.length;
  const size_t parts = partsFor(n, (size_t(512) << 10) / 4);
  const bool advise = info.Length() < 2 || info[1].IsUndefined() || info[1].ToBoolean().Value();
  switch (a.type) {
    case napi_int32_array:
    case napi_uint32_array: {
      if (advise) adviseHugePages(a.data, n * 4);
      uint32_t* p = (uint32_t*)a.data;
      runParts(n, parts, [=](size_t, size_t lo, size_t hi) { for (size_t i = lo; i < hi; i++) p[i] = (uint32_t)i; });
      break;
    }
    case napi_float64_array: {
      if (advise) adviseHugePages(a.data, n * 8);
      double* p = (double*)a.data;
      runParts(n, parts, [=](size_t, size_t lo, size_t hi) { for (size_t i = lo; i < hi; i++) p[i] = (double)i; });
      break;
    }
    default: throw codedError(env, "TS_ARG", "fillIndex: array must be an Int32, Uint32 or Float64 array");
  }
  return env.Undefined();
}

/**
 * copyArray(dst, src): dst.set(src) for two typed arrays of one element size and length, the
 * memcpy split over the threads (a 134 MB copy took 12 ms on one thread).
 */
Napi::Value CopyArray(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  TA d, s;
  if (info.Length() < 2 || !getTypedArray(env, info[0], &d) || !getTypedArray(env, info[1], &s))
    throw codedError(env, "TS_ARG", "copyArray: dst and src must be typed arrays");
  auto size = [](napi_typedarray_type t) -> size_t {
    return t == napi_float64_array ? 8 : (t == napi_uint8_array || t == napi_int8_array || t == napi_uint8_clamped_array) ? 1 : t == napi_int16_array || t == napi_uint16_array ? 2 : 4;
  };
  if (size(d.type) != size(s.type) || d.length != s.length)
    throw codedError(env, "TS_ARG", "copyArray: dst and src must have the same element size and length");
  uint8_t* to = (uint8_t*)d.data;
  const uint8_t* from = (const uint8_t*)s.data;
  const size_t bytes = d.length * size(d.type);
  runParts(bytes, partsFor(bytes, size_t(512) << 10), [=](size_t, size_t lo, size_t hi) { std::memcpy(to + lo, from + lo, hi - lo); });
  return env.Undefined();
}

/**
 * countEqual(array, value): how many entries of a u32 / i32 array equal value, over the threads
 * (pr's sinks, out-degree 0, once per graph: a cold vertex map on the sockets took ~35 ms of a
 * session's first run at RMAT 24).
 */
Napi::Value CountEqual(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  TA a;
  if (info.Length() < 2 || !getTypedArray(env, info[0], &a) || (a.type != napi_uint32_array && a.type != napi_int32_array))
    throw codedError(env, "TS_ARG", "countEqual: array must be a Uint32Array or Int32Array");
  const double v = numberArg(info, 1, "countEqual: value", 0, true);
  const uint32_t want = a.type == napi_int32_array ? (uint32_t)(int32_t)(int64_t)v : (uint32_t)(int64_t)v;
  const uint32_t* p = (const uint32_t*)a.data;
  const size_t parts = partsFor(a.length, (size_t(512) << 10) / 4);
  std::vector<uint64_t> counts(std::max<size_t>(1, parts), 0);
  runParts(a.length, parts, [&](size_t part, size_t lo, size_t hi) {
    uint64_t c = 0;
    for (size_t i = lo; i < hi; i++) c += p[i] == want;
    counts[part] = c;
  });
  uint64_t total = 0;
  for (uint64_t c : counts) total += c;
  return Napi::Number::New(env, (double)total);
}

/** nvrtc() -> { ok, reason? }: whether GPU operators can be compiled for a real GPU here. */
Napi::Value Nvrtc(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::string why;
  const bool ok = ts::nvrtcAvailable(&why);
  Napi::Object o = Napi::Object::New(env);
  o.Set("ok", ok);
  if (!ok) o.Set("reason", why);
  return o;
}

// ---- populate: a fresh array faulted in off the JS thread, its contents untouched ----------------

namespace {

#if defined(__linux__)
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
/** Whether this kernel knows MADV_POPULATE_WRITE (Linux 5.14): asked once on a scratch page. */
bool populateWorks() {
  static const bool ok = [] {
    const size_t pg = 4096;
    void* p = mmap(nullptr, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return false;
    const bool r = madvise(p, pg, MADV_POPULATE_WRITE) == 0;
    munmap(p, pg);
    return r;
  }();
  return ok;
}
#else
bool populateWorks() { return false; }
#endif

class PopulateWorker : public Napi::AsyncWorker {
 public:
  PopulateWorker(Napi::Env env, Napi::Value array, uint8_t* p, size_t bytes)
      : Napi::AsyncWorker(env, "tessera.populate"), deferred_(Napi::Promise::Deferred::New(env)), p_(p), bytes_(bytes) {
    keep_ = Napi::Persistent(array);
  }
  Napi::Promise promise() { return deferred_.Promise(); }
  void Execute() override {
#if defined(__linux__)
    // Whole pages inside the array only: its first and last partial pages fault as usual.
    const uintptr_t pg = 4096, b = ((uintptr_t)p_ + pg - 1) & ~(pg - 1), e = ((uintptr_t)p_ + bytes_) & ~(pg - 1);
    if (e <= b) return;
    const size_t n = e - b, parts = std::min<size_t>(8, std::max<size_t>(1, n >> 24));  // 16 MiB a thread at least
    std::vector<std::thread> ts;
    for (size_t i = 0; i < parts; i++) {
      const uintptr_t lo = b + ((n / parts * i) & ~(pg - 1)), hi = i + 1 == parts ? e : b + ((n / parts * (i + 1)) & ~(pg - 1));
      ts.emplace_back([lo, hi] { madvise((void*)lo, hi - lo, MADV_POPULATE_WRITE); });
    }
    for (auto& t : ts) t.join();
#endif
  }
  void OnOK() override { deferred_.Resolve(Env().Undefined()); }
  void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

 private:
  Napi::Promise::Deferred deferred_;
  Napi::Reference<Napi::Value> keep_;
  uint8_t* p_;
  size_t bytes_;
};

}  // namespace

/**
 * populate(array) -> Promise<void> | undefined: faults in the array's memory on other threads
 * (MADV_POPULATE_WRITE, huge pages asked for first) without writing it, so the caller may write
 * it meanwhile; undefined where the kernel cannot (the caller faults it in itself).
 */
Napi::Value Populate(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  TA a;
  if (info.Length() < 1 || !getTypedArray(env, info[0], &a)) throw codedError(env, "TS_ARG", "populate: array must be a typed array");
  if (!populateWorks() || std::getenv("TESSERA_NO_POPULATE") != nullptr) return env.Undefined();
  const size_t bytes = a.length * (a.type == napi_float64_array ? 8 : a.type == napi_uint8_array ? 1 : a.type == napi_uint16_array ? 2 : 4);
  adviseHugePages(a.data, bytes);
  auto* w = new PopulateWorker(env, info[0], (uint8_t*)a.data, bytes);
  Napi::Promise p = w->promise();
  w->Queue();
  return p;
}

}  // namespace addon
}  // namespace ts
