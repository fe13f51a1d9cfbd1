// The first byte of every KernelKey: which kernel family (source generator) the key belongs to.
// One enum for the whole library, so two families can never share a key space (two generators
// choosing the same byte would hand each other's CUBIN out of the cache).
#pragma once
#include <cstdint>

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

}  // namespace cuarray::jit
