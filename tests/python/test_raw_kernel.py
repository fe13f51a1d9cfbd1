"""cuarray.RawKernel against CuPy's semantics: constructor checks and NVRTC compiles on the host;
launches, CuPy's argument conversions, attributes, streams and cooperative launches on a GPU."""
import functools
import os
import shutil
import types

import numpy as np

import pytest
from hypothesis import given, strategies as st

import cuarray as cp

from helpers import assert_array_equal_np, random_array, run_python

gpu = pytest.mark.gpu

SCALE = r'''
extern "C" __global__ void scale(const float* x, float* y, int n, float a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i];
}
'''

# One kernel per C type: writes its by-value parameter into out[0], so the bytes the kernel received
# come back exactly (the host side is NumPy's value of the same type).
C_TYPES = {
    np.bool_: "bool", np.int8: "signed char", np.uint8: "unsigned char", np.int16: "short",
    np.uint16: "unsigned short", np.int32: "int", np.uint32: "unsigned int", np.int64: "long long",
    np.uint64: "unsigned long long", np.float32: "float", np.float64: "double",
    np.float16: "unsigned short",  # a half's bits: no header needed
    np.complex64: "float2", np.complex128: "double2",
}


def _echo_source(ctype):
    return f'extern "C" __global__ void echo({ctype}* out, {ctype} v) {{ out[0] = v; }}\n'


# ---- host ----------------------------------------------------------------------------------------

def test_bad_backend_and_jitify_are_refused_before_any_compile():
    with pytest.raises(ValueError, match="Invalid backend nvxx"):
        cp.RawKernel(SCALE, "scale", backend="nvxx")
    with pytest.raises(NotImplementedError, match="jitify"):
        cp.RawKernel(SCALE, "scale", jitify=True)


def test_construction_is_lazy_and_keeps_cupys_attributes():
    k = cp.RawKernel("this does not compile", "scale", options=("-DX=1",))
    assert (k.code, k.name, k.options, k.backend) == ("this does not compile", "scale", ("-DX=1",), "nvrtc")
    assert k.enable_cooperative_groups is False and k.file_path is None and k.name_expressions is None


def test_compile_error_carries_the_log_and_the_source():
    source = 'extern "C" __global__ void broken(float* x) { x[0] = undefined_identifier_xyz; }\n'
    k = cp.RawKernel(source, "broken")
    with pytest.raises(cp.cuda.compiler.CompileException) as info:
        k._raw_module._module.compile_for("sm_90")  # NVRTC needs no GPU
    assert "undefined_identifier_xyz" in str(info.value)
    assert info.value.source == source
    assert "in the source of RawModule" in str(info.value) and "void broken" in str(info.value)  # numbered


def test_user_options_reach_nvrtc(tmp_path, monkeypatch):
    monkeypatch.setenv("CUARRAY_CACHE_DIR", str(tmp_path))
    source = 'extern "C" __global__ void k(float* x) { x[0] = VALUE; }\n'
    with pytest.raises(cp.cuda.compiler.CompileException):
        cp.RawKernel(source, "k")._raw_module._module.compile_for("sm_90")
    cp.RawKernel(source, "k", options=("-DVALUE=2.0f",))._raw_module._module.compile_for("sm_90")
    assert len([f for f in os.listdir(tmp_path) if os.path.isfile(tmp_path / f)]) == 1


@pytest.mark.skipif(shutil.which("nvcc") is None and not os.path.exists("/usr/local/cuda/bin/nvcc"),
                    reason="nvcc is not installed")
def test_nvcc_backend_compiles_on_the_host(tmp_path, monkeypatch):
    monkeypatch.setenv("CUARRAY_CACHE_DIR", str(tmp_path))
    cp.RawKernel(SCALE, "scale", backend="nvcc")._raw_module._module.compile_for("sm_90")
    with pytest.raises(cp.cuda.compiler.CompileException):
        cp.RawKernel("not CUDA at all", "k", backend="nvcc")._raw_module._module.compile_for("sm_90")


