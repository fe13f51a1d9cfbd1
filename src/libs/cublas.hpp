// cuBLAS, the first tenant of the library layer (docs/libraries.md, docs/linalg.md): its function
// table, opened on first use, and one handle per device and stream through the PlanCache, bound to
// that stream, with its workspace from cuarray's memory pool.
//
//   libs::with_cublas([&](cublasHandle_t h) { libs::check_cublas(cublas().cublasDtrsm_v2(h, ...), "cublasDtrsm"); });
//
// runs the call on the current device's current stream, after cuarray's held launches (the
// ForeignWork guard), with the handle's math mode following allow_tf32().
#pragma once
#include <cublas_v2.h>

#include <memory>

#include "cuarray/products.hpp"
#include "cuarray/runtime.hpp"
#include "libs/plan_cache.hpp"
#include "runtime/streams/foreign_work.hpp"
#include "runtime/function_table.hpp"

// The functions cuarray calls (products) and those the solvers build on (batched LU, inverses,
// triangular solves). Names are the exported ones: cublas_v2.h maps cublasCreate to
// cublasCreate_v2 before the macro expands, so members and call sites take the versioned name.
// The GEMM is the _64 strided-batched one: cublasGemmEx and cublasGemmStridedBatchedEx are
// overloaded in C++ (legacy cudaDataType compute types), the _64 entry points are not, and take
// 64-bit sizes and leading dimensions as well.
#define CUARRAY_CUBLAS_FUNCTIONS(X)                                                                 \
  X(cublasCreate) X(cublasDestroy) X(cublasSetStream) X(cublasSetWorkspace) X(cublasSetMathMode)    \
  X(cublasGetStatusName) X(cublasGemmStridedBatchedEx_64)                                          \
  X(cublasStrsm) X(cublasDtrsm) X(cublasCtrsm) X(cublasZtrsm)                                       \
  X(cublasStrsmBatched) X(cublasDtrsmBatched) X(cublasCtrsmBatched) X(cublasZtrsmBatched)           \
  X(cublasSgetrfBatched) X(cublasDgetrfBatched) X(cublasCgetrfBatched) X(cublasZgetrfBatched)       \
  X(cublasSgetrsBatched) X(cublasDgetrsBatched) X(cublasCgetrsBatched) X(cublasZgetrsBatched)       \
  X(cublasSgetriBatched) X(cublasDgetriBatched) X(cublasCgetriBatched) X(cublasZgetriBatched)       \
  X(cublasSmatinvBatched) X(cublasDmatinvBatched) X(cublasCmatinvBatched) X(cublasZmatinvBatched)

namespace cuarray::libs {

struct CublasApi {
  CUARRAY_CUBLAS_FUNCTIONS(CUARRAY_DECLARE_FUNCTION)
  explicit CublasApi(const runtime::SharedLibrary& library) { CUARRAY_CUBLAS_FUNCTIONS(CUARRAY_RESOLVE_FUNCTION) }
};

// The table; the first call opens libcublas (CUDARuntimeError naming it, where it looked and the
// pip command when it is missing).
const CublasApi& cublas();

// Throws CUDARuntimeError "cuBLAS <call> failed: CUBLAS_STATUS_..." unless status is success.
void check_cublas(cublasStatus_t status, const char* call);

// A handle bound to one stream, its workspace from the pool. One per device and stream, in the
// PlanCache (kind CublasHandle); bytes() is the workspace, which the cache's byte limit counts.
class CublasHandle {
 public:
  CublasHandle(int device, StreamHandle stream);
  ~CublasHandle();
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return handle_; }
  size_t bytes() const;
  // CUBLAS_TF32_TENSOR_OP_MATH when TF32 is allowed, else CUBLAS_DEFAULT_MATH: so that the legacy
  // entry points (trsm, the batched LU) follow the switch too. Set only when it changed.
  void use_tf32(bool allowed);

 private:
  cublasHandle_t handle_ = nullptr;
  std::shared_ptr<Buffer> workspace_;
  bool tf32_ = false;
};

// Runs fn(cublasHandle_t) with the current device's and stream's handle, inside a
// runtime::ForeignWork guard, so its work follows cuarray's held launches in program order.
template <class Fn>
decltype(auto) with_cublas(Fn&& fn) {
  const int device = current_device();
  PlanCache& cache = PlanCache::current();
  return cache.lookup_and_exec<CublasHandle>(
      PlanKey(PlanKind::CublasHandle),
      [&] { return std::make_unique<CublasHandle>(device, current_stream_handle()); },
      [&](CublasHandle& handle) -> decltype(auto) {
        runtime::ForeignWork on_stream(device);
        handle.use_tf32(allow_tf32());
        return fn(handle.get());
      });
}

}  // namespace cuarray::libs
