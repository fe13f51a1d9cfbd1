// numpy.dot and numpy.tensordot as one matmul: the summed axes of each operand are moved together
// and flattened (a view when the layout allows; matmul then hands a transposed result to cuBLAS as
// an op flag), the free axes make the result's shape.
#include <string>

#include "cuarray/errors.hpp"
#include "cuarray/products.hpp"
#include "cuarray/ufunc.hpp"

namespace cuarray {
namespace {

std::string shape_text(const Shape& s) {
  std::string t = "(";
  for (size_t i = 0; i < s.size(); ++i) t += std::to_string(s[i]) + (s.size() == 1 || i + 1 < s.size() ? "," : "");
  return t + ")";
}

int64_t product(const Shape& s) {
  int64_t p = 1;
  for (int64_t x : s) p *= x;
  return p;
}

}  // namespace

NDArray tensordot(const NDArray& a, const NDArray& b, std::span<const int64_t> a_axes, std::span<const int64_t> b_axes) {
  if (a_axes.size() != b_axes.size()) throw_error(ErrorKind::Value, "shape-mismatch for sum");
  const int na = a.ndim(), nb = b.ndim();
  SmallVector<bool, 8> summed_a(na, false), summed_b(nb, false);
  Axes order_a, order_b;  // a: free then summed; b: summed then free
  Shape free_shape;
  int64_t k = 1;
  Axes sa, sb;
  for (size_t i = 0; i < a_axes.size(); ++i) {
    const int64_t x = a_axes[i] < 0 ? a_axes[i] + na : a_axes[i];
    const int64_t y = b_axes[i] < 0 ? b_axes[i] + nb : b_axes[i];
    if (x < 0 || x >= na || y < 0 || y >= nb) throw_error(ErrorKind::Index, "tuple index out of range");
    if (a.shape()[x] != b.shape()[y]) throw_error(ErrorKind::Value, "shape-mismatch for sum");
    if (summed_a[x] || summed_b[y]) throw_error(ErrorKind::Value, "repeated axis in tensordot");
    summed_a[x] = summed_b[y] = true;
    sa.push_back(x);
    sb.push_back(y);
    k *= a.shape()[x];
  }
  for (int d = 0; d < na; ++d)
    if (!summed_a[d]) order_a.push_back(d), free_shape.push_back(a.shape()[d]);
  const int64_t m = product(free_shape);
  for (int64_t x : sa) order_a.push_back(x);
  for (int64_t y : sb) order_b.push_back(y);
  int64_t n = 1;
  for (int d = 0; d < nb; ++d)
    if (!summed_b[d]) order_b.push_back(d), free_shape.push_back(b.shape()[d]), n *= b.shape()[d];
  const NDArray a2 = a.transpose(order_a).reshape(Shape{m, k});
  const NDArray b2 = b.transpose(order_b).reshape(Shape{k, n});
  return matmul(a2, b2).reshape(free_shape);
}

NDArray dot(const NDArray& a, const NDArray& b) {
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
  const int64_t a_axis = a.ndim() - 1, b_axis = b.ndim() == 1 ? 0 : b.ndim() - 2;
  if (a.shape()[a_axis] != b.shape()[b_axis])
    throw_error(ErrorKind::Value, "shapes " + shape_text(a.shape()) + " and " + shape_text(b.shape()) +
                                      " not aligned: " + std::to_string(a.shape()[a_axis]) + " (dim " +
                                      std::to_string(a_axis) + ") != " + std::to_string(b.shape()[b_axis]) +
                                      " (dim " + std::to_string(b_axis) + ")");
  // matmul's own rules give dot's results where at most one operand is stacked.
  if (a.ndim() <= 2 && b.ndim() <= 2) return matmul(a, b);
  if (b.ndim() == 1) return matmul(a, b);
  return tensordot(a, b, std::span<const int64_t>(&a_axis, 1), std::span<const int64_t>(&b_axis, 1));
}

}  // namespace cuarray
