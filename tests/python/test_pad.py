"""numpy.pad against NumPy (python/cuarray/_manipulation/pad.py, src/ops/padding/pad.cpp, docs/manipulation_copy.md):
every mode and dtype, ranks 0-3, zero widths and widths wider than the axis (repeated
reflection and wrapping), every pad_width / constant_values / end_values / stat_length form,
reflect_type='odd', callable modes, non-contiguous and Fortran-ordered inputs (the result keeps
NumPy's order), size-0 inputs and NumPy's errors."""
import warnings

import numpy as np
import pytest

import cuarray as cp

from helpers import (ALL_DTYPES, assert_allclose_np, assert_array_equal_np, assert_raises_like, numpy_outcome,
                     random_array)

pytestmark = pytest.mark.gpu

INDEX_MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
COMPOSED_MODES = ["linear_ramp", "maximum", "mean", "median", "minimum"]


def data(shape, dtype, rng):
    """Random values; floats with NaN/inf/-0.0 except where arithmetic on them would make the
    comparison meaningless (the ramp and statistic modes get finite values)."""
    return random_array(shape, dtype, rng, low=-50, high=50)


def check_pad(a, d, pad_width, mode, **kwargs):
    """np.pad(a) and cp.pad(d) agree in values, dtype, shape and memory order (or both raise)."""
    def np_call():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return np.pad(a, pad_width, mode, **kwargs)

    ref, exc = numpy_outcome(np_call)
    if exc is not None:
        assert_raises_like(exc, lambda: cp.pad(d, pad_width, mode, **kwargs))
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = cp.pad(d, pad_width, mode, **kwargs)
    inexact = ref.dtype.kind in "fc" and mode in ("linear_ramp", "mean", "median")
    if inexact:
        # mean sums an axis in a different order from NumPy's (pairwise when contiguous,
        # sequential when strided): a few eps per element summed.
        rtol = {"e": 4e-3, "f": 1e-5, "d": 1e-13}[ref.real.dtype.char] if mode == "mean" else None
        assert_allclose_np(got, ref, **({"rtol": rtol} if rtol else {}))
    else:
        assert_array_equal_np(got, ref, signed_zeros=True)
    assert got.flags.c_contiguous == ref.flags.c_contiguous
    assert got.flags.f_contiguous == ref.flags.f_contiguous


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("mode", INDEX_MODES)
def test_index_modes_every_dtype(mode, dtype, rng):
    base = random_array((5, 7), dtype, rng, special=True)
    d = cp.asarray(base)
    check_pad(base, d, ((2, 3), (4, 1)), mode)
    check_pad(base, d, ((0, 0), (9, 16)), mode)  # wider than the axis: repeated reflection / wrap
    check_pad(base[::-1, 1::2], d[::-1, 1::2], 3, mode)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("mode", COMPOSED_MODES)
def test_composed_modes_every_dtype(mode, dtype, rng):
    if dtype.kind == "c" and mode in ("maximum", "minimum", "median"):
        pytest.skip("complex ordering is exercised by the sort tests; NumPy's pad of it is rarely used")
    base = data((5, 6), dtype, rng)
    d = cp.asarray(base)
    check_pad(base, d, ((2, 3), (1, 4)), mode)
    check_pad(base.T, d.T, ((0, 2), (3, 0)), mode)


@pytest.mark.parametrize("mode", INDEX_MODES + COMPOSED_MODES)
@pytest.mark.parametrize("shape", [(), (1,), (6,), (1, 1), (3, 1), (4, 5, 3)], ids=str)
def test_ranks_and_length_one_axes(mode, shape, rng):
    base = data(shape, np.int32, rng)
    d = cp.asarray(base)
    check_pad(base, d, 2, mode)
    if base.ndim:
        check_pad(base, d, [(k % 3, (2 * k + 1) % 4) for k in range(base.ndim)], mode)
        check_pad(base, d, 0, mode)


@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
@pytest.mark.parametrize("dtype", [np.dtype(t) for t in ("bool", "int8", "uint16", "int64", "float32", "complex128")],
                         ids=str)
def test_odd_reflection(mode, dtype, rng):
    base = data((4, 5), dtype, rng)
    d = cp.asarray(base)
    for width in [((1, 2), (3, 0)), ((7, 9), (11, 2)), ((0, 0), (1, 13))]:
        check_pad(base, d, width, mode, reflect_type="odd")
        check_pad(base, d, width, mode, reflect_type="even")
    check_pad(base[:1], d[:1], 3, mode, reflect_type="odd")  # an axis of one: edge values


