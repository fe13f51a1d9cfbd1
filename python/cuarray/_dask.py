"""Dask arrays of cuarray chunks (docs/dask.md).

Importing this module registers cuarray with Dask: ``cuarray.ndarray`` as a chunk type, its
``sizeof``, and the per-chunk dispatch tables of ``dask.array.dispatch``.  ``import cuarray`` never
imports it (Dask is an optional dependency); Dask imports it itself when the "cuarray" array backend
is selected (the ``dask.array.backends`` entry point names ``CuarrayBackendEntrypoint``) and when it
first measures a cuarray chunk (the ``dask.sizeof`` entry point, cuarray._dask_sizeof).  A program
that builds Dask arrays from cuarray arrays under the default NumPy backend imports it explicitly:
``import cuarray._dask``.

The module's body does all the registering, once; loading the entry point imports it.
"""
import numpy as np

import dask.array as da
from dask import config
from dask.array import dispatch
from dask.array.backends import (ArrayBackendEntrypoint, _nannumel, _numel_arraylike, array_creation_dispatch,
                                 percentile)
# The module that owns the list (dask.array's public name is a stub under array query planning).
from dask.array.chunk_types import register_chunk_type
from dask.sizeof import sizeof
from dask.utils import Dispatch

import cuarray

# Moves a chunk onto the GPU: what Array.to_backend("cuarray") maps over the blocks.
to_cuarray_dispatch = Dispatch("to_cuarray_dispatch")


@to_cuarray_dispatch.register(np.ndarray)
def _numpy_to_cuarray(data, **kwargs):
    return cuarray.asarray(data, **kwargs)


@to_cuarray_dispatch.register(cuarray.ndarray)
def _cuarray_to_cuarray(data, **kwargs):
    return data


@dispatch.to_numpy_dispatch.register(cuarray.ndarray)
def _cuarray_to_numpy(data, **kwargs):
    return cuarray.asnumpy(data, **kwargs)


@sizeof.register(cuarray.ndarray)
def _sizeof_cuarray(x):
    # Device bytes: what Dask's memory accounting (and dask-cuda's spilling) must count.
    return int(x.nbytes)


def _register_chunk_functions():
    """The chunk-level functions Dask looks up by the chunk's type; the rest (ufuncs, reductions,
    np.* called on a chunk) reach cuarray through __array_ufunc__ / __array_function__."""
    register_chunk_type(cuarray.ndarray)
    for table, function in ((dispatch.concatenate_lookup, cuarray.concatenate),
                            (dispatch.tensordot_lookup, cuarray.tensordot),
                            (dispatch.einsum_lookup, cuarray.einsum),
                            (dispatch.take_lookup, cuarray.take),
                            (dispatch.empty_lookup, cuarray.empty),
                            (dispatch.percentile_lookup, percentile),
                            (dispatch.numel_lookup, _numel_arraylike),
                            (dispatch.nannumel_lookup, _nannumel)):
        table.register(cuarray.ndarray, function)


_register_chunk_functions()


def _da_with_cuarray_meta(name, *args, meta=None, **kwargs):
    # Dask's NumPy creation functions make chunks like their meta (np.ones_like(meta, shape=...)
    # reaches cuarray through __array_function__), so a cuarray meta makes cuarray chunks.
    meta = cuarray.empty(()) if meta is None else meta
    with config.set({"array.backend": "numpy"}):
        return getattr(da, name)(*args, meta=meta, **kwargs)


class CuarrayBackendEntrypoint(ArrayBackendEntrypoint):
    """``dask.config.set({"array.backend": "cuarray"})``: Dask's creation functions and
    ``da.random`` make cuarray chunks."""

    @classmethod
    def to_backend_dispatch(cls):
        return to_cuarray_dispatch

    @classmethod
    def to_backend(cls, data, **kwargs):
        if isinstance(data._meta, cuarray.ndarray):
            return data
        return data.map_blocks(to_cuarray_dispatch, **kwargs)

    @property
    def RandomState(self):
        return cuarray.random.RandomState

    @property
    def default_bit_generator(self):
        return cuarray.random.Philox

    @staticmethod
    def ones(*args, **kwargs):
        return _da_with_cuarray_meta("ones", *args, **kwargs)

    @staticmethod
    def zeros(*args, **kwargs):
        return _da_with_cuarray_meta("zeros", *args, **kwargs)

    @staticmethod
    def empty(*args, **kwargs):
        return _da_with_cuarray_meta("empty", *args, **kwargs)

    @staticmethod
    def full(*args, **kwargs):
        return _da_with_cuarray_meta("full", *args, **kwargs)

    @staticmethod
    def arange(*args, like=None, **kwargs):
        like = cuarray.empty(()) if like is None else like
        with config.set({"array.backend": "numpy"}):
            return da.arange(*args, like=like, **kwargs)


# Dask finds the backend through its entry point when cuarray is installed; registering it here too
# makes `import cuarray._dask` enough where cuarray runs from a build tree without package metadata.
array_creation_dispatch.register_backend("cuarray", CuarrayBackendEntrypoint())


def local_gpu_cluster(n_gpus=None, *, use_dask_cuda=True):
    """A cluster of one single-threaded worker process per GPU of this machine: dask-cuda's
    LocalCUDACluster where installed, else distributed's own Nannies with CUDA_VISIBLE_DEVICES
    rotated the same way (worker i sees GPU i as device 0), which is all cuarray needs.

    Its scheduler sends every ready task to its worker at once (worker-saturation "inf", no
    scheduler-side queue). A cuarray task returns as soon as its kernels are queued on the GPU, so
    Dask's queue, which hands a worker its next tasks only as the last ones report back, paces the
    GPU by scheduler round trips (a few ms each) where the GPU could run ahead (docs/dask.md)."""
    import dask
    from distributed import Nanny, Scheduler, SpecCluster

    n_gpus = cuarray.cuda.runtime.getDeviceCount() if n_gpus is None else n_gpus
    rotations = [",".join(str((i + k) % n_gpus) for k in range(n_gpus)) for i in range(n_gpus)]
    with dask.config.set({"distributed.scheduler.worker-saturation": float("inf")}):  # read by the Scheduler
        if use_dask_cuda:
            try:
                from dask_cuda import LocalCUDACluster
            except ImportError:
                pass
            else:
                return LocalCUDACluster(CUDA_VISIBLE_DEVICES=rotations[0], n_workers=n_gpus, threads_per_worker=1,
                                        dashboard_address=None)
        workers = {f"gpu{i}": {"cls": Nanny, "options": {"nthreads": 1, "env": {"CUDA_VISIBLE_DEVICES": devices}}}
                   for i, devices in enumerate(rotations)}
        return SpecCluster(workers=workers, scheduler={"cls": Scheduler, "options": {"dashboard_address": None}})
