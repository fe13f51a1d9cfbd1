#include "ops/linalg/products/gemm_plan.hpp"

#include <algorithm>

namespace cuarray::ops {

std::optional<BlasOperand> transposed_view(int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride) {
  // Unit column stride: the transpose (cols x rows) is stored column-major with ld = row stride. A
  // dim of length 1 has no stride that matters, so it never stands in the way.
  if ((cols == 1 || col_stride == 1) && (rows == 1 || row_stride >= std::max<int64_t>(cols, 1)))
    return BlasOperand{false, rows == 1 ? std::max<int64_t>(cols, 1) : row_stride, 0};
  if ((rows == 1 || row_stride == 1) && (cols == 1 || col_stride >= std::max<int64_t>(rows, 1)))
    return BlasOperand{true, cols == 1 ? std::max<int64_t>(rows, 1) : col_stride, 0};
  return std::nullopt;
}

namespace {

struct BatchDim {
  int64_t size, a, b, c;  // length; element strides of NumPy's A, B and C
};

// Drops length-1 dims and merges an outer dim into the inner one after it where every operand
// steps through the pair as one dim. Outer dims first.
SmallVector<BatchDim, 6> coalesce(const Shape& batch, const MatrixOperand& a, const MatrixOperand& b,
                                  int64_t matrix_size) {
  Strides c_strides(batch.size());
  int64_t c_stride = matrix_size;
  for (int d = static_cast<int>(batch.size()) - 1; d >= 0; --d) {
    c_strides[d] = c_stride;
    c_stride *= batch[d];
  }
  SmallVector<BatchDim, 6> dims;
  for (size_t d = 0; d < batch.size(); ++d) {
    if (batch[d] == 1) continue;
    const BatchDim inner{batch[d], a.batch_strides[d], b.batch_strides[d], c_strides[d]};
    if (!dims.empty()) {
      BatchDim& outer = dims.back();
      if (outer.a == inner.a * inner.size && outer.b == inner.b * inner.size && outer.c == inner.c * inner.size) {
        outer = {outer.size * inner.size, inner.a, inner.b, inner.c};
        continue;
      }
    }
    dims.push_back(inner);
  }
  return dims;
}

}  // namespace

GemmPlan plan_gemm(int64_t m, int64_t k, int64_t n, const Shape& batch, const MatrixOperand& a,
                   const MatrixOperand& b) {
  GemmPlan plan;
  // The GEMM's A' is NumPy's B (k x n), its B' NumPy's A (m x k), both read as their transposes.
  std::optional<BlasOperand> a_view = transposed_view(k, n, b.row_stride, b.col_stride);
  std::optional<BlasOperand> b_view = transposed_view(m, k, a.row_stride, a.col_stride);
  const auto negative = [](const Strides& s) { return std::any_of(s.begin(), s.end(), [](int64_t x) { return x < 0; }); };
  plan.copy_a = !b_view || negative(a.batch_strides);
  plan.copy_b = !a_view || negative(b.batch_strides);
  if (plan.copy_a || plan.copy_b) return plan;

  plan.m = n;
  plan.n = m;
  plan.k = k;
  plan.a = *a_view;
  plan.b = *b_view;
  plan.c = {false, n, m * n};

  SmallVector<BatchDim, 6> dims = coalesce(batch, a, b, m * n);
  if (dims.empty()) return plan;
  // The longest dim is the strided batch; the rest are host loops.
  const auto longest = std::max_element(dims.begin(), dims.end(),
                                        [](const BatchDim& x, const BatchDim& y) { return x.size < y.size; });
  const BatchDim batched = *longest;
  plan.batch_count = batched.size;
  plan.a.batch_stride = batched.b;
  plan.b.batch_stride = batched.a;
  plan.c.batch_stride = batched.c;
  for (auto it = dims.begin(); it != dims.end(); ++it) {
    if (it == longest) continue;
    plan.outer_shape.push_back(it->size);
    plan.outer_a.push_back(it->a);
    plan.outer_b.push_back(it->b);
    plan.outer_c.push_back(it->c);
  }
  // A stack of row-major A against one B is one taller product: its rows follow each other in
  // memory with the stride its matrices have, and C's do.
  if (plan.outer_shape.empty() && plan.a.batch_stride == 0 && !plan.b.transpose &&
      plan.b.batch_stride == m * plan.b.ld) {
    plan.n = m * plan.batch_count;
    plan.batch_count = 1;
    plan.b.batch_stride = 0;
    plan.c.batch_stride = 0;
  }
  return plan;
}

}  // namespace cuarray::ops
