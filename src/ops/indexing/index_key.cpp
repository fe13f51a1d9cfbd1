// a[key] and a[key] = v for every NumPy index key (include/cuarray/index_key.hpp, docs/indexing.md).
//
// A key is planned in two steps. The basic items (integers, slices, None, Ellipsis) become a view
// of `a` in which the dims addressed by index arrays stay whole; the advanced items become one
// integer index array per addressed dim (a boolean array of rank k gives its k nonzero() arrays),
// all broadcast to one shape B. The work is then the one gather/scatter kernel (gather.cuh) with
// the addressed dims as its indexed group: one index array is used where it lies; several are
// first combined into one flat index over the group (combine_indices.cuh). Either way the host
// waits once, for the bounds flag, besides one wait per boolean array (its count).
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "runtime/memory/host_flag.hpp"
#include "ops/engines/gather/combine_indices.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/index_key.hpp"
#include "cuarray/indexing.hpp"
#include "ops/engines/gather/gather.hpp"

namespace cuarray {
namespace {

using Kind = IndexItem::Kind;

// One integer index array over one dim of the plan's view.
struct IndexEntry {
  NDArray array;  // integer dtype; uint64 is seen as int64, as NumPy casts indices to intp
  int dim;        // the view dim it addresses
  int axis;       // a's axis, named by IndexError
};

// A key applied to `a`: the view of its basic items and the index arrays of the others.
struct IndexPlan {
  NDArray view;                       // the addressed dims kept whole, in key order
  SmallVector<uint8_t, 16> addressed; // per view dim: 1 when an index array addresses it
  std::vector<IndexEntry> entries;    // in key order
  std::vector<Shape> listed;          // every advanced index's shape (0-d booleans too), for errors
  const NDArray* mask = nullptr;      // the key's only advanced item, a boolean array over view dims 0..k-1
  int before = 0;                     // result dims ahead of the broadcast dims
  Shape broadcast;                    // B
  Shape result;                       // the shape of a[key]
};

// Shapes as NumPy's indexing messages print them: "(2,3)", "(4,)", "()".
std::string compact_repr(const Shape& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(shape[i]);
  }
  return s + (shape.size() == 1 ? ",)" : ")");
}


bool is_index_dtype(DType t) { return is_integer(t) || t == DType::Bool; }

int consumed_dims(const IndexItem& item) {
  switch (item.kind) {
    case Kind::Integer:
    case Kind::Slice: return 1;
    case Kind::Array: return item.array->dtype() == DType::Bool ? item.array->ndim() : 1;
    default: return 0;
  }
}

bool truth_of(const NDArray& zero_d_bool) {
  uint8_t b = 0;
  zero_d_bool.copy_to_host(&b);
  return b != 0;
}

IndexPlan plan_index(const NDArray& a, IndexKey key) {
  int consumed = 0, ellipses = 0;
  bool advanced = false;
  for (const IndexItem& item : key) {
    consumed += consumed_dims(item);
    if (item.kind == Kind::Ellipsis && ++ellipses > 1)
      throw_error(ErrorKind::Index, "an index can only have a single ellipsis ('...')");
    if (item.kind == Kind::Array && !is_index_dtype(item.array->dtype()))
      throw_error(ErrorKind::Index, "arrays used as indices must be of integer (or boolean) type");
    advanced = advanced || item.kind == Kind::Array || item.kind == Kind::Boolean;
  }
  if (consumed > a.ndim())
    throw_error(ErrorKind::Index, "too many indices for array: array is " + std::to_string(a.ndim()) +
                                      "-dimensional, but " + std::to_string(consumed) + " were indexed");
  IndexPlan p;
  Shape shape;
  Strides strides;
  char* data = a.raw_data();
  int dim = 0;           // next dim of `a`
  int result_dims = 0;   // non-addressed view dims so far
  int run = 0;           // advanced items: 0 none yet, 1 in a run, 2 after a run
  bool adjacent = true;
  int array_items = 0;
  std::vector<std::pair<const NDArray*, int>> masks;  // boolean arrays and their first view dim
  std::vector<int> mask_axes;                         // a's axis each starts at
  std::vector<size_t> mask_listed;                    // where their nonzero shapes go in p.listed
  auto keep = [&](int64_t len, int64_t stride, bool addressed) {
    shape.push_back(len);
    strides.push_back(stride);
    p.addressed.push_back(addressed);
    if (!addressed) ++result_dims;
  };
  for (const IndexItem& item : key) {
    const bool is_advanced = item.kind == Kind::Array || item.kind == Kind::Boolean ||
                             (advanced && item.kind == Kind::Integer);
    if (is_advanced) {
      if (run == 2) adjacent = false;
      if (run == 0) p.before = result_dims;
      run = 1;
    } else if (run == 1) {
      run = 2;
    }
    switch (item.kind) {
      case Kind::NewAxis: keep(1, 0, false); break;
      case Kind::Ellipsis:
        for (int e = 0; e < a.ndim() - consumed; ++e, ++dim) keep(a.shape()[dim], a.strides()[dim], false);
        break;
      case Kind::Slice: {
        const SliceRange r = slice_range(a.shape()[dim], item.start, item.stop, item.step);
        if (r.length > 0) data += r.start * a.strides()[dim];
        keep(r.length, a.strides()[dim] * r.step, false);
        ++dim;
        break;
      }
      case Kind::Integer: {
        const int64_t len = a.shape()[dim];
        if (item.value < -len || item.value >= len) ops::raise_out_of_range(std::to_string(item.value), dim, len);
        data += (item.value < 0 ? item.value + len : item.value) * a.strides()[dim];
        ++dim;
        break;
      }
      case Kind::Boolean: p.listed.push_back(Shape{item.value}); break;
      case Kind::Array: {
        const NDArray& arr = *item.array;
        ++array_items;
        if (arr.dtype() != DType::Bool) {
          NDArray index = arr.dtype() == DType::UInt64 ? arr.view(DType::Int64) : arr;
          p.entries.push_back({index, static_cast<int>(shape.size()), dim});
          p.listed.push_back(arr.shape());
          keep(a.shape()[dim], a.strides()[dim], true);
          ++dim;
        } else if (arr.ndim() == 0) {  // a 0-d boolean array: numpy's True/False
          p.listed.push_back(Shape{truth_of(arr) ? 1 : 0});
        } else {
          for (int j = 0; j < arr.ndim(); ++j)
            if (arr.shape()[j] != a.shape()[dim + j])
              throw_error(ErrorKind::Index, "boolean index did not match indexed array along axis " +
                                                std::to_string(dim + j) + "; size of axis is " +
                                                std::to_string(a.shape()[dim + j]) +
                                                " but size of corresponding boolean axis is " + std::to_string(arr.shape()[j]));
          masks.emplace_back(&arr, static_cast<int>(shape.size()));
          mask_axes.push_back(dim);
          mask_listed.push_back(p.listed.size());
          p.listed.resize(p.listed.size() + arr.ndim());
          for (int j = 0; j < arr.ndim(); ++j, ++dim) keep(a.shape()[dim], a.strides()[dim], true);
        }
        break;
      }
    }
  }
  for (; dim < a.ndim(); ++dim) keep(a.shape()[dim], a.strides()[dim], false);
  p.view = a.view_as(shape, strides, data);
  if (!adjacent) p.before = 0;

  // One boolean array at the front of the view, alone: the compaction engine's a[mask] applies.
  if (masks.size() == 1 && array_items == 1 && p.listed.size() == static_cast<size_t>(masks[0].first->ndim()) &&
      masks[0].second == 0) {
    p.mask = masks[0].first;
    return p;
  }
  // The boolean arrays become their nonzero() arrays, in key order among the integer arrays.
  for (size_t m = 0; m < masks.size(); ++m) {
    const auto [mask, first] = masks[m];
    std::vector<NDArray> nz = nonzero(*mask);
    auto at = std::find_if(p.entries.begin(), p.entries.end(), [&](const IndexEntry& e) { return e.dim > first; });
    const int pos = static_cast<int>(at - p.entries.begin());
    for (int j = 0; j < mask->ndim(); ++j) {
      p.entries.insert(p.entries.begin() + pos + j, IndexEntry{nz[j], first + j, mask_axes[m] + j});
      p.listed[mask_listed[m] + j] = nz[j].shape();
    }
  }
  return p;
}

// B and the result shape, or IndexError when the index arrays do not broadcast.
void plan_shapes(IndexPlan& p) {
  size_t rank = 0;
  for (const Shape& s : p.listed) rank = std::max(rank, s.size());
  Shape b(rank, 1);
  bool ok = true;
  for (const Shape& s : p.listed)
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t& d = b[rank - s.size() + i];
      if (s[i] == d || s[i] == 1) continue;
      if (d == 1) d = s[i];
      else ok = false;
    }
  if (!ok) {
    std::string msg = "shape mismatch: indexing arrays could not be broadcast together with shapes ";
    for (const Shape& s : p.listed) msg += compact_repr(s) + " ";
    throw_error(ErrorKind::Index, msg);
  }
  p.broadcast = b;
  const Shape& vs = p.view.shape();
  for (size_t d = 0; d < vs.size(); ++d)
    if (!p.addressed[d]) p.result.push_back(vs[d]);
  for (size_t i = 0; i < b.size(); ++i) p.result.insert(p.before + i, b[i]);
}

