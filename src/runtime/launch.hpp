// The one path by which cuarray's kernels reach the device: a loaded Kernel (its function and the
// parameter layout recorded when it was loaded), a launch configuration, and the parameters,
// either typed arguments (`launch(k, {grid, block}, ptr, n, flag)`, ArrayFire's model: the array
// of parameter addresses is built from the arguments themselves) or a KernelArgs for parameters
// whose width follows the kernel's index type. Every launch checks the parameters' count and
// sizes against the kernel's layout, so a call site that disagrees with its kernel's signature
// fails loudly instead of passing garbage. Small launches may be held and submitted together
// (docs/launch-batching.md).
#pragma once
#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>

#include "cuarray/runtime.hpp"

namespace cuarray::runtime {

struct LaunchDims {
  LaunchDims(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
  unsigned x, y, z;
};

struct LaunchConfig {
  LaunchDims grid, block;
  unsigned shared_bytes = 0;
  // cuLaunchCooperativeKernel (a user's kernel with grid-wide cooperative groups): never held,
  // since a graph's kernel node cannot carry it; what is held goes out first.
  bool cooperative = false;
};

inline constexpr int kMaxKernelParams = 32;

// What the driver says of a loaded kernel's parameters, read once when it is loaded (jit::Module).
struct KernelInfo {
  std::string name;
  int param_count = -1;  // -1: unknown (the driver cannot say, or more than kMaxKernelParams)
  uint32_t param_offset[kMaxKernelParams] = {};
  uint32_t param_size[kMaxKernelParams] = {};
};

// A loaded kernel. The module that owns `function` also owns `info` and outlives every launch.
struct Kernel {
  CUfunction function = nullptr;
  const KernelInfo* info = nullptr;
};

// cuLaunchKernel's parameter array, with each parameter's size for the check against the layout.
struct KernelParams {
  void* const* values;
  const uint32_t* sizes;
  int count;
};

// Launches `kernel` on the current stream of the current device. Throws when `params` does not
// match the kernel's parameter layout (a bug in the caller, named with the kernel).
void launch(const Kernel& kernel, const LaunchConfig& config, KernelParams params);

// A launch with typed arguments, each passed by value as the kernel's parameter of the same size.
template <class... Args>
void launch(const Kernel& kernel, const LaunchConfig& config, const Args&... args) {
  static_assert((std::is_trivially_copyable_v<Args> && ...), "kernel parameters are copied bytewise");
  void* values[] = {const_cast<void*>(static_cast<const void*>(&args))..., nullptr};
  const uint32_t sizes[] = {static_cast<uint32_t>(sizeof(Args))..., 0u};
  launch(kernel, config, KernelParams{values, sizes, static_cast<int>(sizeof...(Args))});
}

// Parameters built one at a time, for kernels whose index_t/offset_t (and the cuarray::Array
// parameters of them) are 32 or 64 bits by the launch's index width: callers describe shapes and
// strides as int64 and never lay out structs by hand.
class KernelArgs {
 public:
  explicit KernelArgs(bool index64) : wide_(index64) {}
  KernelArgs(const KernelArgs&) = delete;
  KernelArgs& operator=(const KernelArgs&) = delete;

  // A parameter of type T (a pointer, an integer, a double, an array of pointers).
  template <class T>
  KernelArgs& value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::memcpy(slot(sizeof(T)), &v, sizeof(T));
    return *this;
  }
  // An index_t / offset_t scalar: 32 or 64 bits by the index width.
  KernelArgs& index(int64_t v) { return wide_ ? value<int64_t>(v) : value<int32_t>(static_cast<int32_t>(v)); }
  // cuarray::Array<index_t or offset_t, n>: `values`, then `fill` up to n entries.
  KernelArgs& array(std::span<const int64_t> values, size_t n, int64_t fill) {
    const size_t width = wide_ ? 8 : 4;
    unsigned char* p = slot(n * width);
    for (size_t i = 0; i < n; ++i) {
      const int64_t v = i < values.size() ? values[i] : fill;
      if (wide_) {
        std::memcpy(p + i * 8, &v, 8);
      } else {
        const int32_t w = static_cast<int32_t>(v);
        std::memcpy(p + i * 4, &w, 4);
      }
    }
    return *this;
  }
  // `n` raw bytes laid out by the caller (a scalar stored in a loop dtype, an array of elements).
  KernelArgs& bytes(const void* p, size_t n) {
    std::memcpy(slot(n), p, n);
    return *this;
  }
  // Between struct_begin() and struct_end() the parameters above extend one parameter, as the
  // members of a struct whose members all share one alignment (scan.cuh's ScanRows).
  KernelArgs& struct_begin() {
    open_struct_ = true;
    first_member_ = true;
    return *this;
  }
  KernelArgs& struct_end() {
    open_struct_ = false;
    return *this;
  }
  bool index64() const { return wide_; }
  KernelParams params() const { return {params_, sizes_, count_}; }

 private:
  unsigned char* slot(size_t bytes) {
    if (open_struct_ && !first_member_) {  // the current parameter grows
      unsigned char* p = storage_ + used_;
      used_ += bytes;
      sizes_[count_ - 1] += static_cast<uint32_t>(bytes);
      return p;
    }
    first_member_ = false;
    used_ = (used_ + 15) / 16 * 16;  // every parameter's bytes start 16-byte aligned
    unsigned char* p = storage_ + used_;
    params_[count_] = p;
    sizes_[count_++] = static_cast<uint32_t>(bytes);
    used_ += std::max<size_t>(bytes, 1);
    return p;
  }
  static constexpr size_t kBytes = 8192;  // a kernel takes at most 4 KB of parameters
  alignas(16) unsigned char storage_[kBytes];
  void* params_[kMaxKernelParams];
  uint32_t sizes_[kMaxKernelParams];
  size_t used_ = 0;
  int count_ = 0;
  bool wide_;
  bool open_struct_ = false, first_member_ = false;
};

// Called by every Buffer whose address other code holds (NDArray::data(), memory imported from
// other libraries), and by stream capture while it lasts: launches are not held while any such
// buffer or capture lives.
void note_shared_buffer(int delta);

// Drops the device's instantiated batch graphs: their nodes may name kernels of a module that is
// being unloaded (jit::Module), so they are built again on next use.
void forget_batch_graphs(int device);

}  // namespace cuarray::runtime
