// How a wide-integer product runs as int8 tensor-core GEMMs of base-256 digits (digit_gemm.cpp):
// where each operand's digit planes go, and the w GEMMs over them. Host logic, tested without a GPU
// by running the plan on host memory (tests/cpp/test_matmul.cpp).
#pragma once
#include <cstdint>
#include <optional>

#include "cuarray/shape.hpp"
#include "ops/linalg/products/gemm_plan.hpp"

namespace cuarray::ops {

// One operand's planes: `count` (rows, cols) matrices read `source_batch` elements apart; digit i
// of element (z, r, c) is the byte at digit0 + z * out_batch + r * out_row + c * out_col +
// i * out_digit of a buffer of `size` bytes.
struct DigitPlanes {
  int64_t count = 1, source_batch = 0;
  int64_t digit0 = 0, out_batch = 0, out_row = 0, out_col = 0, out_digit = 0;
  int64_t size = 0;
};

struct DigitPlan {
  int64_t w = 0, count = 1, k = 0;  // element bytes; C's batch size; NumPy's k
  DigitPlanes a, b;  // A's planes (count, m, w, k), high digit first; B's (count, n, w, k), low first
  GemmPlan gemm;     // GEMM w-1 (depth w k); GEMM s differs only in its depth and where A starts

  // GEMM s (s < w): int32 sums of [A_s .. A_0] @ [B_0; ..; B_s], NumPy's A read from a_offset(s)
  // bytes into A's planes, NumPy's B from the start of B's.
  GemmPlan step(int64_t s) const {
    GemmPlan p = gemm;
    p.k = (s + 1) * k;
    return p;
  }
  int64_t a_offset(int64_t s) const { return a.digit0 + s * a.out_digit; }
};

// w k below this: every int32 sum of at most w k products of magnitude <= 2^14 is exact.
constexpr int64_t kMaxDigitDepth = int64_t{1} << 17;

// The estimate that picks the digit path over the SIMT integer kernel (integer_gemm.cpp) for a
// stack of `count` (m, k) @ (k, n) products of w-byte integers:
//   digit = (w + 3) launches + its bytes / bandwidth + w (w + 1) / 2 count m n k / imma_rate,
//     bytes = count (2 w (m k + k n) for the planes + 8 w m n for the sums + w m n for C)
//   SIMT  = 1 launch + count m' n' k / (simt_rate min(1, tiles / (2 sms))),
//     m', n' rounded up to its tile (128, 64 for 8-byte elements); few tiles leave SMs idle.
// The rates are datasheet-derived guesses for an H100/H200 until measured (docs/linalg.md names
// the benchmark pair that places the crossing).
struct DigitCostModel {
  double launch_s = 5e-6;          // one launch, cuBLAS's included
  double bandwidth = 3.0e12;       // bytes/s of the planes and sums passes
  double imma_rate = 6e14;         // int8 multiply-adds/s of cuBLAS's tensor-core GEMMs
  double simt_rate_32 = 8e12;      // multiply-adds/s of the SIMT kernel, up to 4-byte elements
  double simt_rate_64 = 2e12;      // the same for 8-byte elements (64-bit multiplies are emulated)
  double sms = 132;
};
bool digit_path_pays(int64_t w, int64_t count, int64_t m, int64_t k, int64_t n, const DigitCostModel& model = {});

// The single strided batch that an operand's broadcast batch strides over `batch` describe: its
// element stride (0 when the operand is broadcast along all of it), or nullopt when the dims do not
// coalesce into one (a partly broadcast operand, a transposed stack).
std::optional<int64_t> single_batch_stride(const Shape& batch, const Strides& strides);

// The digit plan of C = A @ B (C C-ordered, (batch..., m, n)) for w-byte integers (w = 2, 4, 8),
// or nullopt where it does not apply: n or k not a multiple of 4 (cuBLAS's int8 rules), w k too
// deep for exact sums, an operand's batch not one strided batch. Whether it pays is
// digit_path_pays's question.
std::optional<DigitPlan> plan_digit_gemm(int64_t w, int64_t m, int64_t k, int64_t n, const Shape& batch,
                                         const MatrixOperand& a, const MatrixOperand& b);

}  // namespace cuarray::ops
