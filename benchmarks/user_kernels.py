"""User kernels (issue 15): the seed's ElementwiseKernel on 1e8 float32 and a Black-Scholes
ElementwiseKernel (5 inputs, 2 outputs) on 1e7 options, cuarray vs CuPy, as shares of the copy
bandwidth. Each library's kernel object is made once, so the timings are warm launches."""
from __future__ import annotations

from .op_case import Input, OpCase
from .results import Target

N = 100_000_000
OPTIONS = 10_000_000
_KERNELS: dict = {}


def _kernel(xp, name, *args, **kwargs):
    key = (xp.__name__, name)
    if key not in _KERNELS:
        _KERNELS[key] = xp.ElementwiseKernel(*args, name=name, **kwargs)
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


CASES = [
    OpCase("ElementwiseKernel seed 1e8 f32", seed_kernel,
           inputs=(Input((N,), "float32", 1), Input((N,), "float32", 2)), bytes_moved=3 * 4 * N,
           target=Target(min_copy_share=0.95, max_share_of_cupy=1 / 1.15), libraries=("cuarray", "cupy")),
    OpCase("ElementwiseKernel Black-Scholes 1e7 f32", black_scholes,
           inputs=tuple(Input((OPTIONS,), "float32", 10 + j) for j in range(5)), bytes_moved=7 * 4 * OPTIONS,
           target=Target(max_share_of_cupy=1 / 1.1), libraries=("cuarray", "cupy")),
]
