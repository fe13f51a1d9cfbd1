// Parameters of a cuLaunchKernel call, packed by value: index and offset arrays in the kernel's
// index width (32 or 64 bit), so that callers describe them as int64 and never lay out structs.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>

namespace cuarray::ops {

class KernelArgs {
 public:
  explicit KernelArgs(bool index64) : wide_(index64) {}
  KernelArgs(const KernelArgs&) = delete;
  KernelArgs& operator=(const KernelArgs&) = delete;

  // A parameter of type T (pointers, long long, unsigned long long, double).
  template <class T>
  KernelArgs& value(T v) {
    std::memcpy(slot(sizeof(T)), &v, sizeof(T));
    return *this;
  }
  // An index_t / offset_t scalar: 32 or 64 bits by the index width.
  KernelArgs& index(int64_t v) { return wide_ ? value<int64_t>(v) : value<int32_t>(static_cast<int32_t>(v)); }
  // cuarray::Array<index_t or offset_t, N> filled from `values` then `fill` up to N entries.
  KernelArgs& array(std::span<const int64_t> values, size_t n, int64_t fill) {
    const size_t width = wide_ ? 8 : 4;
    unsigned char* p = slot(n * width);
    for (size_t i = 0; i < n; ++i) {
      const int64_t v = i < values.size() ? values[i] : fill;
      if (wide_) std::memcpy(p + i * 8, &v, 8);
      else {
        const int32_t w = static_cast<int32_t>(v);
        std::memcpy(p + i * 4, &w, 4);
      }
    }
    return *this;
  }
  // A parameter laid out by the caller (an array of raw elements): `n` bytes copied from `p`.
  KernelArgs& bytes(const void* p, size_t n) {
    std::memcpy(slot(n), p, n);
    return *this;
  }
  void** get() { return params_; }

 private:
  unsigned char* slot(size_t bytes) {
    used_ = (used_ + 7) / 8 * 8;
    unsigned char* p = storage_ + used_;
    params_[count_++] = p;
    used_ += std::max<size_t>(bytes, 1);
    return p;
  }
  static constexpr size_t kBytes = 8192;  // a kernel takes at most 4 KB of parameters
  alignas(8) unsigned char storage_[kBytes];
  void* params_[32];
  size_t used_ = 0;
  int count_ = 0;
  bool wide_;
};

}  // namespace cuarray::ops
