"""The legacy polynomial API (poly, roots, polyval, polyfit, polyadd, polysub, polymul, polydiv,
polyder, polyint, poly1d) and cuarray.polynomial.polynomial against NumPy on random data (GPU)."""
import warnings

import numpy as np
import numpy.polynomial.polynomial as npP
import pytest

import cuarray as cp
import cuarray.polynomial.polynomial as cpP

from helpers import assert_allclose_np, assert_array_equal_np, expect_error, random_array

pytestmark = pytest.mark.gpu

COEFF_DTYPES = [np.int32, np.int64, np.float32, np.float64, np.complex64, np.complex128]


def _close(got, ref, rtol=None):
    ref = np.asarray(ref)
    if ref.dtype.kind in "biu":
        assert_array_equal_np(got, ref)
        return
    if rtol is None:
        rtol = 2e-4 if ref.dtype in (np.float32, np.complex64) else 1e-10
    scale = np.max(np.abs(ref)) if ref.size else 1.0
    assert_allclose_np(got, ref, rtol=rtol, atol=rtol * scale)


def _coeffs(rng, n, dtype, nonzero_lead=True):
    c = random_array((n,), dtype, rng, low=-5, high=5)
    if nonzero_lead and c[0] == 0:
        c[0] = 1
    return c


# --- legacy API ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", COEFF_DTYPES)
def test_polyval(rng, dtype):
    p = _coeffs(rng, 5, dtype)
    x = random_array((3, 7), np.float32, rng, low=-2, high=2)
    _close(cp.polyval(cp.asarray(p), cp.asarray(x)), np.polyval(p, x))
    _close(cp.polyval(cp.asarray(p), cp.asarray(x)[:, ::-2]), np.polyval(p, x[:, ::-2]))
    _close(cp.polyval(cp.asarray(p), 2), np.asarray(np.polyval(p, 2)))


@pytest.mark.parametrize("dtype", COEFF_DTYPES)
def test_polyadd_polysub_polymul(rng, dtype):
    a, b = _coeffs(rng, 4, dtype), _coeffs(rng, 6, dtype)
    for x, y in ((a, b), (b, a), (a, a[::-1])):
        _close(cp.polyadd(cp.asarray(x), cp.asarray(y)), np.polyadd(x, y))
        _close(cp.polysub(cp.asarray(x), cp.asarray(y)), np.polysub(x, y))
        _close(cp.polymul(cp.asarray(x), cp.asarray(y)), np.polymul(x, y))
    lead_zero = np.concatenate([np.zeros(2, dtype), a])
    _close(cp.polymul(cp.asarray(lead_zero), cp.asarray(b)), np.polymul(lead_zero, b))


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64, np.complex128])
def test_polydiv(rng, dtype):
    u, v = _coeffs(rng, 7, dtype), _coeffs(rng, 3, dtype)
    q, r = cp.polydiv(cp.asarray(u), cp.asarray(v))
    qr, rr = np.polydiv(u, v)
    _close(q, qr, rtol=1e-4 if qr.dtype == np.float32 else 1e-9)
    _close(r, rr, rtol=1e-4 if rr.dtype == np.float32 else 1e-9)
    # exact division: the remainder is trimmed to one zero
    prod = np.polymul(u, v).astype(np.float64)
    q, r = cp.polydiv(cp.asarray(prod), cp.asarray(v.astype(np.float64)))
    qr, rr = np.polydiv(prod, v.astype(np.float64))
    _close(q, qr)
    assert r.shape == rr.shape


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex64])
def test_polyder_polyint(rng, dtype):
    p = _coeffs(rng, 6, dtype)
    for m in (0, 1, 2, 7):
        _close(cp.polyder(cp.asarray(p), m), np.polyder(p, m))
    for m, k in ((0, None), (1, None), (2, None), (1, 3.0), (3, [1.0, 2.0, 3.0]), (2, 5.0)):
        _close(cp.polyint(cp.asarray(p), m, k), np.polyint(p, m, k))


