"""Host-only: dtype promotion and ufunc loop resolution equal NumPy 2's (NEP 50 weak Python scalars
included) for every ufunc and every dtype pair; ufunc attributes equal NumPy's."""
import numpy as np
import pytest

import cuarray as cp

from helpers import ALL_DTYPES, PY_SCALAR_TYPES, UFUNC_NAMES, builtin_bases, numpy_outcome

OPERANDS = ALL_DTYPES + PY_SCALAR_TYPES
CASTING = ("no", "equiv", "safe", "same_kind", "unsafe")


def _outcome(call):
    result, exc = numpy_outcome(call)
    return ("raise", type(exc)) if exc is not None else ("ok", result)


def _same(cp_out, np_out):
    """None if equivalent, else a description of the difference."""
    if np_out[0] == "raise":
        if cp_out[0] != "raise":
            return f"NumPy raises {np_out[1].__name__}, cuarray returns {cp_out[1]!r}"
        missing = [b.__name__ for b in builtin_bases(np_out[1]) if not issubclass(cp_out[1], b)]
        return f"cuarray raises {cp_out[1].__name__}, not a {missing}" if missing else None
    if cp_out[0] == "raise":
        return f"cuarray raises {cp_out[1].__name__}, NumPy returns {np_out[1]!r}"
    got, ref = cp_out[1], np_out[1]
    if isinstance(ref, tuple):
        ok = isinstance(got, tuple) and len(got) == len(ref) and all(
            np.dtype(g) == r for g, r in zip(got, ref))
    elif isinstance(ref, np.dtype):
        ok = isinstance(got, np.dtype) and got == ref
    else:
        ok = type(got) is type(ref) and got == ref
    return None if ok else f"cuarray {got!r} != NumPy {ref!r}"


def _name(x):
    return x.__name__ if isinstance(x, type) else str(x)


def _outside_our_dtypes(outcome):
    """NumPy answered with a dtype cuarray does not have (object, for comparisons of two Python
    ints): there is nothing to match."""
    if outcome[0] != "ok" or not isinstance(outcome[1], tuple):
        return False
    return any(np.dtype(d) not in ALL_DTYPES for d in outcome[1])


def _check_all(cases):
    """cases: iterable of (label, numpy call, cuarray call); all mismatches are reported at once."""
    problems = []
    for label, np_call, cp_call in cases:
        expected = _outcome(np_call)
        if _outside_our_dtypes(expected):
            continue
        diff = _same(_outcome(cp_call), expected)
        if diff:
            problems.append(f"{label}: {diff}")
    assert not problems, f"{len(problems)} mismatches:\n" + "\n".join(problems)


@pytest.mark.parametrize("name", UFUNC_NAMES)
@pytest.mark.parametrize("first", OPERANDS)
def test_ufunc_resolve_dtypes(name, first):
    np_uf, cp_uf = getattr(np, name), getattr(cp, name)
    seconds = OPERANDS if np_uf.nin == 2 else [None]
    cases = []
    for second in seconds:
        ins = (first,) if second is None else (first, second)
        sig = ins + (None,) * np_uf.nout
        label = f"{name}.resolve_dtypes(({', '.join(map(_name, ins))}, ...))"
        cases.append((label, lambda s=sig: np_uf.resolve_dtypes(s),
                      lambda s=sig: cp_uf.resolve_dtypes(s)))
    _check_all(cases)


@pytest.mark.parametrize("name", ["add", "multiply", "true_divide", "sqrt", "less", "divmod"])
@pytest.mark.parametrize("out", ALL_DTYPES)
def test_ufunc_resolve_dtypes_with_output(name, out):
    """A fixed output dtype takes part in loop selection (and casting='same_kind' checks)."""
    np_uf, cp_uf = getattr(np, name), getattr(cp, name)
    cases = []
    for inp in ALL_DTYPES:
        sig = (inp,) * np_uf.nin + (out,) * np_uf.nout
        for casting in ("same_kind", "unsafe"):
            cases.append((f"{name}.resolve_dtypes({sig}, casting={casting})",
                          lambda s=sig, c=casting: np_uf.resolve_dtypes(s, casting=c),
                          lambda s=sig, c=casting: cp_uf.resolve_dtypes(s, casting=c)))
    _check_all(cases)


@pytest.mark.parametrize("first", ALL_DTYPES)
def test_promote_types(first):
    _check_all((f"promote_types({first}, {d})",
                lambda d=d: np.promote_types(first, d), lambda d=d: cp.promote_types(first, d))
               for d in ALL_DTYPES)


SCALAR_VALUES = [True, 3, -3, 300, 2**40, 2**63, 1.5, 1e300, 1.5 - 2j,
                 np.float32(1.5), np.int8(3), np.uint64(7), np.complex64(1j), np.float16(2)]


@pytest.mark.parametrize("first", ALL_DTYPES)
def test_result_type(first):
    cases = [(f"result_type({first}, {d})", lambda d=d: np.result_type(first, d),
              lambda d=d: cp.result_type(first, d)) for d in ALL_DTYPES]
    cases += [(f"result_type({first}, {v!r})", lambda v=v: np.result_type(first, v),
               lambda v=v: cp.result_type(first, v)) for v in SCALAR_VALUES]
    cases += [(f"result_type({first}, int8, 1.0)", lambda: np.result_type(first, np.int8, 1.0),
               lambda: cp.result_type(first, np.int8, 1.0))]
    _check_all(cases)


@pytest.mark.parametrize("first", ALL_DTYPES)
def test_can_cast(first):
    _check_all((f"can_cast({first}, {d}, {c!r})",
                lambda d=d, c=c: np.can_cast(first, d, casting=c),
                lambda d=d, c=c: cp.can_cast(first, d, casting=c))
               for d in ALL_DTYPES for c in CASTING)


@pytest.mark.parametrize("value", [3, 1.5, 1j, True])
def test_can_cast_python_scalars(value):
    """NumPy 2 refuses Python int/float/complex in can_cast (TypeError)."""
    _check_all([(f"can_cast({value!r}, float32)", lambda: np.can_cast(value, np.float32),
                 lambda: cp.can_cast(value, np.float32))])


_OUR_CHARS = set("?bBhHiIlLefdFD")


def _normalise_types(types):
    mapped = {t.replace("q", "l").replace("Q", "L") for t in types}
    return {t for t in mapped if set(t.replace("->", "")) <= _OUR_CHARS}


@pytest.mark.parametrize("name", UFUNC_NAMES)
def test_ufunc_attributes(name):
    np_uf, cp_uf = getattr(np, name), getattr(cp, name)
    assert cp_uf.nin == np_uf.nin
    assert cp_uf.nout == np_uf.nout
    assert cp_uf.nargs == np_uf.nargs
    assert cp_uf.__name__ == np_uf.__name__
    got = {t.replace("q", "l").replace("Q", "L") for t in cp_uf.types}
    want = _normalise_types(np_uf.types)
    assert got == want, (f"{name}.types: missing {sorted(want - got)}, "
                         f"unexpected {sorted(got - want)}")
