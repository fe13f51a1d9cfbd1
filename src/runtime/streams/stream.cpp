#include <array>

#include "runtime/context.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/runtime.hpp"
#include "runtime/driver.hpp"
#include "runtime/streams/foreign_work.hpp"
#include "runtime/memory/memory_internal.hpp"
#include "runtime/streams/stream_release.hpp"

namespace cuarray {
namespace {
constexpr int kMaxTrackedDevices = 64;
// The current stream of each device on this thread; empty means the null stream.
thread_local std::array<std::shared_ptr<Stream>, kMaxTrackedDevices> t_current;
}  // namespace

std::shared_ptr<Stream> Stream::null_stream() {
  return std::shared_ptr<Stream>(new Stream(nullptr, current_device(), false));
}

std::shared_ptr<Stream> Stream::create(bool non_blocking, int priority) {
  int device = current_device();
  runtime::activate(device);
  CUstream handle;
  CU_CALL(cuStreamCreateWithPriority, &handle, non_blocking ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT, priority);
  return std::shared_ptr<Stream>(new Stream(handle, device, true));
}

std::shared_ptr<Stream> Stream::external(StreamHandle handle, int device) {
  runtime::check_device_ordinal(device);  // set_current_stream bounds it by kMaxTrackedDevices
  return std::shared_ptr<Stream>(new Stream(handle, device, false));
}

Stream::~Stream() {
  if (owned_ && runtime::driver_loaded()) {
    runtime::activate(device_);
    try {
      runtime::ForeignWork work(device_);  // held launches for this stream go before it is destroyed
    } catch (...) {  // destructors must not throw; the launch's error is the stream's, now gone
    }
    // Blocks freed on this stream become reusable by any stream once its work is done; after
    // that the handle value may be reused by a new stream that must not inherit them.
    runtime::driver().cuStreamSynchronize(handle_);
    rehome_stream_blocks(device_, handle_);
    runtime::run_stream_release_hooks(device_, handle_);  // plans bound to the handle go with it
    runtime::driver().cuStreamDestroy(handle_);  // destructors must not throw
  }
}

void Stream::synchronize() const {
  runtime::ForeignWork work(device_);
  CU_CALL(cuStreamSynchronize, handle_);
}

bool Stream::done() const {
  runtime::ForeignWork work(device_);
  CUresult r = runtime::driver().cuStreamQuery(handle_);
  if (r == CUDA_ERROR_NOT_READY) return false;
  runtime::check(r, "cuStreamQuery");
  return true;
}

StreamHandle current_stream_handle() {
  const auto& s = t_current[current_device()];
  return s ? s->handle() : nullptr;
}

std::shared_ptr<Stream> current_stream() {
  const auto& s = t_current[current_device()];
  return s ? s : Stream::null_stream();
}

void set_current_stream(std::shared_ptr<Stream> stream) {
  int device = stream ? stream->device() : current_device();
  if (device >= kMaxTrackedDevices) throw_error(ErrorKind::CudaRuntime, "device id too large", cudaErrorInvalidDevice);
  if (stream && !stream->handle()) stream = nullptr;  // the null stream is the default state
  t_current[device] = std::move(stream);
}

Event::Event(bool blocking, bool disable_timing, bool interprocess) : device_(current_device()) {
  runtime::activate(device_);
  unsigned flags = (blocking ? CU_EVENT_BLOCKING_SYNC : 0) | (disable_timing ? CU_EVENT_DISABLE_TIMING : 0) |
                   (interprocess ? CU_EVENT_INTERPROCESS : 0);
  CU_CALL(cuEventCreate, &handle_, flags);
}

Event::~Event() {
  if (handle_ && runtime::driver_loaded()) runtime::driver().cuEventDestroy(handle_);
}

void Event::record(StreamHandle stream) {
  runtime::ForeignWork work(device_);
  CU_CALL(cuEventRecord, handle_, stream);
}

void Event::synchronize() const { CU_CALL(cuEventSynchronize, handle_); }

bool Event::query() const {
  CUresult r = runtime::driver().cuEventQuery(handle_);
  if (r == CUDA_ERROR_NOT_READY) return false;
  runtime::check(r, "cuEventQuery");
  return true;
}

float elapsed_time_ms(const Event& start, const Event& end) {
  float ms = 0;
  CU_CALL(cuEventElapsedTime, &ms, start.handle(), end.handle());
  return ms;
}

void stream_wait_event(StreamHandle stream, const Event& event) {
  runtime::ForeignWork work(current_device());  // after the stream's held launches, as in program order
  CU_CALL(cuStreamWaitEvent, stream, event.handle(), 0);
}

}  // namespace cuarray
