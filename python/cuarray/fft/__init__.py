"""cuarray.fft: numpy.fft on cuFFT (docs/fft.md), with CuPy's plan cache API in ``config``."""
from . import config
from ._helper import fftfreq, fftshift, ifftshift, rfftfreq
from ._transforms import (fft, fft2, fftn, hfft, ifft, ifft2, ifftn, ihfft, irfft, irfft2, irfftn, rfft, rfft2,
                          rfftn)

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
           "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift", "config"]
