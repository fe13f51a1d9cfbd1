#include "cuarray/peer_access.hpp"

#include <string>

#include "cuarray/errors.hpp"
#include "cuarray/runtime.hpp"
#include "runtime/context.hpp"
#include "runtime/driver.hpp"

namespace cuarray {
namespace {

// Negative ordinals are refused before the driver is opened, so that error is the same with or
// without a GPU; the upper bound needs the device count.
void check_ordinal(int id, const char* what) {
  const std::string message = std::string("invalid ") + what + " ordinal " + std::to_string(id);
  if (id < 0) throw_error(ErrorKind::CudaRuntime, message);
  const int n = device_count();
  if (id >= n) throw_error(ErrorKind::CudaRuntime, message + " (" + std::to_string(n) + " device(s) present)");
}

CUcontext primary_context(int device) {
  runtime::ScopedActivation active(device);
  CUcontext context = nullptr;
  CU_CALL(cuCtxGetCurrent, &context);
  return context;
}

}  // namespace

bool device_can_access_peer(int device, int peer) {
  check_ordinal(device, "device");
  check_ordinal(peer, "peer device");
  if (device == peer) return false;
  CUdevice dev, peer_dev;
  CU_CALL(cuDeviceGet, &dev, device);
  CU_CALL(cuDeviceGet, &peer_dev, peer);
  int can = 0;
  CU_CALL(cuDeviceCanAccessPeer, &can, dev, peer_dev);
  return can != 0;
}

void device_enable_peer_access(int peer) {
  check_ordinal(peer, "peer device");
  const int device = current_device();
  if (peer == device)
    throw_error(ErrorKind::CudaRuntime, "cannot enable peer access from device " + std::to_string(device) +
                                            " to itself (cudaErrorInvalidDevice)");
  CUcontext peer_context = primary_context(peer);
  runtime::activate(device);
  CU_CALL(cuCtxEnablePeerAccess, peer_context, 0);
}

}  // namespace cuarray
