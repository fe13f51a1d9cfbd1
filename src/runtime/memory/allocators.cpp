// Memory that does not come from the pools — the driver's own (raw, managed, pinned) and another
// library's (unowned) — and the hooks through which a user's allocator replaces the pools
// (cuarray.cuda.set_allocator, set_pinned_memory_allocator). See docs/memory.md.
#include <mutex>

#include "cuarray/errors.hpp"
#include "cuarray/runtime.hpp"
#include "runtime/context.hpp"
#include "runtime/driver.hpp"
#include "runtime/streams/foreign_work.hpp"
#include "runtime/memory/memory_internal.hpp"

namespace cuarray {
namespace {

class DriverBuffer final : public Buffer {
 public:
  DriverBuffer(void* ptr, size_t size, int device) : Buffer(ptr, size, device) {}
  ~DriverBuffer() override {
    // Held launches may still use the memory: submit them first (cuMemFree waits for the device).
    // A failure here (a dead context) leaves nothing to free.
    try {
      runtime::ForeignWork work(device_);
      runtime::driver().cuMemFree(reinterpret_cast<CUdeviceptr>(ptr_));
    } catch (const Error&) {
    }
  }
};

class UnownedBuffer final : public Buffer {
 public:
  UnownedBuffer(void* ptr, size_t size, int device, std::shared_ptr<void> owner)
      : Buffer(ptr, size, device), owner_(std::move(owner)) {}

 private:
  std::shared_ptr<void> owner_;
};

// The hooks: a flag read on every allocation (relaxed, no lock when unset) and the allocator
// itself, swapped under a mutex and copied out, so a replacement never frees one in use.
template <class Allocator>
struct Hook {
  std::atomic<bool> set{false};
  std::mutex mutex;
  std::shared_ptr<const Allocator> allocator;

