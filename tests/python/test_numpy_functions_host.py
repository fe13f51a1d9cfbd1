"""Host-only checks of NumPy's remaining functions (no GPU needed): the pure-host index objects,
the argument errors raised before any device work (NumPy's types and messages), and an NVRTC
compile for sm_90 of every kernel these functions run, for every dtype they take."""
import numpy as np
import numpy.polynomial.polynomial as npP
import pytest
from hypothesis import given, settings, strategies as st

import cuarray as cp
import cuarray.polynomial.polynomial as cpP
from cuarray._math import logic as _logic
from cuarray._math import misc as _math_misc
from cuarray._manipulation import packing as _packing
from cuarray._math import signal as _signal
from cuarray._math import signal_fft as _signal_fft
from cuarray.cuda.compiler import compile_to_cubin

from helpers import ALL_DTYPES, expect_error


def _compiles(kernel, in_dtypes, out_dtypes, vec=1):
    source = kernel._kernel._source(in_dtypes, out_dtypes, vec)
    assert len(compile_to_cubin(source, kernel.name, "sm_90")) > 0


# --- pure host objects -------------------------------------------------------------------------------

def test_s_index_exp_ndindex_are_numpys():
    assert cp.s_[1:5:2, ..., None] == np.s_[1:5:2, ..., None]
    assert cp.index_exp[3] == np.index_exp[3] == (3,)
    assert cp.s_[3] == 3
    assert list(cp.ndindex(2, 3)) == list(np.ndindex(2, 3))
    assert list(cp.ndindex((0, 2))) == []
    assert len(cp.r_) == len(cp.c_) == len(cp.mgrid) == 0


def test_diag_indices_from_checks_the_shape_only():
    expect_error(lambda: np.diag_indices_from(np.ones(3)), lambda: cp.diag_indices_from(np.ones(3)),
                 "input array must be at least 2-d")
    expect_error(lambda: np.diag_indices_from(np.ones((2, 3))), lambda: cp.diag_indices_from(np.ones((2, 3))),
                 "All dimensions of input must be of equal length")


def test_concatenator_directive_errors():
    expect_error(lambda: np.r_[1, "r"], lambda: cp.r_[1, "r"], "special directives must be the first entry.")
    expect_error(lambda: np.r_["x", 1], lambda: cp.r_["x", 1], "unknown special directive")
    expect_error(lambda: np.r_["1,x", 1], lambda: cp.r_["1,x", 1], "unknown special directive '1,x'")
    with pytest.raises(NotImplementedError, match="matrix"):
        cp.r_["r", 1]
    with pytest.raises(NotImplementedError, match="matrix"):
        cp.r_["1 2; 3 4"]


# --- argument errors before device work ----------------------------------------------------------------

def test_convolve_correlate_mode_errors():
    a, v = np.ones(4), np.ones(2)
    for np_fn, cp_fn in ((np.convolve, cp.convolve), (np.correlate, cp.correlate)):
        expect_error(lambda: np_fn(a, v, "bad"), lambda: cp_fn(a, v, "bad"),
                     "mode must be one of 'valid', 'same', or 'full' (got 'bad')")
        expect_error(lambda: np_fn(a, v, 3), lambda: cp_fn(a, v, 3),
                     "integer convolve/correlate mode must be 0, 1, or 2")
        expect_error(lambda: np_fn(a, v, 1.5), lambda: cp_fn(a, v, 1.5))


def test_packbits_unpackbits_argument_errors():
    a, u = np.ones(3, np.int32), np.ones(3, np.uint8)
    for order in ("x", "l", "b", "Big", ""):
        expect_error(lambda: np.packbits(a, bitorder=order), lambda: cp.packbits(a, bitorder=order),
                     "'order' must be either 'little' or 'big'")
    expect_error(lambda: np.packbits(a, bitorder=None), lambda: cp.packbits(a, bitorder=None), "must be str, not None")
    for order in ("x", "middle", "Big", ""):
        expect_error(lambda: np.unpackbits(u, bitorder=order), lambda: cp.unpackbits(u, bitorder=order),
                     "'order' must begin with 'l' or 'b'")
    expect_error(lambda: np.unpackbits(u, count=1.5), lambda: cp.unpackbits(u, count=1.5),
                 "cannot be interpreted as an integer")


