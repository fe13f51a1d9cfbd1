// Stream-ordered device memory from the driver's memory pools (cuMemAllocFromPoolAsync and
// cuMemFreeAsync): CuPy's MemoryAsync and MemoryAsyncPool, and the pool calls of its runtime module.
// See docs/memory.md.
//
// A free is queued on a stream, so it must come after every use of the memory on that stream: the
// launches held before it are submitted first (runtime::ForeignWork). An allocation needs no such
// care: work held from before it cannot use memory it has not been given yet.
#include <atomic>
#include <map>
#include <mutex>

#include "cuarray/errors.hpp"
#include "cuarray/runtime.hpp"
#include "runtime/context.hpp"
#include "runtime/driver.hpp"
#include "runtime/streams/foreign_work.hpp"
#include "runtime/memory/memory_internal.hpp"
#include "runtime/streams/stream_release.hpp"

namespace cuarray {
namespace {

using Liveness = std::shared_ptr<const std::atomic<bool>>;

// Whether the streams memory was allocated on still exist. A stream cuarray created may be
// destroyed while memory allocated on it lives on (the driver may then give its handle to a new
// stream), so each (device, stream) has a flag that its release clears; a buffer whose flag is
// cleared is freed on the legacy default stream instead.
class StreamLiveness {
 public:
  static StreamLiveness& instance() {
    static StreamLiveness* made = [] {  // never destroyed: streams may die during static teardown
      auto* s = new StreamLiveness;
      runtime::on_stream_release(&released);
      return s;
    }();
    return *made;
  }

  Liveness of(int device, StreamHandle stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::shared_ptr<std::atomic<bool>>& flag = flags_[{device, stream}];
    if (!flag) flag = std::make_shared<std::atomic<bool>>(true);
    return flag;
  }

 private:
  static void released(int device, StreamHandle stream) noexcept {
    StreamLiveness& self = instance();
    std::lock_guard<std::mutex> lock(self.mutex_);
    auto it = self.flags_.find({device, stream});
    if (it == self.flags_.end()) return;
    it->second->store(false, std::memory_order_release);
    self.flags_.erase(it);
  }

  std::mutex mutex_;
  std::map<std::pair<int, StreamHandle>, std::shared_ptr<std::atomic<bool>>> flags_;
};

// The legacy default stream and the per-thread default streams never die. A per-thread stream's
// handle names the freeing thread's own stream, which need not be the allocating thread's, so its
// memory is freed on the legacy stream, which waits for every per-thread stream's work.
bool is_default_stream(StreamHandle stream) {
  return stream == nullptr || stream == CU_STREAM_LEGACY || stream == CU_STREAM_PER_THREAD;
}

class StreamOrderedBuffer final : public Buffer {
 public:
  StreamOrderedBuffer(void* ptr, size_t size, int device, StreamHandle stream)
      : Buffer(ptr, size, device) {
    free_on(stream);
  }

  void free_on(StreamHandle stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    stream_ = stream == CU_STREAM_PER_THREAD ? CU_STREAM_LEGACY : stream;
    alive_ = is_default_stream(stream) ? nullptr : StreamLiveness::instance().of(device_, stream);
  }

  ~StreamOrderedBuffer() override {
    if (!ptr_) return;
    // A failure here (a dead context at exit) leaves nothing to free. An external stream cuarray
    // cannot watch may be gone: the driver says so, and the legacy stream takes the free (CuPy's way).
    try {
      runtime::ForeignWork work(device_);
      const auto dptr = reinterpret_cast<CUdeviceptr>(ptr_);
      const bool alive = !alive_ || alive_->load(std::memory_order_acquire);
      if (!alive || runtime::driver().cuMemFreeAsync(dptr, stream_) != CUDA_SUCCESS)
        runtime::driver().cuMemFreeAsync(dptr, CU_STREAM_LEGACY);
    } catch (const Error&) {
    }
  }

