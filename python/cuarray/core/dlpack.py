"""``cupy.core.dlpack``'s names: ``from cuarray.core.dlpack import toDlpack, fromDlpack``."""
from .._array.interop import from_dlpack, fromDlpack, toDlpack

__all__ = ["from_dlpack", "fromDlpack", "toDlpack"]
