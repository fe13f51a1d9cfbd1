"""NumPy's counting functions: bincount, digitize, histogram, histogram_bin_edges, histogram2d, histogramdd.

The per-element work (binning, counting with atomics) runs on the GPU (src/ops/histograms/histograms.cpp).
The edges, the range and the dtypes of NumPy's equal-bin arithmetic are a handful of numbers: they
are computed here on the host with NumPy's own code paths (numpy/lib/_histograms_impl.py), so the
bins match NumPy's exactly, including its float rounding correction.
"""
import operator

import numpy as _np

from .. import _core
from .._core import ndarray
from .._creation.creation import asarray, from_numpy

__all__ = ["bincount", "digitize", "histogram", "histogram_bin_edges", "histogram2d", "histogramdd"]

_range = range


def bincount(x, weights=None, minlength=0):
    """Number of occurrences of each value in an array of non-negative ints (sums of weights with weights)."""
    if minlength is None:
        raise TypeError("use 0 instead of None for minlength")
    minlength = operator.index(minlength)
    x = asarray(x)
    weights = None if weights is None else asarray(weights)
    return _core.bincount(x, weights, minlength)


def _host_scalar(zero_d):
    """A 0-d device array as the NumPy scalar NumPy's own reduction would give."""
    return zero_d.get()[()]


def digitize(x, bins, right=False):
    """Indices of the bins to which each value belongs (bins increasing or decreasing)."""
    x = asarray(x)
    bins = asarray(bins)
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    if bins.ndim != 1:
        raise ValueError("object too deep for desired array" if bins.ndim > 1 else
                         "object of too small depth for desired array")
    mono = _monotonicity(bins.get().astype(_np.float64))
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    return _core.digitize(x, bins, bool(right), mono == -1)


def _monotonicity(b):
    """NumPy's check_array_monotonic: 1 increasing, -1 decreasing, 0 neither; leading repeats are
    skipped and the first differing pair decides the direction (NaN compares as in C)."""
    differing = _np.nonzero(b[1:] != b[0])[0] + 1 if b.size else []
    if len(differing) == 0:
        return 1
    i = differing[0]
    rest_prev, rest_next = b[i:-1], b[i + 1:]
    if b[0] < b[i]:
        return 0 if _np.any(rest_prev > rest_next) else 1
    return 0 if _np.any(rest_prev < rest_next) else -1


def _outer_edges(a, range):
    """NumPy's _get_outer_edges: the range, or the data's min and max (one small read each)."""
    if range is not None:
        first_edge, last_edge = range
        if first_edge > last_edge:
            raise ValueError("max must be larger than min in range parameter.")
        if not (_np.isfinite(first_edge) and _np.isfinite(last_edge)):
            raise ValueError(f"supplied range of [{first_edge}, {last_edge}] is not finite")
    elif a.size == 0:
        first_edge, last_edge = 0, 1
    else:
        first_edge, last_edge = _host_scalar(a.min()), _host_scalar(a.max())
        if not (_np.isfinite(first_edge) and _np.isfinite(last_edge)):
            raise ValueError(f"autodetected range of [{first_edge}, {last_edge}] is not finite")
    if first_edge == last_edge:
        first_edge = first_edge - 0.5
        last_edge = last_edge + 0.5
    return first_edge, last_edge


def _unsigned_subtract(a, b):
    """NumPy's _unsigned_subtract: b - a in the unsigned type of a signed integer result."""
    signed_to_unsigned = {_np.byte: _np.ubyte, _np.short: _np.ushort, _np.intc: _np.uintc, _np.int_: _np.uint,
                          _np.longlong: _np.ulonglong}
    dt = _np.result_type(a, b)
    try:
        unsigned_dt = signed_to_unsigned[dt.type]
    except KeyError:
        return _np.subtract(a, b, dtype=dt)
    return _np.subtract(_np.asarray(a, dtype=dt), _np.asarray(b, dtype=dt), casting="unsafe", dtype=unsigned_dt)


