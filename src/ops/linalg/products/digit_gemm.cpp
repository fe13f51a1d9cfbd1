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
#include <string>

#include "jit/kernel_cache.hpp"
#include "jit/kernel_key.hpp"
#include "jit/kernel_source.hpp"
#include "kernels/fragments.hpp"
#include "ops/linalg/products/digit_plan.hpp"
#include "ops/linalg/products/gemm.hpp"
#include "runtime/context.hpp"
#include "runtime/launch.hpp"

namespace cuarray::ops {
namespace {

enum class DigitKernel : uint8_t { Planes, Sums };

runtime::Kernel digit_kernel(DigitKernel which, int64_t w, bool in_along_rows, bool out_along_rows) {
  jit::KernelKey key(jit::KernelFamily::DigitGemm);
  key.push(static_cast<uint8_t>(which)).push(static_cast<uint8_t>(w)).push(in_along_rows).push(out_along_rows);
  return jit::get_kernel(key, [&] {
    return jit::KernelSource{digit_gemm_source(w, in_along_rows, out_along_rows),
                             which == DigitKernel::Planes ? "cuarray_digit_planes" : "cuarray_digit_sums"};
  });
}

// Writes the planes of x (a stack of (rows, cols) matrices, element strides in mx) as `to` says.
void write_planes(const NDArray& x, const MatrixOperand& mx, const DigitPlanes& to, char* planes) {
  const int64_t w = x.itemsize(), rows = x.shape()[x.ndim() - 2], cols = x.shape()[x.ndim() - 1];
  // Each warp walks the axis of unit (or least) stride, in x and in the planes; never one of length 1.
  const bool in_along_rows = cols == 1 || (rows > 1 && std::llabs(mx.row_stride) < std::llabs(mx.col_stride));
  const bool out_along_rows = std::llabs(to.out_row) < std::llabs(to.out_col);
  const runtime::Kernel kernel = digit_kernel(DigitKernel::Planes, w, in_along_rows, out_along_rows);
  constexpr int64_t kMaxGridYZ = 65535;  // the kernel loops over what the grid does not cover
  const runtime::LaunchDims grid(static_cast<unsigned>((cols + 31) / 32),
                                 static_cast<unsigned>(std::min((rows + 31) / 32, kMaxGridYZ)),
                                 static_cast<unsigned>(std::min(to.count, kMaxGridYZ)));
  runtime::launch(kernel, {grid, runtime::LaunchDims(256)}, static_cast<const void*>(x.raw_data()),
                  static_cast<void*>(planes + to.digit0), rows, cols, to.count, to.source_batch, mx.row_stride,
                  mx.col_stride, to.out_batch, to.out_row, to.out_col, to.out_digit);
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
  const int64_t m = a.shape()[a.ndim() - 2], k = a.shape()[a.ndim() - 1], n = b.shape()[b.ndim() - 1];
  if (!digit_path_pays(c.itemsize(), shape_size(batch), m, k, n)) return false;
  const std::optional<DigitPlan> plan = plan_digit_gemm(c.itemsize(), m, k, n, batch, ma, mb);
  if (!plan) return false;
  runtime::activate(current_device());
  const NDArray a_planes = empty(Shape{plan->a.size}, DType::Int8), b_planes = empty(Shape{plan->b.size}, DType::Int8);
  char *pa = a_planes.raw_data(), *pb = b_planes.raw_data();
  // Every GEMM has the deepest one's layouts and a k that is a multiple of 4: one check covers all.
  if (!imma_fits(plan->gemm, pa + plan->a_offset(0), pb)) return false;
  write_planes(a, ma, plan->a, pa);
  write_planes(b, mb, plan->b, pb);
  const int64_t size = plan->count * m * n;
  const NDArray sums = empty(Shape{plan->w, size}, DType::Int32);
  for (int64_t s = 0; s < plan->w; ++s) {
    // Only the first call can be declined (the others have its layouts); C is untouched either way.
    if (!cublas_int8_gemm(plan->step(s), pa + plan->a_offset(s), pb, sums.raw_data() + s * size * 4)) return false;
  }
  const runtime::Kernel combine = digit_kernel(DigitKernel::Sums, plan->w, false, false);
  constexpr int64_t kMaxBlocks = int64_t{1} << 20;  // the kernel loops over what the grid does not cover
  runtime::launch(combine,
                  {runtime::LaunchDims(static_cast<unsigned>(std::min((size + 255) / 256, kMaxBlocks))), runtime::LaunchDims(256)},
                  static_cast<const void*>(sums.raw_data()), static_cast<void*>(c.raw_data()), size);
  return true;
}

}  // namespace cuarray::ops
