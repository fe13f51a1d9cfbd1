// Shapes, strides and the pure arithmetic on them (broadcasting, contiguity, no-copy reshape).
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "cuarray/small_vector.hpp"

namespace cuarray {

inline constexpr int kMaxDims = 64;  // NumPy 2's NPY_MAXDIMS
using Shape = SmallVector<int64_t, 6>;
using Strides = SmallVector<int64_t, 6>;  // in bytes, as NumPy's

// Memory order arguments (order=).
enum class Order : uint8_t { C, F, A, K };

int64_t shape_size(const Shape& shape);
std::string shape_repr(const Shape& shape);  // "(2, 3)", "(4,)", "()" as Python prints a tuple

Strides c_strides(const Shape& shape, int64_t itemsize);
Strides f_strides(const Shape& shape, int64_t itemsize);
// Contiguous strides for `shape` whose axes follow `like`'s memory order (largest |stride| outermost):
// NumPy's order='K' for new arrays made after an existing one.
Strides strides_like(const Shape& shape, const Strides& like, int64_t itemsize);
bool is_c_contiguous(const Shape& shape, const Strides& strides, int64_t itemsize);
bool is_f_contiguous(const Shape& shape, const Strides& strides, int64_t itemsize);

// np.broadcast_shapes; throws ValueError naming every shape when they do not broadcast.
Shape broadcast_shapes(std::span<const Shape* const> shapes);
// Strides that view `shape`/`strides` broadcast to `target` (zeros on stretched dims).
Strides broadcast_strides(const Shape& shape, const Strides& strides, const Shape& target);

// Strides for viewing an array as `new_shape` without a copy, or nullopt when NumPy would copy
// (NumPy's _attempt_nocopy_reshape). `order` is C or F.
std::optional<Strides> reshape_strides(const Shape& shape, const Strides& strides, const Shape& new_shape,
                                       int64_t itemsize, Order order);
// Resolves one -1 and checks the element count; throws ValueError as NumPy does.
Shape resolve_reshape(const Shape& new_shape, int64_t size);

// Maps a possibly negative axis into [0, ndim); throws AxisError naming the axis and ndim.
int normalize_axis(int64_t axis, int ndim);

// The positions a Python slice picks along an axis of length `len` (slice.indices(len)): the slice
// as PySlice_Unpack gives it (an open end is INT64_MIN or INT64_MAX; step != 0), clamped as Python
// clamps it. Position k of the `length` picked is start + k * step.
struct SliceRange {
  int64_t start, step, length;
};
SliceRange slice_range(int64_t len, int64_t start, int64_t stop, int64_t step);

// Byte range [lo, hi) an array touches relative to its data pointer (for bounds and overlap).
struct ByteExtent { int64_t lo, hi; };
ByteExtent byte_extent(const Shape& shape, const Strides& strides, int64_t itemsize);

}  // namespace cuarray
