// numpy.linalg.pinv and lstsq on the SVD and cuBLAS products (cuarray/products.hpp), the way
// NumPy's pinv and LAPACK's gelsd define them: singular values at or below rcond times the largest
// count as zero.
#include <algorithm>
#include <limits>

#include "cuarray/errors.hpp"
#include "cuarray/linalg.hpp"
#include "cuarray/products.hpp"
#include "cuarray/reduction.hpp"
#include "cuarray/ufunc.hpp"
#include "ops/linalg/solvers/matrix_stack.hpp"

namespace cuarray::linalg {
namespace {

// 1/s where s > cutoff, else 0 (s >= 0), without dividing by zero.
NDArray reciprocal_above(const NDArray& s, const NDArray& cutoff) {
  static const Ufunc& greater = ufunc("greater");
  static const Ufunc& logical_not = ufunc("logical_not");
  NDArray large = greater(s, cutoff);
  NDArray kept = large.astype(s.dtype());
  return divide(kept, add(s, logical_not(large).astype(s.dtype())));
}

NDArray last_axis_max(const NDArray& s) {
  const int64_t last = s.ndim() - 1;
  return reduce("max", s, std::span<const int64_t>(&last, 1), std::nullopt, /*keepdims=*/true);
}

double epsilon(DType real) {
  return real == DType::Float32 ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
}

}  // namespace

NDArray pinv(const NDArray& a, const NDArray& rcond, bool hermitian) {
  check_at_least_2d(a);
  const DType dtype = solver_dtype(a.dtype());
  const int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1];
  if (m == 0 || n == 0) return empty(with_tail(batch_shape_of(a.shape()), {n, m}), a.dtype());
  // pinv(a) from the SVD of conj(a) = U S Vt: pinv(a) = Vt^T S^-1 U^T, with no conjugations left.
  SvdResult f = svd(conjugated(a.astype(dtype, false)), /*full_matrices=*/false, /*compute_uv=*/true, hermitian);
  // NumPy's rcond[..., newaxis] * amax(s, axis=-1, keepdims=True).
  const NDArray r = rcond.astype(f.s.dtype(), false);
  const int64_t rcond_end = r.ndim(), s_end = f.s.ndim();
  NDArray cutoff = multiply(r.expand_dims(std::span<const int64_t>(&rcond_end, 1)), last_axis_max(f.s));
  NDArray s_inv = reciprocal_above(f.s, cutoff);
  NDArray scaled_ut = multiply(s_inv.expand_dims(std::span<const int64_t>(&s_end, 1)), f.u.swapaxes(-1, -2));
  return matmul(f.vh.swapaxes(-1, -2), scaled_ut);
}

LstsqResult lstsq(const NDArray& a, const NDArray& b, std::optional<double> rcond) {
  const bool vector = b.ndim() == 1;
  const NDArray b2 = vector ? b.reshape(Shape{b.shape()[0], 1}) : b;
  for (const NDArray* x : {&a, &b2})
    if (x->ndim() != 2)
      throw_error(ErrorKind::LinAlg,
                  std::to_string(x->ndim()) + "-dimensional array given. Array must be two-dimensional");
  const int64_t m = a.shape()[0], n = a.shape()[1], rhs = b2.shape()[1];
  if (b2.shape()[0] != m) throw_error(ErrorKind::LinAlg, "Incompatible dimensions");
  const DType dtype = promote_types(solver_dtype(a.dtype()), solver_dtype(b.dtype()));
  const DType real = real_dtype(dtype);
  const double cut = rcond.value_or(epsilon(real) * double(std::max(m, n)));

  SvdResult f = svd(a.astype(dtype, false), /*full_matrices=*/false);
  const int64_t k = std::min(m, n);
  NDArray x, s_inv;
  int64_t rank = 0;
  if (k == 0) {
    x = zeros(Shape{n, rhs}, dtype);
  } else {
    NDArray cutoff = multiply(last_axis_max(f.s), full(Shape{1}, Scalar::from_double(cut), real));
    s_inv = reciprocal_above(f.s, cutoff);
    static const Ufunc& count_positive = ufunc("greater");
    const int64_t axis0 = 0;
    NDArray count = reduce("sum", count_positive(s_inv, zeros(Shape{1}, real)), std::span<const int64_t>(&axis0, 1),
                           DType::Int64);
    count.copy_to_host(&rank);
    // x = V diag(s_inv) U^H b.
    static const Ufunc& conj = ufunc("conjugate");
    NDArray uhb = matmul(conj(f.u).swapaxes(-1, -2), b2.astype(dtype, false));
    x = matmul(conj(f.vh).swapaxes(-1, -2), multiply(s_inv.reshape(Shape{k, 1}), uhb));
  }
  NDArray residuals = empty(Shape{0}, real);
  if (rank == n && m > n) {
    static const Ufunc& absolute = ufunc("absolute");
    NDArray r = absolute(subtract(b2.astype(dtype, false), matmul(a.astype(dtype, false), x)));
    const int64_t axis0 = 0;
    residuals = reduce("sum", multiply(r, r), std::span<const int64_t>(&axis0, 1));
  }
  if (vector) x = x.reshape(Shape{n});
  return {x.copy(Order::C), residuals, rank, f.s};
}

}  // namespace cuarray::linalg
