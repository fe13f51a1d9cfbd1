// NumPy's selections by a predicate over the compaction engine (src/ops/engines/select/select.cpp): nonzero,
// flatnonzero, argwhere, extract, compress and the boolean-mask forms of a[...] (docs/select.md).
#include <string>

#include "cuarray/errors.hpp"
#include "cuarray/indexing.hpp"
#include "ops/engines/elementwise/elementwise.hpp"
#include "ops/engines/elementwise/internal_ops.hpp"
#include "ops/engines/select/select.hpp"

namespace cuarray {
namespace {

using ops::Selection;
using Layout = ops::Selection::IndexLayout;

// `mask` seen over a's whole shape: its own strides on a's leading dims, 0 on the rest, so one
// compaction over `a` selects whole sub-arrays.
NDArray mask_over(const NDArray& mask, const NDArray& a) {
  Strides strides = mask.strides();
  for (int d = mask.ndim(); d < a.ndim(); ++d) strides.push_back(0);
  return mask.view_as(a.shape(), strides, mask.raw_data());
}

void check_mask_shape(const NDArray& a, const NDArray& mask) {
  if (mask.ndim() > a.ndim())
    throw_error(ErrorKind::Index, "too many indices for array: array is " + std::to_string(a.ndim()) +
                                      "-dimensional, but " + std::to_string(mask.ndim()) + " were indexed");
  for (int d = 0; d < mask.ndim(); ++d)
    if (mask.shape()[d] != a.shape()[d])
      throw_error(ErrorKind::Index, "boolean index did not match indexed array along axis " + std::to_string(d) +
                                        "; size of axis is " + std::to_string(a.shape()[d]) +
                                        " but size of corresponding boolean axis is " + std::to_string(mask.shape()[d]));
}

Shape selected_shape(int64_t rows, const NDArray& a, int skip) {
  Shape shape{rows};
  for (int d = skip; d < a.ndim(); ++d) shape.push_back(a.shape()[d]);
  return shape;
}

// The number of selected rows, and the selected elements of `a` flattened, for a mask over a's
// leading dims (a 0-d mask selects the whole array once or not at all).
struct MaskSelection {
  int64_t rows;
  NDArray values;
};

MaskSelection select_rows(const NDArray& a, const NDArray& mask) {
  const int k = mask.ndim();
  int64_t inner = 1;
  for (int d = k; d < a.ndim(); ++d) inner *= a.shape()[d];
  if (inner == 0 || a.size() == 0) return {Selection(mask).count(), NDArray()};
  Selection sel(mask_over(mask, a));
  return {sel.count() / inner, sel.gather(a)};
}

}  // namespace

std::vector<NDArray> nonzero(const NDArray& a) {
  if (a.ndim() == 0)
    throw_error(ErrorKind::Value,
                "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.");
  NDArray rows = Selection(a).indices(Layout::PerDim);
  std::vector<NDArray> out;
  for (int d = 0; d < a.ndim(); ++d) out.push_back(rows.index(0, d));
  return out;
}

NDArray flatnonzero(const NDArray& a) { return Selection(a).indices(Layout::Flat); }

NDArray argwhere(const NDArray& a) { return Selection(a).indices(Layout::PerElement); }

NDArray extract(const NDArray& condition, const NDArray& arr) {
  if (condition.shape() == arr.shape()) return Selection(condition).gather(arr);
  if (condition.size() == arr.size()) return Selection(condition.reshape(Shape{condition.size()})).gather(arr.ravel());
  // numpy: take(ravel(arr), nonzero(ravel(condition))[0]): a shorter condition selects from the
  // first elements, a longer one may only add False entries.
  return take(arr, flatnonzero(condition), std::nullopt);
}

NDArray compress(const NDArray& condition, const NDArray& a, std::optional<int64_t> axis) {
  if (condition.ndim() != 1) throw_error(ErrorKind::Value, "condition must be a 1-d array");
  if (!axis) return compress(condition, a.ravel(), 0);
  const int ax = normalize_axis(*axis, a.ndim());
  if (condition.size() != a.shape()[ax] || a.size() == 0) return take(a, flatnonzero(condition), ax);
  // One pass over `a`: the condition strides along `axis` only. Dropping slices along one axis
  // keeps the C order of what remains, so the compacted elements are the result in C order.
  Strides strides(a.ndim(), 0);
  strides[ax] = condition.strides()[0];
  Selection sel(condition.view_as(a.shape(), strides, condition.raw_data()));
  Shape shape = a.shape();
  shape[ax] = sel.count() / (a.size() / a.shape()[ax]);
  return sel.gather(a).reshape(shape);
}

NDArray boolean_index(const NDArray& a, const NDArray& mask) {
  check_mask_shape(a, mask);
  MaskSelection s = select_rows(a, mask);
  Shape shape = selected_shape(s.rows, a, mask.ndim());
  if (!s.values.buffer()) return empty(shape, a.dtype());
  return s.values.reshape(shape);
}

void boolean_assign(const NDArray& a, const NDArray& mask, const NDArray& values) {
  check_mask_shape(a, mask);
  const int k = mask.ndim();
  // Values that are the same for every selected row (a scalar, or one row) need no count: a
  // masked copy over `a`, with no synchronization.
  const int rest = a.ndim() - k;
  if (values.ndim() <= rest || (values.ndim() == rest + 1 && values.shape()[0] == 1)) {
    NDArray row = values.ndim() == rest + 1 ? values.index(0, 0) : values;
    const Shape* shapes[] = {&a.shape(), &row.shape()};
    if (broadcast_shapes(shapes) == a.shape()) {
      const DType loop[] = {a.dtype(), a.dtype()};
      ops::ElementwiseSpec spec{static_cast<uint64_t>(ops::InternalOp::Copy), "out0 = in0;", 1, 1, loop};
      Operand in[] = {Operand::of(row)};
      NDArray where = mask_over(mask, a);
      ops::run_elementwise(spec, in, std::span(&a, 1), &where);
      return;
    }
  }
  Selection sel(mask_over(mask, a));
  int64_t inner = 1;
  for (int d = k; d < a.ndim(); ++d) inner *= a.shape()[d];
  const Shape target = selected_shape(inner ? sel.count() / inner : Selection(mask).count(), a, k);
  const Shape* shapes[] = {&target, &values.shape()};
  if (values.ndim() > static_cast<int>(target.size()) || broadcast_shapes(shapes) != target)
    throw_error(ErrorKind::Value, "NumPy boolean array indexing assignment cannot assign " +
                                      std::to_string(values.size()) + " input values to the " +
                                      std::to_string(sel.count()) + " output values where the mask is true");
  NDArray flat = empty(target, a.dtype());
  flat.assign(values);
  sel.scatter(a, flat);
}

}  // namespace cuarray
