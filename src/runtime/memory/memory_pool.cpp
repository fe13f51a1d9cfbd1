// The device memory pool: a caching allocator with one free list per (stream, rounded size).
//
// A block freed on stream S is reused only by allocations on S, so stream order alone makes reuse
// safe without events (CuPy's rule; the per-thread default stream counts as one stream per thread). Sizes are rounded to at most 1/8 of their power of two, so the
// few distinct sizes a program uses hit the cache; on out-of-memory the cache is released and the
// allocation retried once before OutOfMemory is raised. See docs/memory.md.
#include <mutex>
#include <unordered_map>
#include <vector>

#include "runtime/context.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/runtime.hpp"
#include "runtime/driver.hpp"
#include "runtime/streams/foreign_work.hpp"
#include "runtime/launch.hpp"
#include "runtime/memory/memory_internal.hpp"
#include "runtime/streams/stream_identity.hpp"

namespace cuarray {
namespace {

size_t round_size(size_t n) {
  constexpr size_t kMinGranule = 512;
  size_t pow2 = 1;
  while (pow2 < n) pow2 <<= 1;
  size_t granule = std::max(kMinGranule, pow2 / 8);
  return (n + granule - 1) / granule * granule;
}

std::string with_commas(size_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}

}  // namespace

struct MemoryPool::Impl {
  int device;
  BlockSource source;  // empty: cuMemAlloc directly
  bool immortal = false;  // the default pools: never destroyed, so their blocks need not keep them alive
  mutable std::mutex mutex;
  // stream -> rounded size -> cached blocks; vectors keep their capacity, so a steady state
  // allocates no bookkeeping memory per call.
  std::unordered_map<StreamHandle, std::unordered_map<size_t, std::vector<std::shared_ptr<Buffer>>>> free_lists;
  size_t used = 0, cached = 0, limit = 0;

  // A pool of one's own dies with its last block: work queued before a cached block's free may
  // still use it, so the device is synchronized before its blocks go back to their source.
  ~Impl() {
    try {
      take_cache_locked();
    } catch (const Error&) {
    }
  }

  void release(std::shared_ptr<Buffer> block, size_t size, StreamHandle stream) {
    std::lock_guard<std::mutex> lock(mutex);
    free_lists[stream][size].push_back(std::move(block));
    used -= size;
    cached += size;
  }

  // Takes the cached blocks out of the lists, for the caller to drop once the mutex is released:
  // a block from a Python allocator takes the GIL when it dies. Caller holds the mutex.
  std::vector<std::shared_ptr<Buffer>> take_cache_locked() {
    std::vector<std::shared_ptr<Buffer>> blocks;
    if (cached == 0) return blocks;
    {
      runtime::ForeignWork work(device);
      CU_CALL(cuCtxSynchronize);  // a cached block may still be read by work queued before its free
    }
    for (auto& [stream, by_size] : free_lists)
      for (auto& [size, list] : by_size)
        for (auto& block : list) blocks.push_back(std::move(block));
    free_lists.clear();
    cached = 0;
    return blocks;
  }

  std::shared_ptr<Buffer> take_cached(size_t size, StreamHandle stream) {
    auto list = free_lists.find(stream);
    if (list == free_lists.end()) return nullptr;
    auto it = list->second.find(size);
    if (it == list->second.end() || it->second.empty()) return nullptr;
    std::shared_ptr<Buffer> block = std::move(it->second.back());
    it->second.pop_back();
    cached -= size;
    return block;
  }

  bool within_limit(size_t size) const { return limit == 0 || used + cached + size <= limit; }

  // A new block. A source of one's own runs with the mutex released: a Python allocator takes the
  // GIL, which another thread may hold while it waits for this mutex.
  std::shared_ptr<Buffer> allocate_new(size_t size, std::unique_lock<std::mutex>& lock) {
    if (source) {
      lock.unlock();
      std::shared_ptr<Buffer> block;
      try {
        block = source(size, device);
      } catch (...) {
        lock.lock();
        throw;
      }
      lock.lock();
      return block;
    }
    runtime::activate(device);
    CUdeviceptr ptr = 0;
    CUresult status = runtime::driver().cuMemAlloc(&ptr, size);
    if (status == CUDA_ERROR_OUT_OF_MEMORY) return nullptr;
    runtime::check(status, "cuMemAlloc");
    return adopt_device_allocation(reinterpret_cast<void*>(ptr), size, device);
  }

