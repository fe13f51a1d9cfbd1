"""cuarray.cuda.nccl (CuPy's cupy.cuda.nccl) and cuarray.distributed (cupyx.distributed).

Host-only: the constants against nccl.h, the dtype/op mapping and its errors, the process group's
argument errors, the TCP store between two processes, the library loaded lazily with NVLS off, the
missing-library path. GPU: one-rank communicators, initAll, a one-rank process group; on two or
more GPUs, two ranks in two processes and initAll in one.
"""
import json
import os
import re
import socket
import subprocess
import sys

import numpy as np
import pytest

import cuarray as cp
import cuarray.distributed
from cuarray.cuda import nccl
from cuarray.distributed import _comm
from helpers import TESTS_DIR, run_python, subprocess_env

NCCL_HEADER = "/usr/local/cuda/include/nccl.h"
needs_nccl = pytest.mark.skipif(not nccl.available, reason="libnccl cannot be opened here")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_ranks(job, world_size, processes=None, timeout=300):
    """Runs nccl_workers.py's ``job`` as ``processes`` (default ``world_size``) processes, ranks 0, 1,
    ...; returns each one's JSON result."""
    port = free_port()
    procs = [subprocess.Popen([sys.executable, os.path.join(TESTS_DIR, "nccl_workers.py"), job, str(rank),
                               str(world_size), str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=subprocess_env())
             for rank in range(world_size if processes is None else processes)]
    results = []
    for rank, proc in enumerate(procs):
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            for p in procs:
                p.kill()
            raise
        assert proc.returncode == 0, f"rank {rank} exited with {proc.returncode}\n{out}\n{err}"
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


def device_count():
    try:
        return cp.cuda.runtime.getDeviceCount()
    except cp.cuda.runtime.CUDARuntimeError:
        return 0


# --------------------------------------------------------------------------------------------------
# host

@pytest.mark.skipif(not os.path.exists(NCCL_HEADER), reason=f"no {NCCL_HEADER}")
def test_constants_match_nccl_header():
    header = open(NCCL_HEADER).read()

    def enum_value(name):
        match = re.search(rf"\b{name}\s*=\s*(\d+)", header)
        assert match, name
        return int(match.group(1))

    assert nccl.NCCL_INT8 == nccl.NCCL_CHAR == enum_value("ncclInt8")
    assert nccl.NCCL_UINT8 == enum_value("ncclUint8")
    assert nccl.NCCL_INT32 == nccl.NCCL_INT == enum_value("ncclInt32")
    assert nccl.NCCL_UINT32 == enum_value("ncclUint32")
    assert nccl.NCCL_INT64 == enum_value("ncclInt64")
    assert nccl.NCCL_UINT64 == enum_value("ncclUint64")
    assert nccl.NCCL_FLOAT16 == nccl.NCCL_HALF == enum_value("ncclFloat16")
    assert nccl.NCCL_FLOAT32 == nccl.NCCL_FLOAT == enum_value("ncclFloat32")
    assert nccl.NCCL_FLOAT64 == nccl.NCCL_DOUBLE == enum_value("ncclFloat64")
    assert nccl.NCCL_BFLOAT16 == enum_value("ncclBfloat16")
    assert nccl.NCCL_SUM == enum_value("ncclSum")
    assert nccl.NCCL_PROD == enum_value("ncclProd")
    assert nccl.NCCL_MAX == enum_value("ncclMax")
    assert nccl.NCCL_MIN == enum_value("ncclMin")
    assert nccl.NCCL_AVG == enum_value("ncclAvg")
    assert nccl.NCCL_SUCCESS == enum_value("ncclSuccess")
    assert nccl.NCCL_INVALID_ARGUMENT == enum_value("ncclInvalidArgument")
    assert nccl.NCCL_INVALID_USAGE == enum_value("ncclInvalidUsage")
    assert nccl.NCCL_IN_PROGRESS == enum_value("ncclInProgress")


@pytest.mark.parametrize("dtype, nccl_type, factor", [
    (np.int8, nccl.NCCL_INT8, 1), (np.uint8, nccl.NCCL_UINT8, 1), (np.int32, nccl.NCCL_INT32, 1),
    (np.uint32, nccl.NCCL_UINT32, 1), (np.int64, nccl.NCCL_INT64, 1), (np.uint64, nccl.NCCL_UINT64, 1),
    (np.float16, nccl.NCCL_FLOAT16, 1), (np.float32, nccl.NCCL_FLOAT32, 1), (np.float64, nccl.NCCL_FLOAT64, 1),
    (np.complex64, nccl.NCCL_FLOAT32, 2), (np.complex128, nccl.NCCL_FLOAT64, 2)])
def test_dtype_mapping(dtype, nccl_type, factor):
    assert _comm.nccl_dtype(dtype, 7) == (nccl_type, 7 * factor)


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.uint16])
def test_dtype_without_nccl_type_is_type_error(dtype):
    with pytest.raises(TypeError, match="Unknown dtype .* for NCCL"):
        _comm.nccl_dtype(dtype, 3)


