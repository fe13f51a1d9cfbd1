// Writes the CUDA source of one elementwise kernel (called only on a kernel-cache miss).
#pragma once
#include <optional>
#include <span>
#include <string>

#include "ops/engines/elementwise/elementwise.hpp"

namespace cuarray::ops {

struct ElementwiseLayout {
  bool contiguous;   // one linear index over every operand
  int vec;           // contiguous: elements per vector load (1, 2, 4, 8, 16)
  int rank;          // strided: coalesced dims
  bool index64;      // 64-bit counts and offsets
  bool has_where;
};

inline constexpr const char* kElementwiseKernelName = "cuarray_elementwise";

// A raw array parameter of a user kernel: cuarray::CArray<dtype, ndim> (user_kernel.cuh).
struct RawArrayType {
  DType dtype;
  int ndim;
};

// input_storage[k] is the dtype an input array holds, nullopt for a scalar input.
std::string elementwise_source(const ElementwiseSpec& spec, std::span<const std::optional<DType>> input_storage,
                               std::span<const DType> output_storage, const ElementwiseLayout& layout,
                               std::span<const RawArrayType> raw = {});

}  // namespace cuarray::ops
