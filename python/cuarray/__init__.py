"""cuarray: NumPy's API on NVIDIA GPUs.

Replace ``import numpy as np`` with ``import cuarray as cp``. Importing needs no GPU; the CUDA
driver is loaded on the first operation that needs it.
"""
import numpy as _np

from . import _core
from ._core import ndarray, ufunc
from ._array import ndarray_methods as _ndarray_py  # noqa: F401  (attaches ndarray's Python-level methods)
from . import cuda
from ._creation.creation import (array, asarray, asanyarray, ascontiguousarray, asfortranarray, asnumpy, copy,
                        empty, empty_like, zeros, zeros_like, ones, ones_like, full, full_like, arange,
                        linspace, logspace, geomspace, eye, identity, tri, get_array_module, from_numpy)
from ._ufunc.ufuncs import *  # noqa: F401,F403  (every ufunc under NumPy's names)
from ._ufunc.ufuncs import __all__ as _ufunc_names
from ._statistics.reductions import *  # noqa: F401,F403  (sum, mean, argmax, ... and their ndarray methods)
from ._statistics.scans import *  # noqa: F401,F403  (cumsum, cumprod, diff, ..., ufunc.accumulate and ndarray methods)
from ._sorting.sorting import *  # noqa: F401,F403  (sort, argsort, searchsorted, quantile, median, ... and ndarray methods)
from ._indexing.indexing import *  # noqa: F401,F403  (nonzero, take, put, compress, ... and ndarray methods)
from ._indexing.index_functions import *  # noqa: F401,F403  (choose, select, diag, tril, indices, ix_, ... and ndarray.choose)
from ._array.flatiter import flatiter  # noqa: F401  (and ndarray.flat)
from ._ufunc import methods as _ufunc_methods  # noqa: F401  (attaches ufunc.at, ufunc.outer, ufunc.reduceat)
from ._statistics.histograms import *  # noqa: F401,F403  (bincount, digitize, histogram, histogram2d, histogramdd)
from ._sorting.sets import *  # noqa: F401,F403  (unique and unique_*, isin, intersect1d, union1d, setdiff1d, setxor1d)
from ._statistics.statistics import average, diagonal, trace
from ._manipulation.pad import pad
from ._math.products import *  # noqa: F401,F403  (matmul, dot, vdot, inner, outer, tensordot, kron, cross, vecdot, ...)
from ._math.einsum import einsum, einsum_path
from ._kernels.user_kernels import ElementwiseKernel, ReductionKernel
from ._kernels.fuse import fuse
from ._math.functions import (broadcast_to, copyto, ravel, transpose, swapaxes, squeeze, expand_dims, around, round,
                         clip, where, nan_to_num, angle, real, imag, result_type, promote_types, can_cast,
                         shape, ndim, size, isscalar)
from ._manipulation.manipulation import *  # noqa: F401,F403  (concatenate, stack, split, tile, repeat, flip, roll, ... and ndarray methods)
from ._ufunc import reduce as _ufunc_reduce  # noqa: F401  (attaches ufunc.reduce)
from ._kernels.raw_kernel import RawKernel, RawModule
# The Array API standard (docs/array-api.md): its entry points and the names NumPy 2 has beside its own.
from ._array.array_api import __array_api_version__, __array_namespace_info__, astype, finfo, iinfo, isdtype
from .linalg import matrix_transpose
from ._array.interop import from_dlpack, fromDlpack, toDlpack
from . import exceptions, fft, lib, linalg, random
from .lib import scimath as emath  # NumPy's name for numpy.lib.scimath
from .cuda import is_available
from ._kernels.memoize import memoize, clear_memo
from ._show_config import show_config
from .cuda import get_default_memory_pool, get_default_pinned_memory_pool
# NumPy's remaining functions (docs/numpy_functions.md), by NumPy's documentation sections.
from ._math.logic import isclose, allclose, array_equal, array_equiv
from ._math.signal import convolve, correlate
from ._math.misc import interp, sinc, i0, real_if_close, unwrap, fix
from ._array.type_tests import (iscomplex, iscomplexobj, isreal, isrealobj, isfortran, isneginf, isposinf, common_type,
                          min_scalar_type)
from ._array.memory_ranges import may_share_memory, shares_memory
from ._creation.host_io import (fromfile, frombuffer, fromstring, fromiter, loadtxt, genfromtxt, fromfunction, load, save,
                       savez, savez_compressed, savetxt, array_repr, array_str, array2string)
from ._math.calculus import gradient, trapezoid
from ._statistics.covariance import cov, corrcoef
from ._manipulation.packing import packbits, unpackbits
from ._indexing.index_tricks import mgrid, ogrid, r_, c_, s_, index_exp, diag_indices, diag_indices_from, ndindex, ndenumerate, \
    broadcast
from ._creation.twodim_base import vander, mask_indices
from ._manipulation.shape_base import apply_along_axis, apply_over_axes
from ._creation.window import bartlett, blackman, hamming, hanning, kaiser
from ._math.polynomial import poly, roots, polyval, polyfit, polyadd, polysub, polymul, polydiv, polyder, polyint, poly1d
from ._kernels.vectorize import vectorize
from . import polynomial

# NumPy's scalar types and dtype helpers are cuarray's too (as in CuPy).
from numpy import (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32,
                   float64, complex64, complex128, dtype, newaxis, pi, e, inf, nan,
                   intp, uintp, byte, ubyte, short, ushort, intc, uintc, longlong, ulonglong, half,
                   single, double, csingle, cdouble, generic, number, integer, signedinteger,
                   unsignedinteger, floating, complexfloating, inexact, issubdtype, uint, long, ulong,
                   euler_gamma, little_endian, typecodes, sctypeDict, ScalarType,
                   mintypecode, typename, iterable, base_repr, binary_repr)
# NumPy's floating-point error state and print options, as NumPy's: cuarray's host-side checks follow
# the error state (isclose's tolerance check, for one), and arrays print through NumPy.
from numpy import errstate, geterr, seterr, printoptions, get_printoptions, set_printoptions
bool = _np.bool_
int_ = _np.int_
float_ = _np.float64
complex_ = _np.complex128

__version__ = "0.1.0"


def __getattr__(name):
    if name == "testing":  # loaded on first use: numpy.testing alone costs tens of ms of import time
        import importlib
        return importlib.import_module(f"{__name__}.testing")
    # A NumPy function cuarray lacks fails here with a clear message, not deep inside.
    if hasattr(_np, name):
        raise AttributeError(f"cuarray has no attribute {name!r} yet (numpy.{name} is not implemented on the GPU)")
    raise AttributeError(f"module 'cuarray' has no attribute {name!r}")
