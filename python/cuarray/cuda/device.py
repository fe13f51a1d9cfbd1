"""cuarray.cuda.Device: the current device of this thread, as a context manager."""
import functools

from .. import _core


def get_device_id():
    return _core.get_current_device()


def is_available():
    """Whether a CUDA driver and at least one device can be used (CuPy's cuda.is_available): never raises."""
    try:
        return _core.get_device_count() > 0
    except _core.CUDARuntimeError:
        return False


@functools.total_ordering
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
        """'90' for compute capability 9.0, as CuPy's."""
        major, minor = (_core.device_attribute(self.id, _core.device_attribute_ids[f"cudaDevAttrComputeCapability{part}"])
                        for part in ("Major", "Minor"))
        return f"{major}{minor}"

    @property
    def name(self):
        return _core.device_name(self.id).decode()

    @property
    def mem_info(self):
        """(free, total) bytes of this device, as CuPy's Device.mem_info."""
        return _core.mem_get_info(self.id)

    @property
    def pci_bus_id(self):
        """The device's PCI bus id, as ``'0000:1B:00.0'`` (CuPy's Device.pci_bus_id)."""
        return _core.device_pci_bus_id(self.id)

    @property
    def attributes(self):
        """Every cudaDeviceAttr the driver answers for this device, keyed by its name without the
        ``cudaDevAttr`` prefix (``'MultiProcessorCount'``), as CuPy's Device.attributes."""
        ids = _core.device_attribute_ids
        _core.device_attribute(self.id, ids["cudaDevAttrComputeCapabilityMajor"])  # a bad id raises here
        found = {}
        for name, attribute in ids.items():
            try:
                found[name[len("cudaDevAttr"):]] = _core.device_attribute(self.id, attribute)
            except _core.CUDARuntimeError:  # an attribute this driver predates: left out, as CuPy does
                pass
        return found

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __lt__(self, other):  # with __eq__, total_ordering gives the other comparisons
        return self.id < other.id if isinstance(other, Device) else NotImplemented

    def __hash__(self):
        return hash(self.id)

    def __int__(self):
        return self.id

    def __repr__(self):
        return f"<CUDA Device {self.id}>"
