// The stream protocol of DLPack and the CUDA Array Interface: whoever hands data over makes the
// receiving stream wait on an event recorded on the stream that produced it. The host never waits.
#include "cuarray/interop.hpp"
#include "runtime/current_device_scope.hpp"

namespace cuarray {
namespace {

// cuarray's null stream is the legacy default stream, which the protocols call 1.
StreamHandle canonical(StreamHandle s) { return s ? s : legacy_default_stream(); }

}  // namespace

StreamHandle exchange_stream(int device) {
  runtime::CurrentDeviceScope on(device);
  return canonical(current_stream_handle());
}

void stream_wait_stream(StreamHandle waiter, StreamHandle producer, int device) {
  if (canonical(waiter) == canonical(producer)) {
    flush_launches();  // one stream keeps the order, once cuarray's held launches are on it
    return;
  }
  runtime::CurrentDeviceScope on(device);
  Event event(/*blocking=*/false, /*disable_timing=*/true);
  event.record(producer);  // after cuarray's held launches (Event::record holds a ForeignWork guard)
  stream_wait_event(waiter, event);
  // Destroying the event now is safe: a wait already enqueued still completes.
}

}  // namespace cuarray
