"""The device and pinned memory pools (CuPy's cupy.cuda.MemoryPool interface)."""
from .. import _core

OutOfMemoryError = _core.OutOfMemoryError


class MemoryPool:
    """The caching allocator of the current device (one per device, shared by the process)."""

    def _device(self):
        return _core.get_current_device()

    def used_bytes(self):
        return _core.pool_used_bytes(self._device())

    def total_bytes(self):
        return _core.pool_total_bytes(self._device())

    def free_bytes(self):
        return _core.pool_free_bytes(self._device())

    def n_free_blocks(self):
        return _core.pool_n_free_blocks(self._device())

    def free_all_blocks(self, stream=None):
        _core.pool_free_all_blocks(self._device())

    def set_limit(self, size=None, fraction=None):
        if fraction is not None:
            total = _core.device_properties(self._device())["totalGlobalMem"]
            size = int(total * fraction)
        _core.pool_set_limit(self._device(), int(size or 0))

    def get_limit(self):
        return _core.pool_get_limit(self._device())


class PinnedMemoryPool:
    """Page-locked host buffers that stage host<->device copies."""

    def n_free_blocks(self):
        return _core.pinned_n_free_blocks()

    def total_bytes(self):
        return _core.pinned_total_bytes()

    def free_all_blocks(self):
        _core.pinned_free_all_blocks()


_default_pool = MemoryPool()
_default_pinned_pool = PinnedMemoryPool()


def get_default_memory_pool():
    return _default_pool


def get_default_pinned_memory_pool():
    return _default_pinned_pool
