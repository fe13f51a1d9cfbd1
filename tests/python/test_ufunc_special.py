"""Special values and edge cases of ufuncs: NaN/inf/-0.0 handling, integer division by zero,
INT_MIN / -1, shifts past the bit width, invalid domains giving NaN, broadcasting errors."""
import numpy as np
import pytest

import cuarray as cp

from helpers import (ALL_DTYPES, COMPLEX, FLOAT, INTEGER, INT, assert_allclose_np,
                     assert_array_equal_np, check_like_numpy, numpy_outcome, random_array)

pytestmark = pytest.mark.gpu

SHAPE = (6, 50)

NAN_AWARE = ["maximum", "minimum", "fmax", "fmin", "equal", "not_equal", "less", "less_equal",
             "greater", "greater_equal", "isnan", "isinf", "isfinite", "signbit", "copysign",
             "nextafter", "spacing", "floor", "ceil", "trunc", "rint", "absolute", "negative",
             "sign", "heaviside", "fabs", "logical_and", "logical_not", "sqrt", "frexp", "modf"]
# Complex special values only where C99 Annex G leaves no freedom that NumPy and CUDA could differ in.
NAN_AWARE_COMPLEX = ["maximum", "minimum", "fmax", "fmin", "equal", "not_equal", "less",
                     "less_equal", "greater", "greater_equal", "isnan", "isinf", "isfinite",
                     "absolute", "negative", "logical_and", "logical_not"]
SPECIAL_CASES = ([(n, d) for n in NAN_AWARE for d in FLOAT]
                 + [(n, d) for n in NAN_AWARE_COMPLEX for d in COMPLEX])


@pytest.mark.parametrize("name, dtype", SPECIAL_CASES)
def test_special_values(name, dtype, rng):
    """nan, inf, -inf, -0.0 and 0.0 mixed into random data; NaN propagation rules must match."""
    uf = getattr(np, name)
    host = [random_array(SHAPE, dtype, rng, special=True, ties=True) for _ in range(uf.nin)]
    dev = [cp.asarray(h) for h in host]
    exact_zero_sign = name in ("copysign", "negative", "signbit", "nextafter", "spacing", "fabs",
                               "absolute", "floor", "ceil", "trunc", "rint", "modf")

    def compare(gpu, ref):
        if np.asarray(ref).dtype.kind == "c" or dtype.kind == "c":
            assert_allclose_np(gpu, ref)
        else:
            assert_array_equal_np(gpu, ref, signed_zeros=exact_zero_sign)

    check_like_numpy(lambda: uf(*host), lambda: getattr(cp, name)(*dev), compare=compare)


@pytest.mark.parametrize("name", ["maximum", "minimum", "fmax", "fmin"])
@pytest.mark.parametrize("dtype", FLOAT)
def test_nan_propagation_explicit(name, dtype):
    a = np.array([np.nan, 1.0, np.nan, -np.inf, np.inf, 2.0, -0.0], dtype=dtype)
    b = np.array([1.0, np.nan, np.nan, 5.0, np.nan, -np.inf, 3.0], dtype=dtype)
    assert_array_equal_np(getattr(cp, name)(cp.asarray(a), cp.asarray(b)), getattr(np, name)(a, b))


@pytest.mark.parametrize("name", ["floor_divide", "remainder", "fmod", "divmod", "true_divide"])
@pytest.mark.parametrize("dtype", INTEGER + [np.dtype(np.bool_)])
def test_integer_division_by_zero(name, dtype, rng):
    a = random_array(SHAPE, dtype, rng)
    b = random_array(SHAPE, dtype, rng, low=-3, high=3, zeros=True)
    b.flat[:3] = 0
    check_like_numpy(lambda: getattr(np, name)(a, b), lambda: getattr(cp, name)(cp.asarray(a), cp.asarray(b)))


@pytest.mark.parametrize("name", ["floor_divide", "remainder", "fmod", "divmod"])
@pytest.mark.parametrize("dtype", INT)
def test_int_min_divided_by_minus_one(name, dtype):
    info = np.iinfo(dtype)
    a = np.array([info.min, info.min, info.max, -7, 7, info.min], dtype=dtype)
    b = np.array([-1, 1, -1, 2, -2, info.min], dtype=dtype)
    check_like_numpy(lambda: getattr(np, name)(a, b), lambda: getattr(cp, name)(cp.asarray(a), cp.asarray(b)))


@pytest.mark.parametrize("name", ["floor_divide", "remainder", "fmod", "divmod", "true_divide"])
@pytest.mark.parametrize("dtype", FLOAT)
def test_float_division_signs_and_zero(name, dtype, rng):
    """Sign conventions (remainder takes the divisor's sign, fmod the dividend's) and x / 0."""
    a = random_array(SHAPE, dtype, rng, low=-20, high=20, ties=True)
    b = random_array(SHAPE, dtype, rng, low=-5, high=5, ties=True, zeros=True)
    check_like_numpy(lambda: getattr(np, name)(a, b),
                     lambda: getattr(cp, name)(cp.asarray(a), cp.asarray(b)),
                     compare=assert_allclose_np)


