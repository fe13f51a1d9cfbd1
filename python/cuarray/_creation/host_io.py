"""Arrays from files, buffers, strings and iterators, and arrays to files and text, as NumPy's
functions of the same names: NumPy reads or writes on the host and the data crosses once (CuPy does
the same). Readers return cuarray arrays; load of an .npz returns an NpzFile whose items are.
Writers and the text forms are NumPy's functions given host copies (_host_arguments.on_host).
fromfunction calls the function on device index arrays, as NumPy calls it on its own."""
import functools

import numpy as _np

from .creation import asarray
from .._array.host_arguments import on_host
from .._indexing.index_functions import indices

__all__ = ["fromfile", "frombuffer", "fromstring", "fromiter", "loadtxt", "genfromtxt", "fromfunction",
           "load", "save", "savez", "savez_compressed", "savetxt", "array_repr", "array_str", "array2string"]


def _reader(numpy_reader):
    """numpy_reader's arguments and documentation; its result copied to the current device. ``like``
    is accepted and dropped: the result is a cuarray array whatever it names."""
    @functools.wraps(numpy_reader)
    def read(*args, like=None, **kwargs):
        return asarray(numpy_reader(*args, **kwargs))
    return read


fromfile = _reader(_np.fromfile)
frombuffer = _reader(_np.frombuffer)
fromstring = _reader(_np.fromstring)
fromiter = _reader(_np.fromiter)
loadtxt = _reader(_np.loadtxt)
genfromtxt = _reader(_np.genfromtxt)


save = on_host(_np.save)
savez = on_host(_np.savez)
savez_compressed = on_host(_np.savez_compressed)
savetxt = on_host(_np.savetxt)


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """function(*indices(shape, dtype), **kwargs), as numpy.fromfunction: the indices are device arrays."""
    return function(*indices(shape, dtype=dtype), **kwargs)


class NpzFile:
    """An .npz file opened by load (CuPy's NpzFile): items are read as cuarray arrays; a context manager."""

    def __init__(self, npz_file):
        self.npz_file = npz_file

    def __enter__(self):
        self.npz_file.__enter__()
        return self

    def __exit__(self, *exc):
        self.npz_file.__exit__(*exc)

    def __getitem__(self, key):
        return asarray(self.npz_file[key])

    def __contains__(self, key):
        return key in self.npz_file

    def __iter__(self):
        return iter(self.npz_file)

    def __len__(self):
        return len(self.npz_file)

    @property
    def files(self):
        return self.npz_file.files

    def close(self):
        self.npz_file.close()


@functools.wraps(_np.load)
def load(*args, **kwargs):
    """numpy.load, with arrays copied to the current device (an .npz gives an NpzFile)."""
    obj = _np.load(*args, **kwargs)
    if isinstance(obj, _np.ndarray):
        return asarray(obj)
    if isinstance(obj, _np.lib.npyio.NpzFile):
        return NpzFile(obj)
    return obj


array_repr = on_host(_np.array_repr)
array_str = on_host(_np.array_str)
array2string = on_host(_np.array2string)
