"""Matrix products (issue 14), cuarray vs CuPy vs NumPy: matmul on cuBLAS for the float dtypes,
stacked and broadcast stacks (strided-batched GEMM, stride 0), and the exact int32 product (int8
tensor-core GEMMs of its base-256 digits) against CuPy's hand-written integer kernel. Each row reports TFLOP/s (TOP/s for
integers) and its share of the GPU's peak for that dtype.

NumPy is left out where it has no BLAS (float16, integers: minutes per call).
"""
from __future__ import annotations

from dataclasses import dataclass

from .op_case import Input, OpCase
from .results import Target

# Dense peaks of an H100/H200 SXM (NVIDIA's datasheets), in TFLOP/s: float64 on tensor cores,
# float32 and complex64 on the FP32 cores (TF32 is off by default), float16 on tensor cores with
# float32 accumulation, int32 on the INT32 cores (one multiply-add per lane per clock).
HOPPER_PEAK_TFLOPS = {"float64": 67.0, "float32": 67.0, "complex64": 67.0, "complex128": 67.0,
                      "float16": 989.0, "int32": 33.5}

# "at least x times CuPy's speed" as a limit on cuarray's time.
def at_least(x: float) -> Target:
    return Target(max_share_of_cupy=1.0 / x)


@dataclass(frozen=True)
class ProductCase(OpCase):
    """An OpCase whose work is counted in floating-point (or integer) operations."""

    flops: float | None = None
    peak_tflops: float | None = None


def matmul_case(name, a_shape, b_shape, dtype, target, *, libraries=("cuarray", "cupy", "numpy")):
    *batch_a, m, k = a_shape
    n = b_shape[-1]
    batch = 1
    for d in (batch_a or b_shape[:-2]):
        batch *= d
    per_multiply_add = 8 if dtype.startswith("complex") else 2
    return ProductCase(name, lambda xp, a, b: xp.matmul(a, b), (Input(a_shape, dtype), Input(b_shape, dtype, seed=1)),
                       target=target, libraries=libraries, flops=float(per_multiply_add * batch * m * n * k),
                       peak_tflops=HOPPER_PEAK_TFLOPS[dtype])


GPU_ONLY = ("cuarray", "cupy")
CASES = [
    # 4096^2 products: both are cuBLAS, so no more than 2% slower than CuPy (no overhead of ours)
    matmul_case("matmul 4096^2 f64", (4096, 4096), (4096, 4096), "float64", at_least(0.98)),
    matmul_case("matmul 4096^2 f32", (4096, 4096), (4096, 4096), "float32", at_least(0.98)),
    matmul_case("matmul 4096^2 f16", (4096, 4096), (4096, 4096), "float16", at_least(0.98), libraries=GPU_ONLY),
    matmul_case("matmul 4096^2 c128", (4096, 4096), (4096, 4096), "complex128", at_least(0.98)),
    # 10000 stacked 64x64 float32 products: one strided-batched GEMM
    matmul_case("matmul 10000x(64^2) f32", (10000, 64, 64), (10000, 64, 64), "float32", at_least(1.0)),
    # a stack against one matrix (broadcast batch): folded into one (640000 x 64) product
    matmul_case("matmul 10000x(64^2) @ 64^2 f32", (10000, 64, 64), (64, 64), "float32", at_least(1.0)),
    # exact int32 product (int8 tensor-core GEMMs of base-256 digits): at least 3x CuPy's integer kernel
    matmul_case("matmul 2048^2 i32", (2048, 2048), (2048, 2048), "int32", at_least(3.0), libraries=GPU_ONLY),
    # a stack on the digit path (one strided batch per digit GEMM); no target: reported
    matmul_case("matmul 1000x(128^2) i32", (1000, 128, 128), (1000, 128, 128), "int32", None, libraries=GPU_ONLY),
    # the digit path against the SIMT kernel at one size (n = 252 is no multiple of 4, so it takes
    # the SIMT kernel): the pair calibrates digit_path_pays's rates (digit_plan.hpp)
    matmul_case("matmul 256^3 i32 (digits)", (256, 256), (256, 256), "int32", None, libraries=GPU_ONLY),
    matmul_case("matmul 256^2x252 i32 (SIMT)", (256, 256), (256, 252), "int32", None, libraries=GPU_ONLY),
]
