// Peer access between devices (cuarray.cuda.runtime.deviceCanAccessPeer / deviceEnablePeerAccess).
//
// Once the current device has peer access to another, kernels on it may read and write the other
// device's memory directly, and cuMemcpyPeerAsync goes over NVLink/PCIe peer-to-peer instead of
// staging through the host. Access is one-way: enable it from each side for both directions.
#pragma once

namespace cuarray {

// Whether `device` can map the memory of `peer` (cuDeviceCanAccessPeer); false when they are the
// same device, as cudaDeviceCanAccessPeer reports. Throws CudaRuntime for an invalid ordinal.
bool device_can_access_peer(int device, int peer);

// Lets the calling thread's current device access `peer`'s memory (cuCtxEnablePeerAccess on the
// current device's primary context). Throws CudaRuntime for an invalid ordinal or `peer` equal to
// the current device, CudaDriver when the driver refuses (not peer-capable, already enabled).
void device_enable_peer_access(int peer);

}  // namespace cuarray
