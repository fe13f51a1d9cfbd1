"""cuarray.random: numpy.random on the GPU (RandomState, Generator and every distribution).

Bits come from Philox4x32-10, a counter-based generator: a stream is (seed, offset), each call
advances the offset by the elements it drew, so a seed reproduces its values on any device and
launch configuration and no state lives on the GPU. Values differ from NumPy's streams (as
CuPy's do); the distributions are NumPy's (docs/random.md).

The module-level functions call the global RandomState of ``get_random_state()``: one wrapper per
public RandomState method, generated from the class.
"""
import functools as _functools

from .. import _core
from ._generator import BitGenerator, Generator, Philox, default_rng
from ._random_state import RandomState

_random_state = None


def get_random_state():
    """The RandomState behind the module-level functions (seeded from the OS at first use)."""
    global _random_state
    if _random_state is None:
        _random_state = RandomState._from_stream(_core.default_random_stream())
    return _random_state


def set_random_state(rs):
    """Makes `rs` (a RandomState) the one behind the module-level functions."""
    global _random_state
    if not isinstance(rs, RandomState):
        raise TypeError(f"set_random_state needs a RandomState, got {type(rs).__name__}")
    _random_state = rs


def _module_function(name):
    method = getattr(RandomState, name)

    @_functools.wraps(method)
    def call(*args, **kwargs):
        return getattr(get_random_state(), name)(*args, **kwargs)

    return call


_METHODS = sorted(name for name in dir(RandomState)
                  if not name.startswith("_") and callable(getattr(RandomState, name)))
globals().update({name: _module_function(name) for name in _METHODS})
ranf = sample = globals()["random_sample"]

__all__ = _METHODS + ["ranf", "sample", "get_random_state", "set_random_state", "RandomState", "Generator",
                      "BitGenerator", "Philox", "SeedSequence", "default_rng"]


def __getattr__(name):
    # NumPy's SeedSequence seeds Philox as it seeds NumPy's bit generators; imported on first use,
    # so that importing cuarray does not import numpy.random.
    if name == "SeedSequence":
        import numpy.random
        return numpy.random.SeedSequence
    raise AttributeError(f"module 'cuarray.random' has no attribute {name!r}")
