// User GPU operators: the generic push (TWC, GraphScope) and vertex-group pull kernels over a
// program's operator structs, as Gunrock's advance/filter functors and Ligra's edgeMap functors.
// Not compiled into the addon: actors/gpu/operators.ts pastes ts_common.h, kernels_common.h,
// kernels_push.h, kernels_pull.h, this header, the generated Env of each operator and the
// program's own source into one translation unit, compiled at run time by NVRTC (a real GPU) or
// the host C++ compiler (the emulated GPU, which runs the same operator code block by block), and
// the controller launches its entry points by name (controller_user.cpp).
//
// An operator K (a struct named as the program's CPU kernel) has, for push:
//   static bool push(const Env<K>& e, u32 u, u32 v, double w)      // edge u -> v; true: v is active next
// and for pull (v gathers over its list; `want` and `done` optional):
//   static double identity();  static double combine(double, double);
//   static double gather(const Env<K>& e, u32 v, u32 u, double w);
//   static bool apply(const Env<K>& e, u32 v, double r);            // true: v is active next
//   static bool want(const Env<K>& e, u32 v);  static bool done(double r);
// and for vertex (a vertexMap / vertexFilter pass over the owned vertices, no pages read):
//   static bool vertex(const Env<K>& e, u32 v);                     // true: v is in the filter's frontier
// Env<K> holds one pointer per declared state array and one field per declared argument, plus
// e.active(u) (u is in the frontier) and e.addSum(x) (the step's sum, as out.sum on the CPU).
#pragma once

#include "kernels_common.h"
#include "kernels_push.h"
#include "kernels_pull.h"

namespace ts {

constexpr int kUserSlots = 8;
/** Env::addSum spreads its atomics over this many doubles (by block), summed on the host. */
constexpr int kUserSumSlots = 1024;

/** What every user kernel is launched with (one struct: cuLaunchKernel's single parameter). */
struct UserArgs {
  PageDev pg;
  Frontier fr;
  NextSet next;
  TwcLists lists;
  const u8* omap;      // owned byte map (an owner of several ranges), or null: [ob, oe)
  double* sum;         // the step's sum (Env::addSum): kUserSumSlots partial sums
  double* acc;         // per-vertex partial results of split vertices (pull)
  const u32* splitIds; // the split vertices of the call (pull)
  u32 nsplit, ob, oe, G;
  void* s[kUserSlots];
  double x[kUserSlots];
  u32 n;               // vertices (a vertex pass over an owned byte map walks them all)
};

struct EnvBase {
  Frontier fr_;
  double* sum_;
  TS_DEVICE bool active(u32 u) const { return fr_.has(u); }
  TS_DEVICE void addSum(double x) const {
#if TS_CUDA_SIDE
    // One address for every vertex of the grid serialises millions of atomics (20 ms a pass at
    // 4M vertices); a slot per block keeps them apart.
    atomic_add_f64(sum_ + (blockIdx.x & (kUserSumSlots - 1)), x);
#else
    atomic_add_f64(sum_, x);
#endif
  }
};
/** Generated per operator: EnvBase plus its state pointers and arguments, and make(UserArgs). */
template <class K>
struct Env;

TS_DEVICE bool userOwned(const UserArgs& a, u32 v) { return a.omap ? a.omap[v] != 0 : (v >= a.ob && v < a.oe); }

template <class...>
struct UserVoid {
  using type = void;
};
template <class K, class = void>
struct HasWant {
  static constexpr bool value = false;
};
template <class K>
struct HasWant<K, typename UserVoid<decltype(&K::want)>::type> {
  static constexpr bool value = true;
};
template <class K, class = void>
struct HasDone {
  static constexpr bool value = false;
};
template <class K>
struct HasDone<K, typename UserVoid<decltype(&K::done)>::type> {
  static constexpr bool value = true;
};

/** push as a TWC per-edge op. */
template <class K>
struct UserPush {
  using Src = u32;
  TS_DEVICE static Src load(const UserArgs&, u32 u) { return u; }
  TS_DEVICE static void edge(const UserArgs& a, u32 u, u32 v, double w) {
    if (K::push(Env<K>::make(a), u, v, w)) a.next.mark(v);
  }
};

/** K::combine applied atomically (compare-and-swap on the bits): split vertices' partial results. */
template <class K>
TS_DEVICE void userCombineAt(double* p, double r) {
  u64 old = f64_bits(load_f64(p));
  for (;;) {
    const u64 nw = f64_bits(K::combine(bits_f64(old), r));
    if (nw == old) return;
    const u64 prev = atomic_cas_u64((u64*)p, old, nw);
    if (prev == old) return;
    old = prev;
  }
}

/** gather/combine/apply as a vertex-group pull op: owned vertices only; split pages combine into acc. */
template <class K>
struct UserPull {
  TS_DEVICE static double identity() { return K::identity(); }
  TS_DEVICE static bool want(const UserArgs& a, u32 v) {
    if (!userOwned(a, v)) return false;
    if constexpr (HasWant<K>::value) return K::want(Env<K>::make(a), v);
    return true;
  }
  TS_DEVICE static double gather(const UserArgs& a, u32 v, u32 u, double w) { return K::gather(Env<K>::make(a), v, u, w); }
  TS_DEVICE static double combine(double x, double y) { return K::combine(x, y); }
  TS_DEVICE static bool done(double r) {
    if constexpr (HasDone<K>::value) return K::done(r);
    return false;
  }
  TS_DEVICE static void apply(const UserArgs& a, u32 v, double r, bool partial) {
    if (partial) {
      userCombineAt<K>(&a.acc[v], r);
      return;
    }
    if (K::apply(Env<K>::make(a), v, r)) a.next.mark(v);
  }
};

/** Split vertices: acc = identity before the pages... */
template <class K>
struct KUserSplitInit {
  using Args = UserArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    for (u32 i = c.gtid(); i < a.nsplit; i += c.gstride()) a.acc[a.splitIds[i]] = K::identity();
  }
};

