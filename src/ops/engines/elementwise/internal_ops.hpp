// The library's own elementwise expressions (not ufuncs): their op ids, run on the elementwise engine.
#pragma once
#include "ops/engines/elementwise/elementwise.hpp"

namespace cuarray::ops {

enum class InternalOp : uint64_t {
  Copy = kInternalOp,   // out0 = in0 (with the casts the engine inserts): astype, copy, fill, setitem
  Arange,
  Linspace,
  Eye,
  Tri,
  Reduction,  // + the index in the reduction table (src/ops/math/reductions.cpp)
  // + the row in the distribution table (src/ops/random/distribution_table.cpp)
  RandomDistribution = kInternalOp + 0x100,
  RandomCheck = kInternalOp + 0x200,  // + 2 * row + (Generator's rules)
  RandomIntegers = kInternalOp + 0x300,       // + endpoint
  RandomIntegersCheck = kInternalOp + 0x302,  // + endpoint
};

// Runs a one-output internal expression; `loop` lists input then output loop dtypes.
void run_internal(InternalOp op, std::string_view expr, std::span<const Operand> inputs, const NDArray& out,
                  std::initializer_list<DType> loop, std::string_view preamble = {});

}  // namespace cuarray::ops
