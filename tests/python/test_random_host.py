"""cuarray.random without a GPU: the API surface against NumPy's, and every invalid scalar
parameter raising NumPy's exception with NumPy's message before any GPU work. With a GPU, the
parameters NumPy accepts must be accepted too (the same sweep, run)."""
import inspect
import math

import numpy as np
import pytest

import cuarray as cp
from helpers import gpu_unavailable_reason

# Valid parameters for every table-driven distribution (NumPy's name -> positional parameters).
VALID = {
    "uniform": (0.0, 1.0), "normal": (0.0, 1.0), "exponential": (1.0,), "standard_gamma": (1.0,),
    "gamma": (1.0, 1.0), "beta": (1.0, 1.0), "chisquare": (1.0,), "noncentral_chisquare": (1.0, 1.0),
    "f": (1.0, 1.0), "noncentral_f": (1.0, 1.0, 1.0), "standard_t": (1.0,), "pareto": (1.0,),
    "weibull": (1.0,), "power": (1.0,), "laplace": (0.0, 1.0), "gumbel": (0.0, 1.0),
    "logistic": (0.0, 1.0), "lognormal": (0.0, 1.0), "rayleigh": (1.0,), "vonmises": (0.0, 1.0),
    "wald": (1.0, 1.0), "triangular": (0.0, 0.5, 1.0), "binomial": (10, 0.5),
    "negative_binomial": (1.0, 0.5), "poisson": (1.0,), "geometric": (0.5,),
    "hypergeometric": (5, 5, 3), "logseries": (0.5,), "zipf": (2.0,),
}
SWEEP = (-1.0, -0.0, 0.0, 0.5, 1.0, 1.5, math.nan, math.inf, -math.inf, 1e20, 2e9)
INT_PARAMS = {"binomial": (0,), "hypergeometric": (0, 1, 2)}


def _calls():
    for name, valid in VALID.items():
        for k in range(len(valid)):
            for v in SWEEP:
                if k in INT_PARAMS.get(name, ()) and not (math.isfinite(v) and abs(v) < 1e19):
                    continue  # NumPy's int conversion raises its own errors for these
                params = list(valid)
                params[k] = int(v) if k in INT_PARAMS.get(name, ()) else v
                yield name, tuple(params)


CALLS = list(_calls())
# NumPy's RandomState loops forever on these (cuarray returns mu and 1, as NumPy's Generator does).
NUMPY_HANGS = {("vonmises", (0.0, math.inf)), ("vonmises", (0.0, 1e20)), ("zipf", (math.inf,)), ("zipf", (1e20,)),
               ("zipf", (2e9,))}


def _numpy(api):
    return np.random.RandomState(0) if api == "legacy" else np.random.default_rng(0)


def _cuarray(api):
    return cp.random.RandomState(0) if api == "legacy" else cp.random.default_rng(0)


def _sane(params):
    """Parameters a GPU run may take: finite and moderate (huge ones only test host checks)."""
    return all(math.isfinite(p) and abs(p) <= 2e9 for p in params)


@pytest.mark.parametrize("api", ["legacy", "generator"])
@pytest.mark.parametrize("name, params", CALLS, ids=[f"{n}{p}" for n, p in CALLS])
def test_scalar_parameters_match_numpy(api, name, params):
    if api == "legacy" and (name, params) in NUMPY_HANGS:
        api = "generator"  # the same checks; NumPy's Generator terminates
    try:
        with np.errstate(all="ignore"):
            getattr(_numpy(api), name)(*params, size=3)
        numpy_error = None
    except (ValueError, OverflowError) as e:
        numpy_error = e
    if numpy_error is not None:
        with pytest.raises(type(numpy_error)) as info:
            getattr(_cuarray(api), name)(*params, size=3)
        assert str(info.value) == str(numpy_error)
        return
    if gpu_unavailable_reason() is not None or not _sane(params):
        pytest.skip("NumPy accepts these parameters: running them needs a GPU")
    values = getattr(_cuarray(api), name)(*params, size=3)
    assert values.shape == (3,)


