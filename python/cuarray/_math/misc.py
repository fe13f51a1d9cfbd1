"""NumPy's miscellaneous mathematical functions: interp, sinc, i0, real_if_close, unwrap, fix.

interp is one elementwise kernel: each thread bisects xp itself (NumPy's binary_search_with_guess
finds the same bracket) and interpolates with NumPy's formulas, NaN fallbacks included; no index
array is written or read back. sinc and i0 are NumPy's expressions fused into one kernel each.
"""
import math

import numpy as _np

from .._manipulation import manipulation as _manipulation
from .._sorting import sorting as _sorting
from .._ufunc import ufuncs as _ufuncs
from .._core import ndarray
from .._creation.creation import asarray
from .functions import where as _where
from .._kernels.fuse import fuse
from .._kernels.user_kernels import ElementwiseKernel

__all__ = ["interp", "sinc", "i0", "real_if_close", "unwrap", "fix"]

# NumPy's compiled_interp (numpy/_core/src/multiarray/compiled_base.c), per element. j is the last
# index with xp[j] <= x (an upper bound, minus one), as NumPy's bisection returns it.
_INTERP = ElementwiseKernel(
    "float64 x, raw float64 xp, raw float64 fp, int64 m, float64 left_value, float64 right_value, "
    "bool left_is_first, bool right_is_last", "float64 y",
    """
    const double left = left_is_first ? fp[0] : left_value;
    const double right = right_is_last ? fp[m - 1] : right_value;
    if (m == 1) {
      y = x < xp[0] ? left : (x > xp[0] ? right : fp[0]);
    } else if (isnan(x)) {
      y = x;
    } else if (x < xp[0]) {
      y = left;
    } else if (x > xp[m - 1]) {
      y = right;
    } else {
      long long lo = 0, hi = m;
      while (lo < hi) {
        const long long mid = lo + ((hi - lo) >> 1);
        if (x >= xp[mid]) lo = mid + 1; else hi = mid;
      }
      const long long j = lo - 1;
      if (j == m - 1 || xp[j] == x) {
        y = fp[j];
      } else {
        const double slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
        y = slope * (x - xp[j]) + fp[j];
        if (isnan(y)) {
          y = slope * (x - xp[j + 1]) + fp[j + 1];
          if (isnan(y) && fp[j] == fp[j + 1]) y = fp[j];
        }
      }
    }
    """, "cuarray_interp")


def _sample_points(a):
    a = asarray(a)
    if a.ndim > 1:
        raise ValueError("object too deep for desired array")
    return a.reshape(1) if a.ndim == 0 else a


def _interp_real(x, xp, fp, left, right):
    # NumPy's defaults are fp[0] and fp[-1]: the kernel reads them itself (no host read).
    return _INTERP(x, xp, fp, xp.shape[0], 0.0 if left is None else float(left),
                   0.0 if right is None else float(right), left is None, right is None)


def interp(x, xp, fp, left=None, right=None, period=None):
    """One-dimensional piecewise linear interpolation (numpy.interp); float64, or complex128 for
    complex fp."""
    if period is not None and period == 0:
        raise ValueError("period must be a non-zero value")
    fp = asarray(fp)
    complex_values = fp.dtype.kind == "c"
    value_dtype = _np.complex128 if complex_values else _np.float64
    x = asarray(x, dtype=_np.float64)
    xp = _sample_points(asarray(xp, dtype=_np.float64))
    fp = _sample_points(fp.astype(value_dtype, copy=False))
    if period is not None:
        period = abs(period)
        left = right = None
        if xp.shape[0] != fp.shape[0]:
            raise ValueError("fp and xp are not of the same length.")
        x = x % period
        xp = xp % period
        order = _sorting.argsort(xp)
        xp, fp = xp[order], fp[order]
        xp = _manipulation.concatenate((xp[-1:] - period, xp, xp[0:1] + period))
        fp = _manipulation.concatenate((fp[-1:], fp, fp[0:1]))
    if xp.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if not complex_values:
        return _interp_real(x, xp, fp, left, right)
    # NumPy's complex loop interpolates the real and imaginary parts with the same formulas.
    parts = [None if v is None else complex(v) for v in (left, right)]
    real = _interp_real(x, xp, fp.real, *[None if v is None else v.real for v in parts])
    imag = _interp_real(x, xp, fp.imag, *[None if v is None else v.imag for v in parts])
    out = _ufuncs.multiply(imag, 1j)
    out.real = real
    return out


@fuse(kernel_name="sinc")
def _sinc(x, eps):
    y = x * math.pi
    y = _fuse_where(y, y, eps)
    return _ufuncs.sin(y) / y


def _fuse_where(c, a, b):
    import cuarray
    return cuarray.where(c, a, b)  # the name fuse traces


def sinc(x):
    """sin(pi x) / (pi x), 1 at 0 (numpy.sinc)."""
    x = asarray(x)
    y_dtype = _np.result_type(x.dtype, math.pi)  # pi * x
    eps = _np.finfo(y_dtype).eps if y_dtype.kind == "f" else 1e-20
    return _sinc(x, y_dtype.type(eps) if y_dtype.kind == "f" else eps)


