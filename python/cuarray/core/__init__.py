"""CuPy's old module path ``cupy.core`` for the names code still imports from it (``core.dlpack``)."""
from . import dlpack  # noqa: F401
