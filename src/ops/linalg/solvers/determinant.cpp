// numpy.linalg.det and slogdet from an LU factorization of A^T (det(A^T) = det(A), so A's own
// C-order copy serves): the product of U's diagonal, negated once per row interchange. A singular
// matrix is no error here: its determinant is 0 (slogdet: sign 0, logabsdet -inf), as in NumPy.
#include "cuarray/linalg.hpp"
#include "cuarray/reduction.hpp"
#include "cuarray/ufunc.hpp"
#include "ops/linalg/solvers/lu_factor.hpp"

namespace cuarray::linalg {
namespace {

struct Diagonal {
  NDArray values;     // U's diagonal, (..., n)
  NDArray interchange_sign;  // +1 or -1 per matrix, in the solver dtype, (...)
};

Diagonal lu_diagonal(const NDArray& a) {
  check_square(a);
  const DType dtype = solver_dtype(a.dtype());
  LuFactors lu = lu_factor(ColumnMajorStack::transposed_of(a, dtype));
  const NDArray& m = lu.lu.transposed();
  NDArray diagonal = m.diagonal(0, m.ndim() - 2, m.ndim() - 1);
  // Row i was swapped with pivots[i] - 1 unless pivots[i] == i + 1.
  const int64_t n = m.shape()[m.ndim() - 1];
  static const Ufunc& not_equal = ufunc("not_equal");
  static const Ufunc& remainder = ufunc("remainder");
  const int64_t last = diagonal.ndim() - 1;
  NDArray swaps = reduce("sum", not_equal(lu.pivots, arange(Scalar::from_int(1), Scalar::from_int(n + 1),
                                                            Scalar::from_int(1), DType::Int64)),
                         std::span<const int64_t>(&last, 1), DType::Int64);
  // (-1) ** swaps as 1 - 2 * (swaps % 2).
  NDArray odd = apply(remainder, {Operand::of(swaps), Operand::of(Scalar::from_int(2))});
  NDArray sign = apply(ufunc("subtract"), {Operand::of(Scalar::from_int(1)), Operand::of(odd * int64_t{2})});
  return {diagonal, sign.astype(dtype)};
}

}  // namespace

NDArray det(const NDArray& a) {
  Diagonal d = lu_diagonal(a);
  const int64_t last = d.values.ndim() - 1;
  return multiply(reduce("prod", d.values, std::span<const int64_t>(&last, 1)), d.interchange_sign);
}

SlogdetResult slogdet(const NDArray& a) {
  Diagonal d = lu_diagonal(a);
  const int64_t last = d.values.ndim() - 1;
  const std::span<const int64_t> axis(&last, 1);
  static const Ufunc& absolute = ufunc("absolute");
  static const Ufunc& equal = ufunc("equal");
  static const Ufunc& sign = ufunc("sign");
  NDArray magnitude = absolute(d.values);
  NDArray logabsdet = reduce("sum", log(magnitude), axis);
  // Each diagonal entry's phase: x / |x|, and 0 for an exact zero (the determinant's sign then).
  NDArray phase = is_complex(d.values.dtype())
                      ? divide(d.values, add(magnitude, apply(equal, {Operand::of(magnitude),
                                                                       Operand::of(Scalar::from_int(0))})))
                      : sign(d.values);
  return {multiply(reduce("prod", phase, axis), d.interchange_sign), logabsdet};
}

}  // namespace cuarray::linalg
