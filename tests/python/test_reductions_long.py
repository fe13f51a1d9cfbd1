"""Reductions over more than 2**31 elements (the 64-bit index path): exact integer sums, and
argmax/argmin indices beyond 2**31, flat and along rows."""
import numpy as np
import pytest

import cuarray as cp

pytestmark = [pytest.mark.gpu, pytest.mark.slow]

N = (1 << 31) + 5


def _needs_memory(nbytes):
    free, _ = cp.cuda.Device().mem_info
    if free < 3 * nbytes:
        pytest.skip(f"needs {3 * nbytes >> 20} MiB of free GPU memory, {free >> 20} MiB free")


def test_sum_and_arg_over_2_31_elements():
    _needs_memory(N)
    a = cp.ones(N, dtype=cp.uint8)
    a[N - 3] = 5
    a[N - 2] = 9
    a[7] = 0
    assert int(a.sum()) == N - 1 + 4 + 8
    assert int(a.argmax()) == N - 2
    assert int(a.argmin()) == 7
    assert int(cp.count_nonzero(a)) == N - 1
    assert bool(a.all()) is False and bool(a.any()) is True


def test_rows_longer_than_2_31():
    _needs_memory(N)
    a = cp.ones((2, N // 2), dtype=cp.int8)
    a[1, -1] = 3
    np.testing.assert_array_equal(cp.asnumpy(a.sum(axis=1)), [N // 2, N // 2 + 2])
    np.testing.assert_array_equal(cp.asnumpy(a.argmax(axis=1)), [0, N // 2 - 1])
