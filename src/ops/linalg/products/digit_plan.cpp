#include "ops/linalg/products/digit_plan.hpp"

#include <algorithm>

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

bool digit_path_pays(int64_t w, int64_t count, int64_t m, int64_t k, int64_t n, const DigitCostModel& model) {
  const double c = static_cast<double>(count), dm = static_cast<double>(m), dk = static_cast<double>(k),
               dn = static_cast<double>(n), dw = static_cast<double>(w);
  const double bytes = c * (2 * dw * (dm * dk + dk * dn) + 8 * dw * dm * dn + dw * dm * dn);
  const double digit = (dw + 3) * model.launch_s + bytes / model.bandwidth +
                       dw * (dw + 1) / 2 * c * dm * dn * dk / model.imma_rate;
  const int64_t tile = w == 8 ? 64 : 128;
  const double padded_m = static_cast<double>((m + tile - 1) / tile), padded_n = static_cast<double>((n + tile - 1) / tile);
  const double tiles = c * padded_m * padded_n;
  const double rate = (w == 8 ? model.simt_rate_64 : model.simt_rate_32) * std::min(1.0, tiles / (2 * model.sms));
  const double simt = model.launch_s + tiles * tile * tile * dk / rate;
  return digit < simt;
}

std::optional<DigitPlan> plan_digit_gemm(int64_t w, int64_t m, int64_t k, int64_t n, const Shape& batch,
                                         const MatrixOperand& a, const MatrixOperand& b) {
  const int64_t count = shape_size(batch);
  if (w < 2 || n % 4 != 0 || k % 4 != 0 || w * k >= kMaxDigitDepth) return std::nullopt;
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
  // Planned at the deepest GEMM's depth, w k: a single row (m = 1) gets its ld from the depth.
  plan.gemm = plan_gemm(m, w * k, n, Shape{count}, MatrixOperand{{count_a == 1 ? 0 : matrix_a}, w * k, 1},
                        MatrixOperand{{count_b == 1 ? 0 : matrix_b}, 1, w * k});
  return plan;
}

}  // namespace cuarray::ops
