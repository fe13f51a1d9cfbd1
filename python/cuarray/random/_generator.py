"""numpy.random.Generator over cuarray's Philox4x32-10 bit generator (default_rng)."""
import numpy as _np

from .. import _core
from ._arguments import float_dtype, into_out, normalize_size, seed_key
from ._composites import GeneratorComposites
from ._distributions import Distributions


class BitGenerator:
    """The base of cuarray's bit generators: a seed sequence and the Philox stream it keys."""

    def __init__(self, seed=None):
        import numpy.random as npr
        if isinstance(seed, npr.SeedSequence):
            self._seed_seq = seed
        else:
            self._seed_seq = npr.SeedSequence(None if seed is None else seed)
        self._stream = _core.PhiloxStream(seed_key(self._seed_seq), False)

    @property
    def seed_seq(self):
        return self._seed_seq

    def spawn(self, n_children):
        """Independent bit generators from the seed sequence's children (NumPy's spawn)."""
        return [type(self)(child) for child in self._seed_seq.spawn(n_children)]

    @property
    def state(self):
        return {"bit_generator": type(self).__name__, "seed": self._stream.seed, "offset": self._stream.offset}

    @state.setter
    def state(self, value):
        if not isinstance(value, dict) or value.get("bit_generator") != type(self).__name__:
            raise ValueError(f"state must be a dict from a {type(self).__name__} bit generator's .state")
        self._stream.set_state(int(value["seed"]), int(value["offset"]))


class Philox(BitGenerator):
    """Philox4x32-10 keyed by 64 bits of the seed sequence: cuarray's default bit generator."""


class Generator(Distributions, GeneratorComposites):
    """NumPy's Generator: every distribution, float32 generated natively where NumPy offers it."""

    def __init__(self, bit_generator):
        if not isinstance(bit_generator, BitGenerator):
            raise TypeError("Generator needs a cuarray.random bit generator (Philox); "
                            f"got {type(bit_generator).__name__}")
        self._bit_generator = bit_generator
        self._stream = bit_generator._stream

    @property
    def bit_generator(self):
        return self._bit_generator

    def spawn(self, n_children):
        return [Generator(bg) for bg in self._bit_generator.spawn(n_children)]

    def __repr__(self):
        return f"Generator({type(self._bit_generator).__name__})"

    def random(self, size=None, dtype=_np.float64, out=None):
        dtype = float_dtype(dtype, "random")
        shape = out.shape if out is not None and size is None else normalize_size(size) or ()
        return into_out(self._stream.random(shape, dtype), out, size)

    def standard_normal(self, size=None, dtype=_np.float64, out=None):
        dtype = float_dtype(dtype, "standard_normal")
        shape = out.shape if out is not None and size is None else normalize_size(size) or ()
        return into_out(self._stream.standard_normal(shape, dtype), out, size)

    def standard_exponential(self, size=None, dtype=_np.float64, method="zig", out=None):
        if method not in ("zig", "inv"):
            raise ValueError(f"Unknown method {method!r}: 'zig' or 'inv'")
        dtype = float_dtype(dtype, "standard_exponential")
        shape = out.shape if out is not None and size is None else normalize_size(size) or ()
        return into_out(self._stream.standard_exponential(shape, dtype), out, size)

    def standard_gamma(self, shape, size=None, dtype=_np.float64, out=None):
        dtype = float_dtype(dtype, "standard_gamma")
        if out is not None and size is None:
            size = out.shape
        return into_out(self._sample("standard_gamma", (shape,), size, dtype), out, size)

    def integers(self, low, high=None, size=None, dtype=_np.int64, endpoint=False):
        return self._integers(low, high, size, dtype, endpoint, "integers")


def default_rng(seed=None):
    """A Generator over Philox (a Generator passes through; a bit generator is wrapped)."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, BitGenerator):
        return Generator(seed)
    return Generator(Philox(seed))
