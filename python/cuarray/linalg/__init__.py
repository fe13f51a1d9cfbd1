"""cuarray.linalg: NumPy's linalg namespace. Norms are reductions and live here now; the
factorizations and solvers (cuBLAS/cuSOLVER) arrive with the linear-algebra work."""
from ._norms import norm

__all__ = ["norm"]
