"""Every ufunc on random data in its domain, for every dtype (and a set of mixed pairs), against
NumPy: exact result dtype, exact integer/bool values, floats within ulps.  Where NumPy has no loop for
the dtypes it raises, and cuarray must raise alike."""
import numpy as np
import pytest

import cuarray as cp

from helpers import ALL_DTYPES, MIXED_PAIRS, UFUNC_NAMES, check_like_numpy
from ufunc_domains import compare_ufunc, inputs, primary_dtypes

pytestmark = pytest.mark.gpu

SHAPE = (5, 41)

# ldexp's second operand is an integer exponent: pair every float (and int) with integer exponents.
_EXTRA_PAIRS = {
    "ldexp": [(np.dtype(a), np.dtype(b)) for a in ("float16", "float32", "float64", "int8")
              for b in ("int8", "int16", "int32", "int64", "uint8", "uint32", "uint64")],
}


def _cases():
    for name in UFUNC_NAMES:
        nin = getattr(np, name).nin
        if nin == 1:
            combos = [(dt,) for dt in ALL_DTYPES]
        else:
            combos = [(dt, dt) for dt in ALL_DTYPES] + MIXED_PAIRS + _EXTRA_PAIRS.get(name, [])
        for dtypes in combos:
            yield pytest.param(name, dtypes, id=f"{name}-{'-'.join(d.name for d in dtypes)}")


@pytest.mark.parametrize("name, dtypes", list(_cases()))
def test_ufunc_values(name, dtypes, rng):
    host = inputs(name, dtypes, SHAPE, rng)
    dev = [cp.asarray(h) for h in host]
    check_like_numpy(lambda: getattr(np, name)(*host), lambda: getattr(cp, name)(*dev),
                     compare=compare_ufunc(name, dtypes))


@pytest.mark.parametrize("name", [n for n in UFUNC_NAMES if getattr(np, n).nin == 2])
def test_binary_ufunc_with_python_scalars(name, rng):
    """NEP 50: Python scalars are weak (float32 array op 2.0 stays float32)."""
    for dt in (np.dtype(np.int16), np.dtype(np.uint8), np.dtype(np.float32), np.dtype(np.complex64)):
        x = inputs(name, (dt, dt), SHAPE, rng)
        gx = [cp.asarray(v) for v in x]
        for scalar in (True, 3, 2.5, 1.5 - 0.5j):
            np_uf, cp_uf = getattr(np, name), getattr(cp, name)
            check_like_numpy(lambda: np_uf(x[0], scalar), lambda: cp_uf(gx[0], scalar),
                             compare=compare_ufunc(name, (dt, type(scalar))))
            check_like_numpy(lambda: np_uf(scalar, x[1]), lambda: cp_uf(scalar, gx[1]),
                             compare=compare_ufunc(name, (type(scalar), dt)))


@pytest.mark.parametrize("name", UFUNC_NAMES)
def test_ufunc_on_numpy_scalars_and_0d(name, rng):
    """0-d operands (and NumPy scalars mixed with arrays) give 0-d cuarray results."""
    dtypes = primary_dtypes(name)
    compare = compare_ufunc(name, dtypes)
    host = inputs(name, dtypes, (), rng)
    dev = [cp.asarray(h) for h in host]
    check_like_numpy(lambda: getattr(np, name)(*host), lambda: getattr(cp, name)(*dev),
                     compare=compare)
    if len(dtypes) == 2:
        arr = inputs(name, dtypes, (7,), rng)[1]
        scalar = host[0][()]  # a NumPy scalar (strong, unlike a Python float)
        check_like_numpy(lambda: getattr(np, name)(scalar, arr),
                         lambda: getattr(cp, name)(scalar, cp.asarray(arr)), compare=compare)
