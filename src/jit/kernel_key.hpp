// Structural kernel keys: an operation describes the kernel it needs as a few bytes (its family,
// operation id, dtypes, rank class, layout, index width). The first byte is always the family: one
// enum for the whole library, so two families can never share a key space (two generators
// choosing the same byte would hand each other's CUBIN out of the cache).
#pragma once
#include <cstdint>
#include <cstring>

namespace cuarray::jit {

enum class KernelFamily : uint8_t {
  Elementwise = 1,
  Reduction,
  ScatterCombine,
  Reduceat,
  HistogramBins,
  Scan,
  Select,
  Gather,
  BlockSort,
  RadixPass,
  GatherRows,
  SearchSorted,
  Quantile,
  CombineIndices,
  TransposeCopy,
  Pad,
  Join,
};

class KernelKey {
 public:
  static constexpr int kCapacity = 56;
  explicit KernelKey(KernelFamily family) { push(static_cast<uint8_t>(family)); }
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
  KernelKey() = default;  // only the per-thread memo's empty slots
  friend struct KernelMemoEntry;
  uint8_t bytes_[kCapacity] = {};
  uint8_t size_ = 0;
};

}  // namespace cuarray::jit
