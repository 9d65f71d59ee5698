// The emulated GPU: "device" memory is host memory, streams run in order on the calling thread,
// events are timestamps, and kernels from kernels.h run block by block (blocks spread over a few
// host threads), each phase for every thread of the block before the next phase.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <dlfcn.h>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>

#include "backend.h"
#include "copy_pool.h"
#include "kernels.h"

namespace ts {
namespace {

/**
 * Runs fn(block, smem) for block in [0, n) on a copy pool's threads and the caller's (blocks
 * handed out by a counter), each thread with its own shared memory.
 */
class BlockPool {
 public:
  explicit BlockPool(unsigned threads) : smem_(threads), threads_(threads) {}
  void run(uint32_t n, size_t smemBytes, const std::function<void(uint32_t, char*)>& fn) {
    for (auto& s : smem_)
      if (s.size() < smemBytes + 16) s.assign(smemBytes + 16, (char)0xA5);
    if (n < 2) {
      for (uint32_t b = 0; b < n; b++) fn(b, aligned(0));
      return;
    }
    std::atomic<uint32_t> next{0};
    threads_.each([&](unsigned i, unsigned) {
      for (uint32_t b; (b = next.fetch_add(1)) < n;) fn(b, aligned(i));
    });
  }

 private:
  char* aligned(unsigned i) {
    uintptr_t p = (uintptr_t)smem_[i].data();
    return (char*)((p + 15) & ~(uintptr_t)15);
  }
  std::vector<std::vector<char>> smem_;
  CopyPool threads_;
};

using HostLauncher = void (*)(BlockPool&, uint32_t, uint32_t, size_t, const void*);

template <class K>
void hostLaunch(BlockPool& pool, uint32_t grid, uint32_t block, size_t smem, const void* args) {
  const typename K::Args a = *(const typename K::Args*)args;
  pool.run(grid, smem, [&](uint32_t bid, char* sm) {
    for (int p = 0; p < K::phases; p++)
      for (uint32_t t = 0; t < block; t++) K::phase(p, Ctx{t, bid, block, grid, sm}, a);
  });
}

const HostLauncher kLaunchers[kid_Count] = {
#define TS_HL(name) &hostLaunch<K##name>,
    TS_KERNEL_LIST(TS_HL)
#undef TS_HL
};

struct HostEvent {
  std::chrono::steady_clock::time_point t;
};

unsigned emuThreads() {
  if (const char* s = std::getenv("TESSERA_EMU_THREADS")) {
    int n = std::atoi(s);
    if (n >= 1 && n <= 256) return (unsigned)n;
  }
  unsigned hw = std::thread::hardware_concurrency();
  return std::max(1u, std::min(hw == 0 ? 1u : hw, 4u));
}

class HostBackend final : public Backend {
 public:
  explicit HostBackend(int streams) : streams_(streams), pool_(emuThreads()) {}
  DeviceProps props() override {
    DeviceProps p;
    p.name = "emulated GPU (host kernels)";
    p.emulated = true;
    p.multiProcessors = (int)emuThreads();
    return p;
  }
  void* devAlloc(size_t bytes) override {
    size_t n = (std::max<size_t>(bytes, 1) + 255) & ~(size_t)255;
    return std::aligned_alloc(256, n);
  }
  void devFree(void* p) override { std::free(p); }
  void* pinnedAlloc(size_t bytes) override { return devAlloc(bytes); }
  void pinnedFree(void* p) override { std::free(p); }
  // Host memory is "device" memory here: registering always works and changes nothing, so the
  // emulated device walks the same direct-copy paths as a real one.
  bool hostRegister(void*, size_t) override { return true; }
  void hostUnregister(void*) override {}
  void h2d(void* dst, const void* src, size_t n, int) override { std::memcpy(dst, src, n); }
  void d2h(void* dst, const void* src, size_t n, int) override { std::memcpy(dst, src, n); }
  void d2d(void* dst, const void* src, size_t n, int) override { std::memcpy(dst, src, n); }
  // Emulated devices share the host's memory: a peer's array is a host pointer too.
  void peerCopy(void* dst, const void* src, int, size_t n, int) override { std::memcpy(dst, src, n); }
  void peerCopyTo(void* dst, int, const void* src, size_t n, int) override { std::memcpy(dst, src, n); }
  bool enablePeer(int) override { return true; }
  void memset(void* dst, int v, size_t n, int) override { std::memset(dst, v, n); }
  Event newEvent(bool) override { return new HostEvent{std::chrono::steady_clock::now()}; }
  void freeEvent(Event e) override { delete (HostEvent*)e; }
  void record(Event e, int) override { ((HostEvent*)e)->t = std::chrono::steady_clock::now(); }
  void wait(int, Event) override {}
  void sync(Event) override {}
  float elapsedMs(Event a, Event b) override {
    return std::chrono::duration<float, std::milli>(((HostEvent*)b)->t - ((HostEvent*)a)->t).count();
  }
  void syncStream(int) override {}
  void syncAll() override {}
  int streams() const override { return streams_; }
  void launch(int id, uint32_t grid, uint32_t block, size_t smem, int, const void* args) override {
    if (grid == 0) return;
    kLaunchers[id](pool_, grid, block, smem, args);
  }
  void* moduleLoad(const std::string& path, const std::string&) override {
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) throw CodedError("TS_OPERATOR", std::string("cannot load the operator module ") + path + ": " + dlerror());
    return h;
  }
  void* moduleFunction(void* mod, const std::string& name) override { return dlsym(mod, name.c_str()); }
  void moduleUnload(void* mod) override { dlclose(mod); }
  void launchFn(void* fn, uint32_t grid, uint32_t block, size_t smem, int, const void* args) override {
    if (grid == 0) return;
    using BlockFn = void (*)(uint32_t, uint32_t, uint32_t, char*, const void*);
    BlockFn f = (BlockFn)fn;
    pool_.run(grid, smem, [&](uint32_t bid, char* sm) { f(bid, grid, block, sm, args); });
  }
  size_t sortTempBytes(size_t, uint32_t) override { return 0; }
  uint32_t* sortSegments(uint32_t* keys, uint32_t*, size_t, const uint32_t* off, uint32_t segs, void*, size_t,
                         int) override {
    for (uint32_t i = 0; i < segs; i++) std::sort(keys + off[i], keys + off[i + 1]);
    return keys;
  }
  size_t sortPairsTempBytes(size_t, uint32_t) override { return 0; }
  void sortSegmentPairs(const uint32_t* keys, uint32_t* keysOut, const uint32_t* vals, uint32_t* valsOut, size_t,
                        const uint32_t* off, uint32_t segs, void*, size_t, int) override {
    std::vector<uint32_t> idx;
    for (uint32_t i = 0; i < segs; i++) {
      const uint32_t a = off[i], b = off[i + 1];
      idx.resize(b - a);
      for (uint32_t j = a; j < b; j++) idx[j - a] = j;
      std::stable_sort(idx.begin(), idx.end(), [&](uint32_t x, uint32_t y) { return keys[x] < keys[y]; });
      for (uint32_t j = a; j < b; j++) keysOut[j] = keys[idx[j - a]], valsOut[j] = vals[idx[j - a]];
    }
  }

 private:
  int streams_;
  BlockPool pool_;
};

}  // namespace

std::unique_ptr<Backend> makeHostBackend(int streams) { return std::make_unique<HostBackend>(streams); }

}  // namespace ts
