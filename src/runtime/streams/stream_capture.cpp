// Stream capture into CUDA graphs (CuPy's Stream.begin_capture / end_capture and cuda.Graph). See
// docs/graphs.md.
//
// Two things make capture safe with the rest of cuarray:
// - Launch batching: launches held when the capture begins are submitted first (they belong
//   before it), and none is held while any capture lasts, so every launch on the capturing stream
//   is captured in program order.
// - Memory: a graph replays its kernels on the addresses they had during the capture. Memory
//   cuarray allocated for work on the capturing stream would go back to the pool when its arrays
//   die and be handed to other arrays, which a replay would then overwrite; so the graph keeps it.
#include <atomic>
#include <map>
#include <mutex>
#include <vector>

#include "cuarray/errors.hpp"
#include "cuarray/runtime.hpp"
#include "runtime/context.hpp"
#include "runtime/driver.hpp"
#include "runtime/streams/foreign_work.hpp"
#include "runtime/launch.hpp"
#include "runtime/memory/memory_internal.hpp"
#include "runtime/streams/stream_identity.hpp"

namespace cuarray {

struct Graph::Parts {
  CUgraphExec exec = nullptr;
  std::vector<std::shared_ptr<Buffer>> kept;  // memory allocated for the captured work
  bool launched = false;
};

namespace runtime {
namespace {

using CaptureKey = std::pair<int, StreamHandle>;  // (device, stream identity)

// The captures cuarray began, with the memory allocated for each so far; g_active_captures counts
// them.
struct Captures {
  std::mutex mutex;
  std::map<CaptureKey, std::vector<std::shared_ptr<Buffer>>> kept;

  static Captures& instance() {
    static Captures* made = new Captures;  // never destroyed: buffers may die during static teardown
    return *made;
  }
};

CaptureKey key_of(int device, StreamHandle stream) { return {device, stream_identity(stream)}; }

}  // namespace

std::atomic<int> g_active_captures{0};

void keep_for_capture(int device, StreamHandle stream, const std::shared_ptr<Buffer>& buffer) {
  if (!buffer || is_stream_ordered(*buffer)) return;  // the graph's memory nodes own that memory
  Captures& c = Captures::instance();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.kept.find(key_of(device, stream));
  if (it != c.kept.end()) it->second.push_back(buffer);
}

}  // namespace runtime

void begin_capture(StreamHandle stream, int mode) {
  if (stream == nullptr || stream == CU_STREAM_LEGACY)
    throw_error(ErrorKind::CudaRuntime, "cannot capture on the default (legacy) stream",
                cudaErrorStreamCaptureUnsupported);
  if (mode < CU_STREAM_CAPTURE_MODE_GLOBAL || mode > CU_STREAM_CAPTURE_MODE_RELAXED)
    throw_error(ErrorKind::Value, "stream capture mode must be 0 (global), 1 (thread-local) or 2 (relaxed), not " +
                                      std::to_string(mode));
  const int device = current_device();
  runtime::ForeignWork work(device);  // what is held belongs before the capture
  runtime::note_shared_buffer(+1);    // and nothing is held while it lasts
  const CUresult status = runtime::driver().cuStreamBeginCapture(stream, static_cast<CUstreamCaptureMode>(mode));
  if (status != CUDA_SUCCESS) {
    runtime::note_shared_buffer(-1);
    runtime::check(status, "cuStreamBeginCapture");
  }
  runtime::Captures& c = runtime::Captures::instance();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.kept[runtime::key_of(device, stream)];
  runtime::g_active_captures.fetch_add(1, std::memory_order_relaxed);
}

bool is_capturing(StreamHandle stream) {
  runtime::ScopedActivation on_device(current_device());
  CUstreamCaptureStatus status;
  CU_CALL(cuStreamIsCapturing, stream, &status);
  if (status == CU_STREAM_CAPTURE_STATUS_INVALIDATED)
    throw_error(ErrorKind::CudaRuntime, "the stream was capturing, but an error has invalidated the capture sequence",
                cudaErrorStreamCaptureInvalidated);
  return status == CU_STREAM_CAPTURE_STATUS_ACTIVE;
}

std::shared_ptr<Graph> end_capture(StreamHandle stream) {
  const int device = current_device();
  runtime::ScopedActivation on_device(device);
  CUgraph graph = nullptr;
  const CUresult status = runtime::driver().cuStreamEndCapture(stream, &graph);
  auto parts = std::make_unique<Graph::Parts>();
  {
    // The capture is over, captured or not: its memory and the launch hold go with it.
    runtime::Captures& c = runtime::Captures::instance();
    std::lock_guard<std::mutex> lock(c.mutex);
    auto it = c.kept.find(runtime::key_of(device, stream));
    if (it != c.kept.end()) {
      parts->kept = std::move(it->second);
      c.kept.erase(it);
      runtime::g_active_captures.fetch_sub(1, std::memory_order_relaxed);
      runtime::note_shared_buffer(-1);
    }
  }
  if (status != CUDA_SUCCESS) {
    if (graph) runtime::driver().cuGraphDestroy(graph);
    runtime::check(status, "cuStreamEndCapture");
  }
  // Auto-free on launch: a graph that allocated stream-ordered memory it did not free can be
  // launched again (the next launch frees the last one's).
  const CUresult instantiated = runtime::driver().cuGraphInstantiateWithFlags(
      &parts->exec, graph, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH);
  runtime::driver().cuGraphDestroy(graph);  // the executable graph no longer needs it
  runtime::check(instantiated, "cuGraphInstantiateWithFlags");
  return std::make_shared<Graph>(device, std::move(parts));
}

Graph::Graph(int device, std::unique_ptr<Parts> parts) : device_(device), parts_(std::move(parts)) {}

Graph::~Graph() {
  // A launch may still run, on any stream: the kept memory goes back only once the device is idle.
  try {
    runtime::ForeignWork work(device_);
    if (parts_->launched) runtime::driver().cuCtxSynchronize();
    if (parts_->exec) runtime::driver().cuGraphExecDestroy(parts_->exec);
  } catch (const Error&) {
  }
}

void Graph::launch(StreamHandle stream) {
  runtime::ForeignWork work(device_);  // after the launches held before it
  CU_CALL(cuGraphLaunch, parts_->exec, stream);
  parts_->launched = true;
}

void Graph::upload(StreamHandle stream) {
  runtime::ForeignWork work(device_);
  CU_CALL(cuGraphUpload, parts_->exec, stream);
}

}  // namespace cuarray
