#include "libs/cusolver.hpp"

#include <string>

#include "cuarray/errors.hpp"
#include "runtime/streams/foreign_work.hpp"

namespace cuarray::libs {

runtime::LibrarySpec cusolver_library_spec() {
  // CUDA 13 ships cuSOLVER 12 (libcusolver.so.12); CUDA 12's is libcusolver.so.11.
  return {"cuSOLVER", {"libcusolver.so.12", "libcusolver.so.11"}, "cusolver", "pip install nvidia-cusolver"};
}

const CusolverApi& cusolver() {
  static runtime::LazyLibrary<CusolverApi> library(cusolver_library_spec());
  return library.get();
}

void check_cusolver(cusolverStatus_t status, const char* call) {
  if (status == CUSOLVER_STATUS_SUCCESS) return;
  throw_error(ErrorKind::CudaRuntime, std::string(call) + " failed: cusolverStatus_t " + std::to_string(int(status)));
}

cudaDataType cuda_data_type(DType dtype) {
  switch (dtype) {
    case DType::Float32: return CUDA_R_32F;
    case DType::Float64: return CUDA_R_64F;
    case DType::Complex64: return CUDA_C_32F;
    case DType::Complex128: return CUDA_C_64F;
    default: throw_error(ErrorKind::Type, "cuSOLVER has no routine for " + std::string(dtype_name(dtype)));
  }
}

CusolverDnHandle::CusolverDnHandle(int device, StreamHandle stream) {
  // cuSOLVER (through the CUDA runtime) works in the context current on the thread: the device's.
  runtime::ForeignWork on_device(device);
  const CusolverApi& api = cusolver();
  check_cusolver(api.cusolverDnCreate(&handle_), "cusolverDnCreate");
  try {
    check_cusolver(api.cusolverDnSetStream(handle_, stream), "cusolverDnSetStream");
    check_cusolver(api.cusolverDnCreateParams(&params_), "cusolverDnCreateParams");
  } catch (...) {
    api.cusolverDnDestroy(handle_);
    throw;
  }
}

CusolverDnHandle::~CusolverDnHandle() {
  if (params_) cusolver().cusolverDnDestroyParams(params_);
  if (handle_) cusolver().cusolverDnDestroy(handle_);
}

}  // namespace cuarray::libs
