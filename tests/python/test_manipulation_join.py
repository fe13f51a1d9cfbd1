"""Joining arrays against NumPy: concatenate/concat (axis, axis=None, dtype=, casting=, out=,
overlapping out), stack, vstack, hstack, dstack, column_stack, row_stack, block and append; every
dtype, mixed dtypes (NumPy's result_type), non-contiguous inputs, size-0 and 0-d inputs, and
NumPy's exception types and messages on bad input.
"""
import warnings

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cuarray as cp

from helpers import (ALL_DTYPES, MIXED_PAIRS, SHAPED_LAYOUTS, assert_array_equal_np, check_like_numpy, expect_error,
                    layout_pair, random_array)

pytestmark = pytest.mark.gpu


def same(gpu, ref):
    assert_array_equal_np(gpu, ref, signed_zeros=True)


def check(np_call, cp_call):
    return check_like_numpy(np_call, cp_call, compare=same)


def pair(shape, dtype, rng, layout="c"):
    return layout_pair(layout, shape, dtype, rng, special=True)


def pairs(shapes, dtype, rng, layouts=("c",)):
    made = [pair(s, dtype, rng, layouts[i % len(layouts)]) for i, s in enumerate(shapes)]
    return [h for h, _ in made], [d for _, d in made]


# --------------------------------------------------------------------------------------------------
# concatenate


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_concatenate_every_dtype(dtype, rng):
    h, d = pairs([(2, 3), (4, 3), (0, 3), (1, 3)], dtype, rng)
    check(lambda: np.concatenate(h), lambda: cp.concatenate(d))
    h, d = pairs([(3, 2), (3, 1), (3, 5)], dtype, rng, layouts=("transposed", "stepped", "negative"))
    check(lambda: np.concatenate(h, axis=1), lambda: cp.concatenate(d, axis=1))
    check(lambda: np.concatenate(h, axis=None), lambda: cp.concatenate(d, axis=None))


@pytest.mark.parametrize("dtypes", MIXED_PAIRS + [(np.dtype("bool"), np.dtype("complex128")),
                                                  (np.dtype("uint64"), np.dtype("float16"))], ids=str)
def test_concatenate_mixed_dtypes_promote(dtypes, rng):
    h0, d0 = pair((3, 2), dtypes[0], rng)
    h1, d1 = pair((2, 2), dtypes[1], rng, "f")
    check(lambda: np.concatenate([h0, h1]), lambda: cp.concatenate([d0, d1]))
    check(lambda: np.concatenate([h1, h0, h1], axis=0), lambda: cp.concatenate([d1, d0, d1], axis=0))


@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 4), (2, 1, 3, 2)], ids=str)
@pytest.mark.parametrize("layout", SHAPED_LAYOUTS)
def test_concatenate_every_axis_and_layout(shape, layout, rng):
    for axis in range(-len(shape), len(shape)):
        shapes = []
        for extra in (1, 0, 3):
            s = list(shape)
            s[axis] = extra
            shapes.append(tuple(s))
        h, d = pairs([shape] + shapes, np.float32, rng, layouts=(layout, "c", "negative"))
        check(lambda: np.concatenate(h, axis=axis), lambda: cp.concatenate(d, axis=axis))


def test_concatenate_axis_none_flattens_any_shape(rng):
    h, d = pairs([(), (2, 3), (0,), (3, 1, 2)], np.int16, rng, layouts=("c", "transposed", "c", "negative"))
    check(lambda: np.concatenate(h, axis=None), lambda: cp.concatenate(d, axis=None))
    h, d = pairs([(), ()], np.float64, rng)
    check(lambda: np.concatenate(h, axis=None), lambda: cp.concatenate(d, axis=None))


def test_concatenate_host_inputs_and_device_array_of_arrays(rng):
    a = random_array((2, 3), np.int8, rng)
    check(lambda: np.concatenate([a, [[300, 1, 2]]]), lambda: cp.concatenate([cp.asarray(a), [[300, 1, 2]]]))
    check(lambda: np.concatenate(a), lambda: cp.concatenate(cp.asarray(a)))  # the rows of a 2-d array
    check(lambda: np.concatenate(([1, 2], (3,))), lambda: cp.concatenate(([1, 2], (3,))))
    check(lambda: np.concat([a, a], axis=1), lambda: cp.concat([cp.asarray(a), cp.asarray(a)], axis=1))


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.parametrize("target", ["int8", "int64", "float32", "complex64", "bool"])
def test_concatenate_dtype_and_casting(casting, target, rng):
    h, d = pairs([(3,), (2,)], np.int16, rng)
    # floats within int8's range: out-of-range float -> int casts are undefined in C and CUDA alike
    hf = random_array((2,), np.float64, rng, low=-100, high=100)
    df = cp.asarray(hf)
    check(lambda: np.concatenate(h, dtype=target, casting=casting),
          lambda: cp.concatenate(d, dtype=target, casting=casting))
    check(lambda: np.concatenate(h + [hf], dtype=target, casting=casting),
          lambda: cp.concatenate(d + [df], dtype=target, casting=casting))


