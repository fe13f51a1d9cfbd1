// Device memory that another library owns, viewed by cuarray arrays.

#include "cuarray/interop.hpp"
#include "runtime/context.hpp"
#include "runtime/driver.hpp"

namespace cuarray {
namespace {

// The owner is released when the last array viewing the memory dies; cuarray never frees it.
class ForeignBuffer final : public Buffer {
 public:
  ForeignBuffer(void* ptr, size_t size, int device, std::shared_ptr<const void> owner)
      : Buffer(ptr, size, device), owner_(std::move(owner)) {}

 private:
  std::shared_ptr<const void> owner_;
};

}  // namespace

NDArray view_foreign_memory(void* data, const Shape& shape, const Strides& strides, DType dtype, int device,
                            std::shared_ptr<const void> owner) {
  const int64_t item = static_cast<int64_t>(itemsize(dtype));
  const ByteExtent extent = shape_size(shape) == 0 ? ByteExtent{0, 0} : byte_extent(shape, strides, item);
  char* first = static_cast<char*>(data);
  auto buffer = std::make_shared<ForeignBuffer>(first + extent.lo, static_cast<size_t>(extent.hi - extent.lo), device,
                                                std::move(owner));
  // The owner's library may enqueue its own work on this memory, which cannot submit the launches
  // cuarray holds: none are held while the buffer lives (launch-batching.md).
  buffer->share();
  return NDArray(std::move(buffer), first, shape, strides, dtype);
}

std::optional<int> device_of_pointer(const void* ptr) {
  // cuPointerGetAttributes answers "unknown" (type 0) for memory CUDA does not know, where
  // cuPointerGetAttribute would fail. It needs a context: the current device's.
  runtime::activate(current_device());
  unsigned int type = 0;
  int ordinal = -1;
  CUpointer_attribute attributes[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
  void* values[] = {&type, &ordinal};
  CUresult r = runtime::driver().cuPointerGetAttributes(2, attributes, values, reinterpret_cast<CUdeviceptr>(ptr));
  if (r != CUDA_SUCCESS || type == 0 || ordinal < 0) return std::nullopt;
  return ordinal;
}

}  // namespace cuarray
