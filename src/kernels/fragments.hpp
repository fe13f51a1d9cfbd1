// The .cuh sources of src/kernels, embedded into the library at build time (cmake/embed_sources.cmake).
#pragma once
#include <string_view>

namespace cuarray::kernels {
extern const std::string_view prelude_cuh;
extern const std::string_view common_cuh;
extern const std::string_view float16_cuh;
extern const std::string_view complex_cuh;
extern const std::string_view complex_math_cuh;
extern const std::string_view convert_cuh;
extern const std::string_view ufunc_math_cuh;
extern const std::string_view elementwise_cuh;
extern const std::string_view user_kernel_cuh;
extern const std::string_view reduce_cuh;
extern const std::string_view random_stream_cuh;
extern const std::string_view random_ziggurat_cuh;
extern const std::string_view random_distributions_cuh;
extern const std::string_view random_checks_cuh;
extern const std::string_view random_fill_cuh;
extern const std::string_view feistel_bijection_cuh;
extern const std::string_view random_bijection_cuh;
extern const std::string_view scan_cuh;
extern const std::string_view atomics_cuh;
extern const std::string_view bins_cuh;
extern const std::string_view select_cuh;
extern const std::string_view gather_cuh;
extern const std::string_view combine_indices_cuh;
extern const std::string_view sort_cuh;
extern const std::string_view order_stats_cuh;
extern const std::string_view transpose_cuh;
extern const std::string_view pad_cuh;
extern const std::string_view join_cuh;
extern const std::string_view integer_gemm_cuh;
extern const std::string_view jacobi_svd_cuh;
extern const std::string_view digit_gemm_cuh;
}  // namespace cuarray::kernels