def test_concatenate_out(rng):
    h, d = pairs([(2, 3), (1, 3)], np.float32, rng, layouts=("c", "stepped"))
    out_h, out_d = np.empty((3, 3), np.float64), cp.empty((3, 3), np.float64)
    r = cp.concatenate(d, out=out_d)
    np.concatenate(h, out=out_h)
    assert r is out_d
    same(out_d, out_h)
    # a strided out (every other column of a wider array)
    big_h, big_d = np.zeros((3, 5), np.float32), cp.zeros((3, 5), np.float32)
    cp.concatenate(d, out=big_d[:, ::2])
    np.concatenate(h, out=big_h[:, ::2])
    same(big_d, big_h)
    # axis=None into a 1-d out
    flat_h, flat_d = np.empty(9, np.float32), cp.empty(9, np.float32)
    cp.concatenate(d, axis=None, out=flat_d)
    np.concatenate(h, axis=None, out=flat_h)
    same(flat_d, flat_h)


def test_concatenate_out_overlapping_inputs(rng):
    """out may be one of the inputs' memory: as in NumPy, the pieces are copied in turn (a later input
    is read after the earlier pieces were written), each read whole before it is written."""
    h = random_array((6,), np.int32, rng)
    d = cp.asarray(h)
    np.concatenate([h[3:], h[:3]], out=h)
    cp.concatenate([d[3:], d[:3]], out=d)
    same(d, h)
    h2 = random_array((4, 2), np.float64, rng, special=True)
    d2 = cp.asarray(h2)
    np.concatenate([h2[::-1][:2], h2[:2]], out=h2)
    cp.concatenate([d2[::-1][:2], d2[:2]], out=d2)
    same(d2, h2)
    # pieces that overlap their own destination (reversed, shifted), along axis 1 and axis=None
    for pieces, axis, shape in ((lambda a: [a[1:5][::-1], a[:2]], 0, (6,)), (lambda a: [a[1:4], a[:3]], 0, (6,)),
                                (lambda a: [a[:, 1:], a[:, :1]], 1, (2, 3)),
                                (lambda a: [a[2:].reshape(2, 2), a[:2].reshape(1, 2)], None, (6,))):
        h3 = random_array(shape, np.float32, rng, special=True)
        d3 = cp.asarray(h3)
        np.concatenate(pieces(h3), axis=axis, out=h3)
        cp.concatenate(pieces(d3), axis=axis, out=d3)
        same(d3, h3)


def test_concatenate_errors(rng):
    a, b = np.ones((2, 3)), np.ones((2, 2))
    A, B = cp.asarray(a), cp.asarray(b)
    expect_error(lambda: np.concatenate([a, b]), lambda: cp.concatenate([A, B]),
                 "all the input array dimensions except for the concatenation axis must match exactly, but along "
                 "dimension 1, the array at index 0 has size 3 and the array at index 1 has size 2")
    expect_error(lambda: np.concatenate([a, np.ones(3)]), lambda: cp.concatenate([A, cp.ones(3)]),
                 "the array at index 0 has 2 dimension(s) and the array at index 1 has 1 dimension(s)")
    expect_error(lambda: np.concatenate([np.ones(()), np.ones(())]), lambda: cp.concatenate([cp.ones(()), cp.ones(())]),
                 "zero-dimensional arrays cannot be concatenated")
    expect_error(lambda: np.concatenate([]), lambda: cp.concatenate([]), "need at least one array to concatenate")
    expect_error(lambda: np.concatenate([a, a], axis=2), lambda: cp.concatenate([A, A], axis=2),
                 "axis 2 is out of bounds for array of dimension 2")
    expect_error(lambda: np.concatenate([a, a], axis=-3), lambda: cp.concatenate([A, A], axis=-3))
    expect_error(lambda: np.concatenate([a, a], axis=1.0), lambda: cp.concatenate([A, A], axis=1.0))
    expect_error(lambda: np.concatenate([a, a], dtype=np.int64), lambda: cp.concatenate([A, A], dtype=np.int64),
                 "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'same_kind'")
    expect_error(lambda: np.concatenate([a, a], out=np.empty((4, 3)), dtype=float),
                 lambda: cp.concatenate([A, A], out=cp.empty((4, 3)), dtype=float), "only takes `out` or `dtype`")
    expect_error(lambda: np.concatenate([a, a], out=np.empty((4, 2))),
                 lambda: cp.concatenate([A, A], out=cp.empty((4, 2))), "Output array is the wrong shape")
    expect_error(lambda: np.concatenate([a, a], out=np.empty(12)),
                 lambda: cp.concatenate([A, A], out=cp.empty(12)), "Output array has wrong dimensionality")
    expect_error(lambda: np.concatenate([a, a], out=np.empty((4, 3), np.int64)),
                 lambda: cp.concatenate([A, A], out=cp.empty((4, 3), np.int64)), "according to the rule 'same_kind'")
    expect_error(lambda: np.concatenate([a, a], casting="bogus"), lambda: cp.concatenate([A, A], casting="bogus"))


