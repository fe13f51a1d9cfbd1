"""cuarray.polynomial: NumPy's power-series module (numpy.polynomial.polynomial), as CuPy offers it."""
from . import polynomial  # noqa: F401

__all__ = ["polynomial"]
