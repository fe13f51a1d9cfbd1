"""Dask arrays of cuarray chunks and of CuPy chunks, side by side, on one and on two GPUs (one
worker process per GPU: cuarray._dask.local_gpu_cluster, dask-cuda's LocalCUDACluster where
installed): throughput scaling.

Each run's input fills its GPUs alike (issue 18: "inputs that fill both"): `sum` reads a 1-D
float32 array of 8 GiB chunks filling half of each GPU's memory (8 chunks a GPU on an H200);
`x @ x.T` grows x's rows by 7/5 from one GPU to two (5 and 7 row blocks of 16384), so the
product's work grows by 49/25 and every GPU holds about the same share of the 25 or 49 output
blocks of 1 GiB (25 and 24 on two H200s). Throughput is work / time (GB/s, TFLOP/s); the two-GPU
target is 1.8x the one-GPU throughput, i.e. a time of at most the one-GPU time x (two-GPU work /
one-GPU work) / 1.8. Each library is judged against its own one-GPU time; CuPy's rows show what
Dask gives any GPU library.

The input is made on the workers (the library's array backend's random generator) and persisted
before timing; for x @ x.T every worker also holds a replica of x, because a chunk moving between
workers travels through host memory (pickle over TCP), which would time the network instead of
the GPUs. Each time is the wall time of compute() (graph submission, scheduling, the GPU work and
the gather of the result) or of persist() followed by a synchronize of every worker's GPU (a task
is done once its kernels are queued), median of repeats after a warm-up. Between libraries the
workers return their pools' cached memory, so that the next library's input fits.

Measured with 4 GiB chunks, Dask's own latency bounded `sum`: a one-task graph takes 10-14 ms (the `dask round trip` row), every
level of the reduction tree a few ms of scheduler messages, and a worker starts one chunk task about
every 1.1 ms while each returns in 0.1-0.3 ms (Dask's task stream, two H200s, with either library's
chunks: the library queues the kernels and goes on). A 4 GiB chunk is 1.1 ms of reading at 4 TB/s,
so the GPUs never lead; two GPUs add a transfer of partial sums between the workers and, past a
power of the tree's fan-in, a level. Repeated runs of three input layouts on two H200s gave
1.43-1.92x for CuPy's chunks and 1.38-1.87x for cuarray's. `x @ x.T`, whose GPU time per task is far
longer, shows the GPUs' scaling.

Nor does Dask's throughput keep two GPUs fed with these chunks: the `8 sums in flight` row submits
eight independent sums at once (the same graph under new keys), so no GPU waits on one call's
latency. On two H200s that took 253 ms on one GPU and 334 ms on two (1.51x; CuPy's chunks 1.41x):
about 300 tasks in 334 ms, one task a millisecond for the whole cluster from its one scheduler,
while a chunk task carries 1.1 ms of GPU work. Hence the 8 GiB chunks (SUM_CHUNK).
"""
from __future__ import annotations

import collections
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Callable

from .harness import Session
from .results import Result, Target

SCALING = 1.8
# float32 elements: 8 GiB chunks, 2.2 ms of reading on an H200. With 4 GiB chunks (1.1 ms) two GPUs
# reached 1.38-1.87x: the scheduler hands out about one task a millisecond to the whole cluster (the
# `8 sums in flight` row), so two GPUs' chunk tasks came no faster than one GPU's work needed them.
SUM_CHUNK = 1 << 31
# Share of each GPU's memory the sum's input fills: half, because the scheduler places the persisted
# chunks unevenly (26 and 22 of 48 in one run) and dask-cuda spills a worker's chunks to host memory
# past 80% of its GPU's; at 70%, one two-GPU run took 20 s a sum, most likely spilling.
SUM_FILL = 0.5
# float32 row blocks of x. Each output block is 11 ms of cuBLAS on an H200, well above the ~3 ms a
# Dask worker spends on each task it runs: with 8192-row blocks (2.8 ms of GPU each; cuarray's own
# call takes 0.13 ms of host time) the workers' task loop, not the GPUs, set the pace, and two
# GPUs reached only 1.75-1.8x.
GRAM_CHUNKS = (1 << 14, 1 << 10)
GRAM_BLOCKS = {1: 5, 2: 7}           # row blocks of x by GPU count: work grows by (7/5)**2
SUMS_IN_FLIGHT = 8                   # independent sums submitted at once: throughput, not latency
LIBRARIES = ("cuarray", "cupy")      # each is also the name of its Dask array backend

