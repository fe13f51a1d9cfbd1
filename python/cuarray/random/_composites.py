"""numpy.random's composite operations, built from a generator's own draws and cuarray's array ops.

Two mixins give ``RandomState`` and ``Generator`` NumPy's signatures, checks and messages for
choice, permutation, shuffle, permuted, bytes, multinomial, multivariate_normal, dirichlet and
multivariate_hypergeometric. Both run on one shared engine (``_CompositeEngine``) that draws only
through the hooks each mixin maps to its class's NumPy-named methods, plus ``_random_bits`` for sort
keys and ``_permutation_prefix`` for samples without replacement. Design, algorithms and the reasons
for them: docs/random_composites.md.
"""
import math
import operator
import warnings

import numpy as _np
from numpy.lib.array_utils import normalize_axis_index as _normalize_axis_index

from .. import _core
from .._creation.creation import asarray, asnumpy, full, zeros
from .._indexing.indexing import take, take_along_axis
from .._manipulation.manipulation import stack
from .._statistics.scans import cumsum
from .._sorting.sorting import argsort, searchsorted
from .._ufunc.ufuncs import exp, log, log1p, sqrt

_INT64_MAX = _np.iinfo(_np.int64).max

# Sort keys of 32 bits tie with probability 2**-32 per pair; above this many elements 64-bit keys
# keep the chance of any tie in a permutation small (docs/random_composites.md, "Key width").
_KEY32_MAX_ELEMENTS = 2 ** 24

# A sample of k from n without replacement is the first k values of the stream's keyed Feistel
# permutation of range(n) (one kernel over k, no sort) when n is at least this large and k at most
# this share of n; elsewhere the first k of the argsort of n random keys, exactly uniform
# (docs/random_composites.md, "choice without replacement").
_BIJECTION_MIN_POPULATION = 2 ** 16
_BIJECTION_MAX_SHARE = 0.25

# Generator.hypergeometric's limit on ngood and nbad (NumPy's), which the marginal draws inherit.
_HYPERGEOMETRIC_MAX = 10**9

_MULTINOMIAL_F32_HINT = (".astype(np.float64)) > 1.0. The pvals array is cast to 64-bit floating point prior "
                         "to checking the sum. Precision changes when casting may cause problems even if the sum "
                         "of the original pvals is valid.")


def _is_device_array(x):
    return isinstance(x, _core.ndarray)


def _host(x, dtype=None):
    """A NumPy view of x (copied from the device when it is a cuarray array)."""
    host = asnumpy(x) if _is_device_array(x) else _np.asarray(x)
    return host if dtype is None else host.astype(dtype, copy=False)


def _shape_tuple(size):
    """size as a shape: None -> (), an integer -> (n,), a sequence of integers -> tuple."""
    if size is None:
        return ()
    try:
        return (operator.index(size),)
    except TypeError:
        pass
    try:
        return tuple(operator.index(s) for s in size)
    except TypeError:
        raise TypeError(f"expected a sequence of integers or a single integer, got '{size!r}'") from None


def _trailing_shape(size, k):
    """NumPy's shape for draws of k-vectors: (k,), (size, k) or size + (k,)."""
    if size is None:
        return (k,)
    try:
        return (operator.index(size), k)
    except TypeError:
        return tuple(size) + (k,)


