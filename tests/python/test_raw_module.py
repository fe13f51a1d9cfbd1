"""cuarray.RawModule against CuPy's semantics: constructor checks and name expressions on the host;
template kernels, globals, module files (.cu, .cubin, .ptx, .fatbin) and unloading on a GPU."""
import gc
import os
import shutil
import subprocess

import numpy as np
import pytest

import cuarray as cp

from helpers import assert_array_equal_np, random_array

gpu = pytest.mark.gpu

TEMPLATES = r'''
template <typename T>
__global__ void axpy(const T* x, T* y, T a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
__device__ int counts[4];
__constant__ float weights[3];
extern "C" __global__ void weigh(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = weights[i % 3] * x[i] + counts[i % 4];
}
'''
EXPRESSIONS = ("axpy<float>", "axpy<double>", "axpy<int>")


def _nvcc():
    found = shutil.which("nvcc")
    if found:
        return found
    return "/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None


# ---- host ----------------------------------------------------------------------------------------

def test_exactly_one_of_code_and_path():
    with pytest.raises(TypeError, match="Exactly one of `code` and `path` keyword arguments must be given."):
        cp.RawModule()
    with pytest.raises(TypeError, match="Exactly one of"):
        cp.RawModule(code=TEMPLATES, path="k.cubin")
    with pytest.raises(TypeError):
        cp.RawModule(TEMPLATES)  # keyword-only, as in CuPy


def test_name_expression_checks():
    with pytest.raises(ValueError, match="need CUDA C\\+\\+ code for the requested kernels"):
        cp.RawModule(path="k.cubin", name_expressions=EXPRESSIONS)
    with pytest.raises(ValueError, match="only nvrtc supports retrieving the mangled names"):
        cp.RawModule(code=TEMPLATES, options=("-std=c++17",), backend="nvcc", name_expressions=EXPRESSIONS)
    with pytest.raises(ValueError, match="need to specify C\\+\\+ standard for compiling template code"):
        cp.RawModule(code=TEMPLATES, name_expressions=EXPRESSIONS)
    with pytest.raises(ValueError, match="Jitify does not support precompiled objects"):
        cp.RawModule(path="k.cubin", jitify=True)
    with pytest.raises(NotImplementedError, match="jitify"):
        cp.RawModule(code=TEMPLATES, jitify=True)


def test_unreadable_path():
    with pytest.raises(ValueError, match="cannot read the module file /nonexistent/k.cubin"):
        cp.RawModule(path="/nonexistent/k.cubin")


def test_name_expressions_lower_on_the_host(tmp_path, monkeypatch):
    monkeypatch.setenv("CUARRAY_CACHE_DIR", str(tmp_path))
    mod = cp.RawModule(code=TEMPLATES, options=("--std=c++17",), name_expressions=EXPRESSIONS)
    assert mod.name_expressions == EXPRESSIONS
    lowered = mod._module.compile_for("sm_80")
    assert lowered == ["_Z4axpyIfEvPKT_PS0_S0_i", "_Z4axpyIdEvPKT_PS0_S0_i", "_Z4axpyIiEvPKT_PS0_S0_i"]
    # The cache file holds the lowered names: a second module finds them there.
    again = cp.RawModule(code=TEMPLATES, options=("--std=c++17",), name_expressions=EXPRESSIONS)
    assert again._module.compile_for("sm_80") == lowered