# cuarray's one-GPU (time, work) by operation, for the two-GPU case's target (cases run in order).
_ONE_GPU: dict[str, tuple[float, float]] = {}


def _cluster(n_gpus: int):
    import cuarray
    from cuarray._dask import local_gpu_cluster
    from distributed import Client
    if cuarray.cuda.runtime.getDeviceCount() < n_gpus:
        raise RuntimeError(f"needs {n_gpus} GPUs")
    cluster = local_gpu_cluster(n_gpus)
    return cluster, Client(cluster)


def _input(client, library, shape, chunks, replicate):
    import dask
    import dask.array as da
    from distributed import wait
    with dask.config.set({"array.backend": library}):
        x = da.random.default_rng(0).random(shape, dtype="float32", chunks=chunks)
    x = client.persist(x)
    wait(x)
    if replicate:
        client.replicate(x)
    else:  # where the chunks landed, which decides each GPU's share of the work
        held = collections.Counter(w for holders in client.who_has(x).values() for w in holders)
        print(f"(chunks a worker: {sorted(held.values())})", end=" ", file=sys.stderr, flush=True)
    return x


def _sum_chunks_per_gpu():
    import cuarray
    smallest = min(cuarray.cuda.Device(d).mem_info[1] for d in range(cuarray.cuda.runtime.getDeviceCount()))
    return int(SUM_FILL * smallest) // (4 * SUM_CHUNK)


def _sum_shape(n_gpus):
    return (SUM_CHUNK * _sum_chunks_per_gpu() * n_gpus,)


def _gram_shape(n_gpus):
    return (GRAM_CHUNKS[0] * GRAM_BLOCKS[n_gpus], GRAM_CHUNKS[1])


def _sum(client, library, n_gpus):
    x = _input(client, library, _sum_shape(n_gpus), (SUM_CHUNK,), replicate=False)
    return lambda: x.sum().compute()


def _sums_in_flight(client, library, n_gpus):
    from dask.graph_manipulation import clone
    x = _input(client, library, _sum_shape(n_gpus), (SUM_CHUNK,), replicate=False)

    def sums():
        # Copies of the sum's graph under new keys (the same keys would be computed once) over the
        # one persisted input, submitted together as a user's independent reductions would be.
        client.gather(client.compute([clone(x.sum(), omit=x, seed=i) for i in range(SUMS_IN_FLIGHT)]))
    return sums


def _synchronize_device(library):
    import importlib
    importlib.import_module(library).cuda.Device().synchronize()


def _release_memory(library):
    """On a worker, after a library's runs: its pool's cached blocks back to the driver."""
    import importlib
    xp = importlib.import_module(library)
    xp.cuda.Device().synchronize()
    xp.get_default_memory_pool().free_all_blocks()


def _gram(client, library, n_gpus):
    from distributed import wait
    x = _input(client, library, _gram_shape(n_gpus), GRAM_CHUNKS, replicate=True)

    def gram():
        product = client.persist(x @ x.T)  # stays on the GPUs; gathering it would time PCIe
        wait(product)  # the tasks have run: their kernels are queued, not necessarily done
        client.run(_synchronize_device, library)
        del product
    return gram


def _round_trip(client, library, n_gpus):
    import dask
    return lambda: dask.delayed(int)(0).compute()


@dataclass(frozen=True)
class Operation:
    make: Callable            # (client, library, n_gpus) -> the timed call
    bytes_of: Callable = lambda n_gpus: None   # bytes the GPUs read, by GPU count
    flops_of: Callable = lambda n_gpus: None
    judged: bool = False      # whether the two-GPU row carries the scaling target