# Cephes' Chebyshev coefficients for exp(-x) I0(x), as numpy/lib/_function_base_impl.py has them.
_I0_A = [-4.41534164647933937950e-18, 3.33079451882223809783e-17, -2.43127984654795469359e-16,
         1.71539128555513303061e-15, -1.16853328779934516808e-14, 7.67618549860493561688e-14,
         -4.85644678311192946090e-13, 2.95505266312963983461e-12, -1.72682629144155570723e-11,
         9.67580903537323691224e-11, -5.18979560163526290666e-10, 2.65982372468238665035e-9,
         -1.30002500998624804212e-8, 6.04699502254191894932e-8, -2.67079385394061173391e-7,
         1.11738753912010371815e-6, -4.41673835845875056359e-6, 1.64484480707288970893e-5,
         -5.75419501008210370398e-5, 1.88502885095841655729e-4, -5.76375574538582365885e-4,
         1.63947561694133579842e-3, -4.32430999505057594430e-3, 1.05464603945949983183e-2,
         -2.37374148058994688156e-2, 4.93052842396707084878e-2, -9.49010970480476444210e-2,
         1.71620901522208775349e-1, -3.04682672343198398683e-1, 6.76795274409476084995e-1]
_I0_B = [-7.23318048787475395456e-18, -4.83050448594418207126e-18, 4.46562142029675999901e-17,
         3.46122286769746109310e-17, -2.82762398051658348494e-16, -3.42548561967721913462e-16,
         1.77256013305652638360e-15, 3.81168066935262242075e-15, -9.55484669882830764870e-15,
         -4.15056934728722208663e-14, 1.54008621752140982691e-14, 3.85277838274214270114e-13,
         7.18012445138366623367e-13, -1.79417853150680611778e-12, -1.32158118404477131188e-11,
         -3.14991652796324136454e-11, 1.18891471078464383424e-11, 4.94060238822496958910e-10,
         3.39623202570838634515e-9, 2.26666899049817806459e-8, 2.04891858946906374183e-7,
         2.89137052083475648297e-6, 6.88975834691682398426e-5, 3.36911647825569408990e-3,
         8.04490411014108831608e-1]


def _chbevl(x, vals):
    b0, b1, b2 = vals[0], 0.0, 0.0
    for v in vals[1:]:
        b2, b1 = b1, b0
        b0 = x * b1 - b2 + v
    return 0.5 * (b0 - b2)


@fuse(kernel_name="i0")
def _i0(x):
    x = abs(x)
    small = _ufuncs.exp(x) * _chbevl(x / 2.0 - 2, _I0_A)
    large = _ufuncs.exp(x) * _chbevl(32.0 / x - 2.0, _I0_B) / _ufuncs.sqrt(x)
    return _fuse_where(x <= 8.0, small, large)


def i0(x):
    """Modified Bessel function of the first kind, order 0 (numpy.i0; real input only)."""
    x = asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if x.dtype.kind != "f":
        x = x.astype(_np.float64)
    return _i0(x)


def real_if_close(a, tol=100):
    """The real part when every imaginary part is within tol machine epsilons of zero. Whether
    they are decides the result's dtype: one small read of the answer."""
    a = asarray(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = _np.finfo(a.dtype).eps * tol
    if bool(_ufuncs.less(_ufuncs.absolute(a.imag), tol).all()):
        return a.real
    return a


def unwrap(p, discont=None, axis=-1, *, period=2 * math.pi):
    """Unwraps by taking the complement of large deltas with respect to the period (numpy.unwrap)."""
    from .._statistics.scans import diff
    p = asarray(p)
    nd = p.ndim
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    slice1 = [slice(None, None)] * nd
    slice1[axis] = slice(1, None)
    slice1 = tuple(slice1)
    dtype = _np.result_type(dd.dtype, period) if not isinstance(period, ndarray) else \
        _np.result_type(dd.dtype, period.dtype)
    if _np.issubdtype(dtype, _np.integer):
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = _ufuncs.mod(dd - interval_low, period) + interval_low
    if boundary_ambiguous:
        ddmod = _where((ddmod == interval_low) & (dd > 0), _np.asarray(interval_high, ddmod.dtype)[()], ddmod)
    ph_correct = ddmod - dd
    ph_correct = _where(abs(dd) < discont, _np.zeros((), ph_correct.dtype)[()], ph_correct)
    up = p.astype(dtype, copy=True)
    up[slice1] = p[slice1] + ph_correct.cumsum(axis)
    return up


def fix(x, out=None):
    """Rounds toward zero, as numpy.fix. NumPy's ceil-then-floor-where-nonnegative is trunc: the same
    values (signed zeros included) and, in NumPy 2, the same dtypes (integers and bools kept)."""
    return _ufuncs.trunc(x, out=out)
