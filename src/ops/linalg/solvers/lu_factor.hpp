// LU factorization with partial pivoting (cusolverDnXgetrf) of a stack of square matrices, and
// the solves that use it (cusolverDnXgetrs): the shared half of inv, solve, det and slogdet.
#pragma once
#include <cublas_api.h>

#include "cuarray/ndarray.hpp"
#include "ops/linalg/solvers/matrix_stack.hpp"
#include "ops/linalg/solvers/status_words.hpp"

namespace cuarray::linalg {

struct LuFactors {
  ColumnMajorStack lu;  // L below the diagonal (unit diagonal implied), U on and above
  NDArray pivots;       // int64 (..., n), LAPACK's 1-based row interchanges
  StatusWords status;   // positive where U has an exact zero on its diagonal: singular
};

// Factors `a` in place (it becomes LuFactors::lu).
LuFactors lu_factor(ColumnMajorStack a);

// Overwrites each matrix of `b` (n x k, column-major) with op(A)^-1 b, op = `trans`.
void lu_solve(const LuFactors& lu, cublasOperation_t trans, const ColumnMajorStack& b);

}  // namespace cuarray::linalg