@st.composite
def concat_case(draw):
    ndim = draw(st.integers(1, 4))
    base = draw(hnp.array_shapes(min_dims=ndim, max_dims=ndim, min_side=0, max_side=4))
    axis = draw(st.integers(-ndim, ndim - 1))
    count = draw(st.integers(1, 4))
    shapes = []
    for _ in range(count):
        s = list(base)
        s[axis] = draw(st.integers(0, 4))
        shapes.append(tuple(s))
    dtypes = [draw(st.sampled_from(ALL_DTYPES)) for _ in range(count)]
    layouts = [draw(st.sampled_from(SHAPED_LAYOUTS)) for _ in range(count)]
    return shapes, axis, dtypes, layouts, draw(st.integers(0, 2**32 - 1))


@given(case=concat_case())
def test_concatenate_hypothesis(case):
    shapes, axis, dtypes, layouts, seed = case
    rng = np.random.default_rng(seed)
    made = [layout_pair(lay, s, dt, rng, special=True) for s, dt, lay in zip(shapes, dtypes, layouts)]
    h, d = [m[0] for m in made], [m[1] for m in made]
    check(lambda: np.concatenate(h, axis=axis), lambda: cp.concatenate(d, axis=axis))


@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.float32, np.int64, np.complex128], ids=str)
def test_concatenate_contiguous_inputs_in_one_launch(dtype, rng):
    """Inputs that already have the result's dtype and order go in one launch of the join kernel:
    words as wide as every address and length allows (offset views force narrow ones), more pieces
    than one launch's table holds, rows of pieces side by side (axis 1, F order) and out=."""
    lengths = [int(n) for n in rng.integers(0, 40, 150)]
    base_h = random_array((sum(lengths) + 150,), dtype, rng, special=True)
    base_d = cp.asarray(base_h)
    for shift in (0, 1):  # shift 1: every piece starts one element past an aligned address
        starts = np.cumsum([0] + lengths[:-1]) + shift
        h = [base_h[s:s + n] for s, n in zip(starts, lengths)]
        d = [base_d[s:s + n] for s, n in zip(starts, lengths)]
        check(lambda: np.concatenate(h), lambda: cp.concatenate(d))
        check(lambda: np.concatenate(h[:3], axis=None), lambda: cp.concatenate(d[:3], axis=None))
    for layout in ("c", "f"):
        for axis in range(3):
            shapes = [tuple(n if k == axis else size for k, size in enumerate((5, 3, 4))) for n in (3, 1, 0, 7)]
            h, d = pairs(shapes, dtype, rng, layouts=(layout,))
            check(lambda: np.concatenate(h, axis=axis), lambda: cp.concatenate(d, axis=axis))
    h, d = pairs([(1_000_001,), (1_000_001,), (1_000_001,)], dtype, rng)
    check(lambda: np.stack(h, axis=1), lambda: cp.stack(d, axis=1))
    check(lambda: np.concatenate([x.reshape(1, -1) for x in h], axis=1),
          lambda: cp.concatenate([x.reshape(1, -1) for x in d], axis=1))
    out_h, out_d = np.empty((3, 7), dtype), cp.empty((3, 7), dtype)
    h, d = pairs([(3, 2), (3, 5)], dtype, rng)
    np.concatenate(h, axis=1, out=out_h)
    assert cp.concatenate(d, axis=1, out=out_d) is out_d
    same(out_d, out_h)