# ---- GPU -----------------------------------------------------------------------------------------

@gpu
def test_seed_raw_kernel_matmul():
    from seed_examples import ex_raw_kernel_matmul
    ex_raw_kernel_matmul()


@gpu
@pytest.mark.parametrize("n", [1, 1000, 1 << 20])
def test_scale_against_numpy(rng, n):
    x_np = random_array(n, np.float32, rng)
    x = cp.asarray(x_np)
    y = cp.empty_like(x)
    k = cp.RawKernel(SCALE, "scale")
    k(((n + 255) // 256,), (256,), (x, y, np.int32(n), np.float32(1.5)))
    assert_array_equal_np(y, np.float32(1.5) * x_np)
    # A Python int for the int parameter, as CuPy passes it (int64, low bytes read): same result.
    y2 = cp.zeros_like(x)
    k((n + 255) // 256, 256, (x, y2, n, np.float32(1.5)))
    assert_array_equal_np(y2, np.float32(1.5) * x_np)


@gpu
@pytest.mark.parametrize("dtype", list(C_TYPES), ids=lambda t: np.dtype(t).name)
def test_numpy_scalars_pass_by_value(rng, dtype):
    value = random_array(3, dtype, rng)[1]
    out = cp.zeros(1, dtype=dtype)
    k = cp.RawKernel(_echo_source(C_TYPES[dtype]), "echo")
    k((1,), (1,), (out, value))
    assert_array_equal_np(out, np.array([value], dtype=dtype))
    # A NumPy array of one element passes its value too.
    out2 = cp.zeros(1, dtype=dtype)
    k((1,), (1,), (out2, np.array([value], dtype=dtype)))
    assert_array_equal_np(out2, np.array([value], dtype=dtype))


@gpu
@pytest.mark.parametrize("value, ctype, expected", [
    (7, "long long", np.int64(7)), (-3, "int", np.int32(-3)), (200, "unsigned char", np.uint8(200)),
    (True, "long long", np.int64(1)), (2.5, "double", np.float64(2.5)),
    (1.5 - 2j, "double2", np.complex128(1.5 - 2j)),
])
def test_python_scalars_convert_as_in_cupy(value, ctype, expected):
    out = cp.zeros(1, dtype=expected.dtype)
    cp.RawKernel(_echo_source(ctype), "echo")((1,), (1,), (out, value))
    assert_array_equal_np(out, np.array([expected]))


@gpu
def test_argument_errors():
    x = cp.zeros(10, dtype=cp.float32)
    k = cp.RawKernel(SCALE, "scale")
    with pytest.raises(TypeError, match=r"kernel scale takes 4 arguments \(3 given\)"):
        k((1,), (32,), (x, x, 10))
    with pytest.raises(TypeError, match="argument 3 of kernel scale is 8 bytes"):
        k((1,), (32,), (x, x, 10, 2.0))  # a Python float is a double, the parameter a float
    with pytest.raises(OverflowError):
        k((1,), (32,), (x, x, 1 << 40, np.float32(2)))
    with pytest.raises(OverflowError):
        k((1,), (32,), (x, x, 1 << 70, np.float32(2)))
    with pytest.raises(TypeError, match="Unsupported type"):
        k((1,), (32,), (x, x, "10", np.float32(2)))
    with pytest.raises(TypeError, match="numpy.ndarray of shape"):
        k((1,), (32,), (np.zeros(10, np.float32), x, 10, np.float32(2)))
    with pytest.raises(ValueError, match="1 to 3 dimensions"):
        k((1, 1, 1, 1), (32,), (x, x, 10, np.float32(2)))


@gpu
def test_pointers_from_views_none_and_cuda_array_interface(rng):
    x_np = random_array(64, np.float32, rng)
    x = cp.asarray(x_np)
    y = cp.zeros(64, dtype=cp.float32)

    class Foreign:  # another library's array, seen only through its interface
        def __init__(self, a):
            self.__cuda_array_interface__ = a.__cuda_array_interface__

    k = cp.RawKernel(SCALE, "scale")
    k((1,), (64,), (Foreign(x), y, 64, np.float32(2)))
    assert_array_equal_np(y, 2 * x_np)
    # A view passes the address of its first element, as in CuPy.
    z = cp.zeros(32, dtype=cp.float32)
    k((1,), (32,), (x[32:], z, 32, np.float32(1)))
    assert_array_equal_np(z, x_np[32:])
    k((1,), (32,), (x.data, z, 32, np.float32(3)))  # a MemoryPointer
    assert_array_equal_np(z, 3 * x_np[:32])
    nullable = cp.RawKernel(r'''
    extern "C" __global__ void maybe(const float* x, float* y) { y[threadIdx.x] = x ? x[threadIdx.x] : -1.0f; }
    ''', "maybe")
    nullable((1,), (32,), (None, z))
    assert_array_equal_np(z, np.full(32, -1, np.float32))


@gpu
def test_grid_and_block_shapes(rng):
    src = r'''
    extern "C" __global__ void ids(int* out, int nx, int ny) {
        int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
        int z = blockIdx.z * blockDim.z + threadIdx.z;
        if (x < nx && y < ny) out[(z * ny + y) * nx + x] = (z * ny + y) * nx + x;
    }'''
    k = cp.RawKernel(src, "ids")
    for grid, block, nz in [(4, 16, 1), ((2, 3), (8, 4), 1), ((2, 3, 2), (8, 4, 1), 2)]:
        g = grid if isinstance(grid, tuple) else (grid,)
        b = block if isinstance(block, tuple) else (block,)
        nx, ny = g[0] * b[0], (g[1] * b[1]) if len(g) > 1 else 1
        out = cp.full(nx * ny * nz, -1, dtype=cp.int32)
        k(grid, block, (out, np.int32(nx), np.int32(ny)))
        assert_array_equal_np(out, np.arange(nx * ny * nz, dtype=np.int32))


@gpu
def test_dynamic_shared_memory_and_attributes(rng):
    src = r'''
    extern "C" __global__ void reverse(const float* x, float* y, int n) {
        extern __shared__ float tile[];
        tile[threadIdx.x] = x[threadIdx.x];
        __syncthreads();
        y[threadIdx.x] = tile[n - 1 - threadIdx.x];
    }'''
    k = cp.RawKernel(src, "reverse")
    x_np = random_array(256, np.float32, rng)
    y = cp.empty(256, dtype=cp.float32)
    k((1,), (256,), (cp.asarray(x_np), y, np.int32(256)), shared_mem=256 * 4)
    assert_array_equal_np(y, x_np[::-1])
    attrs = k.attributes
    for name in ("max_threads_per_block", "shared_size_bytes", "const_size_bytes", "local_size_bytes", "num_regs",
                 "ptx_version", "binary_version", "cache_mode_ca", "max_dynamic_shared_size_bytes",
                 "preferred_shared_memory_carveout"):
        assert isinstance(attrs[name], int), name
        assert getattr(k, name) == attrs[name], name
    assert k.max_threads_per_block >= 256 and k.num_regs > 0
    k.max_dynamic_shared_size_bytes = 96 * 1024
    assert k.max_dynamic_shared_size_bytes == 96 * 1024
    k.preferred_shared_memory_carveout = 100
    assert k.preferred_shared_memory_carveout == 100
    # More than 48 KB of dynamic shared memory, allowed by the attribute just set.
    big = cp.RawKernel(r'''
    extern "C" __global__ void big(float* y) {
        extern __shared__ float s[];
        s[threadIdx.x * 128] = threadIdx.x; __syncthreads(); y[threadIdx.x] = s[threadIdx.x * 128];
    }''', "big")
    big.max_dynamic_shared_size_bytes = 64 * 1024
    out = cp.zeros(128, dtype=cp.float32)
    big((1,), (128,), (out,), shared_mem=128 * 128 * 4)  # 64 KB
    assert_array_equal_np(out, np.arange(128, dtype=np.float32))


@gpu
def test_stream_argument(rng):
    x_np = random_array(1 << 16, np.float32, rng)
    x = cp.asarray(x_np)
    y = cp.empty_like(x)
    s = cp.cuda.Stream(non_blocking=True)
    cp.cuda.get_current_stream().synchronize()
    cp.RawKernel(SCALE, "scale")((256,), (256,), (x, y, x.size, np.float32(-1)), stream=s)
    s.synchronize()
    assert_array_equal_np(y, -x_np)


@gpu
def test_compile_error_on_first_call():
    k = cp.RawKernel('extern "C" __global__ void broken(float* x) { x[0] = nope; }', "broken")
    with pytest.raises(cp.cuda.compiler.CompileException, match="nope"):
        k((1,), (1,), (cp.zeros(1, dtype=cp.float32),))
    with pytest.raises(cp.cuda.driver.CUDADriverError):
        cp.RawKernel(SCALE, "no_such_kernel").compile()


@gpu
def test_cooperative_groups_grid_sync(rng):
    src = r'''
    #include <cooperative_groups.h>
    namespace cg = cooperative_groups;
    extern "C" __global__ void total(const float* x, float* partial, float* out, int n) {
        cg::grid_group grid = cg::this_grid();
        float s = 0;
        for (int i = grid.thread_rank(); i < n; i += grid.size()) s += x[i];
        atomicAdd(&partial[blockIdx.x], s);
        grid.sync();
        if (grid.thread_rank() == 0) { float t = 0; for (int b = 0; b < gridDim.x; ++b) t += partial[b]; *out = t; }
    }'''
    k = cp.RawKernel(src, "total", enable_cooperative_groups=True)
    x_np = rng.integers(0, 8, 10000).astype(np.float32)  # exact sums in any order
    partial = cp.zeros(16, dtype=cp.float32)
    out = cp.zeros(1, dtype=cp.float32)
    k((16,), (128,), (cp.asarray(x_np), partial, out, np.int32(x_np.size)))
    assert float(out[0]) == float(x_np.sum())


@gpu
@pytest.mark.skipif(shutil.which("nvcc") is None and not os.path.exists("/usr/local/cuda/bin/nvcc"),
                    reason="nvcc is not installed")
def test_nvcc_backend_launches(rng):
    x_np = random_array(300, np.float32, rng)
    y = cp.empty(300, dtype=cp.float32)
    cp.RawKernel(SCALE, "scale", backend="nvcc")((2,), (256,), (cp.asarray(x_np), y, 300, np.float32(0.5)))
    assert_array_equal_np(y, np.float32(0.5) * x_np)


@gpu
def test_warm_disk_cache_in_a_new_process(tmp_path):
    code = f"""
import numpy as np, cuarray as cp
k = cp.RawKernel({SCALE!r}, "scale")
x = cp.arange(10, dtype=cp.float32); y = cp.empty_like(x)
k((1,), (32,), (x, y, 10, np.float32(2)))
assert cp.asnumpy(y).tolist() == [2.0 * i for i in range(10)]
print("ok")
"""
    assert run_python(code, CUARRAY_CACHE_DIR=str(tmp_path)).strip() == "ok"
    files = sorted(f for f in os.listdir(tmp_path) if os.path.isfile(tmp_path / f))
    assert files
    assert run_python(code, CUARRAY_CACHE_DIR=str(tmp_path)).strip() == "ok"
    after = sorted(f for f in os.listdir(tmp_path) if os.path.isfile(tmp_path / f))
    assert after == files  # the user program was found, not compiled again


# ---- argument conversion on the host (the bytes a launch would pass, with its checks) ------------

ALL_TYPES = r'''
struct Pair { double a; int b; };
extern "C" __global__ void every(bool b, signed char i8, unsigned char u8, short i16, unsigned short u16, int i32,
                                 unsigned int u32, long long i64, unsigned long long u64, float f32, double f64,
                                 unsigned short f16, float2 c64, double2 c128, const float* p, Pair s) {}
'''


def _parameters(source, kernel, args):
    image = cp.cuda.compiler.compile_to_cubin(source, kernel, "sm_90")
    return cp._core._raw_kernel_parameters(image, kernel, tuple(args))


def test_numpy_scalars_and_one_element_arrays_pass_their_bytes(rng):
    values = [random_array(3, t, rng)[1] for t in C_TYPES]
    pair_type = np.dtype({"names": ["a", "b"], "formats": ["<f8", "<i4"], "offsets": [0, 8], "itemsize": 16})
    pairs = np.zeros(1, dtype=pair_type)  # zeroed padding: the bytes compare equal
    pairs["a"], pairs["b"] = 1.5, -7
    pair = pairs[0]  # a struct passes as a NumPy structured scalar
    got = _parameters(ALL_TYPES, "every", values + [None, pair])
    assert got[:len(values)] == [v.tobytes() for v in values]
    assert got[len(values)] == bytes(8)  # None: a null pointer
    assert got[-1] == pair.tobytes()
    as_arrays = _parameters(ALL_TYPES, "every", [np.array([v]) for v in values] + [None, pairs])
    assert as_arrays == got


def test_python_scalars_convert_as_cupy_converts_them():
    src = r'''extern "C" __global__ void k(long long a, long long b, double c, double2 d, int e, unsigned char f) {}'''
    got = _parameters(src, "k", [-5, True, 2.5, 1.5 - 2j, 123456, 255])
    assert got == [np.int64(-5).tobytes(), np.int64(1).tobytes(), np.float64(2.5).tobytes(),
                   np.complex128(1.5 - 2j).tobytes(), np.int32(123456).tobytes(), np.uint8(255).tobytes()]


def test_pointers_from_memory_pointers_and_cuda_array_interface():
    from cuarray._array.ndarray_methods import MemoryPointer

    class Foreign:
        __cuda_array_interface__ = {"shape": (4,), "typestr": "<f4", "data": (0xABCDEF00, False), "version": 3}

    src = r'''extern "C" __global__ void k(float* a, const float* b, float* c) {}'''
    memory = types.SimpleNamespace(ptr=0x0F00)  # a memory object as MemoryPointer(mem, offset) reads it
    got = _parameters(src, "k", [MemoryPointer(memory, 0x100), Foreign(), None])
    assert got == [(0x1000).to_bytes(8, "little"), (0xABCDEF00).to_bytes(8, "little"), bytes(8)]


def test_argument_errors_on_the_host():
    with pytest.raises(TypeError, match=r"kernel scale takes 4 arguments \(3 given\)"):
        _parameters(SCALE, "scale", [None, None, 3])
    with pytest.raises(TypeError, match="argument 3 of kernel scale is 8 bytes \\(a value\\) but the kernel's "
                                        "parameter 3 is 4 bytes"):
        _parameters(SCALE, "scale", [None, None, 3, 2.5])
    with pytest.raises(TypeError, match="argument 2 of kernel scale is 8 bytes \\(a device pointer\\)"):
        _parameters(SCALE, "scale", [None, None, None, np.float32(1)])
    with pytest.raises(TypeError, match="argument 2 of kernel scale is 2 bytes"):
        _parameters(SCALE, "scale", [None, None, np.int16(3), np.float32(1)])
    with pytest.raises(OverflowError, match="does not fit its 4-byte parameter"):
        _parameters(SCALE, "scale", [None, None, 1 << 32, np.float32(1)])
    with pytest.raises(OverflowError, match="does not fit"):
        _parameters(SCALE, "scale", [None, None, -(1 << 31) - 1, np.float32(1)])
    with pytest.raises(OverflowError):
        _parameters(SCALE, "scale", [None, None, 1 << 64, np.float32(1)])
    with pytest.raises(TypeError, match="Unsupported type <class 'str'>"):
        _parameters(SCALE, "scale", [None, None, "3", np.float32(1)])
    with pytest.raises(TypeError, match=r"numpy.ndarray of shape \(2,\)"):
        _parameters(SCALE, "scale", [np.zeros(2, np.float32), None, 3, np.float32(1)])
    with pytest.raises(TypeError, match="kernel arguments must be a tuple"):
        cp._core._raw_kernel_parameters(cp.cuda.compiler.compile_to_cubin(SCALE, "scale", "sm_90"), "scale", 3)
    # Python ints narrow into any integer parameter they fit, signed or unsigned, as CuPy's int64 reads.
    assert _parameters(SCALE, "scale", [None, None, -(1 << 31), np.float32(1)])[2] == np.int32(-(1 << 31)).tobytes()
    assert _parameters(SCALE, "scale", [None, None, (1 << 32) - 1, np.float32(1)])[2] == b"\xff\xff\xff\xff"


INT_PARAMS = r'''
extern "C" __global__ void widths(signed char a, short b, int c, long long d) {}
'''


@given(st.integers(min_value=-(1 << 63), max_value=(1 << 63) - 1), st.sampled_from([0, 1, 2, 3]))
def test_python_int_narrowing_property(value, which):
    # A Python int is CuPy's int64; into a parameter of n bytes it goes as its low n bytes exactly
    # when the value survives that (as a signed or an unsigned n-byte integer), else OverflowError.
    width = (1, 2, 4, 8)[which]
    args = [np.int8(0), np.int16(0), np.int32(0), np.int64(0)]
    args[which] = value
    image = _widths_image()
    low, high = -(1 << (8 * width - 1)), (1 << (8 * width)) - 1
    if low <= value <= high:
        got = cp._core._raw_kernel_parameters(image, "widths", tuple(args))[which]
        assert got == (value & ((1 << (8 * width)) - 1)).to_bytes(width, "little")
    else:
        with pytest.raises(OverflowError):
            cp._core._raw_kernel_parameters(image, "widths", tuple(args))


@functools.lru_cache(maxsize=None)
def _widths_image():
    return cp.cuda.compiler.compile_to_cubin(INT_PARAMS, "widths", "sm_90")


@gpu
def test_the_same_code_shares_its_loaded_module():
    # Built again (as CuPy code does inside functions called in a loop), a kernel finds the module
    # already loaded: the function is the same, so its attributes are too.
    a = cp.RawKernel(SCALE, "scale")
    b = cp.RawKernel(SCALE, "scale")
    a.max_dynamic_shared_size_bytes = 80 * 1024
    assert b.max_dynamic_shared_size_bytes == 80 * 1024
    c = cp.RawKernel(SCALE, "scale", options=("-DOTHER",))  # other options: another module
    assert c.max_dynamic_shared_size_bytes != 80 * 1024


def test_compile_exception_dump_numbers_the_source():
    import io
    source = "\n".join(["// line"] * 9 + ['extern "C" __global__ void broken() { nope; }'])
    with pytest.raises(cp.cuda.compiler.CompileException) as info:
        cp.RawKernel(source, "broken")._raw_module._module.compile_for("sm_90")
    report = io.StringIO()
    info.value.dump(report)
    text = report.getvalue()
    assert "nope" in text
    assert "01 // line\n" in text and '10 extern "C" __global__ void broken() { nope; }\n' in text


@gpu
def test_strided_and_negative_stride_views_pass_their_first_element(rng):
    # As in CuPy, a view is its data pointer: the kernel walks it with the view's own strides.
    src = r'''
    extern "C" __global__ void walk(const float* first, float* y, long long step, int n) {
        int i = threadIdx.x;
        if (i < n) y[i] = first[i * step];
    }'''
    k = cp.RawKernel(src, "walk")
    x_np = random_array(64, np.float32, rng)
    x = cp.asarray(x_np)
    for view, step in [(x[::2], 2), (x[::-1], -1), (x[40:3:-3], -3)]:
        expected = x_np[{2: slice(None, None, 2), -1: slice(None, None, -1), -3: slice(40, 3, -3)}[step]]
        y = cp.zeros(expected.size, dtype=cp.float32)
        k((1,), (64,), (view, y, step, expected.size))
        assert_array_equal_np(y, expected)
