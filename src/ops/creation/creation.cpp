// Array creation: empty/zeros/ones/full, arange, linspace, eye/tri, and arrays from host memory.
#include <cmath>
#include <limits>

#include "runtime/context.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/ndarray.hpp"
#include "cuarray/ufunc.hpp"
#include "ops/engines/elementwise/internal_ops.hpp"

namespace cuarray {

NDArray empty(const Shape& shape, DType dtype, Order order) {
  int64_t size = 1;
  const int64_t item = static_cast<int64_t>(itemsize(dtype));
  for (int64_t d : shape) {
    if (d < 0) throw_error(ErrorKind::Value, "negative dimensions are not allowed");
    if (d != 0 && size > std::numeric_limits<int64_t>::max() / item / d)
      throw_error(ErrorKind::Value, "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
    size *= d;
  }
  const int device = current_device();
  std::shared_ptr<Buffer> buffer = allocate_device(static_cast<size_t>(size * item), device, current_stream_handle());
  Strides strides = order == Order::F ? f_strides(shape, item) : c_strides(shape, item);
  char* data = static_cast<char*>(buffer->ptr());
  return NDArray(std::move(buffer), data, shape, std::move(strides), dtype);
}

NDArray view_of_buffer(std::shared_ptr<Buffer> buffer, int64_t offset, const Shape& shape, DType dtype,
                       std::optional<Strides> strides, Order order) {
  const int64_t item = static_cast<int64_t>(itemsize(dtype));
  int64_t size = 1;
  for (int64_t d : shape) {
    if (d < 0) throw_error(ErrorKind::Value, "negative dimensions are not allowed");
    size *= d;
  }
  if (strides && strides->size() != shape.size())
    throw_error(ErrorKind::Value, "strides, if given, must be the same length as shape");
  const int64_t available = static_cast<int64_t>(buffer->size()) - offset;
  if (!strides) {
    if (offset < 0 || size * item > available) throw_error(ErrorKind::Type, "buffer is too small for requested array");
    strides = order == Order::F ? f_strides(shape, item) : c_strides(shape, item);
  } else if (size > 0) {
    int64_t lowest = 0, highest = item;  // byte extent of the view around its first element
    for (size_t i = 0; i < shape.size(); ++i) {
      const int64_t reach = (shape[i] - 1) * (*strides)[i];
      (reach < 0 ? lowest : highest) += reach;
    }
    if (offset + lowest < 0 || highest > available)
      throw_error(ErrorKind::Value, "strides is incompatible with shape of requested array and size of buffer");
  }
  char* data = static_cast<char*>(buffer->ptr()) + offset;
  return NDArray(std::move(buffer), data, shape, std::move(*strides), dtype);
}

NDArray zeros(const Shape& shape, DType dtype, Order order) {
  NDArray a = empty(shape, dtype, order);
  a.fill(Scalar::from_int(0));  // a kernel rather than a memset: a small one is held for batching
  return a;
}

NDArray ones(const Shape& shape, DType dtype, Order order) { return full(shape, Scalar::from_int(1), dtype, order); }

NDArray full(const Shape& shape, const Scalar& value, std::optional<DType> dtype, Order order) {
  // NumPy's full copies with unsafe casting, but a Python int must still fit (NEP 50).
  if (dtype && value.kind == Scalar::Kind::Int) value.check_assignable(*dtype);
  NDArray a = empty(shape, dtype ? *dtype : value.default_dtype(), order);
  a.fill(value);
  return a;
}

NDArray empty_like(const NDArray& a, std::optional<DType> dtype, Order order) {
  const DType t = dtype ? *dtype : a.dtype();
  if (order == Order::A) order = a.f_contiguous() && !a.c_contiguous() ? Order::F : Order::C;
  if (order != Order::K || a.c_contiguous()) return empty(a.shape(), t, order == Order::K ? Order::C : order);
  NDArray c = empty(a.shape(), t);  // allocates; the strides below re-lay the same bytes
  return c.view_as(a.shape(), strides_like(a.shape(), a.strides(), static_cast<int64_t>(itemsize(t))), c.raw_data());
}

NDArray from_host(const void* data, const Shape& shape, DType dtype, Order order) {
  NDArray a = empty(shape, dtype, order);
  a.copy_from_host(data);
  return a;
}

// NumPy's arange: length ceil((stop - start) / step); values start + i * delta where delta is
// (start + step) - start computed in the result dtype, exactly as NumPy's fill functions.
NDArray arange(const Scalar& start, const Scalar& stop, const Scalar& step, std::optional<DType> dtype) {
  const double s = start.real_value(), e = stop.real_value(), d = step.real_value();
  if (d == 0) throw_error(ErrorKind::Value, "Maximum allowed size exceeded");
  if (start.kind == Scalar::Kind::Complex || stop.kind == Scalar::Kind::Complex || step.kind == Scalar::Kind::Complex)
    throw_error(ErrorKind::NotImplemented, "arange of complex values is not supported");
  DType result = dtype ? *dtype : [&] {
    DType t = promote_types(promote_types(start.default_dtype(), stop.default_dtype()), step.default_dtype());
    return t == DType::Bool ? DType::Int64 : t;
  }();
  const bool integral = start.kind != Scalar::Kind::Float && stop.kind != Scalar::Kind::Float &&
                        step.kind != Scalar::Kind::Float;
  int64_t len;
  if (integral) {  // exact integer arithmetic for big values
    const int64_t a = start.i, b = stop.i, c = step.i;
    len = c > 0 ? (b > a ? (b - a + c - 1) / c : 0) : (a > b ? (a - b - c - 1) / (-c) : 0);
  } else {
    double n = std::ceil((e - s) / d);
    if (!std::isfinite(n)) throw_error(ErrorKind::Value, "arange: cannot compute length");
    len = n > 0 ? static_cast<int64_t>(n) : 0;
  }
  if (dtype && is_integer(*dtype)) {  // NumPy: arange(-5, 5, dtype=uint8) raises OverflowError
    start.check_assignable(*dtype);
    if (len > 0) stop.check_assignable(*dtype == DType::UInt64 ? DType::UInt64 : DType::Int64);
  }
  if (result == DType::Bool && len > 2)
    throw_error(ErrorKind::Type, "arange() is only supported for booleans when the result has at most length 2.");
  NDArray out = empty(Shape{len}, result);
  if (len == 0) return out;
  // Compute in the result type (ints in int64, float16 in float32, complex not reached).
  DType compute = is_integer(result) || result == DType::Bool ? DType::Int64
                  : result == DType::Float16                  ? DType::Float32
                                                              : result;
  Scalar first = start, delta = step;
  if (!is_integer(compute)) {
    double first_v = s, second_v = s + d;
    if (compute == DType::Float32) {
      first_v = static_cast<float>(first_v);
      second_v = static_cast<float>(second_v);
      delta = Scalar::from_double(static_cast<float>(second_v - first_v));
    } else {
      delta = Scalar::from_double(second_v - first_v);
    }
    first = Scalar::from_double(first_v);
  }
  Operand in[] = {Operand::of(first), Operand::of(delta)};
  ops::run_internal(ops::InternalOp::Arange, "out0 = in0 + in1 * (in1_t)i;", in, out, {compute, compute, compute});
  return out;
}

NDArray arange(double stop) { return arange(Scalar::from_int(0), Scalar::from_double(stop), Scalar::from_int(1)); }

// NumPy's linspace: start + i * step in float64 with the last value set to stop when endpoint.
NDArray linspace(double start, double stop, int64_t num, bool endpoint, DType dtype) {
  if (num < 0) throw_error(ErrorKind::Value, "Number of samples, " + std::to_string(num) + ", must be non-negative.");
  const int64_t div = endpoint ? num - 1 : num;
  const double delta = stop - start;
  const double step = div > 0 ? delta / static_cast<double>(div) : std::numeric_limits<double>::quiet_NaN();
  NDArray y = empty(Shape{num}, DType::Float64);
  if (num == 0) return y.astype(dtype);
  // The last element is exactly `stop` (when endpoint and num > 1); div == 0 gives just `start`.
  const int64_t last = (endpoint && num > 1) ? num - 1 : -1;
  Operand in[] = {Operand::of(Scalar::from_double(start)), Operand::of(Scalar::from_double(div > 0 ? step : 0.0)),
                  Operand::of(Scalar::from_int(last)), Operand::of(Scalar::from_double(stop))};
  ops::run_internal(ops::InternalOp::Linspace, "out0 = ((int64_t)i == in2) ? in3 : in0 + (double)i * in1;", in, y,
                    {DType::Float64, DType::Float64, DType::Int64, DType::Float64, DType::Float64});
  if (is_integer(dtype)) y = ufunc("floor")(y);
  return dtype == DType::Float64 ? y : y.astype(dtype);
}

namespace {
// An n x m matrix of 1 where (column - row) relates to k as the expression says.
NDArray diagonal_pattern(ops::InternalOp op, std::string_view expr, int64_t n, int64_t m, int64_t k, DType dtype) {
  NDArray out = empty(Shape{n, m}, dtype);
  if (out.size() == 0) return out;
  Operand in[] = {Operand::of(Scalar::from_int(m)), Operand::of(Scalar::from_int(k))};
  ops::run_internal(op, expr, in, out, {DType::Int64, DType::Int64, DType::Bool});
  return out;
}
}  // namespace

NDArray eye(int64_t n, int64_t m, int64_t k, DType dtype) {
  return diagonal_pattern(ops::InternalOp::Eye, "out0 = (int64_t)(i % in0) - (int64_t)(i / in0) == in1;", n, m, k, dtype);
}

NDArray tri(int64_t n, int64_t m, int64_t k, DType dtype) {
  return diagonal_pattern(ops::InternalOp::Tri, "out0 = (int64_t)(i % in0) - (int64_t)(i / in0) <= in1;", n, m, k, dtype);
}

}  // namespace cuarray
