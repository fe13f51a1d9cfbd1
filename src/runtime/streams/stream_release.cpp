#include "runtime/streams/stream_release.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>

namespace cuarray::runtime {
namespace {

// A fixed table of atomics rather than a locked vector: a stream may be destroyed during static
// teardown or from any thread, and this table needs no destruction and never blocks.
constexpr int kMaxHooks = 8;  // one per layer that keys a cache by stream
std::atomic<StreamReleaseHook> g_hooks[kMaxHooks];
std::atomic<int> g_hook_count{0};

}  // namespace

void on_stream_release(StreamReleaseHook hook) {
  int slot = g_hook_count.fetch_add(1);
  if (slot >= kMaxHooks) throw std::logic_error("more stream release hooks than kMaxHooks");
  g_hooks[slot].store(hook, std::memory_order_release);
}

void run_stream_release_hooks(int device, StreamHandle stream) noexcept {
  int count = std::min(g_hook_count.load(std::memory_order_acquire), kMaxHooks);
  for (int i = 0; i < count; ++i)
    if (StreamReleaseHook hook = g_hooks[i].load(std::memory_order_acquire)) hook(device, stream);
}

}  // namespace cuarray::runtime
