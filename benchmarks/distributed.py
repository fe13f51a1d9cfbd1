"""NCCL all-reduce bus bandwidth across the GPUs of one host, cuarray.cuda.nccl against CuPy's
cupy.cuda.nccl: the same code, one communicator per device from initAll in one process, one
grouped all-reduce of 1 GB per device, timed from all devices drained to all devices drained, the
libraries' samples taken in turn.

Bus bandwidth is NCCL's own measure (nccl-tests): bytes / time * 2 (n - 1) / n, what each link
carries. The peer copy moves 4 GB from device 0 to device 1 as users write it (asarray under
another device) and is judged against cuMemcpyPeer's own rate over that link. With fewer than two
GPUs each case records an error saying so, as any case that cannot run.
"""
from __future__ import annotations

import contextlib
import ctypes
import importlib
import statistics
import sys
import time
from dataclasses import dataclass

import numpy as np

from .harness import GPU_LIBRARIES, Session, measure_each, random_host, release
from .results import Result, Target

BYTES_PER_DEVICE = 1 << 30
N_DEVICES = 2


def _device_count(xp) -> int:
    return xp.cuda.runtime.getDeviceCount()


def _synchronize_all(xp, n_devices: int) -> None:
    for d in range(n_devices):
        with xp.cuda.Device(d):
            xp.cuda.Stream.null.synchronize()


class _AllReduce:
    """One library's communicators (initAll) and 1 GB buffers per device, and one grouped
    all-reduce timed from all devices drained to all devices drained."""

    def __init__(self, xp, n_devices: int, nbytes: int):
        found = _device_count(xp)
        if found < n_devices:
            raise RuntimeError(f"skipped: needs {n_devices} GPUs, found {found}")
        self.xp, self.n_devices = xp, n_devices
        self.nccl = importlib.import_module(f"{xp.__name__}.cuda.nccl")  # CuPy does not import it eagerly
        self.comms = self.nccl.NcclCommunicator.initAll(list(range(n_devices)))
        host = random_host((nbytes // 4,), "float32", seed=18)  # cached: both libraries get the same
        self.buffers = []
        for d in range(n_devices):
            with xp.cuda.Device(d):
                self.buffers.append((xp.asarray(host), xp.empty(host.shape, np.float32)))

    def all_reduce(self) -> None:
        xp, nccl = self.xp, self.nccl
        nccl.groupStart()
        for d, comm in enumerate(self.comms):
            with xp.cuda.Device(d):
                send, recv = self.buffers[d]
                comm.allReduce(send.data.ptr, recv.data.ptr, send.size, nccl.NCCL_FLOAT32, nccl.NCCL_SUM,
                               xp.cuda.Stream.null.ptr)
        nccl.groupEnd()

    def sample_ms(self) -> float:
        _synchronize_all(self.xp, self.n_devices)
        start = time.perf_counter()
        self.all_reduce()
        _synchronize_all(self.xp, self.n_devices)
        return (time.perf_counter() - start) * 1e3

    def close(self) -> None:
        _synchronize_all(self.xp, self.n_devices)
        for comm in self.comms:
            comm.destroy()
        self.buffers.clear()
        for d in range(self.n_devices):
            with self.xp.cuda.Device(d):
                self.xp.get_default_memory_pool().free_all_blocks()


@dataclass(frozen=True)
class AllReduceCase:
    """Both libraries call the same libnccl function, so the ratio measures their bindings; the
    GPUs' drift between two back-to-back runs (up to 3% on two H200s) would decide it instead, so
    the libraries take their samples in turn."""

    name: str
    target: Target
    n_devices: int = N_DEVICES
    nbytes: int = BYTES_PER_DEVICE
    libraries: tuple[str, ...] = GPU_LIBRARIES
    in_device_memory = False  # the links' bandwidth, not a share of a device-memory copy

    @property
    def bytes_moved(self) -> int:
        # The bus bandwidth's bytes, so that gbps is NCCL's busbw.
        return self.nbytes * 2 * (self.n_devices - 1) // self.n_devices

    def run(self, session: Session) -> list[Result]:
        runs, results = {}, []
        try:
            for name in self.libraries:
                library = session.libraries.get(name)
                if library is None:
                    continue
                try:
                    runs[name] = _AllReduce(library.xp, self.n_devices, self.nbytes)
                except Exception as exc:
                    results.append(Result(self.name, name, error=f"{type(exc).__name__}: {exc}"))
            if runs:
                repeats = session.repeats(session.libraries[next(iter(runs))])
                for _ in range(max(repeats.warmup, 2)):
                    for run in runs.values():
                        run.all_reduce()
                samples = {name: [] for name in runs}
                for _ in range(repeats.samples):
                    for name, run in runs.items():
                        samples[name].append(run.sample_ms())
                results += [Result(self.name, name, ms=statistics.median(times)) for name, times in samples.items()]
        finally:
            for name, run in runs.items():
                with contextlib.suppress(Exception):
                    run.close()
                release(session.libraries[name])
        return results


def _driver_peer_copy_ms(dst_ptr: int, dst_device: int, src_ptr: int, src_device: int, nbytes: int,
                         repeats: int) -> float:
    """The link's rate as the driver reaches it: cuMemcpyPeer between the two primary contexts
    (synchronous), called through libcuda itself so that no library's copy path is in the way."""
    cuda = ctypes.CDLL("libcuda.so.1")

    def check(status, call):
        if status != 0:
            raise RuntimeError(f"{call} failed: CUresult {status}")

    def context(ordinal):
        device, ctx = ctypes.c_int(), ctypes.c_void_p()
        check(cuda.cuDeviceGet(ctypes.byref(device), ordinal), "cuDeviceGet")
        check(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), device), "cuDevicePrimaryCtxRetain")
        return ctx

    dst_ctx, src_ctx = context(dst_device), context(src_device)
    copy = lambda: check(cuda.cuMemcpyPeer(ctypes.c_uint64(dst_ptr), dst_ctx, ctypes.c_uint64(src_ptr), src_ctx,
                                           ctypes.c_size_t(nbytes)), "cuMemcpyPeer")
    copy()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        copy()
        check(cuda.cuCtxSynchronize(), "cuCtxSynchronize")
        samples.append((time.perf_counter() - start) * 1e3)
    return min(samples)