def _check_dims(shape):
    if any(s < 0 for s in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape


def _key_dtype(n):
    return _np.uint32 if n <= _KEY32_MAX_ELEMENTS else _np.uint64


class _CompositeEngine:
    """The algorithms, shared by both APIs; draws go through the hooks the mixins define."""

    # hooks: _uniform(shape) -> float64 in [0, 1), _below(high, shape) -> int64 in [0, high),
    # _normals(shape) -> float64, _gammas(alpha, shape) -> float64; binomial, hypergeometric,
    # _random_bits and _permutation_prefix come from the class itself.

    # ---- orderings -------------------------------------------------------------------------
    def _random_order(self, n):
        """A uniformly random permutation of range(n), int64: the argsort of random keys."""
        if n == 0:
            return zeros((0,), dtype=_np.int64)
        return argsort(self._random_bits((n,), _key_dtype(n)))

    def _distinct_indices(self, n, k):
        """k distinct indices of range(n) in random order.

        pi(0), ..., pi(k - 1) for the stream's pseudo-random permutation pi of range(n) where that is
        the cheap path and reveals at most a quarter of pi; else the first k of a uniformly random order.
        """
        if k == 0:
            return zeros((0,), dtype=_np.int64)
        if n >= _BIJECTION_MIN_POPULATION and k <= _BIJECTION_MAX_SHARE * n:
            return self._permutation_prefix(n, k)
        return self._random_order(n)[:k]

    def _weighted_distinct_indices(self, p, k):
        """k distinct indices drawn one after another with probabilities p among those left.

        Efraimidis-Spirakis: the order of E_i / p_i (E_i standard exponential) is the law of that
        sequential draw, so one sort replaces NumPy's loop of draws and rejections. p_i = 0 gives
        an infinite (or NaN) key, which sorts after every finite one.
        """
        exponential = -log1p(-self._uniform(p.shape))
        return argsort(exponential / p)[:k]

    def _shuffle_along(self, x, axis):
        """x's slices along axis in a random order, in place."""
        n = x.shape[axis]
        if n > 1:
            x[...] = take(x, self._random_order(n), axis=axis)

    def _shuffle_host(self, x):
        """In-place shuffle of a host mutable sequence or NumPy array along its first axis."""
        n = len(x)
        order = asnumpy(self._random_order(n)) if n > 1 else _np.arange(n)
        if isinstance(x, _np.ndarray):
            x[...] = x[order]
        else:
            items = list(x)
            x[:] = [items[i] for i in order]

    # ---- bytes -----------------------------------------------------------------------------
    def _bytes(self, length):
        if not isinstance(length, (int, float, _np.number)):
            raise TypeError("an integer is required")
        length = int(length)
        words = int((length - 1) / 4) + 1  # C division, as NumPy's: a negative length still draws a word
        raw = asnumpy(self._random_bits((max(words, 0),), _np.uint32)).astype("<u4").tobytes()
        return raw[:length]

    # ---- choice ----------------------------------------------------------------------------
    def _choice(self, a, size, replace, p, axis, messages):
        legacy = messages is _LEGACY_MESSAGES
        a_original = a
        if not _is_device_array(a):
            a = _np.asarray(a)
        if a.ndim == 0:
            try:
                pop_size = operator.index(a.item())
            except TypeError as exc:
                raise ValueError(messages["a_type"].format(type(a_original))) from exc
            if pop_size <= 0 and _np.prod(size) != 0:
                raise ValueError(messages["a_positive"])
        elif legacy and a.ndim != 1:
            raise ValueError("a must be 1-dimensional")
        else:
            pop_size = a.shape[axis]
            if pop_size == 0 and _np.prod(size) != 0:
                raise ValueError(messages["a_empty"])

        if p is not None:
            p, p_positive = self._checked_probabilities(p, pop_size, messages)

        shape = _shape_tuple(size)
        count = math.prod(shape)
        if replace:
            _check_dims(shape)
            if count == 0:
                idx = zeros(shape, dtype=_np.int64)
            elif p is not None:
                cdf = cumsum(asarray(p))
                cdf /= cdf[-1]
                idx = searchsorted(cdf, self._uniform(shape), side="right")
            else:
                idx = self._below(pop_size, shape)
        else:
            if count > pop_size:
                raise ValueError(messages["too_large"])
            if any(s < 0 for s in shape):
                raise ValueError(messages["negative"])
            if p is not None:
                if p_positive < count:
                    raise ValueError("Fewer non-zero entries in p than size")
                idx = self._weighted_distinct_indices(asarray(p), count)
            else:
                idx = self._distinct_indices(pop_size, count)
            idx = idx.reshape(shape)

        if a.ndim == 0:
            return idx
        return take(a if _is_device_array(a) else asarray(a), idx, axis=axis)

    def _checked_probabilities(self, p, pop_size, messages):
        """p as a float64 vector (on the device if it came there) after NumPy's checks, and its count of
        positive entries. Host probabilities are checked on the host; a device vector by one read-back."""
        d = len(p)
        atol = math.sqrt(_np.finfo(_np.float64).eps)
        if isinstance(p, (_np.ndarray, _core.ndarray)) and _np.issubdtype(p.dtype, _np.floating):
            atol = max(atol, math.sqrt(_np.finfo(p.dtype).eps))
        if _is_device_array(p):
            p = p.astype(_np.float64)
            if p.ndim != 1:
                raise ValueError(messages["p_ndim"])
            if p.size != pop_size:
                raise ValueError(messages["p_size"])
            if d:
                total, lowest, positive = asnumpy(stack([p.sum(), p.min(), (p > 0).sum().astype(_np.float64)]))
            else:
                total, lowest, positive = 0.0, 0.0, 0
        else:
            host = _np.ascontiguousarray(p, dtype=_np.float64)
            if host.ndim != 1:
                raise ValueError(messages["p_ndim"])
            if host.size != pop_size:
                raise ValueError(messages["p_size"])
            total = float(host.sum())  # pairwise summation: as good as NumPy's Kahan sum at this tolerance
            lowest = host.min() if d else 0.0
            positive = int(_np.count_nonzero(host > 0))
            p = host
        if _np.isnan(total):
            raise ValueError(messages["p_nan"])
        if lowest < 0:
            raise ValueError(messages["p_negative"])
        if abs(total - 1.0) > atol:
            raise ValueError(messages["p_sum"])
        return p, int(positive)

    # ---- multinomial -----------------------------------------------------------------------
    def _multinomial(self, n, pvals, shape):
        """Counts of shape + (d,) by conditional binomials, as NumPy's random_multinomial.

        n: int64 device array broadcastable to shape; pvals: float64 host array (..., d) whose
        leading dims broadcast to shape. Category j takes Binomial(left, p_j / (1 - p_0 - ... - p_{j-1}));
        the conditional probabilities are computed on the host in NumPy's order of operations.
        """
        d = pvals.shape[-1]
        left = n.astype(_np.int64) + zeros(shape, dtype=_np.int64)
        remaining_p = _np.ones(pvals.shape[:-1])
        counts = []
        for j in range(d - 1):
            with _np.errstate(divide="ignore", invalid="ignore"):
                ratio = _np.clip(_np.nan_to_num(pvals[..., j] / remaining_p, nan=0.0), 0.0, 1.0)
            remaining_p = remaining_p - pvals[..., j]
            if not ratio.any():
                counts.append(zeros(shape, dtype=_np.int64))
                continue
            if (ratio == 1.0).all():
                drawn = left.copy()
            else:
                p_arg = float(ratio) if ratio.ndim == 0 else asarray(ratio)
                drawn = self.binomial(left, p_arg, size=shape).astype(_np.int64)
            counts.append(drawn)
            left = left - drawn
        counts.append(left)
        return stack(counts, axis=-1)

    @staticmethod
    def _check_pvals(parr, pvals_original, slice_repr):
        if ((parr < 0) | (parr > 1) | _np.isnan(parr)).any():
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if (parr[..., :-1].sum(axis=-1) > 1.0 + 1e-12).any():
            if (isinstance(pvals_original, (_np.ndarray, _core.ndarray))
                    and _np.issubdtype(pvals_original.dtype, _np.floating)
                    and pvals_original.dtype != _np.float64 and float(pvals_original.sum()) < 1.0001):
                raise ValueError(f"sum(pvals{slice_repr}" + _MULTINOMIAL_F32_HINT)
            raise ValueError(f"sum(pvals{slice_repr}) > 1.0")

    # ---- multivariate normal ---------------------------------------------------------------
    def _multivariate_normal(self, mean, cov, size, check_valid, tol, method):
        mean = mean if _is_device_array(mean) else _np.asarray(mean)
        cov = cov if _is_device_array(cov) else _np.asarray(cov)
        if mean.dtype.kind == "c" or cov.dtype.kind == "c":
            raise TypeError("mean and cov must not be complex")
        shape = [] if size is None else [size] if isinstance(size, (int, _np.integer)) else size
        if mean.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if mean.shape[0] != cov.shape[0]:
            raise ValueError("mean and cov must have same length")
        try:
            final_shape = list(shape[:])
        except TypeError:
            raise TypeError(f"'{type(shape).__name__}' object is unsliceable") from None
        final_shape.append(mean.shape[0])
        x = self._normals(tuple(final_shape)).reshape(-1, mean.shape[0])
        cov = asarray(cov).astype(_np.float64)
        mean = asarray(mean).astype(_np.float64)

        from .. import linalg
        if method == "svd":
            u, s, vh = linalg.svd(cov)
        elif method == "eigh":
            s, u = linalg.eigh(cov)
        else:
            factor = linalg.cholesky(cov)
        if check_valid != "ignore" and method != "cholesky":
            if check_valid not in ("warn", "raise"):
                raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
            if method == "svd":
                rebuilt = (vh.T * s) @ vh
                psd = bool((abs(rebuilt - cov) <= tol + tol * abs(cov)).all())
            else:
                psd = not bool((s < -tol).any())
            if not psd:
                if check_valid == "warn":
                    warnings.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning,
                                  stacklevel=3)
                else:
                    raise ValueError("covariance is not symmetric positive-semidefinite.")
        if method == "svd":
            factor = u * sqrt(s)
        elif method == "eigh":
            factor = u * sqrt(abs(s))  # a tiny negative eigenvalue must not become NaN
        return (mean + x @ factor.T).reshape(tuple(final_shape))

    # ---- dirichlet -------------------------------------------------------------------------
    def _dirichlet(self, alpha, size):
        """Rows of normalised Gamma(alpha_j) draws; for small alphas the same in log space.

        With every alpha below 0.1 most Gamma draws underflow to 0 and a row becomes 0/0 (NumPy's
        Generator switches to stick-breaking betas for this reason). Gamma(a) = Gamma(a + 1) * U**(1/a)
        gives log-space draws that never underflow, normalised by their row maximum first.
        """
        k = alpha.shape[0]
        shape = _check_dims(_trailing_shape(size, k))
        if k == 0 or math.prod(shape) == 0:
            return zeros(shape, dtype=_np.float64)
        alpha_dev = asarray(alpha)
        if alpha.max() >= 0.1:
            g = self._gammas(alpha_dev, shape)
            return g / g.sum(axis=-1, keepdims=True)
        if not alpha.any():
            return zeros(shape, dtype=_np.float64)  # NumPy's stick-breaking leaves an all-zero row
        with _np.errstate(divide="ignore"):
            inv_alpha = asarray(1.0 / alpha)  # alpha 0 -> inf: that component is exactly 0
        log_g = log(self._gammas(alpha_dev + 1.0, shape)) + log(self._uniform(shape)) * inv_alpha
        g = exp(log_g - log_g.max(axis=-1, keepdims=True))
        return g / g.sum(axis=-1, keepdims=True)

    # ---- multivariate hypergeometric -------------------------------------------------------
    def _multivariate_hypergeometric(self, colors, nsample, size):
        """Colour counts by conditional hypergeometric marginals (NumPy's 'marginals' method)."""
        k = colors.shape[0]
        shape = _check_dims(_trailing_shape(size, k))
        outer = shape[:-1]
        if k == 0 or math.prod(shape) == 0:
            return zeros(shape, dtype=_np.int64)
        left = full(outer, nsample, dtype=_np.int64)
        total = int(colors.sum())
        counts = []
        for j in range(k - 1):
            good = int(colors[j])
            bad = total - good
            if good == 0 or nsample == 0:
                drawn = zeros(outer, dtype=_np.int64)
            elif bad == 0:
                drawn = left.copy()
            else:
                drawn = self.hypergeometric(good, bad, left, size=outer).astype(_np.int64)
            counts.append(drawn)
            left = left - drawn
            total = bad
        counts.append(left)
        return stack(counts, axis=-1)


