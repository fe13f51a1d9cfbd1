"""Shared helpers of the cuarray pytest suite.

NumPy is the oracle: every check builds the same data on the host and on the GPU, runs the NumPy
expression and the cuarray expression, and compares dtype, shape and values.  Test modules import
from here (``from helpers import ...``); conftest.py re-exports the ``rng`` fixture.
"""
import functools
import math
import os
import subprocess
import sys
import threading
import warnings
import zlib

import numpy as np
import pytest

import cuarray as cp

# --------------------------------------------------------------------------------------------------
# dtypes

BOOL = [np.dtype(np.bool_)]
INT = [np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64)]
UINT = [np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64)]
FLOAT = [np.dtype(t) for t in (np.float16, np.float32, np.float64)]
COMPLEX = [np.dtype(t) for t in (np.complex64, np.complex128)]
INTEGER = INT + UINT
INEXACT = FLOAT + COMPLEX
NUMERIC = INT + UINT + FLOAT + COMPLEX
ALL_DTYPES = BOOL + NUMERIC

# Python scalar types: "weak" operands under NEP 50.
PY_SCALAR_TYPES = [bool, int, float, complex]

# A few mixed dtype pairs that exercise promotion (kinds, signedness, widths) without the cost of
# running every ufunc on all 196 pairs; test_operators.py and test_dtype_resolution.py cover all pairs.
MIXED_PAIRS = [
    (np.dtype(a), np.dtype(b))
    for a, b in [
        ("bool", "int8"), ("int8", "uint8"), ("uint32", "int32"), ("int64", "uint64"),
        ("int32", "float32"), ("uint8", "float16"), ("float16", "float32"),
        ("float32", "complex64"), ("float64", "complex64"), ("int16", "complex64"),
    ]
]

# Every ufunc cuarray must provide, with NumPy's names (aliases included).
UFUNC_NAMES = """
add subtract multiply divide true_divide floor_divide power float_power remainder mod fmod divmod
negative positive absolute abs fabs sign reciprocal square sqrt cbrt exp exp2 expm1 log log2 log10
log1p logaddexp logaddexp2 sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh
arctan2 hypot deg2rad rad2deg degrees radians floor ceil trunc rint copysign nextafter spacing
signbit ldexp frexp modf isnan isinf isfinite maximum minimum fmax fmin heaviside equal not_equal
less less_equal greater greater_equal logical_and logical_or logical_xor logical_not bitwise_and
bitwise_or bitwise_xor invert bitwise_not left_shift right_shift gcd lcm conjugate conj
bitwise_count
""".split()


# --------------------------------------------------------------------------------------------------
# GPU availability

@functools.lru_cache(maxsize=None)
def gpu_unavailable_reason():
    """None when a usable GPU is present, else the reason to skip.

    Only CUDARuntimeError means "no GPU"; any other exception (a missing module, a bug) propagates so
    the problem is reported instead of silently skipping the GPU tests.
    """
    runtime = cp.cuda.runtime
    try:
        count = runtime.getDeviceCount()
    except runtime.CUDARuntimeError as exc:
        return f"no usable GPU: cuarray.cuda.runtime.getDeviceCount() raised CUDARuntimeError: {exc}"
    if count < 1:
        return "no usable GPU: cuarray.cuda.runtime.getDeviceCount() returned 0"
    return None


# --------------------------------------------------------------------------------------------------
# subprocesses (fresh interpreters: import time, first GPU use, disk cache)

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))


def subprocess_env(**extra):
    """os.environ plus a PYTHONPATH that finds this cuarray and the test helpers, plus ``extra``."""
    env = dict(os.environ)
    package_dir = os.path.dirname(os.path.abspath(cp.__file__)) if cp.__file__ else list(cp.__path__)[0]
    paths = [os.path.dirname(package_dir), TESTS_DIR]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env.update(extra)
    return env


def run_python(code, timeout=300, **env):
    """Run ``code`` in a fresh interpreter; return its stdout; fail the test if it exits non-zero."""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=subprocess_env(**env), timeout=timeout)
    assert proc.returncode == 0, (f"subprocess exited with {proc.returncode}\n--- stdout\n"
                                  f"{proc.stdout}\n--- stderr\n{proc.stderr}")
    return proc.stdout


# --------------------------------------------------------------------------------------------------
# random data

@pytest.fixture
def rng(request):
    """A NumPy Generator seeded from the test id: reproducible, different for every test."""
    return np.random.default_rng(zlib.crc32(request.node.nodeid.encode()))


SPECIAL_FLOATS = (np.nan, np.inf, -np.inf, -0.0, 0.0)


