"""Start-up costs, each measured in a fresh Python process that prints its own elapsed time.

Every script times only its part (not the interpreter's start), so the import of NumPy
counts only in the import case, where it is part of what `import cuarray` costs a user.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import dataclass

from .harness import GPU_LIBRARIES, LIBRARIES, Session, measure_each
from .results import Result, Target

# Where each library keeps compiled kernels on disk; NumPy compiles nothing.
CACHE_DIR_VARIABLE = {"cuarray": "CUARRAY_CACHE_DIR", "cupy": "CUPY_CACHE_DIR"}
SUBPROCESS_TIMEOUT_S = 120
# A normal install has compiled bytecode; some environments (PYTHONDONTWRITEBYTECODE, read-only
# site-packages) have none and would recompile NumPy on every import, a quarter of a second.
# A persistent bytecode cache, filled by the warm-up runs, puts every library on that footing.
PYCACHE_DIR = os.path.join(tempfile.gettempdir(), "cuarray-bench-pycache")

IMPORT = """
    import time
    start = time.perf_counter()
    import {module}
    print(time.perf_counter() - start)
"""

# Context creation, the first allocation, the host->device copy and loading the kernel
# from the disk cache all happen inside the timed region.
FIRST_OP = """
    import time
    import numpy as np
    import {module} as xp
    host = np.arange(1000, dtype=np.float64)
    start = time.perf_counter()
    x = xp.asarray(host)
    y = x + x
    xp.cuda.Stream.null.synchronize()
    print(time.perf_counter() - start)
"""

# The first op creates the context and loads the compiler; arctan2 on float32 is then a
# kernel this process has never built and the empty cache directory cannot supply.
NEW_KERNEL = """
    import time
    import numpy as np
    import {module} as xp
    x = xp.asarray(np.random.default_rng(0).random(1000, dtype=np.float32))
    y = x + x
    xp.cuda.Stream.null.synchronize()
    start = time.perf_counter()
    z = xp.arctan2(x, y)
    xp.cuda.Stream.null.synchronize()
    print(time.perf_counter() - start)
"""


def _run_script(script: str, module: str, cache_dir: str) -> float:
    """Run the script in a fresh interpreter; return the seconds it printed last."""
    env = dict(os.environ, PYTHONPYCACHEPREFIX=PYCACHE_DIR)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if module in CACHE_DIR_VARIABLE:
        env[CACHE_DIR_VARIABLE[module]] = cache_dir
    code = textwrap.dedent(script).format(module=module)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=SUBPROCESS_TIMEOUT_S)
    if done.returncode != 0:
        raise ChildProcessError(done.stderr.strip().splitlines()[-1] if done.stderr.strip()
                           else f"exit status {done.returncode}")
    return float(done.stdout.split()[-1])


@dataclass(frozen=True)
class ColdStartCase:
    """Median of `samples` fresh processes, after `warmup` unmeasured ones.

    With fresh_cache_per_run every process gets its own empty kernel cache; otherwise all
    runs of one library share one directory, which the warm-up fills.
    """

    name: str
    script: str
    target: Target
    samples: int = 3
    warmup: int = 1
    fresh_cache_per_run: bool = False
    libraries: tuple[str, ...] = GPU_LIBRARIES
    bytes_moved = None  # start-up costs are times only
    in_device_memory = False

    def run(self, session: Session) -> list[Result]:
        samples = 1 if session.quick else self.samples

        def measure(library):
            with tempfile.TemporaryDirectory(prefix=f"bench-{library.name}-") as root:
                def one_run(i):
                    cache_dir = os.path.join(root, str(i) if self.fresh_cache_per_run else "shared")
                    return _run_script(self.script, library.name, cache_dir)
                for i in range(self.warmup):
                    one_run(i)
                times = [one_run(self.warmup + i) for i in range(samples)]
            return statistics.median(times) * 1e3
        return measure_each(session, self.name, self.libraries, measure)


CASES = [
    # The warm-up run fills the OS file cache, as for any user's second start.
    ColdStartCase("cold import", IMPORT, Target(max_ms=150), samples=5, libraries=LIBRARIES),
    ColdStartCase("cold first op (warm disk cache)", FIRST_OP, Target(max_ms=300)),
    ColdStartCase("cold never-seen kernel", NEW_KERNEL, Target(max_ms=60),
                  warmup=0, fresh_cache_per_run=True),
]
