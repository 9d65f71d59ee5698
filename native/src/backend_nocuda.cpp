// The host-only build (tessera_native_host): no CUDA backend, only the emulated GPU.
#include "backend.h"

namespace ts {

int cudaDeviceCount(std::string* why) {
  if (why) *why = "this addon (tessera_native_host) was built without CUDA";
  return -1;
}

bool builtWithCuda() { return false; }

bool nvrtcAvailable(std::string* why) {
  if (why) *why = "this addon (tessera_native_host) was built without CUDA";
  return false;
}

std::unique_ptr<Backend> makeCudaBackend(int, int) {
  throw CodedError("TS_NO_CUDA",
                   "no CUDA device: this addon (tessera_native_host) was built without CUDA (nvcc was not found at "
                   "build time). Fix: install the CUDA toolkit and rerun `node scripts/build-native.mjs`, or use "
                   "emulated: true");
}

}  // namespace ts
