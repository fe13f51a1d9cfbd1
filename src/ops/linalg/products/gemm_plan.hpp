// How a stack of row-major-indexed products C[b] = A[b] @ B[b] is handed to a column-major GEMM
// (cuBLAS, or the integer GEMM kernel that takes the same arguments) without copying operands.
//
// A C-ordered C (m x n) is, read column-major, C^T (n x m) with ld = n, and C^T = B^T A^T: so the
// GEMM's first operand is NumPy's B and its second NumPy's A, each needed as its transpose. A
// matrix with unit column stride is that transpose stored column-major (op N, ld = row stride); one
// with unit row stride is the matrix itself stored column-major (op T, ld = column stride). Any
// other layout (or a negative stride, or a batch dim that cannot be a GEMM batch) needs a copy.
// Batch dims are coalesced across A, B and C; the longest one left becomes the strided batch (stride
// 0 where an operand is broadcast), the others are looped over on the host, one call each.
#pragma once
#include <cstdint>
#include <optional>

#include "cuarray/shape.hpp"

namespace cuarray::ops {

// One operand as the column-major GEMM reads it. Strides and leading dimensions count elements.
struct BlasOperand {
  bool transpose = false;    // op T (else op N)
  int64_t ld = 1;
  int64_t batch_stride = 0;  // between the matrices of the strided batch
  bool operator==(const BlasOperand&) const = default;
};

// The column-major transpose view of a (rows x cols) matrix with element strides (row_stride,
// col_stride): nullopt when no op flag and leading dimension describe it.
std::optional<BlasOperand> transposed_view(int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride);

// One NumPy operand of the product, after its batch dims were broadcast to the common batch shape.
struct MatrixOperand {
  Strides batch_strides;  // elements; 0 on broadcast dims
  int64_t row_stride = 0, col_stride = 0;
};

struct GemmPlan {
  // Needs a C-contiguous copy first (then plan again): NumPy's A, NumPy's B.
  bool copy_a = false, copy_b = false;
  // The GEMM, cuBLAS's names: C' (m x n) = op(A') (m x k) op(B') (k x n), with A' = NumPy's B,
  // B' = NumPy's A, C' = C^T (so m = NumPy's n, n = NumPy's m).
  int64_t m = 0, n = 0, k = 0;
  BlasOperand a, b, c;
  int64_t batch_count = 1;
  // Batch dims left over, looped on the host; per dim the element strides of NumPy's A, B and C.
  Shape outer_shape;
  Strides outer_a, outer_b, outer_c;
};

// Plans C = A @ B for NumPy's sizes m, k, n (all >= 1) over the broadcast batch shape; C is the
// C-contiguous result. When an operand is stacked and the other is not, and the stack is one
// row-major block, the stack folds into the rows of one GEMM (as NumPy's A of (b, m, k) against a
// B of (k, n) is one (b*m, k) product).
GemmPlan plan_gemm(int64_t m, int64_t k, int64_t n, const Shape& batch, const MatrixOperand& a,
                   const MatrixOperand& b);

}  // namespace cuarray::ops
