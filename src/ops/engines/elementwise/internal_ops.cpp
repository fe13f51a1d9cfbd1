#include "ops/engines/elementwise/internal_ops.hpp"

namespace cuarray::ops {

void run_internal(InternalOp op, std::string_view expr, std::span<const Operand> inputs, const NDArray& out,
                  std::initializer_list<DType> loop, std::string_view preamble) {
  ElementwiseSpec spec{static_cast<uint64_t>(op), expr, static_cast<int>(inputs.size()), 1, loop.begin(), preamble};
  run_elementwise(spec, inputs, std::span(&out, 1));
}

}  // namespace cuarray::ops
