// The key of a library plan or handle: a few bytes whose first is the PlanKind. One enum for the
// whole library, so two tenants can never share a key space (two choosing the same byte would hand
// each other's plans out of the cache), as jit::KernelFamily does for kernels.
#pragma once
#include <cstdint>

#include "core/byte_key.hpp"

namespace cuarray::libs {

enum class PlanKind : uint8_t {
  CublasHandle = 1,
  CusolverDnHandle,
  CusolverDnParams,
  CufftPlan,
};

// Room for a 3-D FFT's sizes, embeddings, strides and distances as 64-bit fields.
class PlanKey : public ByteKey<120> {
 public:
  explicit PlanKey(PlanKind kind) { push(static_cast<uint8_t>(kind)); }
  PlanKind kind() const { return static_cast<PlanKind>((*this)[0]); }
};

}  // namespace cuarray::libs
