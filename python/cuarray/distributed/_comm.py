"""init_process_group and the NCCL backend: cupyx.distributed's communicator on cuarray arrays."""
import os

import numpy as np

from ..cuda import nccl
from . import _store

_DEFAULT_HOST = "127.0.0.1"
_DEFAULT_PORT = 13333

# NumPy dtype -> (NCCL type, elements per array element). Complex travels as its real and imaginary
# parts, so only sums and data movement are defined for it. NCCL has no bool or 16-bit integers.
_NCCL_DTYPES = {
    np.dtype(np.int8): (nccl.NCCL_INT8, 1),
    np.dtype(np.uint8): (nccl.NCCL_UINT8, 1),
    np.dtype(np.int32): (nccl.NCCL_INT32, 1),
    np.dtype(np.uint32): (nccl.NCCL_UINT32, 1),
    np.dtype(np.int64): (nccl.NCCL_INT64, 1),
    np.dtype(np.uint64): (nccl.NCCL_UINT64, 1),
    np.dtype(np.float16): (nccl.NCCL_FLOAT16, 1),
    np.dtype(np.float32): (nccl.NCCL_FLOAT32, 1),
    np.dtype(np.float64): (nccl.NCCL_FLOAT64, 1),
    np.dtype(np.complex64): (nccl.NCCL_FLOAT32, 2),
    np.dtype(np.complex128): (nccl.NCCL_FLOAT64, 2),
}

_NCCL_OPS = {"sum": nccl.NCCL_SUM, "prod": nccl.NCCL_PROD, "max": nccl.NCCL_MAX, "min": nccl.NCCL_MIN}


def nccl_dtype(dtype, count):
    """(NCCL data type, NCCL element count) of ``count`` elements of ``dtype``."""
    dtype = np.dtype(dtype)
    if dtype not in _NCCL_DTYPES:
        raise TypeError(f"Unknown dtype {dtype} for NCCL")
    nccl_type, per_element = _NCCL_DTYPES[dtype]
    return nccl_type, per_element * count


def nccl_op(op, dtype):
    """NCCL's operator for 'sum' | 'prod' | 'max' | 'min' on ``dtype``."""
    if op not in _NCCL_OPS:
        raise ValueError(f"Unknown op {op} for NCCL (expected one of {', '.join(_NCCL_OPS)})")
    if np.dtype(dtype).kind == "c" and op != "sum":
        raise ValueError(f"NCCL op {op} is not defined for complex dtype {np.dtype(dtype)}")
    return _NCCL_OPS[op]


def check_process_group_args(n_devices, rank, backend):
    if n_devices <= 0:
        raise ValueError(f"Invalid number of devices {n_devices}")
    if not 0 <= rank < n_devices:
        raise ValueError(f"Invalid number of rank {rank} {n_devices}")
    if backend != "nccl":
        raise ValueError(f"{backend} is not supported")


def init_process_group(n_devices, rank, *, backend="nccl", host=None, port=None, use_mpi=False):
    """Joins this process, bound to the current device, to a group of ``n_devices`` ranks and
    returns its communicator. Every rank calls it; it returns once all have joined."""
    check_process_group_args(n_devices, rank, backend)
    if not nccl.available:
        raise RuntimeError("NCCL is not available: " + _missing_library_reason())
    if host is None:
        host = os.environ.get("CUPYX_DISTRIBUTED_HOST", _DEFAULT_HOST)
    if port is None:
        port = int(os.environ.get("CUPYX_DISTRIBUTED_PORT", _DEFAULT_PORT))
    return NCCLBackend(n_devices, rank, host, port, use_mpi)


def _missing_library_reason():
    try:
        nccl.get_version()
    except Exception as error:  # the loader's message: where it looked, how to install
        return str(error)
    return "unknown reason"


class _Rendezvous:
    """Exchanges the unique id and waits at barriers: the TCP store, or MPI's COMM_WORLD."""

    def __init__(self, n_devices, rank, host, port, use_mpi):
        self._server = None
        self._client = None
        self._mpi = None
        if use_mpi:
            from mpi4py import MPI  # optional: only for use_mpi=True
            self._mpi = MPI.COMM_WORLD
            return
        if rank == 0:
            self._server = _store.TCPStoreServer(host, port, n_devices)
        self._client = _store.TCPStoreClient(host, port)

    def unique_id(self, rank):
        if self._mpi is not None:
            return self._mpi.bcast(nccl.get_unique_id() if rank == 0 else None, root=0)
        if rank == 0:
            self._client.set("nccl_id", list(nccl.get_unique_id()))
        return tuple(self._client.get("nccl_id"))

    def barrier(self):
        if self._mpi is not None:
            self._mpi.Barrier()
        else:
            self._client.barrier()

    def close(self):
        if self._client is not None:
            self._client.close()
        if self._server is not None:
            self._server.stop()