def _as_shape(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def _random_floats(shape, rng, low, high):
    if low is None and high is None:
        # Both signs, magnitudes over several decades (about 1e-2 .. 1e3).
        mag = 10.0 ** rng.uniform(-2, 2, size=shape)
        return rng.standard_normal(size=shape) * mag
    low = -100.0 if low is None else low
    high = 100.0 if high is None else high
    return rng.uniform(low, high, size=shape)


def normal_array(rng, shape, dtype, ints):
    """Standard normal floats (real and imaginary parts for complex), integers drawn from
    range(*ints), random booleans: the data of the user-kernel tests, whose tolerances assume it."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        return rng.integers(*ints, size=shape).astype(dtype)
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def random_array(shape, dtype, rng, *, low=None, high=None, special=False, zeros=False,
                 nonzero=False, ties=False):
    """Random C-contiguous NumPy array of ``dtype``; never all zeros or all ones.

    low/high: value range (inclusive for integers; real and imaginary parts for complex).  Default:
      integers span the whole dtype range (so wrapping shows); floats have both signs over several
      decades.
    special: about a quarter of the elements become nan, inf, -inf, -0.0 or 0.0 (floats and complex).
    zeros: about a fifth of the elements become 0.
    nonzero: zeros are replaced by 1 (divisors).
    ties: about half of the floats are rounded to multiples of 0.5, so equal values and exact
      halves occur.
    """
    shape = _as_shape(shape)
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        out = rng.integers(0, 2, size=shape).astype(np.bool_)
        if out.size >= 2:
            out.flat[0], out.flat[1] = True, False
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo = info.min if low is None else max(math.ceil(low), int(info.min))
        hi = info.max if high is None else min(math.floor(high), int(info.max))
        out = rng.integers(lo, hi, size=shape, endpoint=True, dtype=dtype)
        if out.size >= 2 and lo < hi and np.all(out == out.flat[0]):
            out.flat[0] = lo if out.flat[0] != lo else hi
    elif dtype.kind == "f":
        out = _random_floats(shape, rng, low, high)
    elif dtype.kind == "c":
        out = _random_floats(shape, rng, low, high) + 1j * _random_floats(shape, rng, low, high)
    else:
        raise ValueError(f"unsupported dtype {dtype}")
    if dtype.kind in "fc":
        if ties:
            out = np.where(rng.random(shape) < 0.5, np.round(out * 2) / 2, out)
        with np.errstate(over="ignore", invalid="ignore"):
            out = out.astype(dtype)
    out = np.asarray(out, order="C")
    if zeros and out.size:
        out = np.where(rng.random(shape) < 0.2, np.zeros((), dtype), out)
    if special and dtype.kind in "fc" and out.size:
        mask = rng.random(shape) < 0.25
        picks = rng.choice(np.array(SPECIAL_FLOATS), size=shape)
        if dtype.kind == "f":
            out = np.where(mask, picks.astype(dtype), out)
        else:
            part = rng.random(shape) < 0.5
            real = np.where(mask & part, picks, out.real)
            imag = np.where(mask & ~part, picks, out.imag)
            out = np.empty(shape, dtype)
            out.real, out.imag = real, imag
    if nonzero:
        out = np.where(out == 0, np.ones((), dtype), out)
    return np.array(out, dtype=dtype, order="C")


# --------------------------------------------------------------------------------------------------
# layouts: the same view applied to a NumPy array and to its GPU copy

LAYOUTS = ("c", "f", "transposed", "stepped", "negative", "broadcast", "0d", "empty")
# Layouts that keep the requested shape (so two operands of different layouts can be combined).
SHAPED_LAYOUTS = ("c", "f", "transposed", "stepped", "negative", "broadcast")


def _layout_plan(layout, shape):
    """(base shape, final shape, view) where view(array, xp) gives the layout from a C base."""
    nd = len(shape)
    if layout == "c":
        return shape, shape, lambda a, xp: a
    if layout == "f":  # Fortran-contiguous: transpose of a C array of the reversed shape
        return shape[::-1], shape, lambda a, xp: a.T
    if layout == "transposed":  # axes rotated: neither C- nor F-contiguous for nd >= 3
        perm = tuple(range(1, nd)) + (0,) if nd >= 2 else tuple(range(nd))
        base = [0] * nd
        for i, p in enumerate(perm):
            base[p] = shape[i]
        return tuple(base), shape, lambda a, xp: a.transpose(perm)
    if layout == "stepped":  # offset 1, step 2 on every axis
        base = tuple(2 * s + 1 for s in shape)
        return base, shape, lambda a, xp: a[(slice(1, None, 2),) * nd]
    if layout == "negative":  # every axis reversed
        return shape, shape, lambda a, xp: a[(slice(None, None, -1),) * nd]
    if layout == "broadcast":  # stride 0 on every even axis
        base = tuple(1 if i % 2 == 0 else s for i, s in enumerate(shape))
        return base, shape, lambda a, xp: xp.broadcast_to(a, shape)
    if layout == "0d":
        return (), (), lambda a, xp: a
    if layout == "empty":
        empty = shape[:-1] + (0,) if nd else (0,)
        return empty, empty, lambda a, xp: a
    raise ValueError(f"unknown layout {layout!r}")


def layout_pair(layout, shape, dtype=None, rng=None, *, make=None, **random_kwargs):
    """(numpy_view, cuarray_view) holding identical values in the given layout.

    The base is built once on the host (``make(base_shape)`` or ``random_array``), copied to the GPU
    with ``cp.asarray``, and the same view is applied on both sides.  '0d' and 'empty' change the
    shape (to () and to a shape containing 0).
    """
    base_shape, _, view = _layout_plan(layout, _as_shape(shape))
    if make is None:
        base = random_array(base_shape, dtype, rng, **random_kwargs)
    else:
        base = make(base_shape)
    return view(base, np), view(cp.asarray(base), cp)


def all_layouts(shape, dtype, rng, **random_kwargs):
    """Yield (layout name, numpy_view, cuarray_view) for every layout in LAYOUTS."""
    for layout in LAYOUTS:
        np_view, cp_view = layout_pair(layout, shape, dtype, rng, **random_kwargs)
        yield layout, np_view, cp_view


# --------------------------------------------------------------------------------------------------
# comparisons

# Relative tolerance and ulps for inexact results, by the real dtype of the result.
_RTOL = {np.dtype(np.float16): 1e-3, np.dtype(np.float32): 2e-6, np.dtype(np.float64): 4e-15}
_ULP = {np.dtype(np.float16): 1, np.dtype(np.float32): 2, np.dtype(np.float64): 2}
# Complex transcendentals are compared by |got - ref| <= rtol * |ref|.
_RTOL_COMPLEX = {np.dtype(np.complex64): 1e-5, np.dtype(np.complex128): 1e-13}


def _reference(ref):
    if isinstance(ref, np.generic):
        return np.asarray(ref)
    if isinstance(ref, np.ndarray):
        return ref
    raise TypeError(f"reference must be a NumPy array or scalar, got {type(ref)}")


def _host_copy(gpu, ref):
    assert type(gpu) is cp.ndarray, f"expected cuarray.ndarray, got {type(gpu).__module__}.{type(gpu).__name__}"
    assert gpu.dtype == ref.dtype, f"dtype: cuarray {gpu.dtype} != numpy {ref.dtype}"
    assert gpu.shape == ref.shape, f"shape: cuarray {gpu.shape} != numpy {ref.shape}"
    host = cp.asnumpy(gpu)
    assert isinstance(host, np.ndarray), f"cp.asnumpy returned {type(host)}"
    assert host.dtype == ref.dtype and host.shape == ref.shape
    return host


def _mismatch_report(host, ref, bad, limit=8):
    where = np.argwhere(bad) if ref.ndim else [()]
    lines = [f"{int(bad.sum())} of {bad.size} elements differ; first ones (index: cuarray vs numpy):"]
    for idx in list(where)[:limit]:
        idx = tuple(int(i) for i in idx)
        lines.append(f"  {idx}: {host[idx]!r} vs {ref[idx]!r}")
    return "\n".join(lines)


def assert_array_equal_np(gpu, ref, *, signed_zeros=False):
    """gpu is a cuarray.ndarray with exactly ref's dtype and shape and equal values (NaNs in the same
    places).  signed_zeros also requires -0.0 and 0.0 to match."""
    ref = _reference(ref)
    host = _host_copy(gpu, ref)
    np.testing.assert_array_equal(host, ref, strict=True)
    if signed_zeros and ref.dtype.kind in "fc":
        for h, r in ((host.real, ref.real), (host.imag, ref.imag)):
            bad = np.signbit(h) != np.signbit(r)
            bad &= ~(np.isnan(h) | np.isnan(r))
            assert not bad.any(), "sign of zero differs\n" + _mismatch_report(host, ref, bad)


def assert_allclose_np(gpu, ref, *, rtol=None, atol=0.0, ulp=None):
    """Like assert_array_equal_np, but inexact values may differ by max(atol + rtol*|ref|, ulp ulps).

    Defaults by dtype: float16 rtol 1e-3 / 1 ulp, float32 2e-6 / 2 ulp, float64 4e-15 / 2 ulp;
    complex64 1e-5 and complex128 1e-13 of |ref|.  NaN positions, infinities and their signs must
    match exactly; integer and bool results must be equal.  atol may be an array (broadcast to ref).
    """
    ref = _reference(ref)
    host = _host_copy(gpu, ref)
    kind = ref.dtype.kind
    if kind not in "fc":
        np.testing.assert_array_equal(host, ref, strict=True)
        return
    part_dtype = np.dtype(ref.real.dtype)
    if rtol is None:
        rtol = _RTOL_COMPLEX[ref.dtype] if kind == "c" else _RTOL[part_dtype]
    if ulp is None:
        ulp = _ULP[part_dtype]
    bad = np.zeros(ref.shape, dtype=bool)
    finite = np.ones(ref.shape, dtype=bool)
    for h, r in ((host.real, ref.real), (host.imag, ref.imag)) if kind == "c" else ((host, ref),):
        bad |= np.isnan(h) != np.isnan(r)
        bad |= (np.isinf(h) | np.isinf(r)) & (h != r)
        finite &= np.isfinite(h) & np.isfinite(r)
    with np.errstate(all="ignore"):
        wide = np.complex128 if kind == "c" else np.float64
        diff = np.abs(host.astype(wide) - ref.astype(wide))
        mag = np.abs(ref.astype(wide))
        tol = atol + rtol * mag
        if kind == "f":
            tol = np.maximum(tol, ulp * np.spacing(np.abs(ref)).astype(np.float64))
    bad |= finite & ~(diff <= tol)
    if bad.any():
        raise AssertionError(f"values differ beyond rtol={rtol}, ulp={ulp}, atol={atol}\n"
                             + _mismatch_report(host, ref, bad))


def assert_same_results(gpu, ref, compare=assert_array_equal_np):
    """Compare a result that may be a tuple (ufuncs with two outputs) element by element."""
    if isinstance(ref, tuple):
        assert isinstance(gpu, tuple), f"expected a tuple of {len(ref)} arrays, got {type(gpu)}"
        assert len(gpu) == len(ref)
        for g, r in zip(gpu, ref):
            compare(g, r)
    else:
        compare(gpu, ref)


# --------------------------------------------------------------------------------------------------
# exceptions: NumPy is the oracle for which inputs are errors

def builtin_bases(exc_type):
    """The builtin exception classes an exception of exc_type is an instance of (besides Exception):
    numpy's UFuncTypeError -> [TypeError], AxisError -> [ValueError, IndexError]."""
    skip = (BaseException, Exception, object)
    return [k for k in exc_type.__mro__ if k.__module__ == "builtins" and k not in skip]


