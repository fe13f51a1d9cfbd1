"""mpi4py with cuarray arrays (cuarray.cuda.is_cuda_aware_mpi, send_array, recv_array, allreduce_array).

Host tests (argument checks, the CUDA-awareness answer, the missing-mpi4py message) run anywhere;
one-rank GPU tests use this process's COMM_WORLD; the two-rank test launches ``mpirun -n 2`` when
mpirun and two GPUs are present."""
import contextlib
import os
import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import cuarray as cp
from cuarray import _mpi

from helpers import TESTS_DIR, subprocess_env
from mpi_launch import mpirun, mpirun_env

AWARE = "CUARRAY_MPI_CUDA_AWARE"
# The staged path warns once per process; most tests do not care whether their call was the first.
ignore_staging_warning = pytest.mark.filterwarnings("ignore::cuarray.cuda.MPIHostStagingWarning")


@contextlib.contextmanager
def _aware(value):
    """CUARRAY_MPI_CUDA_AWARE=value for a block ("native": unset, MPI's own answer)."""
    saved = os.environ.pop(AWARE, None)
    if value != "native":
        os.environ[AWARE] = value
    try:
        yield
    finally:
        os.environ.pop(AWARE, None)
        if saved is not None:
            os.environ[AWARE] = saved


@pytest.fixture
def MPI():
    return pytest.importorskip("mpi4py.MPI", reason="mpi4py is not installed")


@pytest.fixture(params=["native", "0"])
def path(request):
    """Each GPU test runs through the MPI library's own answer, and through host staging."""
    with _aware(request.param):
        yield request.param


# ---- host ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("helper, args", [
    (cp.cuda.send_array, (np.zeros(3, np.float32), 0)),
    (cp.cuda.recv_array, (np.zeros(3, np.float32),)),
    (cp.cuda.allreduce_array, ([1.0, 2.0],)),
])
def test_helpers_reject_host_arrays(helper, args):
    with pytest.raises(TypeError, match="must be a cuarray.ndarray, got"):
        helper(None, *args)


@pytest.mark.parametrize("value, expected", [("1", True), ("0", False)])
def test_awareness_override(monkeypatch, value, expected):
    monkeypatch.setenv(AWARE, value)
    assert cp.cuda.is_cuda_aware_mpi() is expected


def test_awareness_override_must_be_0_or_1(monkeypatch):
    monkeypatch.setenv(AWARE, "yes")
    with pytest.raises(ValueError, match="CUARRAY_MPI_CUDA_AWARE must be 0 or 1, got 'yes'"):
        cp.cuda.is_cuda_aware_mpi()


def test_missing_mpi4py_is_named(monkeypatch):
    monkeypatch.delenv(AWARE, raising=False)
    monkeypatch.setitem(sys.modules, "mpi4py", None)  # import mpi4py now raises ImportError
    with pytest.raises(ImportError, match=r"need mpi4py \(pip install mpi4py\)"):
        cp.cuda.is_cuda_aware_mpi()


def test_awareness_is_mpis_own_answer(MPI, monkeypatch):
    monkeypatch.delenv(AWARE, raising=False)
    answer = cp.cuda.is_cuda_aware_mpi()
    assert type(answer) is bool
    query = _mpi._cuda_support_query()
    vendor, version = MPI.get_vendor()
    if (vendor, version[0] >= 4) in [("Open MPI", True), ("MPICH", True)]:  # both export the query
        assert query is not None, f"MPIX_Query_cuda_support not found in {vendor} {version}"
    assert answer == (query is not None and bool(query()))


def test_importing_cuarray_does_not_import_mpi4py():
    out = subprocess.run([sys.executable, "-c", "import sys, cuarray; print('mpi4py' in sys.modules)"],
                         capture_output=True, text=True, env=subprocess_env(), timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


# ---- one rank, one GPU -----------------------------------------------------------------------------

@pytest.mark.gpu
@ignore_staging_warning
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.complex128])
def test_allreduce_one_rank(MPI, path, dtype, rng):
    host = (rng.standard_normal((33, 40)) * 50).astype(dtype)
    x = cp.asarray(host)[::-1, 1::3] + 1  # computed just before MPI reads it, from a strided view
    expected = host[::-1, 1::3] + 1
    total = cp.cuda.allreduce_array(MPI.COMM_WORLD, x)
    assert isinstance(total, cp.ndarray) and total.dtype == dtype and total.shape == expected.shape
    np.testing.assert_array_equal(total.get(), expected * MPI.COMM_WORLD.size)


@pytest.mark.gpu
@ignore_staging_warning
@pytest.mark.parametrize("aware", ["native", "0"])
@given(shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=6), seed=st.integers(0, 2**32 - 1))
def test_allreduce_keeps_shape(aware, shape, seed):
    """0-d, size-0 and odd shapes come back as they went in (ascontiguousarray would make 0-d 1-d)."""
    MPI = pytest.importorskip("mpi4py.MPI", reason="mpi4py is not installed")
    with _aware(aware):
        host = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
        total = cp.cuda.allreduce_array(MPI.COMM_WORLD, cp.asarray(host))
        assert total.shape == host.shape and total.dtype == np.float32
        np.testing.assert_array_equal(total.get(), host * MPI.COMM_WORLD.size)


