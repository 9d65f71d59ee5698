// What a program's GPU operator source is written against (kernels_user.h), on both sides: TS_OP,
// the ts:: integer types and Env, and on the host (the emulated GPU) CUDA's qualifiers and atomic
// functions, so that one source compiles for both. Only the generated translation unit includes
// this (actors/gpu/operators.ts), never the addon.
#pragma once

#include "kernels_user.h"

#define TS_OP TS_HD
using ts::Env;
using ts::i32;
using ts::u32;
using ts::u64;
using ts::u8;
#if !TS_CUDA_SIDE
#include <cmath>
#define __device__
#define __host__
#define __forceinline__ inline
#define TS_ATOMIC(name, T, body) \
  inline T name(T* p, T v) { return body; }
#define TS_ATOMICS(T)                                                                     \
  TS_ATOMIC(atomicAdd, T, __atomic_fetch_add(p, v, __ATOMIC_RELAXED))                   \
  TS_ATOMIC(atomicSub, T, __atomic_fetch_sub(p, v, __ATOMIC_RELAXED))                   \
  TS_ATOMIC(atomicExch, T, __atomic_exchange_n(p, v, __ATOMIC_RELAXED))                 \
  TS_ATOMIC(atomicOr, T, __atomic_fetch_or(p, v, __ATOMIC_RELAXED))                     \
  TS_ATOMIC(atomicAnd, T, __atomic_fetch_and(p, v, __ATOMIC_RELAXED))                   \
  inline T atomicMin(T* p, T v) {                                                         \
    T old = __atomic_load_n(p, __ATOMIC_RELAXED);                                         \
    while (v < old && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) { \
    }                                                                                     \
    return old;                                                                           \
  }                                                                                       \
  inline T atomicMax(T* p, T v) {                                                         \
    T old = __atomic_load_n(p, __ATOMIC_RELAXED);                                         \
    while (v > old && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) { \
    }                                                                                     \
    return old;                                                                           \
  }                                                                                       \
  inline T atomicCAS(T* p, T cmp, T v) {                                                  \
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);   \
    return cmp;                                                                           \
  }
TS_ATOMICS(int)
TS_ATOMICS(unsigned int)
TS_ATOMICS(unsigned long long)
inline double atomicAdd(double* p, double v) { return ts::atomic_add_f64(p, v); }
#undef TS_ATOMICS
#undef TS_ATOMIC
#endif
