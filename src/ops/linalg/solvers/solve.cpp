// numpy.linalg.inv and solve on one LU factorization each.
//
// Both factor A^T, which is A's own C-order buffer read column-major, so the input needs only the
// copy any in-place factorization needs. inv solves A^T X = I: X = (A^-1)^T column-major, which
// read in C order is A^-1 itself. solve asks getrs for op = T, so A x = b is solved as written.
#include <string>

#include "cuarray/errors.hpp"
#include "cuarray/linalg.hpp"
#include "ops/linalg/solvers/lu_factor.hpp"

namespace cuarray::linalg {
namespace {

constexpr const char* kSingular = "Singular matrix";

// NumPy's gufunc message for b's core dimension against a's.
[[noreturn]] void core_mismatch(bool vector, int64_t got, int64_t n) {
  std::string signature = vector ? "solve1: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                                   "signature (m,m),(m)->(m)"
                                 : "solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                                   "signature (m,m),(m,n)->(m,n)";
  throw_error(ErrorKind::Value, signature + " (size " + std::to_string(got) + " is different from " +
                                    std::to_string(n) + ")");
}

}  // namespace

NDArray inv(const NDArray& a, bool raise_singular) {
  check_square(a);
  const DType dtype = solver_dtype(a.dtype());
  const int64_t n = a.shape()[a.ndim() - 1];
  const Shape batch = batch_shape_of(a.shape());
  ColumnMajorStack x(batch, n, n, dtype);
  if (a.size() == 0) return x.transposed();
  LuFactors lu = lu_factor(ColumnMajorStack::transposed_of(a, dtype));
  x.transposed().assign(eye(n, n, 0, dtype));
  lu_solve(lu, CUBLAS_OP_N, x);
  if (raise_singular) lu.status.raise_if_failed(kSingular);
  return x.transposed();
}

NDArray solve(const NDArray& a, const NDArray& b) {
  check_square(a);
  const DType dtype = promote_types(solver_dtype(a.dtype()), solver_dtype(b.dtype()));
  const int64_t n = a.shape()[a.ndim() - 1];
  // NumPy 2: b is one vector only when 1-D; otherwise a stack of (M, K) matrices.
  const bool vector = b.ndim() == 1;
  if (b.ndim() == 0)
    throw_error(ErrorKind::Value, "solve: Input operand 1 does not have enough dimensions (has 0, gufunc core with "
                                  "signature (m,m),(m,n)->(m,n) requires 2)");
  const int64_t b_rows = b.shape()[vector ? 0 : b.ndim() - 2];
  if (b_rows != n) core_mismatch(vector, b_rows, n);
  const int64_t k = vector ? 1 : b.shape()[b.ndim() - 1];
  const Shape a_batch = batch_shape_of(a.shape());
  const Shape b_batch = vector ? Shape{} : batch_shape_of(b.shape());
  const Shape* shapes[] = {&a_batch, &b_batch};
  const Shape batch = broadcast_shapes(shapes);

  ColumnMajorStack x(batch, n, k, dtype);
  if (product(batch) > 0 && n > 0 && k > 0) {
    LuFactors lu = lu_factor(ColumnMajorStack::transposed_of(a.broadcast_to(with_tail(batch, {n, n})), dtype));
    x.matrices().assign(vector ? b.reshape(Shape{n, 1}) : b);
    lu_solve(lu, CUBLAS_OP_T, x);
    lu.status.raise_if_failed(kSingular);
  }
  if (vector) return x.transposed().reshape(with_tail(batch, {n}));  // (..., 1, n) C-contiguous
  return x.matrices_c_order();
}

}  // namespace cuarray::linalg
