"""CUDA driver errors (cupy.cuda.driver subset)."""
from .. import _core

CUDADriverError = _core.CUDADriverError