@pytest.mark.parametrize("mode", ["reflect", "symmetric", "wrap"])
@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_wide_pads_on_short_axes(mode, n, rng):
    base = data((n, 3), np.float64, rng)
    d = cp.asarray(base)
    for width in [((0, 0), (0, 0)), ((n, n + 1), (1, 2)), ((4 * n + 3, 5 * n + 1), (7, 8)), ((17, 0), (0, 23))]:
        check_pad(base, d, width, mode)


@pytest.mark.parametrize("pad_width", [
    2, (3,), (1, 2), [[1, 2]], ((1, 2), (0, 3)), np.array([[2, 1], [0, 4]]), np.int16(2),
    {0: 2}, {-1: (1, 3)}, {0: (3, 0), 1: 2}, {},
], ids=lambda w: repr(w).replace(" ", ""))
def test_pad_width_forms(pad_width, rng):
    base = data((3, 4), np.float32, rng)
    check_pad(base, cp.asarray(base), pad_width, "constant", constant_values=7)
    check_pad(base, cp.asarray(base), pad_width, "reflect")


@pytest.mark.parametrize("values", [
    5, 2.75, -1, (1, 2), ((1, 2), (3, 4)), [[1.5, -2.5]], np.array([[9], [8]]), np.float32(3.5), True,
], ids=lambda v: repr(v).replace(" ", ""))
@pytest.mark.parametrize("dtype", [np.dtype(t) for t in ("bool", "int8", "uint32", "float16", "float64", "complex64")],
                         ids=str)
def test_constant_values(values, dtype, rng):
    base = data((3, 4), dtype, rng)
    check_pad(base, cp.asarray(base), ((2, 1), (1, 3)), "constant", constant_values=values)


def test_constant_values_cast_like_numpy(rng):
    # NumPy casts the constants with setitem: out-of-range ints raise OverflowError, complex into a
    # real dtype keeps the real part (with a ComplexWarning), floats into ints truncate.
    base = data((3, 3), np.int8, rng)
    d = cp.asarray(base)
    check_pad(base, d, 1, "constant", constant_values=300)
    check_pad(base, d, 1, "constant", constant_values=((1, 300), (2, 3)))
    check_pad(base, d, 1, "constant", constant_values=-7.9)
    check_pad(base.astype(np.float32), d.astype(np.float32), 1, "constant", constant_values=1 + 2j)
    check_pad(base.astype(np.uint64), d.astype(np.uint64), 1, "constant", constant_values=2**64 - 1)


def test_constant_corners_take_the_last_axis(rng):
    # Each corner belongs to the last padded axis (NumPy fills axis after axis), in C and F order.
    base = data((2, 3, 4), np.int16, rng)
    values = ((1, 2), (3, 4), (5, 6))
    check_pad(base, cp.asarray(base), ((1, 2), (2, 1), (1, 1)), "constant", constant_values=values)
    f = np.asfortranarray(base)
    check_pad(f, cp.asfortranarray(cp.asarray(base)), ((1, 2), (2, 1), (1, 1)), "constant", constant_values=values)


@pytest.mark.parametrize("end_values", [0, 5, (-3, 7), ((1, 2), (3.5, -4)), 2.5])
@pytest.mark.parametrize("dtype", [np.dtype(t) for t in ("int16", "uint8", "float16", "float32", "float64",
                                                         "complex128")], ids=str)
def test_linear_ramp_end_values(end_values, dtype, rng):
    if dtype.kind == "u":  # (a negative ramp into an unsigned type is an undefined cast in C)
        end_values = np.abs(np.asarray(end_values)).tolist()
    base = random_array((4, 5), dtype, rng, low=0, high=60)
    check_pad(base, cp.asarray(base), ((3, 2), (0, 5)), "linear_ramp", end_values=end_values)


@pytest.mark.parametrize("mode", ["maximum", "mean", "median", "minimum"])
@pytest.mark.parametrize("stat_length", [None, 1, 2, (1, 3), ((2, 1), (3, 2)), 100])
def test_stat_length(mode, stat_length, rng):
    for dtype in (np.int32, np.float64):
        base = data((5, 6), dtype, rng)
        check_pad(base, cp.asarray(base), ((2, 3), (3, 1)), mode, stat_length=stat_length)


def test_mean_of_integers_rounds_half_to_even(rng):
    # Means ending in .5 round to even before the cast, as NumPy's _round_if_needed does.
    base = np.array([[1, 2], [4, 5], [3, 3]], dtype=np.int64)
    check_pad(base, cp.asarray(base), 2, "mean")
    check_pad(base.astype(np.uint8), cp.asarray(base.astype(np.uint8)), ((1, 1), (2, 2)), "mean", stat_length=2)


