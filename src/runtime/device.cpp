#include <deque>
#include <mutex>

#include "runtime/context.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/runtime.hpp"
#include "runtime/driver.hpp"
#include "runtime/streams/foreign_work.hpp"

namespace cuarray {
namespace {

struct DeviceState {
  std::once_flag init;  // after it, the state is read without locks
  CUcontext context = nullptr;
  DeviceProperties properties;
};

std::deque<DeviceState>& devices() {
  static std::deque<DeviceState>* states = [] {
    int n = 0;
    CU_CALL(cuDeviceGetCount, &n);
    if (n == 0) throw_error(ErrorKind::CudaRuntime, "no CUDA-capable device is detected", cudaErrorNoDevice);
    return new std::deque<DeviceState>(static_cast<size_t>(n));  // once_flag is immovable
  }();
  return *states;
}


DeviceState& state(int id) {
  runtime::check_device_ordinal(id);
  DeviceState& s = devices()[id];
  std::call_once(s.init, [&] {
    CUdevice dev;
    CU_CALL(cuDeviceGet, &dev, id);
    CU_CALL(cuDevicePrimaryCtxRetain, &s.context, dev);
    auto attr = [&](CUdevice_attribute a) {
      int v = 0;
      CU_CALL(cuDeviceGetAttribute, &v, a, dev);
      return v;
    };
    DeviceProperties& p = s.properties;
    p.major = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    p.minor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    p.multiprocessor_count = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    p.max_threads_per_block = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    p.l2_cache_bytes = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    p.memory_pools = attr(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED) != 0;
    p.total_memory = device_total_memory(id);
    p.name = device_name(id);
  });
  return s;
}

thread_local int t_current_device = 0;
thread_local int t_active_device = -1;

}  // namespace

namespace runtime {
void check_device_ordinal(int device) {
  const int n = static_cast<int>(devices().size());
  if (device < 0 || device >= n)
    throw_error(ErrorKind::CudaRuntime,
                "invalid device ordinal " + std::to_string(device) + " (" + std::to_string(n) + " device(s) present)",
                cudaErrorInvalidDevice);
}

void activate(int device) {
  if (t_active_device == device) return;
  CU_CALL(cuCtxSetCurrent, state(device).context);
  t_active_device = device;
}

ScopedActivation::ScopedActivation(int device) : previous_(t_active_device) { activate(device); }

ScopedActivation::~ScopedActivation() {
  if (previous_ < 0 || previous_ == t_active_device) return;
  // Destructors must not throw: on failure the next activate() sets the context again.
  if (driver().cuCtxSetCurrent(state(previous_).context) == CUDA_SUCCESS) t_active_device = previous_;
  else t_active_device = -1;
}
}  // namespace runtime

int device_count() { return static_cast<int>(devices().size()); }
int current_device() { return t_current_device; }
void set_current_device(int id) {
  runtime::check_device_ordinal(id);
  t_current_device = id;
}
void device_synchronize(int id) {
  runtime::ForeignWork work(id);
  CU_CALL(cuCtxSynchronize);
}
const DeviceProperties& device_properties(int id) { return state(id).properties; }

namespace {
CUdevice driver_device(int id) {
  runtime::check_device_ordinal(id);
  CUdevice dev;
  CU_CALL(cuDeviceGet, &dev, id);
  return dev;
}

// CuPy raises CUDARuntimeError for these (they go through the runtime API there).
void check_query(CUresult status, const std::string& what) {
  if (status != CUDA_SUCCESS)
    throw_error(ErrorKind::CudaRuntime, what + " (" + runtime::error_string(status) + ")", status);
}
}  // namespace

int device_attribute(int id, int attribute) {
  const CUdevice dev = driver_device(id);
  int value = 0;
  check_query(runtime::driver().cuDeviceGetAttribute(&value, static_cast<CUdevice_attribute>(attribute), dev),
              "cudaErrorInvalidValue: device attribute " + std::to_string(attribute) + " is not one the driver knows");
  return value;
}

std::string device_name(int id) {
  const CUdevice dev = driver_device(id);
  char name[256] = {};  // cudaDeviceProp::name's size
  CU_CALL(cuDeviceGetName, name, sizeof(name), dev);
  return name;
}

size_t device_total_memory(int id) {
  const CUdevice dev = driver_device(id);
  size_t bytes = 0;
  CU_CALL(cuDeviceTotalMem, &bytes, dev);
  return bytes;
}

std::string device_pci_bus_id(int id) {
  const CUdevice dev = driver_device(id);
  char bus_id[16] = {};  // "dddd:bb:dd.f" and its terminator: 13 characters (the driver's bound)
  CU_CALL(cuDeviceGetPCIBusId, bus_id, sizeof(bus_id), dev);
  return bus_id;
}

int device_by_pci_bus_id(const std::string& bus_id) {
  CUdevice dev;
  check_query(runtime::driver().cuDeviceGetByPCIBusId(&dev, bus_id.c_str()),
              "cudaErrorInvalidDevice: no device has the PCI bus id '" + bus_id + "'");
  // A CUdevice is the device's ordinal; checked against the ordinals cuarray knows.
  runtime::check_device_ordinal(static_cast<int>(dev));
  return static_cast<int>(dev);
}

std::string device_uuid(int id) {
  const CUdevice dev = driver_device(id);
  CUuuid uuid;
  CU_CALL(cuDeviceGetUuid, &uuid, dev);
  return std::string(uuid.bytes, sizeof(uuid.bytes));
}

int driver_version() {
  int version = 0;
  CU_CALL(cuDriverGetVersion, &version);
  return version;
}

void profiler_start() {
  runtime::ForeignWork work(current_device());  // what was launched before starts before the capture
  CU_CALL(cuProfilerStart);
}

void profiler_stop() {
  runtime::ForeignWork work(current_device());  // held launches belong inside the capture
  CU_CALL(cuProfilerStop);
}

DeviceMemoryInfo device_memory_info(int id) {
  runtime::activate(id);
  DeviceMemoryInfo info{};
  CU_CALL(cuMemGetInfo, &info.free, &info.total);
  return info;
}

}  // namespace cuarray
