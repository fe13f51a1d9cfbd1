// Launch batching (docs/launch-batching.md).
//
// Each device has one queue of held launches, all for one stream, in program order. A launch is
// held when it is small (its work is shorter than the driver's launch cost) and nothing outside
// cuarray may depend on it: batching is on, no buffer is shared with other code, and the driver
// can report kernel parameter layouts. The queue is submitted when it is full, when a launch for
// another stream or a large launch comes, and by flush_launches(), which every other kind of
// stream work and every wait calls first. One held launch is submitted with cuLaunchKernel; n of
// them as an instantiated graph of n chained kernel nodes, kept per n and updated node by node.
#include "runtime/launch_batch.hpp"

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>

#include "runtime/context.hpp"
#include "cuarray/errors.hpp"
#include "runtime/driver.hpp"

namespace cuarray {
namespace runtime {
namespace {

constexpr int kMaxHeld = 32;                          // launches per graph
constexpr int kMaxParams = 32;                        // a held kernel's parameter count ...
constexpr size_t kMaxParamBytes = 4096;               // ... and bytes (the classic kernel limit)
constexpr uint64_t kMaxHeldThreads = uint64_t{1} << 16;  // beyond this the work outweighs a launch
constexpr int kMaxDevices = 64;

bool batching_from_environment() {
  const char* v = std::getenv("CUARRAY_LAUNCH_BATCHING");
  return !v || std::string_view(v) != "0";
}

std::atomic<bool> g_enabled{batching_from_environment()};
std::atomic<int> g_shared_buffers{0};
std::atomic<int> g_queues_holding{0};  // flush_launches() is one load while nothing is held

struct ParamLayout {
  int count = -1;  // -1: the kernel cannot be held (too many or too large parameters)
  uint32_t offset[kMaxParams];
  uint32_t size[kMaxParams];
};

struct HeldLaunch {
  CUfunction f;
  LaunchDims grid, block;
  unsigned shared_bytes;
  void* params[kMaxParams];
  alignas(16) unsigned char bytes[kMaxParamBytes];
};

// A chain of n kernel nodes, instantiated once and then updated in place for each batch of n.
struct BatchGraph {
  CUgraph graph = nullptr;
  CUgraphExec exec = nullptr;
  std::array<CUgraphNode, kMaxHeld> nodes{};
};

CUDA_KERNEL_NODE_PARAMS node_params(const HeldLaunch& h) {
  CUDA_KERNEL_NODE_PARAMS p{};
  p.func = h.f;
  p.gridDimX = h.grid.x, p.gridDimY = h.grid.y, p.gridDimZ = h.grid.z;
  p.blockDimX = h.block.x, p.blockDimY = h.block.y, p.blockDimZ = h.block.z;
  p.sharedMemBytes = h.shared_bytes;
  p.kernelParams = const_cast<void**>(h.params);
  return p;
}

struct DeviceQueue {
  explicit DeviceQueue(int d) : device(d) {}
  const int device;
  std::mutex mutex;
  StreamHandle stream = nullptr;  // of the held launches
  int count = 0;
  std::unique_ptr<HeldLaunch[]> held;  // kMaxHeld, made when the first launch is held
  std::array<BatchGraph, kMaxHeld + 1> graphs;
  std::unordered_map<CUfunction, ParamLayout> layouts;

  const ParamLayout& layout(CUfunction f) {
    auto it = layouts.find(f);
    if (it != layouts.end()) return it->second;
    ParamLayout l;
    int n = 0;
    size_t offset = 0, size = 0;
    while (n <= kMaxParams && driver().cuFuncGetParamInfo(f, n, &offset, &size) == CUDA_SUCCESS) {
      if (n < kMaxParams) l.offset[n] = static_cast<uint32_t>(offset), l.size[n] = static_cast<uint32_t>(size);
      ++n;
    }
    if (n <= kMaxParams && (n == 0 || l.offset[n - 1] + l.size[n - 1] <= kMaxParamBytes)) l.count = n;
    return layouts.emplace(f, l).first->second;
  }

  void hold(CUfunction f, const ParamLayout& l, LaunchDims grid, LaunchDims block, unsigned shared_bytes,
            void** args) {
    if (!held) held = std::make_unique<HeldLaunch[]>(kMaxHeld);
    HeldLaunch& h = held[count];
    h.f = f, h.grid = grid, h.block = block, h.shared_bytes = shared_bytes;
    for (int i = 0; i < l.count; ++i) {
      h.params[i] = h.bytes + l.offset[i];
      std::memcpy(h.params[i], args[i], l.size[i]);
    }
    if (count++ == 0) g_queues_holding.fetch_add(1, std::memory_order_release);
  }

