// The elementwise engine: one mechanism runs every ufunc loop, every cast/copy/fill and every
// user ElementwiseKernel. An operation is an expression over named operands (in0.., out0..);
// the engine broadcasts, coalesces dimensions, picks a layout and launches a cached kernel.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

#include "cuarray/ndarray.hpp"
#include "cuarray/ufunc.hpp"

namespace cuarray::ops {

// What to compute, independent of shapes: part of the kernel key by op_id.
struct ElementwiseSpec {
  uint64_t op_id;           // unique per distinct expression: a ufunc index, kInternalOp + n, or a user kernel hash
  std::string_view expr;    // body over in0.., out0..
  int nin, nout;
  const DType* loop;        // loop dtypes: nin inputs then nout outputs
  std::string_view preamble = {};  // extra device code before the operation (user kernels)
};

// Computes outputs[k] = expr(inputs...) over the outputs' shape, to which every input broadcasts.
// The expression may read `i`, the element's index in iteration order (C order for C-contiguous
// outputs), as CuPy's ElementwiseKernel does.
// Inputs convert to their loop dtype on load, results to each output's dtype on store.
// `where` (bool array, broadcastable) leaves outputs untouched where it is false.
void run_elementwise(const ElementwiseSpec& spec, std::span<const Operand> inputs, std::span<const NDArray> outputs,
                     const NDArray* where = nullptr);

// Op ids: ufunc table indices are small; the library's own expressions (arange, eye, random,
// reductions, ...) start at kInternalOp.
inline constexpr uint64_t kInternalOp = 1ull << 32;

}  // namespace cuarray::ops
