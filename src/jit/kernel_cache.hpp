// Structural kernel lookup: an operation describes the kernel it needs as a small KernelKey
// (operation id, dtypes, rank class, layout, index width). A key already seen on this device maps
// straight to the loaded function, with no source generated and no strings built; a new key calls
// `make` for the source and goes through the disk cache and NVRTC (see docs/jit.md).
#pragma once
#include <cuda.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace cuarray::jit {

class KernelKey {
 public:
  static constexpr int kCapacity = 56;
  KernelKey& push(uint8_t v) {
    bytes_[size_++] = v;  // callers keep to kCapacity; keys are a handful of small fields
    return *this;
  }
  KernelKey& push_u64(uint64_t v) {
    for (int i = 0; i < 8; ++i) push(static_cast<uint8_t>(v >> (8 * i)));
    return *this;
  }
  bool operator==(const KernelKey& o) const { return size_ == o.size_ && std::memcmp(bytes_, o.bytes_, size_) == 0; }
  size_t hash() const {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ size_;
    for (int i = 0; i < size_; ++i) h = (h ^ bytes_[i]) * 0x100000001b3ull;
    return static_cast<size_t>(h);
  }

 private:
  uint8_t bytes_[kCapacity] = {};
  uint8_t size_ = 0;
};

struct KernelSource {
  std::string code;
  std::string name;  // the extern "C" __global__ function to fetch
};

// Looks up `key` on the current device; `make()` returns a KernelSource on a miss.
CUfunction find_kernel(const KernelKey& key);
CUfunction add_kernel(const KernelKey& key, const KernelSource& source);
template <class Make>
CUfunction get_kernel(const KernelKey& key, Make&& make) {
  if (CUfunction f = find_kernel(key)) return f;
  return add_kernel(key, make());
}

// Compiles (or loads from disk) and loads a module for the current device, uncached in memory:
// for user kernels (RawKernel) that keep their own handle.
CUfunction load_kernel(const KernelSource& source, const std::vector<std::string>& extra_options = {});

// The CUBIN for the current device, through the disk cache.
std::string cubin_for(const KernelSource& source, const std::string& arch,
                      const std::vector<std::string>& extra_options = {});
std::string device_arch(int device);  // "sm_90"

}  // namespace cuarray::jit
