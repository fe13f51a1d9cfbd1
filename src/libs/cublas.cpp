#include "libs/cublas.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cuarray/errors.hpp"

namespace cuarray {
namespace {

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::strcmp(v, "0") != 0;
}

std::atomic<bool>& tf32_switch() {
  static std::atomic<bool> allowed{env_flag("CUPY_TF32") || env_flag("CUARRAY_TF32")};
  return allowed;
}

// cuBLAS's own advice: 32 MiB of workspace on Hopper and later, 4 MiB before (a larger one lets
// it pick split-K kernels for the big products).
size_t workspace_bytes(int device) {
  return device_properties(device).major >= 9 ? (32u << 20) : (4u << 20);
}

}  // namespace

bool allow_tf32() { return tf32_switch().load(std::memory_order_relaxed); }
void set_allow_tf32(bool allowed) { tf32_switch().store(allowed, std::memory_order_relaxed); }

namespace libs {

const CublasApi& cublas() {
  static runtime::LazyLibrary<CublasApi> library(
      {"cuBLAS", {"libcublas.so.13", "libcublas.so.12"}, "cublas", "pip install nvidia-cublas"});
  return library.get();
}

void check_cublas(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  throw_error(ErrorKind::CudaRuntime,
              std::string("cuBLAS ") + call + " failed: " + cublas().cublasGetStatusName(status));
}

CublasHandle::CublasHandle(int device, StreamHandle stream) {
  runtime::ForeignWork on_device(device);
  const CublasApi& api = cublas();
  check_cublas(api.cublasCreate_v2(&handle_), "cublasCreate");
  try {
    check_cublas(api.cublasSetStream_v2(handle_, stream), "cublasSetStream");
    // cuBLAS would otherwise take its workspace with cudaMalloc, outside the pool and its limit.
    workspace_ = allocate_device(workspace_bytes(device), device, stream);
    check_cublas(api.cublasSetWorkspace_v2(handle_, workspace_->ptr(), workspace_->size()), "cublasSetWorkspace");
  } catch (...) {
    api.cublasDestroy_v2(handle_);
    throw;
  }
}

CublasHandle::~CublasHandle() { cublas().cublasDestroy_v2(handle_); }

size_t CublasHandle::bytes() const { return workspace_ ? workspace_->size() : 0; }

void CublasHandle::use_tf32(bool allowed) {
  if (allowed == tf32_) return;
  check_cublas(cublas().cublasSetMathMode(handle_, allowed ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH),
               "cublasSetMathMode");
  tf32_ = allowed;
}

}  // namespace libs
}  // namespace cuarray
