"""runtime.getDeviceProperties: CuPy's dict, keyed by cudaDeviceProp's field names, built from the
driver's device attributes. CUDA 13 dropped some fields from cudaDeviceProp (clockRate,
memoryClockRate, computeMode, ...) that CuPy's dict has always carried; their attributes remain, so
they stay here."""
from .. import _core

# cudaDeviceProp field -> the cudaDevAttr name (without the prefix) that holds it; a field that is
# an array (maxThreadsDim, ...) lists one attribute per entry and becomes a tuple.
_FIELDS = {
    "sharedMemPerBlock": "MaxSharedMemoryPerBlock",
    "regsPerBlock": "MaxRegistersPerBlock",
    "warpSize": "WarpSize",
    "maxThreadsPerBlock": "MaxThreadsPerBlock",
    "maxThreadsDim": ("MaxBlockDimX", "MaxBlockDimY", "MaxBlockDimZ"),
    "maxGridSize": ("MaxGridDimX", "MaxGridDimY", "MaxGridDimZ"),
    "clockRate": "ClockRate",
    "totalConstMem": "TotalConstantMemory",
    "major": "ComputeCapabilityMajor",
    "minor": "ComputeCapabilityMinor",
    "textureAlignment": "TextureAlignment",
    "texturePitchAlignment": "TexturePitchAlignment",
    "multiProcessorCount": "MultiProcessorCount",
    "kernelExecTimeoutEnabled": "KernelExecTimeout",
    "integrated": "Integrated",
    "canMapHostMemory": "CanMapHostMemory",
    "computeMode": "ComputeMode",
    "maxTexture1D": "MaxTexture1DWidth",
    "maxTexture2D": ("MaxTexture2DWidth", "MaxTexture2DHeight"),
    "maxTexture3D": ("MaxTexture3DWidth", "MaxTexture3DHeight", "MaxTexture3DDepth"),
    "concurrentKernels": "ConcurrentKernels",
    "ECCEnabled": "EccEnabled",
    "pciBusID": "PciBusId",
    "pciDeviceID": "PciDeviceId",
    "pciDomainID": "PciDomainId",
    "tccDriver": "TccDriver",
    "memoryClockRate": "MemoryClockRate",
    "memoryBusWidth": "GlobalMemoryBusWidth",
    "l2CacheSize": "L2CacheSize",
    "maxThreadsPerMultiProcessor": "MaxThreadsPerMultiProcessor",
    "isMultiGpuBoard": "IsMultiGpuBoard",
    "cooperativeLaunch": "CooperativeLaunch",
    "deviceOverlap": "GpuOverlap",
    "maxTexture1DMipmap": "MaxTexture1DMipmappedWidth",
    "maxTexture1DLinear": "MaxTexture1DLinearWidth",
    "maxTexture1DLayered": ("MaxTexture1DLayeredWidth", "MaxTexture1DLayeredLayers"),
    "maxTexture2DMipmap": ("MaxTexture2DMipmappedWidth", "MaxTexture2DMipmappedHeight"),
    "maxTexture2DLinear": ("MaxTexture2DLinearWidth", "MaxTexture2DLinearHeight", "MaxTexture2DLinearPitch"),
    "maxTexture2DLayered": ("MaxTexture2DLayeredWidth", "MaxTexture2DLayeredHeight", "MaxTexture2DLayeredLayers"),
    "maxTexture2DGather": ("MaxTexture2DGatherWidth", "MaxTexture2DGatherHeight"),
    "maxTexture3DAlt": ("MaxTexture3DWidthAlt", "MaxTexture3DHeightAlt", "MaxTexture3DDepthAlt"),
    "maxTextureCubemap": "MaxTextureCubemapWidth",
    "maxTextureCubemapLayered": ("MaxTextureCubemapLayeredWidth", "MaxTextureCubemapLayeredLayers"),
    "maxSurface1D": "MaxSurface1DWidth",
    "maxSurface1DLayered": ("MaxSurface1DLayeredWidth", "MaxSurface1DLayeredLayers"),
    "maxSurface2D": ("MaxSurface2DWidth", "MaxSurface2DHeight"),
    "maxSurface2DLayered": ("MaxSurface2DLayeredWidth", "MaxSurface2DLayeredHeight", "MaxSurface2DLayeredLayers"),
    "maxSurface3D": ("MaxSurface3DWidth", "MaxSurface3DHeight", "MaxSurface3DDepth"),
    "maxSurfaceCubemap": "MaxSurfaceCubemapWidth",
    "maxSurfaceCubemapLayered": ("MaxSurfaceCubemapLayeredWidth", "MaxSurfaceCubemapLayeredLayers"),
    "surfaceAlignment": "SurfaceAlignment",
    "asyncEngineCount": "AsyncEngineCount",
    "unifiedAddressing": "UnifiedAddressing",
    "streamPrioritiesSupported": "StreamPrioritiesSupported",
    "globalL1CacheSupported": "GlobalL1CacheSupported",
    "localL1CacheSupported": "LocalL1CacheSupported",
    "sharedMemPerMultiprocessor": "MaxSharedMemoryPerMultiprocessor",
    "regsPerMultiprocessor": "MaxRegistersPerMultiprocessor",
    "managedMemory": "ManagedMemory",
    "multiGpuBoardGroupID": "MultiGpuBoardGroupID",
    "hostNativeAtomicSupported": "HostNativeAtomicSupported",
    "singleToDoublePrecisionPerfRatio": "SingleToDoublePrecisionPerfRatio",
    "pageableMemoryAccess": "PageableMemoryAccess",
    "concurrentManagedAccess": "ConcurrentManagedAccess",
    "computePreemptionSupported": "ComputePreemptionSupported",
    "canUseHostPointerForRegisteredMem": "CanUseHostPointerForRegisteredMem",
    "sharedMemPerBlockOptin": "MaxSharedMemoryPerBlockOptin",
    "pageableMemoryAccessUsesHostPageTables": "PageableMemoryAccessUsesHostPageTables",
    "directManagedMemAccessFromHost": "DirectManagedMemAccessFromHost",
    "persistingL2CacheMaxSize": "MaxPersistingL2CacheSize",
    "maxBlocksPerMultiProcessor": "MaxBlocksPerMultiprocessor",
    "accessPolicyMaxWindowSize": "MaxAccessPolicyWindowSize",
    "reservedSharedMemPerBlock": "ReservedSharedMemoryPerBlock",
    # cudaDeviceProp's fields from CUDA 11.1 to 13
    "memPitch": "MaxPitch",
    "hostRegisterSupported": "HostRegisterSupported",
    "sparseCudaArraySupported": "SparseCudaArraySupported",
    "hostRegisterReadOnlySupported": "HostRegisterReadOnlySupported",
    "timelineSemaphoreInteropSupported": "TimelineSemaphoreInteropSupported",
    "memoryPoolsSupported": "MemoryPoolsSupported",
    "gpuDirectRDMASupported": "GPUDirectRDMASupported",
    "gpuDirectRDMAFlushWritesOptions": "GPUDirectRDMAFlushWritesOptions",
    "gpuDirectRDMAWritesOrdering": "GPUDirectRDMAWritesOrdering",
    "memoryPoolSupportedHandleTypes": "MemoryPoolSupportedHandleTypes",
    "deferredMappingCudaArraySupported": "DeferredMappingCudaArraySupported",
    "ipcEventSupported": "IpcEventSupport",
    "clusterLaunch": "ClusterLaunch",
    "deviceNumaConfig": "NumaConfig",
    "deviceNumaId": "NumaId",
    "mpsEnabled": "MpsEnabled",
    "hostNumaId": "HostNumaId",
    "gpuPciDeviceID": "GpuPciDeviceId",
    "gpuPciSubsystemID": "GpuPciSubsystemId",
    "hostNumaMultinodeIpcSupported": "HostNumaMultinodeIpcSupported",
}