 private:
  std::mutex mutex_;
  StreamHandle stream_ = nullptr;
  Liveness alive_;
};

// Throws where the device has no memory pools (read once per device, with its properties).
void check_pools_supported(int device) {
  if (!device_properties(device).memory_pools)
    throw_error(ErrorKind::CudaRuntime, "device " + std::to_string(device) +
                                            " does not support stream-ordered memory pools (malloc_async)",
                cudaErrorNotSupported);
}

CUdevice device_handle(int device) {
  check_pools_supported(device);
  CUdevice dev;
  CU_CALL(cuDeviceGet, &dev, device);
  return dev;
}

// The int-valued attributes (the reuse policies); the others are cuuint64_t.
bool int_valued(int attribute) {
  return attribute == CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES ||
         attribute == CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC ||
         attribute == CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES;
}

CUmemPool_attribute checked_attribute(int attribute) {
  if (attribute < CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES || attribute > CU_MEMPOOL_ATTR_USED_MEM_HIGH)
    throw_error(ErrorKind::CudaRuntime, "cudaErrorInvalidValue: unknown memory pool attribute " + std::to_string(attribute),
                cudaErrorInvalidValue);
  return static_cast<CUmemPool_attribute>(attribute);
}

CUmemoryPool checked_pool(MemPoolHandle pool) {
  if (!pool) throw_error(ErrorKind::CudaRuntime, "cudaErrorInvalidValue: a null memory pool", cudaErrorInvalidValue);
  return pool;
}

}  // namespace

std::shared_ptr<Buffer> allocate_stream_ordered(size_t nbytes, int device, StreamHandle stream, MemPoolHandle pool) {
  // Per allocation (MemoryAsyncPool as the allocator): no driver query but the allocation itself.
  check_pools_supported(device);
  runtime::ScopedActivation on_device(device);
  if (!pool) pool = current_mem_pool(device);
  CUdeviceptr ptr = 0;
  if (nbytes > 0) {
    CUresult status = runtime::driver().cuMemAllocFromPoolAsync(&ptr, nbytes, pool, stream);
    if (status == CUDA_ERROR_OUT_OF_MEMORY) {
      // Memory freed on the stream returns to the pool once the stream reaches the frees, and
      // cuarray's own pool may be caching blocks: both are given back before the last try.
      MemoryPool::of_device(device).free_all_blocks();
      runtime::ForeignWork work(device);
      CU_CALL(cuStreamSynchronize, stream);
      status = runtime::driver().cuMemAllocFromPoolAsync(&ptr, nbytes, pool, stream);
    }
    if (status == CUDA_ERROR_OUT_OF_MEMORY)
      throw_error(ErrorKind::OutOfMemory, "Out of memory allocating " + std::to_string(nbytes) +
                                              " bytes from a stream-ordered memory pool (malloc_async).");
    runtime::check(status, "cuMemAllocFromPoolAsync");
  }
  try {
    return std::make_shared<StreamOrderedBuffer>(reinterpret_cast<void*>(ptr), nbytes, device, stream);
  } catch (...) {
    runtime::driver().cuMemFreeAsync(ptr, stream);
    throw;
  }
}

bool is_stream_ordered(const Buffer& buffer) { return dynamic_cast<const StreamOrderedBuffer*>(&buffer) != nullptr; }

void free_on_stream(const std::shared_ptr<Buffer>& buffer, StreamHandle stream) {
  auto* ordered = dynamic_cast<StreamOrderedBuffer*>(buffer.get());
  if (!ordered) throw_error(ErrorKind::Value, "free_on_stream: the memory is not from a stream-ordered pool");
  ordered->free_on(stream);
}

MemPoolHandle default_mem_pool(int device) {
  const CUdevice dev = device_handle(device);
  CUmemoryPool pool = nullptr;
  CU_CALL(cuDeviceGetDefaultMemPool, &pool, dev);
  return pool;
}

MemPoolHandle current_mem_pool(int device) {
  const CUdevice dev = device_handle(device);
  CUmemoryPool pool = nullptr;
  CU_CALL(cuDeviceGetMemPool, &pool, dev);
  return pool;
}

void set_current_mem_pool(int device, MemPoolHandle pool) {
  CUmemoryPool checked = checked_pool(pool);
  const CUdevice dev = device_handle(device);
  CU_CALL(cuDeviceSetMemPool, dev, checked);
}

// The checks run before the driver is asked for (CU_CALL's arguments may be evaluated after it).
void trim_mem_pool(MemPoolHandle pool, size_t keep_bytes) {
  CUmemoryPool checked = checked_pool(pool);
  CU_CALL(cuMemPoolTrimTo, checked, keep_bytes);
}

uint64_t mem_pool_attribute(MemPoolHandle pool, int attribute) {
  const CUmemPool_attribute attr = checked_attribute(attribute);
  CUmemoryPool checked = checked_pool(pool);
  if (int_valued(attribute)) {
    int value = 0;
    CU_CALL(cuMemPoolGetAttribute, checked, attr, &value);
    return static_cast<uint64_t>(value);
  }
  cuuint64_t value = 0;
  CU_CALL(cuMemPoolGetAttribute, checked, attr, &value);
  return value;
}

void set_mem_pool_attribute(MemPoolHandle pool, int attribute, uint64_t value) {
  const CUmemPool_attribute attr = checked_attribute(attribute);
  CUmemoryPool checked = checked_pool(pool);
  if (int_valued(attribute)) {
    int v = static_cast<int>(value != 0);
    CU_CALL(cuMemPoolSetAttribute, checked, attr, &v);
    return;
  }
  cuuint64_t v = value;
  CU_CALL(cuMemPoolSetAttribute, checked, attr, &v);
}

}  // namespace cuarray
