"""NumPy's two-dimensional helpers not elsewhere: vander and mask_indices."""
import numpy as _np

from .._ufunc import ufuncs as _ufuncs
from .creation import asarray, empty, ones

__all__ = ["vander", "mask_indices"]


def vander(x, N=None, increasing=False):
    """Vandermonde matrix, columns x**(N-1), ..., x**0 (numpy.vander). The powers are running
    products (multiply.accumulate), as NumPy forms them, so they round as NumPy's do."""
    x = asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    if N is None:
        N = x.shape[0]
    v = empty((x.shape[0], N), dtype=_np.promote_types(x.dtype, int))
    tmp = v[:, ::-1] if not increasing else v
    if N > 0:
        tmp[:, 0] = 1
    if N > 1:
        tmp[:, 1:] = x[:, None]
        tmp[:, 1:] = _ufuncs.multiply.accumulate(tmp[:, 1:], axis=1)
    return v


def mask_indices(n, mask_func, k=0):
    """The indices where mask_func(ones((n, n)), k) is non-zero (e.g. triu, tril)."""
    from .._indexing.indexing import nonzero
    a = mask_func(ones((n, n), int), k)
    return nonzero(a != 0)
