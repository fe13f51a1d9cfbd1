"""The two-rank half of test_mpi.py, run as ``mpirun -n 2 python -m mpi_two_ranks``: one rank per
GPU, as SLURM's srun would start it. Exits non-zero (an AssertionError) on any wrong value."""
import numpy as np
from mpi4py import MPI

import cuarray as cp


def rank_data(rank, dtype):
    rng = np.random.default_rng(1000 + rank)
    return (rng.standard_normal((64, 37)) * 100).astype(dtype)


def main():
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    assert size == 2, f"run with 2 ranks, got {size}"
    with cp.cuda.Device(rank):
        for dtype in (np.float32, np.float64, np.int64):
            host = rank_data(rank, dtype)
            x = cp.asarray(host)[:, ::2] * 3  # a strided view of freshly computed data
            expected = sum(rank_data(r, dtype)[:, ::2] * 3 for r in range(size))
            total = cp.cuda.allreduce_array(comm, x)
            assert total.dtype == dtype and total.device.id == rank
            np.testing.assert_allclose(total.get(), expected, rtol=1e-6)
            biggest = cp.cuda.allreduce_array(comm, x, op=MPI.MAX)
            np.testing.assert_array_equal(biggest.get(), np.maximum(*(rank_data(r, dtype)[:, ::2] * 3 for r in range(size))))

        payload = rank_data(7, np.float32)
        if rank == 0:
            cp.cuda.send_array(comm, cp.asarray(payload)[::-1], dest=1, tag=5)
        else:
            out = cp.empty(payload.shape, dtype=np.float32)
            assert cp.cuda.recv_array(comm, out, source=0, tag=5) is out
            np.testing.assert_array_equal(out.get(), payload[::-1])

        if cp.cuda.is_cuda_aware_mpi():  # mpi4py straight on cuarray buffers, as users write it
            x = cp.asarray(rank_data(rank, np.float64))
            out = cp.empty_like(x)
            cp.cuda.get_current_stream().synchronize()
            comm.Allreduce(x, out, op=MPI.SUM)
            np.testing.assert_allclose(out.get(), rank_data(0, np.float64) + rank_data(1, np.float64))
    comm.Barrier()
    print(f"rank {rank} ok (cuda-aware: {cp.cuda.is_cuda_aware_mpi()})", flush=True)


if __name__ == "__main__":
    main()
