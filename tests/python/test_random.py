"""cuarray.random on the GPU: reproducibility per seed (also across processes), independence of
successive calls, goodness of fit of EVERY distribution against scipy.stats (Kolmogorov-Smirnov
for continuous laws, chi-square for discrete ones; fixed seeds and p > 1e-4, so the suite is
deterministic), moments, edge parameters, broadcasting of array parameters, device-side checks of
array parameters with NumPy's messages, and float32 generated natively."""
import math

import numpy as np
import pytest

import cuarray as cp
from helpers import run_python

pytestmark = pytest.mark.gpu

N = 100_000
P_MIN = 1e-4  # deterministic: every seed is fixed, so a pass stays a pass


def host(a, dtype=None):
    assert type(a) is cp.ndarray, type(a)
    if dtype is not None:
        assert a.dtype == dtype, a.dtype
    return cp.asnumpy(a)


def stats():
    return pytest.importorskip("scipy.stats")


def assert_ks(sample, dist):
    result = stats().kstest(sample.astype(np.float64), dist.cdf)
    assert result.pvalue > P_MIN, (result, sample[:10])


def assert_chisquare(sample, dist):
    """Chi-square over the integers from dist's 1e-6 quantile to its 1 - 1e-6 quantile, the tails
    folded into the end bins and neighbouring bins merged until each expects >= 5."""
    lo, hi = int(dist.ppf(1e-6)), int(dist.ppf(1 - 1e-6))
    ks = np.arange(lo, hi + 1)
    expected = dist.pmf(ks) * sample.size
    expected[0] = dist.cdf(lo) * sample.size
    expected[-1] = dist.sf(hi - 1) * sample.size
    observed = np.bincount(np.clip(sample, lo, hi) - lo, minlength=ks.size).astype(np.float64)
    obs_bins, exp_bins, o, e = [], [], 0.0, 0.0
    for ob, ex in zip(observed, expected):
        o, e = o + ob, e + ex
        if e >= 5:
            obs_bins.append(o), exp_bins.append(e)
            o = e = 0.0
    if e > 0:
        obs_bins[-1] += o
        exp_bins[-1] += e
    obs_bins, exp_bins = np.array(obs_bins), np.array(exp_bins)
    if obs_bins.size < 2:
        assert np.all(sample == sample[0])
        return
    result = stats().chisquare(obs_bins, exp_bins * obs_bins.sum() / exp_bins.sum())
    assert result.pvalue > P_MIN, (result, obs_bins, exp_bins)


def assert_mean(sample, dist):
    mean, var = dist.mean(), dist.var()
    if not (np.isfinite(mean) and np.isfinite(var)):
        return
    sigma = math.sqrt(var / sample.size)
    assert abs(sample.mean() - mean) <= 6 * sigma + 1e-12 * abs(mean), (sample.mean(), mean, sigma)


