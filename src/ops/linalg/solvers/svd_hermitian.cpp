// numpy.linalg.svd(hermitian=True) from the eigendecomposition, as NumPy builds it: singular values
// are |w| in descending order, U the eigenvectors in that order, and Vh takes w's signs:
// Vh = (U * copysign(1, w))^H.
#include "cuarray/indexing.hpp"
#include "cuarray/linalg.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/sorting.hpp"
#include "cuarray/ufunc.hpp"
#include "ops/linalg/solvers/matrix_stack.hpp"
#include "ops/linalg/solvers/svd_hermitian.hpp"

namespace cuarray::linalg {

SvdResult hermitian_svd(const NDArray& a, bool compute_uv) {
  static const Ufunc& absolute = ufunc("absolute");
  static const Ufunc& copysign = ufunc("copysign");
  EigResult e = eigh(a, 'L', compute_uv);
  NDArray magnitude = absolute(e.eigenvalues);
  const int64_t last = magnitude.ndim() - 1;
  const std::span<const int64_t> last_axis(&last, 1);
  if (!compute_uv) return {NDArray(), flip(sort(magnitude, last), last_axis).copy(Order::C), NDArray()};
  // NumPy's argsort(|w|)[..., ::-1]: descending, ties in reverse order of appearance.
  NDArray order = flip(argsort(magnitude, last), last_axis);
  NDArray s = take_along_axis(magnitude, order, last);
  // copysign(1, w), not sign(w): a zero eigenvalue keeps its column of Vh.
  NDArray signs = take_along_axis(apply(copysign, {Operand::of(Scalar::from_double(1.0)), Operand::of(e.eigenvalues)}),
                                  order, last);
  NDArray u = take_along_axis(e.eigenvectors, order.expand_dims(std::span<const int64_t>(&last, 1)), last + 1);
  NDArray signed_u = multiply(u, signs.expand_dims(std::span<const int64_t>(&last, 1)));
  return {u, s, conjugated(signed_u.swapaxes(-1, -2))};
}

}  // namespace cuarray::linalg