def test_interp_gradient_cov_argument_errors():
    x = np.ones(3)
    expect_error(lambda: np.interp(x, x, x, period=0), lambda: cp.interp(x, x, x, period=0),
                 "period must be a non-zero value")
    expect_error(lambda: np.gradient(np.arange(5.0), edge_order=3), lambda: cp.gradient(np.arange(5.0), edge_order=3),
                 "'edge_order' greater than 2 not supported")
    expect_error(lambda: np.cov(x, ddof=1.5), lambda: cp.cov(x, ddof=1.5), "ddof must be integer")


def test_legacy_polynomial_argument_errors():
    p = np.array([1.0, 2.0, 3.0])
    expect_error(lambda: np.polyder(p, -1), lambda: cp.polyder(p, -1), "Order of derivative must be positive")
    expect_error(lambda: np.polyint(p, -1), lambda: cp.polyint(p, -1), "Order of integral must be positive")
    expect_error(lambda: np.polyint(p, 3, [1, 2]), lambda: cp.polyint(p, 3, [1, 2]),
                 "k must be a scalar or a rank-1 array of length 1 or >m.")
    expect_error(lambda: np.polyfit(p, p, -1), lambda: cp.polyfit(p, p, -1), "expected deg >= 0")


def test_power_series_argument_errors():
    c = np.array([1.0, 2.0])
    expect_error(lambda: npP.polyvander(c, -1), lambda: cpP.polyvander(c, -1), "deg must be non-negative")
    expect_error(lambda: npP.polyvander(c, 1.5), lambda: cpP.polyvander(c, 1.5), "deg must be an integer")
    expect_error(lambda: npP.polyder(c, -1), lambda: cpP.polyder(c, -1), "The order of derivation must be non-negative")
    expect_error(lambda: npP.polyder(c, 1.5), lambda: cpP.polyder(c, 1.5), "must be an integer")
    expect_error(lambda: npP.polyint(c, 1, [1, 2]), lambda: cpP.polyint(c, 1, [1, 2]), "Too many integration constants")
    expect_error(lambda: npP.polyint(c, -1), lambda: cpP.polyint(c, -1),
                 "The order of integration must be non-negative")
    expect_error(lambda: npP.polyint(c, lbnd=[1, 2]), lambda: cpP.polyint(c, lbnd=[1, 2]), "lbnd must be a scalar.")
    expect_error(lambda: npP.polyint(c, scl=[1, 2]), lambda: cpP.polyint(c, scl=[1, 2]), "scl must be a scalar.")
    expect_error(lambda: npP.polyfit(c, c, -1), lambda: cpP.polyfit(c, c, -1), "expected deg >= 0")
    expect_error(lambda: npP.polyfit(c, c, 1.5), lambda: cpP.polyfit(c, c, 1.5),
                 "deg must be an int or non-empty 1-D array of int")
    expect_error(lambda: npP.polyfit(c, c, []), lambda: cpP.polyfit(c, c, []),
                 "deg must be an int or non-empty 1-D array of int")


# --- every kernel compiles ----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [d.name for d in ALL_DTYPES])
def test_correlate_kernel_compiles(dtype):
    _compiles(_signal._kernel(np.dtype(dtype)), [dtype, dtype, None, None, None, None], [dtype])


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_fft_method_kernels_compile(dtype):
    # the guarded recomputation of non-finite FFT results, and the spectra's product
    _compiles(_signal._kernel(np.dtype(dtype), guarded=True), [dtype, dtype, None, None, None, None, "bool"], [dtype])
    spectrum = "complex64" if dtype in ("float32", "complex64") else "complex128"
    _compiles(_signal_fft._PRODUCT, [spectrum, spectrum, None, "bool"], [spectrum])
    _compiles(_signal_fft._GATHER_BLOCKS, [dtype, None, None, None, None], [dtype])
    _compiles(_signal_fft._GATHER_OUTPUT, [dtype, None, None, None], [dtype])


