// cuSOLVER's dense API, opened on first use (docs/libraries.md, docs/linalg_solvers.md). The
// 64-bit generic routines (cusolverDnX*) serve every dtype through one entry each; the typed
// routines that have no generic form (orgqr/ungqr, the Jacobi SVDs) are listed per
// precision and picked through LapackTyped<T>.
#pragma once
#include <cusolverDn.h>

#include <utility>

#include "cuarray/dtype.hpp"
#include "cuarray/runtime.hpp"
#include "libs/plan_cache.hpp"
#include "runtime/streams/foreign_work.hpp"
#include "runtime/function_table.hpp"

#define CUARRAY_CUSOLVER_TYPED(X, name_s, name_d, name_c, name_z) X(name_s) X(name_d) X(name_c) X(name_z)

#define CUARRAY_CUSOLVER_FUNCTIONS(X)                                                                     \
  X(cusolverDnCreate) X(cusolverDnDestroy) X(cusolverDnSetStream) X(cusolverDnCreateParams)               \
  X(cusolverDnDestroyParams) X(cusolverDnXgetrf_bufferSize) X(cusolverDnXgetrf) X(cusolverDnXgetrs)       \
  X(cusolverDnXpotrf_bufferSize) X(cusolverDnXpotrf) X(cusolverDnXgeqrf_bufferSize) X(cusolverDnXgeqrf)   \
  X(cusolverDnXsyevd_bufferSize) X(cusolverDnXsyevd) X(cusolverDnXgesvd_bufferSize) X(cusolverDnXgesvd)   \
  X(cusolverDnXgesvdp_bufferSize) X(cusolverDnXgesvdp) X(cusolverDnXgeev_bufferSize) X(cusolverDnXgeev)   \
  X(cusolverDnXsyevBatched_bufferSize) X(cusolverDnXsyevBatched) X(cusolverDnCreateGesvdjInfo)          \
  X(cusolverDnDestroyGesvdjInfo)                                                                          \
  CUARRAY_CUSOLVER_TYPED(X, cusolverDnSorgqr_bufferSize, cusolverDnDorgqr_bufferSize,                     \
                         cusolverDnCungqr_bufferSize, cusolverDnZungqr_bufferSize)                        \
  CUARRAY_CUSOLVER_TYPED(X, cusolverDnSorgqr, cusolverDnDorgqr, cusolverDnCungqr, cusolverDnZungqr)       \
  CUARRAY_CUSOLVER_TYPED(X, cusolverDnSgesvdjBatched_bufferSize, cusolverDnDgesvdjBatched_bufferSize,     \
                         cusolverDnCgesvdjBatched_bufferSize, cusolverDnZgesvdjBatched_bufferSize)        \
  CUARRAY_CUSOLVER_TYPED(X, cusolverDnSgesvdjBatched, cusolverDnDgesvdjBatched, cusolverDnCgesvdjBatched, \
                         cusolverDnZgesvdjBatched)                                                        \
  CUARRAY_CUSOLVER_TYPED(X, cusolverDnSgesvdj_bufferSize, cusolverDnDgesvdj_bufferSize,                   \
                         cusolverDnCgesvdj_bufferSize, cusolverDnZgesvdj_bufferSize)                      \
  CUARRAY_CUSOLVER_TYPED(X, cusolverDnSgesvdj, cusolverDnDgesvdj, cusolverDnCgesvdj, cusolverDnZgesvdj)

