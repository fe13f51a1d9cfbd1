"""Set operations with NumPy 2's signatures and results: unique (and the array-API unique_*),
isin, intersect1d, union1d, setdiff1d, setxor1d.

The algorithms are C++ (cuarray/sets.hpp, src/ops/sets/, docs/sets.md): the stable radix sort,
elementwise compares, scans and the compaction engine, whose result-size reads are the only
device->host transfers. This module converts arguments, checks isin's kind= as NumPy does and
builds NumPy 2's result tuples.
"""
import operator
from typing import NamedTuple

import numpy as _np

from .. import _core
from .._core import ndarray
from .._creation.creation import asarray


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


def _unpack(results):
    return results[0] if len(results) == 1 else results


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True,
           sorted=True):
    """Sorted unique elements (subarrays along `axis`), with the first indices, the inverse
    (shaped like `ar` when axis is None) and the counts on request. Always sorted."""
    axis = None if axis is None else operator.index(axis)  # (its TypeError needs no device)
    ar = asarray(ar)
    return _unpack(_core.unique(ar, bool(return_index), bool(return_inverse), bool(return_counts), axis,
                                bool(equal_nan)))


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


def _check_kind_name(kind):
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")


def _check_table_kind(element, test_elements):
    """NumPy's refusals of kind='table' (the binary search serves every kind)."""
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
    _check_kind_name(kind)  # before any device work: the name alone decides
    element = asarray(element)
    tests = asarray(test_elements)
    if kind == "table":
        _check_table_kind(element, tests)
    return _core.isin(element, tests, bool(invert))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """Sorted unique values in both arrays; with return_indices, their first indices in each."""
    return _unpack(_core.intersect1d(asarray(ar1), asarray(ar2), bool(assume_unique), bool(return_indices)))


def union1d(ar1, ar2):
    """Sorted unique values in either array."""
    return _core.union1d(asarray(ar1), asarray(ar2))


def setdiff1d(ar1, ar2, assume_unique=False):
    """Values of ar1 not in ar2 (sorted and unique unless assume_unique, which keeps ar1's order)."""
    return _core.setdiff1d(asarray(ar1), asarray(ar2), bool(assume_unique))


def setxor1d(ar1, ar2, assume_unique=False):
    """Sorted values in exactly one of the arrays."""
    return _core.setxor1d(asarray(ar1), asarray(ar2), bool(assume_unique))


__all__ = ["unique", "unique_all", "unique_counts", "unique_inverse", "unique_values", "isin", "intersect1d",
           "union1d", "setdiff1d", "setxor1d"]
