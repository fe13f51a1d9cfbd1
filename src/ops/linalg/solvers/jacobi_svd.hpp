// cuarray's own batched one-sided Jacobi SVD for stacks of small matrices (kernels/jacobi_svd.cuh):
// one thread block per matrix, held in shared memory, one launch for the whole stack.
#pragma once
#include <cstdint>
#include <string>

#include "cuarray/dtype.hpp"
#include "ops/linalg/solvers/matrix_stack.hpp"

namespace cuarray::linalg {

// The block of one matrix: threads (a multiple of 32, at most 256) in groups of group_lanes lanes
// (a power of two, at most 32), one group per column pair of a step, each lane holding at most
// two rows of a column.
struct JacobiBlockShape {
  unsigned threads;
  int group_lanes;
};
JacobiBlockShape jacobi_block_shape(int64_t rows, int64_t cols);

// The kernel's source for one dtype (float32, float64, complex64, complex128).
std::string jacobi_svd_source(DType dtype);

// Factors every matrix of `m` (rows >= cols, both <= kSmallJacobiMaxSize of
// routine_choice.hpp): s (batch x cols, real),
// and when u and v are given, U (batch of rows x u_cols, column-major; u_cols is cols or rows) and
// V (batch of cols x cols, column-major), sorted by descending singular value. Writes 1 to a
// matrix's status word when it did not converge or is not finite, else 0.
void jacobi_svd(const ColumnMajorStack& m, void* s, ColumnMajorStack* u, ColumnMajorStack* v, int* status);

}  // namespace cuarray::linalg
