"""cuarray.random's composite operations on the GPU: permutations are permutations, samples follow
their laws (chi-square over positions and values, moments), every axis and size option, in-place
shuffles of non-contiguous views, reproducibility per seed.

Seeds are fixed and every goodness-of-fit test asks p > 1e-4, so the suite is deterministic; a
broken sampler gives p-values far below that.
"""
import math
import warnings

import numpy as np
import pytest

import cuarray as cp
from cuarray.random import _composites

import feistel_model as fm

pytestmark = pytest.mark.gpu

P_MIN = 1e-4


def chi_square_p(observed, expected):
    """Upper tail of Pearson's statistic (Wilson-Hilferty normal approximation of chi-square)."""
    observed = np.asarray(observed, dtype=np.float64).ravel()
    expected = np.asarray(expected, dtype=np.float64).ravel()
    keep = expected > 0
    assert observed[~keep].sum() == 0, "counts where the law puts no mass"
    stat = ((observed[keep] - expected[keep]) ** 2 / expected[keep]).sum()
    k = keep.sum() - 1
    z = ((stat / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


def assert_means(sample_mean, expected, standard_error):
    """Each mean within 6 standard errors (plus rounding) of its expected value."""
    assert (np.abs(sample_mean - expected) <= 6 * standard_error + 1e-12).all(), (sample_mean, expected)


def host(x, dtype=None):
    assert isinstance(x, cp.ndarray), type(x)
    if dtype is not None:
        assert x.dtype == dtype, x.dtype
    return cp.asnumpy(x)


@pytest.fixture(params=["RandomState", "default_rng"])
def make(request):
    """Each API's constructor, seeded by the test: cp.random.RandomState(s) or cp.random.default_rng(s)."""
    return getattr(cp.random, request.param)


# ---- permutation ---------------------------------------------------------------------------
@pytest.mark.parametrize("n", [0, 1, 2, 7, 2048, 2049, 100_000])
def test_permutation_of_an_integer_is_a_permutation(make, n):
    perm = host(make(n).permutation(n), np.int64)
    assert perm.shape == (n,)
    np.testing.assert_array_equal(np.sort(perm), np.arange(n))


@pytest.mark.slow
def test_permutation_with_64_bit_keys():
    n = 2**24 + 3  # past _KEY32_MAX_ELEMENTS: 64-bit keys
    perm = host(cp.random.RandomState(5).permutation(n))
    np.testing.assert_array_equal(np.sort(perm), np.arange(n))
    rho = np.corrcoef(np.arange(n), perm)[0, 1]
    assert abs(rho) < 5 / math.sqrt(n)


def test_permutation_of_small_n_is_uniform(make):
    r = make(11)
    counts = {}
    for _ in range(2400):
        key = tuple(host(r.permutation(4)))
        counts[key] = counts.get(key, 0) + 1
    assert len(counts) == 24
    assert chi_square_p(list(counts.values()), [100] * 24) > P_MIN


def test_permutation_of_large_n_has_no_positional_trend(make):
    n = 1_000_000
    perm = host(make(3).permutation(n))
    rho = np.corrcoef(np.arange(n), perm)[0, 1]
    assert abs(rho) < 5 / math.sqrt(n)
    # where the first 100 values land: uniform over 100 position bins
    landing = np.argsort(perm)[:100_000] * 100 // n
    assert chi_square_p(np.bincount(landing, minlength=100), [1000] * 100) > P_MIN


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex64, np.bool_])
def test_permutation_of_an_array_keeps_rows(make, dtype):
    a = np.arange(60).reshape(12, 5).astype(dtype)
    out = host(make(2).permutation(cp.asarray(a)), dtype)
    assert out.shape == a.shape
    assert sorted(map(bytes, out)) == sorted(map(bytes, a))


def test_permutation_of_a_list_and_of_a_strided_view(make):
    assert sorted(host(make(1).permutation([3, 1, 2])).tolist()) == [1, 2, 3]
    base = cp.arange(40.0).reshape(8, 5)
    view = base[::-2, 1:4]  # negative stride, not contiguous
    out = host(make(1).permutation(view))
    expected = host(view)
    assert sorted(map(tuple, out)) == sorted(map(tuple, expected))