@dataclass
class PeerCopyCase:
    """cuarray.asarray(x) of a 4 GB array of device 0 under Device(1) (CuPy's spelling, timed in both
    libraries), against the rate cuMemcpyPeer itself reaches over the same link: the target, set
    once that reference is measured, is `share` of it."""

    name: str
    share: float
    nbytes: int = 4 << 30
    libraries: tuple[str, ...] = GPU_LIBRARIES
    in_device_memory = False  # the link's bandwidth, not a share of a device-memory copy
    target: Target | None = None

    @property
    def bytes_moved(self) -> int:
        return self.nbytes

    def run(self, session: Session) -> list[Result]:
        def measure(library):
            xp = library.xp
            found = _device_count(xp)
            if found < 2:
                raise RuntimeError(f"skipped: needs 2 GPUs, found {found}")
            with xp.cuda.Device(0):
                x = xp.ones(self.nbytes // 4, dtype=np.float32)
            repeats = session.repeats(library)

            def move():
                with xp.cuda.Device(1):
                    return xp.asarray(x)

            try:
                y = move()  # opens the peer path and fills device 1's pool
                if library.name == "cuarray" and self.target is None:
                    _synchronize_all(xp, 2)
                    ms = _driver_peer_copy_ms(y.data.ptr, 1, x.data.ptr, 0, self.nbytes, repeats.samples)
                    self.target = Target(max_ms=ms / self.share)
                    print(f"(cuMemcpyPeer reference: {self.nbytes / ms / 1e6:.0f} GB/s)", end=" ",
                          file=sys.stderr, flush=True)
                del y
                samples = []
                for _ in range(repeats.samples):
                    _synchronize_all(xp, 2)
                    start = time.perf_counter()
                    y = move()
                    _synchronize_all(xp, 2)
                    samples.append((time.perf_counter() - start) * 1e3)
                    del y
                return statistics.median(samples)
            finally:
                del x
                for d in range(2):
                    with xp.cuda.Device(d):
                        xp.get_default_memory_pool().free_all_blocks()

        return measure_each(session, self.name, self.libraries, measure)


CASES = [
    # Issue 18: at least 0.98x CuPy's bus bandwidth, i.e. at most 1/0.98 of its time.
    AllReduceCase("nccl all-reduce 1 GB float32, 2 GPUs (busbw)", Target(max_share_of_cupy=1 / 0.98)),
    # Issue 18: at least 90% of the link bandwidth cuMemcpyPeer reaches.
    PeerCopyCase("peer copy 4 GB device 0 -> 1 (asarray under Device(1))", share=0.9),
]
