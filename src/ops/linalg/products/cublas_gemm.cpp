// Float and complex products on cuBLAS's strided-batched GEMM (docs/linalg.md): one entry point for
// every dtype, the data and compute types from a table. float16 multiplies on tensor cores and
// accumulates in float32; float32 and complex64 are true FP32 unless TF32 was allowed.
#include <cuComplex.h>

#include "cuarray/errors.hpp"
#include "libs/cublas.hpp"
#include "ops/linalg/products/gemm.hpp"

namespace cuarray::ops {
namespace {

struct BlasTypes {
  cudaDataType data;
  cublasComputeType_t compute;
  bool tf32_applies;   // CUBLAS_COMPUTE_32F_FAST_TF32 when TF32 is allowed
  bool double_scalars; // alpha and beta are double (else float), complex for complex data
};

BlasTypes blas_types(DType t) {
  switch (t) {
    case DType::Float16: return {CUDA_R_16F, CUBLAS_COMPUTE_32F, false, false};
    case DType::Float32: return {CUDA_R_32F, CUBLAS_COMPUTE_32F, true, false};
    case DType::Float64: return {CUDA_R_64F, CUBLAS_COMPUTE_64F, false, true};
    case DType::Complex64: return {CUDA_C_32F, CUBLAS_COMPUTE_32F, true, false};
    case DType::Complex128: return {CUDA_C_64F, CUBLAS_COMPUTE_64F, false, true};
    default: throw_error(ErrorKind::Type, "cuBLAS GEMM has no loop for this dtype");
  }
}

cublasOperation_t op(const BlasOperand& x) { return x.transpose ? CUBLAS_OP_T : CUBLAS_OP_N; }

}  // namespace

void cublas_gemm(const GemmPlan& plan, DType dtype, const char* a, const char* b, char* c) {
  const BlasTypes types = blas_types(dtype);
  // 1 + 0i and 0 + 0i in both widths; the real types read the first element.
  static constexpr double kOne64[2] = {1.0, 0.0}, kZero64[2] = {0.0, 0.0};
  static constexpr float kOne32[2] = {1.0f, 0.0f}, kZero32[2] = {0.0f, 0.0f};
  const void* alpha = types.double_scalars ? static_cast<const void*>(kOne64) : kOne32;
  const void* beta = types.double_scalars ? static_cast<const void*>(kZero64) : kZero32;
  const int64_t itemsize = cuarray::itemsize(dtype);
  libs::with_cublas([&](cublasHandle_t handle) {
    const cublasComputeType_t compute =
        types.tf32_applies && allow_tf32() ? CUBLAS_COMPUTE_32F_FAST_TF32 : types.compute;
    for_each_outer_batch(plan, itemsize, a, b, c, [&](const char* na, const char* nb, char* nc) {
      // The GEMM's A' is NumPy's B and its B' NumPy's A (gemm_plan.hpp).
      libs::check_cublas(
          libs::cublas().cublasGemmStridedBatchedEx_64(
              handle, op(plan.a), op(plan.b), plan.m, plan.n, plan.k, alpha, nb, types.data, plan.a.ld,
              plan.a.batch_stride, na, types.data, plan.b.ld, plan.b.batch_stride, beta, nc, types.data,
              plan.c.ld, plan.c.batch_stride, plan.batch_count, compute, CUBLAS_GEMM_DEFAULT),
          "cublasGemmStridedBatchedEx_64");
    });
  });
}

}  // namespace cuarray::ops
