// Which cuSOLVER routine serves an SVD or a Hermitian eigenproblem: a table by size and stack
// count (docs/linalg_solvers.md records the measurements behind it), overridable per operation by
// force_routine() in cuarray/linalg.hpp so a benchmark can time every candidate.
#pragma once
#include <cstdint>

namespace cuarray::linalg {

enum class SvdRoutine : uint8_t { Gesvd, Gesvdj, Gesvdp, GesvdjBatched, JacobiSmall };
enum class EighRoutine : uint8_t { Syevd, SyevBatched };
enum class LuRoutine : uint8_t { Getrf, GetrfBatched };

// cuSOLVER's batched Jacobi SVD takes matrices up to 32 x 32 only.
constexpr int64_t kBatchedJacobiMaxSize = 32;
// cuarray's own batched Jacobi SVD (jacobi_svd.hpp) takes rows and cols up to 64.
constexpr int64_t kSmallJacobiMaxSize = 64;
// Up to this size a stack's eigenproblems go to one batched call (cusolverDnXsyevBatched) rather
// than a loop of syevd calls (measured on an H200: 10 x 256^2 11.8 ms against 20.6 ms; a single
// 2000^2 ties, so single matrices keep syevd).
constexpr int64_t kBatchedEighMaxSize = 256;

// cuBLAS's batched LU takes 32-bit sizes and is meant for small matrices.
constexpr int64_t kBatchedLuMaxSize = 128;

// full_u: a full U of a non-square matrix is asked for (full_matrices with compute_uv).
SvdRoutine choose_svd_routine(int64_t rows, int64_t cols, int64_t batch, bool full_u = false);
LuRoutine choose_lu_routine(int64_t n, int64_t batch);
EighRoutine choose_eigh_routine(int64_t n, int64_t batch);

}  // namespace cuarray::linalg
