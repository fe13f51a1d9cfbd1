"""cuarray.lib: the parts of numpy.lib cuarray offers (stride_tricks; scimath, which is emath)."""
from . import scimath, stride_tricks

__all__ = ["scimath", "stride_tricks"]
