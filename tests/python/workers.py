"""Functions run in child processes (multiprocessing spawn) by the concurrency and cache tests.

They live in their own module so a spawned child imports only this file (and cuarray), not a test
module.  The data is derived from a seed so the parent can compute the NumPy reference.
"""
import numpy as np

# An unusual dtype combination, so the kernel is unlikely to be compiled by anything else:
# hypot(int16, uint8) resolves to the float32 loop ('ff->f') with both inputs cast.
RARE_KERNEL_DTYPES = (np.int16, np.uint8)


def rare_kernel_inputs(seed, n=4099):
    rng = np.random.default_rng(seed)
    a = rng.integers(-30000, 30000, size=n, dtype=np.int16)
    b = rng.integers(0, 255, size=n, dtype=np.uint8, endpoint=True)
    return a, b


def rare_kernel_reference(seed):
    return np.hypot(*rare_kernel_inputs(seed))


def run_rare_kernel(seed, barrier, queue):
    """In a fresh process: import cuarray, wait at ``barrier`` (if any) so that all workers compile
    the kernel at once, compute the rare kernel and put (seed, result, error) on ``queue``."""
    try:
        import cuarray as cp

        a, b = rare_kernel_inputs(seed)
        ga, gb = cp.asarray(a), cp.asarray(b)
        cp.cuda.runtime.deviceSynchronize()
        if barrier is not None:
            barrier.wait(timeout=120)
        result = cp.asnumpy(cp.hypot(ga, gb))
        queue.put((seed, result, None))
    except BaseException as exc:  # report any failure to the parent instead of dying silently
        queue.put((seed, None, f"{type(exc).__name__}: {exc}"))
