#include "libs/plan_cache.hpp"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cuarray/runtime.hpp"
#include "runtime/streams/stream_identity.hpp"
#include "runtime/streams/stream_release.hpp"

namespace cuarray::libs {
namespace {

struct CacheId {
  int device;
  StreamHandle stream;
  bool operator==(const CacheId&) const = default;
};
struct CacheIdHash {
  size_t operator()(const CacheId& id) const {
    return std::hash<const void*>()(id.stream) ^ (static_cast<size_t>(id.device) * 0x9e3779b97f4a7c15ull);
  }
};

// The caches by (device, stream). Each is shared so that clearing one never races with its stream
// being destroyed: whoever holds it last destroys it, outside the registry's lock.
struct Registry {
  std::mutex mutex;
  std::unordered_map<CacheId, std::shared_ptr<PlanCache>, CacheIdHash> caches;
  // Bumped whenever a cache leaves the map, so that a thread's memo of it (PlanCache::current)
  // is not trusted after the stream is gone and its handle value handed to a new stream.
  std::atomic<uint64_t> generation{1};
};

void drop_stream_caches(int device, StreamHandle stream) noexcept;

Registry& registry() {
  // Never destroyed: the plans still kept at exit are left to the process's end rather than
  // destroyed during static teardown, when the libraries and the driver may be gone.
  static Registry* r = [] {
    auto* made = new Registry;
    runtime::on_stream_release(&drop_stream_caches);
    return made;
  }();
  return *r;
}

void drop_stream_caches(int device, StreamHandle stream) noexcept {
  std::shared_ptr<PlanCache> cache;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.caches.find({device, stream});
    if (it == r.caches.end()) return;
    cache = std::move(it->second);
    r.caches.erase(it);
    r.generation.fetch_add(1, std::memory_order_release);
  }
  cache->clear();  // now, while the stream exists, even if a clear_plan_caches() still holds it
}

// Copied out of the registry so that the plans are destroyed without its lock held.
std::vector<std::shared_ptr<PlanCache>> caches_of(std::optional<int> device) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::shared_ptr<PlanCache>> out;
  for (const auto& [id, cache] : r.caches)
    if (!device || id.device == *device) out.push_back(cache);
  return out;
}

}  // namespace

PlanCache& PlanCache::current() {
  struct Memo {
    int device = -1;
    StreamHandle stream = nullptr;
    uint64_t generation = 0;
    PlanCache* cache = nullptr;
  };
  thread_local Memo memo;  // keeps a repeated call off the registry's lock
  const int device = current_device();
  // The per-thread default stream is a different stream, with its own plans, in every thread.
  const StreamHandle stream = runtime::stream_identity(current_stream_handle());
  Registry& r = registry();
  const uint64_t generation = r.generation.load(std::memory_order_acquire);
  if (memo.cache && memo.generation == generation && memo.device == device && memo.stream == stream)
    return *memo.cache;
  std::lock_guard<std::mutex> lock(r.mutex);
  std::shared_ptr<PlanCache>& cache = r.caches[{device, stream}];
  if (!cache) cache = std::make_shared<PlanCache>();
  memo = {device, stream, generation, cache.get()};
  return *cache;
}

std::shared_ptr<void> PlanCache::find(const PlanKey& key, const std::type_info& type) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::type_info*& kind_type = kind_types_[key[0]];
  if (!kind_type) kind_type = &type;
  if (*kind_type != type)
    throw std::logic_error("plan kind " + std::to_string(key[0]) + " holds " + kind_type->name() +
                           " plans; asked for " + type.name());
  auto it = index_.find(key);
  if (it == index_.end()) return nullptr;
  entries_.splice(entries_.begin(), entries_, it->second);
  return it->second->plan;
}

void PlanCache::keep(const PlanKey& key, std::shared_ptr<void> plan, size_t bytes) {
  Entries evicted;  // destroyed after the lock is released: a plan's destructor calls its library
  std::lock_guard<std::mutex> lock(mutex_);
  // Not kept: caching is off, the plan alone passes the byte limit, or another thread made and
  // kept this key's plan meanwhile (this one serves its exec and goes).
  if (max_plans_ == 0 || bytes > max_bytes_ || index_.count(key)) return;
  entries_.push_front({key, std::move(plan), bytes});
  index_.emplace(key, entries_.begin());
  bytes_ += bytes;
  evict_to_fit(evicted);
}

void PlanCache::evict_to_fit(Entries& evicted) {
  while (!entries_.empty() && (entries_.size() > max_plans_ || bytes_ > max_bytes_)) {
    auto last = std::prev(entries_.end());
    index_.erase(last->key);
    bytes_ -= last->bytes;
    evicted.splice(evicted.begin(), entries_, last);
  }
}

void PlanCache::set_limits(size_t max_plans, size_t max_bytes) {
  Entries evicted;
  std::lock_guard<std::mutex> lock(mutex_);
  max_plans_ = max_plans;
  max_bytes_ = max_bytes;
  evict_to_fit(evicted);
}

size_t PlanCache::max_plans() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return max_plans_;
}

size_t PlanCache::max_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return max_bytes_;
}

void PlanCache::clear() {
  Entries dropped;
  std::lock_guard<std::mutex> lock(mutex_);
  dropped.swap(entries_);
  index_.clear();
  bytes_ = 0;
}

size_t PlanCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

size_t PlanCache::bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_;
}

void clear_plan_caches() {
  for (const auto& cache : caches_of(std::nullopt)) cache->clear();
}

void clear_plan_caches(int device) {
  for (const auto& cache : caches_of(device)) cache->clear();
}

}  // namespace cuarray::libs
