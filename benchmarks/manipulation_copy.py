"""Layout-changing copies and numpy.pad (docs/manipulation_copy.md; CuPy 14.2 on an H200 in the comments)."""
from __future__ import annotations

from .op_case import Input, OpCase
from .results import Target

SIDE = 10**4
PAD_SIDE = 4096
PAD_WIDTH = 64


def _transpose_bytes(itemsize: int) -> int:
    return 2 * itemsize * SIDE * SIDE  # every element read once and written once


_PAD_BYTES = 4 * (PAD_SIDE * PAD_SIDE + (PAD_SIDE + 2 * PAD_WIDTH) ** 2)

CASES = [
    # ascontiguousarray(z.T), 1e4 x 1e4 float64: >= 80 % of copy bandwidth (CuPy 0.866 ms = 1.8 TB/s)
    OpCase("copy ascontiguousarray(z.T) f64", lambda xp, z: xp.ascontiguousarray(z.T), (Input((SIDE, SIDE)),),
           _transpose_bytes(8), Target(min_copy_share=0.8)),
    # The same for 4-byte and 1-byte elements, and a cast on the way (no targets: for the record).
    OpCase("copy ascontiguousarray(z.T) f32", lambda xp, z: xp.ascontiguousarray(z.T),
           (Input((SIDE, SIDE), "float32"),), _transpose_bytes(4)),
    OpCase("copy ascontiguousarray(z.T) u8", lambda xp, z: xp.ascontiguousarray(z.T),
           (Input((SIDE, SIDE), "uint8"),), _transpose_bytes(1)),
    OpCase("copy z.T.astype(f32, order=C) from f64", lambda xp, z: z.T.astype(xp.float32, order="C"),
           (Input((SIDE, SIDE)),), 12 * SIDE * SIDE),
    # pad(4096^2 float32, 64, 'reflect'): one pass, no slower than CuPy.
    OpCase("pad 4096^2 f32 reflect", lambda xp, x: xp.pad(x, PAD_WIDTH, mode="reflect"),
           (Input((PAD_SIDE, PAD_SIDE), "float32"),), _PAD_BYTES, Target(not_slower_than_cupy=True)),
    OpCase("pad 4096^2 f32 constant", lambda xp, x: xp.pad(x, PAD_WIDTH, constant_values=1.5),
           (Input((PAD_SIDE, PAD_SIDE), "float32"),), _PAD_BYTES, Target(not_slower_than_cupy=True)),
]
