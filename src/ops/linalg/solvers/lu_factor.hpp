// LU factorization with partial pivoting of a stack of square matrices, and the solves that use
// it: the shared half of inv, solve, det and slogdet. cusolverDnXgetrf/Xgetrs per matrix, or
// cuBLAS's getrfBatched/getrsBatched for a stack of small ones (routine_choice.hpp).
#pragma once
#include <cublas_api.h>

#include "cuarray/ndarray.hpp"
#include "ops/linalg/solvers/matrix_stack.hpp"
#include "ops/linalg/solvers/status_words.hpp"

namespace cuarray::linalg {

struct LuFactors {
  ColumnMajorStack lu;  // L below the diagonal (unit diagonal implied), U on and above
  NDArray pivots;       // (..., n), LAPACK's 1-based row interchanges: int64 (cuSOLVER), int32 (batched)
  StatusWords status;   // positive where U has an exact zero on its diagonal: singular
  bool batched;         // factored by cuBLAS's getrfBatched, solved by getrsBatched
};

// Factors `a` in place (it becomes LuFactors::lu).
LuFactors lu_factor(ColumnMajorStack a);

// Overwrites each matrix of `b` (n x k, column-major) with op(A)^-1 b, op = `trans`.
void lu_solve(const LuFactors& lu, cublasOperation_t trans, const ColumnMajorStack& b);

}  // namespace cuarray::linalg
