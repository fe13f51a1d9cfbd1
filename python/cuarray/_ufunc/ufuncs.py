"""The ufunc objects under NumPy's names and aliases (the table and the alias list live in C++:
src/ops/ufunc/ufunc_table.cpp, Ufunc::aliases())."""
from .. import _core

__all__ = []
for _name, _u in _core.ufuncs.items():
    if not _name.startswith("_"):
        globals()[_name] = _u
        __all__.append(_name)
for _alias, _name in _core.ufunc_aliases.items():
    globals()[_alias] = globals()[_name]
    __all__.append(_alias)
