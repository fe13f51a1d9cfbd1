"""Dask arrays of cuarray chunks on one and on two GPUs (one worker process per GPU:
cuarray._dask.local_gpu_cluster, dask-cuda's LocalCUDACluster where installed): the same computation
on the same input, so the two-GPU case's target is the one-GPU time over 1.8 (issue 18: two GPUs
reach at least 1.8x the one-GPU throughput).

The input is made on the workers (the "cuarray" array backend's random generator) and persisted
before timing; for x @ x.T every worker also holds a replica of x, because a cuarray chunk moving
between workers travels through host memory (pickle over TCP), which would time the network
instead of the GPUs. Each time is the wall time of compute() (graph submission, scheduling, the
GPU work and the gather of the result), median of repeats after a warm-up.
"""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field

from .harness import Session
from .results import Result, Target

SCALING = 1.8
SUM_SHAPE = (1 << 17, 1 << 15)     # float32, 16 GiB: 8 GiB a GPU on two
SUM_CHUNKS = (1 << 14, 1 << 15)    # 2 GiB chunks, 8 of them
GRAM_SHAPE = (1 << 16, 1 << 10)    # float32 x; x @ x.T is 16 GiB, 2 * 2**42 flops
GRAM_CHUNKS = (1 << 13, 1 << 10)

# Each one-GPU time, by operation, for the two-GPU case's target (cases run in order).
_ONE_GPU_MS: dict[str, float] = {}


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


def _sum(client):
    x = _input(client, SUM_SHAPE, SUM_CHUNKS, replicate=False)
    return lambda: x.sum().compute()


def _gram(client):
    from distributed import wait
    x = _input(client, GRAM_SHAPE, GRAM_CHUNKS, replicate=True)

    def gram():
        product = client.persist(x @ x.T)  # 16 GiB stays on the GPUs; gathering it would time PCIe
        wait(product)
        del product
    return gram


OPERATIONS = {"sum": (_sum, 4 * SUM_SHAPE[0] * SUM_SHAPE[1], None),
              "x @ x.T": (_gram, None, 2.0 * GRAM_SHAPE[0] ** 2 * GRAM_SHAPE[1])}


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
        return OPERATIONS[self.operation][1]

    @property
    def flops(self):
        return OPERATIONS[self.operation][2]

    def run(self, session: Session) -> list[Result]:
        if "cuarray" not in session.libraries:
            return []
        samples = 3 if session.quick else 7
        try:
            cluster, client = _cluster(self.n_gpus)
        except Exception as exc:  # no dask-cuda, or too few GPUs: reported, never fatal
            return [Result(self.name, "cuarray", error=f"{type(exc).__name__}: {exc}")]
        try:
            call = OPERATIONS[self.operation][0](client)
            call()
            times = []
            for _ in range(samples):
                start = time.perf_counter()
                call()
                times.append((time.perf_counter() - start) * 1e3)
            ms = statistics.median(times)
        except Exception as exc:
            return [Result(self.name, "cuarray", error=f"{type(exc).__name__}: {exc}")]
        finally:
            client.close()
            cluster.close()
        if self.n_gpus == 1:
            _ONE_GPU_MS[self.operation] = ms
        elif self.operation in _ONE_GPU_MS:
            self.target = Target(max_ms=_ONE_GPU_MS[self.operation] / SCALING)
        return [Result(self.name, "cuarray", ms=ms)]


CASES = [DaskScalingCase(operation, n_gpus) for n_gpus in (1, 2) for operation in OPERATIONS]
