"""cuarray.testing's CuPy helpers: the consistency decorators, dtype and order loops, test inputs
and class parameters, used as CuPy's own test suite uses them (``from cupy import testing``)."""
import inspect
import unittest

import numpy
import pytest

import cuarray
from cuarray import testing

# ---- host: loops, parameters, inputs, conditions, error comparison ----


def collect(decorator):
    """The keyword arguments a decorated test is called with, one dict per call."""
    calls = []

    @decorator
    def test(**kw):
        calls.append(kw)
    test()
    return calls


def test_dtype_loops_pass_numpy_scalar_types():
    every = [c["dtype"] for c in collect(testing.for_all_dtypes())]
    assert numpy.float16 in every and numpy.complex128 in every and numpy.bool_ in every and numpy.uint64 in every
    assert all(isinstance(t, type) and issubclass(t, numpy.generic) for t in every)
    fewer = [c["dtype"] for c in collect(testing.for_all_dtypes(no_float16=True, no_bool=True, no_complex=True))]
    assert not {numpy.float16, numpy.bool_, numpy.complex64, numpy.complex128} & set(fewer)
    assert {c["x"] for c in collect(testing.for_float_dtypes(name="x", no_float16=True))} == {numpy.float32,
                                                                                                numpy.float64}
    assert {c["dtype"] for c in collect(testing.for_int_dtypes(no_bool=True))} == \
        {c["dtype"] for c in collect(testing.for_signed_dtypes())} | \
        {c["dtype"] for c in collect(testing.for_unsigned_dtypes())}
    assert [c["dtype"] for c in collect(testing.for_dtypes(["f4", numpy.dtype("i2")]))] == [numpy.float32, numpy.int16]
    assert [c["order"] for c in collect(testing.for_CF_orders())] == [None, "C", "F", "c", "f"]


def test_dtype_combinations_full_and_sampled(monkeypatch):
    types = [numpy.float32, numpy.int8, numpy.bool_]
    full = collect(testing.for_dtypes_combination(types, names=("a", "b"), full=True))
    assert sorted((c["a"].__name__, c["b"].__name__) for c in full) == \
        sorted((a.__name__, b.__name__) for a in types for b in types)
    sampled = collect(testing.for_dtypes_combination(types, names=("a", "b"), full=False))
    assert len(sampled) == 3 and {c["a"] for c in sampled} == {c["b"] for c in sampled} == set(types)
    monkeypatch.setenv("CUPY_TEST_FULL_COMBINATION", "1")
    assert len(collect(testing.for_dtypes_combination(types, names=("a", "b")))) == 9
    assert set(collect(testing.for_all_dtypes_combination())[0]) == {"dtyes"}  # CuPy's default name


def test_a_failing_value_is_printed_and_raised(capsys):
    @testing.for_dtypes([numpy.int8, numpy.float32])
    def test(dtype):
        assert dtype != numpy.float32
    with pytest.raises(AssertionError):
        test()
    assert "dtype = float32" in capsys.readouterr().out


def test_skipped_values_are_passed_over_and_all_skipped_skips():
    ran = []

    @testing.for_dtypes([numpy.int8, numpy.float32])
    def some(dtype):
        if dtype == numpy.int8:
            pytest.skip("no int8")
        ran.append(dtype)
    some()
    assert ran == [numpy.float32]

    @testing.for_dtypes([numpy.int8])
    def every(dtype):
        raise unittest.SkipTest("never")
    with pytest.raises(unittest.SkipTest):
        every()


def test_filled_parameters_leave_the_signature(rng):
    @testing.for_all_dtypes()
    @testing.numpy_cupy_allclose()
    def test(self, xp, dtype, rng):
        pass
    assert list(inspect.signature(test).parameters) == ["self", "rng"]
    assert test.__name__ == "test"


@testing.for_float_dtypes(no_float16=True)
def test_pytest_fixtures_reach_a_looped_test(dtype, rng):
    assert rng is not None and dtype in (numpy.float32, numpy.float64)


def test_contiguous_axes_follow_the_order():
    class Case:
        shape = (1, 2, 3)
        seen = []

        @testing.for_contiguous_axes()
        def check(self, axis):
            self.seen.append(axis)
    case = Case()
    case.order = "C"
    case.check()
    case.order = "f"
    case.check()
    assert Case.seen == [(2,), (1, 2), (0, 1, 2), (0,), (0, 1), (0, 1, 2)]
    case.order = None
    with pytest.raises(ValueError, match="self.order"):
        case.check()


