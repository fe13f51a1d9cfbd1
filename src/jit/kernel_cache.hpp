// Structural kernel lookup: an operation describes the kernel it needs as a small KernelKey
// (operation id, dtypes, rank class, layout, index width). A key already seen on this device maps
// straight to the loaded function, with no source generated and no strings built; a new key calls
// `make` for the source and goes through the disk cache and NVRTC (see docs/jit.md).
#pragma once
#include <cuda.h>

#include <string>
#include <vector>

#include "core/byte_key.hpp"

namespace cuarray::jit {

// Up to 56 bytes: an operation id and a handful of small fields (dtypes, rank class, layout).
using KernelKey = ByteKey<56>;

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