OPERATIONS = {
    "sum": Operation(_sum, judged=True, bytes_of=lambda n: 4 * _sum_shape(n)[0]),
    # Whether Dask's latency alone bounds the sum (module docstring): reported, not judged.
    f"{SUMS_IN_FLIGHT} sums in flight": Operation(_sums_in_flight,
                                                  bytes_of=lambda n: SUMS_IN_FLIGHT * 4 * _sum_shape(n)[0]),
    "x @ x.T": Operation(_gram, judged=True, flops_of=lambda n: 2.0 * _gram_shape(n)[0] ** 2 * _gram_shape(n)[1]),
    "round trip": Operation(_round_trip),
}


def _scheduler_task_count(client):
    return client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))


def _settle(client, resident, timeout_s=10.0):
    """Waits (untimed) until the scheduler has forgotten the last call's tasks. Every call builds the
    same keys; one made while the scheduler still holds them finds the results already there and
    times nothing (x @ x.T on one H200 once 'ran' at 294 TFLOP/s that way)."""
    deadline = time.perf_counter() + timeout_s
    while _scheduler_task_count(client) > resident and time.perf_counter() < deadline:
        time.sleep(0.005)


def _work(operation, n_gpus):
    op = OPERATIONS[operation]
    return op.bytes_of(n_gpus) or op.flops_of(n_gpus) or 1.0


@dataclass
class DaskScalingCase:
    operation: str
    n_gpus: int
    name: str = field(init=False)
    target: Target | None = None      # set once the one-GPU time is known
    measured: bool = field(default=False, init=False)  # the work's size needs the GPUs the case ran on
    in_device_memory = False

    def __post_init__(self):
        self.name = f"dask {self.operation} {self.n_gpus} GPU{'s' if self.n_gpus > 1 else ''}"

    @property
    def bytes_moved(self):
        return OPERATIONS[self.operation].bytes_of(self.n_gpus) if self.measured else None

    @property
    def flops(self):
        return OPERATIONS[self.operation].flops_of(self.n_gpus) if self.measured else None

    def run(self, session: Session) -> list[Result]:
        libraries = [name for name in LIBRARIES if name in session.libraries]
        if "cuarray" not in libraries:
            return []
        if self.operation == "round trip":  # no chunks: Dask's latency alone
            libraries = ["cuarray"]
        try:
            cluster, client = _cluster(self.n_gpus)
        except Exception as exc:  # no dask-cuda, or too few GPUs: reported, never fatal
            return [Result(self.name, "cuarray", error=f"{type(exc).__name__}: {exc}")]
        try:
            results = [self._measure(client, library, samples=3 if session.quick else 7) for library in libraries]
        finally:
            client.close()
            cluster.close()
        self.measured = True
        if self.n_gpus > 1 and OPERATIONS[self.operation].judged and self.operation in _ONE_GPU:
            one_ms, one_work = _ONE_GPU[self.operation]
            self.target = Target(max_ms=one_ms * (_work(self.operation, self.n_gpus) / one_work) / SCALING)
        return results

    def _measure(self, client, library, samples) -> Result:
        try:
            call = OPERATIONS[self.operation].make(client, library, self.n_gpus)
            resident = _scheduler_task_count(client)  # the persisted input
            call()
            times = []
            for _ in range(samples):
                _settle(client, resident)
                start = time.perf_counter()
                call()
                times.append((time.perf_counter() - start) * 1e3)
            ms = statistics.median(times)
        except Exception as exc:
            return Result(self.name, library, error=f"{type(exc).__name__}: {exc}")
        finally:
            call = None  # the input goes with the call's closure
            _settle(client, 0)
            client.run(_release_memory, library)
        if self.n_gpus == 1 and library == "cuarray":
            _ONE_GPU[self.operation] = (ms, _work(self.operation, self.n_gpus))
        return Result(self.name, library, ms=ms)


CASES = [DaskScalingCase(operation, n_gpus) for n_gpus in (1, 2) for operation in OPERATIONS]
