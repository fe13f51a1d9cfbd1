"""cuarray.linalg: NumPy's linalg namespace. Products run on cuBLAS (docs/linalg.md), decompositions
and solvers on cuSOLVER (docs/linalg_solvers.md); norms compose reductions and singular values."""
from numpy.linalg import LinAlgError

from ._decompositions import cholesky, eig, eigh, eigvals, eigvalsh, qr, svd, svdvals
from ._norms import matrix_norm, norm, vector_norm
from ._products import (cross, diagonal, matmul, matrix_power, matrix_transpose, multi_dot, outer, tensordot,
                        trace, vecdot)
from ._results import EigResult, EighResult, QRResult, SlogdetResult, SVDResult
from ._solvers import (cond, det, error_checks, inv, lstsq, matrix_rank, pinv, set_error_checks, slogdet, solve,
                       tensorinv, tensorsolve)

__all__ = ["LinAlgError", "cholesky", "cond", "det", "eig", "eigh", "eigvals", "eigvalsh", "error_checks", "inv",
           "lstsq", "matrix_norm", "matrix_rank", "norm", "pinv", "qr", "set_error_checks", "slogdet", "solve",
           "svd", "svdvals", "tensorinv", "tensorsolve", "vector_norm", "cross", "diagonal", "matmul", "matrix_power",
           "matrix_transpose", "multi_dot", "outer", "tensordot", "trace", "vecdot"]