# name, parameters, scipy law (built lazily), discrete?
def _cases():
    s = "scipy.stats"
    return [
        ("uniform", (-2.0, 3.0), lambda st: st.uniform(-2, 5), False),
        ("normal", (1.5, 2.0), lambda st: st.norm(1.5, 2.0), False),
        ("exponential", (2.0,), lambda st: st.expon(scale=2.0), False),
        ("standard_gamma", (0.3,), lambda st: st.gamma(0.3), False),
        ("standard_gamma", (4.5,), lambda st: st.gamma(4.5), False),
        ("gamma", (2.5, 3.0), lambda st: st.gamma(2.5, scale=3.0), False),
        ("gamma", (1.0, 2.0), lambda st: st.gamma(1.0, scale=2.0), False),
        ("beta", (0.5, 0.7), lambda st: st.beta(0.5, 0.7), False),
        ("beta", (2.0, 5.0), lambda st: st.beta(2.0, 5.0), False),
        ("chisquare", (3.0,), lambda st: st.chi2(3.0), False),
        ("noncentral_chisquare", (3.0, 2.0), lambda st: st.ncx2(3.0, 2.0), False),
        ("noncentral_chisquare", (0.5, 2.0), lambda st: st.ncx2(0.5, 2.0), False),
        ("f", (5.0, 7.0), lambda st: st.f(5.0, 7.0), False),
        ("noncentral_f", (5.0, 7.0, 2.0), lambda st: st.ncf(5.0, 7.0, 2.0), False),
        ("standard_t", (3.0,), lambda st: st.t(3.0), False),
        ("standard_cauchy", (), lambda st: st.cauchy(), False),
        ("pareto", (3.0,), lambda st: st.lomax(3.0), False),
        ("weibull", (1.5,), lambda st: st.weibull_min(1.5), False),
        ("power", (2.5,), lambda st: st.powerlaw(2.5), False),
        ("laplace", (1.0, 2.0), lambda st: st.laplace(1.0, 2.0), False),
        ("gumbel", (1.0, 2.0), lambda st: st.gumbel_r(1.0, 2.0), False),
        ("logistic", (1.0, 2.0), lambda st: st.logistic(1.0, 2.0), False),
        ("lognormal", (0.5, 0.75), lambda st: st.lognorm(0.75, scale=math.exp(0.5)), False),
        ("rayleigh", (2.0,), lambda st: st.rayleigh(scale=2.0), False),
        ("vonmises", (0.0, 2.0), lambda st: st.vonmises(2.0), False),
        ("vonmises", (0.0, 1e-6), lambda st: st.vonmises(1e-6), False),
        ("wald", (1.5, 2.0), lambda st: st.invgauss(0.75, scale=2.0), False),
        ("triangular", (-1.0, 0.5, 2.0), lambda st: st.triang(0.5, loc=-1.0, scale=3.0), False),
        ("binomial", (10, 0.3), lambda st: st.binom(10, 0.3), True),
        ("binomial", (1000, 0.4), lambda st: st.binom(1000, 0.4), True),
        ("binomial", (100, 0.8), lambda st: st.binom(100, 0.8), True),
        # n p = 30: the last case NumPy inverts (the bulk fill's CDF table).
        ("binomial", (100, 0.3), lambda st: st.binom(100, 0.3), True),
        ("negative_binomial", (5.0, 0.3), lambda st: st.nbinom(5.0, 0.3), True),
        ("poisson", (3.0,), lambda st: st.poisson(3.0), True),
        ("poisson", (50.0,), lambda st: st.poisson(50.0), True),
        ("poisson", (80.0,), lambda st: st.poisson(80.0), True),  # PTRS: past the CDF table's reach
        ("geometric", (0.5,), lambda st: st.geom(0.5), True),
        ("geometric", (0.05,), lambda st: st.geom(0.05), True),
        ("hypergeometric", (5, 10, 4), lambda st: st.hypergeom(15, 5, 4), True),
        ("hypergeometric", (100, 200, 50), lambda st: st.hypergeom(300, 100, 50), True),
        ("hypergeometric", (300, 200, 495), lambda st: st.hypergeom(500, 300, 495), True),
        ("logseries", (0.5,), lambda st: st.logser(0.5), True),
        ("logseries", (0.95,), lambda st: st.logser(0.95), True),
        ("zipf", (2.5,), lambda st: st.zipf(2.5), True),
    ]


CASES = _cases()


@pytest.mark.parametrize("api", ["legacy", "generator"])
@pytest.mark.parametrize("name, params, law, discrete", CASES, ids=[f"{c[0]}{c[1]}" for c in CASES])
def test_goodness_of_fit(api, name, params, law, discrete):
    st = stats()
    rng = cp.random.RandomState(1234) if api == "legacy" else cp.random.default_rng(1234)
    sample = host(getattr(rng, name)(*params, size=N), np.int64 if discrete else np.float64)
    assert sample.shape == (N,)
    dist = law(st)
    (assert_chisquare if discrete else assert_ks)(sample, dist)
    assert_mean(sample.astype(np.float64), dist)


