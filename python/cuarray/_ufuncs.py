"""The ufunc objects under NumPy's names and aliases (the table lives in C++: src/ops/ufunc/ufunc_table.cpp)."""
from . import _core

_ALIASES = {"true_divide": "divide", "mod": "remainder", "abs": "absolute", "conj": "conjugate",
            "bitwise_not": "invert"}

__all__ = []
for _name, _u in _core.ufuncs.items():
    if not _name.startswith("_"):
        globals()[_name] = _u
        __all__.append(_name)
for _alias, _name in _ALIASES.items():
    globals()[_alias] = globals()[_name]
    __all__.append(_alias)
