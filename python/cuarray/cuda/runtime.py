"""CUDA runtime-style queries (CuPy's cupy.cuda.runtime subset)."""
from .. import _core

CUDARuntimeError = _core.CUDARuntimeError


def getDeviceCount():
    """Number of CUDA devices; raises CUDARuntimeError when there is no usable driver or device."""
    return _core.get_device_count()


def getDevice():
    return _core.get_current_device()


def setDevice(device):
    _core.set_current_device(device)


def deviceSynchronize():
    _core.device_synchronize(_core.get_current_device())


def memGetInfo():
    """(free, total) bytes of the current device, as cudaMemGetInfo."""
    return _core.mem_get_info(_core.get_current_device())


def getDeviceProperties(device):
    return _core.device_properties(device)


def runtimeGetVersion():
    return _core.nvrtc_version()


def deviceCanAccessPeer(device, peerDevice):
    """1 when ``device`` can access ``peerDevice``'s memory directly, else 0 (0 for the same device)."""
    return int(_core.device_can_access_peer(device, peerDevice))


def deviceEnablePeerAccess(peerDevice):
    """Lets the current device access ``peerDevice``'s memory; CUDADriverError when already enabled."""
    _core.device_enable_peer_access(peerDevice)
