"""cuBLAS settings (the library is opened on first use: docs/libraries.md, docs/linalg.md).

float32 and complex64 products are true FP32 by default, as NumPy's. TF32 tensor cores (about 10
mantissa bits per product) are used only when the user opts in: CUPY_TF32=1 (CuPy's switch) or
CUARRAY_TF32=1 in the environment before the first product, or set_allow_tf32(True) at any time.
"""
from .. import _core


def set_allow_tf32(allowed):
    """Lets float32/complex64 products use TF32 tensor cores (True) or keeps them true FP32 (False)."""
    _core.set_allow_tf32(bool(allowed))


def allow_tf32():
    """Whether float32/complex64 products may use TF32."""
    return _core.allow_tf32()
