"""Streams and events (CuPy's cupy.cuda.Stream / Event)."""
from .. import _core


class _NullStreamDescriptor:
    """Stream.null: the legacy default stream of the current device."""

    def __get__(self, obj, cls):
        return cls(null=True)


class Stream:
    """A CUDA stream; `with stream:` makes it current for the block (per thread and device)."""
    null = _NullStreamDescriptor()

    def __init__(self, null=False, non_blocking=False, ptds=False, priority=0):
        self._handle = _core.StreamHandle.null() if null else _core.StreamHandle.create(non_blocking, priority)
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

    def __eq__(self, other):
        return isinstance(other, Stream) and other.ptr == self.ptr

    def __hash__(self):
        return hash(self.ptr)

    def __repr__(self):
        return f"<Stream {self.ptr:#x} (device {self.device_id})>"


def get_current_stream():
    s = Stream.__new__(Stream)
    s._handle = _core.get_current_stream()
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
