"""Concurrency: threads with their own streams, processes compiling the same new kernel into one
fresh disk cache at once, and a corrupted cache entry being detected and recompiled."""
import multiprocessing
import os
import queue as queue_module
import threading
import time

import numpy as np
import pytest

import cuarray as cp

import workers
from helpers import random_array

pytestmark = pytest.mark.gpu

N_THREADS = 8
N_PROCESSES = 8
TIMEOUT_S = 300


def _same_stream(a, b):
    return a is b or (getattr(a, "ptr", None) is not None and a.ptr == getattr(b, "ptr", None))


def _thread_chain(index, barrier, errors):
    try:
        rng = np.random.default_rng(1000 + index)
        stream = cp.cuda.Stream(non_blocking=True)
        barrier.wait(timeout=60)
        with stream:
            assert _same_stream(cp.cuda.get_current_stream(), stream), "current stream is per thread"
            for step in range(20):
                host = random_array((257, 129), np.float32, rng, low=-10, high=10)
                g = cp.asarray(host)
                g = (g * np.float32(index + 1) + np.float32(step)) * g
                g = cp.maximum(g, np.float32(0.5))
                got = cp.asnumpy(cp.sum(g, axis=1))
                ref = np.sum(np.maximum((host * np.float32(index + 1) + np.float32(step)) * host,
                                        np.float32(0.5)), axis=1)
                np.testing.assert_allclose(got, ref, rtol=1e-5)
        stream.synchronize()
    except BaseException as exc:  # collected and re-raised by the test
        errors.append((index, exc))


def test_threads_with_own_streams():
    main_stream = cp.cuda.get_current_stream()
    barrier = threading.Barrier(N_THREADS)
    errors = []
    threads = [threading.Thread(target=_thread_chain, args=(i, barrier, errors))
               for i in range(N_THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=TIMEOUT_S)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    if errors:
        index, exc = errors[0]
        raise AssertionError(f"{len(errors)} threads failed; thread {index}: {exc!r}") from exc
    assert _same_stream(cp.cuda.get_current_stream(), main_stream), "threads changed main's stream"


def _cache_files(root):
    """Relative paths of all files under root."""
    found = set()
    for dirpath, _, files in os.walk(root):
        for name in files:
            found.add(os.path.relpath(os.path.join(dirpath, name), root))
    return found


def run_rare_kernel_in_processes(seeds, cache_dir, monkeypatch):
    """Run workers.run_rare_kernel in one spawned process per seed with CUARRAY_CACHE_DIR=cache_dir,
    all starting together at a barrier; return {seed: result}.  A worker that dies (a crash in the
    library) fails the test at once instead of leaving the parent waiting."""
    monkeypatch.setenv("CUARRAY_CACHE_DIR", str(cache_dir))
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(len(seeds)) if len(seeds) > 1 else None
    results_queue = ctx.Queue()
    procs = [ctx.Process(target=workers.run_rare_kernel, args=(seed, barrier, results_queue))
             for seed in seeds]
    for p in procs:
        p.start()
    results, deadline = {}, time.monotonic() + TIMEOUT_S
    try:
        while len(results) < len(seeds):
            try:
                seed, result, error = results_queue.get(timeout=1.0)
            except queue_module.Empty:
                dead = [p.exitcode for p in procs if p.exitcode not in (None, 0)]
                assert not dead, f"a worker process died with exit code {dead[0]} (a crash?)"
                assert time.monotonic() < deadline, f"workers hung; answers from {sorted(results)}"
                continue
            assert error is None, f"worker {seed} failed: {error}"
            results[seed] = result
    finally:
        for p in procs:
            p.join(timeout=30)
            if p.is_alive():
                p.kill()
    return results


def _run_once_in_fresh_process(cache_dir, monkeypatch, seed=0):
    return run_rare_kernel_in_processes([seed], cache_dir, monkeypatch)[seed]


def test_processes_compile_same_kernel_into_one_cache(tmp_path, monkeypatch):
    shared = tmp_path / "shared-cache"
    shared.mkdir()
    seeds = list(range(N_PROCESSES))
    results = run_rare_kernel_in_processes(seeds, shared, monkeypatch)
    for seed in seeds:
        np.testing.assert_allclose(results[seed], workers.rare_kernel_reference(seed), rtol=2e-6)
        assert results[seed].dtype == np.float32
    files = _cache_files(shared)
    assert files, f"no cache files were written to CUARRAY_CACHE_DIR={shared}"
    # No temporary leftovers: the concurrent runs leave exactly the files a single run leaves
    # (cache file names are hashes of the kernel, so they do not depend on the process).
    single = tmp_path / "single-cache"
    single.mkdir()
    np.testing.assert_allclose(_run_once_in_fresh_process(single, monkeypatch),
                               workers.rare_kernel_reference(0), rtol=2e-6)
    assert files == _cache_files(single), (
        f"8 concurrent processes left {sorted(files)}, a single process {sorted(_cache_files(single))}")


def _flip_middle_byte(data):
    mid = len(data) // 2
    return data[:mid] + bytes([data[mid] ^ 0xFF]) + data[mid + 1:]


def _truncate_to_half(data):
    return data[: len(data) // 2]


@pytest.mark.parametrize("corrupt", [_flip_middle_byte, _truncate_to_half], ids=lambda f: f.__name__)
def test_corrupted_cache_file_is_recompiled(tmp_path, monkeypatch, corrupt):
    cache = tmp_path / "cache"
    cache.mkdir()
    reference = workers.rare_kernel_reference(0)
    np.testing.assert_allclose(_run_once_in_fresh_process(cache, monkeypatch), reference, rtol=2e-6)
    corrupted = {}
    for rel in _cache_files(cache):
        path = cache / rel
        data = path.read_bytes()
        if data:
            corrupted[rel] = corrupt(data)
            path.write_bytes(corrupted[rel])
    assert corrupted, "the first run wrote no non-empty cache file"
    np.testing.assert_allclose(_run_once_in_fresh_process(cache, monkeypatch), reference, rtol=2e-6)
    repaired = [rel for rel, bad in corrupted.items()
                if not (cache / rel).exists() or (cache / rel).read_bytes() != bad]
    assert repaired, "no corrupted cache file was replaced or removed: was it trusted?"
