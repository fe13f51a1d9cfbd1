// The CUDA driver API, opened with dlopen on first use: one table of function pointers.
#pragma once
#include <cuda.h>
#include <cudaProfiler.h>
#include <driver_types.h>  // cudaError's enumerators: the status of a CudaRuntime error

#include <string>

namespace cuarray::runtime {

// Every driver entry point cuarray calls. decltype(&::name) picks the versioned prototype the
// header maps `name` to (cuMemAlloc -> cuMemAlloc_v2); cuGetProcAddress resolves the base name.
#define CUARRAY_DRIVER_FUNCTIONS(X)                                                                 \
  X(cuInit) X(cuDriverGetVersion) X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetAttribute)        \
  X(cuDeviceGetName) X(cuDeviceTotalMem) X(cuDevicePrimaryCtxRetain) X(cuCtxSetCurrent)             \
  X(cuCtxGetCurrent) X(cuCtxSynchronize) X(cuMemAlloc) X(cuMemFree) X(cuMemGetInfo)                 \
  X(cuMemHostAlloc) X(cuMemFreeHost) X(cuMemcpyHtoDAsync) X(cuMemcpyDtoHAsync)                      \
  X(cuMemcpyDtoDAsync) X(cuMemcpyPeerAsync) X(cuStreamCreateWithPriority) X(cuStreamDestroy)        \
  X(cuStreamSynchronize) X(cuStreamQuery) X(cuStreamWaitEvent) X(cuEventCreate) X(cuEventDestroy)   \
  X(cuEventRecord) X(cuEventSynchronize) X(cuEventQuery) X(cuEventElapsedTime)                      \
  X(cuModuleLoadData) X(cuModuleGetFunction) X(cuModuleUnload) X(cuLaunchKernel)                    \
  X(cuFuncSetAttribute) X(cuGetErrorName) X(cuGetErrorString) X(cuPointerGetAttributes)              \
  X(cuDeviceCanAccessPeer) X(cuCtxEnablePeerAccess) X(cuGraphCreate) X(cuGraphDestroy)              \
  X(cuGraphAddKernelNode) X(cuGraphInstantiateWithFlags) X(cuGraphExecKernelNodeSetParams)          \
  X(cuGraphLaunch) X(cuGraphExecDestroy) X(cuModuleGetGlobal) X(cuFuncGetAttribute)                \
  X(cuLaunchCooperativeKernel) X(cuMemAllocManaged) X(cuMemsetD8Async)                     \
  X(cuDeviceGetPCIBusId) X(cuDeviceGetByPCIBusId) X(cuDeviceGetUuid) X(cuProfilerStart) X(cuProfilerStop)     \
  X(cuMemAllocFromPoolAsync) X(cuMemFreeAsync) X(cuDeviceGetDefaultMemPool) X(cuDeviceGetMemPool)  \
  X(cuDeviceSetMemPool) X(cuMemPoolTrimTo) X(cuMemPoolGetAttribute) X(cuMemPoolSetAttribute)      \
  X(cuStreamBeginCapture) X(cuStreamEndCapture) X(cuStreamIsCapturing) X(cuGraphUpload)

// Entry points newer than CUDA 12.0, resolved at the version of the headers cuarray was built
// with; null where the driver lacks them (callers fall back to what works without).
#define CUARRAY_DRIVER_OPTIONAL_FUNCTIONS(X) X(cuFuncGetParamInfo)

struct DriverApi {
#define CUARRAY_DECLARE(name) decltype(&::name) name = nullptr;
  CUARRAY_DRIVER_FUNCTIONS(CUARRAY_DECLARE)
  CUARRAY_DRIVER_OPTIONAL_FUNCTIONS(CUARRAY_DECLARE)
#undef CUARRAY_DECLARE
};

// Loads libcuda and calls cuInit once; throws CudaRuntime naming what is missing.
const DriverApi& driver();
bool driver_loaded();  // without loading: has any GPU work happened in this process?

// Throws CudaDriver naming `call` and the driver's error when `status` is not CUDA_SUCCESS
// (CUDA_ERROR_OUT_OF_MEMORY becomes OutOfMemory).
void check(CUresult status, const char* call);
std::string error_string(CUresult status);

}  // namespace cuarray::runtime

// Calls a driver function through the table and checks its status: CU_CALL(cuMemFree, ptr).
#define CU_CALL(fn, ...) ::cuarray::runtime::check(::cuarray::runtime::driver().fn(__VA_ARGS__), #fn)
