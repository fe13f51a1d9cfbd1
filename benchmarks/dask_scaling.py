"""Dask arrays of cuarray chunks on one and on two GPUs (one worker process per GPU:
cuarray._dask.local_gpu_cluster, dask-cuda's LocalCUDACluster where installed): throughput scaling.

Each run's input fills its GPUs alike (issue 18: "inputs that fill both"): `sum` reads 32 GiB of
float32 per GPU; `x @ x.T` grows x's rows by 7/5 from one GPU to two, so the product's work grows
by 49/25 and every GPU holds about the same share of the output. Throughput is work / time (GB/s,
TFLOP/s); the two-GPU target is 1.8x the one-GPU throughput, i.e. a time of at most the one-GPU
time x (two-GPU work / one-GPU work) / 1.8.

The input is made on the workers (the "cuarray" array backend's random generator) and persisted
before timing; for x @ x.T every worker also holds a replica of x, because a cuarray chunk moving
between workers travels through host memory (pickle over TCP), which would time the network
instead of the GPUs. Each time is the wall time of compute() (graph submission, scheduling, the
GPU work and the gather of the result) or of persist() followed by a synchronize of every worker's
GPU (a task is done once its kernels are queued), median of repeats after a warm-up.

Dask's own latency bounds `sum`: a one-task graph takes about 10 ms (the `dask round trip` row), and
every level of the reduction tree a few ms of scheduler messages, while each chunk task returns in
0.05-0.3 ms (Dask's task stream, H200: cuarray queues the kernels and goes on). The GPUs' reading
(8.6 ms for 32 GiB at 3.9 TB/s) runs underneath that latency, so two GPUs shorten the GPU part and
add a transfer between workers; `x @ x.T`, whose GPU time is far longer, shows the GPUs' scaling.
"""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field

from .harness import Session
from .results import Result, Target

SCALING = 1.8
SUM_CHUNKS = (1 << 15, 1 << 15)      # float32: 4 GiB chunks
SUM_CHUNKS_PER_GPU = 8               # 32 GiB a GPU
GRAM_CHUNKS = (1 << 13, 1 << 10)     # float32 row blocks of x
GRAM_BLOCKS = {1: 5, 2: 7}           # row blocks of x by GPU count: work grows by (7/5)**2

# Each one-GPU (time, work), by operation, for the two-GPU case's target (cases run in order).
_ONE_GPU: dict[str, tuple[float, float]] = {}


def _cluster(n_gpus: int):
    import cuarray
    from cuarray._dask import local_gpu_cluster
    from distributed import Client
    if cuarray.cuda.runtime.getDeviceCount() < n_gpus:
        raise RuntimeError(f"needs {n_gpus} GPUs")
    cluster = local_gpu_cluster(n_gpus)
    return cluster, Client(cluster)


def _input(client, shape, chunks, replicate):
    import dask
    import dask.array as da
    from distributed import wait
    with dask.config.set({"array.backend": "cuarray"}):
        x = da.random.default_rng(0).random(shape, dtype="float32", chunks=chunks)
    x = client.persist(x)
    wait(x)
    if replicate:
        client.replicate(x)
    return x


def _sum_shape(n_gpus):
    return (SUM_CHUNKS[0] * SUM_CHUNKS_PER_GPU * n_gpus, SUM_CHUNKS[1])


def _gram_shape(n_gpus):
    return (GRAM_CHUNKS[0] * GRAM_BLOCKS[n_gpus], GRAM_CHUNKS[1])


def _sum(client, n_gpus):
    x = _input(client, _sum_shape(n_gpus), SUM_CHUNKS, replicate=False)
    return lambda: x.sum().compute()


def _synchronize_device():
    import cuarray
    cuarray.cuda.Device().synchronize()


def _gram(client, n_gpus):
    from distributed import wait
    x = _input(client, _gram_shape(n_gpus), GRAM_CHUNKS, replicate=True)

    def gram():
        product = client.persist(x @ x.T)  # stays on the GPUs; gathering it would time PCIe
        wait(product)  # the tasks have run: their kernels are queued, not necessarily done
        client.run(_synchronize_device)
        del product
    return gram


def _round_trip(client, n_gpus):
    import dask
    return lambda: dask.delayed(int)(0).compute()


# operation -> (the timed call's maker, bytes read by GPUs count, flops by GPU count)
OPERATIONS = {
    "sum": (_sum, lambda n: 4 * _sum_shape(n)[0] * _sum_shape(n)[1], lambda n: None),
    "x @ x.T": (_gram, lambda n: None, lambda n: 2.0 * _gram_shape(n)[0] ** 2 * _gram_shape(n)[1]),
    "round trip": (_round_trip, lambda n: None, lambda n: None),
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
    _, bytes_of, flops_of = OPERATIONS[operation]
    return bytes_of(n_gpus) or flops_of(n_gpus) or 1.0


@dataclass
class DaskScalingCase:
    operation: str
    n_gpus: int
    name: str = field(init=False)
    target: Target | None = None      # set once the one-GPU time is known
    in_device_memory = False

    def __post_init__(self):
        self.name = f"dask {self.operation} {self.n_gpus} GPU{'s' if self.n_gpus > 1 else ''}"

    @property
    def bytes_moved(self):
        return OPERATIONS[self.operation][1](self.n_gpus)

    @property
    def flops(self):
        return OPERATIONS[self.operation][2](self.n_gpus)

    def run(self, session: Session) -> list[Result]:
        if "cuarray" not in session.libraries:
            return []
        samples = 3 if session.quick else 7
        try:
            cluster, client = _cluster(self.n_gpus)
        except Exception as exc:  # no dask-cuda, or too few GPUs: reported, never fatal
            return [Result(self.name, "cuarray", error=f"{type(exc).__name__}: {exc}")]
        try:
            call = OPERATIONS[self.operation][0](client, self.n_gpus)
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
            return [Result(self.name, "cuarray", error=f"{type(exc).__name__}: {exc}")]
        finally:
            client.close()
            cluster.close()
        work = _work(self.operation, self.n_gpus)
        if self.n_gpus == 1:
            _ONE_GPU[self.operation] = (ms, work)
        elif self.operation in _ONE_GPU and self.operation != "round trip":
            one_ms, one_work = _ONE_GPU[self.operation]
            self.target = Target(max_ms=one_ms * (work / one_work) / SCALING)
        return [Result(self.name, "cuarray", ms=ms)]


CASES = [DaskScalingCase(operation, n_gpus) for n_gpus in (1, 2) for operation in OPERATIONS]
