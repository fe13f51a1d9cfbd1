"""Set operations with NumPy 2's signatures and results: unique (and the array-API unique_*),
isin, intersect1d, union1d, setdiff1d, setxor1d.

Everything is built from the GPU pieces: the stable radix sort (NaNs last, -0.0 tied with 0.0),
elementwise compares, scans and the compaction engine. The only device->host reads are the
result sizes the compactions read (docs/sets.md). Index gathers and scatters whose indices are
in range by construction use mode='clip', which skips the bounds-check read of mode='raise'.
"""
import operator
from typing import NamedTuple

import numpy as _np
from numpy.lib.array_utils import normalize_axis_index

from . import _core
from ._core import ndarray
from ._creation import arange, asarray, ascontiguousarray, empty, ones
from ._reductions import any as _any
from ._scans import _join, cumsum
from ._sorting import argsort, lexsort, sort
from ._ufuncs import equal, isnan, logical_and, logical_not, not_equal


class UniqueAllResult(NamedTuple):
    values: ndarray
    indices: ndarray
    inverse_indices: ndarray
    counts: ndarray


class UniqueCountsResult(NamedTuple):
    values: ndarray
    counts: ndarray


class UniqueInverseResult(NamedTuple):
    values: ndarray
    inverse_indices: ndarray


def _gather(a, indices, axis=0):
    """a's elements (rows when axis=0 of a 2-D array) at indices known to be in range."""
    return _core.take(a, indices, axis, "clip")


def _first_of_runs(sorted_values, collapse_nan):
    """Bool mask of the sorted 1-D array: True where a run of equal values starts.

    NaN never equals NaN, so every NaN starts a run, unless collapse_nan: NaNs sort last, so an
    element after a NaN is a NaN too and its run is the first NaN's (NumPy's equal_nan=True; for
    complex every value with a NaN part is one NaN, represented by the first in sort order).
    """
    n = sorted_values.shape[0]
    mask = empty((n,), dtype=_np.bool_)
    if n == 0:
        return mask
    mask[:1] = True
    starts = not_equal(sorted_values[1:], sorted_values[:-1])
    if collapse_nan and sorted_values.dtype.kind in "fc":
        starts = logical_and(starts, logical_not(isnan(sorted_values[:-1])))
    mask[1:] = starts
    return mask


def _runs_of_rows(sorted_rows):
    """Bool mask over the rows of a row-sorted 2-D array: True where a run of equal rows starts.
    Rows are equal when every element is == (NumPy's structured compare: NaN never equal)."""
    n, m = sorted_rows.shape
    mask = empty((n,), dtype=_np.bool_)
    if n == 0:
        return mask
    mask[:1] = True
    if m == 0:
        mask[1:] = False
    else:
        mask[1:] = _any(not_equal(sorted_rows[1:], sorted_rows[:-1]), axis=1)
    return mask


def _run_results(mask, perm, n, return_index, return_inverse, return_counts):
    """(indices, inverse, counts) as requested, from the run-start mask over the sorted order
    and the permutation that sorted the input (perm is None when no index was asked for)."""
    out = ()
    if return_index:
        out += (_core.compress(mask, perm, 0),)
    if return_inverse:
        run_of_sorted = cumsum(mask, dtype=_np.int64) - 1
        inverse = empty((n,), dtype=_np.int64)
        if n:
            _core.put(inverse, perm, run_of_sorted, "clip")
        out += (inverse,)
    if return_counts:
        starts = _core.flatnonzero(mask)
        k = starts.shape[0]
        counts = empty((k,), dtype=_np.int64)
        if k:
            counts[:-1] = starts[1:] - starts[:-1]
            counts[-1:] = n - starts[-1:]
        out += (counts,)
    return out


def _unique_flat(ar, return_index, return_inverse, return_counts, equal_nan):
    flat = ar.ravel()
    perm = None
    if return_index or return_inverse:
        perm = argsort(flat, kind="stable")
        ordered = _gather(flat, perm)
    else:
        ordered = sort(flat)
    mask = _first_of_runs(ordered, equal_nan)
    values = _core.compress(mask, ordered, 0)
    return (values,) + _run_results(mask, perm, flat.shape[0], return_index, return_inverse, return_counts)


def _row_keys(rows):
    """lexsort keys ordering the rows as NumPy's structured compare does: the first column most
    significant (lexsort's last key), each column by the sort order (NaNs last), except that
    NumPy's float16 fields order NaN before every number: a float16 column gets a more significant
    key, isnan == False first."""
    keys = []
    for j in range(rows.shape[1] - 1, -1, -1):
        keys.append(rows[:, j])
        if rows.dtype == _np.float16:
            keys.append(logical_not(isnan(rows[:, j])))
    return keys


def _unique_rows(ar, axis, return_index, return_inverse, return_counts):
    """unique along an axis: the subarrays indexed by `axis` are flattened (C order) into rows and
    compared lexicographically (first element most significant), as NumPy's structured view."""
    order = [axis] + [d for d in range(ar.ndim) if d != axis]
    moved = ar.transpose(tuple(order))
    n = moved.shape[0]
    m = 1
    for s in moved.shape[1:]:
        m *= s
    rows = ascontiguousarray(moved).reshape((n, m))
    if n == 0 or m == 0:
        perm = arange(n, dtype=_np.int64)
    else:
        perm = lexsort(_row_keys(rows))
    sorted_rows = _gather(rows, perm)
    mask = _runs_of_rows(sorted_rows)
    kept = _core.compress(mask, sorted_rows, 0)
    values = kept.reshape((kept.shape[0],) + moved.shape[1:]).transpose(tuple(_np.argsort(order).tolist()))
    return (values,) + _run_results(mask, perm, n, return_index, return_inverse, return_counts)


