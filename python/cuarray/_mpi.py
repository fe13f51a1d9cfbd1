"""mpi4py with cuarray arrays: CUDA-aware MPI when the library has it, host staging otherwise.

mpi4py already takes cuarray arrays as buffers (``comm.Send(x, dest)``, ``comm.Allreduce(x, y)``):
it reads ``__cuda_array_interface__`` and hands the device pointer to MPI. That is only correct
when the MPI library is CUDA-aware; a host-only MPI would dereference a device pointer. mpi4py does
not check, so these helpers do: they ask the MPI library (``MPIX_Query_cuda_support``, exported by
Open MPI and MPICH) and stage through page-locked host memory when it says no.

MPI runs on its own, outside cuarray's streams, so every helper waits for cuarray's current stream
before MPI touches device memory (the data must be written before it is sent, and a received
buffer must no longer be in use).

Nothing here imports mpi4py until a helper is called: MPI_Init belongs to the user's program.
"""
import ctypes
import functools
import os
import warnings

import numpy as _np

from . import _core
from ._core import ndarray
from ._creation.creation import asarray, empty_like

_AWARE_ENV = "CUARRAY_MPI_CUDA_AWARE"


class MPIHostStagingWarning(UserWarning):
    """The MPI library is not CUDA-aware: cuarray arrays travel through host memory."""


def _mpi():
    try:
        from mpi4py import MPI
    except ImportError as exc:
        raise ImportError("cuarray's MPI helpers need mpi4py (pip install mpi4py) and an MPI library") from exc
    return MPI


@functools.lru_cache(maxsize=None)
def _cuda_support_query():
    """MPIX_Query_cuda_support from the MPI library mpi4py loaded, or None when it has none.

    mpi4py opens libmpi with local symbols, so the process's global namespace may not show it: look
    through the libraries mapped into this process for the one whose name starts with libmpi."""
    candidates = [None]
    try:
        with open("/proc/self/maps") as maps:
            candidates += sorted({line.split()[-1] for line in maps
                                  if os.path.basename(line.split()[-1]).startswith("libmpi")})
    except OSError:
        pass
    for path in candidates:
        try:
            query = getattr(ctypes.CDLL(path), "MPIX_Query_cuda_support", None)
        except OSError:
            continue
        if query is not None:
            query.restype = ctypes.c_int
            query.argtypes = []
            return query
    return None


def is_cuda_aware_mpi():
    """Whether the MPI library under mpi4py accepts device pointers.

    ``CUARRAY_MPI_CUDA_AWARE=1`` or ``0`` overrides the answer (for MPIs that are CUDA-aware but
    export no query, e.g. with a launcher setting such as ``MPICH_GPU_SUPPORT_ENABLED=1``).
    Otherwise MPI's own ``MPIX_Query_cuda_support()`` decides; without it, False (the staged path
    is always correct). Initializes MPI through mpi4py if the program has not."""
    override = os.environ.get(_AWARE_ENV)
    if override in ("0", "1"):
        return override == "1"
    if override:
        raise ValueError(f"{_AWARE_ENV} must be 0 or 1, got {override!r}")
    _mpi()  # importing mpi4py.MPI initializes MPI; the query is only valid after MPI_Init
    query = _cuda_support_query()
    return bool(query()) if query is not None else False


@functools.lru_cache(maxsize=None)
def _warn_staging():
    warnings.warn("the MPI library is not CUDA-aware (MPIX_Query_cuda_support() returned 0 or is "
                  "missing): cuarray arrays are copied through pinned host memory. Use a CUDA-aware "
                  f"MPI, or set {_AWARE_ENV}=1 if yours is and exports no query",
                  MPIHostStagingWarning, stacklevel=3)


def _require_array(x, name):
    if not isinstance(x, ndarray):
        raise TypeError(f"{name} must be a cuarray.ndarray, got {type(x).__module__}.{type(x).__qualname__}")


def _c_contiguous(x):
    """x, or a C-ordered copy: MPI sends one contiguous buffer. (Not ascontiguousarray, which
    makes a 0-d array 1-d.)"""
    return x if x.flags.c_contiguous else x.copy(order="C")


def _wait_for_device_work():
    from .cuda.stream import get_current_stream  # cuarray.cuda imports this module
    get_current_stream().synchronize()


def send_array(comm, x, dest, tag=0):
    """``comm.Send`` of a cuarray array: straight from device memory when MPI is CUDA-aware,
    else through host memory. Non-contiguous arrays are sent as a C-contiguous copy."""
    _require_array(x, "x")
    with x.device:  # the copy, the wait and the staging all on the array's device
        x = _c_contiguous(x)
        if is_cuda_aware_mpi():
            _wait_for_device_work()
            comm.Send(x, dest=dest, tag=tag)
        else:
            _warn_staging()
            comm.Send(x.get(), dest=dest, tag=tag)


def recv_array(comm, out, source=None, tag=None):
    """``comm.Recv`` into the C-contiguous cuarray array ``out`` (whose shape and dtype the sender
    matches); returns ``out``. ``source``/``tag`` default to MPI.ANY_SOURCE/MPI.ANY_TAG."""
    _require_array(out, "out")
    if not out.flags.c_contiguous:
        raise ValueError("out must be C-contiguous: MPI receives into one contiguous buffer")
    MPI = _mpi()
    source = MPI.ANY_SOURCE if source is None else source
    tag = MPI.ANY_TAG if tag is None else tag
    with out.device:
        if is_cuda_aware_mpi():
            _wait_for_device_work()
            comm.Recv(out, source=source, tag=tag)
        else:
            _warn_staging()
            host = _core.pinned_host_array(out.shape, out.dtype)
            comm.Recv(host, source=source, tag=tag)
            out.set(host)
            _wait_for_device_work()  # a copy from pinned memory may still read `host` when set() returns
    return out


def allreduce_array(comm, x, op=None):
    """``comm.Allreduce`` of a cuarray array into a new array on the same device (``op`` defaults
    to MPI.SUM)."""
    _require_array(x, "x")
    MPI = _mpi()
    op = MPI.SUM if op is None else op
    with x.device:
        x = _c_contiguous(x)
        if is_cuda_aware_mpi():
            out = empty_like(x)
            _wait_for_device_work()
            comm.Allreduce(x, out, op=op)
            return out
        _warn_staging()
        host = x.get()
        reduced = _np.empty_like(host)
        comm.Allreduce(host, reduced, op=op)
        return asarray(reduced)
