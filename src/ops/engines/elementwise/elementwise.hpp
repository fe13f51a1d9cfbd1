// The elementwise engine: one mechanism runs every ufunc loop, every cast/copy/fill and every
// user ElementwiseKernel. An operation is an expression over named operands (in0.., out0..);
// the engine broadcasts, coalesces dimensions, picks a layout and launches a cached kernel.
#pragma once
#include <cstdint>
#include <span>
#include <string>
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
  // A user ElementwiseKernel's body (cuarray/user_kernels.hpp): written inline in the kernel's
  // loop (not as cuarray_op), so it sees the kernel's scope: the iteration count `n`, the raw
  // arrays raw0.., the variables of `loop_prep`; `i` is the C-order index whatever the layouts.
  bool user = false;
  // Bit k set: output k starts as the element it overwrites (a user body may read outputs it was
  // given, `z += x`, and a `_non_const` input array is an output it reads and writes back);
  // otherwise output k starts uninitialized and is never read. Part of op_id.
  uint32_t read_outputs = 0;
  std::string_view loop_prep = {}, after_loop = {};  // user code before and after the loops
  std::span<const DType> fragment_dtypes = {};  // dtypes the preamble names beyond the operands'
  std::span<const std::string> options = {};    // extra NVRTC options (part of op_id)
};

// Arrays a user kernel's body indexes itself (`raw` parameters), and the iteration shape and
// device, which otherwise come from outputs[0] (a user kernel's outputs may all be raw).
struct RawOperands {
  std::span<const NDArray> arrays;
  Shape shape;
  int device;
};

// Computes outputs[k] = expr(inputs...) over the outputs' shape, to which every input broadcasts.
// The expression may read `i`, the element's index in iteration order (C order for C-contiguous
// outputs), as CuPy's ElementwiseKernel does.
// Inputs convert to their loop dtype on load, results to each output's dtype on store.
// `where` (bool array, broadcastable) leaves outputs untouched where it is false.
void run_elementwise(const ElementwiseSpec& spec, std::span<const Operand> inputs, std::span<const NDArray> outputs,
                     const NDArray* where = nullptr, const RawOperands* raw = nullptr);

// Op ids: ufunc table indices are small; the library's own expressions (arange, eye, random,
// reductions, ...) start at kInternalOp.
inline constexpr uint64_t kInternalOp = 1ull << 32;

}  // namespace cuarray::ops