_LEGACY_MESSAGES = {
    "a_type": "a must be 1-dimensional or an integer",
    "a_positive": "a must be greater than 0 unless no samples are taken",
    "a_empty": "'a' cannot be empty unless no samples are taken",
    "p_ndim": "'p' must be 1-dimensional",
    "p_size": "'a' and 'p' must have same size",
    "p_nan": "probabilities contain NaN",
    "p_negative": "probabilities are not non-negative",
    "p_sum": "probabilities do not sum to 1",
    "too_large": "Cannot take a larger sample than population when 'replace=False'",
    "negative": "Negative dimensions are not allowed",
}

_GENERATOR_MESSAGES = {
    "a_type": "a must be a sequence or an integer, not {}",
    "a_positive": "a must be a positive integer unless no samples are taken",
    "a_empty": "a cannot be empty unless no samples are taken",
    "p_ndim": "p must be 1-dimensional",
    "p_size": "a and p must have same size",
    "p_nan": "Probabilities contain NaN",
    "p_negative": "Probabilities are not non-negative",
    "p_sum": "Probabilities do not sum to 1. See Notes section of docstring for more information.",
    "too_large": "Cannot take a larger sample than population when replace is False",
    "negative": "negative dimensions are not allowed",
}


def _dirichlet_alpha(alpha):
    """alpha as a 1-D float64 host array, with NumPy's errors for other shapes."""
    len(alpha)  # NumPy's TypeError for a scalar: "object of type 'float' has no len()"
    host = _host(alpha, _np.float64)
    if host.ndim != 1:
        raise ValueError("setting an array element with a sequence. The requested array would exceed the "
                         "maximum number of dimension of 1.")
    return host