@pytest.mark.parametrize(
    "name, params, law",
    [
        ("binomial", (10, 0.3), lambda st: st.binom(10, 0.3)),
        ("binomial", (100, 0.3), lambda st: st.binom(100, 0.3)),
        ("binomial", (100, 0.8), lambda st: st.binom(100, 0.8)),
        ("poisson", (3.0,), lambda st: st.poisson(3.0)),
        ("poisson", (10.0,), lambda st: st.poisson(10.0)),
        ("poisson", (50.0,), lambda st: st.poisson(50.0)),
    ],
)
def test_discrete_scalar_and_array_parameters_fit_alike(name, params, law):
    # Scalar parameters take the bulk fill's CDF table; an array first parameter the per-element
    # sampler (multiplication/PTRS, inversion/BTPE): both follow the law.
    st = stats()
    rng = cp.random.default_rng(99)
    first = cp.full(N, params[0], dtype=cp.int64 if name == "binomial" else cp.float64)
    for args in (params, (first,) + params[1:]):
        sample = host(getattr(rng, name)(*args, size=N), np.int64)
        assert_chisquare(sample, law(st))
        assert_mean(sample.astype(np.float64), law(st))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_bulk_fills_fit(dtype):
    st = stats()
    g = cp.random.default_rng(99)
    u = host(g.random(N, dtype=dtype), dtype)
    assert u.min() >= 0 and u.max() < 1
    assert_ks(u, st.uniform())
    assert_ks(host(g.standard_normal(N, dtype=dtype), dtype), st.norm())
    assert_ks(host(g.standard_exponential(N, dtype=dtype), dtype), st.expon())
    assert_ks(host(g.standard_gamma(2.5, N, dtype=dtype), dtype), st.gamma(2.5))
    assert_ks(host(g.standard_gamma(0.4, N, dtype=dtype), dtype), st.gamma(0.4))
    rs = cp.random.RandomState(3)
    assert_ks(host(rs.rand(N), np.float64), st.uniform())
    assert_ks(host(rs.randn(N), np.float64), st.norm())
    assert_ks(host(rs.standard_exponential(N), np.float64), st.expon())


@pytest.mark.parametrize("dtype, low, high, endpoint", [
    (np.int64, 0, 1000, False), (np.int8, -128, 127, True), (np.uint8, 0, 256, False),
    (np.int32, -5, 7, False), (np.uint64, 0, 2**64 - 1, True), (np.int64, -2**63, 2**63 - 1, True),
    (np.int16, 0, 1, False), (np.bool_, 0, 2, False), (np.uint32, 3, 2**32, False),
])
def test_integers_every_dtype(dtype, low, high, endpoint):
    g = cp.random.default_rng(5)
    values = host(g.integers(low, high, size=N, dtype=dtype, endpoint=endpoint), np.dtype(dtype))
    top = high if endpoint else high - 1
    assert values.min() >= low and values.max() <= top
    if top == low:  # one possible value: the bounds above are the whole law
        assert values.min() == values.max() == low
    elif top - low < 1000:
        counts = np.bincount((values.astype(np.int64) - low), minlength=top - low + 1)
        st = stats()
        assert st.chisquare(counts).pvalue > P_MIN
    else:
        # Wide ranges: the top bits are uniform (unbiased across the whole span).
        frac = (values.astype(np.float64) - float(low)) / (float(top) - float(low))
        assert_ks(frac, stats().uniform())


def test_randint_defaults_and_array_bounds():
    rs = cp.random.RandomState(8)
    assert rs.randint(5, size=10).dtype == np.int64
    assert rs.randint(5).shape == ()
    low = cp.asarray(np.array([0, 10, -50]))
    high = cp.asarray(np.array([[1], [20]]) * np.array([1, 2, 3]) + 100)
    values = host(rs.randint(low, high, size=(2, 3)))
    assert np.all(values >= cp.asnumpy(low)) and np.all(values < cp.asnumpy(high))
    g = cp.random.default_rng(8)
    ends = host(g.integers(cp.asarray(np.array([3, 3])), cp.asarray(np.array([3, 4])), size=(1000, 2), endpoint=True))
    assert np.all(ends[:, 0] == 3) and set(np.unique(ends[:, 1])) == {3, 4}
    with pytest.raises(ValueError, match="^low >= high$"):
        rs.randint(cp.asarray(np.array([1, 5])), cp.asarray(np.array([2, 5])))
    with pytest.raises(ValueError, match="^low is out of bounds for uint8$"):
        g.integers(cp.asarray(np.array([-1, 0])), 5, dtype=np.uint8)
    with pytest.raises(ValueError, match="^high is out of bounds for int8$"):
        g.integers(0, cp.asarray(np.array([5, 129])), dtype=np.int8)


def test_random_integers_and_tomaxint():
    rs = cp.random.RandomState(3)
    with pytest.warns(DeprecationWarning):
        values = host(rs.random_integers(1, 6, size=N))
    assert set(np.unique(values)) == set(range(1, 7))
    assert host(rs.tomaxint(size=100)).min() >= 0


