"""CuPy's memoize and clear_memo: a decorator caching a function's results by its arguments (and,
with for_each_device=True, by the current device), as libraries built on CuPy cache compiled kernels."""
import functools

from .. import _core

__all__ = ["memoize", "clear_memo"]

_MEMOS = []  # every memoized function's cache, for clear_memo
_MISSING = object()


def memoize(for_each_device=False):
    """Caches f's result per (args, kwargs), and per current device when for_each_device; the
    arguments must be hashable."""
    def decorator(f):
        memo = {}
        _MEMOS.append(memo)

        @functools.wraps(f)
        def cached(*args, **kwargs):
            key = (args, frozenset(kwargs.items()))
            if for_each_device:
                key = (_core.get_current_device(), key)
            result = memo.get(key, _MISSING)
            if result is _MISSING:
                result = memo[key] = f(*args, **kwargs)
            return result
        return cached
    return decorator


def clear_memo():
    """Empties every memoize cache."""
    for memo in _MEMOS:
        memo.clear()