  void assign(Allocator a) {
    std::shared_ptr<const Allocator> next = a ? std::make_shared<const Allocator>(std::move(a)) : nullptr;
    std::lock_guard<std::mutex> lock(mutex);
    allocator.swap(next);
    set.store(allocator != nullptr, std::memory_order_release);
  }  // the previous allocator dies here, after the mutex
  std::shared_ptr<const Allocator> get() {
    std::lock_guard<std::mutex> lock(mutex);
    return allocator;
  }
};

Hook<DeviceAllocator>& device_hook() {
  static Hook<DeviceAllocator>* hook = new Hook<DeviceAllocator>();  // outlives static teardown
  return *hook;
}
Hook<PinnedAllocator>& pinned_hook() {
  static Hook<PinnedAllocator>* hook = new Hook<PinnedAllocator>();
  return *hook;
}

// using_allocator's allocator of this thread, ahead of the global one; the count of threads that
// hold one lets allocate_device skip reading it when there are none.
thread_local std::shared_ptr<const DeviceAllocator> t_device_allocator;
std::atomic<int> g_threads_with_allocator{0};

}  // namespace

std::shared_ptr<Buffer> adopt_device_allocation(void* ptr, size_t nbytes, int device) {
  try {
    return std::make_shared<DriverBuffer>(ptr, nbytes, device);
  } catch (...) {
    runtime::driver().cuMemFree(reinterpret_cast<CUdeviceptr>(ptr));
    throw;
  }
}

std::shared_ptr<Buffer> allocate_raw(size_t nbytes, int device) {
  runtime::check_device_ordinal(device);
  runtime::activate(device);
  CUdeviceptr ptr = 0;
  if (nbytes > 0) {
    const CUresult status = runtime::driver().cuMemAlloc(&ptr, nbytes);
    if (status == CUDA_ERROR_OUT_OF_MEMORY)
      throw_error(ErrorKind::OutOfMemory, "Out of memory allocating " + std::to_string(nbytes) + " bytes.");
    runtime::check(status, "cuMemAlloc");
  }
  return adopt_device_allocation(reinterpret_cast<void*>(ptr), nbytes, device);
}

std::shared_ptr<Buffer> allocate_managed(size_t nbytes, int device) {
  runtime::check_device_ordinal(device);
  runtime::activate(device);
  CUdevice dev;
  CU_CALL(cuDeviceGet, &dev, device);
  int supported = 0;
  CU_CALL(cuDeviceGetAttribute, &supported, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, dev);
  if (!supported)
    throw_error(ErrorKind::CudaRuntime, "cuMemAllocManaged: device " + std::to_string(device) +
                                            " does not support managed memory",
                cudaErrorNotSupported);
  CUdeviceptr ptr = 0;
  if (nbytes > 0) CU_CALL(cuMemAllocManaged, &ptr, nbytes, CU_MEM_ATTACH_GLOBAL);
  return adopt_device_allocation(reinterpret_cast<void*>(ptr), nbytes, device);
}

std::shared_ptr<Buffer> wrap_unowned(void* ptr, size_t nbytes, int device, std::shared_ptr<void> owner) {
  auto buffer = std::make_shared<UnownedBuffer>(ptr, nbytes, device, std::move(owner));
  buffer->share();
  return buffer;
}

namespace {

std::shared_ptr<Buffer> allocate_from_hooks(size_t nbytes, int device, StreamHandle stream) {
  Hook<DeviceAllocator>& hook = device_hook();
  if (!hook.set.load(std::memory_order_relaxed) && g_threads_with_allocator.load(std::memory_order_relaxed) == 0)
    return MemoryPool::of_device(device).allocate(nbytes, stream);
  std::shared_ptr<const DeviceAllocator> allocator = t_device_allocator ? t_device_allocator : hook.get();
  if (!allocator) return MemoryPool::of_device(device).allocate(nbytes, stream);
  std::shared_ptr<Buffer> buffer = (*allocator)(nbytes, device, stream);
  if (!buffer || buffer->size() < nbytes || buffer->device() != device)
    throw_error(ErrorKind::Value, "the allocator set with set_allocator returned " +
                                      std::string(buffer ? "memory of the wrong size or device" : "nothing") +
                                      " for " + std::to_string(nbytes) + " bytes on device " + std::to_string(device));
  return buffer;
}

}  // namespace

std::shared_ptr<Buffer> allocate_device(size_t nbytes, int device, StreamHandle stream) {
  std::shared_ptr<Buffer> buffer = allocate_from_hooks(nbytes, device, stream);
  if (runtime::captures_active()) runtime::keep_for_capture(device, stream, buffer);
  return buffer;
}

void set_device_allocator(DeviceAllocator allocator) { device_hook().assign(std::move(allocator)); }

void set_thread_device_allocator(DeviceAllocator allocator) {
  const bool had = t_device_allocator != nullptr;
  t_device_allocator = allocator ? std::make_shared<const DeviceAllocator>(std::move(allocator)) : nullptr;
  const bool has = t_device_allocator != nullptr;
  if (has != had) g_threads_with_allocator.fetch_add(has ? 1 : -1, std::memory_order_relaxed);
}

std::shared_ptr<Buffer> allocate_from_default_pool(size_t nbytes, int device, StreamHandle stream) {
  return MemoryPool::of_device(device).allocate(nbytes, stream);
}

std::shared_ptr<void> allocate_pinned(size_t nbytes) {
  Hook<PinnedAllocator>& hook = pinned_hook();
  if (hook.set.load(std::memory_order_relaxed))
    if (std::shared_ptr<const PinnedAllocator> allocator = hook.get()) {
      std::shared_ptr<void> block = (*allocator)(nbytes);
      if (!block) throw_error(ErrorKind::Value, "the pinned memory allocator returned nothing");
      return block;
    }
  return PinnedMemoryPool::instance().allocate(nbytes);
}

void set_pinned_allocator(PinnedAllocator allocator) { pinned_hook().assign(std::move(allocator)); }

std::shared_ptr<void> allocate_pinned_raw(size_t nbytes) {
  runtime::activate(current_device());
  void* ptr = nullptr;
  CU_CALL(cuMemHostAlloc, &ptr, std::max<size_t>(nbytes, 1), CU_MEMHOSTALLOC_PORTABLE);
  return std::shared_ptr<void>(ptr, [](void* p) { runtime::driver().cuMemFreeHost(p); });
}

void copy_device_to_device(void* dst, const void* src, size_t nbytes, StreamHandle stream) {
  if (nbytes == 0) return;
  runtime::ForeignWork work(current_device());
  CU_CALL(cuMemcpyDtoDAsync, reinterpret_cast<CUdeviceptr>(dst), reinterpret_cast<CUdeviceptr>(src), nbytes, stream);
}

void memset_device(void* dst, uint8_t value, size_t nbytes, StreamHandle stream) {
  if (nbytes == 0) return;
  runtime::ForeignWork work(current_device());
  CU_CALL(cuMemsetD8Async, reinterpret_cast<CUdeviceptr>(dst), value, nbytes, stream);
}

}  // namespace cuarray
