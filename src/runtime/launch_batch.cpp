// Launches, and launch batching (docs/launch-batching.md).
//
// Each device has one queue of held launches, all for one stream, in program order. A launch is
// held when it is small (its work is shorter than the driver's launch cost) and nothing outside
// cuarray may depend on it: batching is on, no buffer is shared with other code, and the kernel's
// parameter layout is known (read when it was loaded). The queue is submitted when it is full, when a launch for
// another stream or a large launch comes, and by flush_launches(), which every other kind of
// stream work and every wait calls first. One held launch is submitted with cuLaunchKernel; n of
// them as an instantiated graph of n chained kernel nodes, kept per n and updated node by node.
#include "runtime/launch.hpp"

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string_view>
#include <string>

#include "runtime/context.hpp"
#include "cuarray/errors.hpp"
#include "runtime/driver.hpp"

namespace cuarray {
namespace runtime {
namespace {

constexpr int kMaxHeld = 32;                          // launches per graph
constexpr size_t kMaxParamBytes = 4096;               // a held kernel's parameter bytes (the classic limit)
constexpr uint64_t kMaxHeldThreads = uint64_t{1} << 16;  // beyond this the work outweighs a launch
constexpr int kMaxDevices = 64;

bool batching_from_environment() {
  const char* v = std::getenv("CUARRAY_LAUNCH_BATCHING");
  return !v || std::string_view(v) != "0";
}

std::atomic<bool> g_enabled{batching_from_environment()};
std::atomic<int> g_shared_buffers{0};
std::atomic<int> g_queues_holding{0};  // flush_launches() is one load while nothing is held

struct HeldLaunch {
  CUfunction f;
  LaunchDims grid, block;
  unsigned shared_bytes;
  void* params[kMaxKernelParams];
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

  void hold(const Kernel& k, const LaunchConfig& c, KernelParams p) {
    if (!held) held = std::make_unique<HeldLaunch[]>(kMaxHeld);
    HeldLaunch& h = held[count];
    h.f = k.function, h.grid = c.grid, h.block = c.block, h.shared_bytes = c.shared_bytes;
    for (int i = 0; i < p.count; ++i) {
      h.params[i] = h.bytes + k.info->param_offset[i];
      std::memcpy(h.params[i], p.values[i], p.sizes[i]);
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
  return g_enabled.load(std::memory_order_relaxed) && g_shared_buffers.load(std::memory_order_acquire) == 0;
}

// A kernel is held only when its parameter layout is known (HeldLaunch copies each parameter to
// its offset) and fits a held launch's parameter bytes.
bool holdable(const KernelInfo* info) {
  if (!info || info->param_count < 0) return false;
  const int n = info->param_count;
  return n == 0 || info->param_offset[n - 1] + info->param_size[n - 1] <= kMaxParamBytes;
}

[[noreturn]] void parameter_mismatch(const KernelInfo& info, KernelParams p) {
  auto sizes = [](const uint32_t* s, int n) {
    std::string out = "(";
    for (int i = 0; i < n; ++i) out += (i ? ", " : "") + std::to_string(s[i]);
    return out + ")";
  };
  throw_error(ErrorKind::Value, "cuarray internal error: kernel " + info.name + " takes " +
                                    std::to_string(info.param_count) + " parameters of bytes " +
                                    sizes(info.param_size, info.param_count) + " but the launch passes " +
                                    std::to_string(p.count) + " of bytes " + sizes(p.sizes, p.count));
}

void check_params(const KernelInfo* info, KernelParams p) {
  if (!info || info->param_count < 0) return;
  bool same = p.count == info->param_count;
  for (int i = 0; same && i < p.count; ++i) same = p.sizes[i] == info->param_size[i];
  if (!same) parameter_mismatch(*info, p);
}

}  // namespace

void launch(const Kernel& kernel, const LaunchConfig& config, KernelParams params) {
  check_params(kernel.info, params);
  const int device = current_device();
  const StreamHandle stream = current_stream_handle();
  const LaunchDims& grid = config.grid;
  const LaunchDims& block = config.block;
  const uint64_t threads = uint64_t{grid.x} * grid.y * grid.z * block.x * block.y * block.z;
  if (config.cooperative) {
    if (device < kMaxDevices && g_queues_holding.load(std::memory_order_acquire)) submit_device(device);
    CU_CALL(cuLaunchCooperativeKernel, kernel.function, grid.x, grid.y, grid.z, block.x, block.y, block.z,
            config.shared_bytes, stream, const_cast<void**>(params.values));
    return;
  }
  // The per-thread default stream's handle names a different stream in every thread, and a queue
  // may be submitted by another thread's launch: its launches go to the driver at once.
  const bool per_thread_stream = stream == CU_STREAM_PER_THREAD;
  if (device < kMaxDevices && threads <= kMaxHeldThreads && !per_thread_stream && holding_allowed()) {
    DeviceQueue& q = queue_of(device);
    std::lock_guard<std::mutex> lock(q.mutex);
    if (q.count && q.stream != stream) q.submit();
    if (holdable(kernel.info)) {
      q.stream = stream;
      q.hold(kernel, config, params);
      if (q.count == kMaxHeld) q.submit();
      return;
    }
    q.submit();  // this kernel is launched directly, after what is held
  } else if (device < kMaxDevices && g_queues_holding.load(std::memory_order_acquire)) {
    submit_device(device);
  }
  CU_CALL(cuLaunchKernel, kernel.function, grid.x, grid.y, grid.z, block.x, block.y, block.z, config.shared_bytes,
          stream, const_cast<void**>(params.values), nullptr);
}

void forget_batch_graphs(int device) {
  DeviceQueue* q = device < kMaxDevices ? g_queues[device].load(std::memory_order_acquire) : nullptr;
  if (!q) return;
  std::lock_guard<std::mutex> lock(q->mutex);
  q->submit();
  ScopedActivation on_device(device);
  for (BatchGraph& g : q->graphs) {
    // A graph still running is freed by the driver when it completes.
    if (g.exec) driver().cuGraphExecDestroy(g.exec);
    if (g.graph) driver().cuGraphDestroy(g.graph);
    g = BatchGraph{};
  }
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