@pytest.mark.parametrize("name", ["left_shift", "right_shift"])
@pytest.mark.parametrize("dtype", INTEGER)
def test_shift_by_bit_width_or_more(name, dtype, rng):
    a = random_array(SHAPE, dtype, rng)
    bits = 8 * dtype.itemsize
    b = rng.integers(bits - 2, bits + 40, size=SHAPE).astype(dtype)
    check_like_numpy(lambda: getattr(np, name)(a, b),
                     lambda: getattr(cp, name)(cp.asarray(a), cp.asarray(b)))


@pytest.mark.parametrize("dtype", INT)
def test_integer_overflow_wraps(dtype, rng):
    info = np.iinfo(dtype)
    a = np.array([info.max, info.min, info.max, info.min, -1], dtype=dtype)
    b = np.array([1, -1, info.max, info.min, info.min], dtype=dtype)
    for name in ("add", "subtract", "multiply", "negative", "absolute", "square"):
        uf = getattr(np, name)
        args = (a, b)[: uf.nin]
        check_like_numpy(lambda: uf(*args), lambda: getattr(cp, name)(*[cp.asarray(x) for x in args]))


@pytest.mark.parametrize("dtype", INT)
def test_integer_power_edge_cases(dtype):
    a = np.array([0, 1, -1, 2, -2, 3, 0, 7], dtype=dtype)
    b = np.array([0, 100, 101, 7, 7, 0, 5, 62], dtype=dtype) % np.iinfo(dtype).max
    check_like_numpy(lambda: np.power(a, b), lambda: cp.power(cp.asarray(a), cp.asarray(b)))


INVALID_DOMAIN = [
    ("sqrt", [-1.0, -0.5, -np.inf]), ("log", [-1.0, 0.0, -0.0, -np.inf]), ("log2", [-2.0, 0.0]),
    ("log10", [-3.0, 0.0]), ("log1p", [-2.0, -1.0]), ("arcsin", [1.5, -2.0, np.inf]),
    ("arccos", [1.0001, -3.0]), ("arccosh", [0.5, -1.0]), ("arctanh", [1.5, 1.0, -1.0]),
    ("power", [-2.0, -0.5]), ("float_power", [-2.0, -8.0]), ("fmod", [np.inf, 5.0]),
    ("remainder", [np.inf, -np.inf]), ("sin", [np.inf]), ("cos", [-np.inf]), ("tan", [np.inf]),
]


@pytest.mark.parametrize("dtype", FLOAT)
@pytest.mark.parametrize("name, values", INVALID_DOMAIN, ids=[c[0] for c in INVALID_DOMAIN])
def test_invalid_domain_gives_nan(name, values, dtype):
    a = np.array(values, dtype=dtype)
    args = [a] if getattr(np, name).nin == 1 else [a, np.array([0.5, 0.0, 0.0, 0.0][:len(values)],
                                                               dtype=dtype)]
    ref, _ = numpy_outcome(lambda: getattr(np, name)(*args))
    assert np.isnan(ref).any() or np.isinf(ref).any()  # the case really leaves the domain
    assert_array_equal_np(getattr(cp, name)(*[cp.asarray(x) for x in args]), ref)


@pytest.mark.parametrize("dtype", COMPLEX)
def test_complex_functions_at_branch_points(dtype):
    a = np.array([0, -1, 1, 1j, -1j, -4, 2 + 0j], dtype=dtype)
    for name in ("sqrt", "log", "exp", "absolute", "sign", "square"):
        with np.errstate(all="ignore"):
            ref = getattr(np, name)(a)
        assert_allclose_np(getattr(cp, name)(cp.asarray(a)), ref)


@pytest.mark.parametrize("shapes", [((3, 4), (5,)), ((2, 3), (3, 2)), ((4, 1, 3), (2, 4)),
                                    ((0,), (2,))], ids=repr)
def test_broadcast_mismatch_error_names_both_shapes(shapes, rng):
    a, b = (random_array(s, np.float32, rng) for s in shapes)
    with pytest.raises(ValueError) as info:
        cp.add(cp.asarray(a), cp.asarray(b))
    msg = str(info.value).replace(" ", "")
    for shape in shapes:
        assert str(shape).replace(" ", "") in msg, f"{shape} not in {info.value}"


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_comparisons_return_bool(dtype, rng):
    a = random_array(SHAPE, dtype, rng, ties=True, low=-3, high=3)
    b = random_array(SHAPE, dtype, rng, ties=True, low=-3, high=3)
    for name in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"):
        got = getattr(cp, name)(cp.asarray(a), cp.asarray(b))
        assert got.dtype == np.bool_
        assert_array_equal_np(got, getattr(np, name)(a, b))
