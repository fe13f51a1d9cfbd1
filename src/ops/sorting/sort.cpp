// numpy.sort, argsort, lexsort and take_along_axis over the radix sort engine: the sorted axis is
// moved last into a contiguous copy, its rows are sorted, and the result is moved back.
#include <algorithm>
#include <numeric>

#include "cuarray/errors.hpp"
#include "cuarray/sorting.hpp"
#include "ops/engines/sort/sort.hpp"
#include "ops/engines/sort/rows_along.hpp"

namespace cuarray {
namespace {

// Sorts along one axis (nullopt: the flattened array), writing values or indices.
NDArray sort_along(const NDArray& a, std::optional<int64_t> axis, bool indices) {
  const NDArray src = axis ? a : a.reshape(Shape{a.size()});
  const int ax = normalize_axis(axis.value_or(0), src.ndim());
  const int reduced[] = {ax};
  const ops::RowsAlong r = ops::rows_along(src, reduced);
  NDArray out = empty(r.rows.shape(), indices ? DType::Int64 : src.dtype());
  if (r.row_len > 0) ops::sort_rows(r.rows, r.row_len, indices ? nullptr : &out, indices ? &out : nullptr);
  return ops::restore_axes(out, r);
}

}  // namespace

NDArray sort(const NDArray& a, std::optional<int64_t> axis) { return sort_along(a, axis, false); }

NDArray argsort(const NDArray& a, std::optional<int64_t> axis) {
  // NumPy's argsort of a 0-d array is that of its one element, flattened.
  return sort_along(a, a.ndim() == 0 ? std::nullopt : axis, true);
}

NDArray take_sorted(const NDArray& a, const NDArray& index, int64_t axis) {
  if (a.shape() != index.shape()) throw_error(ErrorKind::Value, "take_sorted: index must have the array's shape");
  if (a.ndim() == 0) return a.copy(Order::C);
  const int reduced[] = {normalize_axis(axis, a.ndim())};
  const ops::RowsAlong r = ops::rows_along(a, reduced);
  const ops::RowsAlong ri = ops::rows_along(index.astype(DType::Int64, false), reduced);
  NDArray out = empty(r.rows.shape(), a.dtype());
  if (r.row_len > 0) ops::gather_rows(r.rows, ri.rows, r.row_len, out);
  return ops::restore_axes(out, r);
}

NDArray lexsort(std::span<const NDArray> keys, int64_t axis) {
  if (keys.empty()) throw_error(ErrorKind::Type, "need sequence of keys with len > 0 in lexsort");
  for (const NDArray& k : keys)
    if (k.shape() != keys[0].shape()) throw_error(ErrorKind::Value, "all keys need to be the same shape");
  if (keys[0].ndim() == 0) return zeros(Shape{}, DType::Int64);
  // Least significant key first; each later key sorts stably in the order found so far.
  NDArray order = argsort(keys[0], axis);
  for (size_t k = 1; k < keys.size(); ++k) {
    const NDArray permuted = take_sorted(keys[k], order, axis);
    order = take_sorted(order, argsort(permuted, axis), axis);
  }
  return order;
}

}  // namespace cuarray