def test_cu_path_compiles_like_code(tmp_path, monkeypatch):
    monkeypatch.setenv("CUARRAY_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "kernels.cu"
    path.write_text(TEMPLATES.replace("undefined", ""))
    mod = cp.RawModule(path=str(path))
    assert mod.file_path == str(path) and mod.code is None
    mod._module.compile_for("sm_90")
    path.write_text("garbage that is not CUDA")
    with pytest.raises(cp.cuda.compiler.CompileException):
        cp.RawModule(path=str(path))._module.compile_for("sm_90")


# ---- GPU -----------------------------------------------------------------------------------------

@gpu
@pytest.mark.parametrize("expression, dtype", [("axpy<float>", np.float32), ("axpy<double>", np.float64),
                                               ("axpy<int>", np.int32)])
def test_template_kernels_by_name_expression(rng, expression, dtype):
    mod = cp.RawModule(code=TEMPLATES, options=("-std=c++17",), name_expressions=EXPRESSIONS)
    n = 5000
    x_np = random_array(n, dtype, rng, low=-100, high=100)
    y_np = random_array(n, dtype, rng, low=-100, high=100)
    y = cp.asarray(y_np)
    a = dtype(2)  # a power of two: a * x is exact, so NVRTC's FMA contraction rounds as NumPy does
    k = mod.get_function(expression)
    k(((n + 127) // 128,), (128,), (cp.asarray(x_np), y, a, np.int32(n)))
    assert_array_equal_np(y, a * x_np + y_np)


@gpu
def test_globals_are_arrays_over_the_symbols(rng):
    mod = cp.RawModule(code=TEMPLATES)
    weights = mod.get_global("weights")
    assert weights.dtype == np.uint8 and weights.shape == (12,)
    w = np.array([0.5, -2.0, 4.0], np.float32)
    weights.view(cp.float32)[...] = cp.asarray(w)
    counts = mod.get_global("counts").view(cp.int32)
    counts[...] = cp.asarray(np.array([1, 2, 3, 4], np.int32))
    assert_array_equal_np(counts, np.array([1, 2, 3, 4], np.int32))
    n = 100
    x_np = random_array(n, np.float32, rng, low=-10, high=10)
    out = cp.empty(n, dtype=cp.float32)
    mod.get_function("weigh")((1,), (128,), (cp.asarray(x_np), out, np.int32(n)))
    i = np.arange(n)
    assert_array_equal_np(out, w[i % 3] * x_np + np.array([1, 2, 3, 4], np.float32)[i % 4])
    with pytest.raises(cp.cuda.driver.CUDADriverError):
        mod.get_global("no_such_symbol")
    with pytest.raises(cp.cuda.driver.CUDADriverError):
        mod.get_function("no_such_kernel")


@gpu
def test_dropping_the_module_after_a_held_launch(rng):
    x_np = random_array(64, np.float32, rng)
    y = cp.zeros(64, dtype=cp.float32)
    mod = cp.RawModule(code=TEMPLATES, options=("-std=c++17",), name_expressions=EXPRESSIONS)
    mod.get_function("axpy<float>")((1,), (64,), (cp.asarray(x_np), y, np.float32(2), np.int32(64)))
    del mod
    gc.collect()
    assert_array_equal_np(y, np.float32(2) * x_np)
    # A global's array keeps its module loaded after the module object is gone.
    g = cp.RawModule(code=TEMPLATES).get_global("counts")
    gc.collect()
    g[...] = cp.arange(16, dtype=cp.uint8)
    assert_array_equal_np(g, np.arange(16, dtype=np.uint8))


def _compile_file(tmp_path, flag, suffix):
    nvcc = _nvcc()
    if nvcc is None:
        pytest.skip("nvcc is not installed")
    arch = cp.cuda.Device().compute_capability  # "90", as in CuPy
    src = tmp_path / "k.cu"
    src.write_text(TEMPLATES)
    out = tmp_path / f"k.{suffix}"
    subprocess.run([nvcc, flag, f"-arch=sm_{arch}", "-o", str(out), str(src)], check=True)
    return str(out)


@gpu
@pytest.mark.parametrize("flag, suffix", [("--cubin", "cubin"), ("--ptx", "ptx"), ("--fatbin", "fatbin")])
def test_compiled_module_files(tmp_path, rng, flag, suffix):
    path = _compile_file(tmp_path, flag, suffix)
    mod = cp.RawModule(path=path)
    assert mod.file_path == path
    n = 100
    x_np = random_array(n, np.float32, rng, low=-10, high=10)
    mod.get_global("weights").view(cp.float32)[...] = cp.asarray(np.ones(3, np.float32))
    mod.get_global("counts").view(cp.int32)[...] = cp.zeros(4, dtype=cp.int32)
    out = cp.empty(n, dtype=cp.float32)
    k = mod.get_function("weigh")
    k((1,), (128,), (cp.asarray(x_np), out, np.int32(n)))
    assert_array_equal_np(out, x_np)
    # The layout is read from the file (a CUBIN's .nv.info, the CUBIN in a fatbin, PTX's .entry list).
    with pytest.raises(TypeError, match="takes 3 arguments"):
        k((1,), (128,), (out, out))
    with pytest.raises(TypeError, match="argument 2 of kernel weigh is 8 bytes"):
        k((1,), (128,), (out, out, np.int64(n)))


@gpu
def test_cu_path_launches(tmp_path, rng):
    path = tmp_path / "k.cu"
    path.write_text(TEMPLATES)
    mod = cp.RawModule(path=str(path), options=("-std=c++17",))
    x_np = random_array(10, np.float32, rng)
    mod.get_global("weights").view(cp.float32)[...] = cp.asarray(np.full(3, 2, np.float32))
    mod.get_global("counts").view(cp.int32)[...] = cp.zeros(4, dtype=cp.int32)
    out = cp.empty(10, dtype=cp.float32)
    mod.get_function("weigh")((1,), (32,), (cp.asarray(x_np), out, np.int32(10)))
    assert_array_equal_np(out, 2 * x_np)


@gpu
def test_compile_with_cache_like_older_cupy_code(rng):
    with pytest.warns(DeprecationWarning, match="compile_with_cache is deprecated"):
        module = cp.cuda.compile_with_cache(TEMPLATES, options=("-std=c++17",), arch="sm_90", cache_dir="/nonexistent")
    module.get_global("weights").view(cp.float32)[...] = cp.asarray(np.full(3, 3, np.float32))
    x_np = random_array(40, np.float32, rng)
    out = cp.empty(40, dtype=cp.float32)
    module.get_function("weigh")((2,), (32,), (cp.asarray(x_np), out, np.int32(40)))
    assert_array_equal_np(out, 3 * x_np)
    with pytest.warns(DeprecationWarning), pytest.raises(cp.cuda.compiler.CompileException):
        cp.cuda.compiler.compile_with_cache("extern \"C\" __global__ void broken() { undeclared(); }")


@gpu
def test_compile_and_kernel_attributes_per_module():
    mod = cp.RawModule(code=TEMPLATES, options=("-std=c++17",), name_expressions=EXPRESSIONS)
    mod.compile()
    f = mod.get_function("axpy<double>")
    g = mod.get_function("axpy<float>")
    f.max_dynamic_shared_size_bytes = 1024 * 64
    assert f.max_dynamic_shared_size_bytes == 1024 * 64
    assert g.max_dynamic_shared_size_bytes != 1024 * 64  # each kernel has its own attributes