def test_op_mapping_and_errors():
    assert [_comm.nccl_op(op, np.float32) for op in ("sum", "prod", "max", "min")] == [
        nccl.NCCL_SUM, nccl.NCCL_PROD, nccl.NCCL_MAX, nccl.NCCL_MIN]
    assert _comm.nccl_op("sum", np.complex64) == nccl.NCCL_SUM
    with pytest.raises(ValueError, match="Unknown op avg"):
        _comm.nccl_op("avg", np.float32)
    with pytest.raises(ValueError, match="complex"):
        _comm.nccl_op("max", np.complex128)


@pytest.mark.parametrize("n_devices, rank, backend, message", [
    (0, 0, "nccl", "Invalid number of devices 0"),
    (2, 2, "nccl", "Invalid number of rank 2 2"),
    (2, -1, "nccl", "Invalid number of rank -1 2"),
    (1, 0, "gloo", "gloo is not supported")])
def test_process_group_argument_errors(n_devices, rank, backend, message):
    with pytest.raises(ValueError, match=message):
        cuarray.distributed.init_process_group(n_devices, rank, backend=backend)


def test_process_group_without_nccl_names_the_library(monkeypatch):
    def missing():
        raise cp.cuda.runtime.CUDARuntimeError(None, "NCCL (libnccl.so.2) was not found; pip install nvidia-nccl-cu13")
    monkeypatch.setattr(nccl, "available", False, raising=False)
    monkeypatch.setattr(nccl, "get_version", missing)
    with pytest.raises(RuntimeError, match="NCCL is not available: .*pip install nvidia-nccl-cu13"):
        cuarray.distributed.init_process_group(1, 0)


@pytest.mark.parametrize("world_size", [2, 3])
def test_tcp_store_rendezvous_between_processes(world_size):
    results = run_ranks("store", world_size, timeout=120)
    assert results == [{"values": [[r, 10 * r] for r in range(world_size)]}] * world_size


def test_import_does_not_load_nccl():
    out = run_python("import cuarray, cuarray.cuda.nccl, cuarray.distributed\n"
                     "print(any('libnccl' in line for line in open('/proc/self/maps')))")
    assert out.strip() == "False"


@needs_nccl
def test_library_loads_with_nvls_off_and_gives_ids():
    env = subprocess_env()
    env.pop("NCCL_NVLS_ENABLE", None)
    code = ("import ctypes, cuarray.cuda.nccl as nccl\n"
            "ids = nccl.get_unique_id(), nccl.get_unique_id()\n"
            "libc = ctypes.CDLL(None); libc.getenv.restype = ctypes.c_char_p\n"
            "print(nccl.available, nccl.get_version(), libc.getenv(b'NCCL_NVLS_ENABLE').decode(),"
            " len(ids[0]), ids[0] != ids[1], all(isinstance(c, int) for c in ids[0]))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    available, version, nvls, length, differ, ints = proc.stdout.split()
    assert (available, nvls, length, differ, ints) == ("True", "0", "128", "True", "True")
    assert int(version) >= 20000


def test_nccl_error_is_runtime_error():
    assert issubclass(nccl.NcclError, RuntimeError)


# --------------------------------------------------------------------------------------------------
# GPU: one rank

ONE_RANK_DTYPES = [np.float32, np.float64, np.float16, np.int32, np.int64, np.uint8, np.int8, np.uint64]


def random_array(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -1000), min(info.max, 1000), size=shape, endpoint=True).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


