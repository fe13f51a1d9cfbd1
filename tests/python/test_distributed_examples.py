"""examples/distributed/ run as their docstrings say: the sbatch script's task-to-GPU mapping with a
stand-in srun (host), the spawn example on every GPU, and the MPI + NCCL all-reduce under mpirun."""
import os
import stat
import subprocess
import sys

import pytest

import cuarray as cp

from helpers import subprocess_env
from mpi_launch import mpirun, mpirun_env

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(REPO, "examples", "distributed")


def _executable(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


def test_sbatch_gives_each_task_its_own_gpu(tmp_path):
    """srun stand-in: starts 2 tasks (SLURM_LOCALID 0 and 1) of the command after its options;
    python stand-in: prints what the task would run with."""
    _executable(tmp_path / "srun", '#!/bin/bash\necho "srun $*" >&2\nwhile [[ $1 == -* ]]; do shift; done\n'
                'for id in 0 1; do SLURM_LOCALID=$id "$@"; done\n')
    _executable(tmp_path / "python", '#!/bin/bash\necho "gpu=$CUDA_VISIBLE_DEVICES nvls=$NCCL_NVLS_ENABLE $*"\n')
    env = dict(os.environ, PATH=f"{tmp_path}{os.pathsep}{os.environ['PATH']}", CUDA_VISIBLE_DEVICES="3,5",
               SLURM_GPUS_ON_NODE="2")
    env.pop("NCCL_NVLS_ENABLE", None)
    proc = subprocess.run(["bash", os.path.join(EXAMPLES, "job.sbatch"), "--size-mb", "8"], cwd=REPO,
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    script = "examples/distributed/allreduce_mpi_nccl.py --size-mb 8"
    assert proc.stdout.splitlines() == [f"gpu=3 nvls=0 {script}", f"gpu=5 nvls=0 {script}"]
    assert "--mpi=pmix" in proc.stderr


def test_sbatch_without_cuda_visible_devices(tmp_path):
    _executable(tmp_path / "srun", '#!/bin/bash\nwhile [[ $1 == -* ]]; do shift; done\n'
                'for id in 0 1 2; do SLURM_LOCALID=$id "$@"; done\n')
    _executable(tmp_path / "python", '#!/bin/bash\necho "gpu=$CUDA_VISIBLE_DEVICES"\n')
    env = dict(os.environ, PATH=f"{tmp_path}{os.pathsep}{os.environ['PATH']}", SLURM_GPUS_ON_NODE="3")
    env.pop("CUDA_VISIBLE_DEVICES", None)
    proc = subprocess.run(["bash", os.path.join(EXAMPLES, "job.sbatch")], cwd=REPO, capture_output=True,
                          text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["gpu=0", "gpu=1", "gpu=2"]


@pytest.mark.gpu
def test_multiprocessing_spawn_example():
    n_gpus = cp.cuda.runtime.getDeviceCount()
    proc = subprocess.run([sys.executable, os.path.join(EXAMPLES, "multiprocessing_spawn.py"), "--n", "384",
                           "--tasks", str(2 * n_gpus + 1)], capture_output=True, text=True,
                          env=subprocess_env(), timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"on {n_gpus} GPU(s)" in proc.stdout and "correct" in proc.stdout, proc.stdout


@pytest.mark.gpu
@pytest.mark.parametrize("ranks", [1, 2])
def test_allreduce_mpi_nccl_example(ranks):
    pytest.importorskip("mpi4py", reason="mpi4py is not installed")
    if mpirun() is None:
        pytest.skip("mpirun is not installed")
    nccl = getattr(cp.cuda, "nccl", None)
    if nccl is None or not nccl.available:
        pytest.skip("NCCL is not available (cuarray.cuda.nccl missing or libnccl not found)")
    if cp.cuda.runtime.getDeviceCount() < ranks:
        pytest.skip(f"{ranks} ranks need {ranks} GPUs (one rank per GPU)")
    env = mpirun_env()
    proc = subprocess.run([mpirun(), "-n", str(ranks), sys.executable, os.path.join(EXAMPLES, "allreduce_mpi_nccl.py"),
                           "--size-mb", "16", "--repeat", "3"], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{ranks} rank(s), 16 MiB float32" in proc.stdout and "result correct" in proc.stdout, proc.stdout
