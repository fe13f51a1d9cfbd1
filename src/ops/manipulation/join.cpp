// numpy.concatenate and numpy.stack: every input copied into its slice of the result.
//
// Inputs that already have the result's dtype and memory order go in one launch of the join
// kernel (ops::join_copy); otherwise each input is copied by the elementwise copy engine into a
// view of the output, casting on the way (docs/manipulation.md has the measurements).
#include <string>
#include <vector>

#include "core/array_checks.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/manipulation.hpp"
#include "ops/engines/copy/copy.hpp"
#include "ops/engines/elementwise/internal_ops.hpp"
#include "ops/engines/copy/join_copy.hpp"

namespace cuarray {
namespace {


// NumPy's checks of concatenate's inputs along `axis`; returns the result's shape.
Shape joined_shape(std::span<const NDArray> arrays, int axis) {
  const NDArray& first = arrays[0];
  Shape shape = first.shape();
  for (size_t i = 1; i < arrays.size(); ++i) {
    const NDArray& a = arrays[i];
    if (a.ndim() != first.ndim())
      throw_error(ErrorKind::Value, "all the input arrays must have same number of dimensions, but the array at index 0 has " +
                                        std::to_string(first.ndim()) + " dimension(s) and the array at index " +
                                        std::to_string(i) + " has " + std::to_string(a.ndim()) + " dimension(s)");
    for (int d = 0; d < a.ndim(); ++d) {
      if (d == axis) continue;
      if (a.shape()[d] != first.shape()[d])
        throw_error(ErrorKind::Value,
                    "all the input array dimensions except for the concatenation axis must match exactly, but along "
                    "dimension " + std::to_string(d) + ", the array at index 0 has size " +
                        std::to_string(first.shape()[d]) + " and the array at index " + std::to_string(i) +
                        " has size " + std::to_string(a.shape()[d]));
    }
    shape[axis] += a.shape()[axis];
  }
  return shape;
}

DType joined_dtype(std::span<const NDArray> arrays, std::optional<DType> dtype, const NDArray* out, Casting casting) {
  std::vector<DType> dtypes;
  for (const NDArray& a : arrays) dtypes.push_back(a.dtype());
  DType result = promote_types(dtypes);
  if (out) result = out->dtype();
  else if (dtype) result = *dtype;
  for (const NDArray& a : arrays)
    if (!can_cast(a.dtype(), result, casting))
      throw_error(ErrorKind::Type, "Cannot cast array data from " + dtype_repr(a.dtype()) + " to " + dtype_repr(result) +
                                       " according to the rule '" + std::string(casting_name(casting)) + "'");
  return result;
}

// NumPy lays the result out in the inputs' common memory order: Fortran when every input is.
Order joined_order(std::span<const NDArray> arrays) {
  for (const NDArray& a : arrays)
    if (!a.f_contiguous() || a.c_contiguous()) return Order::C;
  return Order::F;
}

void check_out(const NDArray& out, const Shape& shape) {
  if (out.ndim() != static_cast<int>(shape.size())) throw_error(ErrorKind::Value, "Output array has wrong dimensionality");
  if (out.shape() != shape) throw_error(ErrorKind::Value, "Output array is the wrong shape");
}

// dst = a, as NumPy assigns each piece: an input that overlaps its destination (out= one of the
// inputs' memory) is read whole before it is written. The pieces go in one after another, as in
// NumPy, so a later input that an earlier piece overwrote is read as overwritten.
void copy_piece(const NDArray& a, const NDArray& dst) { ops::copy_into(overlaps(a, dst) ? a.copy() : a, dst); }

// Copies every input into `result` in one join_copy launch when each non-empty input has the
// result's dtype and device, is contiguous in the result's memory order and does not overlap it;
// returns false (having copied nothing) otherwise. Along `axis` (none: the flattened inputs one
// after another) the result is rows of the inputs' rows side by side: the rows are the dims that
// come before the axis in memory order, and an input's row is its axis and the dims after it.
bool join_in_one_launch(std::span<const NDArray> arrays, const NDArray& result, std::optional<int> axis) {
  const bool fortran = !result.c_contiguous();
  if (fortran && !(axis && result.f_contiguous())) return false;
  int64_t rows = 1, inner = 1;
  if (axis)
    for (int d = 0; d < result.ndim(); ++d)
      if (d != *axis) ((d < *axis) != fortran ? rows : inner) *= result.shape()[d];
  std::vector<ops::JoinPiece> pieces;
  pieces.reserve(arrays.size());
  for (const NDArray& a : arrays) {
    if (a.size() == 0) continue;
    if (a.dtype() != result.dtype() || a.device() != result.device() ||
        !(fortran ? a.f_contiguous() : a.c_contiguous()) || overlaps(a, result))
      return false;
    pieces.push_back({a.raw_data(), (axis ? a.shape()[*axis] * inner : a.size()) * a.itemsize()});
  }
  const int64_t row_length = axis ? result.shape()[*axis] * inner : result.size();
  ops::join_copy(result.raw_data(), rows, row_length * result.itemsize(), pieces, result.device());
  return true;
}

// Copies each input into its slice of `result` along `axis`.
void copy_pieces(std::span<const NDArray> arrays, const NDArray& result, int axis) {
  int64_t offset = 0;
  for (const NDArray& a : arrays) {
    const int64_t length = a.shape()[axis];
    if (length > 0 && a.size() > 0) copy_piece(a, result.slice(axis, offset, offset + length, 1));
    offset += length;
  }
}

// axis=None: each input fills the next a.size() elements of the 1-D result, in C order.
void copy_flattened(std::span<const NDArray> arrays, const NDArray& result) {
  int64_t offset = 0;
  for (const NDArray& a : arrays) {
    if (a.size() > 0) {
      NDArray piece = result.slice(0, offset, offset + a.size(), 1);
      if (auto strides = reshape_strides(piece.shape(), piece.strides(), a.shape(), piece.itemsize(), Order::C))
        copy_piece(a, piece.view_as(a.shape(), std::move(*strides), piece.raw_data()));
      else
        copy_piece(a.ravel(), piece);
    }
    offset += a.size();
  }
}

}  // namespace

NDArray concatenate(std::span<const NDArray> arrays, std::optional<int64_t> axis, std::optional<DType> dtype,
                    Casting casting, const NDArray* out) {
  if (out && dtype)
    throw_error(ErrorKind::Type, "concatenate() only takes `out` or `dtype` as an argument, but both were provided.");
  if (arrays.empty()) throw_error(ErrorKind::Value, "need at least one array to concatenate");
  Shape shape;
  int ax = 0;
  if (axis) {
    if (arrays[0].ndim() == 0) throw_error(ErrorKind::Value, "zero-dimensional arrays cannot be concatenated");
    ax = normalize_axis(*axis, arrays[0].ndim());
    shape = joined_shape(arrays, ax);
  } else {
    int64_t total = 0;
    for (const NDArray& a : arrays) total += a.size();
    shape = Shape{total};
  }
  const DType result_dtype = joined_dtype(arrays, dtype, out, casting);
  if (out) check_out(*out, shape);
  NDArray result = out ? *out : empty(shape, result_dtype, axis ? joined_order(arrays) : Order::C);
  if (join_in_one_launch(arrays, result, axis ? std::optional<int>(ax) : std::nullopt)) return result;
  if (axis) copy_pieces(arrays, result, ax);
  else copy_flattened(arrays, result);
  return result;
}

NDArray stack(std::span<const NDArray> arrays, int64_t axis, std::optional<DType> dtype, Casting casting,
              const NDArray* out) {
  if (arrays.empty()) throw_error(ErrorKind::Value, "need at least one array to stack");
  for (const NDArray& a : arrays)
    if (a.shape() != arrays[0].shape()) throw_error(ErrorKind::Value, "all input arrays must have the same shape");
  const int ax = normalize_axis(axis, arrays[0].ndim() + 1);
  const int64_t new_axis[] = {ax};
  std::vector<NDArray> expanded;
  expanded.reserve(arrays.size());
  for (const NDArray& a : arrays) expanded.push_back(a.expand_dims(new_axis));
  return concatenate(expanded, ax, dtype, casting, out);
}

}  // namespace cuarray
