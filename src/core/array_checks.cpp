#include "core/array_checks.hpp"

#include "cuarray/errors.hpp"
#include "runtime/context.hpp"

namespace cuarray {

std::string dtype_repr(DType t) { return "dtype('" + std::string(dtype_name(t)) + "')"; }

bool same_buffer(const NDArray& a, const NDArray& b) { return a.buffer() && a.buffer() == b.buffer(); }

bool overlaps(const NDArray& a, const NDArray& b) {
  if (!same_buffer(a, b) || a.size() == 0 || b.size() == 0) return false;
  const ByteExtent ea = byte_extent(a.shape(), a.strides(), a.itemsize());
  const ByteExtent eb = byte_extent(b.shape(), b.strides(), b.itemsize());
  return a.raw_data() + ea.lo < b.raw_data() + eb.hi && b.raw_data() + eb.lo < a.raw_data() + ea.hi;
}

bool same_view(const NDArray& a, const NDArray& b) {
  return a.raw_data() == b.raw_data() && a.shape() == b.shape() && a.strides() == b.strides() && a.dtype() == b.dtype();
}

void check_device(const NDArray& a, int device, std::string_view what) {
  if (a.device() == device) return;
  throw_error(ErrorKind::Value, "array device must be same as the current device: " + std::string(what) +
                                    " is on device " + std::to_string(a.device()) + " and the current device is " +
                                    std::to_string(device));
}

int activate_current_device(std::initializer_list<const NDArray*> operands) {
  const int device = current_device();
  for (const NDArray* a : operands)
    if (a) check_device(*a, device);
  runtime::activate(device);
  return device;
}

}  // namespace cuarray
