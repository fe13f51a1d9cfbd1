"""NVTX markers and ranges for Nsight Systems (CuPy's cupy.cuda.nvtx). With no profiler attached,
each call returns at once."""
from .. import _core

available = True

# CuPy's palette for ``id_color``: a tool shows the same colors for the same ids with either library.
_COLORS = (0xFF00FF00, 0xFF007FFF, 0xFF7F00FF, 0xFFFF0000, 0xFF7FFF00,
           0xFF00FF7F, 0xFF0000FF, 0xFFFF007F, 0xFFFF7F00, 0xFF7F7F7F)


def _palette(id_color):
    return None if id_color < 0 else _COLORS[id_color % len(_COLORS)]


def Mark(message, id_color=-1):
    """An instantaneous marker named ``message``; ``id_color`` picks a palette color (-1: none)."""
    _core.nvtx_mark(message, _palette(id_color))


def MarkC(message, color=0):
    """A marker with an ARGB ``color`` (uint32)."""
    _core.nvtx_mark(message, color)


def RangePush(message, id_color=-1):
    """Starts a nested range named ``message``, ended by the matching RangePop()."""
    _core.nvtx_range_push(message, _palette(id_color))


def RangePushC(message, color=0):
    """Starts a nested range with an ARGB ``color`` (uint32)."""
    _core.nvtx_range_push(message, color)


def RangePop():
    """Ends the innermost range a RangePush*() started."""
    _core.nvtx_range_pop()


def RangeStart(message, color=None):
    """Starts a range that may end on another thread; returns its id for RangeEnd."""
    return _core.nvtx_range_start(message, color)


def RangeEnd(range_id):
    _core.nvtx_range_end(range_id)