@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.complex128])
def test_poly_and_roots(rng, dtype):
    r = random_array((5,), dtype, rng, low=-3, high=3)
    _close(cp.poly(cp.asarray(r)), np.poly(r), rtol=1e-9)
    conj_pairs = np.array([1 + 2j, 1 - 2j, 3.0])
    got, ref = cp.poly(cp.asarray(conj_pairs)), np.poly(conj_pairs)
    assert got.dtype == ref.dtype == np.float64
    _close(got, ref)
    m = random_array((4, 4), np.float64, rng)
    _close(cp.poly(cp.asarray(m)), np.poly(m), rtol=1e-8)
    assert cp.poly(cp.asarray(np.zeros(0))) == np.poly(np.zeros(0)) == 1.0
    p = np.array([0.0, 0.0, 1.0, -6.0, 11.0, -6.0, 0.0, 0.0])
    got, ref = cp.roots(cp.asarray(p)), np.roots(p)
    assert got.shape == ref.shape
    assert got.dtype == ref.dtype == np.float64  # real roots are real in every NumPy (2.5: eigvals is complex)
    np.testing.assert_allclose(np.sort_complex(cp.asnumpy(got)), np.sort_complex(ref), atol=1e-9)
    q = _coeffs(rng, 6, np.float64)
    np.testing.assert_allclose(np.sort_complex(cp.asnumpy(cp.roots(cp.asarray(q)))), np.sort_complex(np.roots(q)),
                               rtol=1e-8, atol=1e-8)
    assert cp.roots(cp.asarray([1.0, 0.0, 4.0])).dtype == np.roots([1.0, 0.0, 4.0]).dtype == np.complex128
    assert cp.roots(cp.asarray([1.0, -3.0, 2.0], np.float32)).dtype == np.roots(np.array([1, -3, 2], np.float32)).dtype
    assert cp.roots(cp.asarray(np.zeros(3))).shape == np.roots(np.zeros(3)).shape == (0,)
    expect_error(lambda: np.roots(np.ones((2, 2))), lambda: cp.roots(cp.ones((2, 2))), "rank-1")
    expect_error(lambda: np.poly(np.ones((2, 3))), lambda: cp.poly(cp.ones((2, 3))), "1d or non-empty square 2d")


def test_polyfit(rng):
    x = np.linspace(-2, 2, 40)
    y = np.polyval([0.5, -1.0, 2.0, 3.0], x) + 0.01 * rng.standard_normal(40)
    w = rng.uniform(0.5, 2.0, 40)
    cx, cy, cw = cp.asarray(x), cp.asarray(y), cp.asarray(w)
    _close(cp.polyfit(cx, cy, 3), np.polyfit(x, y, 3), rtol=1e-8)
    _close(cp.polyfit(cx, cy, 2, w=cw), np.polyfit(x, y, 2, w=w), rtol=1e-8)
    y2 = np.stack([y, 2 * y + 1], axis=1)
    _close(cp.polyfit(cx, cp.asarray(y2), 3), np.polyfit(x, y2, 3), rtol=1e-8)
    got, ref = cp.polyfit(cx, cy, 3, full=True), np.polyfit(x, y, 3, full=True)
    _close(got[0], ref[0], rtol=1e-8)
    _close(got[1], ref[1], rtol=1e-6)
    assert int(got[2]) == ref[2]
    _close(got[3], ref[3], rtol=1e-8)
    c, V = cp.polyfit(cx, cy, 2, cov=True)
    cr, Vr = np.polyfit(x, y, 2, cov=True)
    _close(c, cr, rtol=1e-8)
    _close(V, Vr, rtol=1e-6)
    with pytest.warns(np.exceptions.RankWarning):
        cp.polyfit(cp.asarray(np.ones(5)), cp.asarray(np.arange(5.0)), 3)
    expect_error(lambda: np.polyfit(np.ones((2, 2)), np.ones(2), 1), lambda: cp.polyfit(cp.ones((2, 2)), cp.ones(2), 1),
                 "expected 1D vector for x")
    expect_error(lambda: np.polyfit(np.ones(3), np.ones(4), 1), lambda: cp.polyfit(cp.ones(3), cp.ones(4), 1),
                 "expected x and y to have same length")


