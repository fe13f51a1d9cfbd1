#include "ops/linalg/solvers/matrix_stack.hpp"

#include <string>

#include "cuarray/errors.hpp"
#include "cuarray/ufunc.hpp"

namespace cuarray::linalg {

void check_at_least_2d(const NDArray& a) {
  if (a.ndim() < 2)
    throw_error(ErrorKind::LinAlg,
                std::to_string(a.ndim()) + "-dimensional array given. Array must be at least two-dimensional");
}

void check_square(const NDArray& a) {
  check_at_least_2d(a);
  if (a.shape()[a.ndim() - 1] != a.shape()[a.ndim() - 2])
    throw_error(ErrorKind::LinAlg, "Last 2 dimensions of the array must be square");
}

DType solver_dtype(DType input) {
  switch (kind(input)) {
    case DTypeKind::Bool:
    case DTypeKind::SignedInt:
    case DTypeKind::UnsignedInt: return DType::Float64;
    default: break;
  }
  if (input == DType::Float16)
    throw_error(ErrorKind::Type, "array type float16 is unsupported in linalg");
  return input;
}

Shape batch_shape_of(const Shape& shape) { return Shape(shape.begin(), shape.end() - 2); }

Shape with_tail(const Shape& batch, std::initializer_list<int64_t> tail) {
  Shape out = batch;
  for (int64_t n : tail) out.push_back(n);
  return out;
}

int64_t product(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

ColumnMajorStack::ColumnMajorStack(NDArray storage) : storage_(std::move(storage)) {
  const Shape& s = storage_.shape();
  cols_ = s[s.size() - 2];
  rows_ = s[s.size() - 1];
  batch_ = product(batch_shape_of(s));
}

ColumnMajorStack::ColumnMajorStack(const Shape& batch_shape, int64_t rows, int64_t cols, DType dtype)
    : ColumnMajorStack(empty(with_tail(batch_shape, {cols, rows}), dtype)) {}

ColumnMajorStack ColumnMajorStack::copy_of(const NDArray& a, DType dtype) {
  const Shape& s = a.shape();
  ColumnMajorStack stack(batch_shape_of(s), s[s.size() - 2], s[s.size() - 1], dtype);
  if (a.size() > 0) stack.matrices().assign(a);
  return stack;
}

ColumnMajorStack ColumnMajorStack::transposed_of(const NDArray& a, DType dtype) {
  // Always a fresh buffer: the routines factor in place, and a is the caller's.
  return ColumnMajorStack(a.astype(dtype, /*copy=*/true, Order::C));
}

NDArray ColumnMajorStack::matrices() const { return storage_.swapaxes(-1, -2); }

NDArray ColumnMajorStack::matrices_c_order(bool conjugate) const {
  return conjugate ? conjugated(matrices()) : matrices().copy(Order::C);
}

NDArray conjugated(const NDArray& a) {
  if (!is_complex(a.dtype())) return a.copy(Order::C);
  static const Ufunc& conj = ufunc("conjugate");
  NDArray out = empty(a.shape(), a.dtype());  // C order: conj's own output would keep a's layout
  NDArray* outs[] = {&out};
  const Operand inputs[] = {Operand::of(a)};
  conj(inputs, outs);
  return out;
}

NDArray triangle(const NDArray& matrices, bool upper) {
  const int64_t rows = matrices.shape()[matrices.ndim() - 2], cols = matrices.shape()[matrices.ndim() - 1];
  // tri(R, C, k) is 1 on and below diagonal k; the upper triangle is what tri(.., -1) leaves out.
  NDArray mask = upper ? subtract(ones(Shape{rows, cols}, matrices.dtype()), tri(rows, cols, -1, matrices.dtype()))
                       : tri(rows, cols, 0, matrices.dtype());
  NDArray out = empty(matrices.shape(), matrices.dtype());
  static const Ufunc& times = ufunc("multiply");
  NDArray* outs[] = {&out};
  const Operand inputs[] = {Operand::of(matrices), Operand::of(mask)};
  times(inputs, outs);
  return out;
}

NDArray device_workspace(size_t bytes) { return empty(Shape{static_cast<int64_t>(bytes > 0 ? bytes : 1)}, DType::UInt8); }

}  // namespace cuarray::linalg
