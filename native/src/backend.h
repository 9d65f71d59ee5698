// What the controller needs from a device: memory, asynchronous copies and kernels on K streams,
// events (ordering and timing). Two implementations: backend_cuda.cu (a real GPU) and
// backend_host.cpp (the "emulated GPU": host memory, synchronous streams, kernels run in loops).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace ts {

struct DeviceProps {
  std::string name;
  bool emulated = false;
  size_t totalMemory = 0;
  size_t freeMemory = 0;  // at the time of the query (CUDA), total for the emulated device
  int ccMajor = 0, ccMinor = 0;
  int multiProcessors = 0;
};

/** An error that JS sees with a code (e.g. 'TS_OOM', 'TS_NO_DEVICE'). */
struct CodedError : std::runtime_error {
  std::string code;
  CodedError(const std::string& c, const std::string& m) : std::runtime_error(m), code(c) {}
};

using Event = void*;

class Backend {
 public:
  virtual ~Backend() = default;
  virtual DeviceProps props() = 0;
  /** Device memory; nullptr when the device itself is out of memory. */
  virtual void* devAlloc(size_t bytes) = 0;
  virtual void devFree(void* p) = 0;
  /** Page-locked host memory for staging. */
  virtual void* pinnedAlloc(size_t bytes) = 0;
  virtual void pinnedFree(void* p) = 0;
  /**
   * Page-locks existing host memory (cudaHostRegister) so copies from/to it are direct DMA at link
   * speed; false when it cannot (already registered, not supported): callers then stage.
   */
  virtual bool hostRegister(void* p, size_t n) = 0;
  virtual void hostUnregister(void* p) = 0;
  /** Makes this device current on the calling thread (a thread other than the controller's). */
  virtual void bindThread() {}
  virtual void h2d(void* dst, const void* src, size_t n, int stream) = 0;  // async w.r.t. host
  virtual void d2h(void* dst, const void* src, size_t n, int stream) = 0;  // async w.r.t. host
  virtual void d2d(void* dst, const void* src, size_t n, int stream) = 0;  // async w.r.t. host
  /**
   * dst (this device) = src (memory of device srcDevice), async w.r.t. host: direct over NVLink or
   * PCIe once enablePeer(srcDevice) succeeded, else staged through the host by the driver.
   */
  virtual void peerCopy(void* dst, const void* src, int srcDevice, size_t n, int stream) = 0;
  /** dst (memory of device dstDevice) = src (this device), async w.r.t. host, ordered on this device's stream. */
  virtual void peerCopyTo(void* dst, int dstDevice, const void* src, size_t n, int stream) = 0;
  /** Lets this device read peerDevice's memory directly; false when the hardware cannot. */
  virtual bool enablePeer(int peerDevice) = 0;
  virtual void memset(void* dst, int value, size_t n, int stream) = 0;
  virtual Event newEvent(bool timing) = 0;
  virtual void freeEvent(Event e) = 0;
  virtual void record(Event e, int stream) = 0;
  virtual void wait(int stream, Event e) = 0;  // stream waits for e (no host block)
  virtual void sync(Event e) = 0;              // host waits for e
  virtual float elapsedMs(Event a, Event b) = 0;
  virtual void syncStream(int stream) = 0;
  virtual void syncAll() = 0;
  virtual int streams() const = 0;
  virtual void launch(int kernelId, uint32_t grid, uint32_t block, size_t smem, int stream, const void* args) = 0;
  // User operators (kernels_user.h), compiled at run time (controller_user.cpp).
  /** Loads a module: the host backend dlopens the shared object at `path`, CUDA loads `image` (a cubin). */
  virtual void* moduleLoad(const std::string& path, const std::string& image) = 0;
  /** An entry point of a loaded module, or nullptr when it has none of that name. */
  virtual void* moduleFunction(void* mod, const std::string& name) = 0;
  virtual void moduleUnload(void* mod) = 0;
  /** Launches an entry point with one argument struct (UserArgs). */
  virtual void launchFn(void* fn, uint32_t grid, uint32_t block, size_t smem, int stream, const void* args) = 0;
  /** CUDA: `source` compiled by NVRTC (loaded dynamically) into a cubin for this device; TS_NVRTC with the log. */
  virtual std::string compileModule(const std::string& source, const std::string& name) {
    throw CodedError("TS_NVRTC", "the emulated GPU compiles operators with the host C++ compiler, not NVRTC");
  }
  /** Temporary bytes that sortSegments needs for n keys in segs segments. */
  virtual size_t sortTempBytes(size_t n, uint32_t segs) = 0;
  /**
   * Sorts keys[off[i], off[i+1]) ascending for each segment i (offsets in device memory); alt
   * (n keys) and temp are scratch. Returns where the sorted keys are (keys or alt).
   */
  virtual uint32_t* sortSegments(uint32_t* keys, uint32_t* alt, size_t n, const uint32_t* dOff, uint32_t segs, void* temp,
                                 size_t tempBytes, int stream) = 0;
  /** Temporary bytes that sortSegmentPairs needs for n pairs in segs segments. */
  virtual size_t sortPairsTempBytes(size_t n, uint32_t segs) = 0;
  /**
   * Sorts the pairs (keys[i], vals[i]) of each segment [off[i], off[i+1]) by key, stably (equal keys
   * keep their order), into keysOut and valsOut (n entries each; temp is scratch).
   */
  virtual void sortSegmentPairs(const uint32_t* keys, uint32_t* keysOut, const uint32_t* vals, uint32_t* valsOut, size_t n,
                                const uint32_t* dOff, uint32_t segs, void* temp, size_t tempBytes, int stream) = 0;
};

std::unique_ptr<Backend> makeHostBackend(int streams);
/** Throws CodedError TS_NO_DEVICE / TS_BAD_DEVICE; in the host-only build always TS_NO_CUDA. */
std::unique_ptr<Backend> makeCudaBackend(int device, int streams);
/** Number of CUDA devices, or -1 with the reason when the runtime/driver is unusable. */
int cudaDeviceCount(std::string* why);
bool builtWithCuda();
/** Whether NVRTC loads (GPU operators on a real GPU), and if not why. */
bool nvrtcAvailable(std::string* why);

}  // namespace ts