// The first index out of range, in key order then C order, as NumPy names it (only after the
// device flagged one: this copies the index arrays to the host).
[[noreturn]] void raise_first_out_of_bounds(const IndexPlan& p) {
  for (const IndexEntry& e : p.entries) ops::check_in_range(e.array, p.view.shape()[e.dim], e.axis, true);
  throw_error(ErrorKind::Index, "index out of bounds");
}

void check_flag(const std::optional<runtime::HostFlag>& flag, const IndexPlan& p) {
  if (flag->raised()) raise_first_out_of_bounds(p);
}

// Strides over the result shape: `inner` (strides over B) at B's place, the view's own strides
// on its dims that no index addresses.
Strides over_result(const IndexPlan& p, const Strides& inner, bool with_view_dims) {
  Strides out;
  const Shape& vs = p.view.shape();
  for (size_t d = 0; d < vs.size(); ++d)
    if (!p.addressed[d]) out.push_back(with_view_dims ? p.view.strides()[d] : 0);
  for (size_t i = 0; i < inner.size(); ++i) out.insert(p.before + i, inner[i]);
  return out;
}

// The indexed group: the addressed dims in key order.
ops::IndexedArray indexed_view(const IndexPlan& p) {
  ops::IndexedArray a{p.view, over_result(p, Strides(p.broadcast.size(), 0), true), {}, {}, 0};
  for (const IndexEntry& e : p.entries) {
    a.group_shape.push_back(p.view.shape()[e.dim]);
    a.group_strides.push_back(p.view.strides()[e.dim]);
  }
  a.axis = p.entries.empty() ? 0 : p.entries[0].axis;
  return a;
}

