"""out= of a ufunc or ufunc method as NumPy takes it: None, an array, or a tuple of one array (the
form NumPy's __array_ufunc__ always hands over), with NumPy's errors."""
from .._core import ndarray


def ufunc_out(out):
    """The one output array (or None)."""
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        out = out[0]
    if out is not None and not isinstance(out, ndarray):
        raise TypeError("return arrays must be of ArrayType")
    return out
