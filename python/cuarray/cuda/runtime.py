"""CuPy's cupy.cuda.runtime: device queries here; raw memory calls (_runtime_memory.py) and raw
stream and event calls (_runtime_streams.py) on integer pointers and handles, for programs that use
the runtime directly."""
from .. import _core
from ._device_properties import device_properties as _device_properties
from ._runtime_memory import (cudaMemAttachGlobal, cudaMemAttachHost, free, malloc, mallocManaged,  # noqa: F401
                              memcpy, memcpyAsync, memcpyDefault, memcpyDeviceToDevice, memcpyDeviceToHost,
                              memcpyHostToDevice, memcpyHostToHost, memcpyPeer, memcpyPeerAsync, memset,
                              memsetAsync, mallocAsync, mallocFromPoolAsync, freeAsync, deviceGetDefaultMemPool,
                              deviceGetMemPool, deviceSetMemPool, memPoolTrimTo, memPoolGetAttribute,
                              memPoolSetAttribute, cudaMemPoolReuseFollowEventDependencies,
                              cudaMemPoolReuseAllowOpportunistic, cudaMemPoolReuseAllowInternalDependencies,
                              cudaMemPoolAttrReleaseThreshold, cudaMemPoolAttrReservedMemCurrent,
                              cudaMemPoolAttrReservedMemHigh, cudaMemPoolAttrUsedMemCurrent,
                              cudaMemPoolAttrUsedMemHigh)
from ._runtime_streams import (eventBlockingSync, eventCreate,  # noqa: F401
                               eventCreateWithFlags, eventDefault, eventDestroy, eventDisableTiming,
                               eventElapsedTime, eventInterprocess, eventQuery, eventRecord, eventSynchronize,
                               streamCreate, streamCreateWithFlags, streamCreateWithPriority, streamDefault,
                               streamDestroy, streamNonBlocking, streamQuery, streamSynchronize, streamWaitEvent,
                               streamBeginCapture, streamIsCapturing, streamCaptureModeGlobal,
                               streamCaptureModeThreadLocal, streamCaptureModeRelaxed, streamCaptureStatusNone,
                               streamCaptureStatusActive, streamCaptureStatusInvalidated)

CUDARuntimeError = _core.CUDARuntimeError

# cudaError's enumerators (cudaSuccess, cudaErrorMemoryAllocation, ...), and CuPy's older aliases.
globals().update(_core.runtime_error_ids)
errorInvalidValue = _core.runtime_error_ids["cudaErrorInvalidValue"]
errorMemoryAllocation = _core.runtime_error_ids["cudaErrorMemoryAllocation"]
errorPeerAccessAlreadyEnabled = _core.runtime_error_ids["cudaErrorPeerAccessAlreadyEnabled"]
errorContextIsDestroyed = _core.runtime_error_ids["cudaErrorContextIsDestroyed"]
errorInvalidResourceHandle = _core.runtime_error_ids["cudaErrorInvalidResourceHandle"]

is_hip = False  # CuPy's flag for a ROCm build; cuarray runs on CUDA only

# cudaDeviceAttr's enumerators (cudaDevAttrMultiProcessorCount, ...), for deviceGetAttribute.
globals().update(_core.device_attribute_ids)
deviceAttributeComputeCapabilityMajor = _core.device_attribute_ids["cudaDevAttrComputeCapabilityMajor"]
deviceAttributeComputeCapabilityMinor = _core.device_attribute_ids["cudaDevAttrComputeCapabilityMinor"]


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
    """cudaDeviceProp's fields by name, as CuPy's dict (``name`` is bytes)."""
    return _device_properties(device)


def deviceGetAttribute(attrib, device):
    """One cudaDeviceAttr of ``device`` (``cudaDevAttrMultiProcessorCount``, ...)."""
    return _core.device_attribute(device, attrib)


def deviceGetPCIBusId(device):
    """The device's PCI bus id, as ``'0000:1B:00.0'``."""
    return _core.device_pci_bus_id(device)


def deviceGetByPCIBusId(pci_bus_id):
    """The ordinal of the device at ``pci_bus_id``; CUDARuntimeError when none is there."""
    return _core.device_by_pci_bus_id(pci_bus_id)


def driverGetVersion():
    """The CUDA version the driver supports, as 1000 * major + 10 * minor (13000 for 13.0)."""
    return _core.driver_version()


def runtimeGetVersion():
    """The CUDA version of the toolkit libraries cuarray runs with (13000 for 13.0). cuarray loads
    no CUDA runtime library; NVRTC's version is the toolkit's."""
    return _core.nvrtc_version()


def deviceCanAccessPeer(device, peerDevice):
    """1 when ``device`` can access ``peerDevice``'s memory directly, else 0 (0 for the same device)."""
    return int(_core.device_can_access_peer(device, peerDevice))


def deviceEnablePeerAccess(peerDevice):
    """Lets the current device access ``peerDevice``'s memory; CUDADriverError when already enabled."""
    _core.device_enable_peer_access(peerDevice)