def test_fix_random_repeats_and_restores():
    import random

    @testing.fix_random()
    def draw():
        return random.random(), numpy.random.rand()
    before = numpy.random.get_state()[1].copy(), random.getstate(), cuarray.random.get_random_state()
    assert draw() == draw()
    assert (numpy.random.get_state()[1] == before[0]).all() and random.getstate() == before[1]
    assert cuarray.random.get_random_state() is before[2]


@testing.fix_random()
class TestFixRandomOnATestCase(unittest.TestCase):
    def test_seeded(self):
        assert numpy.random.get_state()[1][0] == numpy.random.RandomState(100).get_state()[1][0]


def test_product_and_product_dict():
    assert testing.product({"b": [1, 2], "a": ["x"]}) == [{"a": "x", "b": 1}, {"a": "x", "b": 2}]
    assert testing.product_dict([{"a": 1}, {"a": 2}], [{"b": 3}]) == [{"a": 1, "b": 3}, {"a": 2, "b": 3}]


@testing.parameterize(*testing.product({"shape": [(2, 3), (4,)], "dtype": [numpy.float32]}))
class TestParameterizedTestCase(unittest.TestCase):
    def test_attributes(self):
        assert self.shape in [(2, 3), (4,)] and self.dtype is numpy.float32


@testing.parameterize({"n": 1}, {"n": 2})
@testing.parameterize({"k": 10})
class TestParameterizedPlainClass:
    def test_attributes(self):
        assert self.n in (1, 2) and self.k == 10


def test_parameterize_makes_one_test_case_per_dict():
    cases = sorted(name for name in globals() if name.startswith("TestParameterizedTestCase_param_"))
    assert len(cases) == 2 and globals()["TestParameterizedTestCase"] is None
    assert cases[0] == "TestParameterizedTestCase_param_0_{dtype=float32, shape=(2, 3)}"


def test_inputs_have_cupys_values():
    assert testing.shaped_arange((2, 3), numpy, numpy.int16).tolist() == [[1, 2, 3], [4, 5, 6]]
    assert testing.shaped_arange((4,), numpy, numpy.bool_).tolist() == [False, True, False, True]
    assert testing.shaped_arange((2,), numpy, numpy.complex64).tolist() == [1 + 1j, 2 + 2j]
    assert testing.shaped_arange((2, 2), numpy, order="F").flags.f_contiguous
    assert testing.shaped_reverse_arange((3,), numpy, numpy.uint8).tolist() == [3, 2, 1]
    expected = numpy.random.RandomState(5).rand(3, 2) * 10
    numpy.testing.assert_array_equal(testing.shaped_random((3, 2), numpy, numpy.float64, seed=5), expected)
    assert testing.shaped_random((3,), numpy, numpy.float32).dtype == numpy.float32
    assert set(testing.shaped_random((50,), numpy, numpy.bool_).tolist()) == {False, True}
    z = testing.shaped_random((4,), numpy, numpy.complex128, scale=2)
    assert (0 <= z.real).all() and (z.real < 2).all() and (z.imag > 0).any()
    assert testing.shaped_linspace(-3, 3, (2, 2), numpy, numpy.uint8).tolist() == [[0, 1], [2, 3]]


def test_generate_matrix_errors():
    for args, kwargs, error in [(((3,),), {"singular_values": 1}, ValueError),
                                (((2, 2),), {}, TypeError),
                                (((2, 2), numpy, numpy.int32), {"singular_values": 1}, TypeError),
                                (((2, 2), numpy), {"singular_values": [1j, 1]}, TypeError),
                                (((2, 2), numpy), {"singular_values": [-1, 1]}, ValueError)]:
        with pytest.raises(error):
            testing.generate_matrix(*args, **kwargs)


def test_generate_matrix_on_the_host_has_the_singular_values():
    a = testing.generate_matrix((3, 4, 2), numpy, numpy.float64, singular_values=[3.0, 0.5])
    numpy.testing.assert_allclose(numpy.linalg.svd(a, compute_uv=False), [[3.0, 0.5]] * 3)


