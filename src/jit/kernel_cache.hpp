// Structural kernel lookup: a key already seen on this device maps straight to the loaded kernel,
// with no source generated and no strings built; a new key calls `make` for the source and goes
// through the disk cache and NVRTC (see docs/jit.md).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "jit/kernel_key.hpp"
#include "jit/module.hpp"
#include "runtime/launch.hpp"

namespace cuarray::jit {

struct KernelSource {
  std::string code;
  std::string name;  // the extern "C" __global__ function to fetch
  std::vector<std::string> options = {};  // NVRTC options beyond the defaults (user kernels')
};

// Looks up `key` on the current device; a miss compiles (or loads from disk) `make()`'s source
// into a module that stays loaded for the process.
runtime::Kernel find_kernel(const KernelKey& key);  // function null when the key is new
runtime::Kernel add_kernel(const KernelKey& key, const KernelSource& source);
template <class Make>
runtime::Kernel get_kernel(const KernelKey& key, Make&& make) {
  if (runtime::Kernel k = find_kernel(key); k.function) return k;
  return add_kernel(key, make());
}

// Compiles (or loads from disk) `source` for the current device into a module of its own, which
// unloads when the last handle goes: for user kernels (RawModule, RawKernel).
std::shared_ptr<Module> load_module(const KernelSource& source, const std::vector<std::string>& extra_options = {});

// The CUBIN for an architecture ("sm_90"), through the disk cache.
std::string cubin_for(const KernelSource& source, const std::string& arch,
                      const std::vector<std::string>& extra_options = {});
std::string device_arch(int device);  // "sm_90"

}  // namespace cuarray::jit
