// The library plan cache, with fake plans (no GPU): hits and misses, LRU eviction by count and by
// bytes, clear, the one-type-per-kind rule, plans held while they execute, and the caches of the
// current device and stream (the null stream of device 0: other devices and real streams need a GPU).
#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "cuarray/errors.hpp"
#include "cuarray/runtime.hpp"
#include "libs/plan_cache.hpp"
#include "runtime/streams/stream_release.hpp"

using namespace cuarray;
using libs::PlanCache;
using libs::PlanKey;
using libs::PlanKind;

namespace {

std::atomic<int> g_alive{0};  // FakePlans not yet destroyed

struct FakePlan {
  explicit FakePlan(int id) : id(id) { ++g_alive; }
  ~FakePlan() { --g_alive; }
  int id;
};

struct SizedPlan {
  SizedPlan(int id, size_t size) : id(id), size(size) {}
  size_t bytes() const { return size; }
  int id;
  size_t size;
};

PlanKey key(int id, PlanKind kind = PlanKind::CufftPlan) {
  PlanKey k(kind);
  k.push_u64(static_cast<uint64_t>(id));
  return k;
}

// Looks `id` up in `cache`, making a FakePlan on a miss; counts the misses; returns the plan's id.
int lookup(PlanCache& cache, int id, int* misses) {
  return cache.lookup_and_exec<FakePlan>(
      key(id), [&] { ++*misses; return std::make_unique<FakePlan>(id); }, [](FakePlan& p) { return p.id; });
}

int lookup_sized(PlanCache& cache, int id, size_t size, int* misses) {
  return cache.lookup_and_exec<SizedPlan>(
      key(id), [&] { ++*misses; return std::make_unique<SizedPlan>(id, size); }, [](SizedPlan& p) { return p.id; });
}

}  // namespace

TEST(PlanCache, MakesOnMissOnly) {
  PlanCache cache;
  int misses = 0;
  EXPECT_EQ(lookup(cache, 1, &misses), 1);
  EXPECT_EQ(lookup(cache, 1, &misses), 1);
  EXPECT_EQ(misses, 1);
  EXPECT_EQ(lookup(cache, 2, &misses), 2);
  EXPECT_EQ(misses, 2);
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.bytes(), 0u);  // FakePlan reports no bytes()
}

TEST(PlanCache, KindsAreSeparateKeySpaces) {
  PlanCache cache;
  int made = 0;
  auto use = [&](PlanKind kind) {
    return cache.lookup_and_exec<FakePlan>(key(7, kind), [&] { return std::make_unique<FakePlan>(++made); },
                                           [](FakePlan& p) { return p.id; });
  };
  EXPECT_EQ(use(PlanKind::CublasHandle), 1);
  EXPECT_EQ(use(PlanKind::CufftPlan), 2);  // same bytes after the kind, another plan
  EXPECT_EQ(use(PlanKind::CublasHandle), 1);
}

TEST(PlanCache, AcceptsSharedPlansAndPassesExecResultThrough) {
  PlanCache cache;
  auto shared = std::make_shared<FakePlan>(5);
  int& ref = cache.lookup_and_exec<FakePlan>(key(5), [&] { return shared; }, [](FakePlan& p) -> int& { return p.id; });
  EXPECT_EQ(&ref, &shared->id);  // the very plan make() gave
  cache.lookup_and_exec<FakePlan>(key(5), [] { return std::shared_ptr<FakePlan>(); }, [](FakePlan&) {});  // void exec
}

TEST(PlanCache, EvictsLeastRecentlyUsedByCount) {
  int alive = g_alive;
  {
    PlanCache cache;
    cache.set_limits(2);
    int misses = 0;
    lookup(cache, 1, &misses);
    lookup(cache, 2, &misses);
    lookup(cache, 1, &misses);  // 2 is now the least recently used
    lookup(cache, 3, &misses);
    EXPECT_EQ(cache.size(), 2u);
    EXPECT_EQ(g_alive - alive, 2);  // the evicted plan was destroyed
    misses = 0;
    lookup(cache, 1, &misses);
    lookup(cache, 3, &misses);
    EXPECT_EQ(misses, 0);
    lookup(cache, 2, &misses);
    EXPECT_EQ(misses, 1);
  }
  EXPECT_EQ(g_alive, alive);
}

