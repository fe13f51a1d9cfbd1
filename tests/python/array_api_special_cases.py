"""The Array API standard's (2024.12) special cases for real floating-point operands of acos, acosh,
asin, asinh, atan, atanh, expm1, atan2, pow and floor_divide, written as data.

A case is (function, operand domains, expected): each domain names a set of values (DOMAINS,
strategies of hypothesis per float width), expected is the standard's result (NaN, a signed zero,
an infinity, or a multiple of pi compared to a few ulps). NUMPY_DEVIATES lists the cases where
NumPy 2 gives another result: cuarray follows NumPy there (docs/array-api.md).
"""
import math

import numpy as np
from hypothesis import strategies as st

NAN = math.nan
INF = math.inf
PI = math.pi


def _floats(width, lo=None, hi=None, *, exclude_lo=False, exclude_hi=False):
    """Finite floats of `width` bits in [lo, hi] (bounds None: unbounded)."""
    return st.floats(min_value=lo, max_value=hi, exclude_min=exclude_lo and lo is not None,
                     exclude_max=exclude_hi and hi is not None, allow_nan=False, allow_infinity=False,
                     width=width)


def _odd_int(width, sign):
    top = 2 ** 24 - 1 if width == 32 else 2 ** 53 - 1
    return st.integers(0, (top - 1) // 2).map(lambda k: float(sign * (2 * k + 1)))


def _non_integer(sign):
    """Finite values of `sign` with a fractional part (k + f, exactly representable in float32
    for k < 2**16 and f a multiple of 1/128 in (0, 1))."""
    return st.tuples(st.integers(0, 2 ** 16), st.integers(1, 127)).map(lambda kf: sign * (kf[0] + kf[1] / 128))


def _not_odd_int(width, sign):
    """Values of `sign` that are not odd integers: non-integers, even integers, and the large
    floats (all even integers)."""
    top = 2.0 ** (24 if width == 32 else 53)
    return st.one_of(_non_integer(sign), st.integers(0, 2 ** 20).map(lambda k: sign * 2.0 * k).filter(bool),
                     _floats(width, top, None).map(lambda v: sign * v))


DOMAINS = {
    "nan": lambda w: st.just(NAN),
    "+0": lambda w: st.just(0.0),
    "-0": lambda w: st.just(-0.0),
    "+1": lambda w: st.just(1.0),
    "-1": lambda w: st.just(-1.0),
    "+inf": lambda w: st.just(INF),
    "-inf": lambda w: st.just(-INF),
    "any": lambda w: st.floats(width=w),
    "not +1": lambda w: st.floats(width=w).filter(lambda v: v != 1.0),
    "not 0": lambda w: st.floats(width=w).filter(lambda v: v != 0.0),
    "finite": lambda w: _floats(w),
    "> 0": lambda w: st.one_of(_floats(w, 0.0, None, exclude_lo=True), st.just(INF)),
    "< 0": lambda w: st.one_of(_floats(w, None, 0.0, exclude_hi=True), st.just(-INF)),
    "finite > 0": lambda w: _floats(w, 0.0, None, exclude_lo=True),
    "finite < 0": lambda w: _floats(w, None, 0.0, exclude_hi=True),
    "> 1": lambda w: st.one_of(_floats(w, 1.0, None, exclude_lo=True), st.just(INF)),
    "< -1": lambda w: st.one_of(_floats(w, None, -1.0, exclude_hi=True), st.just(-INF)),
    "< 1": lambda w: st.one_of(_floats(w, None, 1.0, exclude_hi=True), st.just(-INF)),
    "|x| > 1": lambda w: st.one_of(_floats(w, 1.0, None, exclude_lo=True), _floats(w, None, -1.0, exclude_hi=True),
                                   st.sampled_from([INF, -INF])),
    "|x| < 1": lambda w: _floats(w, -1.0, 1.0, exclude_lo=True, exclude_hi=True),
    "finite < 0, non-integer": lambda w: _non_integer(-1),
    "finite non-integer": lambda w: st.one_of(_non_integer(1), _non_integer(-1)),
    "odd integer > 0": lambda w: _odd_int(w, 1),
    "odd integer < 0": lambda w: _odd_int(w, -1),
    "> 0, not an odd integer": lambda w: st.one_of(_not_odd_int(w, 1), st.just(INF)),
    "< 0, not an odd integer": lambda w: st.one_of(_not_odd_int(w, -1), st.just(-INF)),
}

CASES = [
    # acos
    ("acos", ("nan",), NAN), ("acos", ("> 1",), NAN), ("acos", ("< -1",), NAN), ("acos", ("+1",), 0.0),
    # acosh
    ("acosh", ("nan",), NAN), ("acosh", ("< 1",), NAN), ("acosh", ("+1",), 0.0), ("acosh", ("+inf",), INF),
    # asin
    ("asin", ("nan",), NAN), ("asin", ("> 1",), NAN), ("asin", ("< -1",), NAN), ("asin", ("+0",), 0.0),
    ("asin", ("-0",), -0.0),
    # asinh
    ("asinh", ("nan",), NAN), ("asinh", ("+0",), 0.0), ("asinh", ("-0",), -0.0), ("asinh", ("+inf",), INF),
    ("asinh", ("-inf",), -INF),
    # atan
    ("atan", ("nan",), NAN), ("atan", ("+0",), 0.0), ("atan", ("-0",), -0.0), ("atan", ("+inf",), PI / 2),
    ("atan", ("-inf",), -PI / 2),
    # atanh
    ("atanh", ("nan",), NAN), ("atanh", ("< -1",), NAN), ("atanh", ("> 1",), NAN), ("atanh", ("-1",), -INF),
    ("atanh", ("+1",), INF), ("atanh", ("+0",), 0.0), ("atanh", ("-0",), -0.0),
    # expm1
    ("expm1", ("nan",), NAN), ("expm1", ("+0",), 0.0), ("expm1", ("-0",), -0.0), ("expm1", ("+inf",), INF),
    ("expm1", ("-inf",), -1.0),
    # atan2
    ("atan2", ("nan", "any"), NAN), ("atan2", ("any", "nan"), NAN),
    ("atan2", ("finite > 0", "+0"), PI / 2), ("atan2", ("finite > 0", "-0"), PI / 2),
    ("atan2", ("+0", "finite > 0"), 0.0), ("atan2", ("+0", "+0"), 0.0), ("atan2", ("+0", "-0"), PI),
    ("atan2", ("+0", "finite < 0"), PI), ("atan2", ("-0", "finite > 0"), -0.0), ("atan2", ("-0", "+0"), -0.0),
    ("atan2", ("-0", "-0"), -PI), ("atan2", ("-0", "finite < 0"), -PI),
    ("atan2", ("finite < 0", "+0"), -PI / 2), ("atan2", ("finite < 0", "-0"), -PI / 2),
    ("atan2", ("finite > 0", "+inf"), 0.0), ("atan2", ("finite > 0", "-inf"), PI),
    ("atan2", ("finite < 0", "+inf"), -0.0), ("atan2", ("finite < 0", "-inf"), -PI),
    ("atan2", ("+inf", "finite"), PI / 2), ("atan2", ("-inf", "finite"), -PI / 2),
    ("atan2", ("+inf", "+inf"), PI / 4), ("atan2", ("+inf", "-inf"), 3 * PI / 4),
    ("atan2", ("-inf", "+inf"), -PI / 4), ("atan2", ("-inf", "-inf"), -3 * PI / 4),
    # pow
    ("pow", ("not +1", "nan"), NAN), ("pow", ("any", "+0"), 1.0), ("pow", ("any", "-0"), 1.0),
    ("pow", ("nan", "not 0"), NAN), ("pow", ("+1", "any"), 1.0),
    ("pow", ("|x| > 1", "+inf"), INF), ("pow", ("|x| > 1", "-inf"), 0.0),
    ("pow", ("-1", "+inf"), 1.0), ("pow", ("-1", "-inf"), 1.0),
    ("pow", ("|x| < 1", "+inf"), 0.0), ("pow", ("|x| < 1", "-inf"), INF),
    ("pow", ("+inf", "> 0"), INF), ("pow", ("+inf", "< 0"), 0.0),
    ("pow", ("-inf", "odd integer > 0"), -INF), ("pow", ("-inf", "> 0, not an odd integer"), INF),
    ("pow", ("-inf", "odd integer < 0"), -0.0), ("pow", ("-inf", "< 0, not an odd integer"), 0.0),
    ("pow", ("+0", "> 0"), 0.0), ("pow", ("+0", "< 0"), INF),
    ("pow", ("-0", "odd integer > 0"), -0.0), ("pow", ("-0", "> 0, not an odd integer"), 0.0),
    ("pow", ("-0", "odd integer < 0"), -INF), ("pow", ("-0", "< 0, not an odd integer"), INF),
    ("pow", ("finite < 0, non-integer", "finite non-integer"), NAN),
    # floor_divide
    ("floor_divide", ("nan", "any"), NAN), ("floor_divide", ("any", "nan"), NAN),
    ("floor_divide", ("+inf", "+inf"), NAN), ("floor_divide", ("+inf", "-inf"), NAN),
    ("floor_divide", ("-inf", "+inf"), NAN), ("floor_divide", ("-inf", "-inf"), NAN),
    ("floor_divide", ("+0", "+0"), NAN), ("floor_divide", ("+0", "-0"), NAN),
    ("floor_divide", ("-0", "+0"), NAN), ("floor_divide", ("-0", "-0"), NAN),
    ("floor_divide", ("+0", "> 0"), 0.0), ("floor_divide", ("-0", "> 0"), -0.0),
    ("floor_divide", ("+0", "< 0"), -0.0), ("floor_divide", ("-0", "< 0"), 0.0),
    ("floor_divide", ("> 0", "+0"), INF), ("floor_divide", ("> 0", "-0"), -INF),
    ("floor_divide", ("< 0", "+0"), -INF), ("floor_divide", ("< 0", "-0"), INF),
    ("floor_divide", ("+inf", "finite > 0"), INF), ("floor_divide", ("+inf", "finite < 0"), -INF),
    ("floor_divide", ("-inf", "finite > 0"), -INF), ("floor_divide", ("-inf", "finite < 0"), INF),
    ("floor_divide", ("finite > 0", "+inf"), 0.0), ("floor_divide", ("finite > 0", "-inf"), -0.0),
    ("floor_divide", ("finite < 0", "+inf"), -0.0), ("floor_divide", ("finite < 0", "-inf"), 0.0),
]

# Where NumPy 2 gives another result than the standard: (function, domains) -> NumPy's result.
# floor_divide: NumPy pairs // with % (a == a % b + b * (a // b)): inf // finite is NaN, and a
# finite value over an infinity of the other sign floors to -1.
NUMPY_DEVIATES = {
    ("floor_divide", ("+inf", "finite > 0")): NAN,
    ("floor_divide", ("+inf", "finite < 0")): NAN,
    ("floor_divide", ("-inf", "finite > 0")): NAN,
    ("floor_divide", ("-inf", "finite < 0")): NAN,
    ("floor_divide", ("finite > 0", "-inf")): -1.0,
    ("floor_divide", ("finite < 0", "+inf")): -1.0,
}


def case_id(case):
    name, domains, expected = case
    return f"{name}({', '.join(domains)})->{expected}"


def operands(case, dtype):
    """A hypothesis strategy of the case's operands as a tuple of Python floats that `dtype` holds."""
    width = np.finfo(dtype).bits
    return st.tuples(*(DOMAINS[d](width) for d in case[1]))


def numpy_expected(case):
    """What NumPy (and so cuarray) must give: the standard's value unless NumPy deviates."""
    return NUMPY_DEVIATES.get(case[:2], case[2])


def matches(value, expected, dtype):
    """value (a NumPy scalar of dtype) is expected: NaN for NaN, the same signed zero or infinity,
    a multiple of pi within 2 ulps of dtype."""
    value = float(value)
    if math.isnan(expected):
        return math.isnan(value)
    if expected == 0 or math.isinf(expected) or abs(expected) == 1.0:
        return value == expected and math.copysign(1, value) == math.copysign(1, expected)
    return abs(value - expected) <= 2 * float(np.spacing(np.abs(dtype.type(expected))))
