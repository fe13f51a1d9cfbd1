"""Host-side checks of cuarray.random's composite operations: every bad argument that NumPy rejects
before drawing raises NumPy's exception type with NumPy's message, with no GPU.

The mixins are exercised through stand-in classes whose draw methods fail the test if called: an
error must come from the argument checks, before any draw or device work.
"""
import numpy as np
import pytest

from cuarray.random import _composites
from cuarray.random._composites import GeneratorComposites, LegacyComposites


class _NoDraws:
    def _drew(self, *args, **kwargs):
        raise AssertionError("a draw happened before the argument checks")

    random_sample = random = randint = integers = standard_normal = standard_gamma = _drew
    binomial = hypergeometric = _random_bits = _permutation_prefix = _drew


class StandInRandomState(_NoDraws, LegacyComposites):
    pass


class StandInGenerator(_NoDraws, GeneratorComposites):
    pass


F32_PVALS = np.array([0.5, 0.50001, 0.0], np.float32)

# (method, args, kwargs) that NumPy rejects before drawing, for both APIs
COMMON_CASES = [
    ("choice", (0,), {}),
    ("choice", (-1,), {}),
    ("choice", (1.5,), {}),
    ("choice", ([],), {}),
    ("choice", (3,), {"p": [[0.5, 0.5, 0]]}),
    ("choice", (3,), {"p": [0.5, 0.5]}),
    ("choice", (3,), {"p": [0.5, np.nan, 0.5]}),
    ("choice", (3,), {"p": [1.5, -0.5, 0]}),
    ("choice", (3,), {"p": [0.5, 0.4, 0]}),
    ("choice", (3,), {"p": [0.5, 0.5, 1e-7]}),
    ("choice", (3,), {"p": np.array([0.5, 0.5, 1e-2], np.float32)}),
    ("choice", (3, 4), {"replace": False}),
    ("choice", (3, -1), {"replace": False}),
    ("choice", (3, -1), {}),
    ("choice", (3, (2, -1)), {}),
    ("choice", (3, -1), {"p": [0.2, 0.3, 0.5]}),
    ("choice", (3, 2), {"replace": False, "p": [1, 0, 0]}),
    ("choice", (3, 2.0), {}),
    ("choice", (np.arange(4), 5), {"replace": False}),
    ("shuffle", (5,), {}),
    ("shuffle", (np.array(5.0),), {}),
    ("bytes", ("a",), {}),
    ("multinomial", (-1, [0.5, 0.5]), {}),
    ("multinomial", (3, [0.7, 0.7, 0.1]), {}),
    ("multinomial", (3, np.array([0.7, 0.7, 0.1])), {}),
    ("multinomial", (3, F32_PVALS), {}),
    ("multinomial", (3, [-0.5, 1.5]), {}),
    ("multinomial", (3, [np.nan, 0.5]), {}),
    ("multinomial", (3, [1.5, -0.5]), {}),
    ("multinomial", (3, [0.2, 5.0]), {}),
    ("multinomial", (3, 0.5), {}),
    ("multinomial", (3, [0.5, 0.5], -1), {}),
    ("dirichlet", ([-1, 1],), {}),
    ("dirichlet", ([[1, 1]],), {}),
    ("dirichlet", (1.0,), {}),
    ("multivariate_normal", ([[0, 0]], np.eye(2)), {}),
    ("multivariate_normal", ([0, 0], [1, 1]), {}),
    ("multivariate_normal", ([0, 0], np.ones((2, 3))), {}),
    ("multivariate_normal", ([0, 0, 0], np.eye(2)), {}),
    ("multivariate_normal", (0, np.eye(1)), {}),
    ("multivariate_normal", ([0, 0], np.eye(2), 2.0), {}),
]

LEGACY_CASES = COMMON_CASES + [
    ("choice", (np.ones((2, 2)),), {}),
    ("permutation", (np.array(5),), {}),
    ("permutation", (5.0,), {}),
    ("permutation", (np.array(5.0),), {}),
    ("multinomial", ([3, 4], [0.2, 0.8]), {}),
    ("multinomial", (3, [[0.5, 0.5]]), {}),
    ("dirichlet", ([0, 1],), {}),
    ("dirichlet", ([0, 0],), {}),
]

