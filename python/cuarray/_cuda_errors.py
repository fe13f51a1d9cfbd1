"""CuPy's CUDA error classes, which the compiled core raises: CUDARuntimeError and CUDADriverError
are RuntimeErrors carrying the failed call's status code as `.status` (a cudaError_t or a CUresult,
which CUDA numbers alike; None where a failure has no code, such as a library that is not
installed). Made from a status alone, as CuPy's are, the message is the code's name and
description. They live apart from cuarray.cuda because cuarray._core takes them while the package
is still importing."""


class _StatusError(RuntimeError):
    def __init__(self, status, message=None):
        self.status = status
        super().__init__(self._describe(status) if message is None else message)

    def __reduce__(self):
        return type(self), (self.status, str(self))


class CUDARuntimeError(_StatusError):
    """A failed CUDA call, named with cudaError_t's words (cudaErrorInvalidDevice)."""
    __module__ = "cuarray.cuda.runtime"

    @staticmethod
    def _describe(status):
        from . import _core
        name = next((n for n, v in _core.runtime_error_ids.items() if v == status), f"cudaError {status}")
        # CUDA numbers CUresult like cudaError_t (CUDA_ERROR_OUT_OF_MEMORY is 2, as
        # cudaErrorMemoryAllocation), so the driver describes every code it knows.
        return f"{name}: {text}" if (text := _core.driver_error_strings(status)[1]) else name


class CUDADriverError(_StatusError):
    """A failed CUDA driver call, named with CUresult's words (CUDA_ERROR_INVALID_DEVICE)."""
    __module__ = "cuarray.cuda.driver"

    @staticmethod
    def _describe(status):
        from . import _core
        name, text = _core.driver_error_strings(status)
        return f"{name or f'CUDA_ERROR {status}'}: {text or 'unknown error'}"
