#include "cuarray/peer_access.hpp"

#include <initializer_list>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "cuarray/errors.hpp"
#include "cuarray/runtime.hpp"
#include "runtime/context.hpp"
#include "runtime/driver.hpp"
#include "runtime/peer_path.hpp"

namespace cuarray {
namespace {

struct Ordinal {
  int id;
  const char* what;
};

// Negative ordinals are refused before the driver is opened, so that error is the same with or
// without a GPU; the upper bound needs the device count.
void check_ordinals(std::initializer_list<Ordinal> ordinals) {
  auto message = [](const Ordinal& o) { return std::string("invalid ") + o.what + " ordinal " + std::to_string(o.id); };
  for (const Ordinal& o : ordinals)
    if (o.id < 0) throw_error(ErrorKind::CudaRuntime, message(o), cudaErrorInvalidDevice);
  const int n = device_count();
  for (const Ordinal& o : ordinals)
    if (o.id >= n) throw_error(ErrorKind::CudaRuntime, message(o) + " (" + std::to_string(n) + " device(s) present)",
                                  cudaErrorInvalidDevice);
}

CUcontext primary_context(int device) {
  runtime::ScopedActivation active(device);
  CUcontext context = nullptr;
  CU_CALL(cuCtxGetCurrent, &context);
  return context;
}

}  // namespace

bool device_can_access_peer(int device, int peer) {
  check_ordinals({{device, "device"}, {peer, "peer device"}});
  if (device == peer) return false;
  CUdevice dev, peer_dev;
  CU_CALL(cuDeviceGet, &dev, device);
  CU_CALL(cuDeviceGet, &peer_dev, peer);
  int can = 0;
  CU_CALL(cuDeviceCanAccessPeer, &can, dev, peer_dev);
  return can != 0;
}

void device_enable_peer_access(int peer) {
  check_ordinals({{peer, "peer device"}});
  const int device = current_device();
  if (peer == device)
    throw_error(ErrorKind::CudaRuntime, "cannot enable peer access from device " + std::to_string(device) +
                                            " to itself (cudaErrorInvalidDevice)",
                cudaErrorInvalidDevice);
  CUcontext peer_context = primary_context(peer);
  runtime::activate(device);
  CU_CALL(cuCtxEnablePeerAccess, peer_context, 0);
}

namespace runtime {

void open_peer_path(int device, int peer) {
  static std::mutex mutex;
  static std::set<std::pair<int, int>> checked;
  std::lock_guard<std::mutex> lock(mutex);
  if (device == peer || !checked.insert({device, peer}).second) return;
  if (!device_can_access_peer(device, peer)) return;  // the driver stages such copies through the host
  CUcontext peer_context = primary_context(peer);
  ScopedActivation on(device);
  const CUresult r = driver().cuCtxEnablePeerAccess(peer_context, 0);
  if (r != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) check(r, "cuCtxEnablePeerAccess");
}

}  // namespace runtime
}  // namespace cuarray
