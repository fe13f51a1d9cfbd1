// Structural kernel keys: an operation describes the kernel it needs as a few bytes (its family,
// operation id, dtypes, rank class, layout, index width). The first byte is always the family: one
// enum for the whole library, so two families can never share a key space (two generators
// choosing the same byte would hand each other's CUBIN out of the cache).
#pragma once
#include <cstdint>

#include "core/byte_key.hpp"

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
  IntegerGemm,
  JacobiSvd,
  DigitGemm,
  RandomFill,
  RandomBijection,
};

// Up to 56 bytes: the family and a handful of small fields (operation id, dtypes, rank class, layout).
class KernelKey : public ByteKey<56> {
 public:
  explicit KernelKey(KernelFamily family) { push(static_cast<uint8_t>(family)); }

 private:
  KernelKey() = default;  // only the per-thread memo's empty slots
  friend struct KernelMemoEntry;
};

}  // namespace cuarray::jit
