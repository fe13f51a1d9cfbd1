"""DLPack round trips to PyTorch, per call: the host cost of handing an array over and back.

1,000 float32 elements, so that only the exchange counts: the capsule, the stream protocol and the
wrapping on each side. Both directions pass streams (the Array API protocol); the legacy case is
the spelling of CuPy tutorials (toDlpack / torch.utils.dlpack / fromDlpack), with no streams.
The cases are left out where PyTorch is not installed (found without importing it).
"""
from __future__ import annotations

from importlib.util import find_spec

from .harness import GPU_LIBRARIES, time_per_call
from .op_case import Input, OpCase
from .results import Target


def _torch():
    import torch  # imported on first use: most runs time other cases
    return torch


def _round_trip(xp, x):
    return xp.from_dlpack(_torch().from_dlpack(x))


def _legacy_round_trip(xp, x):
    dlpack = _torch().utils.dlpack
    return xp.fromDlpack(dlpack.to_dlpack(dlpack.from_dlpack(x.toDlpack())))


def _cuda_array_interface_round_trip(xp, x):
    return xp.asarray(_torch().as_tensor(x, device="cuda"))


CASES = [] if find_spec("torch") is None else [
    OpCase("dlpack round trip torch (1e3 f32)", _round_trip, (Input((1000,), "float32"),),
           target=Target(not_slower_than_cupy=True), timer=time_per_call(calls=2_000), libraries=GPU_LIBRARIES),
    OpCase("dlpack legacy round trip torch (1e3 f32)", _legacy_round_trip, (Input((1000,), "float32"),),
           target=Target(not_slower_than_cupy=True), timer=time_per_call(calls=2_000), libraries=GPU_LIBRARIES),
    OpCase("cuda_array_interface round trip torch (1e3 f32)", _cuda_array_interface_round_trip,
           (Input((1000,), "float32"),), timer=time_per_call(calls=2_000), libraries=GPU_LIBRARIES),
]