# ---- reproducibility and independence ----

DRAWS = {
    "rand": lambda r: r.rand(1000),
    "randn": lambda r: r.randn(1000),
    "randint": lambda r: r.randint(0, 1000, size=1000),
    "gamma": lambda r: r.gamma(0.5, size=1000),
    "binomial": lambda r: r.binomial(100, 0.4, size=1000),
    "normal_array": lambda r: r.normal(cp.arange(1000.0), 1.0),
}


@pytest.mark.parametrize("name", list(DRAWS))
def test_seed_reproduces_and_calls_are_independent(name):
    draw = DRAWS[name]
    a = cp.random.RandomState(1234)
    first, second = host(draw(a)), host(draw(a))
    b = cp.random.RandomState(1234)
    np.testing.assert_array_equal(host(draw(b)), first)
    np.testing.assert_array_equal(host(draw(b)), second)
    assert not np.array_equal(first, second)
    assert not np.array_equal(host(draw(cp.random.RandomState(4321))), first)
    # Successive calls are uncorrelated.
    if name in ("rand", "randn", "gamma"):
        assert abs(np.corrcoef(first, second)[0, 1]) < 0.15


def test_module_level_seed_reproduces():
    cp.random.seed(77)
    a = host(cp.random.random((3, 4)))
    b = host(cp.random.standard_normal(10))
    cp.random.seed(77)
    np.testing.assert_array_equal(host(cp.random.random_sample((3, 4))), a)
    np.testing.assert_array_equal(host(cp.random.randn(10)), b)
    state = cp.random.get_random_state().get_state()
    c = host(cp.random.poisson(4.0, size=100))
    cp.random.get_random_state().set_state(state)
    np.testing.assert_array_equal(host(cp.random.poisson(4.0, size=100)), c)


def test_reproducible_across_processes():
    code = ("import cuarray as cp, numpy as np\n"
            "print(cp.asnumpy(cp.random.RandomState(2024).gamma(2.0, size=8)).tobytes().hex())\n"
            "print(cp.asnumpy(cp.random.default_rng(2024).standard_normal(8, dtype=np.float32)).tobytes().hex())\n"
            "print(cp.asnumpy(cp.random.default_rng(2024).integers(0, 10**9, 8)).tobytes().hex())\n")
    lines = run_python(code).split()
    assert lines[0] == host(cp.random.RandomState(2024).gamma(2.0, size=8)).tobytes().hex()
    assert lines[1] == host(cp.random.default_rng(2024).standard_normal(8, dtype=np.float32)).tobytes().hex()
    assert lines[2] == host(cp.random.default_rng(2024).integers(0, 10**9, 8)).tobytes().hex()


def test_values_do_not_depend_on_the_call_split():
    """Element e is a function of (seed, offset + e): one call of 3000 equals calls of 1000 + 2000."""
    whole = host(cp.random.RandomState(5).gamma(3.0, size=3000))
    r = cp.random.RandomState(5)
    parts = np.concatenate([host(r.gamma(3.0, size=1000)), host(r.gamma(3.0, size=2000))])
    np.testing.assert_array_equal(parts, whole)
    g1, g2 = cp.random.default_rng(6), cp.random.default_rng(6)
    np.testing.assert_array_equal(host(g1.random(4097)), host(g2.random((17, 241))).ravel())


def test_spawned_generators_differ():
    children = cp.random.default_rng(1).spawn(2)
    a, b = (host(c.random(1000)) for c in children)
    assert not np.array_equal(a, b)


# ---- shapes, dtypes, broadcasting ----

def test_shapes_and_scalar_results():
    rs = cp.random.RandomState(0)
    assert rs.normal().shape == () and rs.normal().dtype == np.float64
    assert rs.binomial(5, 0.5).dtype == np.int64
    assert rs.normal(size=(2, 3, 4)).shape == (2, 3, 4)
    assert rs.normal(size=0).shape == (0,)
    assert rs.gamma(cp.ones((0, 3)), 1.0).shape == (0, 3)
    assert rs.rand().shape == () and rs.rand(2, 3).shape == (2, 3)
    g = cp.random.default_rng(0)
    assert g.random((2, 2), dtype=np.float32).dtype == np.float32
    assert g.standard_gamma(2.0, size=3, dtype=np.float32).dtype == np.float32
    assert g.standard_gamma(cp.asarray(np.array([1.0, 2.0], np.float32)), dtype=np.float32).shape == (2,)


