// The real GPU: plain cudaMalloc (no managed memory), pinned staging, K non-blocking streams,
// kernels from kernels.h launched as __global__ functions (phases separated by __syncthreads()).
#include <cuda_runtime.h>

#include <cub/device/device_segmented_sort.cuh>
#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include "backend.h"
#include "kernels.h"

namespace ts {
namespace {

/** A kernel's phases, one block per call, separated by __syncthreads(). */
template <class K>
__device__ __forceinline__ void runPhases(const typename K::Args& a) {
  extern __shared__ __align__(16) char smem[];
  const Ctx c{threadIdx.x, blockIdx.x, blockDim.x, gridDim.x, smem};
#pragma unroll
  for (int p = 0; p < K::phases; p++) {
    K::phase(p, c, a);
    if (p + 1 < K::phases) __syncthreads();
  }
}

template <class K>
__global__ void __launch_bounds__(kBlock) gk(const typename K::Args a) {
  runPhases<K>(a);
}

/**
 * gk for a kernel that names K::minBlocks: __launch_bounds__(kBlock, minBlocks), so ptxas may use
 * up to 64K / (minBlocks * kBlock) registers per thread (see KPrPull) instead of its own choice.
 */
template <class K>
__global__ void __launch_bounds__(kBlock, K::minBlocks) gkMin(const typename K::Args a) {
  runPhases<K>(a);
}

template <class K, class = void>
struct MinBlocksOf {
  static constexpr int value = 0;
};
template <class K>
struct MinBlocksOf<K, std::void_t<decltype(K::minBlocks)>> {
  static constexpr int value = K::minBlocks;
};

using CudaLauncher = void (*)(uint32_t, uint32_t, size_t, cudaStream_t, const void*);

template <class K>
void cudaLaunchK(uint32_t grid, uint32_t block, size_t smem, cudaStream_t s, const void* args) {
  if constexpr (MinBlocksOf<K>::value > 0)
    gkMin<K><<<grid, block, smem, s>>>(*(const typename K::Args*)args);
  else
    gk<K><<<grid, block, smem, s>>>(*(const typename K::Args*)args);
}

const CudaLauncher kLaunchers[kid_Count] = {
#define TS_CL(name) &cudaLaunchK<K##name>,
    TS_KERNEL_LIST(TS_CL)
#undef TS_CL
};

/**
 * NVRTC, loaded when a program first needs it (dlopen): a machine with the driver but without
 * the toolkit's NVRTC still runs everything else, and says why a user operator cannot compile.
 * Declared here from the C API (the library's ABI), so the build needs no nvrtc.h either.
 */
struct Nvrtc {
  using Prog = void*;
  int (*create)(Prog*, const char*, const char*, int, const char* const*, const char* const*) = nullptr;
  int (*compile)(Prog, int, const char* const*) = nullptr;
  int (*logSize)(Prog, size_t*) = nullptr;
  int (*log)(Prog, char*) = nullptr;
  int (*cubinSize)(Prog, size_t*) = nullptr;
  int (*cubin)(Prog, char*) = nullptr;
  int (*destroy)(Prog*) = nullptr;
  const char* (*error)(int) = nullptr;
  std::string why;
  Nvrtc() {
    // TESSERA_NVRTC names the library to use (and only that one).
    std::vector<std::string> names;
    if (const char* env = std::getenv("TESSERA_NVRTC")) names.push_back(env);
    else
      for (const char* n : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}) names.push_back(n);
    void* h = nullptr;
    for (auto& n : names)
      if ((h = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
    if (!h) {
      why = "NVRTC (libnvrtc.so) was not found";
      return;
    }
    auto sym = [&](auto& f, const char* n) { f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(dlsym(h, n)); };
    sym(create, "nvrtcCreateProgram");
    sym(compile, "nvrtcCompileProgram");
    sym(logSize, "nvrtcGetProgramLogSize");
    sym(log, "nvrtcGetProgramLog");
    sym(cubinSize, "nvrtcGetCUBINSize");
    sym(cubin, "nvrtcGetCUBIN");
    sym(destroy, "nvrtcDestroyProgram");
    sym(error, "nvrtcGetErrorString");
    if (!create || !compile || !logSize || !log || !cubinSize || !cubin || !destroy || !error) why = "libnvrtc.so lacks nvrtcGetCUBIN";
  }
};

Nvrtc& nvrtcLib() {
  static Nvrtc nv;
  return nv;
}

std::string nvrtcCompile(const std::string& source, const std::string& name, int major, int minor) {
  Nvrtc& nv = nvrtcLib();
  if (!nv.why.empty())
    throw CodedError("TS_NVRTC", nv.why + ". Fix: install the CUDA toolkit's NVRTC (or set TESSERA_NVRTC to libnvrtc.so), or run the program on a CPU-only topology");
  Nvrtc::Prog prog = nullptr;
  int r = nv.create(&prog, source.c_str(), name.c_str(), 0, nullptr, nullptr);
  if (r != 0) throw CodedError("TS_NVRTC", std::string("nvrtcCreateProgram: ") + nv.error(r));
  const std::string arch = "--gpu-architecture=sm_" + std::to_string(major) + std::to_string(minor);
  const char* opts[] = {arch.c_str(), "-std=c++17", "-lineinfo"};
  r = nv.compile(prog, 3, opts);
  size_t n = 0;
  nv.logSize(prog, &n);
  std::string log(n, '\0');
  if (n > 0) nv.log(prog, &log[0]);
  if (r != 0) {
    nv.destroy(&prog);
    throw CodedError("TS_NVRTC", "the GPU operators of " + name + " do not compile (" + nv.error(r) + "):\n" + log);
  }
  nv.cubinSize(prog, &n);
  std::string out(n, '\0');
  nv.cubin(prog, &out[0]);
  nv.destroy(&prog);
  return out;
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    cudaGetLastError();
    throw CodedError("TS_CUDA", std::string("CUDA error in ") + what + ": " + cudaGetErrorName(e) + ": " +
                                    cudaGetErrorString(e));
  }
}

class CudaBackend final : public Backend {
 public:
  CudaBackend(int device, int streams) : device_(device) {
    check(cudaSetDevice(device), "cudaSetDevice");
    check(cudaFree(nullptr), "context creation");
    for (int i = 0; i < streams; i++) {
      cudaStream_t s;
      check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
      streams_.push_back(s);
    }
  }
  ~CudaBackend() override {
    cudaSetDevice(device_);
    cudaDeviceSynchronize();
    for (auto s : streams_) cudaStreamDestroy(s);
  }
  DeviceProps props() override {
    cudaDeviceProp p{};
    check(cudaGetDeviceProperties(&p, device_), "cudaGetDeviceProperties");
    DeviceProps d;
    d.name = p.name;
    d.emulated = false;
    d.ccMajor = p.major;
    d.ccMinor = p.minor;
    d.multiProcessors = p.multiProcessorCount;
    size_t fr = 0, tot = 0;
    check(cudaMemGetInfo(&fr, &tot), "cudaMemGetInfo");
    d.totalMemory = tot;
    d.freeMemory = fr;
    return d;
  }
  void* devAlloc(size_t bytes) override {
    void* p = nullptr;
    cudaError_t e = cudaMalloc(&p, bytes);
    if (e == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      return nullptr;
    }
    check(e, "cudaMalloc");
    return p;
  }
  void devFree(void* p) override {
    if (p) check(cudaFree(p), "cudaFree");
  }
  void* pinnedAlloc(size_t bytes) override {
    void* p = nullptr;
    check(cudaHostAlloc(&p, bytes, cudaHostAllocDefault), "cudaHostAlloc (pinned staging)");
    return p;
  }
  void pinnedFree(void* p) override {
    if (p) cudaFreeHost(p);
  }
  bool hostRegister(void* p, size_t n) override {
    if (cudaHostRegister(p, n, cudaHostRegisterPortable) == cudaSuccess) return true;  // every GPU's context sees it pinned
    cudaGetLastError();  // e.g. cudaErrorHostMemoryAlreadyRegistered: the caller stages instead
    return false;
  }
  void hostUnregister(void* p) override {
    if (cudaHostUnregister(p) != cudaSuccess) cudaGetLastError();
  }
  void bindThread() override { cudaSetDevice(device_); }
  void h2d(void* dst, const void* src, size_t n, int s) override {
    check(cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, streams_[s]), "cudaMemcpyAsync H2D");
  }
  void d2h(void* dst, const void* src, size_t n, int s) override {
    check(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost, streams_[s]), "cudaMemcpyAsync D2H");
  }
  void d2d(void* dst, const void* src, size_t n, int s) override {
    check(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, streams_[s]), "cudaMemcpyAsync D2D");
  }
  void peerCopy(void* dst, const void* src, int srcDevice, size_t n, int s) override {
    check(cudaMemcpyPeerAsync(dst, device_, src, srcDevice, n, streams_[s]), "cudaMemcpyPeerAsync");
  }
  void peerCopyTo(void* dst, int dstDevice, const void* src, size_t n, int s) override {
    check(cudaMemcpyPeerAsync(dst, dstDevice, src, device_, n, streams_[s]), "cudaMemcpyPeerAsync");
  }
  bool enablePeer(int peer) override {
    int can = 0;
    if (peer == device_ || cudaDeviceCanAccessPeer(&can, device_, peer) != cudaSuccess || !can) {
      cudaGetLastError();
      return false;
    }
    cudaError_t e = cudaDeviceEnablePeerAccess(peer, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled || e == cudaSuccess) {
      cudaGetLastError();
      return true;
    }
    cudaGetLastError();
    return false;
  }
  void memset(void* dst, int v, size_t n, int s) override {
    check(cudaMemsetAsync(dst, v, n, streams_[s]), "cudaMemsetAsync");
  }
  Event newEvent(bool timing) override {
    cudaEvent_t e;
    check(cudaEventCreateWithFlags(&e, timing ? cudaEventDefault : cudaEventDisableTiming), "cudaEventCreate");
    return (Event)e;
  }
  void freeEvent(Event e) override { cudaEventDestroy((cudaEvent_t)e); }
  void record(Event e, int s) override { check(cudaEventRecord((cudaEvent_t)e, streams_[s]), "cudaEventRecord"); }
  void wait(int s, Event e) override { check(cudaStreamWaitEvent(streams_[s], (cudaEvent_t)e, 0), "cudaStreamWaitEvent"); }
  void sync(Event e) override { check(cudaEventSynchronize((cudaEvent_t)e), "cudaEventSynchronize"); }
  float elapsedMs(Event a, Event b) override {
    float ms = 0;
    check(cudaEventElapsedTime(&ms, (cudaEvent_t)a, (cudaEvent_t)b), "cudaEventElapsedTime");
    return ms;
  }
  void syncStream(int s) override { check(cudaStreamSynchronize(streams_[s]), "cudaStreamSynchronize"); }
  void syncAll() override {
    for (auto s : streams_) check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  }
  int streams() const override { return (int)streams_.size(); }
  void launch(int id, uint32_t grid, uint32_t block, size_t smem, int s, const void* args) override {
    if (grid == 0) return;
    kLaunchers[id](grid, block, smem, streams_[s], args);
    check(cudaGetLastError(), "kernel launch");
  }
  void* moduleLoad(const std::string&, const std::string& image) override {
    cudaLibrary_t lib = nullptr;
    check(cudaLibraryLoadData(&lib, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0), "cudaLibraryLoadData (operator module)");
    return (void*)lib;
  }
  void* moduleFunction(void* mod, const std::string& name) override {
    cudaKernel_t k = nullptr;
    if (cudaLibraryGetKernel(&k, (cudaLibrary_t)mod, name.c_str()) != cudaSuccess) {
      cudaGetLastError();
      return nullptr;
    }
    return (void*)k;
  }
  void moduleUnload(void* mod) override {
    if (cudaLibraryUnload((cudaLibrary_t)mod) != cudaSuccess) cudaGetLastError();
  }
  void launchFn(void* fn, uint32_t grid, uint32_t block, size_t smem, int s, const void* args) override {
    if (grid == 0) return;
    void* params[] = {const_cast<void*>(args)};
    check(cudaLaunchKernel((const void*)fn, dim3(grid), dim3(block), params, smem, streams_[s]), "operator kernel launch");
  }
  std::string compileModule(const std::string& source, const std::string& name) override {
    cudaDeviceProp p{};
    check(cudaGetDeviceProperties(&p, device_), "cudaGetDeviceProperties");
    return nvrtcCompile(source, name, p.major, p.minor);
  }
  size_t sortTempBytes(size_t n, uint32_t segs) override {
    size_t bytes = 0;
    check(cub::DeviceSegmentedSort::SortKeys(nullptr, bytes, (const uint32_t*)nullptr, (uint32_t*)nullptr, (int64_t)n,
                                             (int64_t)segs, (const uint32_t*)nullptr, (const uint32_t*)nullptr),
          "cub::DeviceSegmentedSort (size)");
    return bytes;
  }
  uint32_t* sortSegments(uint32_t* keys, uint32_t* alt, size_t n, const uint32_t* off, uint32_t segs, void* temp,
                         size_t tempBytes, int s) override {
    if (n == 0 || segs == 0) return keys;
    check(cub::DeviceSegmentedSort::SortKeys(temp, tempBytes, (const uint32_t*)keys, alt, (int64_t)n, (int64_t)segs,
                                             off, off + 1, streams_[s]),
          "cub::DeviceSegmentedSort");
    return alt;
  }
  size_t sortPairsTempBytes(size_t n, uint32_t segs) override {
    size_t bytes = 0;
    check(cub::DeviceSegmentedSort::StableSortPairs(nullptr, bytes, (const uint32_t*)nullptr, (uint32_t*)nullptr,
                                                    (const uint32_t*)nullptr, (uint32_t*)nullptr, (int64_t)n, (int64_t)segs,
                                                    (const uint32_t*)nullptr, (const uint32_t*)nullptr),
          "cub::DeviceSegmentedSort pairs (size)");
    return bytes;
  }
  void sortSegmentPairs(const uint32_t* keys, uint32_t* keysOut, const uint32_t* vals, uint32_t* valsOut, size_t n,
                        const uint32_t* off, uint32_t segs, void* temp, size_t tempBytes, int s) override {
    if (n == 0 || segs == 0) return;
    check(cub::DeviceSegmentedSort::StableSortPairs(temp, tempBytes, keys, keysOut, vals, valsOut, (int64_t)n, (int64_t)segs,
                                                    off, off + 1, streams_[s]),
          "cub::DeviceSegmentedSort pairs");
  }

 private:
  int device_;
  std::vector<cudaStream_t> streams_;
};

}  // namespace