def _bin_edges(a, bins, range, weights):
    """NumPy's _get_bin_edges: host edges, and (first_edge, last_edge, n) for equal bins."""
    n_equal_bins = None
    if isinstance(bins, str):
        if weights is not None:
            raise TypeError("Automated estimation of the number of bins is not supported for weighted data")
        first_edge, last_edge = _outer_edges(a, range)
        # The estimators need the data's spread (std, percentiles): NumPy's own, on a host copy.
        host_edges = _np.histogram_bin_edges(a.get(), bins, range)
        n_equal_bins = len(host_edges) - 1
    elif _np.ndim(bins) == 0:
        try:
            n_equal_bins = operator.index(bins)
        except TypeError as e:
            raise TypeError("`bins` must be an integer, a string, or an array") from e
        if n_equal_bins < 1:
            raise ValueError("`bins` must be positive, when an integer")
        first_edge, last_edge = _outer_edges(a, range)
    elif _np.ndim(bins) == 1:
        edges = asarray(bins)
        host = edges.get()
        if _np.any(host[:-1] > host[1:]):
            raise ValueError("`bins` must increase monotonically, when an array")
        return edges, None
    else:
        raise ValueError("`bins` must be 1d, when an array")

    like_a = _np.empty(0, a.dtype)  # result_type reads only the dtype of an array (NEP 50)
    bin_type = _np.result_type(first_edge, last_edge, like_a)
    if _np.issubdtype(bin_type, _np.integer):
        bin_type = _np.result_type(bin_type, float)
    host_edges = _np.linspace(first_edge, last_edge, n_equal_bins + 1, endpoint=True, dtype=bin_type)
    if _np.any(host_edges[:-1] >= host_edges[1:]):
        raise ValueError(f"Too many bins for data range. Cannot create {n_equal_bins} finite-sized bins.")
    return from_numpy(host_edges), (first_edge, last_edge, n_equal_bins)


def _uniform_arithmetic(a_dtype, edges_dtype, first_edge, last_edge, n_equal_bins):
    """The dtypes and values of NumPy's expression for equal bins, as it evaluates it:
    keep = first <= a <= last; f = (a.astype(edges) - first) / (last - first) * n."""
    like_a, like_edges = _np.empty(0, a_dtype), _np.empty(0, edges_dtype)
    keep = _np.result_type(like_a, first_edge, last_edge)
    if keep.kind in "iu":
        # NumPy compares with a Python int exactly even where it does not fit a's dtype.
        info = _np.iinfo(keep)
        if not all(info.min <= int(edge) <= info.max for edge in (first_edge, last_edge)):
            keep = _np.dtype(_np.float64)
    sub = _np.subtract(like_edges, first_edge).dtype
    norm_denom = _unsigned_subtract(last_edge, first_edge)
    div = (_np.true_divide(_np.empty(0, sub), norm_denom) * n_equal_bins).dtype
    return (keep, sub, div), (first_edge, last_edge, first_edge, norm_denom)


def _ravel_and_check_weights(a, weights):
    a = asarray(a)
    if a.dtype == _np.bool_:
        a = a.astype(_np.uint8)  # NumPy warns and converts, so that bins can be subtracted
    if a.dtype.kind == "c":
        raise TypeError("cuarray.histogram takes real data (complex input is not supported)")
    if weights is not None:
        weights = asarray(weights)
        if weights.shape != a.shape:
            raise ValueError("weights should have the same shape as a.")
        weights = weights.ravel()
    return a.ravel(), weights


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """The edges histogram() would use."""
    a, weights = _ravel_and_check_weights(a, weights)
    return _bin_edges(a, bins, range, weights)[0]


