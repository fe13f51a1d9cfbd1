"""The driver's capture range (CuPy's cupy.cuda.profiler): Nsight Systems run with
``--capture-range=cudaProfilerApi`` records what lies between start() and stop()."""
import contextlib

from .. import _core


def start():
    """Starts capturing on the current device's context; work launched before is submitted first."""
    _core.profiler_start()


def stop():
    """Stops capturing; work launched before is submitted first, so it falls inside."""
    _core.profiler_stop()


@contextlib.contextmanager
def profile():
    """start() for the block and stop() after it (CuPy's cupy.cuda.profile)."""
    start()
    try:
        yield
    finally:
        stop()