GENERATOR_CASES = COMMON_CASES + [
    ("choice", (np.ones((2, 3)),), {"axis": 2}),
    ("choice", (np.ones((2, 3)), 2), {"axis": -3}),
    ("choice", (np.array(3.0),), {}),
    ("permutation", (np.array(5),), {}),
    ("permutation", (5.0,), {}),
    ("permutation", (np.ones((2, 3)),), {"axis": 2}),
    ("permutation", (np.ones((2, 3)),), {"axis": -3}),
    ("shuffle", (np.ones((2, 3)),), {"axis": 2}),
    ("shuffle", ([1, 2, 3],), {"axis": 1}),
    ("permuted", (np.arange(6.0),), {"axis": 1}),
    ("permuted", (np.ones((2, 3)),), {"axis": -3}),
    ("permuted", (np.array(3.0),), {}),
    ("multinomial", ([3, -1], [0.5, 0.5]), {}),
    ("multinomial", (3, [[0.5, 0.5], [0.2, 1.8]]), {}),
    ("multinomial", (3, [[0.5, 0.5, 0.0], [0.6, 0.6, 0.0]]), {}),
    ("multinomial", (3, np.array([[0.5, 0.50001, 0.0]], np.float32)), {}),
    ("multinomial", (3, []), {}),
    ("multinomial", (3, np.ones((2, 0))), {}),
    ("multinomial", ([3, 4], [0.2, 0.8]), {"size": (5, 3)}),
    ("multinomial", ([[3, 4], [5, 6]], [0.2, 0.8]), {"size": (2,)}),
    ("multivariate_normal", ([0j, 0], np.eye(2)), {}),
    ("multivariate_normal", ([0, 0], np.eye(2)), {"method": "x"}),
    ("multivariate_normal", (np.zeros((3, 2)), np.eye(2)), {}),
    ("multivariate_hypergeometric", ([1, 2], 2), {"method": "x"}),
    ("multivariate_hypergeometric", ([1, 2], 2.0), {}),
    ("multivariate_hypergeometric", ([1, 2], -1), {}),
    ("multivariate_hypergeometric", ([1, 2], 2**63), {}),
    ("multivariate_hypergeometric", ([1, -2], 1), {}),
    ("multivariate_hypergeometric", ([1.0, 2.0], 1), {}),
    ("multivariate_hypergeometric", ([[1, 2]], 1), {}),
    ("multivariate_hypergeometric", ([2**64 - 1], 0), {}),
    ("multivariate_hypergeometric", ([10**30], 0), {}),
    ("multivariate_hypergeometric", ([1, 2], 4), {}),
    ("multivariate_hypergeometric", ([2**62, 2**62], 4), {}),
]


def test_multivariate_hypergeometric_beyond_the_hypergeometric_limit():
    # NumPy draws these; cuarray's marginal draws go through hypergeometric(), limited to < 1e9 per kind
    with pytest.raises(NotImplementedError, match="fewer than 1000000000"):
        StandInGenerator().multivariate_hypergeometric([10**9, 5], 3)
    with pytest.raises(NotImplementedError):
        StandInGenerator().multivariate_hypergeometric([5, 6 * 10**8, 6 * 10**8], 3)


def _case_id(case):
    method, args, kwargs = case
    return f"{method}{args!r}{kwargs!r}"[:90]


def _numpy_error(obj, method, args, kwargs):
    with pytest.raises(Exception) as expected:
        getattr(obj, method)(*args, **kwargs)
    return expected.value


def _assert_same_error(ours, theirs, method, args, kwargs):
    expected = _numpy_error(theirs, method, args, kwargs)
    with pytest.raises(type(expected)) as raised:
        getattr(ours, method)(*args, **kwargs)
    assert str(raised.value) == str(expected)
    assert type(raised.value) is type(expected) or isinstance(raised.value, type(expected))


@pytest.mark.parametrize("case", LEGACY_CASES, ids=_case_id)
def test_random_state_errors_match_numpy(case):
    _assert_same_error(StandInRandomState(), np.random.RandomState(0), *case)


@pytest.mark.parametrize("case", GENERATOR_CASES, ids=_case_id)
def test_generator_errors_match_numpy(case):
    _assert_same_error(StandInGenerator(), np.random.default_rng(0), *case)


def test_permuted_out_must_be_a_device_array():
    # NumPy says "out must be a numpy array"; cuarray's out must be a cuarray array
    with pytest.raises(TypeError, match="out must be a cuarray array"):
        StandInGenerator().permuted(np.arange(6.0), out=np.empty(6))


@pytest.mark.parametrize("size, expected", [(None, ()), (3, (3,)), (np.int64(2), (2,)), ((2, 3), (2, 3)),
                                            ([4], (4,)), (np.array([2, 5]), (2, 5)), ((), ())])
def test_shape_tuple(size, expected):
    assert _composites._shape_tuple(size) == expected


@pytest.mark.parametrize("size, k, expected", [(None, 3, (3,)), (4, 3, (4, 3)), ((2, 5), 0, (2, 5, 0)),
                                               ((), 2, (2,))])
def test_trailing_shape_is_numpy_vector_draw_shape(size, k, expected):
    assert _composites._trailing_shape(size, k) == expected
    assert np.random.default_rng(0).dirichlet(np.ones(k), size).shape == expected


def test_key_width_grows_past_2_to_24_elements():
    assert _composites._key_dtype(2**24) == np.uint32
    assert _composites._key_dtype(2**24 + 1) == np.uint64

