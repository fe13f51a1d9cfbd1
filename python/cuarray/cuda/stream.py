"""Streams and events (CuPy's cupy.cuda.Stream / Event)."""
from .. import _core


_PER_THREAD_HANDLE = 0x2  # CU_STREAM_PER_THREAD: the calling thread's default stream
_CAPTURE_MODE_RELAXED = 2  # CU_STREAM_CAPTURE_MODE_RELAXED


class _DefaultStreamDescriptor:
    """Stream.null (the legacy default stream) and Stream.ptds (the per-thread default stream) of
    the current device."""

    def __init__(self, ptds):
        self._ptds = ptds

    def __get__(self, obj, cls):
        return cls(null=True, ptds=self._ptds)


class Stream:
    """A CUDA stream; `with stream:` makes it current for the block (per thread and device).
    ``null=True`` is the legacy default stream, or with ``ptds=True`` the per-thread one (CuPy's)."""
    null = _DefaultStreamDescriptor(ptds=False)
    ptds = _DefaultStreamDescriptor(ptds=True)

    def __init__(self, null=False, non_blocking=False, ptds=False, priority=0):
        if null and ptds:
            self._handle = _core.StreamHandle.external(_PER_THREAD_HANDLE, _core.get_current_device())
        elif null:
            self._handle = _core.StreamHandle.null()
        else:
            self._handle = _core.StreamHandle.create(non_blocking, priority)
        self._previous = []

    @property
    def ptr(self):
        return self._handle.ptr

    @property
    def device_id(self):
        return self._handle.device_id

    def __enter__(self):
        self._previous.append(_core.get_current_stream())
        _core.set_current_stream(self._handle)
        return self

    def __exit__(self, *exc):
        _core.set_current_stream(self._previous.pop())

    def use(self):
        _core.set_current_stream(self._handle)
        return self

    def synchronize(self):
        self._handle.synchronize()

    @property
    def done(self):
        return self._handle.done()

    def record(self, event=None):
        event = Event() if event is None else event
        event.record(self)
        return event

    def wait_event(self, event):
        _core.stream_wait_event(self.ptr, event._handle)

    def begin_capture(self, mode=None):
        """Starts capturing the work queued on this stream into a CUDA graph (end_capture returns it).
        ``mode`` defaults to relaxed, as CuPy's (cuda.runtime.streamCaptureMode*): the pool may need
        driver memory during the capture. Synchronizing with the stream, or a copy to pageable host
        memory, during a capture is an error of the driver's. See docs/graphs.md."""
        if self.ptr in (0, 1):
            raise RuntimeError("cannot capture on the default (legacy) stream")
        self._handle.begin_capture(_CAPTURE_MODE_RELAXED if mode is None else int(mode))

    def end_capture(self):
        """Ends the capture and returns the captured work as a ``cuarray.cuda.Graph``."""
        from .graph import Graph
        return Graph._of(self._handle.end_capture())

    def is_capturing(self):
        """Whether the stream is capturing (CUDARuntimeError when an error invalidated the capture)."""
        return self._handle.is_capturing()

    def __eq__(self, other):
        return isinstance(other, Stream) and other.ptr == self.ptr

    def __hash__(self):
        return hash(self.ptr)

    def __repr__(self):
        return f"<Stream {self.ptr:#x} (device {self.device_id})>"


class ExternalStream(Stream):
    """A stream another library made, by its pointer (CuPy's ExternalStream(ptr, device_id=-1), e.g.
    ``torch.cuda.current_stream().cuda_stream``): cuarray launches on it and never destroys it; its
    owner keeps it alive while cuarray uses it. ``device_id`` -1 is the current device."""

    def __init__(self, ptr, device_id=-1):
        device = _core.get_current_device() if device_id < 0 else int(device_id)
        self._handle = _core.StreamHandle.external(int(ptr), device)
        self._previous = []


def get_current_stream(device_id=-1):
    """The current stream of ``device_id`` (-1: the current device) on this thread."""
    s = Stream.__new__(Stream)
    if device_id < 0:
        s._handle = _core.get_current_stream()
    else:
        previous = _core.get_current_device()
        _core.set_current_device(int(device_id))
        try:
            s._handle = _core.get_current_stream()
        finally:
            _core.set_current_device(previous)
    s._previous = []
    return s


class Event:
    """A CUDA event: record on a stream, then synchronize, query or time against another."""

    def __init__(self, block=False, disable_timing=False, interprocess=False):
        self._handle = _core.EventHandle(block, disable_timing, interprocess)

    @property
    def ptr(self):
        return self._handle.ptr

    def record(self, stream=None):
        self._handle.record((stream or get_current_stream()).ptr)

    def synchronize(self):
        self._handle.synchronize()

    @property
    def done(self):
        return self._handle.query()

    def query(self):
        return self._handle.query()


def get_elapsed_time(start_event, end_event):
    """Milliseconds between two recorded events."""
    return _core.elapsed_time(start_event._handle, end_event._handle)