// An index usable by the gather/scatter kernel over the result shape: the lone index array where
// it lies (its bounds checked by that kernel, mode raise), else the combined flat index (checked
// by the combine kernel: `flag`, mode clip).
struct GroupIndex {
  ops::IndexOperand operand;
  IndexMode mode;
  std::optional<runtime::HostFlag> flag;  // the combine kernel's bounds flag (mode clip)
};

GroupIndex group_index(const IndexPlan& p) {
  const Strides positions = over_result(p, c_strides(p.broadcast, 1), false);
  int64_t group = 1;
  for (const IndexEntry& e : p.entries) group *= p.view.shape()[e.dim];
  if (p.entries.size() == 1 && group > 0 && shape_size(p.result) > 0) {
    NDArray index = p.entries[0].array.broadcast_to(p.broadcast);
    return {{p.entries[0].array, over_result(p, index.strides(), false), positions}, IndexMode::Raise, std::nullopt};
  }
  std::vector<NDArray> views;
  std::vector<int64_t> lens;
  for (const IndexEntry& e : p.entries) {
    views.push_back(e.array.broadcast_to(p.broadcast));
    lens.push_back(p.view.shape()[e.dim]);
  }
  std::optional<runtime::HostFlag> flag(std::in_place, p.view.device());
  NDArray flat = ops::combine_indices(views, lens, flag->device_word());
  return {{flat, over_result(p, flat.strides(), false), positions}, IndexMode::Clip, std::move(flag)};
}