int cudaDeviceCount(std::string* why) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    cudaGetLastError();
    if (why) *why = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
    return -1;
  }
  return n;
}

bool builtWithCuda() { return true; }

bool nvrtcAvailable(std::string* why) {
  const std::string& w = nvrtcLib().why;
  if (why) *why = w;
  return w.empty();
}

std::unique_ptr<Backend> makeCudaBackend(int device, int streams) {
  std::string why;
  int n = cudaDeviceCount(&why);
  if (n < 0)
    throw CodedError("TS_NO_DEVICE", "no CUDA device: the CUDA runtime cannot use this machine's driver (" + why +
                                         "). Fix: install an NVIDIA driver that supports CUDA " +
                                         std::to_string(CUDART_VERSION / 1000) + "." +
                                         std::to_string((CUDART_VERSION % 1000) / 10) + ", or use emulated: true");
  if (n == 0) throw CodedError("TS_NO_DEVICE", "no CUDA device: cudaGetDeviceCount found 0 GPUs. Fix: use emulated: true");
  if (device < 0 || device >= n)
    throw CodedError("TS_BAD_DEVICE", "GPU device " + std::to_string(device) + " does not exist: this machine has " +
                                          std::to_string(n) + " CUDA device(s), indices 0.." + std::to_string(n - 1));
  return std::make_unique<CudaBackend>(device, streams);
}

}  // namespace ts
