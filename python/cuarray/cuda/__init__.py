"""cuarray.cuda: devices, streams, events, memory pools and the kernel compiler (CuPy's layout)."""
from . import compiler, cublas, driver, graph, memory, nccl, nvtx, profiler, runtime
from .device import Device, get_device_id, is_available
from .._mpi import MPIHostStagingWarning, allreduce_array, is_cuda_aware_mpi, recv_array, send_array
from .launches import flush_launches, launch_batching, set_launch_batching
from .memory import (BaseMemory, Memory, ManagedMemory, UnownedMemory, MemoryPointer, MemoryPool,
                     MemoryAsync, MemoryAsyncPool, CFunctionAllocator, PythonFunctionAllocator,
                     PinnedMemory, PinnedMemoryPointer, PinnedMemoryPool, OutOfMemoryError, alloc,
                     alloc_pinned_memory, get_allocator, get_default_memory_pool,
                     get_default_pinned_memory_pool, malloc_async, malloc_managed, set_allocator,
                     set_pinned_memory_allocator, using_allocator)
from .compiler import compile_with_cache
from .graph import Graph
from .profiler import profile
from .runtime import runtimeGetVersion as get_local_runtime_version  # CuPy's name at this level
from .stream import Event, ExternalStream, Stream, get_current_stream, get_elapsed_time

__all__ = ["Device", "get_device_id", "Stream", "ExternalStream", "Event", "get_current_stream", "get_elapsed_time",
           "MPIHostStagingWarning", "allreduce_array", "is_cuda_aware_mpi", "recv_array", "send_array",
           "BaseMemory", "Memory", "ManagedMemory", "UnownedMemory", "MemoryPointer", "MemoryPool",
           "MemoryAsync", "MemoryAsyncPool", "CFunctionAllocator", "PythonFunctionAllocator", "malloc_async",
           "PinnedMemory", "PinnedMemoryPointer", "PinnedMemoryPool", "OutOfMemoryError", "alloc",
           "alloc_pinned_memory", "get_allocator", "get_default_memory_pool", "get_default_pinned_memory_pool",
           "malloc_managed", "set_allocator", "set_pinned_memory_allocator", "using_allocator",
           "flush_launches", "launch_batching", "set_launch_batching",
           "compiler", "cublas", "driver", "graph", "Graph", "memory", "nccl", "nvtx", "profiler", "runtime",
           "is_available", "get_local_runtime_version", "profile", "compile_with_cache"]

