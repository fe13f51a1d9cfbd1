"""CuPy's raw stream and event calls of cupy.cuda.runtime (streamCreate, streamDestroy,
streamSynchronize, streamQuery, streamWaitEvent, eventCreate, eventRecord, eventElapsedTime, ...)
and their constants, on integer handles. A stream or event made here lives until its destroy call;
any other stream handle (a cuarray.cuda.Stream's .ptr, another library's) is used, never destroyed.
Queries answer as the runtime does: 0 (cudaSuccess) when the work is done, else 600
(cudaErrorNotReady)."""
from .. import _core

streamDefault = 0
streamNonBlocking = 1
eventDefault = 0
eventBlockingSync = 1
eventDisableTiming = 2
eventInterprocess = 4
cudaSuccess = _core.runtime_error_ids["cudaSuccess"]
cudaErrorNotReady = _core.runtime_error_ids["cudaErrorNotReady"]
_INVALID_HANDLE = _core.runtime_error_ids["cudaErrorInvalidResourceHandle"]
streamCaptureModeGlobal = 0
streamCaptureModeThreadLocal = 1
streamCaptureModeRelaxed = 2
streamCaptureStatusNone = 0
streamCaptureStatusActive = 1
streamCaptureStatusInvalidated = 2

_streams = {}  # handle -> the stream object that owns it, until streamDestroy()
_events = {}   # handle -> the event object, until eventDestroy()


def _status(done):
    return cudaSuccess if done else cudaErrorNotReady


def _stream(handle):
    """The stream behind a handle: one made here, else the handle on the current device."""
    handle = int(handle)
    return _streams.get(handle) or _core.StreamHandle.external(handle, _core.get_current_device())


def _event(handle):
    event = _events.get(int(handle))
    if event is None:
        raise _core.CUDARuntimeError(_INVALID_HANDLE, f"cudaErrorInvalidResourceHandle: {int(handle):#x} is not "
                                     "an event from cuarray.cuda.runtime.eventCreate")
    return event


def streamCreate():
    return streamCreateWithFlags(streamDefault)


def streamCreateWithFlags(flags):
    """A new stream on the current device; streamNonBlocking makes it not wait on the legacy stream."""
    stream = _core.StreamHandle.create(bool(int(flags) & streamNonBlocking), 0)
    _streams[stream.ptr] = stream
    return stream.ptr


def streamCreateWithPriority(flags, priority):
    stream = _core.StreamHandle.create(bool(int(flags) & streamNonBlocking), int(priority))
    _streams[stream.ptr] = stream
    return stream.ptr


def streamDestroy(stream):
    """Destroys a stream from streamCreate once its queued work is done."""
    if _streams.pop(int(stream), None) is None:
        raise _core.CUDARuntimeError(_INVALID_HANDLE, f"cudaErrorInvalidResourceHandle: {int(stream):#x} is not "
                                     "a stream from cuarray.cuda.runtime.streamCreate")


def streamSynchronize(stream):
    _stream(stream).synchronize()


def streamQuery(stream):
    return _status(_stream(stream).done())


def streamBeginCapture(stream, mode=streamCaptureModeRelaxed):
    """Starts capturing `stream`'s work into a graph (Stream.end_capture of a cuarray.cuda.Stream
    on the same handle, e.g. ``ExternalStream(stream)``, ends it)."""
    if int(stream) in (0, 1):
        raise RuntimeError("cannot capture on the default (legacy) stream")
    _stream(stream).begin_capture(int(mode))


def streamIsCapturing(stream):
    """Whether `stream` is capturing (CUDARuntimeError when an error invalidated the capture)."""
    return _stream(stream).is_capturing()


def streamWaitEvent(stream, event, flags=0):
    """Work queued on `stream` after this waits for the event's recorded work."""
    _core.stream_wait_event(int(stream), _event(event))


def eventCreate():
    return eventCreateWithFlags(eventDefault)


def eventCreateWithFlags(flags):
    """A new event: eventBlockingSync, eventDisableTiming and eventInterprocess as in the runtime."""
    flags = int(flags)
    event = _core.EventHandle(bool(flags & eventBlockingSync), bool(flags & eventDisableTiming),
                              bool(flags & eventInterprocess))
    _events[event.ptr] = event
    return event.ptr


def eventDestroy(event):
    _event(event)
    del _events[int(event)]


def eventRecord(event, stream):
    _event(event).record(int(stream))


def eventSynchronize(event):
    _event(event).synchronize()


def eventQuery(event):
    return _status(_event(event).query())


def eventElapsedTime(start, end):
    """Milliseconds between two recorded events."""
    return _core.elapsed_time(_event(start), _event(end))