def test_cupy_dtype_extension_of_random_state():
    rs = cp.random.RandomState(4)
    st = stats()
    assert_ks(host(rs.normal(1.0, 2.0, size=N, dtype=np.float32), np.float32), st.norm(1.0, 2.0))
    assert_ks(host(rs.uniform(-1.0, 1.0, size=N, dtype=np.float32), np.float32), st.uniform(-1, 2))
    loc = cp.asarray(np.array([0.0, 10.0]))
    values = host(rs.normal(loc, 1.0, size=(N, 2), dtype=np.float32), np.float32)
    np.testing.assert_allclose(values.mean(axis=0), [0, 10], atol=0.02)
    assert host(rs.random_sample(10, dtype=np.float32), np.float32).max() < 1
    assert rs.rand(3, 2, dtype=np.float32).dtype == np.float32
    assert rs.randn(3, dtype=np.float32).dtype == np.float32


def test_array_parameters_broadcast():
    rs = cp.random.RandomState(11)
    loc = cp.asarray(np.array([[0.0], [100.0], [-100.0]]))
    scale = cp.asarray(np.array([1.0, 5.0]))
    values = host(rs.normal(loc, scale, size=(20000, 3, 2)))
    assert values.shape == (20000, 3, 2)
    np.testing.assert_allclose(values.mean(axis=0), np.broadcast_to(cp.asnumpy(loc), (3, 2)), atol=0.2)
    np.testing.assert_allclose(values.std(axis=0), np.broadcast_to(cp.asnumpy(scale), (3, 2)), rtol=0.05)
    n = cp.asarray(np.array([0, 10, 1000]))
    p = np.array([0.5, 0.0, 1.0, 0.25]).reshape(4, 1)
    counts = host(rs.binomial(n, p))  # a host array parameter moves to the device
    expected = np.broadcast_to(cp.asnumpy(n), (4, 3)) * p
    assert counts.shape == (4, 3)
    np.testing.assert_array_equal(counts[1:3], expected[1:3])  # p = 0 and p = 1
    assert np.all(counts[3] <= cp.asnumpy(n))
    # Strided, negative-stride and list parameters.
    lam = cp.asarray(np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]))[::-2]
    assert host(rs.poisson(lam, size=(1000, 3))).mean(axis=0) == pytest.approx([6, 4, 2], rel=0.1)
    assert rs.uniform([0, 1], [[2], [3], [4]]).shape == (3, 2)
    with pytest.raises(ValueError, match="shape mismatch"):
        rs.normal(cp.zeros(3), 1.0, size=(2,))
    with pytest.raises(ValueError, match="is not compatible with broadcast dimensions"):
        rs.normal(cp.zeros((2, 1)), 1.0, size=(3,))


@pytest.mark.parametrize("api", ["legacy", "generator"])
@pytest.mark.parametrize("name, params, message", [
    ("normal", (0.0, [1.0, -1.0]), "scale < 0"),
    ("gamma", ([1.0, -0.0], 1.0), "shape < 0"),
    ("binomial", (5, [0.5, np.nan]), "p < 0, p > 1 or p contains NaNs"),
    ("poisson", ([1.0, np.nan],), "lam value too large"),
    ("poisson", ([1.0, -1.0],), "lam < 0 or lam contains NaNs"),
    ("zipf", ([2.0, 1.0],), "a <= 1 or a contains NaNs"),
    ("triangular", ([0.0, 1.0], 0.5, 2.0), "left > mode"),
    ("hypergeometric", ([5, 5], [5, 5], [3, 11]), "ngood + nbad < nsample"),
    ("logseries", ([0.5, 1.0],), "p < 0, p >= 1 or p contains NaNs"),
])
def test_array_parameters_checked_on_device(api, name, params, message):
    np_rng = np.random.RandomState(0) if api == "legacy" else np.random.default_rng(0)
    with pytest.raises(ValueError) as expected:
        getattr(np_rng, name)(*[np.asarray(p) for p in params])
    assert str(expected.value) == message
    rng = cp.random.RandomState(0) if api == "legacy" else cp.random.default_rng(0)
    device = [cp.asarray(np.asarray(p)) if isinstance(p, list) else p for p in params]
    with pytest.raises(ValueError) as got:
        getattr(rng, name)(*device)
    assert str(got.value) == message