NCCL_TYPES = {np.dtype(np.float32): nccl.NCCL_FLOAT32, np.dtype(np.float64): nccl.NCCL_FLOAT64,
              np.dtype(np.float16): nccl.NCCL_FLOAT16, np.dtype(np.int32): nccl.NCCL_INT32,
              np.dtype(np.int64): nccl.NCCL_INT64, np.dtype(np.uint8): nccl.NCCL_UINT8,
              np.dtype(np.int8): nccl.NCCL_INT8, np.dtype(np.uint64): nccl.NCCL_UINT64}


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ONE_RANK_DTYPES)
def test_one_rank_communicator_collectives(rng, dtype):
    data = random_array(rng, (3, 37), dtype)
    x = cp.asarray(data)
    n, t = data.size, NCCL_TYPES[np.dtype(dtype)]
    stream = cp.cuda.Stream()
    comm = nccl.NcclCommunicator(1, nccl.get_unique_id(), 0)
    assert (comm.size(), comm.rank_id(), comm.device_id()) == (1, 0, cp.cuda.Device().id)

    def fresh():
        return cp.zeros(data.shape, dtype)

    with stream:
        out = fresh()
        comm.allReduce(x.data.ptr, out.data.ptr, n, t, nccl.NCCL_SUM, stream.ptr)
        np.testing.assert_array_equal(out.get(), data)
        out = fresh()
        comm.reduce(x.data.ptr, out.data.ptr, n, t, nccl.NCCL_MIN, 0, stream)  # a Stream object as well
        np.testing.assert_array_equal(out.get(), data)
        out = fresh()
        comm.broadcast(x.data.ptr, out.data.ptr, n, t, 0, stream.ptr)
        np.testing.assert_array_equal(out.get(), data)
        out = x.copy()
        comm.bcast(out.data.ptr, n, t, 0, stream.ptr)
        np.testing.assert_array_equal(out.get(), data)
        out = fresh()
        comm.allGather(x, out, n, t, stream.ptr)  # arrays are taken for pointers too
        np.testing.assert_array_equal(out.get(), data)
        out = fresh()
        comm.reduceScatter(x.data.ptr, out.data.ptr, n, t, nccl.NCCL_MAX, stream.ptr)
        np.testing.assert_array_equal(out.get(), data)
        out = fresh()
        nccl.groupStart()
        comm.send(x.data.ptr, n, t, 0, stream.ptr)
        comm.recv(out.data.ptr, n, t, 0, stream.ptr)
        nccl.groupEnd()
        np.testing.assert_array_equal(out.get(), data)
    comm.destroy()
    assert comm.comm == 0


@pytest.mark.gpu
def test_collective_follows_pending_work_on_the_current_stream(rng):
    # The input is made by cuarray kernels just before the call: NCCL must see their results.
    data = rng.standard_normal(1 << 20).astype(np.float32)
    comm = nccl.NcclCommunicator(1, nccl.get_unique_id(), 0)
    x = cp.asarray(data) * 3 + 1
    out = cp.empty_like(x)
    comm.allReduce(x.data.ptr, out.data.ptr, x.size, nccl.NCCL_FLOAT32, nccl.NCCL_SUM,
                   cp.cuda.get_current_stream().ptr)
    np.testing.assert_allclose(out.get(), data * 3 + 1, rtol=1e-6)
    comm.destroy()


@pytest.mark.gpu
def test_destroyed_and_aborted_communicators_raise_nccl_error():
    for end in ("destroy", "abort"):
        comm = nccl.NcclCommunicator(1, nccl.get_unique_id(), 0)
        getattr(comm, end)()
        getattr(comm, end)()  # a second call does nothing
        with pytest.raises(nccl.NcclError) as info:
            comm.size()
        assert info.value.status == nccl.NCCL_INVALID_ARGUMENT


@pytest.mark.gpu
@pytest.mark.parametrize("devices", [[0], 1])
def test_init_all_on_one_device(rng, devices):
    comms = nccl.NcclCommunicator.initAll(devices)
    assert len(comms) == 1
    assert (comms[0].size(), comms[0].rank_id(), comms[0].device_id()) == (1, 0, 0)
    data = rng.standard_normal(100)
    with cp.cuda.Device(0):
        x = cp.asarray(data)
        out = cp.zeros(100)
        comms[0].allReduce(x.data.ptr, out.data.ptr, 100, nccl.NCCL_FLOAT64, nccl.NCCL_PROD,
                           cp.cuda.get_current_stream().ptr)
        np.testing.assert_array_equal(out.get(), data)
    comms[0].destroy()


@pytest.fixture
def one_rank_group():
    comm = cuarray.distributed.init_process_group(1, 0, port=free_port())
    yield comm
    comm.stop()


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.uint8, np.float16,
                                   np.complex64, np.complex128])
