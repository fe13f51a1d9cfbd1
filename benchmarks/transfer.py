"""Host<->device copies of a 200 MB pageable NumPy float64 array, as a user makes them."""
from __future__ import annotations

from .harness import GPU_LIBRARIES, time_wall
from .op_case import Input, OpCase
from .results import Target

BYTES = 200 * 10**6
ARRAY = (BYTES // 8,)

# Wall time, because a pageable copy is staged by the host; the device->host time includes
# allocating the NumPy result, which is part of what the user waits for.
CASES = [
    OpCase("transfer host->device 200MB", lambda xp, host: xp.asarray(host),
           (Input(ARRAY, on_host=True),), BYTES, Target(min_gbps=20), time_wall, GPU_LIBRARIES,
           in_device_memory=False),
    OpCase("transfer device->host 200MB", lambda xp, x: xp.asnumpy(x),
           (Input(ARRAY),), BYTES, Target(min_gbps=10), time_wall, GPU_LIBRARIES,
           in_device_memory=False),
]