namespace cuarray::libs {

struct CusolverApi {
  CUARRAY_CUSOLVER_FUNCTIONS(CUARRAY_DECLARE_FUNCTION)
  explicit CusolverApi(const runtime::SharedLibrary& library) { CUARRAY_CUSOLVER_FUNCTIONS(CUARRAY_RESOLVE_FUNCTION) }
};

// Loads libcusolver on the first call; a missing library throws CUDARuntimeError naming it, the
// directories searched and the pip command.
const CusolverApi& cusolver();
runtime::LibrarySpec cusolver_library_spec();

// Throws CUDARuntimeError naming the call and cuSOLVER's status.
void check_cusolver(cusolverStatus_t status, const char* call);
#define CUARRAY_CUSOLVER_CALL(name, ...) ::cuarray::libs::check_cusolver(::cuarray::libs::cusolver().name(__VA_ARGS__), #name)

// cuSOLVER's name for a float or complex dtype (CUDA_R_32F, ..., CUDA_C_64F).
cudaDataType cuda_data_type(DType dtype);

// A handle and its generic-API parameters, bound to one device's stream: the plan of
// PlanKind::CusolverDnHandle in that stream's PlanCache.
class CusolverDnHandle {
 public:
  CusolverDnHandle(int device, StreamHandle stream);
  ~CusolverDnHandle();
  CusolverDnHandle(const CusolverDnHandle&) = delete;
  CusolverDnHandle& operator=(const CusolverDnHandle&) = delete;
  cusolverDnHandle_t handle() const { return handle_; }
  cusolverDnParams_t params() const { return params_; }

 private:
  cusolverDnHandle_t handle_ = nullptr;
  cusolverDnParams_t params_ = nullptr;
};

// Runs work(CusolverDnHandle&) with the current device and stream's handle, after cuarray's held
// launches (runtime::ForeignWork), so its calls keep their place in program order.
template <class Work>
decltype(auto) with_cusolver(Work&& work) {
  const int device = current_device();
  return PlanCache::current().lookup_and_exec<CusolverDnHandle>(
      PlanKey(PlanKind::CusolverDnHandle),
      [&] { return std::make_unique<CusolverDnHandle>(device, current_stream_handle()); },
      [&](CusolverDnHandle& h) -> decltype(auto) {
        runtime::ForeignWork on_stream(device);
        return std::forward<Work>(work)(h);
      });
}

// The typed routines of one precision: LapackTyped<float>::orgqr is cusolverDnSorgqr, and so on.
// T is float, double, cuComplex or cuDoubleComplex.
template <class T> struct LapackTyped;
#define CUARRAY_CUSOLVER_TYPED_ROUTINES(T, P, Q)                                                          \
  template <> struct LapackTyped<T> {                                                                   \
    static auto orgqr_buffer_size() { return cusolver().cusolverDn##P##_bufferSize; }                  \
    static auto orgqr() { return cusolver().cusolverDn##P; }                                           \
    static auto gesvdj_buffer_size() { return cusolver().cusolverDn##Q##gesvdj_bufferSize; }           \
    static auto gesvdj() { return cusolver().cusolverDn##Q##gesvdj; }                                  \
    static auto gesvdj_batched_buffer_size() { return cusolver().cusolverDn##Q##gesvdjBatched_bufferSize; } \
    static auto gesvdj_batched() { return cusolver().cusolverDn##Q##gesvdjBatched; }                   \
  };
CUARRAY_CUSOLVER_TYPED_ROUTINES(float, Sorgqr, S)
CUARRAY_CUSOLVER_TYPED_ROUTINES(double, Dorgqr, D)
CUARRAY_CUSOLVER_TYPED_ROUTINES(cuComplex, Cungqr, C)
CUARRAY_CUSOLVER_TYPED_ROUTINES(cuDoubleComplex, Zungqr, Z)
#undef CUARRAY_CUSOLVER_TYPED_ROUTINES

// The real type of a LAPACK element type (singular values of a complex matrix are real).
template <class T> struct RealOf { using type = T; };
template <> struct RealOf<cuComplex> { using type = float; };
template <> struct RealOf<cuDoubleComplex> { using type = double; };

// Calls fn(T{}) with the C type of a float or complex dtype (float, double, cuComplex, cuDoubleComplex).
template <class Fn>
decltype(auto) visit_lapack_type(DType dtype, Fn&& fn) {
  switch (dtype) {
    case DType::Float32: return fn(float{});
    case DType::Float64: return fn(double{});
    case DType::Complex64: return fn(cuComplex{});
    default: return fn(cuDoubleComplex{});
  }
}

}  // namespace cuarray::libs