@pytest.mark.parametrize("api", ["legacy", "generator"])
@pytest.mark.parametrize("call", [
    lambda r, i: i(r, 5, 5), lambda r, i: i(r, 5, 4), lambda r, i: i(r, 0), lambda r, i: i(r, -3),
    lambda r, i: i(r, -1, 5, dtype=np.uint8), lambda r, i: i(r, 0, 257, dtype=np.uint8),
    lambda r, i: i(r, 0, 2**40, dtype=np.int32), lambda r, i: i(r, 0, 3, dtype=bool),
    lambda r, i: i(r, 0, 5, dtype=np.float32), lambda r, i: i(r, -2**63 - 1, 0),
    lambda r, i: i(r, 0, 2**64 + 1, dtype=np.uint64),
])
def test_integer_bounds_match_numpy(api, call):
    def integers(rng, *args, **kwargs):
        return (rng.randint if api == "legacy" else rng.integers)(*args, **kwargs)

    with pytest.raises(Exception) as expected:
        call(_numpy(api), integers)
    with pytest.raises(type(expected.value)) as got:
        call(_cuarray(api), integers)
    assert str(got.value) == str(expected.value)


def test_generator_endpoint_bounds():
    with pytest.raises(ValueError, match="^low > high$"):
        cp.random.default_rng(0).integers(5, 4, endpoint=True)
    with pytest.raises(ValueError, match="^high is out of bounds for uint8$"):
        cp.random.default_rng(0).integers(0, 256, dtype=np.uint8, endpoint=True)


@pytest.mark.parametrize("method, kwargs", [
    ("random", {"dtype": np.int32}), ("random", {"dtype": np.float16}),
    ("standard_normal", {"dtype": np.int64}), ("standard_exponential", {"dtype": np.complex64}),
])
def test_generator_float_dtypes_match_numpy(method, kwargs):
    with pytest.raises(TypeError) as expected:
        getattr(np.random.default_rng(0), method)(**kwargs)
    with pytest.raises(TypeError) as got:
        getattr(cp.random.default_rng(0), method)(**kwargs)
    assert str(got.value) == str(expected.value)
    with pytest.raises(TypeError) as got:
        cp.random.default_rng(0).standard_gamma(1.0, dtype=np.int32)
    assert str(got.value) == "Unsupported dtype dtype('int32') for standard_gamma"


def test_size_must_be_integers():
    with pytest.raises(TypeError):
        cp.random.RandomState(0).normal(size=2.5)
    with pytest.raises(TypeError):
        cp.random.default_rng(0).random(size=(2, 1.5))


# ---- the API surface ----

def _public(cls):
    return {n for n, v in inspect.getmembers(cls) if not n.startswith("_") and callable(v)}


COMPOSITES = {"choice", "permutation", "shuffle", "bytes", "multinomial", "multivariate_normal", "dirichlet",
              "permuted", "multivariate_hypergeometric"}


def test_random_state_has_every_numpy_method():
    missing = _public(np.random.RandomState) - _public(cp.random.RandomState) - COMPOSITES
    assert not missing, missing


def test_generator_has_every_numpy_method():
    missing = _public(np.random.Generator) - _public(cp.random.Generator) - COMPOSITES
    assert not missing, missing


def test_module_functions_wrap_every_random_state_method():
    for name in _public(cp.random.RandomState):
        assert callable(getattr(cp.random, name)), name
        assert getattr(cp.random, name).__doc__ == getattr(cp.random.RandomState, name).__doc__
    for name in ("ranf", "sample", "random", "random_sample", "rand", "randn", "seed", "get_random_state",
                 "set_random_state", "default_rng", "Generator", "RandomState", "Philox"):
        assert hasattr(cp.random, name), name
    # Every function of numpy.random's module besides the composites (rcomp's part).
    numpy_functions = {n for n in dir(np.random) if not n.startswith("_") and callable(getattr(np.random, n))
                       and n.islower()}
    numpy_only = {"get_bit_generator", "set_bit_generator", "show_config", "test"}
    missing = numpy_functions - set(dir(cp.random)) - COMPOSITES - numpy_only
    assert not missing, missing


@pytest.mark.parametrize("cls, numpy_cls", [(cp.random.RandomState, np.random.RandomState),
                                            (cp.random.Generator, np.random.Generator)])
