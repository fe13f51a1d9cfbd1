"""Host <-> device copies of 1 MiB and more go through pinned staging chunks filled (or drained)
by several host threads: every byte must arrive, whatever the size's remainder over the threads
and the 64-byte part alignment (2**20 + 7 one-byte elements once lost their last 7 bytes)."""
import numpy as np
import pytest

import cuarray as cp

pytestmark = pytest.mark.gpu

SIZES = [2**20, 2**20 + 7, 2**20 + 63, 2**20 + 65, 3 * 2**20 + 1, 9 * 2**20 + 13]  # the last spans two chunks


@pytest.mark.parametrize("n", SIZES)
def test_upload_every_byte(n, rng):
    x = rng.integers(1, 256, n, dtype=np.uint8)  # no zeros: a byte left unwritten in fresh memory shows
    g = cp.asarray(x)
    # Checked on the device (small read-backs are not staged): the tail and a sum of every byte.
    np.testing.assert_array_equal(cp.asnumpy(g[-100:]), x[-100:], strict=True)
    assert int(cp.sum(g, dtype=np.int64)) == int(x.sum(dtype=np.int64))


@pytest.mark.parametrize("n", SIZES)
def test_download_every_byte(n, rng):
    x = rng.integers(1, 256, n, dtype=np.uint8)
    g = cp.asarray(x)
    np.testing.assert_array_equal(cp.asnumpy(g), x, strict=True)
    out = np.zeros(n, np.uint8)
    cp.asnumpy(g, out=out)
    np.testing.assert_array_equal(out, x, strict=True)
