// Stacks of matrices as cuSOLVER takes them: each matrix column-major, one after another.
//
// A C-contiguous array (..., R, C) is also a stack of column-major C x R matrices: its own
// matrices transposed. The routines use that to skip copies where a transpose is harmless
// (det(A^T) = det(A); the SVD of A^T hands back A's factors already in row-major order); where it
// is not, they copy A into a column-major stack first.
#pragma once
#include <cstdint>

#include "cuarray/ndarray.hpp"

namespace cuarray::linalg {

// NumPy's argument checks, in its order and with its messages.
void check_at_least_2d(const NDArray& a);  // LinAlgError "N-dimensional array given. ..."
void check_square(const NDArray& a);       // LinAlgError "Last 2 dimensions of the array must be square"
// The dtype a routine computes in: float32/float64/complex as they are, bool and integers in
// float64; TypeError for float16 ("array type float16 is unsupported in linalg").
DType solver_dtype(DType input);

// `batch` matrices of rows x cols, column-major, in one C-contiguous buffer of shape
// (*batch_shape, cols, rows).
class ColumnMajorStack {
 public:
  ColumnMajorStack(const Shape& batch_shape, int64_t rows, int64_t cols, DType dtype);
  // a's matrices (..., rows, cols) cast to dtype and laid out column-major (one strided copy).
  static ColumnMajorStack copy_of(const NDArray& a, DType dtype);
  // A C-order copy of a (cast to dtype) taken as its transposed matrices: (..., R, C) becomes a
  // stack of C x R column-major matrices. The copy is the one any in-place routine needs anyway,
  // and costs no transpose.
  static ColumnMajorStack transposed_of(const NDArray& a, DType dtype);

  int64_t batch() const { return batch_; }
  int64_t rows() const { return rows_; }
  int64_t cols() const { return cols_; }
  int64_t ld() const { return rows_ > 0 ? rows_ : 1; }  // cuSOLVER's leading dimension, never 0
  DType dtype() const { return storage_.dtype(); }
  void* matrix(int64_t i) const { return storage_.raw_data() + i * rows_ * cols_ * storage_.itemsize(); }

  // The matrices as an array (..., rows, cols): a view with column-major strides per matrix.
  NDArray matrices() const;
  // The buffer (..., cols, rows), C-contiguous: the matrices transposed, without a copy.
  NDArray transposed() const { return storage_; }
  // matrices() as a new C-contiguous array, conjugated when `conjugate` (one strided copy).
  NDArray matrices_c_order(bool conjugate = false) const;

 private:
  explicit ColumnMajorStack(NDArray storage);
  NDArray storage_;
  int64_t batch_, rows_, cols_;
};

// A new C-contiguous copy of `a`, conjugated when complex (one pass).
NDArray conjugated(const NDArray& a);

// A new C-contiguous copy of `matrices` (..., R, C) with the entries below (upper) or above
// (!upper) the diagonal set to zero, as numpy.triu / numpy.tril. The entries cleared must be finite
// (they are multiplied by zero): cuSOLVER leaves the input's own values there.
NDArray triangle(const NDArray& matrices, bool upper);

// The leading dimensions of a (..., M, N) shape.
Shape batch_shape_of(const Shape& shape);
// Shape `batch` followed by `tail`.
Shape with_tail(const Shape& batch, std::initializer_list<int64_t> tail);
int64_t product(const Shape& shape);

// A device workspace for one routine, from the current stream's pool (at least one byte, so the
// pointer is never null).
NDArray device_workspace(size_t bytes);

}  // namespace cuarray::linalg
