// cuarray::NDArray — an n-dimensional array in GPU memory, NumPy's ndarray in C++.
//
// An array is a view: a shared owner (the device buffer), a data pointer with the view's offset
// folded in, a shape, byte strides, a dtype and a device id. Views share the owner; copies don't.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "cuarray/dtype.hpp"
#include "cuarray/runtime.hpp"
#include "cuarray/scalar.hpp"
#include "cuarray/shape.hpp"

namespace cuarray {

using Axes = SmallVector<int64_t, 6>;

class NDArray {
 public:
  NDArray() = default;
  NDArray(std::shared_ptr<Buffer> buffer, char* data, Shape shape, Strides strides, DType dtype);

  // ---- attributes (numpy.ndarray's) ----
  const Shape& shape() const { return shape_; }
  const Strides& strides() const { return strides_; }
  DType dtype() const { return dtype_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  int64_t size() const { return size_; }
  int64_t itemsize() const { return static_cast<int64_t>(cuarray::itemsize(dtype_)); }
  int64_t nbytes() const { return size_ * itemsize(); }
  // The address for code outside cuarray: submits held launches and marks the buffer shared, so
  // that launches stay unheld while it lives (flush_launches() in runtime.hpp says why).
  char* data() const;
  char* raw_data() const { return data_; }  // for cuarray's own kernels and copies
  int device() const { return buffer_ ? buffer_->device() : current_device(); }
  const std::shared_ptr<Buffer>& buffer() const { return buffer_; }
  bool c_contiguous() const { return flags_ & kCContiguous; }
  bool f_contiguous() const { return flags_ & kFContiguous; }

  // ---- views (never copy) ----
  NDArray view_as(Shape shape, Strides strides, char* data) const;   // same owner
  NDArray view(DType dtype) const;                                  // ndarray.view(dtype)
  NDArray transpose() const;                                        // reversed axes
  NDArray transpose(std::span<const int64_t> axes) const;
  NDArray swapaxes(int64_t a, int64_t b) const;
  // numpy.diagonal as a view: axis1/axis2 removed, the diagonal appended as the last dim.
  NDArray diagonal(int64_t offset = 0, int64_t axis1 = 0, int64_t axis2 = 1) const;
  NDArray squeeze(std::optional<std::span<const int64_t>> axes = std::nullopt) const;
  NDArray expand_dims(std::span<const int64_t> axes) const;
  NDArray broadcast_to(const Shape& shape) const;
  NDArray complex_part(bool imag) const;                            // .real / .imag views of a complex array
  NDArray index(int axis, int64_t i) const;                         // a[..., i, ...] on one axis
  NDArray slice(int axis, int64_t start, int64_t stop, int64_t step) const;  // normalized by the caller

  // ---- maybe-copy ----
  NDArray reshape(const Shape& shape, Order order = Order::C) const;  // a view whenever NumPy's is
  NDArray ravel(Order order = Order::C) const;
  NDArray astype(DType dtype, bool copy = true, Order order = Order::K) const;
  NDArray copy(Order order = Order::K) const;
  NDArray flatten(Order order = Order::C) const;                    // always a copy

  // ---- computation ----
  void fill(const Scalar& value);
  void assign(const NDArray& src);        // this[...] = src (broadcast, cast unsafe as NumPy's setitem)
  NDArray sum(std::optional<std::span<const int64_t>> axes = std::nullopt, std::optional<DType> dtype = std::nullopt,
              bool keepdims = false) const;
  NDArray sum(int64_t axis) const { return sum(std::span<const int64_t>(&axis, 1)); }

  // Host transfers (synchronous w.r.t. the host, on the current stream).
  void copy_to_host(void* dst) const;     // C-order bytes
  void copy_from_host(const void* src);   // bytes in this (C- or F-contiguous) array's own order

 private:
  void update_flags();
  static constexpr uint8_t kCContiguous = 1, kFContiguous = 2;

  std::shared_ptr<Buffer> buffer_;
  char* data_ = nullptr;
  Shape shape_;
  Strides strides_;
  int64_t size_ = 1;
  DType dtype_ = DType::Float64;
  uint8_t flags_ = kCContiguous | kFContiguous;
};

// ---- creation (numpy's names) ----
NDArray empty(const Shape& shape, DType dtype = DType::Float64, Order order = Order::C);
NDArray zeros(const Shape& shape, DType dtype = DType::Float64, Order order = Order::C);
NDArray ones(const Shape& shape, DType dtype = DType::Float64, Order order = Order::C);
NDArray full(const Shape& shape, const Scalar& value, std::optional<DType> dtype = std::nullopt, Order order = Order::C);
// numpy.ndarray(shape, dtype, buffer, offset, strides) on device memory (CuPy's ndarray(shape, dtype,
// memptr, strides, order)): a view `offset` bytes into `buffer`, byte strides (C or F order when not
// given). ValueError/TypeError as NumPy's when the view does not lie inside the buffer.
NDArray view_of_buffer(std::shared_ptr<Buffer> buffer, int64_t offset, const Shape& shape, DType dtype,
                       std::optional<Strides> strides, Order order = Order::C);
NDArray empty_like(const NDArray& a, std::optional<DType> dtype = std::nullopt, Order order = Order::K);
NDArray arange(const Scalar& start, const Scalar& stop, const Scalar& step, std::optional<DType> dtype = std::nullopt);
NDArray arange(double stop);
NDArray linspace(double start, double stop, int64_t num, bool endpoint, DType dtype);
NDArray eye(int64_t n, int64_t m, int64_t k, DType dtype);
NDArray tri(int64_t n, int64_t m, int64_t k, DType dtype);  // ones at and below the k-th diagonal
NDArray from_host(const void* data, const Shape& shape, DType dtype, Order order = Order::C);  // contiguous bytes

// The array on `device`: `a` itself when it lives there, else a copy in `order` (K keeps a C- or
// F-contiguous layout; other layouts become C-contiguous on `a`'s device first), moved peer to peer
// after `a`'s device's current stream and before its later work.
NDArray to_device(const NDArray& a, int device, Order order = Order::K);

}  // namespace cuarray