def assert_raises_like(expected, cp_call):
    """cp_call() raises an exception that is an instance of every builtin base of ``expected`` (a
    NumPy exception instance or class)."""
    exc_type = expected if isinstance(expected, type) else type(expected)
    with pytest.raises(Exception) as info:
        cp_call()
    for base in builtin_bases(exc_type):
        assert isinstance(info.value, base), (
            f"NumPy raises {exc_type.__name__} ({base.__name__}); cuarray raised "
            f"{type(info.value).__name__}: {info.value}")
    return info.value


def numpy_outcome(np_call):
    """(result, None) or (None, exception) of np_call with NumPy warnings silenced."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return np_call(), None
        except Exception as exc:  # noqa: BLE001 - any NumPy error is the expected outcome
            return None, exc


def expect_error(np_call, cp_call, match=None):
    """NumPy raises; cuarray raises alike (same builtin bases), with NumPy's message when `match`."""
    _, exc = numpy_outcome(np_call)
    assert exc is not None, "NumPy accepted the input"
    got = assert_raises_like(exc, cp_call)
    if match:
        assert match in str(exc), f"test expectation is stale: NumPy says {exc}"
        assert match in str(got), f"cuarray: {got!r}; NumPy: {exc!r}"


def check_like_numpy(np_call, cp_call, compare=assert_array_equal_np):
    """Run both; if NumPy raises, cuarray must raise alike; otherwise compare the results."""
    ref, exc = numpy_outcome(np_call)
    if exc is not None:
        assert_raises_like(exc, cp_call)
        return None
    got = cp_call()
    assert_same_results(got, ref, compare)
    return got


def compare_for(name, *, exact=False):
    """A comparison function: exact for integer/bool results or when exact=True and the result is
    real, else assert_allclose_np."""
    def compare(gpu, ref):
        ref = _reference(ref)
        if exact and ref.dtype.kind != "c":
            assert_array_equal_np(gpu, ref)
        else:
            assert_allclose_np(gpu, ref)
    compare.__name__ = f"compare_{name}"
    return compare


def byte_offset(view, base):
    """Byte distance between the first elements of two NumPy arrays."""
    return view.__array_interface__["data"][0] - base.__array_interface__["data"][0]


def run_in_threads(work, count, timeout=120):
    """Runs work(0), ..., work(count - 1), each on its own thread, and joins them; re-raises the first
    exception a thread raised (in a thread, a failed assertion would only be printed)."""
    errors = []

    def guarded(i):
        try:
            work(i)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    if errors:
        raise errors[0]
