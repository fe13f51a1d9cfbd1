"""Several processes, one GPU each: cupyx.distributed's process groups on cuarray arrays
(docs/distributed.md, "Process groups").

    comm = cuarray.distributed.init_process_group(n_devices, rank)
    comm.all_reduce(x, y, op="sum")

The rendezvous is a TCP store served by rank 0 (``host``/``port``, else the environment's
``CUPYX_DISTRIBUTED_HOST``/``CUPYX_DISTRIBUTED_PORT``, else 127.0.0.1:13333, as CuPy) or, with
``use_mpi=True``, mpi4py's COMM_WORLD.
"""
from ._comm import NCCLBackend, init_process_group

__all__ = ["NCCLBackend", "init_process_group"]
