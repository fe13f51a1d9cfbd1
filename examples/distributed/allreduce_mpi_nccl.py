"""All-reduce of a cuarray array over NCCL, with MPI (mpi4py) only to start the ranks and share
NCCL's unique id: one rank per GPU, on one node or many.

    mpirun -n 2 python examples/distributed/allreduce_mpi_nccl.py            # one node, 2 GPUs
    srun --ntasks-per-node=4 --gres=gpu:4 python allreduce_mpi_nccl.py     # SLURM (see job.sbatch)
    python allreduce_mpi_nccl.py --size-mb 1024 --repeat 20                 # bus bandwidth at 1 GB

Each rank fills its array with rank + 1, all-reduces it in place of a second array, and checks
that every element is 1 + 2 + ... + n; rank 0 prints the time and NCCL's bus bandwidth
(2 (n - 1) / n * bytes / time, the figure nccl-tests reports).
"""
import argparse
import os
import sys

# NVLink multicast (NVLS) stays off; cuarray.cuda.nccl also sets this before loading libnccl.
os.environ.setdefault("NCCL_NVLS_ENABLE", "0")

import numpy as np  # noqa: E402
from mpi4py import MPI  # noqa: E402  (initializes MPI)

import cuarray as cp  # noqa: E402
from cuarray.cuda import nccl  # noqa: E402


def local_device(comm):
    """This rank's GPU: its rank among the ranks on the same node, modulo the GPUs it can see.

    Under job.sbatch every task sees only its own GPU (CUDA_VISIBLE_DEVICES), so this is 0;
    under a plain `mpirun -n N` on one node every rank sees all GPUs and takes its own."""
    node = comm.Split_type(MPI.COMM_TYPE_SHARED)
    local_rank = node.rank
    node.Free()
    return local_rank % cp.cuda.runtime.getDeviceCount()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=float, default=64.0, help="MiB of float32 per rank (default 64)")
    parser.add_argument("--repeat", type=int, default=10, help="timed all-reduces after one warm-up")
    args = parser.parse_args()

    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    device = local_device(comm)
    count = int(args.size_mb * (1 << 20)) // 4

    with cp.cuda.Device(device):
        # Rank 0 makes the id; MPI carries it (a tuple of 128 ints) to every rank.
        unique_id = nccl.get_unique_id() if rank == 0 else None
        unique_id = comm.bcast(unique_id, root=0)
        communicator = nccl.NcclCommunicator(size, unique_id, rank)  # blocks until all ranks join

        send = cp.full(count, rank + 1, dtype=np.float32)
        recv = cp.empty_like(send)
        stream = cp.cuda.get_current_stream()

        def all_reduce():
            communicator.allReduce(send.data.ptr, recv.data.ptr, count, nccl.NCCL_FLOAT32, nccl.NCCL_SUM,
                                   stream.ptr)

        all_reduce()  # warm-up: NCCL sets up its channels on the first call
        expected = size * (size + 1) / 2
        ok = bool(cp.all(recv == expected))
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record(stream)
        for _ in range(args.repeat):
            all_reduce()
        stop.record(stream)
        stop.synchronize()
        seconds = cp.cuda.get_elapsed_time(start, stop) / 1e3 / max(args.repeat, 1)
        ok = ok and bool(cp.all(recv == expected))
        communicator.destroy()

    all_ok = comm.allreduce(ok, op=MPI.LAND)
    if rank == 0:
        nbytes = count * 4
        bus_gbs = 2 * (size - 1) / size * nbytes / seconds / 1e9 if size > 1 else float("nan")
        print(f"{size} rank(s), {nbytes / 2**20:.0f} MiB float32: {seconds * 1e3:.3f} ms per all-reduce, "
              f"bus bandwidth {bus_gbs:.1f} GB/s, result {'correct' if all_ok else 'WRONG'}")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
