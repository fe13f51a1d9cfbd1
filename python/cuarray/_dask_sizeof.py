"""Dask's ``dask.sizeof`` entry point (pyproject.toml): Dask calls ``register`` when it imports
dask.sizeof, early in ``import dask``, so this module imports nothing; the hook it leaves runs the
first time Dask measures an object of a ``cuarray`` type, and imports cuarray._dask, which registers
cuarray with Dask as a whole (docs/dask.md)."""


def register(sizeof):
    @sizeof.register_lazy("cuarray")
    def _register_cuarray():
        import cuarray._dask  # noqa: F401  (registers sizeof(cuarray.ndarray) among the rest)