@pytest.mark.gpu
@ignore_staging_warning
def test_helpers_work_on_the_arrays_device(MPI, path, rng):
    if cp.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs")
    host = rng.standard_normal(500)
    with cp.cuda.Device(1):
        x = cp.asarray(host)
    assert cp.cuda.runtime.getDevice() == 0
    total = cp.cuda.allreduce_array(MPI.COMM_WORLD, x[::-2])
    assert total.device.id == 1 and cp.cuda.runtime.getDevice() == 0
    np.testing.assert_array_equal(total.get(), host[::-2] * MPI.COMM_WORLD.size)


@pytest.mark.gpu
@ignore_staging_warning
def test_allreduce_one_rank_max(MPI, path, rng):
    host = rng.standard_normal(1000).astype(np.float32)
    out = cp.cuda.allreduce_array(MPI.COMM_WORLD, cp.asarray(host) * 2, op=MPI.MAX)
    np.testing.assert_array_equal(out.get(), host * 2)


@pytest.mark.gpu
def test_mpi4py_allreduce_on_cuarray_buffers(MPI, monkeypatch, rng):
    """What users write: comm.Allreduce(x, y) with cuarray arrays; only valid on a CUDA-aware MPI."""
    monkeypatch.delenv(AWARE, raising=False)
    if not cp.cuda.is_cuda_aware_mpi():
        pytest.skip(f"the MPI library is not CUDA-aware ({MPI.Get_library_version().splitlines()[0]})")
    host = rng.standard_normal((128, 9))
    x = cp.asarray(host) * 3
    out = cp.empty_like(x)
    cp.cuda.get_current_stream().synchronize()
    MPI.COMM_WORLD.Allreduce(x, out, op=MPI.SUM)
    np.testing.assert_allclose(out.get(), host * 3 * MPI.COMM_WORLD.size)


@pytest.mark.gpu
@ignore_staging_warning
def test_send_recv_to_self(MPI, path, rng):
    """Receive and send run in two threads (the receive may be posted after the send starts, which
    must not depend on eager delivery); a lost message fails the test instead of hanging it."""
    if MPI.Query_thread() != MPI.THREAD_MULTIPLE:
        pytest.skip("a send to self from two threads needs MPI_THREAD_MULTIPLE")
    comm = MPI.COMM_WORLD
    host = rng.integers(-1000, 1000, size=(300, 70), dtype=np.int64)  # 168 KB: past eager limits
    x = cp.asarray(host).T
    out = cp.zeros((70, 300), dtype=np.int64)
    results = {}

    def run(name, call):
        try:
            results[name] = call()
        except BaseException as exc:  # reported below, in the test's thread
            results[name] = exc

    threads = [threading.Thread(target=run, daemon=True, args=(name, call)) for name, call in [
        ("recv", lambda: cp.cuda.recv_array(comm, out, source=comm.rank, tag=3)),
        ("send", lambda: cp.cuda.send_array(comm, x, dest=comm.rank, tag=3))]]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), f"send/recv to self did not finish: {results}"
    assert results["send"] is None and results["recv"] is out, results
    np.testing.assert_array_equal(out.get(), host.T)


@pytest.mark.gpu
def test_recv_into_non_contiguous_array(MPI):
    out = cp.zeros((4, 6), dtype=np.float32)[:, ::2]
    with pytest.raises(ValueError, match="out must be C-contiguous"):
        cp.cuda.recv_array(MPI.COMM_WORLD, out, source=0)


@pytest.mark.gpu
def test_staged_path_warns_once(MPI, monkeypatch):
    monkeypatch.setenv(AWARE, "0")
    _mpi._warn_staging.cache_clear()
    x = cp.arange(10, dtype=np.float64)
    with pytest.warns(cp.cuda.MPIHostStagingWarning, match="not CUDA-aware"):
        cp.cuda.allreduce_array(MPI.COMM_WORLD, x)
    with warnings.catch_warnings():  # the second call is quiet
        warnings.simplefilter("error", cp.cuda.MPIHostStagingWarning)
        cp.cuda.allreduce_array(MPI.COMM_WORLD, x)


# ---- two ranks, two GPUs ---------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("aware", ["native", "0"])
def test_two_ranks_under_mpirun(aware):
    # No MPI in this process: the ranks are mpirun's children, not this interpreter's.
    pytest.importorskip("mpi4py", reason="mpi4py is not installed")
    if mpirun() is None:
        pytest.skip("mpirun is not installed")
    if cp.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("the two-rank run needs two GPUs (one rank per GPU)")
    env = mpirun_env()
    env.pop(AWARE, None)
    if aware != "native":
        env[AWARE] = aware
    proc = subprocess.run([mpirun(), "-n", "2", sys.executable, "-m", "mpi_two_ranks"], cwd=TESTS_DIR,
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, f"mpirun exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    assert "rank 0 ok" in proc.stdout and "rank 1 ok" in proc.stdout, proc.stdout
