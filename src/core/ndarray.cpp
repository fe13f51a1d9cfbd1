// NDArray construction and the view operations (no device work happens here).
#include "cuarray/ndarray.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "cuarray/errors.hpp"

namespace cuarray {

NDArray::NDArray(std::shared_ptr<Buffer> buffer, char* data, Shape shape, Strides strides, DType dtype)
    : buffer_(std::move(buffer)), data_(data), shape_(std::move(shape)), strides_(std::move(strides)), dtype_(dtype) {
  if (shape_.size() > static_cast<size_t>(kMaxDims))
    throw_error(ErrorKind::Value, "maximum supported dimension for an ndarray is currently " +
                                      std::to_string(kMaxDims) + ", found " + std::to_string(shape_.size()));
  update_flags();
}

char* NDArray::data() const {
  if (buffer_) buffer_->share();
  return data_;
}

void NDArray::update_flags() {
  size_ = shape_size(shape_);
  flags_ = 0;
  if (is_c_contiguous(shape_, strides_, itemsize())) flags_ |= kCContiguous;
  if (is_f_contiguous(shape_, strides_, itemsize())) flags_ |= kFContiguous;
}

NDArray NDArray::view_as(Shape shape, Strides strides, char* data) const {
  return NDArray(buffer_, data, std::move(shape), std::move(strides), dtype_);
}

NDArray NDArray::view(DType dtype) const {
  const int64_t old_size = itemsize(), new_size = static_cast<int64_t>(cuarray::itemsize(dtype));
  if (old_size == new_size) return NDArray(buffer_, data_, shape_, strides_, dtype);
  if (ndim() == 0)
    throw_error(ErrorKind::Value, "Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
  if (size_ != 0 && strides_.back() != old_size && shape_.back() != 1)
    throw_error(ErrorKind::Value, "To change to a dtype of a different size, the last axis must be contiguous");
  Shape shape = shape_;
  Strides strides = strides_;
  const int64_t last_bytes = shape.back() * old_size;
  if (last_bytes % new_size != 0)
    throw_error(ErrorKind::Value,
                "When changing to a larger dtype, its size must be a divisor of the total size in bytes of the last "
                "axis of the array.");
  shape.back() = last_bytes / new_size;
  strides.back() = new_size;
  return NDArray(buffer_, data_, std::move(shape), std::move(strides), dtype);
}

NDArray NDArray::transpose() const {
  Shape shape(shape_.size());
  Strides strides(shape_.size());
  for (size_t i = 0; i < shape_.size(); ++i) {
    shape[i] = shape_[shape_.size() - 1 - i];
    strides[i] = strides_[shape_.size() - 1 - i];
  }
  return view_as(std::move(shape), std::move(strides), data_);
}

NDArray NDArray::transpose(std::span<const int64_t> axes) const {
  const int n = ndim();
  if (static_cast<int>(axes.size()) != n) throw_error(ErrorKind::Value, "axes don't match array");
  Shape shape(n);
  Strides strides(n);
  SmallVector<uint8_t, 8> seen(static_cast<size_t>(n), 0);
  for (int i = 0; i < n; ++i) {
    int a = normalize_axis(axes[i], n);
    if (seen[a]++) throw_error(ErrorKind::Value, "repeated axis in transpose");
    shape[i] = shape_[a];
    strides[i] = strides_[a];
  }
  return view_as(std::move(shape), std::move(strides), data_);
}

NDArray NDArray::diagonal(int64_t offset, int64_t axis1, int64_t axis2) const {
  if (ndim() < 2) throw_error(ErrorKind::Value, "diag requires an array of at least two dimensions");
  const int a1 = normalize_axis(axis1, ndim()), a2 = normalize_axis(axis2, ndim());
  if (a1 == a2) throw_error(ErrorKind::Value, "axis1 and axis2 cannot be the same");
  // Element (i, i + offset) of the (a1, a2) plane; an offset past the edge leaves length 0.
  const int64_t rows = shape_[a1], cols = shape_[a2];
  const int64_t length = offset >= 0 ? std::max<int64_t>(0, std::min(rows, cols - offset))
                                     : std::max<int64_t>(0, std::min(rows + offset, cols));
  char* start = data_;
  if (length > 0) start += offset >= 0 ? offset * strides_[a2] : -offset * strides_[a1];
  Shape shape;
  Strides strides;
  for (int d = 0; d < ndim(); ++d) {
    if (d == a1 || d == a2) continue;
    shape.push_back(shape_[d]);
    strides.push_back(strides_[d]);
  }
  shape.push_back(length);
  strides.push_back(strides_[a1] + strides_[a2]);
  return view_as(std::move(shape), std::move(strides), start);
}

NDArray NDArray::swapaxes(int64_t a, int64_t b) const {
  int x = normalize_axis(a, ndim()), y = normalize_axis(b, ndim());
  Shape shape = shape_;
  Strides strides = strides_;
  std::swap(shape[x], shape[y]);
  std::swap(strides[x], strides[y]);
  return view_as(std::move(shape), std::move(strides), data_);
}

NDArray NDArray::squeeze(std::optional<std::span<const int64_t>> axes) const {
  SmallVector<uint8_t, 8> drop(shape_.size(), 0);
  if (axes) {
    for (int64_t a : *axes) {
      int ax = normalize_axis(a, ndim());
      if (shape_[ax] != 1) throw_error(ErrorKind::Value, "cannot select an axis to squeeze out which has size not equal to one");
      drop[ax] = 1;
    }
  } else {
    for (size_t i = 0; i < shape_.size(); ++i) drop[i] = shape_[i] == 1;
  }
  Shape shape;
  Strides strides;
  for (size_t i = 0; i < shape_.size(); ++i) {
    if (drop[i]) continue;
    shape.push_back(shape_[i]);
    strides.push_back(strides_[i]);
  }
  return view_as(std::move(shape), std::move(strides), data_);
}

NDArray NDArray::expand_dims(std::span<const int64_t> axes) const {
  const int out_ndim = ndim() + static_cast<int>(axes.size());
  SmallVector<uint8_t, 8> is_new(static_cast<size_t>(out_ndim), 0);
  for (int64_t a : axes) {
    int ax = normalize_axis(a, out_ndim);
    if (is_new[ax]++) throw_error(ErrorKind::Value, "repeated axis");
  }
  Shape shape;
  Strides strides;
  size_t src = 0;
  for (int i = 0; i < out_ndim; ++i) {
    if (is_new[i]) {
      shape.push_back(1);
      strides.push_back(src < strides_.size() ? strides_[src] * shape_[src] : itemsize());
    } else {
      shape.push_back(shape_[src]);
      strides.push_back(strides_[src]);
      ++src;
    }
  }
  return view_as(std::move(shape), std::move(strides), data_);
}

NDArray NDArray::broadcast_to(const Shape& shape) const {
  const Shape* shapes[] = {&shape_, &shape};
  if (broadcast_shapes(shapes) != shape || shape.size() < shape_.size())
    throw_error(ErrorKind::Value, "operands could not be broadcast together with remapped shapes [original->remapped]: " +
                                      shape_repr(shape_) + " and requested shape " + shape_repr(shape));
  return view_as(shape, broadcast_strides(shape_, strides_, shape), data_);
}

NDArray NDArray::complex_part(bool imag) const {
  if (!is_complex(dtype_)) throw_error(ErrorKind::Type, "complex_part needs a complex array");
  DType part = real_dtype(dtype_);
  char* data = data_ + (imag ? static_cast<int64_t>(cuarray::itemsize(part)) : 0);
  return NDArray(buffer_, data, shape_, strides_, part);
}

NDArray NDArray::index(int axis, int64_t i) const {
  const int64_t n = shape_[axis];
  if (i < -n || i >= n)
    throw_error(ErrorKind::Index, "index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) +
                                      " with size " + std::to_string(n));
  if (i < 0) i += n;
  Shape shape = shape_;
  Strides strides = strides_;
  char* data = data_ + i * strides_[axis];
  shape.erase(static_cast<size_t>(axis));
  strides.erase(static_cast<size_t>(axis));
  return view_as(std::move(shape), std::move(strides), data);
}

NDArray NDArray::slice(int axis, int64_t start, int64_t stop, int64_t step) const {
  // start/stop/step are already normalized as Python's slice.indices() would (step != 0).
  int64_t len = 0;
  if (step > 0 && stop > start) len = (stop - start + step - 1) / step;
  if (step < 0 && start > stop) len = (start - stop - step - 1) / (-step);
  Shape shape = shape_;
  Strides strides = strides_;
  shape[axis] = len;
  strides[axis] = strides_[axis] * step;
  char* data = len > 0 ? data_ + start * strides_[axis] : data_;
  return view_as(std::move(shape), std::move(strides), data);
}

NDArray NDArray::reshape(const Shape& new_shape, Order order) const {
  Shape shape = resolve_reshape(new_shape, size_);
  if (shape == shape_) return *this;
  Order o = order == Order::A ? (f_contiguous() && !c_contiguous() ? Order::F : Order::C) : order;
  if (auto strides = reshape_strides(shape_, strides_, shape, itemsize(), o))
    return view_as(std::move(shape), std::move(*strides), data_);
  // NumPy copies in the requested order, then views.
  NDArray contiguous = copy(o == Order::F ? Order::F : Order::C);
  auto strides = reshape_strides(contiguous.shape_, contiguous.strides_, shape, itemsize(), o);
  return contiguous.view_as(std::move(shape), std::move(*strides), contiguous.data_);
}

NDArray NDArray::flatten(Order order) const {
  NDArray flat = ravel(order);
  return flat.buffer() == buffer_ ? flat.copy(Order::C) : flat;
}

NDArray NDArray::ravel(Order order) const {
  if (order == Order::K) {  // memory order: walk the axes by decreasing |stride|
    SmallVector<int64_t, 6> perm;
    for (int i = 0; i < ndim(); ++i) perm.push_back(i);
    std::stable_sort(perm.begin(), perm.end(),
                     [&](int64_t a, int64_t b) { return std::llabs(strides_[a]) > std::llabs(strides_[b]); });
    return transpose(perm).ravel(Order::C);
  }
  if (order == Order::A) order = f_contiguous() && !c_contiguous() ? Order::F : Order::C;
  // NumPy's ravel returns a contiguous array: a view only when the data already is one.
  bool contiguous = order == Order::F ? f_contiguous() : c_contiguous();
  return (contiguous ? *this : copy(order)).reshape(Shape{size_}, order);
}

}  // namespace cuarray
