// Host <-> device copies. Pageable memory cannot be read by the copy engines directly, so large
// copies are staged through pinned buffers in a pipeline: while the engine moves chunk i, the host
// threads fill (or drain) chunk i+1. See docs/memory.md.
#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/context.hpp"
#include "runtime/current_device_scope.hpp"
#include "runtime/peer_path.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/runtime.hpp"
#include "runtime/driver.hpp"
#include "runtime/streams/foreign_work.hpp"
#include "runtime/memory/host_copy_workers.hpp"

namespace cuarray {

struct PinnedMemoryPool::Impl {
  // Page-locked memory cannot be swapped: cache at most this much of it once freed.
  static constexpr size_t kMaxCachedBytes = size_t{2} << 30;
  std::mutex mutex;
  std::multimap<size_t, void*> free_blocks;
  size_t total = 0;   // allocated and not returned to the driver
  size_t cached = 0;  // of which sitting in free_blocks
};

PinnedMemoryPool::PinnedMemoryPool() : impl_(std::make_unique<Impl>()) {}

PinnedMemoryPool& PinnedMemoryPool::instance() {
  static PinnedMemoryPool* pool = new PinnedMemoryPool();  // outlives every buffer
  return *pool;
}

std::shared_ptr<void> PinnedMemoryPool::allocate(size_t nbytes) {
  Impl* p = impl_.get();
  void* ptr = nullptr;
  {
    std::lock_guard<std::mutex> lock(p->mutex);
    auto it = p->free_blocks.find(nbytes);
    if (it != p->free_blocks.end()) {
      ptr = it->second;
      p->free_blocks.erase(it);
      p->cached -= nbytes;
    }
  }
  if (!ptr) {
    runtime::activate(current_device());
    CU_CALL(cuMemHostAlloc, &ptr, nbytes, CU_MEMHOSTALLOC_PORTABLE);
    std::lock_guard<std::mutex> lock(p->mutex);
    p->total += nbytes;
  }
  return std::shared_ptr<void>(ptr, [p, nbytes](void* q) {
    std::lock_guard<std::mutex> lock(p->mutex);
    if (p->cached + nbytes > Impl::kMaxCachedBytes) {
      runtime::driver().cuMemFreeHost(q);
      p->total -= nbytes;
      return;
    }
    p->free_blocks.emplace(nbytes, q);
    p->cached += nbytes;
  });
}

void PinnedMemoryPool::free_all_blocks() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  for (auto& [size, ptr] : impl_->free_blocks) {
    runtime::driver().cuMemFreeHost(ptr);
    impl_->total -= size;
  }
  impl_->free_blocks.clear();
  impl_->cached = 0;
}

size_t PinnedMemoryPool::n_free_blocks() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->free_blocks.size();
}

size_t PinnedMemoryPool::total_bytes() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->total;
}

namespace {

constexpr size_t kStageBelow = 1 << 20;  // smaller copies go straight through the driver
constexpr size_t kChunk = 8 << 20;
constexpr int kStages = 3;

// One pinned chunk and the event that says when the copy engine is done with it.
struct Stage {
  std::shared_ptr<void> buffer;
  CUevent done = nullptr;
  bool pending = false;
};

class StagingPipeline {
 public:
  StagingPipeline() {
    for (Stage& s : stages_) {
      s.buffer = allocate_pinned(kChunk);
      CU_CALL(cuEventCreate, &s.done, CU_EVENT_DISABLE_TIMING);
    }
  }
  ~StagingPipeline() {
    for (Stage& s : stages_) {
      if (s.pending) runtime::driver().cuEventSynchronize(s.done);
      runtime::driver().cuEventDestroy(s.done);
    }
  }
  Stage& stage(size_t i) { return stages_[i % kStages]; }
  void wait(Stage& s) {
    if (s.pending) CU_CALL(cuEventSynchronize, s.done);
    s.pending = false;
  }
  void mark(Stage& s, CUstream stream) {
    CU_CALL(cuEventRecord, s.done, stream);
    s.pending = true;
  }

 private:
  std::array<Stage, kStages> stages_;
};

// Page-locked host memory (ours or anyone's) is read and written by the copy engines directly.
// cuPointerGetAttributes, unlike cuPointerGetAttribute, answers "unknown" (0) for memory CUDA
// does not know instead of failing, so asking leaves nothing for an error checker to report.
bool is_pinned(const void* host) {
  unsigned int type = 0;
  CUpointer_attribute attribute = CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
  void* value = &type;
  CUresult r = runtime::driver().cuPointerGetAttributes(1, &attribute, &value, reinterpret_cast<CUdeviceptr>(host));
  return r == CUDA_SUCCESS && type == CU_MEMORYTYPE_HOST;
}

}  // namespace

