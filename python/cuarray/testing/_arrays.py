"""CuPy's test inputs (cupy.testing.shaped_arange, shaped_reverse_arange, shaped_random,
shaped_linspace, generate_matrix): the same values as CuPy's for every shape and dtype, made on the
host with NumPy and handed to xp (cuarray by default, or numpy)."""
import math

import numpy

import cuarray


def _shape(shape):
    return (shape,) if isinstance(shape, int) else tuple(shape)


def _cast(a, dtype):
    """a's values as dtype, the way CuPy's helpers map them: even numbers are True for bool, and
    a complex dtype gets the value in both its parts."""
    dtype = numpy.dtype(dtype)
    if dtype == numpy.bool_:
        return a % 2 == 0
    if dtype.kind == "c":
        return (a + a * 1j).astype(dtype)
    return a.astype(dtype)


def shaped_arange(shape, xp=cuarray, dtype=numpy.float32, order="C"):
    """1, 2, 3, ... in `shape` (C order of the values, laid out in `order`)."""
    shape = _shape(shape)
    return xp.array(_cast(numpy.arange(1, math.prod(shape) + 1), dtype).reshape(shape), order=order)


def shaped_reverse_arange(shape, xp=cuarray, dtype=numpy.float32):
    """size, size - 1, ..., 1 in `shape`."""
    shape = _shape(shape)
    size = math.prod(shape)
    return xp.array(_cast(numpy.arange(size, 0, -1), dtype).reshape(shape))


def shaped_random(shape, xp=cuarray, dtype=numpy.float32, scale=10, seed=0, order="C"):
    """Uniform values in [0, scale) (each part of a complex value; 0 or 1 for bool) from NumPy's
    legacy generator seeded with `seed`: CuPy's values, without touching numpy.random's own state."""
    shape = _shape(shape)
    dtype = numpy.dtype(dtype)
    rs = numpy.random.RandomState(seed)
    if dtype == numpy.bool_:
        a = rs.randint(2, size=shape)
    elif dtype.kind == "c":
        a = rs.rand(*shape) + 1j * rs.rand(*shape)
        a *= scale
    else:
        a = rs.rand(*shape) * scale
    return xp.asarray(a.astype(dtype), order=order)


def shaped_linspace(start, stop, shape, xp=cuarray, dtype=numpy.float32):
    """numpy.linspace(start, stop) over `shape`'s size, clipped to 0..1 for bool and to >= 0 for
    unsigned integers."""
    shape = _shape(shape)
    dtype = numpy.dtype(dtype)
    if dtype == numpy.bool_:
        start, stop = max(start, 0), min(stop, 1)
    elif dtype.kind == "u":
        start = max(start, 0)
    return xp.array(numpy.linspace(start, stop, math.prod(shape)).astype(dtype).reshape(shape))


def generate_matrix(shape, xp=cuarray, dtype=numpy.float32, *, singular_values=None):
    """A random matrix (or stack of them, shape (..., m, n)) of float or complex dtype whose
    singular values are singular_values (broadcast to min(m, n) per matrix)."""
    shape = _shape(shape)
    if len(shape) < 2:
        raise ValueError(f"shape {shape} is invalid for matrices: too few axes")
    if singular_values is None:
        raise TypeError("singular_values is not given")
    dtype = numpy.dtype(dtype)
    if dtype.kind not in "fc":
        raise TypeError(f"dtype {dtype} is not supported")
    singular_values = xp.asarray(singular_values)
    if not xp.isrealobj(singular_values):
        raise TypeError("singular_values is not real")
    if bool((singular_values < 0).any()):
        raise ValueError("negative singular value is given")
    # Orthonormal bases from the SVD of a random matrix, recombined with the given values.
    a = xp.random.standard_normal(shape)
    if dtype.kind == "c":
        a = a + 1j * xp.random.standard_normal(shape)
    u, s, vh = xp.linalg.svd(a, full_matrices=False)
    values = xp.broadcast_to(singular_values, s.shape)
    return xp.einsum("...ik,...k,...kj->...ij", u, values, vh).astype(dtype)
