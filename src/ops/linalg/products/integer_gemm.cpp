// Exact products of bool and the integer dtypes: one NVRTC kernel family (kernels/integer_gemm.cuh)
// keyed by dtype and the two op flags, taking a GemmPlan's column-major arguments as cuBLAS does.
// Sums are taken in 32-bit unsigned arithmetic (64-bit for 64-bit dtypes), whose low bits are
// NumPy's wrapped-around result. Tiles: 128 x 128 with 8 x 8 per thread for elements up to 32
// bits, 64 x 64 with 4 x 4 for 64-bit ones (twice the registers per accumulator).
#include <algorithm>
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

struct Tiling {
  int bm, bn, bk, tm, tn;
};

Tiling tiling_for(DType t) { return itemsize(t) == 8 ? Tiling{64, 64, 16, 4, 4} : Tiling{128, 128, 8, 8, 8}; }

}  // namespace

std::string integer_gemm_source(DType t, bool trans_a, bool trans_b) {
  const Tiling tile = tiling_for(t);
  std::string s(kernels::prelude_cuh);
  s += "typedef " + std::string(jit::kernel_type_name(t)) + " elem_t;\n";
  s += itemsize(t) == 8 ? "typedef uint64_t acc_t;\n" : "typedef uint32_t acc_t;\n";
  s += "constexpr bool kTransA = " + std::string(trans_a ? "true" : "false") + ";\n";
  s += "constexpr bool kTransB = " + std::string(trans_b ? "true" : "false") + ";\n";
  s += "constexpr bool kBool = " + std::string(t == DType::Bool ? "true" : "false") + ";\n";
  s += "constexpr int BM = " + std::to_string(tile.bm) + ", BN = " + std::to_string(tile.bn) +
       ", BK = " + std::to_string(tile.bk) + ", TM = " + std::to_string(tile.tm) + ", TN = " + std::to_string(tile.tn) + ";\n";
  s += kernels::integer_gemm_cuh;
  return s;
}

namespace {

runtime::Kernel integer_gemm_kernel(DType t, bool trans_a, bool trans_b) {
  jit::KernelKey key(jit::KernelFamily::IntegerGemm);
  key.push(static_cast<uint8_t>(t)).push(trans_a).push(trans_b);
  return jit::get_kernel(key, [&] {
    return jit::KernelSource{integer_gemm_source(t, trans_a, trans_b), "cuarray_integer_gemm"};
  });
}

}  // namespace

void integer_gemm(const GemmPlan& plan, DType dtype, const char* a, const char* b, char* c) {
  runtime::activate(current_device());
  const runtime::Kernel kernel = integer_gemm_kernel(dtype, plan.a.transpose, plan.b.transpose);
  const Tiling tile = tiling_for(dtype);
  constexpr int64_t kMaxGridYZ = 65535;  // the kernel loops over what the grid does not cover
  const runtime::LaunchDims grid(static_cast<unsigned>((plan.n + tile.bn - 1) / tile.bn),
                                 static_cast<unsigned>(std::min((plan.m + tile.bm - 1) / tile.bm, kMaxGridYZ)),
                                 static_cast<unsigned>(std::min(plan.batch_count, kMaxGridYZ)));
  const int64_t item = itemsize(dtype);
  for_each_outer_batch(plan, item, a, b, c, [&](const char* na, const char* nb, char* nc) {
    // The GEMM's A' is NumPy's B and its B' NumPy's A (gemm_plan.hpp).
    runtime::launch(kernel, {grid, runtime::LaunchDims(256)}, nb, na, nc, plan.m, plan.n, plan.k, plan.a.ld,
                    plan.b.ld, plan.c.ld, plan.a.batch_stride, plan.b.batch_stride, plan.c.batch_stride,
                    plan.batch_count);
  });
}

}  // namespace cuarray::ops
