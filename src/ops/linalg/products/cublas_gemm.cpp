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
    for_each_outer_batch(plan, [&](int64_t oa, int64_t ob, int64_t oc) {
      const char *na = a + oa * itemsize, *nb = b + ob * itemsize;
      char* nc = c + oc * itemsize;
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

bool imma_fits(const GemmPlan& plan, const char* a, const char* b) {
  // cuBLAS's rules for its IMMA kernels: 4-byte aligned matrices, leading dimensions and m, k
  // multiples of 4 (C is int32 with ld = n'). And k < 2^17, so that no int32 sum of products of
  // at most 2^14 in magnitude overflows: exactness then needs no word on whether the tensor
  // cores wrap or saturate.
  const auto four = [](int64_t x) { return x % 4 == 0; };
  bool fits = plan.k < (int64_t{1} << 17) && four(plan.m) && four(plan.k) && four(plan.a.ld) && four(plan.b.ld) && four(plan.c.ld) &&
              four(plan.a.batch_stride) && four(plan.b.batch_stride) &&
              reinterpret_cast<uintptr_t>(a) % 4 == 0 && reinterpret_cast<uintptr_t>(b) % 4 == 0;
  for (size_t d = 0; d < plan.outer_shape.size(); ++d) fits = fits && four(plan.outer_a[d]) && four(plan.outer_b[d]);
  return fits;
}

bool cublas_int8_gemm(const GemmPlan& plan, const char* a, const char* b, char* c32) {
  static constexpr int32_t kOne = 1, kZero = 0;
  bool first = true, supported = true;
  libs::with_cublas([&](cublasHandle_t handle) {
    for_each_outer_batch(plan, [&](int64_t oa, int64_t ob, int64_t oc) {
      if (!supported) return;
      // NumPy's A and B have 1-byte elements, the sums 4-byte ones; A' is NumPy's B (gemm_plan.hpp).
      const cublasStatus_t status = libs::cublas().cublasGemmStridedBatchedEx_64(
          handle, op(plan.a), op(plan.b), plan.m, plan.n, plan.k, &kOne, b + ob, CUDA_R_8I, plan.a.ld,
          plan.a.batch_stride, a + oa, CUDA_R_8I, plan.b.ld, plan.b.batch_stride, &kZero, c32 + oc * 4, CUDA_R_32I,
          plan.c.ld, plan.c.batch_stride, plan.batch_count, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
      if (status == CUBLAS_STATUS_NOT_SUPPORTED && first) {
        supported = false;  // nothing was enqueued: the caller takes the integer kernel
        return;
      }
      libs::check_cublas(status, "cublasGemmStridedBatchedEx_64 (int8)");
      first = false;
    });
  });
  return supported;
}

}  // namespace cuarray::ops
