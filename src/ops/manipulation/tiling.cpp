// numpy.tile, repeat and resize: new arrays copied from views of the input.
//
// tile and a scalar repeat read a broadcast view (a stride-0 axis beside each repeated one) and
// copy it into a contiguous array of the interleaved shape, which then reshapes for free: one
// kernel. Per-element repeat counts become a gather: the source index of output j is the number
// of cumulative counts <= j (a scan and a binary search).
#include <string>
#include <utility>

#include "cuarray/errors.hpp"
#include "cuarray/indexing.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/reduction.hpp"
#include "cuarray/scan.hpp"
#include "cuarray/sorting.hpp"
#include "ops/engines/copy/copy.hpp"
#include "ops/engines/elementwise/internal_ops.hpp"

namespace cuarray {
namespace {

// Copies a (broadcast) view into a new C-contiguous array and views that as `shape`.
NDArray materialize(const NDArray& view, const Shape& shape) {
  NDArray out = empty(view.shape(), view.dtype());
  if (out.size() > 0) ops::copy_into(view, out);
  return out.reshape(shape);
}

// `a` with a stride-0 axis of length `times` after `axis`, copied and merged into that axis.
NDArray repeat_each(const NDArray& a, int axis, int64_t times) {
  Shape shape = a.shape(), merged = a.shape();
  Strides strides = a.strides();
  shape.insert(static_cast<size_t>(axis + 1), times);
  strides.insert(static_cast<size_t>(axis + 1), 0);
  merged[axis] *= times;
  return materialize(a.view_as(std::move(shape), std::move(strides), a.raw_data()), merged);
}

// The one element of a size-1 int64 array (synchronizes).
int64_t read_single(const NDArray& a) {
  int64_t v = 0;
  a.copy_to_host(&v);
  return v;
}

}  // namespace

NDArray tile(const NDArray& a, std::span<const int64_t> reps) {
  for (int64_t r : reps)
    if (r < 0) throw_error(ErrorKind::Value, "negative dimensions are not allowed");
  const int ndim = std::max(a.ndim(), static_cast<int>(reps.size()));
  const int pad_a = ndim - a.ndim(), pad_reps = ndim - static_cast<int>(reps.size());
  bool all_ones = true;
  for (int64_t r : reps) all_ones &= r == 1;
  // NumPy's tile with nothing to repeat is np.array(a, copy=True, ndmin=len(reps)).
  Shape padded(static_cast<size_t>(pad_a), 1);
  for (int64_t s : a.shape()) padded.push_back(s);
  if (all_ones) return a.copy(Order::K).reshape(padded);
  // The view (r0, s0, r1, s1, ...) with stride 0 on each r, skipping the r that are 1.
  Shape view_shape, result;
  Strides view_strides;
  for (int d = 0; d < ndim; ++d) {
    const int64_t r = d < pad_reps ? 1 : reps[static_cast<size_t>(d - pad_reps)];
    const int64_t s = padded[d];
    if (r != 1) {
      view_shape.push_back(r);
      view_strides.push_back(0);
    }
    view_shape.push_back(s);
    view_strides.push_back(d < pad_a ? 0 : a.strides()[d - pad_a]);
    result.push_back(r * s);
  }
  return materialize(a.view_as(std::move(view_shape), std::move(view_strides), a.raw_data()), result);
}

NDArray repeat(const NDArray& a, int64_t repeats, std::optional<int64_t> axis) {
  if (repeats < 0) throw_error(ErrorKind::Value, "negative dimensions are not allowed");
  if (!axis) return repeat_each(a.ravel(), 0, repeats);
  return repeat_each(a, normalize_axis(*axis, a.ndim()), repeats);
}

NDArray repeat(const NDArray& a, const NDArray& repeats, std::optional<int64_t> axis) {
  if (!can_cast(repeats.dtype(), DType::Int64, Casting::Safe))
    throw_error(ErrorKind::Type, "Cannot cast array data from dtype('" + std::string(dtype_name(repeats.dtype())) +
                                     "') to dtype('int64') according to the rule 'safe'");
  if (repeats.ndim() > 1) throw_error(ErrorKind::Value, "repeats must be a scalar or a 1-d array");
  const NDArray src = axis ? a : a.ravel();
  const int ax = axis ? normalize_axis(*axis, a.ndim()) : 0;
  const NDArray counts = repeats.astype(DType::Int64, false);
  if (counts.size() == 1) {
    return repeat(a, read_single(counts), axis);  // NumPy's scalar path, its error included
  }
  const int64_t n = src.shape()[ax];
  if (counts.size() != n)
    throw_error(ErrorKind::Value, "operands could not be broadcast together with shape (" + std::to_string(n) + ",) (" +
                                      std::to_string(counts.size()) + ",)");
  if (n == 0) return src.copy(Order::C);
  const NDArray flat_counts = counts.reshape(Shape{n});
  const NDArray ends = cumsum(flat_counts);
  // The smallest count and the total in one read (one synchronization).
  static const Reduction& min_reduction = *Reduction::find("min");
  const NDArray parts[] = {reduce(min_reduction, flat_counts).reshape(Shape{1}), ends.slice(0, n - 1, n, 1)};
  const NDArray summary = concatenate(parts, 0);
  int64_t host[2];
  summary.copy_to_host(host);
  if (host[0] < 0) throw_error(ErrorKind::Value, "repeats may not contain negative values.");
  const NDArray positions = arange(Scalar::from_int(0), Scalar::from_int(host[1]), Scalar::from_int(1), DType::Int64);
  return take(src, searchsorted(ends, positions, /*right=*/true), ax);
}

NDArray resize(const NDArray& a, const Shape& shape) {
  for (int64_t s : shape)
    if (s < 0) throw_error(ErrorKind::Value, "all elements of `new_shape` must be non-negative");
  const int64_t total = shape_size(shape), n = a.size();
  if (n == 0 || total == 0) return zeros(shape, a.dtype());
  const NDArray flat = a.ravel();
  NDArray out = empty(Shape{total}, a.dtype());
  const int64_t whole = total / n, rest = total % n;
  if (whole > 0) {  // whole copies of a.ravel(): a (whole, n) view with a stride-0 first axis
    NDArray rows = out.slice(0, 0, whole * n, 1).reshape(Shape{whole, n});
    ops::copy_into(flat.view_as(Shape{whole, n}, Strides{0, flat.strides()[0]}, flat.raw_data()), rows);
  }
  if (rest > 0) ops::copy_into(flat.slice(0, 0, rest, 1), out.slice(0, whole * n, total, 1));
  return out.reshape(shape);
}

}  // namespace cuarray
