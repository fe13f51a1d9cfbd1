"""einsum (issue 14): the four cases the issue names, cuarray vs CuPy vs NumPy. The batched and
3-operand contractions run as GEMMs (reported in TFLOP/s and as a share of the float32 peak), the
dot-product form reads two float32 matrices once (GB/s), the diagonal is a view in all three."""
from __future__ import annotations

from .linalg_products import HOPPER_PEAK_TFLOPS, ProductCase
from .op_case import Input, OpCase
from .results import Target

B, M = 512, 128          # bij,bjk->bik: 512 products of 128x128 float32
N = 4096                 # ij,ij->: two 4096x4096 float32 matrices
D = 8192                 # ii->i of an 8192x8192 float32 matrix
P, Q = 2048, 64          # ij,jk,kl->il with optimize=True: (P x P)(P x Q)(Q x P)

CASES = [
    ProductCase("einsum bij,bjk->bik 512x128^3 f32", lambda xp, a, b: xp.einsum("bij,bjk->bik", a, b),
                inputs=(Input((B, M, M), "float32", 1), Input((B, M, M), "float32", 2)),
                target=Target(not_slower_than_cupy=True), flops=2.0 * B * M * M * M,
                peak_tflops=HOPPER_PEAK_TFLOPS["float32"]),
    OpCase("einsum ij,ij-> 4096^2 f32", lambda xp, a, b: xp.einsum("ij,ij->", a, b),
           inputs=(Input((N, N), "float32", 3), Input((N, N), "float32", 4)), bytes_moved=2 * 4 * N * N,
           target=Target(not_slower_than_cupy=True)),
    OpCase("einsum ii->i 8192^2 f32", lambda xp, a: xp.einsum("ii->i", a),
           inputs=(Input((D, D), "float32", 5),), target=Target(not_slower_than_cupy=True)),
    # NumPy's greedy order: (ij,jk) -> ki first (2 P^2 Q flops), then (ki,kl) -> il (2 P^2 Q)
    ProductCase("einsum ij,jk,kl->il optimize=True 2048/64 f32",
                lambda xp, a, b, c: xp.einsum("ij,jk,kl->il", a, b, c, optimize=True),
                inputs=(Input((P, P), "float32", 6), Input((P, Q), "float32", 7), Input((Q, P), "float32", 8)),
                target=Target(not_slower_than_cupy=True), flops=4.0 * P * P * Q,
                peak_tflops=HOPPER_PEAK_TFLOPS["float32"]),
]
