"""Host-only: the argument errors of unique, isin, insert and delete that NumPy raises whatever
the data are come before any device work, so they are NumPy's on a machine without a GPU too.
(Their errors that depend on the array, such as an axis out of bounds, are in test_sets.py and
test_manipulation_edit.py; tests/cpp/test_insert_delete.cpp and test_sets.cpp check the C++
side's host-only errors without a GPU.)"""
import numpy as np
import pytest

import cuarray as cp

from helpers import expect_error


def test_unique_insert_delete_axis_not_an_integer():
    data, axis = [[1, 2], [3, 4]], "0"
    expect_error(lambda: np.unique(data, axis=axis), lambda: cp.unique(data, axis=axis), "cannot be interpreted as an integer")
    expect_error(lambda: np.delete(data, 0, axis), lambda: cp.delete(data, 0, axis), "cannot be interpreted as an integer")
    expect_error(lambda: np.insert(data, 0, 5, axis), lambda: cp.insert(data, 0, 5, axis),
                 "cannot be interpreted as an integer")


def test_isin_kind_name():
    expect_error(lambda: np.isin([1, 2], [2], kind="hash"), lambda: cp.isin([1, 2], [2], kind="hash"),
                 "Invalid kind: 'hash'. Please use None, 'sort' or 'table'.")