TEST(PlanCache, DefaultCountLimitIsSixteen) {
  PlanCache cache;
  EXPECT_EQ(cache.max_plans(), 16u);
  EXPECT_EQ(cache.max_bytes(), PlanCache::kNoByteLimit);
  int misses = 0;
  for (int i = 0; i < 20; ++i) lookup(cache, i, &misses);
  EXPECT_EQ(cache.size(), 16u);
}

TEST(PlanCache, EvictsLeastRecentlyUsedByBytes) {
  PlanCache cache;
  cache.set_limits(16, 100);
  int misses = 0;
  lookup_sized(cache, 1, 40, &misses);
  lookup_sized(cache, 2, 40, &misses);
  EXPECT_EQ(cache.bytes(), 80u);
  lookup_sized(cache, 1, 40, &misses);  // 2 is now the least recently used
  lookup_sized(cache, 3, 40, &misses);
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.bytes(), 80u);
  misses = 0;
  lookup_sized(cache, 1, 40, &misses);
  lookup_sized(cache, 3, 40, &misses);
  EXPECT_EQ(misses, 0);
}

TEST(PlanCache, PlanLargerThanByteLimitRunsButIsNotKept) {
  PlanCache cache;
  cache.set_limits(16, 100);
  int misses = 0;
  lookup_sized(cache, 1, 40, &misses);
  EXPECT_EQ(lookup_sized(cache, 2, 150, &misses), 2);
  EXPECT_EQ(lookup_sized(cache, 2, 150, &misses), 2);
  EXPECT_EQ(misses, 3);
  EXPECT_EQ(cache.size(), 1u);  // and the plan that fits stayed
  EXPECT_EQ(cache.bytes(), 40u);
}

TEST(PlanCache, LoweringLimitsEvictsAtOnce) {
  PlanCache cache;
  int misses = 0;
  for (int i = 0; i < 4; ++i) lookup_sized(cache, i, 10, &misses);
  cache.set_limits(3);
  EXPECT_EQ(cache.size(), 3u);
  cache.set_limits(16, 15);
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(cache.bytes(), 10u);
  misses = 0;
  lookup_sized(cache, 3, 10, &misses);  // the most recently used one stayed
  EXPECT_EQ(misses, 0);
  cache.set_limits(0);  // keeps nothing: every call makes its plan
  EXPECT_EQ(cache.size(), 0u);
  lookup_sized(cache, 3, 10, &misses);
  lookup_sized(cache, 3, 10, &misses);
  EXPECT_EQ(misses, 2);
}

TEST(PlanCache, ClearDropsEveryPlan) {
  int alive = g_alive;
  PlanCache cache;
  int misses = 0;
  lookup(cache, 1, &misses);
  lookup(cache, 2, &misses);
  cache.clear();
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(cache.bytes(), 0u);
  EXPECT_EQ(g_alive, alive);
  lookup(cache, 1, &misses);
  EXPECT_EQ(misses, 3);
}

TEST(PlanCache, OneKindHoldsOnePlanType) {
  PlanCache cache;
  int misses = 0;
  lookup(cache, 1, &misses);
  // Another key of the same kind, another type: a bug in the tenant, caught before make() runs.
  EXPECT_THROW(lookup_sized(cache, 2, 10, &misses), std::logic_error);
  EXPECT_THROW(lookup_sized(cache, 1, 10, &misses), std::logic_error);
  EXPECT_EQ(misses, 1);
  cache.clear();  // the binding outlives the plans
  EXPECT_THROW(lookup_sized(cache, 1, 10, &misses), std::logic_error);
}

TEST(PlanCache, PlanInUseSurvivesClearFromAnotherThread) {
  PlanCache cache;
  std::atomic<bool> executing{false}, cleared{false};
  std::atomic<int> alive_during_exec{-1};
  const int alive = g_alive;
  std::thread user([&] {
    cache.lookup_and_exec<FakePlan>(
        key(1), [] { return std::make_unique<FakePlan>(1); },
        [&](FakePlan&) {
          executing = true;
          while (!cleared) std::this_thread::yield();
          alive_during_exec = g_alive - alive;
        });
  });
  while (!executing) std::this_thread::yield();
  cache.clear();
  EXPECT_EQ(cache.size(), 0u);
  cleared = true;
  user.join();
  EXPECT_EQ(alive_during_exec, 1);  // cleared from the cache, still alive for its exec
  EXPECT_EQ(g_alive, alive);        // and destroyed when the exec let go
}

