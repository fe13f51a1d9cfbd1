// ufunc.at: NumPy's indexing rules turn the index into a selection (basic items into a strided
// view, integer arrays into broadcast index operands), then the scatter-combine engine applies the
// ufunc's loop element by element.
#include <string>

#include "core/array_checks.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/ufunc_methods.hpp"
#include "ops/engines/scatter_combine/scatter_combine.hpp"
#include "ops/ufunc/ufunc_table.hpp"

namespace cuarray {
namespace {

using Kind = AtIndexItem::Kind;


void check_arity(const Ufunc& u, bool has_b) {
  if (u.nout() != 1) throw_error(ErrorKind::Value, "Only single output ufuncs supported at this time");
  if (u.nin() > 2) throw_error(ErrorKind::Value, "Only unary and binary ufuncs supported at this time");
  if (u.nin() == 1 && has_b) throw_error(ErrorKind::Value, "second operand provided when ufunc is unary");
  if (u.nin() == 2 && !has_b) throw_error(ErrorKind::Value, "second operand needed for ufunc");
}

// NumPy places the broadcast dims of the index arrays where the first of them stands when every
// advanced item (arrays, and integers next to them) is adjacent, else in front.
bool advanced_items_adjacent(std::span<const AtIndexItem> index) {
  int first = -1, last = -1, count = 0;
  for (int i = 0; i < static_cast<int>(index.size()); ++i) {
    if (index[i].kind != Kind::Array && index[i].kind != Kind::Integer) continue;
    if (first < 0) first = i;
    last = i;
    ++count;
  }
  return count == 0 || last - first + 1 == count;
}

}  // namespace

void ufunc_at(const Ufunc& u, const NDArray& a, std::span<const AtIndexItem> index, const Operand* b) {
  check_arity(u, b != nullptr);
  int consumed = 0;
  bool advanced = false;
  SmallVector<const Shape*, 8> index_shapes;
  for (const AtIndexItem& item : index) {
    if (item.kind != Kind::NewAxis) ++consumed;
    if (item.kind != Kind::Array) continue;
    advanced = true;
    if (!is_integer(item.array.dtype()))
      throw_error(ErrorKind::Index, "arrays used as indices must be of integer (or boolean) type");
    index_shapes.push_back(&item.array.shape());
  }
  if (consumed > a.ndim())
    throw_error(ErrorKind::Index, "too many indices for array: array is " + std::to_string(a.ndim()) +
                                      "-dimensional, but " + std::to_string(consumed) + " were indexed");
  Shape broadcast;
  if (advanced) {
    try {
      broadcast = broadcast_shapes(std::span<const Shape* const>(index_shapes.data(), index_shapes.size()));
    } catch (const Error&) {
      std::string shapes;
      for (const Shape* s : index_shapes) shapes += " " + shape_repr(*s);
      throw_error(ErrorKind::Index, "shape mismatch: indexing arrays could not be broadcast together with shapes" + shapes);
    }
  }
  const bool in_place = advanced_items_adjacent(index);

  // Walk the items: basic ones become selection dims, integer arrays index operands; the
  // broadcast dims go in at `advanced_at`.
  ops::ScatterSelection sel;
  sel.base = a.raw_data();
  int advanced_at = in_place ? -1 : 0;
  int dim = 0;
  struct Pending {
    const NDArray* array;
    int axis;
  };
  SmallVector<Pending, 4> arrays;
  auto take_dims = [&](int64_t len, int64_t stride) {
    sel.shape.push_back(len);
    sel.strides.push_back(stride);
  };
  for (const AtIndexItem& item : index) {
    switch (item.kind) {
      case Kind::NewAxis:
        take_dims(1, 0);
        break;
      case Kind::Integer: {
        const int64_t len = a.shape()[dim];
        if (item.start < -len || item.start >= len)
          throw_error(ErrorKind::Index, "index " + std::to_string(item.start) + " is out of bounds for axis " +
                                            std::to_string(dim) + " with size " + std::to_string(len));
        sel.base += (item.start < 0 ? item.start + len : item.start) * a.strides()[dim];
        if (advanced && advanced_at < 0) advanced_at = static_cast<int>(sel.shape.size());
        ++dim;
        break;
      }
      case Kind::Slice:
        if (item.length > 0) sel.base += item.start * a.strides()[dim];
        take_dims(item.length, a.strides()[dim] * item.step);
        ++dim;
        break;
      case Kind::Array:
        if (advanced_at < 0) advanced_at = static_cast<int>(sel.shape.size());
        arrays.push_back({&item.array, dim});
        ++dim;
        break;
    }
  }
  for (; dim < a.ndim(); ++dim) take_dims(a.shape()[dim], a.strides()[dim]);
  if (advanced) {
    // Insert the broadcast dims (stride 0 in the target: the index arrays address them).
    Shape shape;
    Strides strides;
    for (int d = 0; d <= static_cast<int>(sel.shape.size()); ++d) {
      if (d == advanced_at)
        for (int64_t len : broadcast) {
          shape.push_back(len);
          strides.push_back(0);
        }
      if (d < static_cast<int>(sel.shape.size())) {
        shape.push_back(sel.shape[d]);
        strides.push_back(sel.strides[d]);
      }
    }
    sel.shape = std::move(shape);
    sel.strides = std::move(strides);
    for (const Pending& p : arrays) {
      // An index array that aliases the target is read from a copy: the updates must not move it.
      const NDArray array = same_buffer(*p.array, a) ? p.array->copy() : *p.array;
      const Strides inner = broadcast_strides(array.shape(), array.strides(), broadcast);
      Strides strides_over_selection(sel.shape.size(), 0);
      for (size_t k = 0; k < broadcast.size(); ++k) strides_over_selection[advanced_at + k] = inner[k];
      sel.indices.push_back(ops::ScatterIndex{array, strides_over_selection, p.axis, a.shape()[p.axis], a.strides()[p.axis]});
    }
  }

  // Loop resolution as a ufunc call on (a, b), with b a strong array (NumPy converts it with
  // asarray, so Python scalars take their default dtype here).
  Operand value;
  NDArray value_copy;
  OperandType types[2] = {OperandType{a.dtype()}, {}};
  if (b) {
    value = *b;
    if (value.is_scalar()) {
      if (value.scalar.weak()) value.scalar.dtype = value.scalar.default_dtype();
      types[1] = OperandType{*value.scalar.dtype};
    } else {
      check_device(*value.array, a.device(), "b");
      if (same_buffer(*value.array, a)) {
        value_copy = value.array->copy();
        value = Operand::of(value_copy);
      }
      types[1] = OperandType{value.array->dtype()};
    }
  }
  const ops::LoopChoice choice =
      ops::resolve_loop(u.index(), std::span<const OperandType>(types, u.nin()), std::nullopt, Casting::SameKind);
  ops::scatter_combine(u.index(), *choice.loop, a, sel, b ? &value : nullptr, ops::OutOfRange::Raise);
}

}  // namespace cuarray