def test_parameter_names_match_numpy(cls, numpy_cls):
    for name in set(VALID) | {"random", "standard_normal", "standard_exponential", "standard_cauchy"}:
        if not hasattr(numpy_cls, name):
            continue
        try:
            expected = list(inspect.signature(getattr(numpy_cls, name)).parameters)
        except ValueError:
            continue  # a Cython method without a signature
        expected = [p for p in expected if p != "self"]
        got = [p for p in inspect.signature(getattr(cls, name)).parameters if p != "self"]
        # CuPy's RandomState adds a trailing dtype= to random/standard_normal.
        assert got[:len(expected)] == expected and set(got[len(expected):]) <= {"dtype"}, name


# ---- seeding and state ----

def test_state_round_trip_and_foreign_states():
    rs = cp.random.RandomState(123)
    assert rs.get_state() == ("Philox4x32-10", 123, 0)
    other = cp.random.RandomState(5)
    other.set_state(rs.get_state())
    assert other.get_state() == rs.get_state()
    with pytest.raises(ValueError, match="MT19937"):
        rs.set_state(np.random.RandomState(0).get_state())
    rs.seed(7)
    assert rs.get_state() == ("Philox4x32-10", 7, 0)
    with pytest.raises(ValueError):
        cp.random.RandomState(-1)


@pytest.mark.parametrize("seed", [0, 2**64 - 1, 2**70, [1, 2, 3], np.random.SeedSequence(42)])
def test_seed_forms(seed):
    a, b = cp.random.RandomState(seed), cp.random.RandomState(seed)
    assert a.get_state() == b.get_state()
    g1, g2 = cp.random.default_rng(seed), cp.random.default_rng(seed)
    assert g1.bit_generator.state == g2.bit_generator.state


def test_generator_construction():
    bg = cp.random.Philox(42)
    g = cp.random.Generator(bg)
    assert g.bit_generator is bg
    assert cp.random.default_rng(g) is g
    assert cp.random.default_rng(bg).bit_generator is bg
    children = g.spawn(3)
    keys = {c.bit_generator.state["seed"] for c in children}
    assert len(keys) == 3 and bg.state["seed"] not in keys
    with pytest.raises(TypeError):
        cp.random.Generator(np.random.PCG64(0))
    assert cp.random.default_rng(42).bit_generator.state == cp.random.default_rng(
        cp.random.SeedSequence(42)).bit_generator.state
    assert cp.random.SeedSequence is np.random.SeedSequence


def test_global_random_state():
    rs = cp.random.RandomState(9)
    cp.random.set_random_state(rs)
    assert cp.random.get_random_state() is rs
    cp.random.seed(11)
    assert rs.get_state() == ("Philox4x32-10", 11, 0)
    with pytest.raises(TypeError):
        cp.random.set_random_state(np.random.RandomState(0))


# ---- a property: integers' bound checks agree with NumPy's on any bounds and dtype ----

from hypothesis import given, strategies as st  # noqa: E402

INT_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64, np.bool_]
BOUND = st.one_of(st.integers(-2**63, 2**64 - 1), st.sampled_from([-129, -1, 0, 1, 2, 127, 128, 255, 256, 2**31,
                                                                   2**32, 2**63 - 1, 2**63]))


@given(low=BOUND, high=BOUND, dtype=st.sampled_from(INT_DTYPES), endpoint=st.booleans(),
       api=st.sampled_from(["legacy", "generator"]))
def test_integer_bounds_property(low, high, dtype, endpoint, api):
    if api == "legacy":
        endpoint = False

    def draw(rng):
        if api == "legacy":
            return rng.randint(low, high, size=4, dtype=dtype)
        return rng.integers(low, high, size=4, dtype=dtype, endpoint=endpoint)

    try:
        draw(_numpy(api))
        numpy_error = None
    except (ValueError, OverflowError) as e:
        numpy_error = e
    if numpy_error is not None:
        with pytest.raises(type(numpy_error)) as got:
            draw(_cuarray(api))
        assert str(got.value) == str(numpy_error)
    elif gpu_unavailable_reason() is None:
        values = cp.asnumpy(draw(_cuarray(api)))
        assert values.dtype == np.dtype(dtype)
        top = high if endpoint else high - 1
        assert np.all((values.astype(object) >= low) & (values.astype(object) <= top))
    else:
        with pytest.raises(cp.cuda.runtime.CUDARuntimeError):
            draw(_cuarray(api))  # the checks passed: only the GPU is missing
