// The one cache every library plan and handle goes through (cuBLAS handles, cuSOLVER params, cuFFT
// plans), one per device and stream, in the shape of MatX's LookupAndExec:
//
//   PlanCache::current().lookup_and_exec<FftPlan>(key,
//       [&] { return std::make_unique<FftPlan>(...); },   // on a miss
//       [&](FftPlan& plan) { plan.forward(in, out); });   // always, with the plan held
//
// A hit is one hash lookup under the cache's own (uncontended) mutex and allocates nothing. The
// cache keeps at most max_plans() plans and, for plans that report `size_t bytes() const` (their
// workspace), at most max_bytes() bytes, evicting the least recently used. See docs/libraries.md.
#pragma once
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <type_traits>
#include <typeinfo>
#include <unordered_map>
#include <utility>

#include "libs/plan_key.hpp"

namespace cuarray::libs {

class PlanCache {
 public:
  static constexpr size_t kDefaultMaxPlans = 16;  // as CuPy's FFT plan cache
  static constexpr size_t kNoByteLimit = SIZE_MAX;

  PlanCache() = default;
  PlanCache(const PlanCache&) = delete;
  PlanCache& operator=(const PlanCache&) = delete;

  // The cache of the current device and its current stream (include/cuarray/runtime.hpp). It lives
  // until that stream is destroyed; the null stream's lives for the process.
  static PlanCache& current();

  // Finds the plan of `key`, or makes one with make() (returning std::unique_ptr<Plan> or
  // std::shared_ptr<Plan>) and keeps it if the limits allow; then returns exec(Plan&). The plan is
  // held while exec runs, so a concurrent eviction or clear never destroys a plan in use; its
  // result must not refer into the plan. make and exec run without the cache locked: they may use
  // the cache themselves. Every key of one PlanKind must name the same Plan type: a different one
  // throws std::logic_error.
  template <class Plan, class Make, class Exec>
  decltype(auto) lookup_and_exec(const PlanKey& key, Make&& make, Exec&& exec) {
    std::shared_ptr<void> plan = find(key, typeid(Plan));
    if (!plan) {
      using Made = std::invoke_result_t<Make>;
      static_assert(std::is_convertible_v<Made, std::shared_ptr<Plan>>,
                    "make() returns a std::unique_ptr<Plan> or std::shared_ptr<Plan>");
      std::shared_ptr<Plan> made = std::forward<Make>(make)();
      if (!made) throw std::logic_error("a plan cache's make() returned no plan");
      size_t bytes = 0;
      if constexpr (requires(const Plan& p) { { p.bytes() } -> std::convertible_to<size_t>; }) bytes = made->bytes();
      plan = std::move(made);
      keep(key, plan, bytes);
    }
    return std::forward<Exec>(exec)(*static_cast<Plan*>(plan.get()));
  }

  // max_plans 0 keeps nothing (every call makes its plan); a plan larger than max_bytes is used once
  // and not kept. Lowering a limit evicts at once.
  void set_limits(size_t max_plans, size_t max_bytes = kNoByteLimit);
  size_t max_plans() const;
  size_t max_bytes() const;

  void clear();          // drops every plan (plans in use by an exec live until it returns)
  size_t size() const;   // plans kept
  size_t bytes() const;  // their bytes() summed

 private:
  struct Entry {
    PlanKey key;
    std::shared_ptr<void> plan;
    size_t bytes;
  };
  using Entries = std::list<Entry>;  // most recently used first; a hit moves its node to the front

  std::shared_ptr<void> find(const PlanKey& key, const std::type_info& type);
  void keep(const PlanKey& key, std::shared_ptr<void> plan, size_t bytes);
  void evict_to_fit(Entries& evicted);  // with mutex_ held; the caller destroys `evicted` unlocked

  mutable std::mutex mutex_;
  Entries entries_;
  std::unordered_map<PlanKey, Entries::iterator, PlanKey::Hash> index_;
  // The Plan type of each kind's first use here; kept by clear(), it is a property of the program.
  std::array<const std::type_info*, 256> kind_types_{};
  size_t bytes_ = 0;
  size_t max_plans_ = kDefaultMaxPlans;
  size_t max_bytes_ = kNoByteLimit;
};

// Drops the plans of every device and stream, or of one device's streams.
void clear_plan_caches();
void clear_plan_caches(int device);

}  // namespace cuarray::libs