/** ...and apply once after all of them. */
template <class K>
struct KUserSplitApply {
  using Args = UserArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    for (u32 i = c.gtid(); i < a.nsplit; i += c.gstride()) {
      const u32 v = a.splitIds[i];
      if (UserPull<K>::want(a, v) && K::apply(Env<K>::make(a), v, a.acc[v])) a.next.mark(v);
    }
  }
};

/**
 * The layout of a user pull's batch of resident pages (KPages over any kernel whose Args is
 * UserArgs): what the controller fills for an operator's `_pages` entry (controller_user.cpp).
 */
struct UserArgsOnly {
  using Args = UserArgs;
  static constexpr int phases = 1;
};
using UserPagesArgs = KPages<UserArgsOnly>::Args;

/** A vertex pass: K::vertex on every owned vertex (grid-stride), true marks it in next. */
template <class K>
struct KUserVertex {
  using Args = UserArgs;
  static constexpr int phases = 1;
  TS_DEVICE static void phase(int, const Ctx& c, const Args& a) {
    const u32 lo = a.omap ? 0 : a.ob, hi = a.omap ? a.n : a.oe;
    for (u32 v = lo + c.gtid(); v < hi; v += c.gstride())
      if (userOwned(a, v) && K::vertex(Env<K>::make(a), v)) a.next.mark(v);
  }
};

#if TS_CUDA_SIDE
template <class K>
__device__ __forceinline__ void userPhases(const typename K::Args& a) {
  extern __shared__ __align__(16) char smem[];
  const Ctx c{threadIdx.x, blockIdx.x, blockDim.x, gridDim.x, smem};
  for (int p = 0; p < K::phases; p++) {
    K::phase(p, c, a);
    if (p + 1 < K::phases) __syncthreads();
  }
}
#define TS_USER_ENTRY(sym, ...) \
  extern "C" __global__ void __launch_bounds__(256) sym(const __VA_ARGS__::Args a) { ts::userPhases<__VA_ARGS__>(a); }
#else
/** One emulated block: each phase for every thread before the next (backend_host.cpp's rule). */
template <class K>
void userBlock(u32 bid, u32 grid, u32 block, char* smem, const void* args) {
  const typename K::Args& a = *(const typename K::Args*)args;
  for (int p = 0; p < K::phases; p++)
    for (u32 t = 0; t < block; t++) K::phase(p, Ctx{t, bid, block, grid, smem}, a);
}
#define TS_USER_ENTRY(sym, ...)                                                                                 \
  extern "C" __attribute__((visibility("default"))) void sym(uint32_t b, uint32_t g, uint32_t d, char* s, const void* a) { \
    ts::userBlock<__VA_ARGS__>(b, g, d, s, a);                                                                 \
  }
#endif

#define TS_USER_PUSH(K)                                                             \
  TS_USER_ENTRY(tsu_##K##_bin, ts::KTwcBin<ts::UserPush<K>, ts::UserArgs>)         \
  TS_USER_ENTRY(tsu_##K##_warp, ts::KTwcWarp<ts::UserPush<K>, ts::UserArgs>)       \
  TS_USER_ENTRY(tsu_##K##_block, ts::KTwcBlock<ts::UserPush<K>, ts::UserArgs>)
#define TS_USER_PULL(K)                                                             \
  TS_USER_ENTRY(tsu_##K##_pull, ts::KGroupPull<ts::UserPull<K>, ts::UserArgs>)     \
  TS_USER_ENTRY(tsu_##K##_pages, ts::KPages<ts::KGroupPull<ts::UserPull<K>, ts::UserArgs>>) \
  TS_USER_ENTRY(tsu_##K##_sinit, ts::KUserSplitInit<K>)                            \
  TS_USER_ENTRY(tsu_##K##_sapply, ts::KUserSplitApply<K>)
#define TS_USER_VERTEX(K) TS_USER_ENTRY(tsu_##K##_vertex, ts::KUserVertex<K>)

}  // namespace ts

