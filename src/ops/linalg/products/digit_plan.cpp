#include "ops/linalg/products/digit_plan.hpp"

namespace cuarray::ops {

std::optional<int64_t> single_batch_stride(const Shape& batch, const Strides& strides) {
  std::optional<int64_t> inner;  // the stride of the innermost dim of length > 1
  int64_t span = 1;              // the matrices of the dims coalesced so far
  for (size_t d = batch.size(); d-- > 0;) {
    if (batch[d] == 1) continue;
    if (!inner) inner = strides[d];
    else if (strides[d] != *inner * span) return std::nullopt;  // 0 == 0 * span for a broadcast operand
    span *= batch[d];
  }
  return inner.value_or(0);
}

std::optional<DigitPlan> plan_digit_gemm(int64_t w, int64_t m, int64_t k, int64_t n, const Shape& batch,
                                         const MatrixOperand& a, const MatrixOperand& b, int64_t min_work) {
  const int64_t count = shape_size(batch);
  if (w < 2 || n % 4 != 0 || k % 4 != 0 || w * k >= kMaxDigitDepth || count * m * n * k < min_work)
    return std::nullopt;
  const std::optional<int64_t> sa = single_batch_stride(batch, a.batch_strides);
  const std::optional<int64_t> sb = single_batch_stride(batch, b.batch_strides);
  if (!sa || !sb) return std::nullopt;
  DigitPlan plan;
  plan.w = w;
  plan.count = count;
  plan.k = k;
  // Planes of a broadcast operand are written once and read with batch stride 0.
  const int64_t count_a = *sa == 0 ? 1 : count, count_b = *sb == 0 ? 1 : count;
  const int64_t matrix_a = m * w * k, matrix_b = n * w * k;
  plan.a = {count_a, *sa, (w - 1) * k, matrix_a, w * k, 1, -k, count_a * matrix_a};
  plan.b = {count_b, *sb, 0, matrix_b, 1, w * k, k, count_b * matrix_b};
  plan.gemm = plan_gemm(m, k, n, Shape{count}, MatrixOperand{{count_a == 1 ? 0 : matrix_a}, w * k, 1},
                        MatrixOperand{{count_b == 1 ? 0 : matrix_b}, 1, w * k});
  return plan;
}

}  // namespace cuarray::ops