def test_generator_out():
    g = cp.random.default_rng(3)
    out = cp.empty((4, 5), dtype=np.float32)
    assert g.random(out=out, dtype=np.float32) is out
    assert host(out).max() < 1
    assert g.standard_normal(out=cp.empty(7)).shape == (7,)
    with pytest.raises(TypeError, match="wrong type"):
        g.random(out=cp.empty(3, dtype=np.float32))
    with pytest.raises(ValueError, match="size must match out.shape"):
        g.random(size=4, out=cp.empty(3))


# ---- edge parameters ----

def test_edge_parameters():
    rs = cp.random.RandomState(21)
    g = cp.random.default_rng(21)
    assert np.all(host(rs.binomial(0, 0.5, size=100)) == 0)
    assert np.all(host(rs.binomial(7, 0.0, size=100)) == 0)
    assert np.all(host(rs.binomial(7, 1.0, size=100)) == 7)
    assert np.all(host(rs.poisson(0.0, size=100)) == 0)
    assert np.all(host(g.hypergeometric(5, 5, 0, size=100)) == 0)
    assert np.all(host(rs.hypergeometric(5, 7, 12, size=100)) == 5)
    assert np.all(host(g.negative_binomial(3, 1.0, size=100)) == 0)
    assert np.all(host(rs.geometric(1.0, size=100)) == 1)
    assert np.all(host(rs.logseries(0.0, size=100)) == 1)
    assert np.all(host(rs.weibull(0.0, size=100)) == 0)
    assert np.all(host(rs.standard_gamma(0.0, size=100)) == 0)
    assert np.all(host(rs.uniform(2.0, 2.0, size=100)) == 2.0)
    assert np.all(host(rs.normal(3.0, 0.0, size=100)) == 3.0)
    assert np.all(host(rs.zipf(1e6, size=100)) == 1)
    tiny = host(rs.gamma(1e-3, size=N))
    assert np.all(tiny >= 0) and abs(tiny.mean() - 1e-3) < 6 * math.sqrt(1e-3 / N)
    huge = host(rs.gamma(1e10, size=N))
    assert abs(huge.mean() / 1e10 - 1) < 1e-5 and abs(huge.std() / 1e5 - 1) < 0.02
    big_n = host(rs.binomial(2**40, 0.5, size=1000))
    assert abs(big_n.mean() / 2**39 - 1) < 1e-5
    big_lam = host(rs.poisson(1e12, size=1000))
    assert abs(big_lam.mean() / 1e12 - 1) < 1e-5
    wide = host(g.vonmises(1.0, 1e8, size=1000))
    assert np.all(np.abs(wide - 1.0) < 0.01)
    flat = host(g.vonmises(0.0, 0.0, size=N))
    assert_ks(flat, stats().uniform(-math.pi, 2 * math.pi))


# ---- a property: result shapes and broadcast errors are NumPy's for any parameter shapes ----

from hypothesis import given, strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

SHAPES = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3)


@given(loc_shape=SHAPES, scale_shape=SHAPES, size=st.one_of(st.none(), SHAPES),
       api=st.sampled_from(["legacy", "generator"]))
def test_broadcast_shapes_property(loc_shape, scale_shape, size, api):
    loc = np.arange(int(np.prod(loc_shape)), dtype=np.float64).reshape(loc_shape)
    scale = np.ones(scale_shape)
    np_rng = np.random.RandomState(0) if api == "legacy" else np.random.default_rng(0)
    try:
        expected = np.shape(np_rng.normal(loc, scale, size=size))
        error = None
    except ValueError as e:
        error = e
    rng = cp.random.RandomState(0) if api == "legacy" else cp.random.default_rng(0)
    if error is not None:
        with pytest.raises(ValueError) as got:
            rng.normal(cp.asarray(loc), cp.asarray(scale), size=size)
        assert str(got.value) == str(error)
    else:
        assert rng.normal(cp.asarray(loc), cp.asarray(scale), size=size).shape == expected
