"""cupy.fft.config: the plan cache of each device (get_plan_cache) and CuPy's switches.

Plans are kept per device, at most 16 by default (``set_size``; -1 unlimited, 0 off) and without a
byte limit (``set_memsize``, counting the work area each kept plan needs while it runs). Unlike
CuPy's, an idle cached plan holds no work area: it is taken from cuarray's memory pool at each
execution and returned afterwards (docs/fft.md).
"""
from .. import _core

#: CuPy's switch for one multi-axis cuFFT plan; cuarray makes one whenever cuFFT's layout allows.
enable_nd_planning = True
#: CuPy's multi-GPU switch: cuarray's transforms run on the current device only.
use_multi_gpus = False

PlanCache = _core.fft.PlanCache


def get_plan_cache():
    """The current device's plan cache (CuPy's ``cupy.fft.config.get_plan_cache``)."""
    return PlanCache(_core.get_current_device())


def show_plan_cache_info():
    """Prints the current device's plan cache (CuPy prints those of every device the thread used)."""
    print("=============== cuFFT plan cache info (all devices) ===============")
    get_plan_cache().show_info()