TEST(PlanCache, MakeMayUseTheSameCache) {
  PlanCache cache;
  int misses = 0;
  int id = cache.lookup_and_exec<FakePlan>(
      key(1, PlanKind::CusolverDnParams),
      [&] { return std::make_unique<FakePlan>(10 + lookup(cache, 2, &misses)); },  // e.g. params need a handle
      [](FakePlan& p) { return p.id; });
  EXPECT_EQ(id, 12);
  EXPECT_EQ(cache.size(), 2u);
}

TEST(PlanCache, ManyThreads) {
  PlanCache cache;
  cache.set_limits(4);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      int misses = 0;
      for (int i = 0; i < 2000; ++i) {
        int id = (i * 7 + t) % 6;
        if (lookup(cache, id, &misses) != id) ++wrong;
        if (i % 500 == 0) cache.clear();
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong, 0);
  EXPECT_LE(cache.size(), 4u);
}

TEST(PlanCache, KeyLongerThanCapacityThrows) {
  PlanKey k(PlanKind::CufftPlan);
  for (size_t i = 1; i < PlanKey::kCapacity; ++i) k.push(0);
  EXPECT_THROW(k.push(0), std::length_error);
  EXPECT_EQ(k.kind(), PlanKind::CufftPlan);
}

// ---- the caches of the current device and stream --------------------------------------------------

TEST(PlanCacheRegistry, CurrentIsOnePerDeviceAndStreamNotPerThread) {
  PlanCache& here = PlanCache::current();
  EXPECT_EQ(&PlanCache::current(), &here);
  PlanCache* there = nullptr;
  std::thread([&] { there = &PlanCache::current(); }).join();  // device 0, null stream there too
  EXPECT_EQ(there, &here);
}

TEST(PlanCacheRegistry, PerThreadDefaultStreamHasACachePerThread) {
  // One handle (CU_STREAM_PER_THREAD) names a different stream in every thread: sharing one cache,
  // two threads would run the same plan and its work area on two streams at once.
  const auto per_thread = reinterpret_cast<StreamHandle>(0x2);
  PlanCache* first = nullptr;
  PlanCache* again = nullptr;
  PlanCache* other = nullptr;
  auto on_per_thread_stream = [&](PlanCache** a, PlanCache** b) {
    try {
      set_current_stream(Stream::external(per_thread, current_device()));
    } catch (const Error&) {  // no driver: Stream::external checks the device
      return;
    }
    *a = &PlanCache::current();
    if (b) *b = &PlanCache::current();
    set_current_stream(nullptr);
  };
  std::thread([&] { on_per_thread_stream(&first, &again); }).join();
  std::thread([&] { on_per_thread_stream(&other, nullptr); }).join();
  if (!first) GTEST_SKIP() << "no usable CUDA driver";
  EXPECT_EQ(first, again);
  EXPECT_NE(first, other);
  EXPECT_NE(first, &PlanCache::current());  // nor the null stream's
}

TEST(PlanCacheRegistry, ClearPlanCaches) {
  int misses = 0;
  lookup(PlanCache::current(), 1, &misses);
  libs::clear_plan_caches(1);  // another device's: this one keeps its plan
  EXPECT_EQ(PlanCache::current().size(), 1u);
  libs::clear_plan_caches(0);
  EXPECT_EQ(PlanCache::current().size(), 0u);
  lookup(PlanCache::current(), 1, &misses);
  libs::clear_plan_caches();
  EXPECT_EQ(PlanCache::current().size(), 0u);
}

TEST(PlanCacheRegistry, StreamReleaseDropsItsPlans) {
  // Stream::~Stream runs the hooks for the streams cuarray created; calling them for the null
  // stream here stands in for that (creating a real stream needs a GPU).
  const int alive = g_alive;
  int misses = 0;
  lookup(PlanCache::current(), 1, &misses);
  EXPECT_EQ(g_alive - alive, 1);
  runtime::run_stream_release_hooks(0, nullptr);
  EXPECT_EQ(g_alive, alive);
  // The allocator hands the dropped cache's block to the next cache made: a stale memo of the
  // dropped cache in current() would then return this one.
  auto other = std::make_shared<PlanCache>();
  PlanCache& fresh = PlanCache::current();
  EXPECT_NE(&fresh, other.get());
  EXPECT_EQ(fresh.size(), 0u);
  lookup(fresh, 1, &misses);
  EXPECT_EQ(misses, 2);
  libs::clear_plan_caches();
}