  // Builds graphs[n] from the n held launches; on failure it stays empty, to be built next time.
  void instantiate(BatchGraph& g, int n) {
    CU_CALL(cuGraphCreate, &g.graph, 0);
    try {
      for (int i = 0; i < n; ++i) {
        CUDA_KERNEL_NODE_PARAMS p = node_params(held[i]);
        CU_CALL(cuGraphAddKernelNode, &g.nodes[i], g.graph, i ? &g.nodes[i - 1] : nullptr, i ? 1 : 0, &p);
      }
      CU_CALL(cuGraphInstantiateWithFlags, &g.exec, g.graph, 0);
    } catch (...) {
      driver().cuGraphDestroy(g.graph);
      g = BatchGraph{};
      throw;
    }
  }

  // Submits the held launches. They leave the queue before any driver call, so a failing call
  // reports its error once and never submits them twice.
  void submit() {
    const int n = count;
    if (n == 0) return;
    count = 0;
    g_queues_holding.fetch_sub(1, std::memory_order_release);
    ScopedActivation on_device(device);
    if (n == 1) {
      const HeldLaunch& h = held[0];
      CU_CALL(cuLaunchKernel, h.f, h.grid.x, h.grid.y, h.grid.z, h.block.x, h.block.y, h.block.z, h.shared_bytes,
              stream, const_cast<void**>(h.params), nullptr);
      return;
    }
    BatchGraph& g = graphs[n];
    if (!g.exec) {
      instantiate(g, n);
    } else {
      // Takes effect for this graph's next launch only: earlier launches still queued keep theirs.
      for (int i = 0; i < n; ++i) {
        CUDA_KERNEL_NODE_PARAMS p = node_params(held[i]);
        CU_CALL(cuGraphExecKernelNodeSetParams, g.exec, g.nodes[i], &p);
      }
    }
    CU_CALL(cuGraphLaunch, g.exec, stream);
  }
};

std::mutex g_queues_mutex;
std::array<std::atomic<DeviceQueue*>, kMaxDevices> g_queues{};

// Never destroyed: launches may be flushed during static teardown.
DeviceQueue& queue_of(int device) {
  if (DeviceQueue* q = g_queues[device].load(std::memory_order_acquire)) return *q;
  std::lock_guard<std::mutex> lock(g_queues_mutex);
  if (!g_queues[device].load(std::memory_order_relaxed)) g_queues[device].store(new DeviceQueue(device));
  return *g_queues[device].load(std::memory_order_relaxed);
}

// Submits what `device` holds, if it has a queue.
void submit_device(int device) {
  if (DeviceQueue* q = g_queues[device].load(std::memory_order_acquire)) {
    std::lock_guard<std::mutex> lock(q->mutex);
    q->submit();
  }
}

bool holding_allowed() {
  return g_enabled.load(std::memory_order_relaxed) && g_shared_buffers.load(std::memory_order_acquire) == 0 &&
         driver().cuFuncGetParamInfo != nullptr;
}

}  // namespace

void launch(CUfunction f, LaunchDims grid, LaunchDims block, void** args, unsigned shared_bytes) {
  const int device = current_device();
  const StreamHandle stream = current_stream_handle();
  const uint64_t threads = uint64_t{grid.x} * grid.y * grid.z * block.x * block.y * block.z;
  if (device < kMaxDevices && threads <= kMaxHeldThreads && holding_allowed()) {
    DeviceQueue& q = queue_of(device);
    std::lock_guard<std::mutex> lock(q.mutex);
    if (q.count && q.stream != stream) q.submit();
    const ParamLayout& l = q.layout(f);
    if (l.count >= 0) {
      q.stream = stream;
      q.hold(f, l, grid, block, shared_bytes, args);
      if (q.count == kMaxHeld) q.submit();
      return;
    }
    q.submit();  // this kernel is launched directly, after what is held
  } else if (device < kMaxDevices && g_queues_holding.load(std::memory_order_acquire)) {
    submit_device(device);
  }
  CU_CALL(cuLaunchKernel, f, grid.x, grid.y, grid.z, block.x, block.y, block.z, shared_bytes, stream, args, nullptr);
}

void note_shared_buffer(int delta) {
  g_shared_buffers.fetch_add(delta, std::memory_order_acq_rel);
  if (delta > 0) flush_launches();  // other code may now enqueue work on this memory: what is held goes first
}

}  // namespace runtime

void flush_launches() {
  if (runtime::g_queues_holding.load(std::memory_order_acquire) == 0) return;
  for (int device = 0; device < runtime::kMaxDevices; ++device) runtime::submit_device(device);
}

void set_launch_batching(bool enabled) {
  runtime::g_enabled.store(enabled, std::memory_order_relaxed);
  if (!enabled) flush_launches();
}

bool launch_batching() { return runtime::g_enabled.load(std::memory_order_relaxed); }

int held_launches(int device) {
  if (device < 0 || device >= runtime::kMaxDevices) return 0;
  runtime::DeviceQueue* q = runtime::g_queues[device].load(std::memory_order_acquire);
  if (!q) return 0;
  std::lock_guard<std::mutex> lock(q->mutex);
  return q->count;
}

}  // namespace cuarray