def test_empty_mode_keeps_the_original_area(rng):
    base = data((4, 5), np.float32, rng)
    got = cp.pad(cp.asarray(base), ((1, 2), (3, 0)), "empty")
    ref = np.pad(base, ((1, 2), (3, 0)), "empty")
    assert got.shape == ref.shape and got.dtype == ref.dtype
    assert_array_equal_np(got[1:5, 3:], base)


def test_callable_mode(rng):
    def pad_with(vector, pad_width, iaxis, kwargs):
        pad_value = kwargs.get("padder", 10)
        vector[:pad_width[0]] = pad_value
        vector[vector.shape[0] - pad_width[1]:] = pad_value + iaxis

    base = data((3, 4), np.int64, rng)
    d = cp.asarray(base)
    assert_array_equal_np(cp.pad(d, 2, pad_with), np.pad(base, 2, pad_with))
    assert_array_equal_np(cp.pad(d, ((1, 0), (0, 2)), pad_with, padder=100),
                          np.pad(base, ((1, 0), (0, 2)), pad_with, padder=100))


@pytest.mark.parametrize("mode", INDEX_MODES + COMPOSED_MODES + ["empty"])
def test_size_zero_inputs(mode, rng):
    base = np.zeros((0, 3), np.float32)
    d = cp.asarray(base)
    check_empty = (lambda got, ref: got.shape == ref.shape) if mode == "empty" else None
    for width in [((0, 0), (1, 2)), ((2, 1), (0, 0)), 1]:
        if check_empty:
            assert check_empty(cp.pad(d, width, mode), np.pad(base, width, mode))
        else:
            check_pad(base, d, width, mode)


@pytest.mark.parametrize("layout", ["transposed", "fortran", "stepped", "negative", "broadcast"])
@pytest.mark.parametrize("mode", ["constant", "reflect", "wrap", "mean", "linear_ramp"])
def test_non_contiguous_inputs(layout, mode, rng):
    base = data((6, 8, 5), np.float64, rng)
    views = {
        "transposed": lambda x, xp: x.transpose(1, 2, 0),
        "fortran": lambda x, xp: xp.asfortranarray(x),
        "stepped": lambda x, xp: x[1::2, ::3, 1:],
        "negative": lambda x, xp: x[::-1, :, ::-2],
        "broadcast": lambda x, xp: xp.broadcast_to(x[:1], (4, 8, 5)),
    }
    view = views[layout]
    check_pad(view(base, np), view(cp.asarray(base), cp), ((1, 2), (0, 3), (4, 1)), mode)


@pytest.mark.parametrize("call", [
    lambda xp, a: xp.pad(a, -1),
    lambda xp, a: xp.pad(a, ((1, -2), (0, 0))),
    lambda xp, a: xp.pad(a, 1.5),
    lambda xp, a: xp.pad(a, np.uint8(1)),
    lambda xp, a: xp.pad(a, ((1, 2, 3), (1, 2, 3))),
    lambda xp, a: xp.pad(a, 1, mode="bogus"),
    lambda xp, a: xp.pad(a, 1, mode="edge", constant_values=3),
    lambda xp, a: xp.pad(a, 1, mode="constant", reflect_type="odd"),
    lambda xp, a: xp.pad(a, 1, mode="maximum", stat_length=0),
    lambda xp, a: xp.pad(a, 1, mode="minimum", stat_length=(2, 0)),
    lambda xp, a: xp.pad(a, 1, mode="mean", stat_length=-1),
    lambda xp, a: xp.pad(a[:0], 1, mode="edge"),
    lambda xp, a: xp.pad(a[:, :0], ((0, 0), (1, 0)), mode="wrap"),
    lambda xp, a: xp.pad(a, 1, mode="constant", constant_values=((1, 2), (3, 4), (5, 6))),
], ids=["negative", "negative-pair", "float-width", "unsigned-width", "bad-shape", "bad-mode", "unsupported-kwarg",
        "kwarg-of-other-mode", "stat-length-0", "stat-length-0-after", "negative-stat-length", "empty-axis-edge",
        "empty-axis-wrap", "too-many-constants"])
def test_errors(call, rng):
    base = data((3, 4), np.int32, rng)
    ref, exc = numpy_outcome(lambda: call(np, base))
    assert exc is not None, "the case must be an error in NumPy"
    err = assert_raises_like(exc, lambda: call(cp, cp.asarray(base)))
    assert str(err), "the error names the problem"


def test_long_rows_one_pass(rng):
    # A long axis (many blocks of the one-pass kernel) and a wide 2-D reflect, as in the benchmark.
    base = random_array((3, 100003), np.float32, rng, special=True)
    check_pad(base, cp.asarray(base), ((1, 2), (70000, 5)), "reflect")
    base = random_array((700, 900), np.float32, rng, special=True)
    check_pad(base, cp.asarray(base), 64, "symmetric")