def _smooth(x):
    for p in (2, 3, 5, 7):
        while x % p == 0:
            x //= p
    return x == 1


def test_fast_length_is_the_next_7_smooth_length():
    expected = 1
    for target in range(1, 4000):
        while not _smooth(expected) or expected < target:
            expected += 1
        assert _signal_fft.fast_length(target) == expected, target
    assert _signal_fft.fast_length(1_000_999) == 1_003_520 == 2 ** 12 * 5 * 7 ** 2
    assert _signal_fft.fast_length(2 ** 20 + 1) == 1_049_760 == 2 ** 5 * 3 ** 8 * 5  # not 2^21


def _overlap_save_model(a, v, mode, block):
    """_signal_fft.correlate in NumPy, with its BlockPlan and the index arithmetic of its two gather
    kernels: out[i] = sum_j a[i - left + j] v[j] (len(a) >= len(v))."""
    n, m = len(a), len(v)
    length, left = _signal._extent(mode, n, m)
    plan = _signal_fft.BlockPlan.of(length, m, left, block)
    flat = np.arange(plan.count * plan.block)
    k = (flat // plan.block) * plan.step + flat % plan.block - plan.shift  # _GATHER_BLOCKS
    blocks = np.where((k >= 0) & (k < n), a[np.clip(k, 0, n - 1)], 0).reshape(plan.count, plan.block)
    rows = np.fft.ifft(np.fft.fft(blocks, axis=1) * np.fft.fft(v[::-1], plan.block), axis=1).reshape(-1)
    i = np.arange(length)
    out = rows[(i // plan.step) * plan.block + plan.skip + i % plan.step]  # _GATHER_OUTPUT
    return out if np.iscomplexobj(a) else out.real


@settings(max_examples=300, deadline=None)
@given(n=st.integers(1, 300), m=st.integers(1, 300), mode=st.sampled_from([0, 1, 2]), data=st.data())
def test_overlap_save_blocking_is_numpys_correlate(n, m, mode, data):
    n, m = max(n, m), min(n, m)
    length, _ = _signal._extent(mode, n, m)
    whole = _signal_fft.fast_length(length + m - 1)
    drawn = data.draw(st.integers(max(m, 2), max(whole, 2)))
    block = data.draw(st.sampled_from(sorted({max(m, 2), m + 1, whole, drawn})))
    rng = np.random.default_rng(n * 1000 + m)
    a, v = rng.standard_normal(n), rng.standard_normal(m)
    ref = np.correlate(a, v, ["valid", "same", "full"][mode])
    got = _overlap_save_model(a, v, mode, block)
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-12 * (1 + np.abs(a).sum() * np.abs(v).sum()))
    plan = _signal_fft.BlockPlan.of(length, m, 0, block)
    assert (plan.count - 1) * plan.step < length <= plan.count * plan.step  # no block wasted


def test_block_length_choice():
    # the benchmark's case: many short batched blocks, not one transform of ~1e6
    block = _signal_fft.block_length(10 ** 6 + 999, 1000, 8)
    assert 4 * 1000 <= block <= 1 << 15 and _smooth(block)
    # a kernel as long as the input: the whole-array transform
    assert _signal_fft.block_length(2 * 3000 - 1, 3000, 8) == _signal_fft.fast_length(3 * 3000 - 2)
    # short outputs: one block, never longer than the whole transform
    assert _signal_fft.block_length(10, 5, 16) == _signal_fft.fast_length(14)
    # the choice among 2^k and 3 * 2^k is within 10 % of the best 7-smooth length's modelled cost
    for length, m, itemsize in [(10 ** 6, 1000, 8), (10 ** 5, 37, 4), (20_000, 3000, 16), (5 * 10 ** 6, 5000, 8)]:
        chosen = _signal_fft.blocks_seconds(length, m, _signal_fft.block_length(length, m, itemsize), itemsize)
        whole = _signal_fft.fast_length(length + m - 1)
        smooth = {2 ** i * 3 ** j * 5 ** k * 7 ** q for i in range(24) for j in range(15) for k in range(10)
                  for q in range(9)}
        best = min(_signal_fft.blocks_seconds(length, m, b, itemsize) for b in smooth | {whole} if m < b <= whole)
        assert chosen <= 1.1 * best, (length, m)


def test_method_choice():
    f64, f32, c128 = np.dtype(np.float64), np.dtype(np.float32), np.dtype(np.complex128)
    full, valid = 2, 0
    # the benchmark's case (CuPy's FFT path there) and long kernels take the FFT
    assert _signal._method(10 ** 6, 10 ** 3, full, f64) == "fft"
    assert _signal._method(10 ** 6, 10 ** 3, valid, f32) == "fft"
    assert _signal._method(10 ** 4, 10 ** 4, full, f64) == "fft"
    assert _signal._method(10 ** 5, 10 ** 3, full, c128) == "fft"
    # short kernels and short inputs stay direct
    for n, m in [(10 ** 6, 16), (10 ** 5, 100), (50, 7), (4096, 1000), (10 ** 4, 1)]:
        assert _signal._method(n, m, full, f64) == "direct", (n, m)
    # exact integer sums, bool, float16 (summed in float32) never go through a transform
    for dtype in (np.int64, np.uint8, np.bool_, np.float16):
        assert _signal._method(10 ** 7, 10 ** 4, full, np.dtype(dtype)) == "direct"
    # the choice grows with the kernel: once the FFT wins, longer kernels keep it (n fixed)
    choices = [_signal._method(10 ** 6, m, full, f64) for m in range(2, 2000, 7)]
    assert choices == sorted(choices, key=lambda c: c == "fft")


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_tiled_correlate_kernels_compile(arch):
    assert len(compile_to_cubin(_signal._TILED_SOURCE, "correlate_interior", arch)) > 0
    assert all(name + "(" in _signal._TILED_SOURCE for name in _signal._TILED_NAMES.values())


def test_interp_kernel_compiles():
    _compiles(_math_misc._INTERP, ["float64", "float64", "float64"] + [None] * 5, ["float64"])
    _compiles(_math_misc._INTERP, ["float64", "float64", "float64"] + [None] * 5, ["float64"], vec=2)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "int32", "uint32", "int64", "uint64"])
