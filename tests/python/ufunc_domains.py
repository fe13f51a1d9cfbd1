"""Input domains and comparison rules of each ufunc, shared by the ufunc and operator tests.

``inputs(name, dtypes, shape, rng)`` builds NumPy inputs inside the ufunc's valid domain (arcsin in
[-1, 1], log of positives, shifts smaller than the bit width + 2, ...), so values are compared where
they are meaningful; invalid domains are tested separately (test_ufunc_special.py).
"""
import math

import numpy as np

from helpers import compare_for, random_array


class D:
    """Domain of one input: float range (also the real/imag range for complex), integer range,
    an optional float16 range, plus random_array flags."""

    def __init__(self, lo=None, hi=None, *, ints=None, f16=None, **flags):
        self.floats = (lo, hi)
        self.ints = ints if ints is not None else (lo, hi)
        self.f16 = f16
        self.flags = flags

    def kwargs(self, dtype):
        dtype = np.dtype(dtype)
        if dtype.kind in "iu":
            lo, hi = self.ints
            if callable(lo):
                lo, hi = lo(dtype), hi(dtype)
        elif dtype == np.float16 and self.f16 is not None:
            lo, hi = self.f16
        else:
            lo, hi = self.floats
        return dict(low=lo, high=hi, **self.flags)


ANY = D()


def _sqrt_max(dtype):
    return math.isqrt(int(np.iinfo(dtype).max))


def _shift_max(dtype):
    return 8 * np.dtype(dtype).itemsize + 2


DIVISOR = D(nonzero=True)
POSITIVE = D(0.01, 1000.0, ints=(1, 1000))
SMALL = D(-10.0, 10.0)
TIES = D(-3.0, 3.0, ints=(-3, 3), ties=True)  # equal values occur in both operands
WITH_ZEROS = D(zeros=True)
EXP = D(-20.0, 20.0, f16=(-8.0, 8.0))
GCD = D(ints=(lambda d: -_sqrt_max(d), _sqrt_max))
SHIFT = D(ints=(lambda d: 0, _shift_max))
BASE = D(0.1, 4.0, ints=(-4, 4))
EXPONENT = D(-3.0, 3.0, ints=(0, 6))
SPECIAL = D(special=True)

_DOMAINS = {
    "divide": (ANY, DIVISOR), "true_divide": (ANY, DIVISOR),
    "floor_divide": (ANY, DIVISOR), "remainder": (ANY, DIVISOR), "mod": (ANY, DIVISOR),
    "fmod": (ANY, DIVISOR), "divmod": (ANY, DIVISOR),
    "power": (BASE, EXPONENT), "float_power": (BASE, EXPONENT),
    "reciprocal": (D(ints=(-5, 5), nonzero=True),),
    "sqrt": (POSITIVE,), "log": (POSITIVE,), "log2": (POSITIVE,), "log10": (POSITIVE,),
    "log1p": (D(-0.99, 100.0, ints=(0, 100)),),
    "exp": (EXP,), "expm1": (EXP,), "exp2": (D(-30.0, 30.0, f16=(-12.0, 12.0)),),
    "logaddexp": (D(-50.0, 50.0, f16=(-10.0, 10.0)),) * 2,
    "logaddexp2": (D(-50.0, 50.0, f16=(-10.0, 10.0)),) * 2,
    "sin": (SMALL,), "cos": (SMALL,), "tan": (SMALL,), "tanh": (SMALL,),
    "sinh": (D(-10.0, 10.0, f16=(-8.0, 8.0)),), "cosh": (D(-10.0, 10.0, f16=(-8.0, 8.0)),),
    "arcsin": (D(-1.0, 1.0),), "arccos": (D(-1.0, 1.0),),
    "arctanh": (D(-0.99, 0.99, ints=(-1, 1)),),
    "arctan": (D(-50.0, 50.0),), "arcsinh": (D(-100.0, 100.0),),
    "arccosh": (D(1.0, 100.0),),
    "ldexp": (ANY, D(ints=(-10, 10))),
    "heaviside": (WITH_ZEROS, ANY),
    "gcd": (GCD, GCD), "lcm": (GCD, GCD),
    "left_shift": (ANY, SHIFT), "right_shift": (ANY, SHIFT),
    "floor": (TIES,), "ceil": (TIES,), "trunc": (TIES,), "rint": (TIES,),
    "isnan": (SPECIAL,), "isinf": (SPECIAL,), "isfinite": (SPECIAL,), "signbit": (SPECIAL,),
    "spacing": (SPECIAL,),
    "logical_and": (WITH_ZEROS,) * 2, "logical_or": (WITH_ZEROS,) * 2,
    "logical_xor": (WITH_ZEROS,) * 2, "logical_not": (WITH_ZEROS,),
}
for _name in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
              "maximum", "minimum", "fmax", "fmin"):
    _DOMAINS[_name] = (TIES, TIES)

# Results that must be bit-exact when real: a single correctly rounded operation, or no rounding.
# Everything else (transcendentals, complex arithmetic that may use FMA) is compared within ulps.
EXACT = set("""
add subtract multiply divide true_divide negative positive absolute abs fabs reciprocal square
sqrt fmod floor ceil trunc rint copysign nextafter spacing signbit ldexp frexp modf isnan isinf
isfinite maximum minimum fmax fmin heaviside equal not_equal less less_equal greater greater_equal
logical_and logical_or logical_xor logical_not bitwise_and bitwise_or bitwise_xor invert
bitwise_not left_shift right_shift gcd lcm conjugate conj bitwise_count sign
""".split())


def domain(name, position):
    """The D of input ``position`` of ufunc ``name``."""
    doms = _DOMAINS.get(name, ())
    return doms[position] if position < len(doms) else ANY


def inputs(name, dtypes, shape, rng):
    """NumPy inputs for ufunc ``name`` with the given dtypes, inside its domain."""
    return [random_array(shape, dt, rng, **domain(name, i).kwargs(dt)) for i, dt in enumerate(dtypes)]


def compare_ufunc(name, dtypes):
    """Exact comparison for EXACT ufuncs on real inputs, else within tolerance (complex inputs
    always within tolerance: |z|, z*w and friends involve several roundings)."""
    real = all(np.dtype(dt).kind != "c" for dt in dtypes)
    return compare_for(name, exact=name in EXACT and real)


def primary_dtypes(name):
    """Input dtypes for tests that need one representative signature per ufunc: the first of
    float64, int64, bool that NumPy accepts for all inputs (ldexp: float64 mantissa, int64 exponent)."""
    uf = getattr(np, name)
    if name == "ldexp":
        return (np.dtype(np.float64), np.dtype(np.int64))
    for dt in (np.dtype(np.float64), np.dtype(np.int64), np.dtype(np.bool_)):
        try:
            uf.resolve_dtypes((dt,) * uf.nin + (None,) * uf.nout)
        except TypeError:
            continue
        return (dt,) * uf.nin
    raise AssertionError(f"no representative dtypes for {name}")