class LegacyComposites(_CompositeEngine):
    """RandomState's composite methods (numpy.random.RandomState signatures)."""

    def _uniform(self, shape):
        return self.random_sample(size=shape)

    def _below(self, high, shape):
        return self.randint(0, high, size=shape, dtype=_np.int64)

    def _normals(self, shape):
        return self.standard_normal(size=shape)

    def _gammas(self, alpha, shape):
        return self.standard_gamma(alpha, size=shape)

    def choice(self, a, size=None, replace=True, p=None):
        """Random sample of a (or of arange(a)), with or without replacement, uniform or by p."""
        return self._choice(a, size, replace, p, 0, _LEGACY_MESSAGES)

    def permutation(self, x):
        """A permuted copy of x along its first axis, or a permuted arange(x) for an integer x."""
        if isinstance(x, (int, _np.integer)):
            return self._random_order(max(int(x), 0))
        arr = x if _is_device_array(x) else _np.asarray(x)
        if arr.ndim < 1:
            raise IndexError("x must be an integer or at least 1-dimensional")
        return take(asarray(arr), self._random_order(arr.shape[0]), axis=0)

    def shuffle(self, x):
        """Shuffles x in place along its first axis."""
        if _is_device_array(x):
            if x.ndim == 0:
                raise TypeError("len() of unsized object")
            self._shuffle_along(x, 0)
        else:
            self._shuffle_host(x)

    def bytes(self, length):
        """length random bytes."""
        return self._bytes(length)

    def multinomial(self, n, pvals, size=None):
        """Counts of n trials over len(pvals) categories, shape size + (len(pvals),)."""
        if isinstance(n, (list, tuple, _np.ndarray, _core.ndarray)) and _np.ndim(n) != 0:
            raise TypeError("an integer is required")
        if isinstance(pvals, (int, float, _np.number)) or _np.ndim(pvals) == 0:
            raise TypeError("pvals must be a 1-d sequence")
        parr = _host(pvals, _np.float64)
        if parr.ndim != 1:
            raise ValueError("setting an array element with a sequence. The requested array would exceed the "
                             "maximum number of dimension of 1.")
        self._check_pvals(parr, pvals, "[:-1]")
        shape = _check_dims(_trailing_shape(size, parr.shape[0]))
        n = int(n)
        if n < 0:
            raise ValueError("n < 0")
        if math.prod(shape) == 0:
            return zeros(shape, dtype=_np.int64)
        return self._multinomial(asarray(_np.int64(n)), parr, shape[:-1])

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8):
        """Draws from N(mean, cov), factored by SVD as NumPy's RandomState."""
        return self._multivariate_normal(mean, cov, size, check_valid, tol, "svd")

    def dirichlet(self, alpha, size=None):
        """Draws from Dirichlet(alpha), shape size + (len(alpha),)."""
        host = _dirichlet_alpha(alpha)
        if (host <= 0).any():
            raise ValueError("alpha <= 0")
        return self._dirichlet(host, size)


