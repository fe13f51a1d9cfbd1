"""cuarray.linalg: NumPy's linalg namespace. Norms are reductions and live here now; the
factorizations and solvers (cuBLAS/cuSOLVER) arrive with the linear-algebra work."""
from ._norms import norm
from ._products import (cross, diagonal, matmul, matrix_power, matrix_transpose, multi_dot, outer,  # noqa: F401
                        tensordot, trace, vecdot)

__all__ = ["norm"]
