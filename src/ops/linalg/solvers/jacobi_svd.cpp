// The batched one-sided Jacobi SVD: one NVRTC kernel per dtype (kernels/jacobi_svd.cuh), launched
// with one block per matrix. The matrix and V live in dynamic shared memory: up to 128 KB for a
// 64 x 64 complex128 matrix with its V, above the 48 KB a launch gets by default, so the kernel is
// given the opt-in limit when a launch needs more.
#include "ops/linalg/solvers/jacobi_svd.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "jit/kernel_cache.hpp"
#include "jit/kernel_key.hpp"
#include "jit/kernel_source.hpp"
#include "kernels/fragments.hpp"
#include "ops/linalg/solvers/routine_choice.hpp"
#include "runtime/context.hpp"
#include "runtime/driver.hpp"
#include "runtime/launch.hpp"

namespace cuarray::linalg {
namespace {

// LAPACK gesvj's sweep cap; a matrix that needs more goes to the fallback routine.
constexpr int kMaxSweeps = 30;
constexpr unsigned kDefaultSharedBytes = 48 * 1024;
// An upper bound of the kernel's static shared arrays (ptxas: 3424 bytes for complex128), which
// count against the same 48 KB.
constexpr unsigned kStaticSharedBytes = 4 * 1024;

runtime::Kernel jacobi_svd_kernel(DType dtype) {
  jit::KernelKey key(jit::KernelFamily::JacobiSvd);
  key.push(static_cast<uint8_t>(dtype));
  return jit::get_kernel(key, [&] { return jit::KernelSource{jacobi_svd_source(dtype), "cuarray_jacobi_svd"}; });
}

}  // namespace

// The kernel holds at most two rows of a column a lane, of groups of at most 32 lanes.
static_assert(kSmallJacobiMaxSize <= 2 * 32, "jacobi_block_shape gives a lane at most two rows");

JacobiBlockShape jacobi_block_shape(int64_t rows, int64_t cols) {
  // Half the rows rounded up to a power of two: two rows a lane, so the shuffle sums of a pair
  // take one level fewer than a full warp's and a warp rotates several short pairs at once.
  int lanes = 1;
  while (lanes < 32 && 2 * lanes < rows) lanes *= 2;
  // Enough threads for every pair of a step to have its group, at most 8 warps.
  const int64_t pairs = std::max<int64_t>((cols + 1) / 2, 1);
  const int64_t warps = std::clamp<int64_t>((pairs * lanes + 31) / 32, 1, 8);
  return {static_cast<unsigned>(32 * warps), lanes};
}

std::string jacobi_svd_source(DType dtype) {
  const bool single = real_dtype(dtype) == DType::Float32;
  // complex.cuh even for real dtypes: the kernel's helpers are overloaded on both.
  std::string s;
  for (std::string_view fragment : {kernels::prelude_cuh, kernels::common_cuh, kernels::complex_cuh}) {
    s += fragment;
    s += '\n';
  }
  s += "typedef " + std::string(jit::kernel_type_name(dtype)) + " elem_t;\n";
  s += single ? "typedef float real_t;\n" : "typedef double real_t;\n";
  s += "constexpr int kMaxSize = " + std::to_string(kSmallJacobiMaxSize) + ";\n";
  // The smallest normal number: a column norm below it has no reliable direction.
  s += single ? "constexpr real_t kTinyNorm = 1.17549435e-38f;\nconstexpr real_t kEpsilon = 1.1920929e-07f;\n"
              : "constexpr real_t kTinyNorm = 2.2250738585072014e-308;\nconstexpr real_t kEpsilon = 2.220446049250313e-16;\n";
  s += kernels::jacobi_svd_cuh;
  return s;
}

void jacobi_svd(const ColumnMajorStack& m, void* s, ColumnMajorStack* u, ColumnMajorStack* v, int* status) {
  const DType dtype = m.dtype();
  const int64_t rows = m.rows(), cols = m.cols();
  const bool want_vectors = u != nullptr;
  runtime::activate(current_device());
  const runtime::Kernel kernel = jacobi_svd_kernel(dtype);
  const unsigned shared_bytes =
      static_cast<unsigned>((rows * cols + (want_vectors ? cols * cols : 0)) * itemsize(dtype));
  if (shared_bytes + kStaticSharedBytes > kDefaultSharedBytes)
    CU_CALL(cuFuncSetAttribute, kernel.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            static_cast<int>(shared_bytes));
  // LAPACK gesvj's threshold: a pair is orthogonal when its cosine is below sqrt(rows) * eps.
  const double eps = real_dtype(dtype) == DType::Float32 ? std::numeric_limits<float>::epsilon()
                                                         : std::numeric_limits<double>::epsilon();
  const double tol = std::sqrt(static_cast<double>(rows)) * eps;
  constexpr int64_t kMaxGrid = 2147483647;  // the kernel loops over what the grid does not cover
  const JacobiBlockShape shape = jacobi_block_shape(rows, cols);
  runtime::LaunchConfig config{runtime::LaunchDims(static_cast<unsigned>(std::min(m.batch(), kMaxGrid))),
                               runtime::LaunchDims(shape.threads), shared_bytes};
  void* pu = want_vectors ? u->matrix(0) : nullptr;
  void* pv = want_vectors ? v->matrix(0) : nullptr;
  const int u_cols = want_vectors ? static_cast<int>(u->cols()) : static_cast<int>(cols);
  const int r = static_cast<int>(rows), c = static_cast<int>(cols), vectors = want_vectors ? 1 : 0;
  const int sweeps = kMaxSweeps;
  const void* a = m.matrix(0);
  if (real_dtype(dtype) == DType::Float32)
    runtime::launch(kernel, config, a, s, pu, pv, status, r, c, u_cols, vectors, sweeps, static_cast<float>(tol),
                    shape.group_lanes, m.batch());
  else
    runtime::launch(kernel, config, a, s, pu, pv, status, r, c, u_cols, vectors, sweeps, tol, shape.group_lanes,
                    m.batch());
}

}  // namespace cuarray::linalg
