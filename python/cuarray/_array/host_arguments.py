"""Calling a NumPy function with cuarray arrays among its arguments: each array, also inside lists,
tuples and dicts, becomes a host copy first. cuarray.testing's assertions and the host writers
(save, savez, savetxt) are NumPy's functions called this way."""
import functools

from .._core import ndarray
from .._creation.creation import asnumpy


def host_copies(x):
    """x with every cuarray array in it (at any depth of lists, tuples and dicts) copied to the host."""
    if isinstance(x, ndarray):
        return asnumpy(x)
    if type(x) in (list, tuple):
        return type(x)(host_copies(v) for v in x)
    if type(x) is dict:
        return {k: host_copies(v) for k, v in x.items()}
    return x


def on_host(numpy_function):
    """numpy_function, with its signature and documentation, called on host copies of its arguments."""
    @functools.wraps(numpy_function)
    def call(*args, **kwargs):
        return numpy_function(*host_copies(args), **host_copies(kwargs))
    return call
