"""Launch batching: cuarray holds small kernel launches and submits them together as one CUDA graph.

A launch costs the driver 3-4 µs of CPU; a node of a graph about 0.4 µs. Held launches are
submitted, in program order, at every point where work must reach the device: a synchronization,
a host copy, an event, a large launch, a launch on another stream, 32 held launches, or
`flush_launches()`. While any array's address is in other code's hands (`.data.ptr`,
`__cuda_array_interface__`) nothing is held, so work that other libraries enqueue on that memory
stays in order. docs/launch-batching.md has the details.
"""
from .. import _core


def flush_launches():
    """Submits every held launch now."""
    _core.flush_launches()


def set_launch_batching(enabled):
    """Turns launch batching on or off (on by default; CUARRAY_LAUNCH_BATCHING=0 starts it off)."""
    _core.set_launch_batching(bool(enabled))


def launch_batching():
    """Whether launch batching is on."""
    return _core.launch_batching()
