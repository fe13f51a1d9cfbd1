// from_dlpack in C++: a cuarray array of a DLPack managed tensor, viewing CUDA memory without a
// copy and copying host memory to the device.
#include <cstring>
#include <string>
#include <vector>

#include "cuarray/errors.hpp"
#include "cuarray/interop.hpp"
#include "runtime/current_device_scope.hpp"

namespace cuarray {
namespace {

// The producer's tensor, released through its deleter exactly once: by the last array viewing its
// memory, or when the import ends without one (a copy, an error).
template <class Managed>
std::shared_ptr<const void> take_ownership(Managed* tensor) {
  return std::shared_ptr<const void>(tensor, [](const void* p) {
    auto* m = static_cast<Managed*>(const_cast<void*>(p));
    if (m->deleter) m->deleter(m);
  });
}

std::string dtype_repr(DLDataType d) {
  return "(code " + std::to_string(d.code) + ", " + std::to_string(d.bits) + " bits, " + std::to_string(d.lanes) +
         " lanes)";
}

// Host memory in any layout as contiguous bytes for from_host: C- and F-ordered data as it is,
// anything else (negative, zero or gapped strides) gathered into C order first, row by row.
NDArray host_to_device(const char* data, const Shape& shape, const Strides& strides, DType dtype) {
  const int64_t item = static_cast<int64_t>(itemsize(dtype));
  if (shape_size(shape) == 0) return empty(shape, dtype);
  if (is_c_contiguous(shape, strides, item)) return from_host(data, shape, dtype, Order::C);
  if (is_f_contiguous(shape, strides, item)) return from_host(data, shape, dtype, Order::F);
  const int ndim = static_cast<int>(shape.size());  // >= 1: a 0-d array is contiguous
  const int64_t row = shape[ndim - 1], row_stride = strides[ndim - 1];
  std::vector<char> gathered(static_cast<size_t>(shape_size(shape) * item));
  char* out = gathered.data();
  SmallVector<int64_t, 6> index(ndim - 1, 0);
  for (int64_t rows = shape_size(shape) / row; rows > 0; --rows) {
    const char* src = data;
    for (int d = 0; d < ndim - 1; ++d) src += index[d] * strides[d];
    if (row_stride == item) {
      std::memcpy(out, src, static_cast<size_t>(row * item));
      out += row * item;
    } else {
      for (int64_t i = 0; i < row; ++i, out += item) std::memcpy(out, src + i * row_stride, static_cast<size_t>(item));
    }
    for (int d = ndim - 2; d >= 0 && ++index[d] == shape[d]; --d) index[d] = 0;
  }
  return from_host(gathered.data(), shape, dtype, Order::C);
}

NDArray import_tensor(const DLTensor& t, bool read_only, std::shared_ptr<const void> owner, CopyMode copy,
                      std::optional<int> device) {
  const std::optional<DType> dtype = dtype_from_dlpack(t.dtype);
  if (!dtype) throw_error(ErrorKind::Buffer, "cuarray does not support the DLPack data type " + dtype_repr(t.dtype));
  if (t.ndim < 0 || t.ndim > kMaxDims)
    throw_error(ErrorKind::Buffer, "a DLPack tensor of " + std::to_string(t.ndim) + " dimensions");
  const int64_t item = static_cast<int64_t>(itemsize(*dtype));
  Shape shape(t.shape, t.shape + t.ndim);
  Strides strides = c_strides(shape, item);  // a null strides pointer means C order (DLPack < 1.2)
  if (t.strides)
    for (int d = 0; d < t.ndim; ++d) strides[d] = t.strides[d] * item;
  char* data = static_cast<char*>(t.data) + t.byte_offset;

  switch (t.device.device_type) {
    case kDLCUDA:
    case kDLCUDAManaged: {
      // Managed memory carries device id 0 whatever its device: ask the driver.
      const int where = t.device.device_type == kDLCUDA ? t.device.device_id
                                                         : device_of_pointer(data).value_or(current_device());
      const int target = device.value_or(where);
      // cuarray arrays are writable: memory the producer marks read-only is copied, not viewed.
      const bool must_copy = copy == CopyMode::Always || read_only || target != where;
      if (must_copy && copy == CopyMode::Never)
        throw_error(ErrorKind::Value, read_only ? "the DLPack tensor is read-only and cuarray arrays are writable: "
                                                  "a copy is needed (copy=False)"
                                                : "the DLPack tensor is on device " + std::to_string(where) +
                                                      ", not " + std::to_string(target) + ": a copy is needed (copy=False)");
      runtime::CurrentDeviceScope on(target);
      if (shape_size(shape) == 0) return empty(shape, *dtype);  // the data pointer may be null
      NDArray view = view_foreign_memory(data, shape, strides, *dtype, where, std::move(owner));
      if (!must_copy) return view;
      NDArray copied = target != where ? to_device(view, target) : view.copy(Order::K);
      // The producer may reuse its memory as soon as the deleter runs, on streams cuarray does
      // not order itself with: the copy must be finished by then.
      current_stream()->synchronize();
      return copied;
    }
    case kDLCPU:
    case kDLCUDAHost: {
      if (copy == CopyMode::Never)
        throw_error(ErrorKind::Value, "the DLPack tensor is in host memory: a copy to the GPU is needed (copy=False)");
      runtime::CurrentDeviceScope on(device.value_or(current_device()));
      return host_to_device(data, shape, strides, *dtype);
    }
    default:
      throw_error(ErrorKind::Buffer, "cuarray cannot import DLPack device type " +
                                         std::to_string(static_cast<int>(t.device.device_type)) +
                                         " (CUDA, CUDA-managed and host memory are supported)");
  }
}

}  // namespace

NDArray from_dlpack(DLManagedTensorVersioned* tensor, CopyMode copy, std::optional<int> device) {
  if (!tensor) throw_error(ErrorKind::Value, "a null DLPack tensor");
  std::shared_ptr<const void> owner = take_ownership(tensor);
  // Another major version may lay out every field after `flags` differently: only the deleter,
  // whose place is fixed, may be used.
  if (tensor->version.major != DLPACK_MAJOR_VERSION)
    throw_error(ErrorKind::Buffer, "DLPack version " + std::to_string(tensor->version.major) + "." +
                                       std::to_string(tensor->version.minor) +
                                       " is not supported (cuarray reads version 1.x)");
  const bool read_only = tensor->flags & DLPACK_FLAG_BITMASK_READ_ONLY;
  return import_tensor(tensor->dl_tensor, read_only, std::move(owner), copy, device);
}

NDArray from_dlpack(DLManagedTensor* tensor, CopyMode copy, std::optional<int> device) {
  if (!tensor) throw_error(ErrorKind::Value, "a null DLPack tensor");
  std::shared_ptr<const void> owner = take_ownership(tensor);
  return import_tensor(tensor->dl_tensor, false, std::move(owner), copy, device);
}

}  // namespace cuarray
