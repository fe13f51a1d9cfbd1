// NumPy's index-array functions over the gather/scatter engine (src/ops/engines/gather/gather.cpp): take, put,
// take_along_axis (docs/select.md).
#include <string>

#include "cuarray/errors.hpp"
#include "cuarray/indexing.hpp"
#include "ops/engines/gather/gather.hpp"

namespace cuarray {
namespace {

using ops::IndexedArray;
using ops::IndexOperand;

Strides zeros(int n) { return Strides(static_cast<size_t>(n), 0); }

Strides concat(std::initializer_list<Strides> parts) {
  Strides out;
  for (const Strides& p : parts)
    for (int64_t v : p) out.push_back(v);
  return out;
}

Strides slice(const Strides& s, int begin, int end) {
  Strides out;
  for (int d = begin; d < end; ++d) out.push_back(s[d]);
  return out;
}

void check_integer(const NDArray& indices) {
  if (!is_integer(indices.dtype()) && indices.dtype() != DType::Bool)
    throw_error(ErrorKind::Type, "Cannot cast array data from dtype('" + std::string(dtype_name(indices.dtype())) +
                                     "') to dtype('int64') according to the rule 'same_kind'");
}

}  // namespace

NDArray take(const NDArray& a, const NDArray& indices, std::optional<int64_t> axis, IndexMode mode) {
  check_integer(indices);
  const int ni = indices.ndim();
  if (!axis) {  // flat indexing in C order over every dim of `a`, whatever its layout
    NDArray out = empty(indices.shape(), a.dtype());
    IndexedArray src{a, zeros(ni), a.shape(), a.strides(), 0};
    ops::run_gather(out, src, IndexOperand{indices, indices.strides(), {}}, mode);
    return out;
  }
  const int ax = normalize_axis(*axis, a.ndim());
  Shape shape;
  for (int d = 0; d < ax; ++d) shape.push_back(a.shape()[d]);
  for (int64_t s : indices.shape()) shape.push_back(s);
  for (int d = ax + 1; d < a.ndim(); ++d) shape.push_back(a.shape()[d]);
  NDArray out = empty(shape, a.dtype());
  const int after = a.ndim() - ax - 1;
  IndexedArray src{a, concat({slice(a.strides(), 0, ax), zeros(ni), slice(a.strides(), ax + 1, a.ndim())}),
                   Shape{a.shape()[ax]}, Strides{a.strides()[ax]}, ax};
  IndexOperand index{indices, concat({zeros(ax), indices.strides(), zeros(after)}), {}};
  // NumPy checks every index once per row before the axis, even when the dims after it leave
  // nothing to copy (shape (1, 0, 0) along axis 1 raises for index 0); the gather sees no work.
  int64_t rows = 1;
  for (int d = 0; d < ax; ++d) rows *= a.shape()[d];
  if (mode == IndexMode::Raise && out.size() == 0 && rows > 0) ops::check_in_range(indices, a.shape()[ax], ax, false);
  ops::run_gather(out, src, index, mode);
  return out;
}

void put(const NDArray& a, const NDArray& indices, const NDArray& values, IndexMode mode) {
  check_integer(indices);
  const int64_t n = indices.size();
  if (a.size() == 0) {
    if (n > 0) throw_error(ErrorKind::Index, "cannot replace elements of an empty array");
    return;
  }
  if (n == 0 || values.size() == 0) return;
  // values.flat[i % values.size] for the i-th index: a view where that is one, else a take that wraps.
  NDArray flat = values.dtype() == a.dtype() ? values.ravel() : values.astype(a.dtype()).ravel();
  NDArray per_index = flat.size() == 1    ? flat.view_as(Shape{n}, Strides{0}, flat.raw_data())
                      : flat.size() >= n ? flat.slice(0, 0, n, 1)
                                         : take(flat, arange(Scalar::from_int(0), Scalar::from_int(n), Scalar::from_int(1), DType::Int64),
                                                0, IndexMode::Wrap);
  NDArray idx = indices.ravel();
  IndexedArray dst{a, Strides{0}, a.shape(), a.strides(), 0};
  ops::run_scatter(dst, per_index, IndexOperand{idx, idx.strides(), Strides{1}}, mode);
}

NDArray take_along_axis(const NDArray& a, const NDArray& indices, std::optional<int64_t> axis) {
  if (!is_integer(indices.dtype())) throw_error(ErrorKind::Index, "`indices` must be an integer array");
  if (!axis) {
    if (indices.ndim() != 1) throw_error(ErrorKind::Value, "when axis=None, `indices` must have a single dimension.");
    return take(a, indices, std::nullopt);
  }
  if (indices.ndim() != a.ndim())
    throw_error(ErrorKind::Value, "`indices` and `arr` must have the same number of dimensions");
  const int ax = normalize_axis(*axis, a.ndim());
  Shape shape;
  Strides src_strides, idx_strides;
  for (int d = 0; d < a.ndim(); ++d) {
    const int64_t la = d == ax ? 1 : a.shape()[d], li = indices.shape()[d];
    if (la != li && la != 1 && li != 1)
      throw_error(ErrorKind::Index, "shape mismatch: indexing arrays could not be broadcast together with shapes " +
                                        shape_repr(a.shape()) + " " + shape_repr(indices.shape()));
    const int64_t len = d == ax ? li : std::max(la, li);
    shape.push_back(len);
    src_strides.push_back(d == ax || la == 1 ? 0 : a.strides()[d]);
    idx_strides.push_back(li == 1 ? 0 : indices.strides()[d]);
  }
  NDArray out = empty(shape, a.dtype());
  IndexedArray src{a, src_strides, Shape{a.shape()[ax]}, Strides{a.strides()[ax]}, ax};
  ops::run_gather(out, src, IndexOperand{indices, idx_strides, {}}, IndexMode::Raise);
  return out;
}

}  // namespace cuarray
