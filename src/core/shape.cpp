#include "cuarray/shape.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "cuarray/errors.hpp"

namespace cuarray {

int64_t shape_size(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::string shape_repr(const Shape& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

Strides c_strides(const Shape& shape, int64_t itemsize) {
  Strides s(shape.size());
  int64_t acc = itemsize;
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = acc;
    acc *= std::max<int64_t>(shape[i], 1);
  }
  return s;
}

Strides f_strides(const Shape& shape, int64_t itemsize) {
  Strides s(shape.size());
  int64_t acc = itemsize;
  for (size_t i = 0; i < shape.size(); ++i) {
    s[i] = acc;
    acc *= std::max<int64_t>(shape[i], 1);
  }
  return s;
}

Strides strides_like(const Shape& shape, const Strides& like, int64_t itemsize) {
  const size_t n = shape.size();
  SmallVector<int, 8> perm;
  for (size_t i = 0; i < n; ++i) perm.push_back(static_cast<int>(i));
  std::stable_sort(perm.begin(), perm.end(),
                   [&](int a, int b) { return std::llabs(like[a]) > std::llabs(like[b]); });
  Strides out(n);
  int64_t acc = itemsize;
  for (size_t k = n; k-- > 0;) {
    out[perm[k]] = acc;
    acc *= std::max<int64_t>(shape[perm[k]], 1);
  }
  return out;
}

// NumPy's rule: dimensions of length 1 do not constrain their stride; empty arrays are contiguous.
bool is_c_contiguous(const Shape& shape, const Strides& strides, int64_t itemsize) {
  if (shape_size(shape) == 0) return true;
  int64_t expected = itemsize;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] != 1) {
      if (strides[i] != expected) return false;
      expected *= shape[i];
    }
  }
  return true;
}

bool is_f_contiguous(const Shape& shape, const Strides& strides, int64_t itemsize) {
  if (shape_size(shape) == 0) return true;
  int64_t expected = itemsize;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] != 1) {
      if (strides[i] != expected) return false;
      expected *= shape[i];
    }
  }
  return true;
}

Shape broadcast_shapes(std::span<const Shape* const> shapes) {
  size_t ndim = 0;
  for (const Shape* s : shapes) ndim = std::max(ndim, s->size());
  Shape out(ndim, 1);
  for (const Shape* s : shapes) {
    size_t offset = ndim - s->size();
    for (size_t i = 0; i < s->size(); ++i) {
      int64_t d = (*s)[i];
      int64_t& o = out[offset + i];
      if (d == o || d == 1) continue;
      if (o == 1) {
        o = d;
        continue;
      }
      std::string msg = "operands could not be broadcast together with shapes";
      for (const Shape* t : shapes) msg += " " + shape_repr(*t);
      throw_error(ErrorKind::Value, msg);
    }
  }
  return out;
}

Strides broadcast_strides(const Shape& shape, const Strides& strides, const Shape& target) {
  Strides out(target.size(), 0);
  size_t offset = target.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i)
    out[offset + i] = (shape[i] == 1 && target[offset + i] != 1) ? 0 : strides[i];
  return out;
}

Shape resolve_reshape(const Shape& new_shape, int64_t size) {
  Shape out = new_shape;
  int unknown = -1;
  int64_t known = 1;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == -1) {
      if (unknown >= 0) throw_error(ErrorKind::Value, "can only specify one unknown dimension");
      unknown = static_cast<int>(i);
    } else if (out[i] < 0) {
      throw_error(ErrorKind::Value, "negative dimensions not allowed");
    } else {
      known *= out[i];
    }
  }
  if (unknown >= 0) {
    if (known == 0 || size % known != 0)
      throw_error(ErrorKind::Value, "cannot reshape array of size " + std::to_string(size) + " into shape " +
                                        shape_repr(new_shape));
    out[unknown] = size / known;
  } else if (known != size) {
    throw_error(ErrorKind::Value,
                "cannot reshape array of size " + std::to_string(size) + " into shape " + shape_repr(new_shape));
  }
  return out;
}

// A port of NumPy's _attempt_nocopy_reshape: walk old and new dims in matching groups of equal
// element count; a group can be re-strided only if the old dims inside it are contiguous.
std::optional<Strides> reshape_strides(const Shape& shape, const Strides& strides, const Shape& new_shape,
                                       int64_t itemsize, Order order) {
  Shape old_dims;
  Strides old_strides;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] != 1) {
      old_dims.push_back(shape[i]);
      old_strides.push_back(strides[i]);
    }
  }
  const size_t oldnd = old_dims.size(), newnd = new_shape.size();
  Strides out(newnd, 0);
  if (shape_size(shape) == 0) {  // any strides work for an empty array
    return order == Order::F ? f_strides(new_shape, itemsize) : c_strides(new_shape, itemsize);
  }
  size_t oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < newnd && oi < oldnd) {
    int64_t np_ = new_shape[ni], op = old_dims[oi];
    while (np_ != op) {
      if (np_ < op) np_ *= new_shape[nj++];
      else op *= old_dims[oj++];
    }
    for (size_t ok = oi; ok + 1 < oj; ++ok) {
      if (order == Order::F) {
        if (old_strides[ok + 1] != old_dims[ok] * old_strides[ok]) return std::nullopt;
      } else if (old_strides[ok] != old_dims[ok + 1] * old_strides[ok + 1]) {
        return std::nullopt;
      }
    }
    if (order == Order::F) {
      out[ni] = old_strides[oi];
      for (size_t nk = ni + 1; nk < nj; ++nk) out[nk] = out[nk - 1] * new_shape[nk - 1];
    } else {
      out[nj - 1] = old_strides[oj - 1];
      for (size_t nk = nj - 1; nk > ni; --nk) out[nk - 1] = out[nk] * new_shape[nk];
    }
    ni = nj++;
    oi = oj++;
  }
  // Trailing length-1 dims: give them a stride NumPy would (the last stride times its dim).
  int64_t last = ni > 0 ? (order == Order::F ? out[ni - 1] * new_shape[ni - 1] : out[ni - 1]) : itemsize;
  for (size_t nk = ni; nk < newnd; ++nk) out[nk] = last;
  return out;
}

int normalize_axis(int64_t axis, int ndim) {
  if (axis < -ndim || axis >= ndim)
    throw_error(ErrorKind::Axis,
                "axis " + std::to_string(axis) + " is out of bounds for array of dimension " + std::to_string(ndim));
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

SliceRange slice_range(int64_t len, int64_t start, int64_t stop, int64_t step) {
  // Python's PySlice_AdjustIndices.
  auto clamp = [&](int64_t& v) {
    if (v < 0) {
      v = v < -len ? (step < 0 ? -1 : 0) : v + len;
    } else if (v >= len) {
      v = step < 0 ? len - 1 : len;
    }
  };
  clamp(start);
  clamp(stop);
  if (step < 0) return {start, step, stop < start ? (start - stop - 1) / -step + 1 : 0};
  return {start, step, start < stop ? (stop - start - 1) / step + 1 : 0};
}

ByteExtent byte_extent(const Shape& shape, const Strides& strides, int64_t itemsize) {
  ByteExtent e{0, itemsize};
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) return {0, 0};
    int64_t span = (shape[i] - 1) * strides[i];
    if (span < 0) e.lo += span;
    else e.hi += span;
  }
  return e;
}

}  // namespace cuarray
