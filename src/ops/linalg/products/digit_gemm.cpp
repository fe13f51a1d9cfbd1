// 16- to 64-bit integer products on the int8 tensor-core GEMM (docs/linalg.md). With w-byte
// elements and the bias y = x + 0x80..80 (w bytes, wrapping), the digits d_i = byte_i(y) - 128 are
// int8 and x == sum_i d_i 256^i (mod 2^(8w)), so
//   A @ B == sum_{s < w} 256^s sum_{i + j = s} A_i @ B_j   (mod 2^(8w)),
// the pairs i + j >= w vanishing modulo 2^(8w). For each s, sum_{i+j=s} A_i @ B_j is one int8 GEMM
// whose k runs over the digit blocks side by side: A's planes are laid out (m, w, k) with the
// digits in reverse order, so [A_s .. A_0] is a strided (m, (s+1) k) view, and B's transposed,
// (n, w, k), so [B_0; ..; B_s] is the transpose of a strided (n, (s+1) k) view. Both operands are
// k-contiguous, the layout the int8 tensor-core kernels read (cuBLAS's "TN"). Sums of at most
// (s+1) k products of magnitude <= 2^14 stay exact in int32 when w k < 2^17.
//
// Three kinds of launch (kernels/digit_gemm.cuh): one pass per operand writes its planes (a stack
// of them for a strided batch), w GEMMs write w int32 sums side by side, and one pass widens,
// shifts and adds them into C. cuBLAS cannot do the adding itself: its int32 epilogue (alpha =
// 256^s, beta = 1) has no documented wraparound, and 64-bit results need 64-bit sums anyway.
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>

#include "jit/kernel_cache.hpp"
#include "jit/kernel_key.hpp"
#include "jit/kernel_source.hpp"
#include "kernels/fragments.hpp"
#include "ops/linalg/products/gemm.hpp"
#include "runtime/context.hpp"
#include "runtime/launch.hpp"