def test_generator_permutation_along_an_axis():
    a = np.arange(24.0).reshape(2, 3, 4)
    for axis in (0, 1, 2, -1):
        out = host(cp.random.default_rng(4).permutation(cp.asarray(a), axis=axis))
        moved_out, moved_a = np.moveaxis(out, axis, 0), np.moveaxis(a, axis, 0)
        assert sorted(map(bytes, moved_out)) == sorted(map(bytes, moved_a))


# ---- reproducibility -----------------------------------------------------------------------
CALLS = {
    "permutation": lambda r: r.permutation(1000),
    "choice": lambda r: r.choice(100, 50),
    "choice_no_replace": lambda r: r.choice(100_000, 1000, replace=False),
    "choice_p": lambda r: r.choice(4, 100, p=[0.1, 0.2, 0.3, 0.4]),
    "choice_p_no_replace": lambda r: r.choice(4, 3, replace=False, p=[0.1, 0.2, 0.3, 0.4]),
    "multinomial": lambda r: r.multinomial(20, [0.2, 0.3, 0.5], size=10),
    "dirichlet": lambda r: r.dirichlet([0.5, 1.0, 2.0], size=10),
    "multivariate_normal": lambda r: r.multivariate_normal([0.0, 1.0], [[1.0, 0.5], [0.5, 2.0]], size=10),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_seed_reproduces(make, name):
    first, second = make(99), make(99)
    a, b = host(CALLS[name](first)), host(CALLS[name](second))
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(host(CALLS[name](first)), a) or name == "choice_p_no_replace"
    other = host(CALLS[name](make(100)))
    assert not np.array_equal(other, a) or name == "choice_p_no_replace"


def test_bytes_reproduce_and_are_uniform():
    for make in (cp.random.RandomState, cp.random.default_rng):  # noqa: F402 (not the fixture)
        a = make(8).bytes(1_000_003)
        assert type(a) is bytes and len(a) == 1_000_003
        assert make(8).bytes(1_000_003) == a
        counts = np.bincount(np.frombuffer(a, np.uint8), minlength=256)
        assert chi_square_p(counts, [len(a) / 256] * 256) > P_MIN
        assert make(8).bytes(0) == b""
        assert len(make(8).bytes(5)) == 5


# ---- choice --------------------------------------------------------------------------------
def test_choice_with_replacement_is_uniform(make):
    draws = host(make(21).choice(10, 100_000), np.int64)
    assert draws.shape == (100_000,)
    assert chi_square_p(np.bincount(draws, minlength=10), [10_000] * 10) > P_MIN


@pytest.mark.parametrize("on_device", [False, True])
def test_choice_with_p_follows_p(make, on_device):
    p = np.array([0.1, 0.0, 0.25, 0.4, 0.25])
    draws = host(make(22).choice(5, (200, 500), p=cp.asarray(p) if on_device else p))
    assert draws.shape == (200, 500)
    counts = np.bincount(draws.ravel(), minlength=5)
    assert counts[1] == 0
    assert chi_square_p(counts, p * draws.size) > P_MIN


def test_choice_from_an_array_keeps_its_dtype(make):
    a = cp.asarray(np.linspace(-1, 1, 9, dtype=np.float32))[::-2]  # negative stride
    out = host(make(5).choice(a, (3, 4)), np.float32)
    assert out.shape == (3, 4)
    assert set(out.ravel()) <= set(host(a))


def test_choice_sizes(make):
    r = make(6)
    scalar = r.choice(5)
    assert isinstance(scalar, cp.ndarray) and scalar.shape == () and 0 <= int(scalar) < 5
    assert r.choice(5, ()).shape == ()
    assert r.choice(5, 0).shape == (0,)
    assert r.choice(5, (2, 0)).shape == (2, 0)
    assert r.choice(0, 0).shape == (0,)
    assert r.choice(5, (2, 2), replace=False).shape == (2, 2)
    assert r.choice([1.5, 2.5], ()).dtype == np.float64


@pytest.mark.parametrize("n, k", [(5, 5), (10, 3), (100_000, 1000), (1_000_000, 100_000), (10**7, 10**6)])
def test_choice_without_replacement_is_distinct(make, n, k):
    out = host(make(7).choice(n, k, replace=False), np.int64)
    assert out.shape == (k,)
    assert np.unique(out).size == k
    assert out.min() >= 0 and out.max() < n
    if k >= 1000:
        bins = out * 100 // n
        assert chi_square_p(np.bincount(bins, minlength=100), [k / 100] * 100) > P_MIN


def test_choice_without_replacement_small_is_uniform_over_ordered_pairs(make):
    r = make(8)
    counts = np.zeros((5, 5))
    for _ in range(2000):
        i, j = host(r.choice(5, 2, replace=False))
        counts[i, j] += 1
    assert np.trace(counts) == 0
    expected = np.full((5, 5), 100.0)
    np.fill_diagonal(expected, 0)
    assert chi_square_p(counts, expected) > P_MIN


# Large populations sample through the stream's Feistel permutation (feistel_model.py is the host model)
BIJECTION_N = _composites._BIJECTION_MIN_POPULATION


def stream_state(r):
    return r._stream.seed, r._stream.offset


@pytest.mark.parametrize("n, k", [(BIJECTION_N, 1), (BIJECTION_N, BIJECTION_N // 4), (100_003, 977),
                                  (10**7, 10**6), (2**40 + 17, 5000)])
def test_choice_without_replacement_equals_the_host_model(make, n, k):
    r = make(31)
    seed, offset = stream_state(r)
    out = host(r.choice(n, k, replace=False), np.int64)
    np.testing.assert_array_equal(out, fm.permutation_prefix(seed, offset, n, k))
    assert stream_state(r) == (seed, offset + 1)  # one counter per call


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 16, 17, 1000, 4096, 4097])
def test_permutation_prefix_of_small_populations_equals_the_host_model(make, n):
    r = make(32)
    seed, offset = stream_state(r)
    full = host(r._permutation_prefix(n, n), np.int64)
    np.testing.assert_array_equal(full, fm.permutation_prefix(seed, offset, n, n))
    np.testing.assert_array_equal(np.sort(full), np.arange(n))
    assert r._permutation_prefix(n, 0).shape == (0,)


