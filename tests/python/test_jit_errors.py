"""Run-time compilation: a compile failure surfaces as CompileException carrying the NVRTC log, and
the kernel cache honours CUARRAY_CACHE_DIR."""
import os

import pytest

import cuarray as cp

from helpers import run_python

pytestmark = pytest.mark.gpu

BAD_SOURCE = r'''
extern "C" __global__ void broken_kernel(float* x)
{
    x[threadIdx.x] = undefined_identifier_xyz * 2.0f;
}
'''


def _compile_and_launch(kernel):
    if hasattr(kernel, "compile"):
        kernel.compile()
    kernel((1,), (32,), (cp.zeros(32, dtype=cp.float32),))


def test_compile_failure_raises_compile_exception_with_log():
    if not hasattr(cp, "RawKernel"):
        pytest.skip("cuarray has no RawKernel yet")
    with pytest.raises(cp.cuda.compiler.CompileException) as info:
        _compile_and_launch(cp.RawKernel(BAD_SOURCE, "broken_kernel"))
    msg = str(info.value)
    assert "undefined_identifier_xyz" in msg, f"the NVRTC log is missing from: {msg}"
    assert "error" in msg.lower()


def test_compile_exception_is_an_exception_class():
    assert isinstance(cp.cuda.compiler.CompileException, type)
    assert issubclass(cp.cuda.compiler.CompileException, Exception)


_OP_IN_SUBPROCESS = """
import numpy as np
import cuarray as cp
a = cp.asarray(np.arange(1000, dtype=np.int16))
b = cp.asarray(np.arange(1000, dtype=np.uint8))
r = cp.asnumpy(cp.hypot(a, b))
assert np.allclose(r, np.hypot(np.arange(1000, dtype=np.int16), np.arange(1000, dtype=np.uint8)))
print("ok")
"""


def _files_under(root):
    return [os.path.join(d, f) for d, _, files in os.walk(root) for f in files]


def test_cache_dir_env_var_is_respected(tmp_path):
    cache = tmp_path / "kernel-cache"
    cache.mkdir()
    assert run_python(_OP_IN_SUBPROCESS, CUARRAY_CACHE_DIR=str(cache)).strip().endswith("ok")
    assert _files_under(cache), f"no cache files in CUARRAY_CACHE_DIR={cache}"


def test_cache_dir_is_created_when_missing(tmp_path):
    cache = tmp_path / "does" / "not" / "exist"
    assert run_python(_OP_IN_SUBPROCESS, CUARRAY_CACHE_DIR=str(cache)).strip().endswith("ok")
    assert _files_under(cache), f"no cache files in CUARRAY_CACHE_DIR={cache}"


def test_xdg_cache_home_is_the_fallback(tmp_path):
    xdg = tmp_path / "xdg"
    xdg.mkdir()
    env = {"XDG_CACHE_HOME": str(xdg)}
    code = "import os; os.environ.pop('CUARRAY_CACHE_DIR', None)\n" + _OP_IN_SUBPROCESS
    assert run_python(code, **env).strip().endswith("ok")
    assert _files_under(xdg / "cuarray"), f"no cache files in {xdg / 'cuarray'}"