// The view of a key whose advanced items are only integers and 0-d booleans: B (all ones, or
// holding a 0) as stride-0 dims at its place.
NDArray broadcast_view(const IndexPlan& p) {
  return p.view.view_as(p.result, over_result(p, Strides(p.broadcast.size(), 0), true), p.view.raw_data());
}

// `values` as a[key] = values sees them: extra leading length-1 dims dropped, broadcast to the
// result shape, in a's dtype, never sharing memory with `a`.
NDArray values_for(const NDArray& a, const NDArray& values, const Shape& result) {
  NDArray v = values;
  while (v.ndim() > static_cast<int>(result.size()) && v.shape()[0] == 1) v = v.index(0, 0);
  bool ok = v.ndim() <= static_cast<int>(result.size());
  for (int i = 0; ok && i < v.ndim(); ++i) {
    const int64_t n = v.shape()[v.ndim() - 1 - i], r = result[result.size() - 1 - i];
    ok = n == r || n == 1;
  }
  if (!ok)
    throw_error(ErrorKind::Value, "shape mismatch: value array of shape " + compact_repr(values.shape()) +
                                      " could not be broadcast to indexing result of shape " + compact_repr(result));
  const bool shares = v.buffer() && v.buffer() == a.buffer();
  if (v.dtype() != a.dtype() || shares) v = v.astype(a.dtype());
  return v.broadcast_to(result);
}

}  // namespace
}  // namespace cuarray

namespace cuarray {

bool is_basic_key(IndexKey key) {
  for (const IndexItem& item : key)
    if (item.kind == Kind::Array || item.kind == Kind::Boolean) return false;
  return true;
}

NDArray basic_view(const NDArray& a, IndexKey key) {
  if (!is_basic_key(key)) throw_error(ErrorKind::Value, "basic_view: the key holds index arrays or booleans");
  return plan_index(a, key).view;
}

NDArray getitem(const NDArray& a, IndexKey key) {
  IndexPlan p = plan_index(a, key);
  if (is_basic_key(key)) return p.view;
  if (p.mask) return boolean_index(p.view, *p.mask);
  plan_shapes(p);
  if (p.entries.empty()) return broadcast_view(p).copy(Order::C);
  NDArray out = empty(p.result, a.dtype());
  if (shape_size(p.broadcast) == 0) return out;
  GroupIndex index = group_index(p);
  if (index.mode == IndexMode::Raise) {
    ops::run_gather(out, indexed_view(p), index.operand, IndexMode::Raise);
    return out;
  }
  ops::IndexedArray src = indexed_view(p);
  // An empty group has nothing to gather from: every index is out of range (flagged).
  if (out.size() == 0 || shape_size(src.group_shape) == 0) {
    check_flag(index.flag, p);
    return out;
  }
  ops::run_gather(out, src, index.operand, IndexMode::Clip);
  check_flag(index.flag, p);  // a bad index was gathered as index 0: the result is dropped
  return out;
}

void setitem(const NDArray& a, IndexKey key, const NDArray& values) {
  IndexPlan p = plan_index(a, key);
  if (is_basic_key(key)) {
    p.view.assign(values);
    return;
  }
  if (p.mask) {
    boolean_assign(p.view, *p.mask, values);
    return;
  }
  plan_shapes(p);
  NDArray v = values_for(a, values, p.result);
  if (p.entries.empty()) {
    broadcast_view(p).assign(v);
    return;
  }
  if (shape_size(p.broadcast) == 0) return;
  // The index is read while `a` is written: an index array in a's memory (a[a] = v) is copied first.
  for (IndexEntry& e : p.entries)
    if (e.array.buffer() && e.array.buffer() == a.buffer()) e.array = e.array.copy(Order::C);
  GroupIndex index = group_index(p);
  if (index.mode == IndexMode::Clip) check_flag(index.flag, p);  // nothing is written past a bad index
  if (shape_size(p.result) == 0) return;
  ops::run_scatter(indexed_view(p), v, index.operand, index.mode);
}

}  // namespace cuarray
