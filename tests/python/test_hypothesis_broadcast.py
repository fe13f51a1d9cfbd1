"""Property-based: random broadcast-compatible shapes and random dtype pairs for add, multiply,
maximum and less agree with NumPy (dtype, shape, values)."""
import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import cuarray as cp

from helpers import ALL_DTYPES, SHAPED_LAYOUTS, check_like_numpy, layout_pair
from ufunc_domains import compare_ufunc

pytestmark = pytest.mark.gpu


@st.composite
def broadcast_operands(draw):
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4,
                                                    min_side=0, max_side=5)).input_shapes
    dtypes = (draw(st.sampled_from(ALL_DTYPES)), draw(st.sampled_from(ALL_DTYPES)))
    layouts = (draw(st.sampled_from(SHAPED_LAYOUTS)), draw(st.sampled_from(SHAPED_LAYOUTS)))
    seed = draw(st.integers(0, 2**32 - 1))
    return shapes, dtypes, layouts, seed


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "less"])
@given(case=broadcast_operands())
def test_broadcast_matches_numpy(name, case):
    shapes, dtypes, layouts, seed = case
    rng = np.random.default_rng(seed)
    pairs = [layout_pair(lay, shape, dt, rng, special=True)
             for lay, shape, dt in zip(layouts, shapes, dtypes)]
    host, dev = [p[0] for p in pairs], [p[1] for p in pairs]
    check_like_numpy(lambda: getattr(np, name)(*host), lambda: getattr(cp, name)(*dev),
                     compare=compare_ufunc(name, dtypes))
