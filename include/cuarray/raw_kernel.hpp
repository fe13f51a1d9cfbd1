// User CUDA code compiled and launched as it is: CuPy's RawModule and RawKernel in C++.
//
// A RawModule holds CUDA C++ source (compiled by NVRTC, or nvcc on request, through cuarray's
// disk cache) or a compiled image (.cubin, .ptx, .fatbin), loaded once per device on first use.
// Its kernels (RawKernel) launch on the current stream through cuarray's launch path: arguments
// are checked against the kernel's parameters as the CUBIN records them, and small launches are
// held with cuarray's own. A module unloads when the RawModule and every RawKernel from it are gone.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cuarray/ndarray.hpp"
#include "cuarray/small_vector.hpp"

namespace cuarray {

namespace jit {
class Module;
}
namespace runtime {
struct KernelInfo;
}

enum class CompilerBackend : uint8_t { Nvrtc, Nvcc };

// How RawModule compiles source (CuPy's RawModule arguments of the same names).
struct RawModuleOptions {
  std::vector<std::string> options;  // passed to the compiler as they are
  CompilerBackend backend = CompilerBackend::Nvrtc;
  bool enable_cooperative_groups = false;  // launches use cuLaunchCooperativeKernel
  // C++ names of template instantiations ("f<float>") that get_function finds by their lowered
  // names (NVRTC only).
  std::vector<std::string> name_expressions;
};

// One kernel argument as CuPy passes it: a device pointer, a Python int (CuPy's int64), or the
// bytes of a NumPy scalar (or of a Python float/complex as float64/complex128).
struct KernelArgument {
  enum class Kind : uint8_t { Pointer, PythonInt, Value };
  Kind kind = Kind::Value;
  SmallVector<unsigned char, 16> bytes;

  static KernelArgument pointer(const void* address);
  static KernelArgument python_int(int64_t value);
  static KernelArgument value(const void* data, size_t size);
};

// cuFuncGetAttribute's values for one kernel, under CuPy's names.
struct KernelAttributes {
  int max_threads_per_block, shared_size_bytes, const_size_bytes, local_size_bytes, num_regs, ptx_version,
      binary_version, cache_mode_ca, max_dynamic_shared_size_bytes, preferred_shared_memory_carveout;
};

struct GridDims {
  unsigned x = 1, y = 1, z = 1;
};

class RawKernel {
 public:
  // Launches on the current stream with `shared_mem` bytes of dynamic shared memory. Throws
  // TypeError when the argument count differs from the kernel's parameter count, or an argument
  // cannot be passed as its parameter (a size that differs; a Python int is narrowed to a
  // smaller parameter only when its value fits, as CuPy's int64 reads there).
  void launch(GridDims grid, GridDims block, std::span<const KernelArgument> args, unsigned shared_mem = 0) const;

  KernelAttributes attributes() const;
  void set_max_dynamic_shared_size_bytes(int bytes) const;
  void set_preferred_shared_memory_carveout(int percent) const;
  int param_count() const;  // -1 where the image does not record it (PTX, fatbin)
  const std::string& name() const { return name_; }
  int device() const;

 private:
  friend class RawModule;
  RawKernel(std::shared_ptr<jit::Module> module, std::string name, bool cooperative);
  std::shared_ptr<jit::Module> module_;  // keeps the code loaded while the kernel lives
  std::string name_;
  void* function_;  // CUfunction
  const runtime::KernelInfo* info_;
  bool cooperative_;
};

class RawModule {
 public:
  // CUDA C++ `code`, compiled on first use on each device.
  static RawModule from_source(std::string code, RawModuleOptions options = {});
  // A file: `.cu` is read and compiled as from_source; anything else (.cubin, .ptx, .fatbin) is
  // loaded as a module image. Throws ValueError when the file cannot be read.
  static RawModule from_file(const std::string& path, RawModuleOptions options = {});

  // Compiles (or finds in the caches) and loads the module on the current device.
  void compile() const;
  // The kernel `name`: a name expression given at construction, else an extern "C" name.
  RawKernel get_function(const std::string& name) const;
  // A uint8 array over the bytes of the __device__ / __constant__ variable `name` on the
  // current device; it keeps the module loaded.
  NDArray get_global(const std::string& name) const;
  // The lowered name of each name expression, in order (compiles on the current device).
  std::vector<std::string> lowered_names() const;
  // Compiles the source for `arch` ("sm_90") through the disk cache, needing no device, and
  // returns the lowered names: compile errors and name expressions checked ahead of any GPU.
  std::vector<std::string> compile_for(const std::string& arch) const;

  struct Impl;

 private:
  explicit RawModule(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

}  // namespace cuarray