def _unpack(results):
    return results[0] if len(results) == 1 else results


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True,
           sorted=True):
    """Sorted unique elements (subarrays along `axis`), with the first indices, the inverse
    (shaped like `ar` when axis is None) and the counts on request. Always sorted."""
    ar = asarray(ar)
    if axis is None or ar.ndim == 1:
        if axis is not None:
            normalize_axis_index(operator.index(axis), ar.ndim)
        results = _unique_flat(ar, return_index, return_inverse, return_counts, equal_nan)
        if return_inverse:
            at = 1 + bool(return_index)
            results = results[:at] + (results[at].reshape(ar.shape),) + results[at + 1:]
        return _unpack(results)
    axis = normalize_axis_index(operator.index(axis), ar.ndim)
    return _unpack(_unique_rows(ar, axis, return_index, return_inverse, return_counts))


def unique_all(x):
    """(values, indices, inverse_indices, counts) of the unique elements, NaNs kept apart."""
    return UniqueAllResult(*unique(x, True, True, True, equal_nan=False))


def unique_counts(x):
    """(values, counts) of the unique elements, NaNs kept apart."""
    return UniqueCountsResult(*unique(x, False, False, True, equal_nan=False))


def unique_inverse(x):
    """(values, inverse_indices) of the unique elements, NaNs kept apart; inverse shaped like x."""
    return UniqueInverseResult(*unique(x, False, True, False, equal_nan=False))


def unique_values(x):
    """The unique elements, NaNs kept apart (sorted here; NumPy promises no order)."""
    return unique(x, equal_nan=False, sorted=False)


def _in_sorted(element, test_elements, invert):
    """Whether each element of the 1-D `element` equals an element of `test_elements`: one kernel
    binary-searches the sorted test elements and compares (NaN is in nothing, -0.0 is 0.0)."""
    common = _np.result_type(element.dtype, test_elements.dtype)
    keys = sort(test_elements.astype(common, copy=False))
    return _core.in_sorted(keys, element.astype(common, copy=False), invert)


def _check_isin_kind(element, test_elements, kind):
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    if kind != "table":
        return
    if not all(a.dtype.kind in "iub" for a in (element, test_elements)):
        raise ValueError("The 'table' method is only supported for boolean or integer arrays. "
                         "Please select 'sort' or None for kind.")
    if test_elements.size:
        # NumPy refuses a table whose range overflows the test elements' dtype.
        limit = _np.iinfo(_np.uint8 if test_elements.dtype.kind == "b" else test_elements.dtype).max
        span = int(test_elements.max()) - int(test_elements.min())
        if span > limit:
            raise RuntimeError("You have specified kind='table', but the range of values in `ar2` or `ar1` exceed "
                               "the maximum integer of the datatype. Please set `kind` to None or 'sort'.")


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """element in test_elements, elementwise over `element` (test_elements is flattened)."""
    element = asarray(element)
    tests = asarray(test_elements).ravel()
    _check_isin_kind(element, tests, kind)
    return _in_sorted(element.ravel(), tests, invert).reshape(element.shape)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """Sorted unique values in both arrays; with return_indices, their first indices in each."""
    ar1, ar2 = asarray(ar1), asarray(ar2)
    if not assume_unique:
        if return_indices:
            ar1, first1 = unique(ar1, return_index=True)
            ar2, first2 = unique(ar2, return_index=True)
        else:
            ar1, ar2 = unique(ar1), unique(ar2)
    else:
        ar1, ar2 = ar1.ravel(), ar2.ravel()
    both = _join([ar1, ar2], 0)
    if return_indices:
        order = argsort(both, kind="stable")
        both = _gather(both, order)
    else:
        both = sort(both)
    # A value of both (unique) arrays appears twice in a row, ar1's first.
    twice = equal(both[1:], both[:-1])
    common = _core.compress(twice, both[:-1], 0)
    if not return_indices:
        return common
    in1 = _core.compress(twice, order[:-1], 0)
    in2 = _core.compress(twice, order[1:], 0) - ar1.shape[0]
    if not assume_unique:
        in1, in2 = _gather(first1, in1), _gather(first2, in2)
    return common, in1, in2


def union1d(ar1, ar2):
    """Sorted unique values in either array."""
    return unique(_join([asarray(ar1).ravel(), asarray(ar2).ravel()], 0))


def setdiff1d(ar1, ar2, assume_unique=False):
    """Values of ar1 not in ar2 (sorted and unique unless assume_unique, which keeps ar1's order)."""
    if assume_unique:
        ar1 = asarray(ar1).ravel()
        ar2 = asarray(ar2).ravel()
    else:
        ar1, ar2 = unique(ar1), unique(ar2)
    return _core.compress(_in_sorted(ar1, ar2, True), ar1, 0)


def setxor1d(ar1, ar2, assume_unique=False):
    """Sorted values in exactly one of the arrays."""
    if not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    both = sort(_join([asarray(ar1).ravel(), asarray(ar2).ravel()], 0))
    n = both.shape[0]
    if n == 0:
        return both
    # A value is kept when it differs from both neighbours (the ends have one neighbour).
    differs = ones((n + 1,), dtype=_np.bool_)
    differs[1:-1] = not_equal(both[1:], both[:-1])
    return _core.compress(logical_and(differs[1:], differs[:-1]), both, 0)


__all__ = ["unique", "unique_all", "unique_counts", "unique_inverse", "unique_values", "isin", "intersect1d",
           "union1d", "setdiff1d", "setxor1d"]
