"""cuarray.cuda: devices, streams, events, memory pools and the kernel compiler (CuPy's layout)."""
from . import compiler, cublas, driver, memory, runtime
from .device import Device, get_device_id
from .launches import flush_launches, launch_batching, set_launch_batching
from .memory import (MemoryPool, PinnedMemoryPool, OutOfMemoryError, get_default_memory_pool,
                     get_default_pinned_memory_pool)
from .stream import Event, Stream, get_current_stream, get_elapsed_time

__all__ = ["Device", "get_device_id", "Stream", "Event", "get_current_stream", "get_elapsed_time",
           "MemoryPool", "PinnedMemoryPool", "OutOfMemoryError", "get_default_memory_pool",
           "get_default_pinned_memory_pool", "flush_launches", "launch_batching", "set_launch_batching",
           "compiler", "cublas", "driver", "memory", "runtime"]