class GeneratorComposites(_CompositeEngine):
    """Generator's composite methods (numpy.random.Generator signatures)."""

    def _uniform(self, shape):
        return self.random(size=shape, dtype=_np.float64)

    def _below(self, high, shape):
        return self.integers(0, high, size=shape, dtype=_np.int64, endpoint=False)

    def _normals(self, shape):
        return self.standard_normal(size=shape, dtype=_np.float64)

    def _gammas(self, alpha, shape):
        return self.standard_gamma(alpha, size=shape, dtype=_np.float64)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """Random sample of a along axis (or of arange(a)), with or without replacement, uniform or by p.

        Samples without replacement always come in random order, so shuffle=False changes nothing.
        """
        return self._choice(a, size, replace, p, axis, _GENERATOR_MESSAGES)

    def permutation(self, x, axis=0):
        """A permuted copy of x along axis, or a permuted arange(x) for an integer x."""
        if isinstance(x, (int, _np.integer)):
            return self._random_order(max(int(x), 0))
        arr = x if _is_device_array(x) else _np.asarray(x)
        axis = _normalize_axis_index(axis, arr.ndim)
        return take(asarray(arr), self._random_order(arr.shape[axis]), axis=axis)

    def permuted(self, x, axis=None, out=None):
        """x with every slice along axis permuted independently (the flattened array when None)."""
        arr = x if _is_device_array(x) else _np.asarray(x)
        if arr.ndim == 0:
            raise TypeError("len() of unsized object")
        if axis is not None:
            axis = _normalize_axis_index(axis, arr.ndim)
        if out is not None:
            if not _is_device_array(out):
                raise TypeError("out must be a cuarray array")
            if out.shape != arr.shape:
                raise ValueError("out must have the same shape as x")
            if not _np.can_cast(arr.dtype, out.dtype, "safe"):
                raise TypeError(f"Cannot cast array data from {arr.dtype!r} to {out.dtype!r} according to the "
                                "rule 'safe'")
        arr = asarray(arr)
        if axis is None:
            flat = arr.reshape(-1)
            result = take(flat, self._random_order(flat.size)).reshape(arr.shape)
        else:
            keys = self._random_bits(arr.shape, _key_dtype(arr.shape[axis]))
            result = take_along_axis(arr, argsort(keys, axis=axis), axis=axis)
        if out is None:
            return result
        out[...] = result
        return out

    def shuffle(self, x, axis=0):
        """Shuffles x in place along axis."""
        if _is_device_array(x):
            if x.ndim == 0:
                raise TypeError("len() of unsized object")
            self._shuffle_along(x, _normalize_axis_index(axis, x.ndim))
        elif isinstance(x, _np.ndarray):
            if x.ndim == 0:
                raise TypeError("len() of unsized object")
            self._shuffle_host(_np.moveaxis(x, _normalize_axis_index(axis, x.ndim), 0))
        else:
            if axis != 0:
                raise NotImplementedError("Axis argument is only supported on ndarray objects")
            self._shuffle_host(x)

    def bytes(self, length):
        """length random bytes."""
        return self._bytes(length)

    def multinomial(self, n, pvals, size=None):
        """Counts of n trials over pvals' last axis; n and pvals[..., 0] broadcast (with size)."""
        parr = _host(pvals, _np.float64)
        if parr.ndim == 0 or parr.shape[-1] == 0:
            raise ValueError("pvals must have at least 1 dimension and the last dimension of pvals must be "
                             "greater than 0.")
        self._check_pvals(parr, pvals, "[:-1]" if parr.ndim == 1 else "[...,:-1]")
        n_arr = n.astype(_np.int64) if _is_device_array(n) else _np.asarray(n).astype(_np.int64)
        if n_arr.size and bool((n_arr < 0).any()):
            raise ValueError("n < 0")
        d = parr.shape[-1]
        batch = _np.broadcast_shapes(n_arr.shape, parr.shape[:-1])
        if size is not None:
            size = _check_dims(_shape_tuple(size))
            try:
                combined = _np.broadcast_shapes(n_arr.shape, parr.shape[:-1], size)
            except ValueError:
                raise ValueError("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
                                 f"between arg 0 with shape {n_arr.shape} and arg 2 with shape {size}.") from None
            if combined != size:
                raise ValueError(f"Output size {size} is not compatible with broadcast dimensions of inputs "
                                 f"{batch}.")
            batch = size
        if math.prod(batch) == 0:
            return zeros(batch + (d,), dtype=_np.int64)
        return self._multinomial(asarray(n_arr), parr, batch)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *, method="svd"):
        """Draws from N(mean, cov), the covariance factored by method ('svd', 'eigh' or 'cholesky')."""
        if method not in {"eigh", "svd", "cholesky"}:
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        return self._multivariate_normal(mean, cov, size, check_valid, tol, method)

    def dirichlet(self, alpha, size=None):
        """Draws from Dirichlet(alpha), shape size + (len(alpha),); alphas of 0 give components of 0."""
        host = _dirichlet_alpha(alpha)
        if (host < 0).any():
            raise ValueError("alpha < 0")
        return self._dirichlet(host, size)

    def multivariate_hypergeometric(self, colors, nsample, size=None, method="marginals"):
        """Counts of each colour in nsample draws without replacement from an urn of colors.

        Both methods draw from the same law; 'count' is accepted and sampled by the marginals.
        """
        if method not in ("count", "marginals"):
            raise ValueError('method must be "count" or "marginals".')
        try:
            nsample = operator.index(nsample)
        except TypeError:
            raise ValueError("nsample must be an integer") from None
        if nsample < 0:
            raise ValueError("nsample must be nonnegative.")
        if nsample > _INT64_MAX:
            raise ValueError(f"nsample must not exceed {_INT64_MAX}")
        try:
            host = _host(colors)
            invalid = (host.ndim != 1 or (host.size > 0 and not _np.issubdtype(host.dtype, _np.integer))
                       or bool(((host < 0) | (host > _INT64_MAX)).any()))
        except (ValueError, OverflowError):
            invalid = True
        if invalid:
            raise ValueError("colors must be a one-dimensional sequence of nonnegative integers not exceeding "
                             f"{_INT64_MAX}.")
        host = host.astype(_np.int64)
        if host.sum(dtype=_np.float64) > _INT64_MAX or sum(int(c) for c in host) > _INT64_MAX:
            raise ValueError("sum(colors) must not exceed the maximum value of a 64 bit signed integer "
                             f"({_INT64_MAX})")
        if nsample > int(host.sum()):
            raise ValueError("nsample > sum(colors)")
        remaining = _np.cumsum(host[::-1])[::-1]  # colours j.. together: colour j's draw is (j, the rest)
        if host.size > 1 and max(host[:-1].max(), remaining[1:].max()) >= _HYPERGEOMETRIC_MAX:
            raise NotImplementedError("multivariate_hypergeometric draws each colour against the rest with "
                                      f"hypergeometric(), which takes fewer than {_HYPERGEOMETRIC_MAX} items of each "
                                      "kind: a colour or the colours after it sum to more")
        return self._multivariate_hypergeometric(host, nsample, size)
