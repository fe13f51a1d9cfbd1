// Selections and index arrays: NumPy's nonzero, flatnonzero, argwhere, extract, compress, take,
// put, take_along_axis, and the boolean-mask and integer-array forms of a[...] and a[...] = v.
// Results whose size depends on the data (nonzero, masks) read that size back from the device:
// the one synchronization of those calls.
#pragma once
#include <optional>
#include <vector>

#include "cuarray/ndarray.hpp"

namespace cuarray {

// numpy's mode= of take and put: out-of-range indices raise IndexError, wrap around, or clip.
enum class IndexMode : uint8_t { Raise = 0, Wrap = 1, Clip = 2 };

// numpy.nonzero: one int64 array of indices per dimension (ValueError for 0-d input).
std::vector<NDArray> nonzero(const NDArray& a);
// numpy.flatnonzero: indices of the nonzero elements of a.ravel().
NDArray flatnonzero(const NDArray& a);
// numpy.argwhere: (N, a.ndim) int64 indices of the nonzero elements, C order.
NDArray argwhere(const NDArray& a);
// numpy.extract: the elements of arr.ravel() where condition.ravel() is nonzero.
NDArray extract(const NDArray& condition, const NDArray& arr);
// numpy.compress: the slices of `a` along `axis` (nullopt: of a.ravel()) where the 1-D
// `condition` is nonzero. A condition longer than the axis may only add False entries.
NDArray compress(const NDArray& condition, const NDArray& a, std::optional<int64_t> axis);

// numpy.take: elements of `a` along `axis` (nullopt: of a.ravel()) at `indices` (any integer or
// bool dtype, any shape); the result has shape a.shape[:axis] + indices.shape + a.shape[axis+1:].
NDArray take(const NDArray& a, const NDArray& indices, std::optional<int64_t> axis, IndexMode mode = IndexMode::Raise);
// numpy.put: a.flat[indices] = values (values repeated or truncated to the number of indices, cast
// to a's dtype); the last of duplicate indices wins.
void put(const NDArray& a, const NDArray& indices, const NDArray& values, IndexMode mode = IndexMode::Raise);
// numpy.take_along_axis: indices has a's rank and broadcasts against it except along `axis`
// (nullopt: a.ravel() with 1-D indices).
NDArray take_along_axis(const NDArray& a, const NDArray& indices, std::optional<int64_t> axis);

// a[mask]: `mask` (bool) has the shape of a's leading dims (0-d: a new axis of length 0 or 1);
// the result is (count, *a.shape[mask.ndim:]). IndexError when the shapes differ.
NDArray boolean_index(const NDArray& a, const NDArray& mask);
// a[mask] = values: values broadcast to (count, *a.shape[mask.ndim:]) and cast to a's dtype.
void boolean_assign(const NDArray& a, const NDArray& mask, const NDArray& values);
// Every other index key (several index arrays, mixed with slices, None, Ellipsis): getitem and
// setitem in cuarray/index_key.hpp.

}  // namespace cuarray
