"""User kernels (issue 15): the seed's ElementwiseKernel on 1e8 float32, a Black-Scholes
ElementwiseKernel (5 inputs, 2 outputs) on 1e7 options, a ReductionKernel L2 norm of 1e8 float32
and ``fuse`` of x * y + z then sum on 1e8 float32, cuarray vs CuPy, as shares of the copy
bandwidth (each library's kernel or fused object is made once, so these are warm launches); then the compile latency of a never-seen ElementwiseKernel,
with an empty and with a warm disk cache, each in a fresh process after the library's first op."""
from __future__ import annotations

from .cold_start import ColdStartCase
from .op_case import Input, OpCase
from .results import Target

N = 100_000_000
OPTIONS = 10_000_000
_KERNELS: dict = {}


def _kernel(xp, name, *args, kind="ElementwiseKernel"):
    """The library's `kind` of kernel, made once per library (so the timed calls are warm)."""
    key = (xp.__name__, name)
    if key not in _KERNELS:
        _KERNELS[key] = getattr(xp, kind)(*args, name=name)
    return _KERNELS[key]


def seed_kernel(xp, x, y):
    return _kernel(xp, "my_kernel", "float32 x, float32 y", "float32 z",
                   "if (x - 2 > y) { z = x * y; } else { z = x + y; }")(x, y)


# normcdf(x) as 0.5 * erfc(-x / sqrt(2)): erfc has a float overload in both libraries' kernels.
BLACK_SCHOLES = """
const T sqrt_t = sqrt(t);
const T d1 = (log(s / k) + (r + v * v / 2) * t) / (v * sqrt_t);
const T d2 = d1 - v * sqrt_t;
const T discount = exp(-r * t);
const T h = T(0.5), c = T(0.7071067811865476);
call = s * (h * erfc(-d1 * c)) - k * discount * (h * erfc(-d2 * c));
put = k * discount * (h * erfc(d2 * c)) - s * (h * erfc(d1 * c));
"""


def black_scholes(xp, s, k, t, r, v):
    return _kernel(xp, "black_scholes", "T s, T k, T t, T r, T v", "T call, T put", BLACK_SCHOLES)(s, k, t, r, v)


def fused_axpb_sum(xp, x, y, z):
    """``fuse`` of x * y + z then sum: each library's fused object is made once (warm)."""
    key = (xp.__name__, "fused_axpb_sum")
    if key not in _KERNELS:
        _KERNELS[key] = xp.fuse(kernel_name="axpb_sum")(lambda a, b, c: xp.sum(a * b + c))
    return _KERNELS[key](x, y, z)


def l2norm(xp, x):
    return _kernel(xp, "l2norm", "T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", kind="ReductionKernel")(x)


# The first op creates the context and loads the compiler; the kernel's text is new to the
# process (and, with a fresh cache directory, to the disk cache).
FIRST_USER_KERNEL = """
    import time
    import numpy as np
    import {module} as xp
    x = xp.asarray(np.random.default_rng(0).random(1000, dtype=np.float32))
    y = x + x
    xp.cuda.Stream.null.synchronize()
    start = time.perf_counter()
    k = xp.ElementwiseKernel('float32 x, float32 y', 'float32 z',
                             'if (x - 2 > y) {{ z = x * y; }} else {{ z = x + y; }}', 'my_kernel')
    z = k(x, y)
    xp.cuda.Stream.null.synchronize()
    print(time.perf_counter() - start)
"""

CASES = [
    OpCase("ElementwiseKernel seed 1e8 f32", seed_kernel,
           inputs=(Input((N,), "float32", 1), Input((N,), "float32", 2)), bytes_moved=3 * 4 * N,
           target=Target(min_copy_share=0.95, max_share_of_cupy=1 / 1.15), libraries=("cuarray", "cupy")),
    OpCase("ElementwiseKernel Black-Scholes 1e7 f32", black_scholes,
           inputs=tuple(Input((OPTIONS,), "float32", 10 + j) for j in range(5)), bytes_moved=7 * 4 * OPTIONS,
           target=Target(max_share_of_cupy=1 / 1.1), libraries=("cuarray", "cupy")),
    OpCase("ReductionKernel L2 norm 1e8 f32", l2norm, inputs=(Input((N,), "float32", 3),), bytes_moved=4 * N,
           target=Target(min_copy_share=0.95), libraries=("cuarray", "cupy")),
    OpCase("fuse x * y + z then sum 1e8 f32", fused_axpb_sum,
           inputs=tuple(Input((N,), "float32", 20 + j) for j in range(3)), bytes_moved=3 * 4 * N,
           target=Target(max_share_of_cupy=1 / 1.5), libraries=("cuarray", "cupy")),
    ColdStartCase("ElementwiseKernel never compiled", FIRST_USER_KERNEL, Target(max_ms=60), warmup=0,
                  fresh_cache_per_run=True),
    ColdStartCase("ElementwiseKernel warm disk cache", FIRST_USER_KERNEL, Target(max_ms=3)),
]