def test_choice_without_replacement_from_an_array_takes_the_prefix(make):
    base = np.random.default_rng(0).standard_normal(2 * BIJECTION_N + 2)
    a = cp.asarray(base)[::-2]  # negative stride
    r = make(33)
    seed, offset = stream_state(r)
    out = host(r.choice(a, 100, replace=False), np.float64)
    np.testing.assert_array_equal(out, base[::-2][fm.permutation_prefix(seed, offset, a.size, 100)])


def test_choice_without_replacement_positions_are_uniform(make):
    # value bins (16) at each of 16 positions, over 800 calls: every cell equally likely
    r = make(34)
    n, calls = BIJECTION_N + 5, 800
    table = np.zeros((16, 16))
    for _ in range(calls):
        out = host(r.choice(n, 16, replace=False))
        assert np.unique(out).size == 16
        table[np.arange(16), out * 16 // n] += 1
    assert chi_square_p(table, np.full((16, 16), calls / 16)) > P_MIN
    # and every value equally often over whole samples of a quarter of the population
    counts = np.zeros(n)
    for _ in range(20):
        counts[host(r.choice(n, n // 4, replace=False))] += 1
    binned = np.add.reduceat(counts, np.arange(0, n, 1024))
    widths = np.diff(np.r_[np.arange(0, n, 1024), n])
    assert chi_square_p(binned, widths * 20 * (n // 4) / n) > P_MIN


def test_choice_without_replacement_has_no_serial_correlation(make):
    out = host(make(35).choice(10**7, 10**6, replace=False)).astype(np.float64)
    bound = 5 / math.sqrt(out.size)
    assert abs(np.corrcoef(out[:-1], out[1:])[0, 1]) < bound  # consecutive inputs, unrelated outputs
    assert abs(np.corrcoef(np.arange(out.size), out)[0, 1]) < bound


def test_choice_without_replacement_of_most_of_a_population_sorts(make, monkeypatch):
    # more than a quarter of n, or n below the minimum: the exact sort, which draws n keys
    r = make(36)
    _, offset = stream_state(r)
    out = host(r.choice(BIJECTION_N, BIJECTION_N // 2, replace=False))
    assert np.unique(out).size == out.size
    assert stream_state(r)[1] == offset + BIJECTION_N
    monkeypatch.setattr(_composites, "_BIJECTION_MAX_SHARE", 1.0)
    _, offset = stream_state(r)
    r.choice(BIJECTION_N, BIJECTION_N // 2, replace=False)
    assert stream_state(r)[1] == offset + 1


def test_choice_with_p_without_replacement_is_successive_sampling(make):
    p = np.array([0.5, 0.3, 0.2, 0.0])
    r = make(9)
    counts = np.zeros((4, 4))
    trials = 3000
    for _ in range(trials):
        i, j = host(r.choice(4, 2, replace=False, p=p))
        counts[i, j] += 1
    expected = np.array([[p[i] * p[j] / (1 - p[i]) if i != j else 0 for j in range(4)] for i in range(4)]) * trials
    assert chi_square_p(counts, expected) > P_MIN
    big = host(r.choice(1000, 500, replace=False, p=np.r_[np.full(500, 1 / 500), np.zeros(500)]))
    np.testing.assert_array_equal(np.sort(big), np.arange(500))


def test_generator_choice_along_an_axis():
    a = cp.asarray(np.arange(30.0).reshape(5, 6))
    g = cp.random.default_rng(10)
    cols = host(g.choice(a, 4, axis=1, replace=False))
    assert cols.shape == (5, 4)
    for c in cols.T:
        assert any(np.array_equal(c, col) for col in host(a).T)
    rows = host(g.choice(a, (2, 3), axis=0))
    assert rows.shape == (2, 3, 6)
    assert host(g.choice(a, axis=-1)).shape == (5,)
    assert host(g.choice(a)).shape == (6,)


# ---- shuffle / permuted --------------------------------------------------------------------
def test_shuffle_in_place_of_a_strided_view(make):
    base = cp.asarray(np.arange(40.0).reshape(20, 2))
    before = host(base).copy()
    view = base[::2]
    assert make(12).shuffle(view) is None
    after = host(base)
    np.testing.assert_array_equal(after[1::2], before[1::2])  # untouched rows stay
    assert sorted(map(tuple, after[::2])) == sorted(map(tuple, before[::2]))  # rows move whole
    assert not np.array_equal(after[::2], before[::2])


def test_generator_shuffle_along_an_axis():
    a = cp.asarray(np.arange(24).reshape(4, 6))
    cp.random.default_rng(13).shuffle(a, axis=1)
    out = host(a)
    np.testing.assert_array_equal(np.sort(out, axis=1), np.arange(24).reshape(4, 6))
    # columns move whole: every row is permuted the same way
    order = out[0] - out[0].min()
    for row in out:
        np.testing.assert_array_equal(row - row.min(), order)


def test_shuffle_of_host_sequences(make):
    items = list(range(50))
    make(14).shuffle(items)
    assert sorted(items) == list(range(50)) and items != list(range(50))
    arr = np.arange(50)
    make(14).shuffle(arr)
    assert sorted(arr.tolist()) == list(range(50))


def test_shuffle_errors():
    with pytest.raises(TypeError, match="len\\(\\) of unsized object"):
        cp.random.RandomState(0).shuffle(cp.asarray(3.0))
    with pytest.raises(np.exceptions.AxisError):
        cp.random.default_rng(0).shuffle(cp.zeros((2, 3)), axis=2)


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_permuted_permutes_each_slice(axis):
    a = np.arange(2000.0).reshape(40, 50)
    view = cp.asarray(np.arange(4000.0).reshape(40, 100))[:, ::2]  # equals a, not contiguous
    out = host(cp.random.default_rng(15).permuted(view, axis=axis))
    assert out.shape == a.shape
    if axis is None:
        np.testing.assert_array_equal(np.sort(out.ravel()), np.arange(4000.0)[::2])
        return
    np.testing.assert_array_equal(np.sort(out, axis=axis), np.sort(host(view), axis=axis))
    # slices are shuffled independently: not all with one permutation
    moved = np.moveaxis(out, axis, -1)
    ranks = np.argsort(np.argsort(moved, axis=-1), axis=-1)
    assert len({tuple(r) for r in ranks}) > 1


def test_permuted_rows_are_uniform_permutations():
    rows = host(cp.random.default_rng(16).permuted(cp.asarray(np.tile(np.arange(4), (24_000, 1))), axis=1))
    codes = rows @ np.array([64, 16, 4, 1])
    counts = np.unique(codes, return_counts=True)[1]
    assert counts.size == 24
    assert chi_square_p(counts, [1000] * 24) > P_MIN


def test_permuted_out():
    g = cp.random.default_rng(17)
    x = cp.asarray(np.arange(12).reshape(3, 4))
    out = cp.empty((3, 4), dtype=np.float64)
    assert g.permuted(x, axis=1, out=out) is out
    np.testing.assert_array_equal(np.sort(host(out), axis=1), np.arange(12.0).reshape(3, 4))
    assert g.permuted(x, axis=1, out=x) is x  # in place
    np.testing.assert_array_equal(np.sort(host(x), axis=1), np.arange(12).reshape(3, 4))
    with pytest.raises(ValueError, match="out must have the same shape as x"):
        g.permuted(x, out=cp.empty(5))
    with pytest.raises(TypeError, match="according to the rule 'safe'"):
        g.permuted(cp.arange(4.0), out=cp.empty(4, dtype=np.int64))


# ---- multinomial ---------------------------------------------------------------------------
def test_multinomial_sums_and_means(make):
    p = np.array([0.1, 0.0, 0.3, 0.6])
    out = host(make(18).multinomial(50, p, size=(200, 100)), np.int64)
    assert out.shape == (200, 100, 4)
    assert (out.sum(axis=-1) == 50).all()
    assert (out[..., 1] == 0).all()
    counts = out.reshape(-1, 4)
    mean, var = counts.mean(axis=0), counts.var(axis=0)
    assert_means(mean, 50 * p, np.sqrt(50 * p * (1 - p) / counts.shape[0]))
    np.testing.assert_allclose(var, 50 * p * (1 - p), rtol=0.05, atol=1e-12)


def test_multinomial_single_trial_follows_p(make):
    p = np.array([0.2, 0.05, 0.5, 0.25])
    out = host(make(19).multinomial(1, p, size=100_000))
    assert chi_square_p(out.sum(axis=0), p * 100_000) > P_MIN


def test_multinomial_shapes(make):
    r = make(20)
    assert host(r.multinomial(5, [0.5, 0.5])).shape == (2,)
    assert host(r.multinomial(5, [0.5, 0.5], size=3)).shape == (3, 2)
    assert host(r.multinomial(5, [0.5, 0.5], size=(0, 3))).shape == (0, 3, 2)
    assert (host(r.multinomial(0, [0.5, 0.5], size=4)) == 0).all()
    assert (host(r.multinomial(7, [1.0])) == 7).all()


def test_generator_multinomial_broadcasts():
    g = cp.random.default_rng(23)
    n = np.array([[3], [40]])
    pvals = np.array([[0.2, 0.8], [0.5, 0.5], [1.0, 0.0]])
    out = host(g.multinomial(n, pvals))
    assert out.shape == (2, 3, 2)
    np.testing.assert_array_equal(out.sum(axis=-1), np.broadcast_to(n, (2, 3)))
    assert (out[:, 2, 1] == 0).all()
    assert host(g.multinomial(cp.asarray([3, 4]), [0.2, 0.8], size=(5, 2))).shape == (5, 2, 2)


# ---- multivariate normal -------------------------------------------------------------------
MEAN = np.array([1.0, -2.0, 0.5])
COV = np.array([[2.0, 0.6, -0.3], [0.6, 1.0, 0.2], [-0.3, 0.2, 0.5]])


@pytest.mark.parametrize("api, method", [("RandomState", None), ("default_rng", "svd"), ("default_rng", "eigh"),
                                         ("default_rng", "cholesky")])
@pytest.mark.parametrize("on_device", [False, True])
def test_multivariate_normal_moments(api, method, on_device):
    make = getattr(cp.random, api)
    kwargs = {} if method is None else {"method": method}
    mean, cov = (cp.asarray(MEAN), cp.asarray(COV)) if on_device else (MEAN, COV)
    out = host(make(24).multivariate_normal(mean, cov, size=(400, 500), **kwargs), np.float64)
    assert out.shape == (400, 500, 3)
    x = out.reshape(-1, 3)
    np.testing.assert_allclose(x.mean(axis=0), MEAN, atol=0.02)  # about 6 standard errors
    np.testing.assert_allclose(np.cov(x.T), COV, atol=0.03)


def test_multivariate_normal_shapes_and_dtype(make):
    r = make(25)
    assert host(r.multivariate_normal(MEAN, COV), np.float64).shape == (3,)
    assert host(r.multivariate_normal(MEAN, COV, size=4)).shape == (4, 3)
    assert host(r.multivariate_normal(MEAN.astype(np.float32), COV.astype(np.float32)), np.float64).shape == (3,)
    assert host(r.multivariate_normal([0.0], [[0.0]], size=5)).shape == (5, 1)  # degenerate: all zeros
    np.testing.assert_array_equal(host(r.multivariate_normal([0.0], [[0.0]], size=5)), np.zeros((5, 1)))


def test_multivariate_normal_check_valid(make):
    r = make(26)
    bad = [[1.0, 2.0], [2.0, 1.0]]
    with pytest.warns(RuntimeWarning, match="covariance is not symmetric positive-semidefinite."):
        r.multivariate_normal([0, 0], bad)
    with pytest.raises(ValueError, match="covariance is not symmetric positive-semidefinite."):
        r.multivariate_normal([0, 0], bad, check_valid="raise")
    with pytest.raises(ValueError, match="check_valid must equal 'warn', 'raise', or 'ignore'"):
        r.multivariate_normal([0, 0], np.eye(2), check_valid="x")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r.multivariate_normal([0, 0], bad, check_valid="ignore")
        r.multivariate_normal([0, 0], np.eye(2))


def test_generator_multivariate_normal_methods_check():
    g = cp.random.default_rng(27)
    bad = [[1.0, 2.0], [2.0, 1.0]]
    with pytest.warns(RuntimeWarning):
        g.multivariate_normal([0, 0], bad, method="eigh")
    with pytest.raises(cp.linalg.LinAlgError):
        g.multivariate_normal([0, 0], bad, method="cholesky")
    assert cp.linalg.LinAlgError is np.linalg.LinAlgError


# ---- dirichlet -----------------------------------------------------------------------------
@pytest.mark.parametrize("alpha", [[0.5, 1.0, 3.0], [2.0, 2.0], [0.01, 0.05, 0.02], [0.09, 10.0]])
def test_dirichlet_rows_and_moments(make, alpha):
    alpha = np.array(alpha)
    out = host(make(28).dirichlet(alpha, size=100_000), np.float64)
    assert out.shape == (100_000, alpha.size)
    assert np.isfinite(out).all() and (out >= 0).all()
    np.testing.assert_allclose(out.sum(axis=-1), 1.0, rtol=1e-12)
    a0 = alpha.sum()
    mean = alpha / a0
    var = alpha * (a0 - alpha) / (a0**2 * (a0 + 1))
    assert_means(out.mean(axis=0), mean, np.sqrt(var / 100_000))
    np.testing.assert_allclose(out.var(axis=0), var, rtol=0.15)  # near-Bernoulli rows: heavy kurtosis


def test_dirichlet_shapes(make):
    r = make(29)
    assert host(r.dirichlet([1.0, 2.0])).shape == (2,)
    assert host(r.dirichlet([1.0, 2.0], size=(3, 4))).shape == (3, 4, 2)
    assert host(r.dirichlet([])).shape == (0,)


def test_generator_dirichlet_zero_alphas():
    g = cp.random.default_rng(30)
    out = host(g.dirichlet([0.0, 2.0, 0.0, 1.0], size=1000))
    assert (out[:, [0, 2]] == 0).all()
    np.testing.assert_allclose(out.sum(axis=-1), 1.0)
    small = host(g.dirichlet([0.0, 0.05, 0.0], size=100))
    np.testing.assert_array_equal(small, np.tile([0.0, 1.0, 0.0], (100, 1)))
    np.testing.assert_array_equal(host(g.dirichlet([0.0, 0.0], size=3)), np.zeros((3, 2)))


# ---- multivariate hypergeometric -----------------------------------------------------------
@pytest.mark.parametrize("method", ["marginals", "count"])
def test_multivariate_hypergeometric(method):
    g = cp.random.default_rng(33)
    colors = np.array([5, 0, 12, 3, 30])
    out = host(g.multivariate_hypergeometric(colors, 20, size=(100, 1000), method=method), np.int64)
    assert out.shape == (100, 1000, 5)
    assert (out.sum(axis=-1) == 20).all()
    assert (out <= colors).all() and (out >= 0).all() and (out[..., 1] == 0).all()
    total = colors.sum()
    mean = 20 * colors / total
    var = 20 * colors / total * (total - colors) / total * (total - 20) / (total - 1)
    x = out.reshape(-1, 5)
    assert_means(x.mean(axis=0), mean, np.sqrt(var / x.shape[0]))
    np.testing.assert_allclose(x.var(axis=0), var, rtol=0.05, atol=1e-12)


def test_multivariate_hypergeometric_shapes():
    g = cp.random.default_rng(34)
    assert host(g.multivariate_hypergeometric([2, 3], 4)).shape == (2,)
    assert host(g.multivariate_hypergeometric([2, 3], 4, size=3)).shape == (3, 2)
    assert (host(g.multivariate_hypergeometric([2, 3], 0, size=3)) == 0).all()
    np.testing.assert_array_equal(host(g.multivariate_hypergeometric([2, 3], 5)), [2, 3])
    assert host(g.multivariate_hypergeometric([], 0)).shape == (0,)


# ---- module level --------------------------------------------------------------------------
def test_module_level_functions():
    cp.random.seed(35)
    a = [host(cp.random.permutation(10)), host(cp.random.choice(10, 3, replace=False)),
         host(cp.random.multinomial(5, [0.5, 0.5])), host(cp.random.dirichlet([1.0, 1.0])),
         host(cp.random.multivariate_normal([0.0], [[1.0]])), cp.random.bytes(7)]
    cp.random.seed(35)
    b = [host(cp.random.permutation(10)), host(cp.random.choice(10, 3, replace=False)),
         host(cp.random.multinomial(5, [0.5, 0.5])), host(cp.random.dirichlet([1.0, 1.0])),
         host(cp.random.multivariate_normal([0.0], [[1.0]])), cp.random.bytes(7)]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(np.asarray(x) if not isinstance(x, bytes) else np.frombuffer(x, np.uint8),
                                      np.asarray(y) if not isinstance(y, bytes) else np.frombuffer(y, np.uint8))
    x = cp.arange(10)
    cp.random.shuffle(x)
    np.testing.assert_array_equal(np.sort(host(x)), np.arange(10))
