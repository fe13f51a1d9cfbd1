"""cuarray.cuda.Device: the current device of this thread, as a context manager."""
from .. import _core


def get_device_id():
    return _core.get_current_device()


class Device:
    """Device(i): `with Device(1): ...` makes device 1 current in the block (per thread)."""

    def __init__(self, device=None):
        self.id = _core.get_current_device() if device is None else int(device)
        self._previous = []

    def __enter__(self):
        self._previous.append(_core.get_current_device())
        _core.set_current_device(self.id)
        return self

    def __exit__(self, *exc):
        _core.set_current_device(self._previous.pop())

    def use(self):
        _core.set_current_device(self.id)

    def synchronize(self):
        _core.device_synchronize(self.id)

    @property
    def compute_capability(self):
        p = _core.device_properties(self.id)
        return f"{p['major']}{p['minor']}"

    @property
    def name(self):
        return _core.device_properties(self.id)["name"]

    @property
    def mem_info(self):
        """(free, total) bytes of this device, as CuPy's Device.mem_info."""
        return _core.mem_get_info(self.id)

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(self.id)

    def __int__(self):
        return self.id

    def __repr__(self):
        return f"<CUDA Device {self.id}>"
