#include "runtime/driver.hpp"

#include <dlfcn.h>

#include <atomic>
#include <mutex>

#include "cuarray/errors.hpp"

namespace cuarray::runtime {
namespace {

std::atomic<bool> g_loaded{false};

DriverApi load() {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    throw_error(ErrorKind::CudaRuntime, std::string("no usable CUDA driver: cannot load libcuda.so.1 (") +
                                            dlerror() + "); cuarray needs an NVIDIA GPU and its driver",
                cudaErrorInsufficientDriver);
  using GetProc = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);
  auto get_proc = reinterpret_cast<GetProc>(dlsym(lib, "cuGetProcAddress_v2"));
  if (!get_proc)
    throw_error(ErrorKind::CudaRuntime, "the CUDA driver is too old: cuarray needs a CUDA 12 or newer driver",
                cudaErrorInsufficientDriver);
  DriverApi api;
#define CUARRAY_RESOLVE(name)                                                                       \
  {                                                                                                 \
    void* fn = nullptr;                                                                             \
    CUdriverProcAddressQueryResult found;                                                           \
    if (get_proc(#name, &fn, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &found) != CUDA_SUCCESS || !fn)    \
      throw_error(ErrorKind::CudaRuntime, "the CUDA driver lacks " #name ": a CUDA 12+ driver is needed", \
                  cudaErrorInsufficientDriver);                                                    \
    api.name = reinterpret_cast<decltype(api.name)>(fn);                                            \
  }
  CUARRAY_DRIVER_FUNCTIONS(CUARRAY_RESOLVE)
#undef CUARRAY_RESOLVE
#define CUARRAY_RESOLVE_OPTIONAL(name)                                                              \
  {                                                                                                 \
    void* fn = nullptr;                                                                             \
    CUdriverProcAddressQueryResult found;                                                           \
    if (get_proc(#name, &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &found) == CUDA_SUCCESS)    \
      api.name = reinterpret_cast<decltype(api.name)>(fn);                                          \
  }
  CUARRAY_DRIVER_OPTIONAL_FUNCTIONS(CUARRAY_RESOLVE_OPTIONAL)
#undef CUARRAY_RESOLVE_OPTIONAL
  CUresult status = api.cuInit(0);
  if (status == CUDA_ERROR_NO_DEVICE)
    throw_error(ErrorKind::CudaRuntime, "no CUDA-capable device is detected (cuInit: CUDA_ERROR_NO_DEVICE)",
                cudaErrorNoDevice);
  if (status != CUDA_SUCCESS) {
    const char* name = nullptr;
    api.cuGetErrorName(status, &name);
    throw_error(ErrorKind::CudaRuntime,
                std::string("the CUDA driver failed to initialize (cuInit: ") + (name ? name : "?") + ")", status);
  }
  return api;
}

}  // namespace

const DriverApi& driver() {
  // A failed load is retried on the next call (it throws out of the initializer), so a process
  // that catches "no driver" keeps getting the same clear error.
  static std::mutex mutex;
  static DriverApi* api = nullptr;
  if (g_loaded.load(std::memory_order_acquire)) return *api;
  std::lock_guard<std::mutex> lock(mutex);
  if (!api) {
    api = new DriverApi(load());  // lives for the process: kernels may run during static teardown
    g_loaded.store(true, std::memory_order_release);
  }
  return *api;
}

bool driver_loaded() { return g_loaded.load(std::memory_order_acquire); }

std::string error_string(CUresult status) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (driver_loaded()) {
    driver().cuGetErrorName(status, &name);
    driver().cuGetErrorString(status, &text);
  }
  return std::string(name ? name : "CUDA_ERROR_" + std::to_string(status)) + ": " + (text ? text : "unknown error");
}

void check(CUresult status, const char* call) {
  if (status == CUDA_SUCCESS) return;
  if (status == CUDA_ERROR_OUT_OF_MEMORY) throw_error(ErrorKind::OutOfMemory, std::string(call) + ": out of memory");
  throw_error(ErrorKind::CudaDriver, std::string(call) + " failed: " + error_string(status), status);
}

}  // namespace cuarray::runtime
