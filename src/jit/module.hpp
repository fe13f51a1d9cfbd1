// A loaded CUBIN module: the owning handle of a CUmodule and of the kernels fetched from it, each
// with its parameter layout (runtime::KernelInfo) read from the CUBIN and confirmed with the
// driver. The kernel cache keeps the engine's own modules loaded for the process; a module loaded
// for a user (RawModule, RawKernel) unloads when its last handle goes.
#pragma once
#include <cuda.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "jit/cubin_params.hpp"
#include "runtime/launch.hpp"

namespace cuarray::jit {

class Module {
 public:
  // Loads `cubin` (or any image cuModuleLoadData takes: fatbin, PTX) into `device`'s context, with
  // the parameter layouts the image records (image_params).
  static std::shared_ptr<Module> load(std::string_view cubin, int device);
  // Submits held launches first (they may use this module's kernels), then unloads.
  ~Module();
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  // The extern "C" kernel `name` (CudaDriver error naming the call when the module has none);
  // valid while this module lives.
  runtime::Kernel kernel(const std::string& name);
  int device() const { return device_; }
  // Whether the image defines the kernel `name`, as far as its own records say: false only when it
  // describes its kernels and `name` is not among them (then cuModuleGetFunction would fail, an
  // API error every compute-sanitizer run reports), true when it may.
  bool may_have_kernel(const std::string& name) const {
    return cubin_params_.empty() || cubin_params_.count(name) > 0;
  }
  // The address and size of the module's __device__ or __constant__ variable `name`; a CudaDriver
  // error when it has none (found in the image's symbol table where it has one, so without a
  // failing driver call).
  std::pair<CUdeviceptr, size_t> global(const std::string& name);

 private:
  Module(int device, CUmodule module, std::unordered_map<std::string, CubinParams> params,
         std::optional<std::unordered_set<std::string>> variables)
      : device_(device), module_(module), cubin_params_(std::move(params)), variables_(std::move(variables)) {}
  struct Loaded {
    CUfunction function;
    std::unique_ptr<runtime::KernelInfo> info;  // its address is handed out: never moves
  };
  int device_;
  CUmodule module_;
  std::unordered_map<std::string, CubinParams> cubin_params_;  // of every kernel in the module
  std::optional<std::unordered_set<std::string>> variables_;   // nullopt: the image does not say
  std::mutex mutex_;
  std::unordered_map<std::string, Loaded> kernels_;
};

}  // namespace cuarray::jit
