"""How the tests start MPI programs: the mpirun beside this Python (an MPI wheel's) or on PATH,
with an environment that finds this cuarray and lets Open MPI run as root in containers."""
import os
import shutil
import sys

from helpers import subprocess_env


def mpirun():
    """The mpirun to use, or None when there is none."""
    beside_python = os.path.join(os.path.dirname(sys.executable), "mpirun")
    return beside_python if os.access(beside_python, os.X_OK) else shutil.which("mpirun")


def mpirun_env(**extra):
    return subprocess_env(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", NCCL_NVLS_ENABLE="0",
                          **extra)