def test_poly1d_behaves_as_numpys(rng):
    c = np.array([0.0, 2.0, -3.0, 1.0])
    p, pn = cp.poly1d(cp.asarray(c)), np.poly1d(c)
    _close(p.coeffs, pn.coeffs)
    assert p.order == pn.order == len(p) == 2 and p.variable == "x"
    assert repr(p) == repr(pn) and str(p) == str(pn)
    x = random_array((9,), np.float64, rng)
    _close(p(cp.asarray(x)), pn(x))
    q, qn = cp.poly1d(cp.asarray([1.0, 1.0])), np.poly1d([1.0, 1.0])
    for got, ref in [(p + q, pn + qn), (p - q, pn - qn), (p * q, pn * qn), (p * 2, pn * 2), (3 * p, 3 * pn),
                     (p ** 3, pn ** 3), (-p, -pn), (p.deriv(), pn.deriv()), (p.integ(2, 1.0), pn.integ(2, 1.0)),
                     (q + 1, qn + 1), (1 - q, 1 - qn), (p / 2, pn / 2)]:
        assert isinstance(got, cp.poly1d)
        _close(got.coeffs, ref.coeffs)
    quotient, remainder = p / q
    qref, rref = pn / qn
    _close(quotient.coeffs, qref.coeffs)
    _close(remainder.coeffs, rref.coeffs)
    assert p == cp.poly1d(cp.asarray(c)) and p != q
    assert float(p[0]) == pn[0] and float(p[2]) == pn[2] and p[5] == pn[5] == 0
    p[4] = 7.0
    pn[4] = 7.0
    _close(p.coeffs, pn.coeffs)
    r = cp.poly1d(cp.asarray([1.0, 2.0]), r=True)
    _close(r.coeffs, np.poly1d([1.0, 2.0], r=True).coeffs)
    np.testing.assert_allclose(np.sort(cp.asnumpy(r.roots).real), [1.0, 2.0])
    with pytest.raises(ValueError, match="Power to non-negative integers only"):
        p ** -1
    with pytest.raises(AttributeError):
        p.coeffs = cp.ones(2)
    with pytest.raises(ValueError, match="Polynomial must be 1d only."):
        cp.poly1d(cp.ones((2, 2)))


# --- cuarray.polynomial.polynomial -------------------------------------------------------------------

