// Sorting, searching and order statistics: numpy.sort, argsort, lexsort, searchsorted and the
// quantile family, on one stable radix sort (docs/sorting.md).
#pragma once
#include <optional>
#include <span>
#include <string_view>

#include "cuarray/ndarray.hpp"

namespace cuarray {

// numpy.sort(a, axis) with kind='stable' (every kind is stable here): NaNs last, -0.0 and 0.0
// equal (input order kept), complex by real then imaginary part with NumPy's NaN placement.
// axis=nullopt sorts the flattened array. The result is C-contiguous. Throws AxisError.
NDArray sort(const NDArray& a, std::optional<int64_t> axis = -1);

// numpy.argsort(a, axis, kind='stable'): int64 indices that sort `a` along `axis`.
NDArray argsort(const NDArray& a, std::optional<int64_t> axis = -1);

// numpy.lexsort(keys, axis): indices sorting by the last key, ties broken by the one before, ...
// Keys must share one shape. Throws TypeError for no keys, ValueError for unequal shapes.
NDArray lexsort(std::span<const NDArray> keys, int64_t axis = -1);

// numpy.take_along_axis(a, index, axis) for `index` of a's shape, as argsort returns it.
NDArray take_sorted(const NDArray& a, const NDArray& index, int64_t axis);

// numpy.searchsorted(a, v, side, sorter) for a 1-D `a` and `v` of a's dtype (the caller casts
// both to their common dtype): int64 insertion points of v's shape. Throws ValueError when a
// sorter index is out of range.
NDArray searchsorted(const NDArray& a, const NDArray& v, bool right = false, const NDArray* sorter = nullptr);

// For numpy.isin: whether each element of `v` equals an element of the sorted 1-D `a` of its dtype
// (NumPy's ==: NaN is in nothing, -0.0 is 0.0), or does not (invert); bool, of v's shape.
NDArray in_sorted(const NDArray& a, const NDArray& v, bool invert = false);

// numpy.quantile's methods, plus "median" (numpy.median: the mean of the middle elements).
bool is_quantile_method(std::string_view method);
bool is_discrete_quantile_method(std::string_view method);  // the result is an element: a's dtype

// numpy.quantile(a, q, axis) with q in [0, 1] (float64, any shape; the caller checks the range):
// the result has shape q.shape + the kept dims of `a` and dtype `out` (which the caller takes from
// NumPy's rules). `axes` nullopt reduces all. `skip_nan` gives nanquantile. Throws AxisError,
// ValueError for an unknown method, IndexError for an empty reduction (NumPy's).
NDArray quantile(const NDArray& a, const NDArray& q, std::optional<std::span<const int64_t>> axes,
                 std::string_view method, bool skip_nan, DType out);

}  // namespace cuarray
