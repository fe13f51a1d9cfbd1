// Matrix and vector products: numpy.matmul (the `@` operator), dot and tensordot, on cuBLAS for
// float16/32/64 and complex64/128 and on cuarray's own integer GEMM kernel for bool and the
// integer dtypes (docs/linalg.md). Everything runs asynchronously on the current stream.
#pragma once
#include <cstdint>
#include <optional>
#include <span>

#include "cuarray/ndarray.hpp"

namespace cuarray {

// numpy.matmul's ufunc arguments.
struct MatmulOptions {
  std::optional<DType> dtype;           // dtype=: the loop's type (inputs cast to it under `casting`)
  Casting casting = Casting::SameKind;  // casting=
  const NDArray* out = nullptr;         // out=: of the result's exact shape; the result is cast into it
};

// numpy.matmul(a, b): the product of the last two dims, broadcasting the dims before them. A 1-D
// `a` is a row (its dim removed from the result), a 1-D `b` a column. The result dtype is
// promote_types(a, b) (bool and integers exact, wrapping around as NumPy's). Throws ValueError for
// 0-d operands, mismatched core dims and batch dims that don't broadcast (NumPy's messages),
// TypeError for a cast `casting` forbids. Returns `out` when given.
NDArray matmul(const NDArray& a, const NDArray& b, const MatmulOptions& options = {});

// numpy.dot(a, b): a 0-d operand multiplies; 1-D·1-D the inner product (0-d); N-D·1-D sums over
// a's last dim; N-D·M-D (M >= 2) sums a's last dim with b's second to last, the result's shape
// a.shape[:-1] + b.shape[:-2] + b.shape[-1:].
NDArray dot(const NDArray& a, const NDArray& b);

// numpy.tensordot(a, b, axes=(a_axes, b_axes)): sums the products over the paired axes; the result
// has a's free axes, then b's. Throws ValueError "shape-mismatch for sum" when paired lengths differ.
NDArray tensordot(const NDArray& a, const NDArray& b, std::span<const int64_t> a_axes,
                  std::span<const int64_t> b_axes);

// TF32 tensor cores for float32/complex64 products: off by default (true FP32, as NumPy gives);
// on when CUPY_TF32=1 (CuPy's switch) or CUARRAY_TF32=1 is set in the environment, or here.
bool allow_tf32();
void set_allow_tf32(bool allowed);

}  // namespace cuarray
