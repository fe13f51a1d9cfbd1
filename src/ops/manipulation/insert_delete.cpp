// numpy.insert and numpy.delete. As in NumPy, the index bookkeeping runs on small host lists (the
// positions, their stable order, the masks of kept elements); the array work is copies of the
// slices either side of one position, one compress by a keep mask, or, for several inserted
// positions, an index assignment of the values and a mask assignment of the old elements.
#include <algorithm>
#include <charconv>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "cuarray/errors.hpp"
#include "cuarray/index_key.hpp"
#include "cuarray/indexing.hpp"
#include "cuarray/manipulation.hpp"
#include "cuarray/ufunc.hpp"
#include "ops/engines/gather/gather.hpp"

namespace cuarray {
namespace {

using Kind = AxisIndex::Kind;

constexpr const char* kNotIntegers = "arrays used as indices must be of integer (or boolean) type";

// The array and axis insert/delete work along: NumPy's axis=None means arr.ravel() and axis 0.
struct AlongAxis {
  NDArray arr;
  int axis;
  int64_t length() const { return arr.shape()[axis]; }
  NDArray part(int64_t lo, int64_t hi) const { return arr.slice(axis, lo, hi, 1); }  // arr[..., lo:hi, ...]
};

AlongAxis along_axis(const NDArray& arr, std::optional<int64_t> axis) {
  if (!axis) return {arr.ndim() == 1 ? arr : arr.ravel(), 0};
  return {arr, normalize_axis(*axis, arr.ndim())};
}

// The elements of an integer device array (C order) on the host: NumPy reads obj there too.
std::vector<int64_t> read_positions(const NDArray& a) {
  std::vector<int64_t> host(static_cast<size_t>(a.size()));
  a.astype(DType::Int64, false).copy_to_host(host.data());
  return host;
}

// ---- delete -----------------------------------------------------------------------------------

// arr without the positions [lo, hi) along the axis: the two sides joined.
NDArray without_run(const AlongAxis& t, int64_t lo, int64_t hi) {
  const NDArray sides[] = {t.part(0, lo), t.part(hi, t.length())};
  return concatenate(sides, t.axis);
}

NDArray delete_one(const AlongAxis& t, int64_t index) {
  const int64_t n = t.length();
  if (index < -n || index >= n) ops::raise_out_of_range(std::to_string(index), t.axis, n);
  if (index < 0) index += n;
  return without_run(t, index, index + 1);
}

// arr where `keep` (a host bool per position along the axis) is true.
NDArray compress_kept(const AlongAxis& t, const std::vector<uint8_t>& keep) {
  return compress(from_host(keep.data(), Shape{t.length()}, DType::Bool), t.arr, t.axis);
}

// NumPy's keep[positions] = False, whose IndexError names axis 0 of the 1-D keep mask.
NDArray delete_positions(const AlongAxis& t, const std::vector<int64_t>& positions) {
  if (positions.size() == 1) return delete_one(t, positions[0]);
  const int64_t n = t.length();
  std::vector<uint8_t> keep(static_cast<size_t>(n), 1);
  for (int64_t p : positions) {
    if (p < -n || p >= n) ops::raise_out_of_range(std::to_string(p), 0, n);
    keep[static_cast<size_t>(p < 0 ? p + n : p)] = 0;
  }
  return compress_kept(t, keep);
}

NDArray delete_slice(const AlongAxis& t, const AxisIndex& obj) {
  const SliceRange r = slice_range(t.length(), obj.start, obj.stop, obj.step);
  if (r.step == 1 || r.step == -1) {  // a contiguous run: the two sides
    if (r.length == 0) return t.arr.copy(Order::C);
    const int64_t lo = r.step == 1 ? r.start : r.start - r.length + 1;
    return without_run(t, lo, lo + r.length);
  }
  std::vector<uint8_t> keep(static_cast<size_t>(t.length()), 1);
  for (int64_t k = 0; k < r.length; ++k) keep[static_cast<size_t>(r.start + k * r.step)] = 0;
  return compress_kept(t, keep);
}

NDArray delete_array(const AlongAxis& t, const NDArray& obj) {
  static const Ufunc& logical_not = ufunc("logical_not");
  const int64_t n = t.length();
  if (obj.dtype() == DType::Bool) {
    if (obj.shape() != Shape{n})
      throw_error(ErrorKind::Value, "boolean array argument obj to delete must be one dimensional and match the axis "
                                    "length of " + std::to_string(n));
    return compress(logical_not(obj), t.arr, t.axis);
  }
  if (!is_integer(obj.dtype())) throw_error(ErrorKind::Index, kNotIntegers);
  return delete_positions(t, read_positions(obj));
}

// ---- insert -----------------------------------------------------------------------------------

// A shape as NumPy's assignment errors print it: "(4,2)", "(3,)".
std::string compact_shape(const Shape& shape) {
  std::string s = shape_repr(shape);
  std::erase(s, ' ');
  return s;
}

// `v` as NumPy's setitem takes a value for a destination of `ndim` axes: leading length-1 axes
// beyond that many are dropped.
NDArray without_leading_ones(const NDArray& v, size_t ndim) {
  const Shape& shape = v.shape();
  size_t drop = 0;
  while (shape.size() - drop > ndim && shape[drop] == 1) ++drop;
  return drop == 0 ? v : v.reshape(Shape(shape.begin() + drop, shape.end()));
}

// Whether an array of shape `from` broadcasts to `to`.
bool broadcasts_to(const Shape& from, const Shape& to) {
  if (from.size() > to.size()) return false;
  const size_t lead = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i)
    if (from[i] != 1 && from[i] != to[lead + i]) return false;
  return true;
}

// NumPy's `indices` in insert: the positions obj names, and whether they came as a scalar (0-d).
struct InsertPositions {
  std::vector<int64_t> at;
  bool scalar = false;
};

// obj as NumPy's message prints it: a scalar as itself, a one-element list in brackets.
std::string shown_position(const std::string& value, bool scalar) {
  if (scalar) return value;
  std::string s = "[";
  s += value;
  s += ']';
  return s;
}

// A float as Python's repr prints it: the shortest digits that read back, "7.0" rather than "7".
std::string float_repr(double v) {
  char buf[32];
  std::string s(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

// NumPy's insert with one position that is not an integer (a one-element float array): the
// position is compared with the bounds, then used as a slice bound, which Python refuses.
[[noreturn]] void reject_inexact_position(const AlongAxis& t, const NDArray& obj) {
  if (is_complex(obj.dtype())) throw_error(ErrorKind::Type, "'<' not supported between instances of 'complex' and 'int'");
  double v = 0;
  obj.astype(DType::Float64).copy_to_host(&v);
  const int64_t n = t.length();
  if (v < static_cast<double>(-n) || v > static_cast<double>(n))
    ops::raise_out_of_range(shown_position(float_repr(v), obj.ndim() == 0), t.axis, n);
  throw_error(ErrorKind::Type, "slice indices must be integers or None or have an __index__ method");
}

InsertPositions insert_positions(const AlongAxis& t, const AxisIndex& obj) {
  if (obj.kind == Kind::Integer) return {{obj.value}, true};
  if (obj.kind == Kind::Positions) return {obj.positions, false};
  if (obj.kind == Kind::Slice) {
    const SliceRange r = slice_range(t.length(), obj.start, obj.stop, obj.step);
    InsertPositions p;
    for (int64_t k = 0; k < r.length; ++k) p.at.push_back(r.start + k * r.step);
    return p;
  }
  const NDArray& a = obj.array;
  if (a.dtype() == DType::Bool) {  // the mask's flatnonzero, on the host
    if (a.ndim() != 1) throw_error(ErrorKind::Value, "boolean array argument obj to insert must be one dimensional");
    std::vector<uint8_t> mask(static_cast<size_t>(a.size()));
    a.copy_to_host(mask.data());
    InsertPositions p;
    for (size_t i = 0; i < mask.size(); ++i)
      if (mask[i]) p.at.push_back(static_cast<int64_t>(i));
    return p;
  }
  if (a.ndim() > 1) throw_error(ErrorKind::Value, "index array argument obj to insert must be one dimensional or scalar");
  if (!is_integer(a.dtype())) {
    if (a.size() == 1) reject_inexact_position(t, a);
    throw_error(ErrorKind::Index, kNotIntegers);
  }
  return {read_positions(a), a.ndim() == 0};
}

// `values` (cast to arr's dtype) inserted as one block before `index`. A scalar position inserts
// them as arr[..., i, ...] would be assigned (NumPy moves values' first axis to `axis`), a
// one-element list as arr[..., [i], ...].
NDArray insert_block(const AlongAxis& t, int64_t index, bool scalar, const NDArray& values) {
  const int64_t n = t.length();
  if (index < -n || index > n)
    ops::raise_out_of_range(shown_position(std::to_string(index), scalar), t.axis, n);
  if (index < 0) index += n;
  // Cast only now: NumPy converts values after checking the position.
  NDArray block = values.astype(t.arr.dtype(), false);
  if (block.ndim() < t.arr.ndim()) {  // NumPy's array(values, ndmin=arr.ndim)
    Shape shape(static_cast<size_t>(t.arr.ndim() - block.ndim()), 1);
    for (int64_t s : block.shape()) shape.push_back(s);
    block = block.reshape(shape);
  }
  if (scalar) {
    const int64_t first[] = {0}, axis[] = {t.axis};
    block = moveaxis(block, first, axis);
  }
  const int64_t count = block.shape()[t.axis];
  Shape slot = t.arr.shape();
  slot[t.axis] = count;
  // Checked before anything is allocated or copied; the message is NumPy's setitem's.
  block = without_leading_ones(block, slot.size());
  if (!broadcasts_to(block.shape(), slot))
    throw_error(ErrorKind::Value, "could not broadcast input array from shape " + compact_shape(block.shape()) +
                                      " into shape " + compact_shape(slot));
  Shape shape = t.arr.shape();
  shape[t.axis] += count;
  const AlongAxis result{empty(shape, t.arr.dtype()), t.axis};
  result.part(0, index).assign(t.part(0, index));
  result.part(index, index + count).assign(block);
  result.part(index + count, result.length()).assign(t.part(index, n));
  return result.arr;
}

// `values` (cast to arr's dtype, broadcast to one slot per position) inserted before several
// positions. Each position moves past the values inserted before it (in the stable order of the
// positions, so equal ones keep obj's order); then, along the axis moved first,
// result[positions] = values and result[old elements] = arr.
NDArray insert_slots(const AlongAxis& t, std::vector<int64_t> at, const NDArray& values) {
  const int64_t n = t.length(), count = static_cast<int64_t>(at.size());
  for (int64_t& p : at)
    if (p < 0) p += n;
  std::vector<size_t> order(at.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return at[a] < at[b]; });
  for (size_t k = 0; k < order.size(); ++k) at[order[k]] += static_cast<int64_t>(k);
  Shape shape = t.arr.shape();
  shape[t.axis] += count;
  const int64_t total = shape[t.axis];
  // NumPy's old_mask[positions] = False, with its IndexError for a position past the end.
  std::vector<uint8_t> old(static_cast<size_t>(total), 1);
  for (int64_t& p : at) {
    if (p < -total || p >= total) ops::raise_out_of_range(std::to_string(p), 0, total);
    if (p < 0) p += total;
    old[static_cast<size_t>(p)] = 0;
  }
  Shape slots = shape;
  slots[t.axis] = count;
  const NDArray fitted = without_leading_ones(values, slots.size());
  if (!broadcasts_to(fitted.shape(), slots))  // NumPy's message for new[..., positions, ...] = values
    throw_error(ErrorKind::Value, "shape mismatch: value array of shape " + compact_shape(values.shape()) +
                                      " could not be broadcast to indexing result of shape " + compact_shape(slots));
  const NDArray slot_values = fitted.astype(t.arr.dtype(), false).broadcast_to(slots);
  NDArray out = empty(shape, t.arr.dtype());
  const int64_t axis[] = {t.axis}, first[] = {0};
  const NDArray front = moveaxis(out, axis, first);
  const NDArray positions = from_host(at.data(), Shape{count}, DType::Int64);
  const IndexItem key[] = {IndexItem::index_array(positions)};
  setitem(front, key, moveaxis(slot_values, axis, first));
  boolean_assign(front, from_host(old.data(), Shape{total}, DType::Bool), moveaxis(t.arr, axis, first));
  return out;
}

}  // namespace

NDArray delete_(const NDArray& arr, const AxisIndex& obj, std::optional<int64_t> axis) {
  const AlongAxis t = along_axis(arr, axis);
  switch (obj.kind) {
    case Kind::Integer: return delete_one(t, obj.value);
    case Kind::Slice: return delete_slice(t, obj);
    case Kind::Positions: return delete_positions(t, obj.positions);
    case Kind::Array: break;
  }
  return delete_array(t, obj.array);
}

NDArray insert(const NDArray& arr, const AxisIndex& obj, const NDArray& values, std::optional<int64_t> axis) {
  const AlongAxis t = along_axis(arr, axis);
  InsertPositions p = insert_positions(t, obj);
  if (p.at.size() == 1) return insert_block(t, p.at[0], p.scalar, values);
  return insert_slots(t, std::move(p.at), values);
}

}  // namespace cuarray