def test_packbits_kernels_compile(dtype):
    _compiles(_packing._PACK, [dtype, None, None, None], ["uint8"])


def test_unpackbits_kernel_compiles():
    _compiles(_packing._UNPACK, ["uint8", None, None, None], ["uint8"])


@pytest.mark.parametrize("x_dtype,y_dtype", [("float32", "float32"), ("float16", "float16"), ("int32", "int64"),
                                             ("bool", "uint8"), ("complex64", "complex128"), ("float64", "int8"),
                                             ("uint64", "float32")])
@pytest.mark.parametrize("equal_nan", [False, True])
def test_isclose_fuses_into_one_kernel_that_compiles(x_dtype, y_dtype, equal_nan):
    y_inexact = np.result_type(np.dtype(y_dtype), 1.0)
    fused = _logic._fused(equal_nan, None if y_inexact == np.dtype(y_dtype) else y_inexact)
    kernel = fused.kernel(np.ones(2, x_dtype), np.ones(2, y_dtype), 1e-8, 1e-5)
    assert kernel is not None, "isclose must fuse into one kernel"
    assert kernel.out_params == "bool _o0"
    _compiles(kernel, [x_dtype, y_dtype, None, None], ["bool"], vec=4)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
def test_sinc_fuses_into_one_kernel_that_compiles(dtype):
    y_dtype = np.result_type(np.dtype(dtype), np.pi)
    eps = np.finfo(y_dtype).eps if y_dtype.kind == "f" else 1e-20
    kernel = _math_misc._sinc.kernel(np.ones(2, dtype), eps)
    assert kernel is not None
    _compiles(kernel, [dtype, None], [kernel.out_params.split()[0]])


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_i0_fuses_into_one_kernel_that_compiles(dtype):
    kernel = _math_misc._i0.kernel(np.ones(2, dtype))
    assert kernel is not None and kernel.out_params == "%s _o0" % dtype
    _compiles(kernel, [dtype], [dtype])