def histogram(a, bins=10, range=None, density=None, weights=None):
    """Histogram of a dataset: (counts, edges), both cuarray arrays, as numpy.histogram."""
    a, weights = _ravel_and_check_weights(a, weights)
    edges, uniform = _bin_edges(a, bins, range, weights)
    if uniform is not None:
        dtypes, values = _uniform_arithmetic(a.dtype, edges.dtype, *uniform)
        which = _core.histogram_bins(a, edges, dtypes, values)
    else:
        which = _core.histogram_bins(a, edges, None, None)
    n = _core.count_bins(which, edges.size - 1, weights)
    if weights is not None and n.dtype != weights.dtype:
        n = n.astype(weights.dtype)
    if density:
        db = (edges[1:] - edges[:-1]).astype(_np.float64)
        return n / db / n.sum(), edges
    return n, edges


def _sample_columns(sample):
    """histogramdd's sample (N, D) array or sequence of D 1-D arrays, as D device columns."""
    if isinstance(sample, ndarray) or isinstance(sample, _np.ndarray):
        sample = asarray(sample)
        if sample.ndim == 1:
            return [sample]
        if sample.ndim != 2:
            raise ValueError(f"histogramdd takes an (N, D) sample, got shape {sample.shape}")
        return [sample[:, i] for i in _range(sample.shape[1])]
    columns = [asarray(column).ravel() for column in sample]
    if len({c.size for c in columns}) > 1:
        raise ValueError("all the sample's coordinate arrays must have the same length")
    # NumPy stacks the sequence into one (N, D) array first: every column gets the common dtype.
    common = _np.result_type(*[c.dtype for c in columns])
    return [c.astype(common, copy=False) for c in columns]


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """Multidimensional histogram: (float64 counts, list of edges), as numpy.histogramdd."""
    columns = _sample_columns(sample)
    D = len(columns)
    if weights is not None:
        weights = asarray(weights)
    try:
        if len(bins) != D:
            raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    except TypeError:
        bins = D * [bins]
    if range is None:
        range = (None,) * D
    elif len(range) != D:
        raise ValueError("range argument must have one entry per dimension")

    edges, nbin = [], []
    for i in _range(D):
        if _np.ndim(bins[i]) == 0:
            if bins[i] < 1:
                raise ValueError(f"`bins[{i}]` must be positive, when an integer")
            smin, smax = _outer_edges(columns[i], range[i])
            try:
                n = operator.index(bins[i])
            except TypeError as e:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
            edges.append(from_numpy(_np.linspace(smin, smax, n + 1)))
        elif _np.ndim(bins[i]) == 1:
            edges.append(asarray(bins[i]))
            host = edges[i].get()
            if _np.any(host[:-1] > host[1:]):
                raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
        else:
            raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
        nbin.append(edges[i].size + 1)  # an outlier bin at each end

    # Bin number per dimension (searchsorted side='right'; the last edge belongs to the last bin),
    # then the flat index into the histogram with outliers, as NumPy's ravel_multi_index.
    flat = None
    stride = 1
    for i in reversed(_range(D)):
        last_edge = edges[i][-1:]
        which = _core.digitize(columns[i], edges[i], False, False) - (columns[i] == last_edge)
        flat = which * stride if flat is None else flat + which * stride
        stride *= nbin[i]
    total = int(_np.prod(nbin))
    if flat is None or flat.size == 0:
        hist = from_numpy(_np.zeros(total))
    else:
        hist = _core.bincount(flat, weights, total)
    hist = hist.reshape(tuple(nbin)).astype(_np.float64)
    hist = hist[(slice(1, -1),) * D]
    if density:
        s = hist.sum()
        for i in _range(D):
            shape = [1] * D
            shape[i] = nbin[i] - 2
            dedges = (edges[i][1:] - edges[i][:-1]).reshape(tuple(shape))
            hist = hist / dedges
        hist /= s
    return hist, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """Bi-dimensional histogram: (float64 counts, x edges, y edges), as numpy.histogram2d."""
    try:
        N = len(bins)
    except TypeError:
        N = 1
    if N != 1 and N != 2:
        xedges = yedges = asarray(bins)
        bins = [xedges, yedges]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]
