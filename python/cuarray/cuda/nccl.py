"""NCCL collectives with CuPy's ``cupy.cuda.nccl`` API (docs/distributed.md, "NCCL").

libnccl is opened on first use (the ``nvidia-nccl-cu13``/``-cu12`` wheels, ``$CUDA_PATH``,
``/usr/local/cuda``, the loader's path); importing this module loads nothing. ``available`` says
whether it can be opened. NVLink multicast stays off: ``NCCL_NVLS_ENABLE=0`` is set, unless the
user set it, before the library loads.

Buffers are device pointers as ints (``x.data.ptr``; a cuarray array is accepted too), counts are
elements, and ``stream`` is a stream pointer or a ``cuarray.cuda.Stream``, as in CuPy.
"""
from .. import _core

NcclError = _core.NcclError

# ncclDataType_t (nccl.h)
NCCL_INT8 = NCCL_CHAR = 0
NCCL_UINT8 = 1
NCCL_INT32 = NCCL_INT = 2
NCCL_UINT32 = 3
NCCL_INT64 = 4
NCCL_UINT64 = 5
NCCL_FLOAT16 = NCCL_HALF = 6
NCCL_FLOAT32 = NCCL_FLOAT = 7
NCCL_FLOAT64 = NCCL_DOUBLE = 8
NCCL_BFLOAT16 = 9

# ncclRedOp_t
NCCL_SUM = 0
NCCL_PROD = 1
NCCL_MAX = 2
NCCL_MIN = 3
NCCL_AVG = 4

# ncclResult_t
NCCL_SUCCESS = 0
NCCL_UNHANDLED_CUDA_ERROR = 1
NCCL_SYSTEM_ERROR = 2
NCCL_INTERNAL_ERROR = 3
NCCL_INVALID_ARGUMENT = 4
NCCL_INVALID_USAGE = 5
NCCL_REMOTE_ERROR = 6
NCCL_IN_PROGRESS = 7


def __getattr__(name):
    # `available` opens the library, so it is computed when first asked for, not at import.
    if name == "available":
        return _core.nccl_available()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get_version():
    """NCCL_VERSION_CODE of the loaded library (22809 for 2.28.9)."""
    return _core.nccl_version()


def get_unique_id():
    """A new ncclUniqueId as a tuple of 128 ints, to hand to every rank."""
    return _core.nccl_unique_id()


def groupStart():
    _core.nccl_group_start()


def groupEnd():
    _core.nccl_group_end()


def _pointer(buffer):
    """A device pointer from an int or from an array with a device buffer."""
    if isinstance(buffer, int):
        return buffer
    data = getattr(buffer, "data", None)
    if data is not None and hasattr(data, "ptr"):
        return data.ptr
    return int(buffer)


def _stream(stream):
    ptr = getattr(stream, "ptr", stream)
    return 0 if ptr is None else int(ptr)


class NcclCommunicator:
    """One rank of an NCCL communicator: ``NcclCommunicator(ndev, commId, rank)`` on the current
    device, where ``commId`` is one ``get_unique_id()`` shared by all ``ndev`` ranks. It blocks
    until every rank has joined."""

    def __init__(self, ndev, commId, rank):
        self._comm = _core.NcclComm(int(ndev), tuple(commId), int(rank))

    @staticmethod
    def initAll(devices):
        """One communicator per device, in one process: ``devices`` is a list of device ids or a
        count (devices 0..n-1)."""
        if isinstance(devices, int):
            devices = list(range(devices))
        comms = []
        for comm in _core.NcclComm.init_all([int(d) for d in devices]):
            wrapper = NcclCommunicator.__new__(NcclCommunicator)
            wrapper._comm = comm
            comms.append(wrapper)
        return comms

    def device_id(self):
        return self._comm.device

    def rank_id(self):
        return self._comm.rank

    def size(self):
        return self._comm.size

    @property
    def comm(self):
        """The ncclComm_t as an int (0 once destroyed)."""
        return self._comm.handle

    def destroy(self):
        self._comm.destroy()

    def abort(self):
        self._comm.abort()

    def allReduce(self, sendbuf, recvbuf, count, datatype, op, stream):
        self._comm.all_reduce(_pointer(sendbuf), _pointer(recvbuf), count, datatype, op, _stream(stream))

    def reduce(self, sendbuf, recvbuf, count, datatype, op, root, stream):
        self._comm.reduce(_pointer(sendbuf), _pointer(recvbuf), count, datatype, op, root, _stream(stream))

    def broadcast(self, sendbuff, recvbuff, count, datatype, root, stream):
        self._comm.broadcast(_pointer(sendbuff), _pointer(recvbuff), count, datatype, root, _stream(stream))

    def bcast(self, buff, count, datatype, root, stream):
        self._comm.broadcast(_pointer(buff), _pointer(buff), count, datatype, root, _stream(stream))

    def reduceScatter(self, sendbuf, recvbuf, recvcount, datatype, op, stream):
        self._comm.reduce_scatter(_pointer(sendbuf), _pointer(recvbuf), recvcount, datatype, op, _stream(stream))

    def allGather(self, sendbuf, recvbuf, count, datatype, stream):
        self._comm.all_gather(_pointer(sendbuf), _pointer(recvbuf), count, datatype, _stream(stream))

    def send(self, sendbuf, count, datatype, peer, stream):
        self._comm.send(_pointer(sendbuf), count, datatype, peer, _stream(stream))

    def recv(self, recvbuf, count, datatype, peer, stream):
        self._comm.recv(_pointer(recvbuf), count, datatype, peer, _stream(stream))