  [[noreturn]] void out_of_memory(size_t requested) {
    std::string msg = "Out of memory allocating " + with_commas(requested) + " bytes (allocated so far: " +
                      with_commas(used) + " bytes";
    if (limit) msg += ", limit set to: " + with_commas(limit) + " bytes";
    size_t free_bytes = 0, total = 0;
    runtime::activate(device);
    if (runtime::driver().cuMemGetInfo(&free_bytes, &total) == CUDA_SUCCESS)
      msg += ", device free: " + with_commas(free_bytes) + " of " + with_commas(total) + " bytes";
    throw_error(ErrorKind::OutOfMemory, msg + ").");
  }
};

Buffer::~Buffer() {
  if (shared()) runtime::note_shared_buffer(-1);
}

void Buffer::share() {
  if (!shared_.exchange(true, std::memory_order_relaxed)) runtime::note_shared_buffer(+1);
}

namespace {

class PoolBuffer final : public Buffer {
 public:
  PoolBuffer(MemoryPool::Impl* pool, std::shared_ptr<MemoryPool::Impl> keep_alive, std::shared_ptr<Buffer> block,
             size_t size, StreamHandle stream)
      : Buffer(block->ptr(), size, pool->device), pool_(pool), keep_alive_(std::move(keep_alive)),
        block_(std::move(block)), stream_(stream) {}
  ~PoolBuffer() override { pool_->release(std::move(block_), size_, stream_); }

 private:
  MemoryPool::Impl* pool_;
  std::shared_ptr<MemoryPool::Impl> keep_alive_;  // null for the default pools, which never die
  std::shared_ptr<Buffer> block_;
  StreamHandle stream_;
};

}  // namespace

MemoryPool::MemoryPool(int device, BlockSource source) : impl_(std::make_shared<Impl>()) {
  impl_->device = device;
  impl_->source = std::move(source);
}

MemoryPool::~MemoryPool() = default;

MemoryPool& MemoryPool::of_device(int id) {
  // Created once for every device; never destroyed, since buffers may outlive static teardown.
  static const std::vector<MemoryPool*> pools = [] {
    std::vector<MemoryPool*> v;
    for (int d = 0; d < device_count(); ++d) {
      v.push_back(new MemoryPool(d, nullptr));
      v.back()->impl_->immortal = true;
    }
    return v;
  }();
  runtime::check_device_ordinal(id);  // pools has one per device
  return *pools[id];
}

std::shared_ptr<MemoryPool> MemoryPool::create(int device, BlockSource source) {
  runtime::check_device_ordinal(device);
  return std::shared_ptr<MemoryPool>(new MemoryPool(device, std::move(source)));
}

std::shared_ptr<Buffer> MemoryPool::allocate(size_t nbytes, StreamHandle stream) {
  stream = runtime::stream_identity(stream);  // the per-thread default stream: one list per thread
  size_t size = round_size(std::max<size_t>(nbytes, 1));
  Impl& p = *impl_;
  std::unique_lock<std::mutex> lock(p.mutex);
  std::shared_ptr<Buffer> block = p.take_cached(size, stream);
  if (!block) {
    if (p.within_limit(size)) block = p.allocate_new(size, lock);
    if (!block) {  // over the limit or the device is full: give back the cache and try once more
      std::vector<std::shared_ptr<Buffer>> released = p.take_cache_locked();
      if (p.source) lock.unlock();  // its blocks may take the GIL to die (see allocate_new)
      released.clear();             // their source must have them back before the retry
      if (!lock.owns_lock()) lock.lock();
      if (!p.within_limit(size)) p.out_of_memory(nbytes);
      block = p.allocate_new(size, lock);
      if (!block) p.out_of_memory(nbytes);
    }
  }
  p.used += size;
  return std::make_shared<PoolBuffer>(&p, p.immortal ? nullptr : impl_, std::move(block), size, stream);
}

size_t MemoryPool::used_bytes() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->used;
}
size_t MemoryPool::free_bytes() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->cached;
}
size_t MemoryPool::total_bytes() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->used + impl_->cached;
}
int MemoryPool::n_free_blocks() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  size_t n = 0;
  for (auto& [stream, by_size] : impl_->free_lists)
    for (auto& [size, blocks] : by_size) n += blocks.size();
  return static_cast<int>(n);
}
void MemoryPool::free_all_blocks() {
  std::vector<std::shared_ptr<Buffer>> released;
  std::lock_guard<std::mutex> lock(impl_->mutex);
  released = impl_->take_cache_locked();  // freed when `released` dies, after the mutex
}
void MemoryPool::set_limit(size_t bytes) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->limit = bytes;
}
size_t MemoryPool::get_limit() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->limit;
}

void rehome_stream_blocks(int device, StreamHandle stream) {
  MemoryPool::Impl& p = *MemoryPool::of_device(device).impl();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto it = p.free_lists.find(stream);
  if (it == p.free_lists.end()) return;
  auto& null_lists = p.free_lists[nullptr];
  for (auto& [size, blocks] : it->second) {
    auto& dst = null_lists[size];
    dst.insert(dst.end(), blocks.begin(), blocks.end());
  }
  p.free_lists.erase(it);
}

}  // namespace cuarray
