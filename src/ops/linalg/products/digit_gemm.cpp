// 16- to 64-bit integer products on the int8 tensor-core GEMM (docs/linalg.md). With w-byte
// elements and the bias y = x + 0x80..80 (w bytes, wrapping), the digits d_i = byte_i(y) - 128 are
// int8 and x == sum_i d_i 256^i (mod 2^(8w)), so
//   A @ B == sum_{s < w} 256^s sum_{i + j = s} A_i @ B_j   (mod 2^(8w)),
// the pairs i + j >= w vanishing modulo 2^(8w). For each s, sum_{i+j=s} A_i @ B_j is one int8 GEMM
// whose k runs over the digit blocks side by side: A's planes are laid out (m, w, k) with the
// digits in reverse order, so [A_s .. A_0] is a strided (m, (s+1) k) view, and B's transposed,
// (n, w, k), so [B_0; ..; B_s] is the transpose of a strided (n, (s+1) k) view. Both operands are
// k-contiguous, the layout the int8 tensor-core kernels read (cuBLAS's "TN"). Sums of at most (s+1) k products of magnitude <= 2^14
// stay exact in int32 when w k < 2^17; they are widened, shifted by 8 s bits and added in the
// result's unsigned type, whose wraparound is NumPy's.
#include <algorithm>

#include "cuarray/ufunc.hpp"
#include "ops/linalg/products/gemm.hpp"

namespace cuarray::ops {
namespace {

constexpr int64_t kMaxDigitBlock = int64_t{1} << 17;  // w * k below this: int32 sums are exact
constexpr int64_t kMinWork = int64_t{1} << 24;        // m n k below this (256^3): one SIMT launch is cheaper than ~20 digit passes

DType unsigned_of(int64_t bytes) {
  return bytes == 2 ? DType::UInt16 : bytes == 4 ? DType::UInt32 : DType::UInt64;
}

// The int8 digits of the (rows, cols) matrix x, as a C-ordered uint8 array whose axes are those
// of (rows, cols, digit) permuted by `perm`; with `high_first` the digit axis runs from the most
// significant digit down.
NDArray digit_planes(const NDArray& x, const Axes& perm, bool high_first) {
  static const Ufunc& add = ufunc("add");
  static const Ufunc& bitwise_xor = ufunc("bitwise_xor");
  const int64_t w = x.itemsize();
  const uint64_t bias = 0x8080808080808080ull >> (64 - 8 * w);
  NDArray biased = apply(add, {Operand::of(x.view(unsigned_of(w))), Operand::of(Scalar::from_uint(bias))});
  if (!biased.c_contiguous()) biased = biased.copy(Order::C);
  NDArray planes = biased.view(DType::UInt8).reshape(Shape{x.shape()[0], x.shape()[1], w}).transpose(perm);
  if (high_first) {
    const int axis = static_cast<int>(std::find(perm.begin(), perm.end(), 2) - perm.begin());
    Strides strides = planes.strides();
    char* high = planes.raw_data() + (w - 1) * strides[axis];
    strides[axis] = -strides[axis];
    planes = planes.view_as(planes.shape(), strides, high);
  }
  // d_i = byte_i(y) - 128 is byte_i(y) ^ 0x80 read as int8.
  NDArray out = empty(planes.shape(), DType::UInt8);
  const Operand in[2] = {Operand::of(planes), Operand::of(Scalar::from_int(0x80))};
  NDArray* outs[1] = {&out};
  bitwise_xor(std::span<const Operand>(in, 2), std::span<NDArray* const>(outs, 1));
  return out;
}

}  // namespace

bool digit_gemm(const NDArray& a, const NDArray& b, const NDArray& c) {
  const int64_t w = a.itemsize(), m = a.shape()[0], k = a.shape()[1], n = b.shape()[1];
  if (w < 2 || n % 4 != 0 || k % 4 != 0 || w * k >= kMaxDigitBlock || m * n * k < kMinWork) return false;
  static const Ufunc& add = ufunc("add");
  static const Ufunc& left_shift = ufunc("left_shift");
  const DType u = unsigned_of(w);
  const NDArray a_planes = digit_planes(a, Axes{0, 2, 1}, true);   // (m, w, k): A_{w-1} .. A_0
  const NDArray b_planes = digit_planes(b, Axes{1, 2, 0}, false);  // (n, w, k): B_0^T .. B_{w-1}^T
  NDArray sums = empty(Shape{m, n}, DType::Int32);
  NDArray total;
  for (int64_t s = 0; s < w; ++s) {
    // [A_s .. A_0] (m, (s+1) k, rows w k apart) @ [B_0; ..; B_s] ((s+1) k, n, columns w k apart).
    const int64_t depth = (s + 1) * k;
    const GemmPlan plan = plan_gemm(m, depth, n, {}, MatrixOperand{{}, w * k, 1}, MatrixOperand{{}, 1, w * k});
    const char* a_at = a_planes.raw_data() + (w - 1 - s) * k;
    const char* b_at = b_planes.raw_data();
    if (!imma_fits(plan, a_at, b_at) || !cublas_int8_gemm(plan, a_at, b_at, sums.raw_data())) return false;
    NDArray term = sums.astype(u);  // exact sums, widened or wrapped to the result's width
    if (s > 0) term = apply(left_shift, {Operand::of(term), Operand::of(Scalar::from_int(8 * s))});
    total = s == 0 ? term : apply(add, {Operand::of(total), Operand::of(term)});
  }
  NDArray target = c;
  target.assign(total.view(c.dtype()));
  return true;
}

}  // namespace cuarray::ops
