"""Timing helpers shared by every benchmark: the libraries under test, timers and input data.

All times are in milliseconds. GPU libraries are imported lazily and a library that cannot be
imported, or cannot reach a GPU, is simply left out of the session.
"""
from __future__ import annotations

import contextlib
import importlib
import statistics
import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .results import Result

LIBRARIES = ("cuarray", "cupy", "numpy")
GPU_LIBRARIES = ("cuarray", "cupy")


@dataclass(frozen=True)
class Library:
    """One array module under test, with the few operations the harness needs from it."""

    name: str
    xp: object

    @property
    def on_gpu(self) -> bool:
        return self.name in GPU_LIBRARIES

    def synchronize(self) -> None:
        if self.on_gpu:
            self.xp.cuda.Stream.null.synchronize()

    def to_device(self, host: np.ndarray):
        # NumPy gets its own copy so that an op writing into an input cannot alter the shared data.
        return self.xp.asarray(host) if self.on_gpu else host.copy()

    def free_memory(self) -> None:
        # Each library's pool gives its memory back so the next library has the whole GPU.
        if self.on_gpu:
            self.synchronize()
            self.xp.get_default_memory_pool().free_all_blocks()


def load_libraries(names=LIBRARIES) -> tuple[dict[str, Library], dict[str, str]]:
    """Import each library; return the usable ones and, for the others, why they are missing."""
    usable, missing = {}, {}
    for name in names:
        try:
            library = Library(name, importlib.import_module(name))
            library.to_device(np.ones(4))  # a GPU library must also reach a device
            library.synchronize()
        except Exception as exc:  # any failure just means "not available here"
            missing[name] = f"{type(exc).__name__}: {exc}"
        else:
            usable[name] = library
    return usable, missing


@dataclass(frozen=True)
class Repeats:
    warmup: int
    samples: int


@dataclass(frozen=True)
class Session:
    """What every benchmark run needs: the libraries and how hard to measure."""

    libraries: dict[str, Library]
    quick: bool = False

    def repeats(self, library: Library) -> Repeats:
        # NumPy on 1e8 elements takes a second per call, so it gets fewer samples.
        if library.on_gpu:
            return Repeats(warmup=1, samples=5) if self.quick else Repeats(warmup=3, samples=20)
        return Repeats(warmup=1, samples=2) if self.quick else Repeats(warmup=1, samples=5)


def time_wall(library: Library, call, repeats: Repeats) -> float:
    """Median wall time of one call, the device drained before and after."""
    for _ in range(repeats.warmup):
        call()
    samples = []
    for _ in range(repeats.samples):
        library.synchronize()
        start = time.perf_counter()
        call()
        library.synchronize()
        samples.append((time.perf_counter() - start) * 1e3)
    return statistics.median(samples)


def time_device(library: Library, call, repeats: Repeats) -> float:
    """Median time of one call between two device events (wall time for NumPy).

    Events time the stream, not the host, so Python's own jitter does not count; host work
    still counts whenever it leaves the GPU idle between the two events.
    """
    if not library.on_gpu:
        return time_wall(library, call, repeats)
    cuda = library.xp.cuda
    for _ in range(repeats.warmup):
        call()
    library.synchronize()
    samples = []
    for _ in range(repeats.samples):
        start, stop = cuda.Event(), cuda.Event()
        start.record()
        call()
        stop.record()
        stop.synchronize()
        samples.append(cuda.get_elapsed_time(start, stop))
    return statistics.median(samples)


def time_per_call(calls: int):
    """A timer for per-call overhead: wall time of `calls` back-to-back calls, divided by `calls`.

    Small ops are asynchronous, so only a long loop shows what the host side costs per call.
    """
    def timer(library: Library, call, repeats: Repeats) -> float:
        for _ in range(max(1, calls // 10)):
            call()
        samples = []
        for _ in range(repeats.samples):
            library.synchronize()
            start = time.perf_counter()
            for _ in range(calls):
                call()
            library.synchronize()
            samples.append((time.perf_counter() - start) * 1e3 / calls)
        return statistics.median(samples)
    return timer


@lru_cache(maxsize=None)
def _random_flat(size: int, dtype: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(size) < 0.5
    if dtype.kind in "iu":  # Generator.random makes floats only
        return rng.integers(0, np.iinfo(dtype).max, size, dtype=dtype, endpoint=True)
    if dtype.kind == "c":  # real and imaginary parts each uniform in [0, 1)
        parts = rng.random((2, size), dtype=np.float64 if dtype.itemsize == 16 else np.float32)
        return (parts[0] + 1j * parts[1]).astype(dtype)
    if dtype.itemsize == 2:  # Generator.random makes float32 and float64 only
        return rng.random(size, dtype=np.float32).astype(dtype)
    return rng.random(size, dtype=dtype)


def random_host(shape: tuple[int, ...], dtype: str = "float64", seed: int = 0) -> np.ndarray:
    """Uniform [0, 1) host data (integers: uniform over the type's non-negative range), generated once per (size, dtype, seed) and shared by all cases.

    Random rather than constant data so that no library can profit from compressible memory
    or value-dependent shortcuts. Callers must not write into it.
    """
    return _random_flat(int(np.prod(shape)), dtype, seed).reshape(shape)


def release(library: Library) -> None:
    # A failed release must not hide the measurement already taken; a broken device shows up
    # as an error in the next case anyway.
    with contextlib.suppress(Exception):
        library.free_memory()


def measure_each(session: Session, benchmark: str, libraries, measure) -> list[Result]:
    """Run `measure(library) -> ms` for each available library; an exception becomes that
    library's error, so one failure never stops the others."""
    results = []
    for name in libraries:
        library = session.libraries.get(name)
        if library is None:
            continue
        try:
            results.append(Result(benchmark, name, ms=measure(library)))
        except Exception as exc:
            results.append(Result(benchmark, name, error=f"{type(exc).__name__}: {exc}"))
        finally:
            release(library)
    return results
