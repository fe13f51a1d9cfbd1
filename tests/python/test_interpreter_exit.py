"""Programs end cleanly. With nanobind's leak report on (CUARRAY_LEAK_WARNINGS=1; off by default), a
program that used the bindings which look up Python classes and functions (RawKernel launches,
ndarray.dot, a Python allocator) leaves no cuarray object alive at interpreter exit."""
import subprocess
import sys

import pytest

from helpers import subprocess_env

PROGRAM = r"""
import numpy as np
import cuarray as cp
x = cp.arange(10.0)
x.dot(x)
kernel = cp.RawKernel(r'extern "C" __global__ void one(float* p) { p[0] = 1.0f; }', "one")
y = cp.zeros(1, np.float32)
kernel((1,), (1,), (y,))
cp.cuda.set_allocator(cp.cuda.MemoryPool().malloc)
z = cp.ones(5)
print(float(y[0]) + float(z.sum()))
"""


@pytest.mark.gpu
def test_no_leak_report_at_exit():
    proc = subprocess.run([sys.executable, "-c", PROGRAM], env=subprocess_env(CUARRAY_LEAK_WARNINGS="1"),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "6.0"
    assert "nanobind: leaked" not in proc.stderr, proc.stderr