# The same table with the attributes' numbers, resolved once: a name the toolkit lacks fails here,
# at import, on any machine.
_FIELD_IDS = {
    field: (tuple(_core.device_attribute_ids["cudaDevAttr" + n] for n in names) if isinstance(names, tuple)
            else _core.device_attribute_ids["cudaDevAttr" + names])
    for field, names in _FIELDS.items()
}


def device_properties(device):
    """CuPy's getDeviceProperties(device): cudaDeviceProp's fields by name; ``name`` and ``uuid``
    are bytes, as there."""
    device = int(device)
    attribute = _core.device_attribute
    # A bad device id raises here; an attribute a driver older than the toolkit does not know later
    # only leaves its field out.
    properties = {"name": _core.device_name(device), "totalGlobalMem": _core.device_total_memory(device)}
    for field, ids in _FIELD_IDS.items():
        try:
            properties[field] = (tuple(attribute(device, i) for i in ids) if isinstance(ids, tuple)
                                 else attribute(device, ids))
        except _core.CUDARuntimeError:
            pass
    properties["uuid"] = _core.device_uuid(device)
    properties["luid"] = b""  # Windows only (WDDM): empty elsewhere, as CuPy's char[8] reads
    properties["luidDeviceNodeMask"] = 0
    # CUDA 13 removed multi-device cooperative launch (field and attribute); CuPy's dict keeps the
    # key as False.
    properties["cooperativeMultiDeviceLaunch"] = False
    return properties