def test_conditions():
    assert testing.installed("numpy>=1.0") and not testing.installed("numpy<1.0")
    assert not testing.installed("no-such-package-anywhere")
    assert testing.numpy_satisfies(">=2.0") and not testing.numpy_satisfies("<2.0")
    assert testing.with_requires("no-such-package-anywhere").kwargs["reason"] == "requires: no-such-package-anywhere"
    assert testing.multi_gpu(10 ** 6).args == (True,)
    assert testing.slow.name == "slow"


def test_errors_are_compared_before_results():
    @testing.numpy_cupy_array_equal(accept_error=ValueError)
    def both_raise(xp):
        raise ValueError("bad input")
    both_raise()

    @testing.numpy_cupy_array_equal()
    def not_accepted(xp):
        raise ValueError("bad input")
    with pytest.raises(AssertionError, match="Both cuarray and numpy raise exceptions"):
        not_accepted()

    @testing.numpy_cupy_array_equal(accept_error=True)
    def different(xp):
        raise (TypeError if xp is numpy else ValueError)("bad input")
    with pytest.raises(AssertionError, match="Different types of errors"):
        different()

    @testing.numpy_cupy_allclose(accept_error=True)
    def only_numpy(xp):
        if xp is numpy:
            raise IndexError("out of range")
        return 1
    with pytest.raises(AssertionError, match="Only numpy raises an error"):
        only_numpy()

    @testing.numpy_cupy_array_equal(accept_error=numpy.exceptions.AxisError)
    def axis_errors(xp):
        raise numpy.exceptions.AxisError(3, 2)
    axis_errors()


def test_scipy_tests_are_skipped_with_the_reason():
    @testing.numpy_cupy_allclose(scipy_name="scp")
    def test(xp, scp):
        return xp.ones(2)
    with pytest.raises(unittest.SkipTest, match="no cupyx.scipy"):
        test()


def test_equal_compares_plain_values():
    @testing.numpy_cupy_equal()
    def same(xp):
        return xp.dtype("f4").itemsize
    same()

    @testing.numpy_cupy_equal()
    def differ(xp):
        return xp.__name__
    with pytest.raises(AssertionError, match="Results are not equal"):
        differ()


def test_tolerance_by_dtype():
    from cuarray.testing._numpy_cupy import _tolerance
    tolerances = {numpy.float16: 1e-2, "float32": 1e-5, "default": 1e-7}
    assert _tolerance(tolerances, numpy.dtype(numpy.float16)) == 1e-2
    assert _tolerance(tolerances, numpy.dtype(numpy.float32)) == 1e-5
    assert _tolerance(tolerances, numpy.dtype(numpy.float64)) == 1e-7
    with pytest.raises(TypeError, match="no tolerance"):
        _tolerance({numpy.float16: 1e-2}, numpy.dtype(numpy.float64))


# ---- GPU: the decorators on real results, as CuPy's suite writes its tests ----


@testing.parameterize(*testing.product({"shape": [(3, 4), (2, 3, 5)], "axis": [0, -1, None]}))
@pytest.mark.gpu  # below parameterize: a TestCase's copies inherit the mark
class TestReductionsLikeCupysSuite(unittest.TestCase):
    @testing.for_all_dtypes(no_bool=True)
    @testing.numpy_cupy_allclose(rtol={numpy.float16: 1e-2, "default": 1e-6}, atol=1e-6)
    def test_sum(self, xp, dtype):
        return xp.sum(testing.shaped_random(self.shape, xp, dtype), axis=self.axis)

    @testing.for_all_dtypes(no_complex=True)
    @testing.numpy_cupy_array_equal()
    def test_argmax(self, xp, dtype):
        return xp.argmax(testing.shaped_random(self.shape, xp, dtype), axis=self.axis)

    @testing.for_CF_orders()
    @testing.for_float_dtypes(no_float16=True)
    @testing.numpy_cupy_allclose(rtol=1e-5)
    def test_transpose_then_cumsum(self, xp, dtype, order):
        a = testing.shaped_arange(self.shape, xp, dtype, order=order or "C")
        return xp.cumsum(a.T, axis=0), a.T.copy(order=order or "K")