def test_process_group_one_rank(rng, one_rank_group, dtype):
    comm = one_rank_group
    data = random_array(rng, (4, 6), dtype) if np.dtype(dtype).kind != "c" else (
        rng.standard_normal((4, 6)) + 1j * rng.standard_normal((4, 6))).astype(dtype)
    x = cp.asarray(data)
    ops = ["sum"] if np.dtype(dtype).kind == "c" else ["sum", "prod", "max", "min"]
    for op in ops:
        out = cp.zeros_like(x)
        comm.all_reduce(x, out, op=op)
        np.testing.assert_array_equal(out.get(), data)
        out = cp.zeros_like(x)
        comm.reduce(x, out, root=0, op=op)
        np.testing.assert_array_equal(out.get(), data)
    y = x.copy()
    comm.broadcast(y, root=0)
    np.testing.assert_array_equal(y.get(), data)
    out = cp.zeros(data.size, dtype)
    comm.all_gather(x, out, data.size)
    np.testing.assert_array_equal(out.get(), data.ravel())
    out = cp.zeros(5, dtype)
    comm.reduce_scatter(x, out, 5)
    np.testing.assert_array_equal(out.get(), data.ravel()[:5])
    out = cp.zeros_like(x)
    comm.send_recv(x, out, 0)
    np.testing.assert_array_equal(out.get(), data)
    rows = x.reshape(1, 24)
    row = cp.zeros(24, dtype)
    comm.scatter(rows, row, root=0)
    np.testing.assert_array_equal(row.get(), data.ravel())
    gathered = cp.zeros((1, 24), dtype)
    comm.gather(x, gathered, root=0)
    np.testing.assert_array_equal(gathered.get(), data.reshape(1, 24))
    exchanged = cp.zeros((1, 24), dtype)
    comm.all_to_all(rows, exchanged)
    np.testing.assert_array_equal(exchanged.get(), data.reshape(1, 24))
    f_order = cp.asarray(np.asfortranarray(data))
    out = cp.zeros_like(f_order)
    comm.all_reduce(f_order, out)  # F-contiguous is accepted, as in CuPy
    np.testing.assert_array_equal(out.get(), data)
    comm.barrier()


@pytest.mark.gpu
def test_process_group_argument_errors_on_arrays(one_rank_group):
    comm = one_rank_group
    x = cp.arange(24, dtype=np.float32).reshape(4, 6)
    out = cp.zeros_like(x)
    with pytest.raises(RuntimeError, match="contiguous"):
        comm.all_reduce(x[:, ::2], cp.zeros((4, 3), np.float32))
    with pytest.raises(RuntimeError, match="contiguous"):
        comm.broadcast(x[::-1])
    with pytest.raises(TypeError, match="Unknown dtype bool for NCCL"):
        comm.all_reduce(x > 3, out > 3)
    with pytest.raises(TypeError, match="dtype"):
        comm.all_reduce(x, out.astype(np.float64))
    with pytest.raises(ValueError, match="size"):
        comm.all_reduce(x, cp.zeros(5, np.float32))
    with pytest.raises(ValueError, match="Unknown op"):
        comm.all_reduce(x, out, op="avg")
    with pytest.raises(ValueError, match="root 1 is out of range"):
        comm.broadcast(x, root=1)
    with pytest.raises(ValueError, match="peer 3 is out of range"):
        comm.send(x, 3)
    with pytest.raises(ValueError, match=r"shape \(1, ...\)"):
        comm.scatter(x, cp.zeros(6, np.float32))
    with pytest.raises(ValueError, match="at least"):
        comm.all_gather(x, cp.zeros(3, np.float32), 24)


# --------------------------------------------------------------------------------------------------
# GPU: two ranks



@pytest.mark.gpu
@pytest.mark.skipif(device_count() < 2, reason="needs two or more GPUs")
def test_process_group_two_ranks_in_two_processes():
    results = run_ranks("collectives", 2)
    for rank, checks in enumerate(results):
        assert checks and all(checks.values()), (rank, checks)
    assert "reduce" in results[0] and "gather" in results[0]


@pytest.mark.gpu
@pytest.mark.skipif(device_count() < 2, reason="needs two or more GPUs")
def test_init_all_two_devices_in_one_process():
    (checks,) = run_ranks("init_all", 2, processes=1)
    assert checks and all(checks.values()), checks