namespace cuarray::ops {
namespace {

constexpr int64_t kMaxDigitBlock = int64_t{1} << 17;  // w * k below this: int32 sums are exact
// batch m n k below this (256^3): one SIMT launch is cheaper than the w + 3 launches and the
// passes of the digit path (an estimate: docs/linalg.md says what is measured).
constexpr int64_t kMinWork = int64_t{1} << 24;

enum class DigitKernel : uint8_t { Planes, Sums };

runtime::Kernel digit_kernel(DigitKernel which, int64_t w, bool in_along_rows, bool out_along_rows) {
  jit::KernelKey key(jit::KernelFamily::DigitGemm);
  key.push(static_cast<uint8_t>(which)).push(static_cast<uint8_t>(w)).push(in_along_rows).push(out_along_rows);
  return jit::get_kernel(key, [&] {
    return jit::KernelSource{digit_gemm_source(w, in_along_rows, out_along_rows),
                             which == DigitKernel::Planes ? "cuarray_digit_planes" : "cuarray_digit_sums"};
  });
}

// The single strided batch (element stride; 0 when broadcast, so one matrix serves every GEMM of
// the batch) that an operand's batch strides over `batch` describe, or nullopt where its dims do
// not coalesce into one (a partly broadcast operand).
std::optional<int64_t> batch_stride(const Shape& batch, const Strides& strides) {
  std::optional<int64_t> inner;  // the stride of the innermost dim of size > 1 seen so far
  int64_t span = 1;              // the elements of the coalesced dims below
  bool broadcast = true;
  for (size_t d = batch.size(); d-- > 0;) {
    if (batch[d] == 1) continue;
    if (!inner) {
      inner = strides[d];
      broadcast = strides[d] == 0;
    } else if (strides[d] != (broadcast ? 0 : *inner * span)) {
      return std::nullopt;
    }
    span *= batch[d];
  }
  return inner.value_or(0);
}

// One operand's digit planes: `count` (rows, cols) matrices of x (element strides), digit i of
// element (z, r, c) at planes + z * out_batch + r * out_row + c * out_col + i * out_digit.
struct PlaneLayout {
  int64_t out_batch, out_row, out_col, out_digit;
};

void write_planes(const NDArray& x, const MatrixOperand& mx, int64_t count, int64_t stride, int8_t* planes,
                  const PlaneLayout& layout) {
  const int64_t w = x.itemsize(), rows = x.shape()[x.ndim() - 2], cols = x.shape()[x.ndim() - 1];
  const bool in_along_rows = std::llabs(mx.row_stride) < std::llabs(mx.col_stride);
  const bool out_along_rows = std::llabs(layout.out_row) < std::llabs(layout.out_col);
  const runtime::Kernel kernel = digit_kernel(DigitKernel::Planes, w, in_along_rows, out_along_rows);
  constexpr int64_t kMaxGridYZ = 65535;  // the kernel loops over what the grid does not cover
  const runtime::LaunchDims grid(static_cast<unsigned>((cols + 31) / 32),
                                 static_cast<unsigned>(std::min((rows + 31) / 32, kMaxGridYZ)),
                                 static_cast<unsigned>(std::min(count, kMaxGridYZ)));
  runtime::launch(kernel, {grid, runtime::LaunchDims(256)}, static_cast<const void*>(x.raw_data()), planes, rows,
                  cols, count, stride, mx.row_stride, mx.col_stride, layout.out_batch, layout.out_row,
                  layout.out_col, layout.out_digit);
}

}  // namespace

std::string digit_gemm_source(int64_t w, bool in_along_rows, bool out_along_rows) {
  const char* unsigned_name = w == 2 ? "uint16_t" : w == 4 ? "uint32_t" : "uint64_t";
  std::string s(kernels::prelude_cuh);
  s += "typedef " + std::string(unsigned_name) + " elem_t;\n";
  s += w == 8 ? "typedef uint64_t acc_t;\n" : "typedef uint32_t acc_t;\n";
  s += "constexpr int W = " + std::to_string(w) + ";\n";
  s += "constexpr elem_t kBias = static_cast<elem_t>(0x8080808080808080ull);\n";
  s += "constexpr bool kInAlongRows = " + std::string(in_along_rows ? "true" : "false") + ";\n";
  s += "constexpr bool kOutAlongRows = " + std::string(out_along_rows ? "true" : "false") + ";\n";
  s += kernels::digit_gemm_cuh;
  return s;
}

bool digit_gemm(const NDArray& a, const MatrixOperand& ma, const NDArray& b, const MatrixOperand& mb,
                const NDArray& c, const Shape& batch) {
  const int64_t w = c.itemsize(), m = a.shape()[a.ndim() - 2], k = a.shape()[a.ndim() - 1];
  const int64_t n = b.shape()[b.ndim() - 1], count = shape_size(batch);
  if (w < 2 || n % 4 != 0 || k % 4 != 0 || w * k >= kMaxDigitBlock || count * m * n * k < kMinWork) return false;
  const std::optional<int64_t> sa = batch_stride(batch, ma.batch_strides), sb = batch_stride(batch, mb.batch_strides);
  if (!sa || !sb) return false;
  // Planes of a broadcast operand are written once and read with batch stride 0.
  const int64_t count_a = *sa == 0 ? 1 : count, count_b = *sb == 0 ? 1 : count;
  const int64_t plane_a = m * w * k, plane_b = n * w * k;
  const GemmPlan first = plan_gemm(m, k, n, Shape{count}, MatrixOperand{{*sa == 0 ? 0 : plane_a}, w * k, 1},
                                   MatrixOperand{{*sb == 0 ? 0 : plane_b}, 1, w * k});
  runtime::activate(current_device());
  NDArray a_planes = empty(Shape{count_a * plane_a}, DType::Int8);
  NDArray b_planes = empty(Shape{count_b * plane_b}, DType::Int8);
  int8_t* pa = reinterpret_cast<int8_t*>(a_planes.raw_data());
  int8_t* pb = reinterpret_cast<int8_t*>(b_planes.raw_data());
  if (!imma_fits(first, reinterpret_cast<char*>(pa), reinterpret_cast<char*>(pb))) return false;
  // A's planes (count, m, w, k) with A_{w-1} first; B's (count, n, w, k), B_0^T first.
  write_planes(a, ma, count_a, *sa, pa + (w - 1) * k, {plane_a, w * k, 1, -k});
  write_planes(b, mb, count_b, *sb, pb, {plane_b, 1, w * k, k});
  const int64_t size = count * m * n;
  NDArray sums = empty(Shape{w, size}, DType::Int32);
  for (int64_t s = 0; s < w; ++s) {
    // [A_s .. A_0] (m, (s+1) k, rows w k apart) @ [B_0; ..; B_s] ((s+1) k, n, columns w k apart).
    const GemmPlan plan = plan_gemm(m, (s + 1) * k, n, Shape{count}, MatrixOperand{{*sa == 0 ? 0 : plane_a}, w * k, 1},
                                    MatrixOperand{{*sb == 0 ? 0 : plane_b}, 1, w * k});
    const char* a_at = reinterpret_cast<const char*>(pa + (w - 1 - s) * k);
    if (!imma_fits(plan, a_at, reinterpret_cast<const char*>(pb)) ||
        !cublas_int8_gemm(plan, a_at, reinterpret_cast<const char*>(pb), sums.raw_data() + s * size * 4)) {
      // Only the first call can be declined (same layouts, deeper k): nothing was written to C.
      return false;
    }
  }
  const runtime::Kernel combine = digit_kernel(DigitKernel::Sums, w, false, false);
  constexpr int64_t kMaxBlocks = int64_t{1} << 20;
  runtime::launch(combine, {runtime::LaunchDims(static_cast<unsigned>(std::min((size + 255) / 256, kMaxBlocks))),
                            runtime::LaunchDims(256)},
                  static_cast<const void*>(sums.raw_data()), static_cast<void*>(c.raw_data()), size);
  return true;
}

}  // namespace cuarray::ops