void copy_host_to_device(void* dst, const void* src, size_t nbytes, StreamHandle stream) {
  if (nbytes == 0) return;
  runtime::ForeignWork work(current_device());
  if (nbytes < kStageBelow || is_pinned(src)) {
    CU_CALL(cuMemcpyHtoDAsync, reinterpret_cast<CUdeviceptr>(dst), src, nbytes, stream);
    if (nbytes >= kStageBelow) CU_CALL(cuStreamSynchronize, stream);  // the caller may reuse src at once
    return;
  }
  StagingPipeline pipe;
  for (size_t off = 0, i = 0; off < nbytes; off += kChunk, ++i) {
    size_t len = std::min(kChunk, nbytes - off);
    Stage& s = pipe.stage(i);
    pipe.wait(s);
    runtime::parallel_memcpy(s.buffer.get(), static_cast<const char*>(src) + off, len);
    CU_CALL(cuMemcpyHtoDAsync, reinterpret_cast<CUdeviceptr>(dst) + off, s.buffer.get(), len, stream);
    pipe.mark(s, stream);
  }
  // The destructor waits for the last chunks: the staging buffers go back to the pool only when idle.
}

void copy_device_to_host(void* dst, const void* src, size_t nbytes, StreamHandle stream) {
  if (nbytes == 0) return;
  runtime::ForeignWork work(current_device());
  if (nbytes < kStageBelow || is_pinned(dst)) {
    CU_CALL(cuMemcpyDtoHAsync, dst, reinterpret_cast<CUdeviceptr>(src), nbytes, stream);
    CU_CALL(cuStreamSynchronize, stream);
    return;
  }
  StagingPipeline pipe;
  const size_t chunks = (nbytes + kChunk - 1) / kChunk;
  auto drain = [&](size_t i) {
    size_t off = i * kChunk, len = std::min(kChunk, nbytes - off);
    Stage& s = pipe.stage(i);
    pipe.wait(s);
    runtime::parallel_memcpy(static_cast<char*>(dst) + off, s.buffer.get(), len);
  };
  // Keep kStages - 1 chunks in flight ahead of the one being drained.
  for (size_t i = 0; i < chunks; ++i) {
    if (i >= kStages - 1) drain(i - (kStages - 1));
    size_t off = i * kChunk, len = std::min(kChunk, nbytes - off);
    Stage& s = pipe.stage(i);
    CU_CALL(cuMemcpyDtoHAsync, s.buffer.get(), reinterpret_cast<CUdeviceptr>(src) + off, len, stream);
    pipe.mark(s, stream);
  }
  for (size_t i = chunks > kStages - 1 ? chunks - (kStages - 1) : 0; i < chunks; ++i) drain(i);
}

namespace {

// An event recorded now on `stream`, created on `device` (Event's device is the current one).
std::unique_ptr<Event> record_on(int device, StreamHandle stream) {
  runtime::CurrentDeviceScope on(device);
  auto event = std::make_unique<Event>(false, true, false);
  event->record(stream);
  return event;
}

StreamHandle current_stream_of(int device) {
  runtime::CurrentDeviceScope on(device);
  return current_stream_handle();
}

}  // namespace

void copy_peer(void* dst, int dst_device, const void* src, int src_device, size_t nbytes, StreamHandle stream,
               int stream_device) {
  if (nbytes == 0) return;
  runtime::open_peer_path(dst_device, src_device);
  // cuMemcpyPeerAsync is ordered on `stream` alone. The source device's current stream may still be
  // writing the source, and its later work (the pool handing the source's memory to a new array)
  // must not overwrite it before the copy has read it: one event each way orders the two streams
  // without a host synchronization.
  const StreamHandle source_stream = current_stream_of(src_device);
  const auto source_written = record_on(src_device, source_stream);
  {
    runtime::CurrentDeviceScope on(stream_device);
    stream_wait_event(stream, *source_written);
  }
  {
    runtime::ForeignWork work(stream_device);
    CUcontext dst_ctx, src_ctx;
    runtime::activate(dst_device);
    CU_CALL(cuCtxGetCurrent, &dst_ctx);
    runtime::activate(src_device);
    CU_CALL(cuCtxGetCurrent, &src_ctx);
    runtime::activate(stream_device);  // the stream's context is current for the copy
    CU_CALL(cuMemcpyPeerAsync, reinterpret_cast<CUdeviceptr>(dst), dst_ctx, reinterpret_cast<CUdeviceptr>(src),
            src_ctx, nbytes, stream);
  }
  const auto copied = record_on(stream_device, stream);
  runtime::CurrentDeviceScope on(src_device);
  stream_wait_event(source_stream, *copied);
}

}  // namespace cuarray
