"""show_config: the versions and devices cuarray runs with, as CuPy's cupy.show_config prints them
(a name, a colon, the value), for bug reports. Never raises: what cannot be read says why."""
import platform
import sys

import numpy as _np

from . import _core

__all__ = ["show_config"]


def _rows():
    from . import __version__, cuda
    rows = [("OS", platform.platform()), ("Python Version", platform.python_version()),
            ("cuarray Version", __version__), ("NumPy Version", _np.__version__)]
    try:
        rows.append(("CUDA Toolkit Version (NVRTC)", cuda.runtime.runtimeGetVersion()))
    except Exception as exc:  # noqa: BLE001 - a report, not a failure
        rows.append(("CUDA Toolkit Version (NVRTC)", f"unavailable ({exc})"))
    try:
        rows.append(("CUDA Driver Version", cuda.runtime.driverGetVersion()))
        count = cuda.runtime.getDeviceCount()
    except cuda.runtime.CUDARuntimeError as exc:
        rows.append(("CUDA Driver Version", f"unavailable ({exc})"))
        count = 0
    rows.append(("Device Count", count))
    for d in range(count):
        device = cuda.Device(d)
        rows += [(f"Device {d} Name", device.name), (f"Device {d} Compute Capability", device.compute_capability),
                 (f"Device {d} PCI Bus ID", device.pci_bus_id),
                 (f"Device {d} Memory", f"{_core.device_total_memory(d)} bytes")]
    return rows


def show_config():
    """Prints one line per item: OS, versions (cuarray, NumPy, CUDA toolkit and driver) and devices."""
    rows = _rows()
    width = max(len(name) for name, _ in rows)
    sys.stdout.write("".join(f"{name:<{width}} : {value}\n" for name, value in rows))
