// Array manipulation: NumPy's concatenate, stack, split, tile, repeat, flip, roll, rot90,
// moveaxis, resize, insert and delete. Views are returned wherever NumPy returns views (split,
// flip, rot90, moveaxis); the others are new arrays built from views by the copy engine
// (docs/manipulation.md).
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "cuarray/ndarray.hpp"

namespace cuarray {

// numpy.concatenate(arrays, axis, out, dtype, casting): the arrays joined along `axis` (nullopt:
// every array flattened, then joined). The result dtype is `out`'s, else `dtype`, else NumPy's
// result_type of the inputs; each input must cast to it under `casting` (TypeError). ValueError for
// no arrays, 0-d arrays with an axis, unequal ranks or unequal sizes off the axis (NumPy's
// messages); AxisError for a bad axis; TypeError when both `out` and `dtype` are given. With `out`
// the values land in it (its shape must be the result's) and it is returned.
NDArray concatenate(std::span<const NDArray> arrays, std::optional<int64_t> axis = 0,
                    std::optional<DType> dtype = std::nullopt, Casting casting = Casting::SameKind,
                    const NDArray* out = nullptr);

// numpy.stack: arrays of one shape joined along a new axis `axis` of the result.
NDArray stack(std::span<const NDArray> arrays, int64_t axis = 0, std::optional<DType> dtype = std::nullopt,
              Casting casting = Casting::SameKind, const NDArray* out = nullptr);

// numpy.array_split(a, indices, axis): views a[:i0], a[i0:i1], ..., a[ik:] along `axis`, each
// bound clamped as a Python slice clamps it (negative bounds count from the end).
std::vector<NDArray> split(const NDArray& a, std::span<const int64_t> indices, int64_t axis = 0);
// numpy.array_split(a, sections, axis): `sections` views, the first len % sections one longer.
std::vector<NDArray> array_split(const NDArray& a, int64_t sections, int64_t axis = 0);
// numpy.split(a, sections, axis): as array_split, but ValueError unless sections divides the length.
std::vector<NDArray> split(const NDArray& a, int64_t sections, int64_t axis = 0);

// numpy.tile(a, reps): `a` (with leading length-1 dims up to len(reps)) repeated reps[i] times
// along each axis (reps padded with leading 1s to a's rank). Always a new C-contiguous array.
NDArray tile(const NDArray& a, std::span<const int64_t> reps);

// numpy.repeat(a, repeats, axis): each element (axis nullopt: of a.ravel()) repeated `repeats`
// times along `axis`. ValueError for a negative count.
NDArray repeat(const NDArray& a, int64_t repeats, std::optional<int64_t> axis = std::nullopt);
// Per-element counts: `repeats` is 1-D of the axis length (or of length 1), bool or an integer
// dtype that casts safely to int64 (TypeError otherwise). Reads the total back from the device.
NDArray repeat(const NDArray& a, const NDArray& repeats, std::optional<int64_t> axis = std::nullopt);

// numpy.flip(a, axis): a view with the given axes (nullopt: all) reversed.
NDArray flip(const NDArray& a, std::optional<std::span<const int64_t>> axes = std::nullopt);

// numpy.roll(a, shift, axis): elements shifted along each axis by the matching shift (a shift of
// an axis named twice adds up), wrapping around; axes nullopt rolls a.ravel() by the sum of the
// shifts and keeps a's shape. `shifts` and `axes` have equal lengths (ValueError otherwise).
NDArray roll(const NDArray& a, std::span<const int64_t> shifts,
             std::optional<std::span<const int64_t>> axes = std::nullopt);

// numpy.rot90(a, k, axes=(axis0, axis1)): a view rotated k quarter turns from axis0 towards axis1.
NDArray rot90(const NDArray& a, int64_t k = 1, int64_t axis0 = 0, int64_t axis1 = 1);

// numpy.moveaxis(a, source, destination): a view with the source axes moved to the destination
// positions, the others in their original order.
NDArray moveaxis(const NDArray& a, std::span<const int64_t> source, std::span<const int64_t> destination);

// numpy.resize(a, shape): a.ravel() repeated as often as needed to fill `shape` (zeros when `a`
// is empty). ValueError for a negative dimension.
NDArray resize(const NDArray& a, const Shape& shape);

// numpy.insert's and numpy.delete's `obj`: the positions along the axis, in the forms NumPy takes
// once Python objects are parsed. Negative positions count from the end.
struct AxisIndex {
  enum class Kind : uint8_t {
    Integer,    // one position: a Python int, a NumPy integer or a 0-d integer array
    Slice,      // start, stop, step as PySlice_Unpack gives them (see slice_range in shape.hpp)
    Positions,  // a 1-D list of positions on the host
    Array,      // a device array: bool is a mask over the axis; integers are positions (0-d as
                // Integer, a size-1 array as one position); other dtypes raise NumPy's errors
  };
  Kind kind = Kind::Integer;
  int64_t value = 0;                      // Integer
  int64_t start = 0, stop = 0, step = 1;  // Slice
  std::vector<int64_t> positions = {};    // Positions
  NDArray array = {};                     // Array

  static AxisIndex integer(int64_t i) { return {.kind = Kind::Integer, .value = i}; }
  static AxisIndex slice(int64_t start, int64_t stop, int64_t step) {
    return {.kind = Kind::Slice, .start = start, .stop = stop, .step = step};
  }
  static AxisIndex of(std::vector<int64_t> positions) { return {.kind = Kind::Positions, .positions = std::move(positions)}; }
  static AxisIndex of(NDArray array) { return {.kind = Kind::Array, .array = std::move(array)}; }
};

// numpy.insert(arr, obj, values, axis): `values` (cast to arr's dtype) inserted before the
// positions `obj` names along `axis` (nullopt: of arr.ravel()). A scalar position (Kind::Integer,
// or a 0-d array) inserts `values` as a slice at that place: its first axis becomes `axis`; several
// positions take one value (or one broadcast row) each, in the stable order of the positions.
// Throws AxisError, IndexError for a position outside [-n, n] ("index 7 is out of bounds for axis 0
// with size 5"), ValueError for a mask or position array of more than one dimension, or values
// that do not broadcast, IndexError for positions that are not integers (TypeError, as NumPy's
// slice bound, for a single in-range one). Every check that needs no device read comes before
// anything is allocated; values are cast to arr's dtype after the positions are checked.
NDArray insert(const NDArray& arr, const AxisIndex& obj, const NDArray& values,
               std::optional<int64_t> axis = std::nullopt);

// numpy.delete(arr, obj, axis): arr without the subarrays at the positions `obj` names along
// `axis` (nullopt: of arr.ravel()); repeated positions count once. Always a new array (named
// delete_: delete is a C++ keyword). Throws AxisError, IndexError for a position outside [-n, n)
// or positions that are not integers, ValueError for a bool mask whose shape is not (n,).
NDArray delete_(const NDArray& arr, const AxisIndex& obj, std::optional<int64_t> axis = std::nullopt);

}  // namespace cuarray
