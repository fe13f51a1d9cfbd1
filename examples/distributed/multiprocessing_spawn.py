"""One worker process per GPU with multiprocessing's "spawn" start method.

    python examples/distributed/multiprocessing_spawn.py              # every visible GPU
    python examples/distributed/multiprocessing_spawn.py --tasks 16 --n 4096

Why spawn: a process forked after CUDA was initialized cannot use the GPU (the driver's state does
not survive fork), and the parent here asks for the device count. Spawned workers start a fresh
interpreter, import cuarray there, and each task picks its GPU with `with cuarray.cuda.Device(i)`:
arrays made inside the block live on device i, and every operation on them runs there.

Each task computes trace(x @ x.T) of a random float32 matrix on its GPU (cuBLAS); the parent checks
every answer against NumPy's sum(x**2) of the same matrix.
"""
import argparse
import multiprocessing as mp

import numpy as np


def matrix(seed, n):
    return np.random.default_rng(seed).standard_normal((n, n), dtype=np.float32)


def gpu_task(task):
    device, seed, n = task
    import cuarray as cp  # imported in the worker; the parent's import does not carry over spawn

    with cp.cuda.Device(device):
        x = cp.asarray(matrix(seed, n))
        gram = x @ x.T
        assert gram.device.id == device
        return device, seed, float(cp.trace(gram))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=None, help="tasks in all (default: 2 per GPU)")
    parser.add_argument("--n", type=int, default=2048, help="matrix size")
    args = parser.parse_args()

    import cuarray as cp
    n_gpus = cp.cuda.runtime.getDeviceCount()
    n_tasks = args.tasks or 2 * n_gpus
    tasks = [(i % n_gpus, 1000 + i, args.n) for i in range(n_tasks)]  # round-robin over the GPUs

    with mp.get_context("spawn").Pool(processes=n_gpus) as pool:
        results = pool.map(gpu_task, tasks)

    worst = 0.0
    for device, seed, trace in results:
        x = matrix(seed, args.n).astype(np.float64)
        expected = float(np.sum(x * x))
        worst = max(worst, abs(trace - expected) / expected)
    print(f"{n_tasks} tasks on {n_gpus} GPU(s) in {n_gpus} spawned workers: "
          f"largest relative error {worst:.2e} ({'correct' if worst < 1e-3 else 'WRONG'})")
    return 0 if worst < 1e-3 else 1


if __name__ == "__main__":
    raise SystemExit(main())
