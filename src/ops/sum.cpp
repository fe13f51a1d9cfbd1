// ndarray.sum / numpy.sum on the reduction engine, with NumPy's accumulator dtypes.
#include "cuarray/errors.hpp"
#include "cuarray/ndarray.hpp"
#include "internal_ops.hpp"
#include "reduction.hpp"

namespace cuarray {
namespace {

// NumPy: bool and small ints sum in the platform long (int64), small uints in uint64.
DType sum_result_dtype(DType in) {
  switch (kind(in)) {
    case DTypeKind::Bool: return DType::Int64;
    case DTypeKind::SignedInt: return DType::Int64;
    case DTypeKind::UnsignedInt: return DType::UInt64;
    default: return in;
  }
}

// float16 accumulates in float32 and rounds once at the end.
DType accumulator_for(DType out) { return out == DType::Float16 ? DType::Float32 : out; }

}  // namespace

NDArray NDArray::sum(std::optional<std::span<const int64_t>> axes, std::optional<DType> dtype, bool keepdims) const {
  static const ops::ReductionSpec kSum{static_cast<uint64_t>(ops::InternalOp::Sum), "cuarray_cast<acc_t>(v)", "a + b",
                                       "cuarray_cast<acc_t>(0)", "cuarray_cast<out_t>(a)"};
  const auto reduced = ops::reduction_axes(axes, ndim());
  const DType out_dtype = dtype ? *dtype : sum_result_dtype(dtype_);
  Shape out_shape, keep_shape;
  for (int d = 0; d < ndim(); ++d) {
    bool is_reduced = std::find(reduced.begin(), reduced.end(), d) != reduced.end();
    if (!is_reduced) out_shape.push_back(shape_[d]);
    keep_shape.push_back(is_reduced ? 1 : shape_[d]);
  }
  NDArray out = empty(out_shape, out_dtype);
  ops::run_reduction(kSum, *this, std::span(reduced.data(), reduced.size()), accumulator_for(out_dtype), out);
  return keepdims ? out.reshape(keep_shape) : out;
}

}  // namespace cuarray
