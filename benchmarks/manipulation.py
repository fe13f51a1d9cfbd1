"""Array manipulation: concatenate, stack, tile, repeat and roll (the manipulation issue's targets)."""
from __future__ import annotations

from .op_case import Input, OpCase
from .results import Target

N = 10**7
TEN = tuple(Input((N,), "float32", seed=i) for i in range(10))
MATRIX = (Input((4000, 2500), "float32"),)  # 1e7 elements
ROW = (Input((N,), "float32"),)
COPY_BYTES = 2 * 4 * N  # read 1e7 float32, write 1e7 float32

CASES = [
    # all inputs in one launch of the join kernel: >= 85 % of a device-to-device copy
    OpCase("concatenate 10 x 1e7 f32", lambda xp, *a: xp.concatenate(a), TEN, 10 * COPY_BYTES,
           Target(min_copy_share=0.85)),
    OpCase("concatenate axis=1 2 x (4000,2500) f32", lambda xp, a: xp.concatenate([a, a], axis=1), MATRIX,
           2 * COPY_BYTES),
    OpCase("stack 10 x 1e7 f32 axis=1", lambda xp, *a: xp.stack(a, axis=1), TEN, 10 * COPY_BYTES),
    # tile: a broadcast read, one contiguous write of 4x the input
    OpCase("tile (4000,2500) f32 (2,2)", lambda xp, a: xp.tile(a, (2, 2)), MATRIX, 4 * N + 4 * 4 * N),
    OpCase("repeat 1e7 f32 x3", lambda xp, a: xp.repeat(a, 3), ROW, 4 * N + 3 * 4 * N),
    # per-element counts (0..3): a scan, a search per output and a gather
    OpCase("repeat 1e7 f32 counts", lambda xp, a: xp.repeat(a, (a * 4).astype(xp.int64).clip(0, 3)), ROW),
    OpCase("roll 1e7 f32", lambda xp, a: xp.roll(a, 12345), ROW, COPY_BYTES),
    OpCase("roll (4000,2500) f32 both axes", lambda xp, a: xp.roll(a, (7, -11), (0, 1)), MATRIX, COPY_BYTES),
]
