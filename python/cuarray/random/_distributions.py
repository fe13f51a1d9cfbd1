"""The parameterised distributions both RandomState and Generator have, with NumPy's signatures.

Each is one call of the C++ engine's table-driven sampler (src/ops/random/distribution_table.cpp):
parameters broadcast as NumPy's, invalid ones raise NumPy's ValueError with NumPy's message.
"""
import numpy as _np

from .._core import ndarray
from ._arguments import normalize_size, parameter


class Distributions:
    """Mixin: needs ``self._stream`` (a ``_core.PhiloxStream``)."""

    def _sample(self, name, params, size, dtype=None):
        return self._stream.sample(name, tuple(parameter(p) for p in params), normalize_size(size), dtype)

    def uniform(self, low=0.0, high=1.0, size=None):
        return self._sample("uniform", (low, high), size)

    def normal(self, loc=0.0, scale=1.0, size=None):
        return self._sample("normal", (loc, scale), size)

    def exponential(self, scale=1.0, size=None):
        return self._sample("exponential", (scale,), size)

    def gamma(self, shape, scale=1.0, size=None):
        return self._sample("gamma", (shape, scale), size)

    def beta(self, a, b, size=None):
        return self._sample("beta", (a, b), size)

    def chisquare(self, df, size=None):
        return self._sample("chisquare", (df,), size)

    def noncentral_chisquare(self, df, nonc, size=None):
        return self._sample("noncentral_chisquare", (df, nonc), size)

    def f(self, dfnum, dfden, size=None):
        return self._sample("f", (dfnum, dfden), size)

    def noncentral_f(self, dfnum, dfden, nonc, size=None):
        return self._sample("noncentral_f", (dfnum, dfden, nonc), size)

    def standard_t(self, df, size=None):
        return self._sample("standard_t", (df,), size)

    def standard_cauchy(self, size=None):
        return self._sample("standard_cauchy", (), size)

    def pareto(self, a, size=None):
        return self._sample("pareto", (a,), size)

    def weibull(self, a, size=None):
        return self._sample("weibull", (a,), size)

    def power(self, a, size=None):
        return self._sample("power", (a,), size)

    def laplace(self, loc=0.0, scale=1.0, size=None):
        return self._sample("laplace", (loc, scale), size)

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        return self._sample("gumbel", (loc, scale), size)

    def logistic(self, loc=0.0, scale=1.0, size=None):
        return self._sample("logistic", (loc, scale), size)

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        return self._sample("lognormal", (mean, sigma), size)

    def rayleigh(self, scale=1.0, size=None):
        return self._sample("rayleigh", (scale,), size)

    def vonmises(self, mu, kappa, size=None):
        return self._sample("vonmises", (mu, kappa), size)

    def wald(self, mean, scale, size=None):
        return self._sample("wald", (mean, scale), size)

    def triangular(self, left, mode, right, size=None):
        return self._sample("triangular", (left, mode, right), size)

    def binomial(self, n, p, size=None):
        return self._sample("binomial", (n, p), size)

    def negative_binomial(self, n, p, size=None):
        return self._sample("negative_binomial", (n, p), size)

    def poisson(self, lam=1.0, size=None):
        return self._sample("poisson", (lam,), size)

    def geometric(self, p, size=None):
        return self._sample("geometric", (p,), size)

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        return self._sample("hypergeometric", (ngood, nbad, nsample), size)

    def logseries(self, p, size=None):
        return self._sample("logseries", (p,), size)

    def zipf(self, a, size=None):
        return self._sample("zipf", (a,), size)

    def _random_bits(self, shape, dtype):
        """Uniformly random uint32 or uint64 words (sort keys for the composite operations)."""
        return self._stream.random_bits(normalize_size(shape) or (), dtype)

    def _permutation_prefix(self, n, k):
        """pi(0), ..., pi(k - 1) (int64) for a pseudo-random permutation pi of range(n) keyed by the stream."""
        return self._stream.permutation_prefix(n, k)

    def _integers(self, low, high, size, dtype, endpoint, what):
        """integers/randint: [low, high) or [low, high]; high=None draws from [0, low)."""
        dtype = _np.dtype(dtype)
        if dtype.kind not in "biu":
            raise TypeError(f"Unsupported dtype {dtype!r} for {what}")
        low = parameter(low)
        if high is None:
            if not isinstance(low, ndarray) and low <= 0:
                raise ValueError("high <= 0")
            low, high = 0, low
        high = parameter(high)
        # Python ints beyond 64 bits: NumPy's bound errors, before the C++ conversion overflows.
        if isinstance(low, int) and low < -2**63:
            raise ValueError(f"low is out of bounds for {dtype.name}")
        if isinstance(high, int) and high > 2**64:
            raise ValueError(f"high is out of bounds for {dtype.name}")
        return self._stream.integers(low, high, normalize_size(size), dtype, endpoint)