def _stream_ptr(stream):
    if stream is None:
        from ..cuda import get_current_stream
        stream = get_current_stream()
    return getattr(stream, "ptr", stream)


class NCCLBackend:
    """One rank's communicator over cuarray arrays (cupyx.distributed.NCCLBackend). Arrays must be
    contiguous and on this rank's device; ``stream`` defaults to the current stream."""

    def __init__(self, n_devices, rank, host=_DEFAULT_HOST, port=_DEFAULT_PORT, use_mpi=False):
        from ..cuda import Device
        self.rank = rank
        self._n_devices = n_devices
        self._device = Device().id
        self._rendezvous = _Rendezvous(n_devices, rank, host, port, use_mpi)
        self._comm = nccl.NcclCommunicator(n_devices, self._rendezvous.unique_id(rank), rank)

    @property
    def size(self):
        return self._n_devices

    # -- checks ---------------------------------------------------------------------------------
    def _buffer(self, array, name):
        """(pointer, NCCL type, NCCL count) of a whole contiguous array on this rank's device."""
        if not (array.flags.c_contiguous or array.flags.f_contiguous):
            raise RuntimeError(f"NCCL requires arrays to be either c- or f-contiguous ({name} is not)")
        device = array.device.id
        if device != self._device:
            raise ValueError(f"{name} is on device {device}, but this rank's communicator is on device {self._device}")
        nccl_type, count = nccl_dtype(array.dtype, array.size)
        return array.data.ptr, nccl_type, count

    def _rows(self, array, name):
        if not array.flags.c_contiguous:
            raise RuntimeError(f"NCCL requires {name} to be c-contiguous")
        if array.ndim == 0 or array.shape[0] != self._n_devices:
            raise ValueError(f"{name} must have shape ({self._n_devices}, ...), one row per rank; got {array.shape}")
        return [array[i] for i in range(self._n_devices)]

    @staticmethod
    def _same(in_array, out_array):
        if in_array.dtype != out_array.dtype:
            raise TypeError(f"input dtype {in_array.dtype} and output dtype {out_array.dtype} differ")

    # -- collectives ----------------------------------------------------------------------------
    def all_reduce(self, in_array, out_array, op="sum", stream=None):
        self._same(in_array, out_array)
        if in_array.size != out_array.size:
            raise ValueError(f"input size {in_array.size} and output size {out_array.size} differ")
        op = nccl_op(op, in_array.dtype)
        send, nccl_type, count = self._buffer(in_array, "in_array")
        recv, _, _ = self._buffer(out_array, "out_array")
        self._comm.allReduce(send, recv, count, nccl_type, op, _stream_ptr(stream))

    def reduce(self, in_array, out_array, root=0, op="sum", stream=None):
        self._check_root(root)
        op = nccl_op(op, in_array.dtype)
        send, nccl_type, count = self._buffer(in_array, "in_array")
        recv = send
        if self.rank == root:
            self._same(in_array, out_array)
            if in_array.size != out_array.size:
                raise ValueError(f"input size {in_array.size} and output size {out_array.size} differ")
            recv = self._buffer(out_array, "out_array")[0]
        self._comm.reduce(send, recv, count, nccl_type, op, root, _stream_ptr(stream))

    def broadcast(self, in_out_array, root=0, stream=None):
        self._check_root(root)
        buffer, nccl_type, count = self._buffer(in_out_array, "in_out_array")
        self._comm.broadcast(buffer, buffer, count, nccl_type, root, _stream_ptr(stream))

    def reduce_scatter(self, in_array, out_array, count, op="sum", stream=None):
        self._same(in_array, out_array)
        if in_array.size < count * self._n_devices or out_array.size < count:
            raise ValueError(f"reduce_scatter of {count} elements per rank needs an input of at least "
                             f"{count * self._n_devices} and an output of at least {count}; got "
                             f"{in_array.size} and {out_array.size}")
        op = nccl_op(op, in_array.dtype)
        send, nccl_type, _ = self._buffer(in_array, "in_array")
        recv, _, _ = self._buffer(out_array, "out_array")
        self._comm.reduceScatter(send, recv, nccl_dtype(in_array.dtype, count)[1], nccl_type, op, _stream_ptr(stream))

    def all_gather(self, in_array, out_array, count, stream=None):
        self._same(in_array, out_array)
        if in_array.size < count or out_array.size < count * self._n_devices:
            raise ValueError(f"all_gather of {count} elements per rank needs an input of at least {count} "
                             f"and an output of at least {count * self._n_devices}; got {in_array.size} "
                             f"and {out_array.size}")
        send, nccl_type, _ = self._buffer(in_array, "in_array")
        recv, _, _ = self._buffer(out_array, "out_array")
        self._comm.allGather(send, recv, nccl_dtype(in_array.dtype, count)[1], nccl_type, _stream_ptr(stream))

    def send(self, array, peer, stream=None):
        self._check_root(peer, "peer")
        buffer, nccl_type, count = self._buffer(array, "array")
        self._comm.send(buffer, count, nccl_type, peer, _stream_ptr(stream))

    def recv(self, out_array, peer, stream=None):
        self._check_root(peer, "peer")
        buffer, nccl_type, count = self._buffer(out_array, "out_array")
        self._comm.recv(buffer, count, nccl_type, peer, _stream_ptr(stream))

    def send_recv(self, in_array, out_array, peer, stream=None):
        """Sends in_array to ``peer`` and receives out_array from it, fused so neither waits."""
        self._check_root(peer, "peer")
        send, send_type, send_count = self._buffer(in_array, "in_array")
        recv, recv_type, recv_count = self._buffer(out_array, "out_array")
        stream = _stream_ptr(stream)
        nccl.groupStart()
        try:
            self._comm.send(send, send_count, send_type, peer, stream)
            self._comm.recv(recv, recv_count, recv_type, peer, stream)
        finally:
            nccl.groupEnd()

    def scatter(self, in_array, out_array, root=0, stream=None):
        """Row i of root's in_array (shape (n_devices, ...)) becomes rank i's out_array."""
        self._check_root(root)
        recv, recv_type, recv_count = self._buffer(out_array, "out_array")
        rows = self._rows(in_array, "in_array") if self.rank == root else None
        if rows is not None:
            self._same(in_array, out_array)
            if rows[0].size != out_array.size:
                raise ValueError(f"each row of in_array has {rows[0].size} elements, out_array {out_array.size}")
        stream = _stream_ptr(stream)
        nccl.groupStart()
        try:
            if rows is not None:
                for peer, row in enumerate(rows):
                    self._comm.send(row.data.ptr, recv_count, recv_type, peer, stream)
            self._comm.recv(recv, recv_count, recv_type, root, stream)
        finally:
            nccl.groupEnd()

    def gather(self, in_array, out_array, root=0, stream=None):
        """Rank i's in_array becomes row i of root's out_array (shape (n_devices, ...))."""
        self._check_root(root)
        send, send_type, send_count = self._buffer(in_array, "in_array")
        rows = self._rows(out_array, "out_array") if self.rank == root else None
        if rows is not None:
            self._same(in_array, out_array)
            if rows[0].size != in_array.size:
                raise ValueError(f"each row of out_array has {rows[0].size} elements, in_array {in_array.size}")
        stream = _stream_ptr(stream)
        nccl.groupStart()
        try:
            self._comm.send(send, send_count, send_type, root, stream)
            if rows is not None:
                for peer, row in enumerate(rows):
                    self._comm.recv(row.data.ptr, send_count, send_type, peer, stream)
        finally:
            nccl.groupEnd()

    def all_to_all(self, in_array, out_array, stream=None):
        """Row i of this rank's in_array goes to rank i; row i of out_array comes from rank i."""
        self._same(in_array, out_array)
        self._buffer(in_array, "in_array")
        self._buffer(out_array, "out_array")
        send_rows = self._rows(in_array, "in_array")
        recv_rows = self._rows(out_array, "out_array")
        if send_rows[0].size != recv_rows[0].size:
            raise ValueError(f"rows of in_array ({send_rows[0].size} elements) and out_array "
                             f"({recv_rows[0].size}) differ")
        nccl_type, count = nccl_dtype(in_array.dtype, send_rows[0].size)
        stream = _stream_ptr(stream)
        nccl.groupStart()
        try:
            for peer in range(self._n_devices):
                self._comm.send(send_rows[peer].data.ptr, count, nccl_type, peer, stream)
                self._comm.recv(recv_rows[peer].data.ptr, count, nccl_type, peer, stream)
        finally:
            nccl.groupEnd()

    def barrier(self):
        """Waits until every rank has reached it (host-side; device work is not waited for)."""
        self._rendezvous.barrier()

    def stop(self):
        """Destroys the communicator and closes the rendezvous."""
        self._comm.destroy()
        self._rendezvous.close()

    def _check_root(self, root, name="root"):
        if not 0 <= root < self._n_devices:
            raise ValueError(f"{name} {root} is out of range for {self._n_devices} ranks")
