"""cuarray.einsum / einsum_path against NumPy: NumPy's subscript grammar (implicit output, '...',
repeated labels, interleaved sublists), every optimize mode, every dtype, non-contiguous and
negative-stride operands, broadcasting, out=/dtype=/casting=/order=, NumPy's errors, np.einsum
dispatch, and a hypothesis property over random valid expressions.

einsum_path needs only shapes: its tests run without a GPU."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import cuarray as cp

from helpers import ALL_DTYPES, random_array

gpu = pytest.mark.gpu
MODES = [False, True, "greedy", "optimal"]

# (subscripts, shapes): the cases first.
CASES = [
    ("bij,bjk->bik", [(4, 5, 6), (4, 6, 3)]),
    ("ij,ij->", [(7, 9), (7, 9)]),
    ("ii->i", [(6, 6)]),
    ("ii", [(5, 5)]),
    ("ij->ji", [(3, 4)]),
    ("ij", [(3, 4)]),
    ("ji", [(3, 4)]),
    ("ij->", [(3, 4)]),
    ("ij->j", [(3, 4)]),
    ("i,i", [(5,), (5,)]),
    ("i,j", [(3,), (4,)]),
    ("i,j->ji", [(3,), (4,)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("ij,jk->ki", [(3, 4), (4, 5)]),
    ("ij,kj->ik", [(3, 4), (5, 4)]),
    ("ji,jk->ik", [(4, 3), (4, 5)]),
    ("ij,j->i", [(3, 4), (4,)]),
    ("j,ij->i", [(4,), (3, 4)]),
    ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("ij,ji->", [(3, 4), (4, 3)]),
    ("iij,jk->ik", [(3, 3, 4), (4, 2)]),
    ("iji->j", [(3, 4, 3)]),
    ("bij,bjk", [(2, 3, 4), (2, 4, 5)]),
    ("bij,jk->bik", [(2, 3, 4), (4, 5)]),
    ("bij,bkj->bki", [(2, 3, 4), (2, 5, 4)]),
    ("abc,cd->abd", [(2, 3, 4), (4, 5)]),
    ("abcd,cdef->abef", [(2, 3, 4, 5), (4, 5, 2, 3)]),
    ("abcd,dcba->", [(2, 3, 4, 5), (5, 4, 3, 2)]),
    ("ijk,ikl->ijl", [(3, 2, 4), (3, 4, 5)]),
    ("i,i,i->", [(6,), (6,), (6,)]),
    ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)]),
    ("ij,jk,kl", [(3, 4), (4, 5), (5, 2)]),
    ("ea,fb,abcd,gc,hd->efgh", [(3, 2), (3, 2), (2, 2, 2, 2), (3, 2), (3, 2)]),
    ("ab,bc,cd,de->ae", [(2, 3), (3, 4), (4, 5), (5, 2)]),
    ("ij,jk,ik->", [(3, 4), (4, 5), (3, 5)]),
    ("i,j,k->ijk", [(2,), (3,), (4,)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (2, 4, 5)]),
    ("...ij,...jk", [(5, 1, 3, 4), (2, 4, 2)]),
    ("...ii->...i", [(2, 3, 3)]),
    ("i...->...", [(3, 2, 4)]),
    ("...,...", [(), (2, 3)]),
    ("...", [(2, 3)]),
    (",ij->ij", [(), (2, 3)]),
    ("ij,jk->ik", [(3, 1), (4, 5)]),          # size-1 label broadcasts
    ("ij,jk->ik", [(0, 4), (4, 5)]),          # size 0
    ("ij,jk->ik", [(3, 0), (0, 5)]),          # empty sum: zeros
    ("i->", [(0,)]),
]


def _inputs(shapes, dtype, rng):
    if np.dtype(dtype).kind in "fc":
        return [random_array(s, dtype, rng, low=-1, high=1) for s in shapes]
    if np.dtype(dtype).kind in "iu":
        return [random_array(s, dtype, rng) for s in shapes]
    return [random_array(s, dtype, rng) for s in shapes]


def _check(subscripts, hosts, gpu_ops=None, **kwargs):
    """cuarray's result against NumPy's: exact dtype and shape; integers/bool exactly; floats
    within the rounding bound of a sum of products (eps * terms * sum of |products|)."""
    ref = np.einsum(subscripts, *hosts, **kwargs)
    got = cp.einsum(subscripts, *(gpu_ops or [cp.asarray(h) for h in hosts]), **kwargs)
    assert isinstance(got, cp.ndarray)
    assert got.dtype == ref.dtype, (subscripts, got.dtype, ref.dtype)
    assert got.shape == ref.shape, (subscripts, got.shape, ref.shape)
    host = cp.asnumpy(got)
    if ref.dtype.kind in "biu":
        np.testing.assert_array_equal(host, ref)
        return got
    wide = np.complex128 if ref.dtype.kind == "c" else np.float64
    exact = np.einsum(subscripts, *[np.asarray(h).astype(wide) for h in hosts])
    bound = np.einsum(subscripts, *[np.abs(np.asarray(h)).astype(np.float64) for h in hosts])
    terms = max([1] + [np.size(h) for h in hosts])  # at least the terms of any one sum
    eps = np.finfo(ref.dtype).eps
    np.testing.assert_array_less(np.abs(host.astype(wide) - exact), 8 * eps * terms * bound + 1e-30,
                                 err_msg=subscripts)
    return got


# ---- einsum_path: host-side ----

PATH_CASES = [c for c in CASES if len(c[1]) >= 3] + [
    ("abd,ac,bdc->", [(1, 2, 4), (1, 3), (2, 4, 3)]),
    ("ij,jk,kl,lm->im", [(20, 30), (30, 5), (5, 40), (40, 10)]),
    ("a,b,ab,c,bc->", [(4,), (5,), (4, 5), (6,), (5, 6)]),
]


@pytest.mark.parametrize("subscripts,shapes", PATH_CASES)
@pytest.mark.parametrize("optimize", ["greedy", "optimal", True, False, ("greedy", 10), ("optimal", 50)])
def test_einsum_path_matches_numpy(subscripts, shapes, optimize):
    hosts = [np.empty(s) for s in shapes]
    path, report = cp.einsum_path(subscripts, *hosts, optimize=optimize)
    ref_path, ref_report = np.einsum_path(subscripts, *hosts, optimize=optimize)
    assert path == ref_path
    if "..." not in subscripts:  # NumPy names '...' dims from a set: the labels vary per process
        assert report == ref_report


def test_einsum_path_explicit_and_sublists():
    hosts = [np.empty((3, 4)), np.empty((4, 5)), np.empty((5, 2))]
    given_path = ["einsum_path", (0, 1), (0, 1)]
    assert cp.einsum_path("ij,jk,kl->il", *hosts, optimize=given_path) == \
        np.einsum_path("ij,jk,kl->il", *hosts, optimize=given_path)
    args = (hosts[0], [0, 1], hosts[1], [1, 2], hosts[2], [2, 3], [0, 3])
    assert cp.einsum_path(*args) == np.einsum_path(*args)
    with pytest.raises(RuntimeError, match="1 more operands has to be contracted"):
        cp.einsum_path("ij,jk,kl->il", *hosts, optimize=["einsum_path", (0, 1)])


@pytest.mark.parametrize("subscripts,shapes", [
    ("ij,jk", [(2, 3)]), ("ij->ii", [(2, 3)]), ("ij->k", [(2, 3)]), ("i", [(2, 3)]), ("ij,jk->ik", [(2, 3), (2, 3)]),
    ("i.j", [(2, 3)]), ("ij-k", [(2, 3)]), ("i$", [(2, 3)]), ("ii", [(2, 3)]), ("...ij", [(3,)]),
])
def test_einsum_path_errors_match_numpy(subscripts, shapes):
    hosts = [np.empty(s) for s in shapes]
    with pytest.raises(ValueError) as ref:
        np.einsum_path(subscripts, *hosts)
    with pytest.raises(ValueError) as got:
        cp.einsum_path(subscripts, *hosts)
    assert str(got.value) == str(ref.value)


def test_einsum_path_bad_optimize():
    hosts = [np.empty((3, 4)), np.empty((4, 5)), np.empty((5, 2))]
    for bad in ([(0, 1)], ("greedy",), 3.5):
        with pytest.raises(TypeError, match="Did not understand the path"):
            cp.einsum_path("ij,jk,kl->il", *hosts, optimize=bad)
    with pytest.raises(KeyError):
        cp.einsum_path("ij,jk,kl->il", *hosts, optimize="fastest")
    with pytest.raises(TypeError, match="lists must contain either int or Ellipsis"):
        cp.einsum_path(hosts[0], ["a", 1])
    with pytest.raises(ValueError, match="No input operands"):
        cp.einsum_path()
    with pytest.raises(ValueError, match="Number of einsum subscripts must be equal"):
        cp.einsum_path("ij")


# ---- einsum on the GPU ----

@gpu
@pytest.mark.parametrize("subscripts,shapes", CASES)
@pytest.mark.parametrize("optimize", MODES)
def test_einsum_matches_numpy(subscripts, shapes, optimize, rng):
    hosts = _inputs(shapes, np.float64, rng)
    _check(subscripts, hosts, optimize=optimize)


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("subscripts,shapes", [
    ("bij,bjk->bik", [(3, 4, 5), (3, 5, 2)]), ("ij,ij->", [(6, 7), (6, 7)]), ("ii->i", [(5, 5)]),
    ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 2)]), ("i,j->ij", [(3,), (4,)]), ("ij->j", [(4, 5)]),
    ("ii", [(4, 4)]), ("ij,ij->ij", [(3, 4), (3, 4)]),
])
def test_einsum_dtypes(dtype, subscripts, shapes, rng):
    hosts = _inputs(shapes, dtype, rng)
    for optimize in (False, True):
        _check(subscripts, hosts, optimize=optimize)


@gpu
def test_einsum_integer_wraparound_and_bool(rng):
    a = np.full((3, 40), 100, np.int8)
    b = np.full((40, 2), 3, np.int8)
    _check("ij,jk->ik", [a, b])
    _check("ij->", [a])
    u = random_array((5, 6), np.uint8, rng)
    _check("ij,kj->ik", [u, u])
    m = random_array((4, 5), np.bool_, rng)
    _check("ij,kj->ik", [m, m])
    _check("ij->i", [m])
    _check("i,i", [np.ones(4, np.int8), np.ones(4, np.uint8)])  # promotes to int16


@gpu
@pytest.mark.parametrize("optimize", [False, True])
def test_einsum_noncontiguous_operands(optimize, rng):
    a = random_array((6, 8, 10), np.float32, rng, low=-1, high=1)
    b = random_array((10, 12), np.float32, rng, low=-1, high=1)
    ga, gb = cp.asarray(a), cp.asarray(b)
    # (view of a, view of b): stepped, reversed (negative strides) and transposed operands.
    views = [
        (lambda x: x[:, ::2, ::-1], lambda y: y[::-1, ::3]),        # (6,4,10) (10,4)
        (lambda x: x.transpose(1, 0, 2)[::-1], lambda y: y[:, 2:]),  # (8,6,10) (10,10)
        (lambda x: x[::-2, 1:, :], lambda y: y.T.T[:, ::-2]),        # (3,7,10) (10,6)
    ]
    for va, vb in views:
        _check("ijk,kl->ijl", [va(a), vb(b)], [va(ga), vb(gb)], optimize=optimize)
        _check("ijk,kl->lji", [va(a), vb(b)], [va(ga), vb(gb)], optimize=optimize)
    _check("iji->j", [a[:, :6, :6].transpose(1, 2, 0)], [ga[:, :6, :6].transpose(1, 2, 0)], optimize=optimize)
    _check("ij,ij->", [a[0, ::-1], a[1, ::-1]], [ga[0, ::-1], ga[1, ::-1]], optimize=optimize)
    _check("ij,jk->ik", [b.T[::2], b[:, ::-1]], [gb.T[::2], gb[:, ::-1]], optimize=optimize)


@gpu
def test_einsum_broadcast_operand(rng):
    a = random_array((4, 5), np.float64, rng, low=-1, high=1)
    ga = cp.asarray(a)
    hb = np.broadcast_to(a[0], (3, 4, 5))
    gb = cp.broadcast_to(ga[0], (3, 4, 5))
    _check("bij,kj->bik", [hb, a], [gb, ga])
    _check("...ij,...kj->...ik", [hb, a], [gb, ga])


@gpu
def test_einsum_views_and_layout(rng):
    a = random_array((4, 4), np.float64, rng)
    g = cp.asarray(a)
    d = cp.einsum("ii->i", g)
    assert d.base is not None  # a view, as NumPy's
    d[...] = 7
    assert cp.asnumpy(g).diagonal().tolist() == [7.0] * 4
    t = cp.einsum("ij->ji", g)
    assert not t.flags.c_contiguous and t.base is not None
    r = cp.einsum("ij,jk->ik", g, g)
    assert r.flags.c_contiguous
    assert cp.einsum("ij,jk->ki", g, g).flags.c_contiguous
    assert cp.einsum("ij,jk->ik", g, g, order="F").flags.f_contiguous
    assert cp.einsum("ij->ji", g, order="C").flags.c_contiguous


@gpu
def test_einsum_out_dtype_casting(rng):
    a = random_array((3, 4), np.float32, rng, low=-1, high=1)
    b = random_array((4, 5), np.float32, rng, low=-1, high=1)
    ga, gb = cp.asarray(a), cp.asarray(b)
    out = cp.empty((3, 5), np.float64)
    r = cp.einsum("ij,jk->ik", ga, gb, out=out)
    assert r is out
    np.testing.assert_allclose(cp.asnumpy(out), a.astype(np.float64) @ b, rtol=1e-5)
    _check("ij,jk->ik", [a, b], dtype=np.float64)
    _check("ij,jk->ik", [a.astype(np.float64), b], dtype=np.float32, casting="same_kind")
    for mode in (False, True):
        with pytest.raises(TypeError, match="could not be cast"):
            cp.einsum("ij,jk->ik", ga.astype(np.float64), gb, dtype=np.float32, optimize=mode)
        with pytest.raises(TypeError, match="could not be cast"):
            cp.einsum("ij,jk->ik", ga, gb, out=cp.empty((3, 5), np.int64), optimize=mode)
        with pytest.raises(ValueError):
            cp.einsum("ij,jk->ik", ga, gb, out=cp.empty((3, 4), np.float32), optimize=mode)


@gpu
def test_einsum_interleaved_form(rng):
    a = random_array((3, 4), np.float64, rng, low=-1, high=1)
    b = random_array((4, 5), np.float64, rng, low=-1, high=1)
    ga, gb = cp.asarray(a), cp.asarray(b)
    for args, gargs in [((a, [0, 1], b, [1, 2]), (ga, [0, 1], gb, [1, 2])),
                        ((a, [0, 1], b, [1, 2], [2, 0]), (ga, [0, 1], gb, [1, 2], [2, 0])),
                        ((a, [Ellipsis, 1], a.T, [1, Ellipsis]), (ga, [Ellipsis, 1], ga.T, [1, Ellipsis]))]:
        ref = np.einsum(*args)
        np.testing.assert_allclose(cp.asnumpy(cp.einsum(*gargs)), ref, rtol=1e-12)


@gpu
@pytest.mark.parametrize("optimize", [False, True])
@pytest.mark.parametrize("subscripts,shapes", [
    ("ij,jk", [(2, 3)]), ("ij", [(2, 3), (3, 4)]), ("ij->ii", [(2, 3)]), ("ij->k", [(2, 3)]),
    ("i", [(2, 3)]), ("ijk", [(2, 3)]), ("ij,jk->ik", [(2, 3), (2, 3)]), ("i.j", [(2, 3)]),
    ("ij-k", [(2, 3)]), ("i$", [(2, 3)]), ("ii", [(2, 3)]), ("...ij", [(3,)]),
    ("ij,ij->ij", [(2, 1), (3, 3)]),
])
def test_einsum_errors_match_numpy(subscripts, shapes, optimize):
    hosts = [np.ones(s) for s in shapes]
    with pytest.raises(ValueError) as ref:
        np.einsum(subscripts, *hosts, optimize=optimize)
    with pytest.raises(ValueError) as got:
        cp.einsum(subscripts, *[cp.asarray(h) for h in hosts], optimize=optimize)
    if "remapped shapes" not in str(ref.value):  # NumPy prints its iterator's remapped shapes
        assert str(got.value) == str(ref.value)


@gpu
def test_einsum_bad_keywords():
    a = cp.ones(3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'foo'"):
        cp.einsum("i,i", a, a, foo=1)
    with pytest.raises(TypeError, match="Did not understand the following kwargs"):
        cp.einsum("i,i", a, a, foo=1, optimize=True)
    with pytest.raises(ValueError, match="order must be one of"):
        cp.einsum("i->i", a, order="Q")
    with pytest.raises(ValueError, match="casting must be one of"):
        cp.einsum("i->i", a, casting="bad")
    with pytest.raises(ValueError, match="must specify the einstein sum subscripts string and at least one operand"):
        cp.einsum()
    with pytest.raises(ValueError, match="must specify the einstein sum subscripts string and at least one operand"):
        cp.einsum("ij")
    with pytest.raises(ValueError, match="No input operands"):
        cp.einsum(optimize=True)
    with pytest.raises(ValueError, match="Number of einsum subscripts must be equal"):
        cp.einsum("ij", optimize=True)


@gpu
def test_numpy_dispatch(rng):
    a = random_array((3, 4), np.float64, rng, low=-1, high=1)
    b = random_array((4, 5), np.float64, rng, low=-1, high=1)
    got = np.einsum("ij,jk->ik", cp.asarray(a), cp.asarray(b))
    assert isinstance(got, cp.ndarray)
    np.testing.assert_allclose(cp.asnumpy(got), a @ b, rtol=1e-12)
    got = np.einsum("ij,jk->ik", cp.asarray(a), cp.asarray(b), optimize=True)
    assert isinstance(got, cp.ndarray)
    path = np.einsum_path("ij,jk,kl->il", cp.asarray(a), cp.asarray(b), cp.asarray(b.T))
    assert path == np.einsum_path("ij,jk,kl->il", a, b, b.T)


# ---- property: random valid expressions ----

@st.composite
def expressions(draw):
    labels = "abcdef"
    sizes = {c: draw(st.integers(1, 4)) for c in labels}
    n = draw(st.integers(1, 4))
    terms = [draw(st.text(alphabet=labels[: draw(st.integers(1, 6))], min_size=0, max_size=4)) for _ in range(n)]
    used = sorted(set("".join(terms)))
    out = draw(st.permutations(used).map(lambda p: "".join(p))) if used else ""
    out = out[: draw(st.integers(0, len(out)))]
    explicit = draw(st.booleans())
    subscripts = ",".join(terms) + ("->" + out if explicit else "")
    shapes = [tuple(sizes[c] for c in t) for t in terms]
    dtype = draw(st.sampled_from([np.float64, np.complex64, np.int32, np.int16]))
    optimize = draw(st.sampled_from(MODES))
    return subscripts, shapes, dtype, optimize


@gpu
@settings(max_examples=150, deadline=None)
@given(expressions(), st.integers(0, 2**32 - 1))
def test_einsum_property(expr, seed):
    subscripts, shapes, dtype, optimize = expr
    hosts = _inputs(shapes, dtype, np.random.default_rng(seed))
    _check(subscripts, hosts, optimize=optimize)