@pytest.mark.gpu
class TestDecoratorsCatchDifferences:
    def test_values(self):
        @testing.numpy_cupy_allclose(rtol=1e-6)
        def test(xp):
            return testing.shaped_arange((3,), xp) + (1e-3 if xp is cuarray else 0)
        with pytest.raises(AssertionError, match="Not equal to tolerance"):
            test()

    def test_dtype_unless_type_check_is_off(self):
        def make(xp):
            return testing.shaped_arange((3,), xp, numpy.float32 if xp is cuarray else numpy.float64)
        with pytest.raises(AssertionError, match="different dtypes"):
            testing.numpy_cupy_array_equal()(make)()
        testing.numpy_cupy_array_equal(type_check=False)(make)()

    def test_contiguity_and_strides(self):
        def make(xp):
            a = testing.shaped_arange((3, 4), xp)
            return a.T if xp is cuarray else numpy.ascontiguousarray(a.T)
        with pytest.raises(AssertionError, match="c_contiguous"):
            testing.numpy_cupy_allclose()(make)()
        testing.numpy_cupy_allclose(contiguous_check=False)(make)()
        with pytest.raises(AssertionError, match="Strides are not equal"):
            testing.numpy_cupy_array_equal(strides_check=True)(make)()

    def test_types_and_counts(self):
        @testing.numpy_cupy_array_equal()
        def host_array_from_cuarray(xp):
            return numpy.ones(2)
        with pytest.raises(AssertionError, match="different types"):
            host_array_from_cuarray()

        @testing.numpy_cupy_array_equal()
        def counts(xp):
            return (xp.ones(2),) * (2 if xp is cuarray else 1)
        with pytest.raises(AssertionError, match="returns 2 values and numpy 1"):
            counts()

        @testing.numpy_cupy_array_equal()
        def zero_d_and_scalar(xp):
            return xp.sum(testing.shaped_arange((4,), xp, numpy.int64))  # 0-d array against NumPy's int64
        zero_d_and_scalar()

    def test_less_ulp_and_nulp(self):
        @testing.numpy_cupy_array_less()
        def less(xp):
            return testing.shaped_arange((3,), xp) - (1 if xp is cuarray else 0)
        less()

        def exp(xp):
            return xp.exp(testing.shaped_random((100,), xp, numpy.float32, scale=2))
        for decorator in (testing.numpy_cupy_array_max_ulp(maxulp=4), testing.numpy_cupy_array_almost_equal_nulp(nulp=4),
                          testing.numpy_cupy_array_almost_equal(decimal=5)):
            decorator(exp)()


@pytest.mark.gpu
def test_fix_random_fixes_cuarrays_generator():
    @testing.fix_random()
    def draw():
        return cuarray.random.random(5).get()
    numpy.testing.assert_array_equal(draw(), draw())


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.complex128])
def test_generate_matrix_on_the_gpu(dtype):
    a = testing.generate_matrix((2, 5, 3), dtype=dtype, singular_values=cuarray.asarray([4.0, 2.0, 1.0]))
    assert isinstance(a, cuarray.ndarray) and a.dtype == dtype and a.shape == (2, 5, 3)
    numpy.testing.assert_allclose(numpy.linalg.svd(a.get(), compute_uv=False), [[4.0, 2.0, 1.0]] * 2, rtol=1e-4)


@pytest.mark.gpu
def test_inputs_on_the_gpu_equal_the_host_ones():
    for make, args in [(testing.shaped_arange, ((2, 3),)), (testing.shaped_reverse_arange, ((5,),)),
                       (testing.shaped_random, ((4, 3),)), (testing.shaped_linspace, (-1, 1, (7,)))]:
        for dtype in (numpy.float16, numpy.int32, numpy.bool_, numpy.complex64):
            on_gpu, on_host = make(*args, cuarray, dtype), make(*args, numpy, dtype)
            assert isinstance(on_gpu, cuarray.ndarray) and on_gpu.dtype == on_host.dtype
            numpy.testing.assert_array_equal(on_gpu.get(), on_host)
    assert testing.shaped_random((3, 4), order="F").flags.f_contiguous
    testing.assert_array_list_equal([cuarray.ones(2), cuarray.zeros(1)], [numpy.ones(2), numpy.zeros(1)])
    with pytest.raises(AssertionError, match="lengths differ"):
        testing.assert_array_list_equal([cuarray.ones(2)], [])