@pytest.mark.parametrize("dtype", COEFF_DTYPES)
def test_power_series_polyval_and_friends(rng, dtype):
    c = _coeffs(rng, 5, dtype)
    x = random_array((2, 6), np.float64, rng, low=-2, high=2)
    _close(cpP.polyval(cp.asarray(x), cp.asarray(c)), npP.polyval(x, c))
    c2 = random_array((5, 3), dtype, rng, low=-3, high=3)
    _close(cpP.polyval(cp.asarray(x), cp.asarray(c2)), npP.polyval(x, c2))
    _close(cpP.polyval(cp.asarray(x[0, :3]), cp.asarray(c2), tensor=False), npP.polyval(x[0, :3], c2, tensor=False))
    _close(cpP.polyval(2.0, cp.asarray(c)), np.asarray(npP.polyval(2.0, c)))
    _close(cpP.polyvalfromroots(cp.asarray(x), cp.asarray(c)), npP.polyvalfromroots(x, c))
    for deg in (0, 1, 4):
        _close(cpP.polyvander(cp.asarray(x), deg), npP.polyvander(x, deg))


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64, np.complex128])
def test_power_series_arithmetic(rng, dtype):
    a, b = _coeffs(rng, 4, dtype), _coeffs(rng, 6, dtype)
    b[-1] = b[-1] if b[-1] != 0 else 1
    trailing = np.concatenate([a, np.zeros(3, dtype)])
    for x, y in ((a, b), (b, a), (trailing, a), (a, a)):
        for fn_np, fn_cp in ((npP.polyadd, cpP.polyadd), (npP.polysub, cpP.polysub), (npP.polymul, cpP.polymul)):
            _close(fn_cp(cp.asarray(x), cp.asarray(y)), fn_np(x, y))
    for x, y in ((b, a), (a, b), (b, a[:1])):
        y = y.copy()
        y[-1] = y[-1] if y[-1] != 0 else 2
        got, ref = cpP.polydiv(cp.asarray(x), cp.asarray(y)), npP.polydiv(x, y)
        _close(got[0], ref[0], rtol=1e-4 if ref[0].dtype == np.float32 else 1e-9)
        _close(got[1], ref[1], rtol=1e-4 if ref[1].dtype == np.float32 else 1e-9)
    with pytest.raises(ZeroDivisionError):
        cpP.polydiv(cp.asarray(a), cp.asarray(np.zeros(2, dtype)))


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128])
def test_power_series_calculus(rng, dtype):
    c = _coeffs(rng, 5, dtype)
    c2 = random_array((4, 3), dtype, rng, low=-3, high=3)
    for m, scl in ((0, 1), (1, 1), (2, 0.5), (6, 1)):
        _close(cpP.polyder(cp.asarray(c), m, scl), npP.polyder(c, m, scl))
        _close(cpP.polyder(cp.asarray(c2), m, scl, axis=1), npP.polyder(c2, m, scl, axis=1))
    for m, k, lbnd, scl in ((0, [], 0, 1), (1, [], 0, 1), (2, [1.0, 2.0], 0.5, 2.0), (1, 3.0, -1.0, 1)):
        _close(cpP.polyint(cp.asarray(c), m, k, lbnd, scl), npP.polyint(c, m, k, lbnd, scl))
        _close(cpP.polyint(cp.asarray(c2), m, k, lbnd, scl, axis=1), npP.polyint(c2, m, k, lbnd, scl, axis=1))
    _close(cpP.polyint(cp.asarray(np.zeros(1)), 2, [1.0, 2.0]), npP.polyint(np.zeros(1), 2, [1.0, 2.0]))


def test_power_series_companion_roots_fit(rng):
    c = np.array([6.0, -11.0, 6.0, -1.0, 0.0])
    _close(cpP.polycompanion(cp.asarray(c)), npP.polycompanion(c))
    _close(cpP.polycompanion(cp.asarray([1.0, 2.0])), npP.polycompanion([1.0, 2.0]))
    got, ref = cpP.polyroots(cp.asarray(c)), npP.polyroots(c)
    _close(got, ref, rtol=1e-8)  # real (float64) in every NumPy, although 2.5's eigvals is complex
    _close(cpP.polyroots(cp.asarray([4.0, 0.0, 1.0])), npP.polyroots([4.0, 0.0, 1.0]), rtol=1e-8)  # +-2j
    _close(cpP.polyroots(cp.asarray([1.0, 2.0])), npP.polyroots([1.0, 2.0]))
    assert cpP.polyroots(cp.asarray([3.0])).shape == (0,)
    expect_error(lambda: npP.polycompanion([1.0]), lambda: cpP.polycompanion(cp.asarray([1.0])),
                 "Series must have maximum degree of at least 1.")
    x = np.linspace(-1, 1, 30)
    y = npP.polyval(x, [1.0, -2.0, 0.5, 3.0]) + 0.01 * rng.standard_normal(30)
    _close(cpP.polyfit(cp.asarray(x), cp.asarray(y), 3), npP.polyfit(x, y, 3), rtol=1e-8)
    _close(cpP.polyfit(cp.asarray(x), cp.asarray(y), [0, 2, 3]), npP.polyfit(x, y, [0, 2, 3]), rtol=1e-8)
    w = rng.uniform(0.5, 1.5, 30)
    _close(cpP.polyfit(cp.asarray(x), cp.asarray(y), 2, w=cp.asarray(w)), npP.polyfit(x, y, 2, w=w), rtol=1e-8)
    got, ref = cpP.polyfit(cp.asarray(x), cp.asarray(y), 3, full=True), npP.polyfit(x, y, 3, full=True)
    _close(got[0], ref[0], rtol=1e-8)
    assert got[1][1] == ref[1][1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cpP.polyfit(cp.asarray(x), cp.asarray(y), 3)
