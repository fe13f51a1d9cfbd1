"""Programs that test_nccl.py runs as separate processes, one per rank: ``python nccl_workers.py
<job> <rank> <world_size> <port>``. Each prints one JSON line and exits 0 on success."""
import json
import sys


def store_job(rank, world_size, port):
    """The TCP store alone (no GPU): rank 0 serves; every rank sets its key, reads all, meets twice."""
    from cuarray.distributed import _store
    server = _store.TCPStoreServer("127.0.0.1", port, world_size) if rank == 0 else None
    client = _store.TCPStoreClient("127.0.0.1", port, timeout=30)
    client.set(f"rank{rank}", [rank, rank * 10])
    values = [client.get(f"rank{r}") for r in range(world_size)]
    client.barrier()
    client.barrier()
    client.close()
    if server is not None:
        server.stop()
    return {"values": values}


def collectives_job(rank, world_size, port):
    """Every process-group collective on ``world_size`` GPUs, one per process, checked against NumPy."""
    import numpy as np

    import cuarray as cp
    import cuarray.distributed

    cp.cuda.Device(rank).use()
    comm = cuarray.distributed.init_process_group(world_size, rank, port=port)
    inputs = [np.random.default_rng(100 + r).standard_normal(12).astype(np.float32) for r in range(world_size)]
    mine = cp.asarray(inputs[rank])
    checks = {}

    out = cp.zeros(12, np.float32)
    comm.all_reduce(mine, out, op="sum")
    checks["all_reduce"] = bool(np.allclose(out.get(), np.sum(inputs, axis=0), rtol=1e-5))
    comm.all_reduce(mine, out, op="max")
    checks["all_reduce_max"] = bool(np.array_equal(out.get(), np.max(inputs, axis=0)))

    gathered = cp.zeros(12 * world_size, np.float32)
    comm.all_gather(mine, gathered, 12)
    checks["all_gather"] = bool(np.array_equal(gathered.get(), np.concatenate(inputs)))

    big = cp.asarray(np.concatenate(inputs) + rank)
    part = cp.zeros(12, np.float32)
    comm.reduce_scatter(big, part, 12)
    total = sum(np.concatenate(inputs) + r for r in range(world_size))
    checks["reduce_scatter"] = bool(np.allclose(part.get(), total[12 * rank:12 * (rank + 1)], rtol=1e-5))

    root_data = cp.asarray(inputs[0]) if rank == 0 else cp.zeros(12, np.float32)
    comm.broadcast(root_data, root=0)
    checks["broadcast"] = bool(np.array_equal(root_data.get(), inputs[0]))

    reduced = cp.zeros(12, np.float32)
    comm.reduce(mine, reduced, root=0, op="sum")
    if rank == 0:
        checks["reduce"] = bool(np.allclose(reduced.get(), np.sum(inputs, axis=0), rtol=1e-5))

    peer = (rank + 1) % world_size
    if world_size == 2:
        received = cp.zeros(12, np.float32)
        comm.send_recv(mine, received, peer)
        checks["send_recv"] = bool(np.array_equal(received.get(), inputs[peer]))
        received = cp.zeros(12, np.float32)
        if rank == 0:
            comm.send(mine, 1)
            comm.recv(received, 1)
        else:
            comm.recv(received, 0)
            comm.send(mine, 0)
        checks["send_then_recv"] = bool(np.array_equal(received.get(), inputs[1 - rank]))

    table = np.arange(world_size * 5, dtype=np.float64).reshape(world_size, 5) * 1.5
    row = cp.zeros(5, np.float64)
    comm.scatter(cp.asarray(table) if rank == 0 else None, row, root=0)
    checks["scatter"] = bool(np.array_equal(row.get(), table[rank]))

    rows = cp.zeros((world_size, 5), np.float64) if rank == 0 else None
    comm.gather(cp.asarray(table[rank] * -1), rows, root=0)
    if rank == 0:
        checks["gather"] = bool(np.array_equal(rows.get(), -table))

    send_table = np.arange(world_size * 3, dtype=np.int64).reshape(world_size, 3) + 100 * rank
    got = cp.zeros((world_size, 3), np.int64)
    comm.all_to_all(cp.asarray(send_table), got)
    expected = np.stack([np.arange(world_size * 3).reshape(world_size, 3)[rank] + 100 * r for r in range(world_size)])
    checks["all_to_all"] = bool(np.array_equal(got.get(), expected))

    comm.barrier()
    comm.stop()
    return checks


def init_all_job(rank, world_size, port):
    """NcclCommunicator.initAll over ``world_size`` devices in this one process."""
    import numpy as np

    import cuarray as cp
    from cuarray.cuda import nccl

    comms = nccl.NcclCommunicator.initAll(list(range(world_size)))
    inputs = [np.random.default_rng(7 + d).standard_normal(1000) for d in range(world_size)]
    sends, recvs = [], []
    for d in range(world_size):
        with cp.cuda.Device(d):
            sends.append(cp.asarray(inputs[d]))
            recvs.append(cp.zeros(1000, np.float64))
    nccl.groupStart()
    for d, comm in enumerate(comms):
        with cp.cuda.Device(d):
            comm.allReduce(sends[d].data.ptr, recvs[d].data.ptr, 1000, nccl.NCCL_FLOAT64, nccl.NCCL_SUM,
                           cp.cuda.get_current_stream().ptr)
    nccl.groupEnd()
    checks = {}
    for d in range(world_size):
        with cp.cuda.Device(d):
            checks[f"device{d}"] = bool(np.allclose(recvs[d].get(), np.sum(inputs, axis=0)))
            checks[f"rank{d}"] = comms[d].rank_id() == d and comms[d].device_id() == d and comms[d].size() == world_size
    for comm in comms:
        comm.destroy()
    return checks


if __name__ == "__main__":
    job, rank, world_size, port = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    print(json.dumps(globals()[f"{job}_job"](rank, world_size, port)))
