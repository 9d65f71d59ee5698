// Shared by the CUDA build (nvcc) and the host-emulated build (plain C++): qualifiers, the
// thread/block index abstraction, atomics. Kernel bodies (kernels.h) are written once against
// this header; under nvcc they become __device__ code launched as real kernels, under a host
// compiler they are plain inline functions that backend_host.cpp runs in loops over blocks and
// threads (one loop per __syncthreads()-separated phase).
#pragma once

#if defined(__CUDACC_RTC__)
// NVRTC (user operators, kernels_user.h) has no standard headers: the few types used here.
namespace ts {
typedef unsigned char uint8_t;
typedef unsigned int uint32_t;
typedef int int32_t;
typedef unsigned long long uint64_t;
typedef unsigned long long uintptr_t;
typedef decltype(sizeof(0)) size_t;
}  // namespace ts
#else
#include <cstddef>
#include <cstdint>
#include <cstring>
#endif

#if defined(__CUDACC__)
#define TS_CUDA_SIDE 1
#define TS_DEVICE __device__ __forceinline__
#define TS_HD __host__ __device__ __forceinline__
#else
#define TS_CUDA_SIDE 0
#define TS_DEVICE inline
#define TS_HD inline
#endif

namespace ts {

using u8 = uint8_t;
using u16 = unsigned short;  // NVRTC (user operators) has no uint16_t
using u32 = uint32_t;
using i32 = int32_t;
using u64 = unsigned long long;  // what CUDA's 64-bit atomics take

constexpr u32 kBlock = 256;           // threads per block everywhere
constexpr u32 kWarp = 32;
constexpr u32 kUnvisited = 0xffffffffu;  // depth sentinel (i32 -1 has the same bits)

/**
 * Where a thread is: CUDA's threadIdx.x / blockIdx.x / blockDim.x / gridDim.x and the block's
 * dynamic shared memory. On the host one Ctx per emulated thread per phase.
 */
struct Ctx {
  u32 tid, bid, bdim, gdim;
  char* smem;
  TS_HD u32 gtid() const { return bid * bdim + tid; }
  TS_HD u32 gstride() const { return bdim * gdim; }
  TS_HD u32 lane() const { return tid & (kWarp - 1); }
};

/** A load through the read-only data cache (CUDA's __ldg): for arrays no thread of the kernel writes. */
template <class T>
TS_DEVICE T ldg(const T* p) {
#if TS_CUDA_SIDE
  return __ldg(p);
#else
  return *p;
#endif
}

/**
 * A load marked evict-first (CUDA's __ldcs): for data read once per kernel, such as a page's
 * neighbour ids, so that streaming them does not push reused data (gathered values) out of L2.
 */
template <class T>
TS_DEVICE T ldStream(const T* p) {
#if TS_CUDA_SIDE
  return __ldcs(p);
#else
  return *p;
#endif
}

// ---- atomics ------------------------------------------------------------------------------
#if TS_CUDA_SIDE
TS_DEVICE u32 atomic_add_u32(u32* p, u32 v) { return atomicAdd(p, v); }
TS_DEVICE double atomic_add_f64(double* p, double v) { return atomicAdd(p, v); }
TS_DEVICE u32 atomic_min_u32(u32* p, u32 v) { return atomicMin(p, v); }
TS_DEVICE u32 atomic_or_u32(u32* p, u32 v) { return atomicOr(p, v); }
TS_DEVICE u32 atomic_cas_u32(u32* p, u32 cmp, u32 v) { return atomicCAS(p, cmp, v); }
TS_DEVICE u64 atomic_max_u64(u64* p, u64 v) { return atomicMax(p, v); }
TS_DEVICE u32 load_u32(const u32* p) { return *(volatile const u32*)p; }
TS_DEVICE double load_f64(const double* p) { return *(volatile const double*)p; }
TS_DEVICE u64 f64_bits(double x) { return (u64)__double_as_longlong(x); }
TS_DEVICE double bits_f64(u64 x) { return __longlong_as_double((long long)x); }
TS_DEVICE u64 atomic_cas_u64(u64* p, u64 cmp, u64 v) { return atomicCAS(p, cmp, v); }
#else
TS_DEVICE u32 atomic_add_u32(u32* p, u32 v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
TS_DEVICE u32 atomic_or_u32(u32* p, u32 v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }
TS_DEVICE u32 atomic_cas_u32(u32* p, u32 cmp, u32 v) {
  __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return cmp;  // the old value either way
}
TS_DEVICE u64 atomic_cas_u64(u64* p, u64 cmp, u64 v) {
  __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return cmp;
}
TS_DEVICE u32 atomic_min_u32(u32* p, u32 v) {
  u32 old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v < old && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
}
TS_DEVICE u64 atomic_max_u64(u64* p, u64 v) {
  u64 old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v > old && !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
}
TS_DEVICE u32 load_u32(const u32* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
TS_DEVICE u64 f64_bits(double x) {
  u64 b;
  std::memcpy(&b, &x, 8);
  return b;
}
TS_DEVICE double bits_f64(u64 b) {
  double x;
  std::memcpy(&x, &b, 8);
  return x;
}
TS_DEVICE double load_f64(const double* p) { return bits_f64(__atomic_load_n((const u64*)p, __ATOMIC_RELAXED)); }
TS_DEVICE double atomic_add_f64(double* p, double v) {
  u64* a = (u64*)p;
  u64 old = __atomic_load_n(a, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(a, &old, f64_bits(bits_f64(old) + v), true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return bits_f64(old);
}
#endif

/** atomicMin on a double by CAS; returns the value before (NaN never wins). */
TS_DEVICE double atomic_min_f64(double* p, double v) {
  u64* a = (u64*)p;
  u64 old = f64_bits(load_f64(p));
  for (;;) {
    double o = bits_f64(old);
    if (!(v < o)) return o;
    u64 prev = atomic_cas_u64(a, old, f64_bits(v));
    if (prev == old) return o;
    old = prev;
  }
}

/**
 * A block sum's last phase: thread 0 adds the block's partial sums part[0, bdim) to *out, one
 * atomic a block (one a thread serialised ~1 M double atomics on one address: 0.6 ms a call on an
 * H100 at RMAT 24). The exact total where it stays below 2^53.
 */
TS_DEVICE void blockSumTo(const Ctx& c, const double* part, double* out) {
  if (c.tid != 0) return;
  double s = 0;
  for (u32 t = 0; t < c.bdim; t++) s += part[t];
  if (s != 0) atomic_add_f64(out, s);
}

#if !defined(__CUDACC_RTC__)
/** Garaph's replication factor R = 2^min(ceil(log2(E/V) - 0.5), 5), at least 1. */
inline u32 replicationFactor(double edges, double vertices) {
  if (vertices <= 0) return 1;
  // k = ceil(log2(E/V) - 0.5) is the smallest k with 2^k * sqrt(2) >= E/V; clamped to [0, 5].
  double ratio = edges / vertices;
  int k = 0;
  while (k < 5 && ratio > 1.4142135623730951 * (double)(1u << k)) k++;
  return 1u << k;
}
#endif

}  // namespace ts
