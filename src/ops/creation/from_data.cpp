// Arrays from existing data: the ndarray's copies, casts and fills, host transfers, moves between
// devices (NumPy's "From existing data" creation routines and the ndarray methods behind them).
#include <cstring>

#include "runtime/current_device_scope.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/ndarray.hpp"
#include "ops/engines/copy/copy.hpp"
#include "ops/engines/elementwise/internal_ops.hpp"

namespace cuarray {

NDArray NDArray::astype(DType dtype, bool copy, Order order) const {
  if (!copy && dtype == dtype_) {
    bool layout_ok = order == Order::K || order == Order::A || (order == Order::C && c_contiguous()) ||
                     (order == Order::F && f_contiguous());
    if (layout_ok) return *this;
  }
  NDArray out = empty_like(*this, dtype, order);
  ops::copy_into(*this, out);
  return out;
}

NDArray NDArray::copy(Order order) const { return astype(dtype_, true, order); }

void NDArray::fill(const Scalar& value) {
  Operand in[] = {Operand::of(value)};
  ops::run_internal(ops::InternalOp::Copy, "out0 = in0;", in, *this, {dtype_, dtype_});
}

void NDArray::assign(const NDArray& src) {
  if (src.device() != device() && src.size() > 0) {
    assign(to_device(src, device()));
    return;
  }
  const Shape* shapes[] = {&shape_, &src.shape()};
  if (src.ndim() > ndim() || broadcast_shapes(shapes) != shape_)
    throw_error(ErrorKind::Value, "could not broadcast input array from shape " + shape_repr(src.shape()) +
                                      " into shape " + shape_repr(shape_));
  ops::copy_into(src, *this);
}

void NDArray::copy_to_host(void* dst) const {
  if (size_ == 0) return;
  runtime::CurrentDeviceScope on(device());  // any current device: the copy runs on the array's
  if (!c_contiguous()) {
    copy(Order::C).copy_to_host(dst);
    return;
  }
  copy_device_to_host(dst, data_, static_cast<size_t>(nbytes()), current_stream_handle());
}

void NDArray::copy_from_host(const void* src) {
  if (size_ == 0) return;
  if (!c_contiguous() && !f_contiguous()) throw_error(ErrorKind::Value, "copy_from_host needs a contiguous array");
  runtime::CurrentDeviceScope on(device());  // ordered on the array's device's stream
  copy_host_to_device(data_, src, static_cast<size_t>(nbytes()), current_stream_handle());
}

NDArray to_device(const NDArray& a, int device, Order order) {
  if (a.device() == device) return a;
  NDArray src;
  {
    runtime::CurrentDeviceScope on(a.device());
    src = a.astype(a.dtype(), false, order);
    if (!src.c_contiguous() && !src.f_contiguous()) src = src.astype(src.dtype(), true, Order::C);
  }
  runtime::CurrentDeviceScope on(device);
  NDArray out = empty(a.shape(), a.dtype(), src.c_contiguous() ? Order::C : Order::F);
  copy_peer(out.raw_data(), device, src.raw_data(), src.device(), static_cast<size_t>(src.nbytes()),
            current_stream_handle(), device);
  return out;
}

}  // namespace cuarray