@pytest.mark.slow
def test_concatenate_past_2_31_words(rng):
    """Pieces starting at odd addresses move single bytes, and three of 2**30 + 7 bytes make a
    result past 2**31 words: the join kernel's 64-bit index path."""
    n = (1 << 30) + 7
    free, _ = cp.cuda.Device().mem_info
    if free < 6 * n:
        pytest.skip(f"needs {6 * n >> 20} MiB of free GPU memory, {free >> 20} MiB free")
    pattern = random_array((997,), np.int8, rng)  # a prime period: no two pieces line up
    base = cp.tile(cp.asarray(pattern), n // 997 + 2)
    a, b = base[1:n + 1], base[3:n + 3]
    r = cp.concatenate([a, b, a])
    assert r.shape == (3 * n,) and r.dtype == np.int8
    assert bool((r[:n] == a).all()) and bool((r[n:2 * n] == b).all()) and bool((r[2 * n:] == a).all())
    for k, start in ((0, 1), (n - 1, 1), (n, 3 - n), (2 * n - 1, 3 - n), (2 * n, 1 - 2 * n), (3 * n - 1, 1 - 2 * n)):
        assert int(r[k]) == int(pattern[(k + start) % 997]), k


def test_concatenate_long_rows(rng):
    h, d = pairs([(1_000_003,), (2_000_000,), (17,)], np.float32, rng, layouts=("c", "stepped", "negative"))
    check(lambda: np.concatenate(h), lambda: cp.concatenate(d))


# --------------------------------------------------------------------------------------------------
# stack and the *stack family


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_stack_every_axis(dtype, rng):
    h, d = pairs([(2, 3)] * 3, dtype, rng, layouts=("c", "transposed", "negative"))
    for axis in range(-3, 3):
        check(lambda: np.stack(h, axis=axis), lambda: cp.stack(d, axis=axis))
    h0, d0 = pairs([(), ()], dtype, rng)
    check(lambda: np.stack(h0), lambda: cp.stack(d0))
    he, de = pairs([(0, 2)] * 2, dtype, rng)
    check(lambda: np.stack(he, axis=1), lambda: cp.stack(de, axis=1))


def test_stack_dtype_out_and_errors(rng):
    h, d = pairs([(4,), (4,)], np.int32, rng)
    check(lambda: np.stack(h, dtype=np.float32), lambda: cp.stack(d, dtype=np.float32))
    check(lambda: np.stack(h, dtype=np.int8, casting="unsafe"), lambda: cp.stack(d, dtype=np.int8, casting="unsafe"))
    out_h, out_d = np.empty((4, 2), np.int64), cp.empty((4, 2), np.int64)
    assert cp.stack(d, axis=1, out=out_d) is out_d
    np.stack(h, axis=1, out=out_h)
    same(out_d, out_h)
    expect_error(lambda: np.stack(h, dtype=np.bool_), lambda: cp.stack(d, dtype=np.bool_), "'same_kind'")
    expect_error(lambda: np.stack([h[0], h[0][:2]]), lambda: cp.stack([d[0], d[0][:2]]),
                 "all input arrays must have the same shape")
    expect_error(lambda: np.stack([]), lambda: cp.stack([]), "need at least one array to stack")
    expect_error(lambda: np.stack(h, axis=2), lambda: cp.stack(d, axis=2), "axis 2 is out of bounds for array of dimension 2")
    expect_error(lambda: np.stack(x for x in h), lambda: cp.stack(x for x in d), 'passed as a "sequence"')


@pytest.mark.parametrize("name", ["vstack", "hstack", "dstack", "column_stack"])
def test_stack_family(name, rng):
    fn_np, fn_cp = getattr(np, name), getattr(cp, name)
    cases = [[(), ()], [(3,), (3,)], [(2, 3), (1, 3)], [(2, 3), (2, 1)], [(2, 3, 2), (2, 3, 2)], [(3,)],
             [(0,), (0,)], [(2, 0), (2, 0)]]
    for shapes in cases:
        for layouts in (("c",), ("negative", "transposed")):
            h, d = pairs(shapes, np.float16, rng, layouts=layouts)
            check(lambda: fn_np(h), lambda: fn_cp(d))
    expect_error(lambda: fn_np(x for x in [np.ones(2)]), lambda: fn_cp(x for x in [cp.ones(2)]), "sequence")
    expect_error(lambda: fn_np([]), lambda: fn_cp([]))


def test_stack_family_dtype_and_device_array(rng):
    h, d = pairs([(2, 3), (1, 3)], np.uint8, rng)
    for name in ("vstack", "hstack"):
        for kwargs in ({"dtype": np.float32}, {"dtype": np.int8, "casting": "unsafe"}, {"dtype": np.int8}):
            check(lambda: getattr(np, name)(h, **kwargs), lambda: getattr(cp, name)(d, **kwargs))
    a = random_array((3, 4), np.int64, rng)
    check(lambda: np.vstack(a), lambda: cp.vstack(cp.asarray(a)))
    check(lambda: np.hstack(a), lambda: cp.hstack(cp.asarray(a)))


def test_row_stack_is_deprecated_vstack(rng):
    """NumPy 2.0-2.4's deprecated alias of vstack (NumPy 2.5 removed it; cuarray keeps it, deprecated)."""
    h, d = pairs([(3,), (3,)], np.int32, rng)
    with pytest.warns(DeprecationWarning, match="row_stack"):
        got = cp.row_stack(d, dtype=np.float32)
    same(got, np.vstack(h, dtype=np.float32))
    if hasattr(np, "row_stack"):
        with pytest.warns(DeprecationWarning):
            expected = np.row_stack(h, dtype=np.float32)
        same(got, expected)


# --------------------------------------------------------------------------------------------------
# block and append


def test_block_layouts(rng):
    A = random_array((2, 2), np.float64, rng, special=True)
    B = random_array((2, 3), np.int32, rng)
    C = random_array((3, 2), np.float32, rng, special=True)
    D = random_array((3, 3), np.bool_, rng)
    v = random_array((3,), np.int8, rng)
    dA, dB, dC, dD, dv = (cp.asarray(x) for x in (A, B, C, D, v))
    check(lambda: np.block([[A, B], [C, D]]), lambda: cp.block([[dA, dB], [dC, dD]]))
    check(lambda: np.block([v, 1, v]), lambda: cp.block([dv, 1, dv]))
    check(lambda: np.block([[A.T, C.T]]), lambda: cp.block([[dA.T, dC.T]]))
    check(lambda: np.block([[[A]], [[A]]]), lambda: cp.block([[[dA]], [[dA]]]))  # depth 3 > ndim 2
    check(lambda: np.block(A), lambda: cp.block(dA))
    check(lambda: np.block(5), lambda: cp.block(5))
    check(lambda: np.block([[1, 2], [3, 4]]), lambda: cp.block([[1, 2], [3, 4]]))
    check(lambda: np.block([[A, np.zeros((2, 0))], [C[:2], A]]), lambda: cp.block([[dA, cp.zeros((2, 0))], [dC[:2], dA]]))
    got = cp.block(dA)
    assert got is not dA  # a copy, as NumPy's


def test_block_errors():
    a = np.ones((2, 2))
    d = cp.asarray(a)
    expect_error(lambda: np.block([[a, a], a]), lambda: cp.block([[d, d], d]), "List depths are mismatched")
    expect_error(lambda: np.block([[a], []]), lambda: cp.block([[d], []]), "List at arrays[1] cannot be empty")
    expect_error(lambda: np.block([]), lambda: cp.block([]), "cannot be empty")
    expect_error(lambda: np.block((a, a)), lambda: cp.block((d, d)), "arrays is a tuple")
    expect_error(lambda: np.block([[a, (a,)]]), lambda: cp.block([[d, (d,)]]), "arrays[0][1] is a tuple")
    expect_error(lambda: np.block([[a, np.ones((3, 1))]]), lambda: cp.block([[d, cp.ones((3, 1))]]))


@pytest.mark.parametrize("dtype", ["int16", "float32", "complex128", "bool"])
def test_append(dtype, rng):
    h, d = pair((2, 3), dtype, rng, "transposed")
    hv, dv = pair((4, 3), dtype, rng)
    check(lambda: np.append(h, hv), lambda: cp.append(d, dv))
    check(lambda: np.append(h.T, hv, axis=0), lambda: cp.append(d.T, dv, axis=0))
    check(lambda: np.append(h, [[1, 2]], axis=1), lambda: cp.append(d, [[1, 2]], axis=1))
    check(lambda: np.append(h, [1, 2], axis=0), lambda: cp.append(d, [1, 2], axis=0))  # ValueError (ranks)
    check(lambda: np.append(h[0], 7), lambda: cp.append(d[0], 7))
    check(lambda: np.append(h, hv, axis=2), lambda: cp.append(d, dv, axis=2))


def test_row_stack_warning_has_numpy_text(rng):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cp.row_stack([cp.ones(2), cp.ones(2)])
    assert any("row_stack" in str(w.message) and w.category is DeprecationWarning for w in caught)
