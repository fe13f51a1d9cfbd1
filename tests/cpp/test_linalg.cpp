// The solvers' C++ side: the cuSOLVER tenant's loader (every listed symbol resolves in the toolkit's
// library; a missing library's error names it, where it looked and the pip command), the routine
// table and its override, NumPy's argument errors raised before any device work (no GPU needed),
// and, on a GPU, small problems with known answers for each routine.
#include <cmath>
#include <complex>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cuarray/errors.hpp"
#include "cuarray/linalg.hpp"
#include "device_arrays.hpp"
#include "expect_error.hpp"
#include "expect_missing_library.hpp"
#include "gpu_test.hpp"
#include "libs/cusolver.hpp"
#include "expect_compiles.hpp"
#include "ops/linalg/solvers/jacobi_svd.hpp"
#include "ops/linalg/solvers/routine_choice.hpp"
#include "runtime/shared_library.hpp"

namespace cuarray {
namespace {

using test::device_array;
using test::expect_error;
using test::host_values;

// A C-contiguous array over host memory that is never read: what the host-side checks see.
NDArray unbacked(Shape shape, DType dtype) {
  alignas(16) static char memory[1024];
  const auto item = static_cast<int64_t>(itemsize(dtype));
  return NDArray(nullptr, memory, shape, c_strides(shape, item), dtype);
}

void expect_near(const std::vector<double>& got, const std::vector<double>& expected, double tol = 1e-12) {
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], tol) << "element " << i;
}

TEST(CusolverLibrary, EveryListedFunctionResolvesWhereTheToolkitHasIt) {
  if (!std::filesystem::exists("/usr/local/cuda/lib64/libcusolver.so.12") &&
      !std::filesystem::exists("/usr/local/cuda/lib64/libcusolver.so.11"))
    GTEST_SKIP() << "no cuSOLVER in /usr/local/cuda/lib64";
  // Loading needs no GPU: this resolves the whole table (a missing symbol throws naming it).
  const libs::CusolverApi& api = libs::cusolver();
  EXPECT_NE(api.cusolverDnXgesvdp, nullptr);
  EXPECT_NE(api.cusolverDnXsyevBatched, nullptr);
  EXPECT_NE(api.cusolverDnZgesvdjBatched, nullptr);
}

TEST(CusolverLibrary, MissingLibraryErrorNamesItWhereAndHow) {
  runtime::LibrarySpec spec = libs::cusolver_library_spec();
  EXPECT_STREQ(spec.title, "cuSOLVER");
  ASSERT_FALSE(spec.sonames.empty());
  EXPECT_EQ(spec.sonames.front(), "libcusolver.so.12");
  test::expect_missing_library_error(spec, "libcusolver.so.0-not-there", "nvidia-cusolver");
}

TEST(LinalgRoutineChoice, TableAndOverride) {
  using linalg::choose_eigh_routine;
  using linalg::choose_svd_routine;
  EXPECT_EQ(choose_svd_routine(16, 16, 1000), linalg::SvdRoutine::JacobiSmall);
  EXPECT_EQ(choose_svd_routine(32, 8, 2), linalg::SvdRoutine::JacobiSmall);
  EXPECT_EQ(choose_svd_routine(16, 16, 1), linalg::SvdRoutine::JacobiSmall);
  EXPECT_EQ(choose_svd_routine(64, 3, 100), linalg::SvdRoutine::JacobiSmall);
  EXPECT_EQ(choose_svd_routine(64, 64, 1), linalg::SvdRoutine::Gesvdj);  // a single one: one block is too few
  EXPECT_EQ(choose_svd_routine(65, 16, 1000), linalg::SvdRoutine::Gesvdp);
  EXPECT_EQ(choose_svd_routine(4000, 1000, 1), linalg::SvdRoutine::Gesvdp);  // economy U (lstsq)
  EXPECT_EQ(choose_svd_routine(4000, 1000, 1, true), linalg::SvdRoutine::Gesvdj);  // full U
  EXPECT_EQ(choose_svd_routine(1000, 1000, 1, false), linalg::SvdRoutine::Gesvdp);
  EXPECT_EQ(choose_svd_routine(1500, 1000, 1), linalg::SvdRoutine::Gesvdp);
  EXPECT_EQ(choose_svd_routine(1000, 1000, 1), linalg::SvdRoutine::Gesvdp);
  EXPECT_EQ(choose_eigh_routine(16, 1000), linalg::EighRoutine::SyevBatched);
  EXPECT_EQ(choose_eigh_routine(256, 10), linalg::EighRoutine::SyevBatched);
  EXPECT_EQ(choose_eigh_routine(257, 10), linalg::EighRoutine::Syevd);
  EXPECT_EQ(choose_eigh_routine(2000, 1), linalg::EighRoutine::Syevd);
  linalg::force_routine("svd", "gesvd");
  EXPECT_EQ(choose_svd_routine(1000, 1000, 1), linalg::SvdRoutine::Gesvd);
  linalg::force_routine("svd", "gesvdj");
  EXPECT_EQ(choose_svd_routine(1000, 1000, 1), linalg::SvdRoutine::Gesvdj);
  linalg::force_routine("svd", "gesvdj_batched");
  EXPECT_EQ(choose_svd_routine(16, 16, 1), linalg::SvdRoutine::GesvdjBatched);
  EXPECT_EQ(choose_svd_routine(64, 64, 10), linalg::SvdRoutine::Gesvd);  // beyond what the batched routine takes
  linalg::force_routine("svd", "jacobi_small");
  EXPECT_EQ(choose_svd_routine(64, 64, 1), linalg::SvdRoutine::JacobiSmall);
  EXPECT_EQ(choose_svd_routine(65, 2, 10), linalg::SvdRoutine::Gesvd);  // beyond what the kernel takes
  linalg::force_routine("svd", "");
  EXPECT_EQ(choose_svd_routine(1000, 1000, 1), linalg::SvdRoutine::Gesvdp);
  linalg::force_routine("eigh", "syevd");
  EXPECT_EQ(choose_eigh_routine(16, 1000), linalg::EighRoutine::Syevd);
  linalg::force_routine("eigh", "");
  EXPECT_EQ(linalg::choose_lu_routine(64, 1000), linalg::LuRoutine::GetrfBatched);
  EXPECT_EQ(linalg::choose_lu_routine(64, 1), linalg::LuRoutine::Getrf);
  EXPECT_EQ(linalg::choose_lu_routine(4096, 2), linalg::LuRoutine::Getrf);
  linalg::force_routine("lu", "getrf");
  EXPECT_EQ(linalg::choose_lu_routine(64, 1000), linalg::LuRoutine::Getrf);
  linalg::force_routine("lu", "");
  expect_error(ErrorKind::Value, "no routine 'gesvdq' for linalg operation 'svd'",
               [] { linalg::force_routine("svd", "gesvdq"); });
}

TEST(LinalgArguments, NumpysErrorsBeforeAnyDeviceWork) {
  const NDArray vector = unbacked(Shape{3}, DType::Float64);
  const NDArray wide = unbacked(Shape{2, 3}, DType::Float64);
  const char* one_d = "1-dimensional array given. Array must be at least two-dimensional";
  const char* square = "Last 2 dimensions of the array must be square";
  expect_error(ErrorKind::LinAlg, one_d, [&] { linalg::inv(vector); });
  expect_error(ErrorKind::LinAlg, one_d, [&] { linalg::svd(vector); });
  expect_error(ErrorKind::LinAlg, one_d, [&] { linalg::qr(vector); });
  expect_error(ErrorKind::LinAlg, square, [&] { linalg::inv(wide); });
  expect_error(ErrorKind::LinAlg, square, [&] { linalg::det(wide); });
  expect_error(ErrorKind::LinAlg, square, [&] { linalg::cholesky(wide); });
  expect_error(ErrorKind::LinAlg, square, [&] { linalg::eig(wide); });
  expect_error(ErrorKind::LinAlg, square, [&] { linalg::svd(wide, true, true, /*hermitian=*/true); });
  expect_error(ErrorKind::Value, "UPLO argument must be 'L' or 'U'",
               [&] { linalg::eigh(unbacked(Shape{2, 2}, DType::Float64), 'X'); });
  expect_error(ErrorKind::Type, "array type float16 is unsupported in linalg",
               [&] { linalg::inv(unbacked(Shape{2, 2}, DType::Float16)); });
  expect_error(ErrorKind::Value,
               "solve1: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
               "(m,m),(m)->(m) (size 2 is different from 3)",
               [&] { linalg::solve(unbacked(Shape{3, 3}, DType::Float64), unbacked(Shape{2}, DType::Float64)); });
  expect_error(ErrorKind::LinAlg, "Incompatible dimensions",
               [&] { linalg::lstsq(unbacked(Shape{3, 2}, DType::Float64), unbacked(Shape{4}, DType::Float64)); });
  expect_error(ErrorKind::LinAlg, "3-dimensional array given. Array must be two-dimensional",
               [&] { linalg::lstsq(unbacked(Shape{2, 3, 2}, DType::Float64), unbacked(Shape{3}, DType::Float64)); });
  EXPECT_EQ(linalg::qr_mode_from_name("complete"), linalg::QrMode::Complete);
  EXPECT_FALSE(linalg::qr_mode_from_name("full").has_value());
}

TEST(JacobiSvd, KernelCompilesForEveryDType) {
  for (DType t : {DType::Float32, DType::Float64, DType::Complex64, DType::Complex128})
    test::expect_compiles(linalg::jacobi_svd_source(t), "jacobi svd " + std::string(dtype_name(t)),
                          test::LocalMemory::None);
}

TEST(JacobiSvd, BlockShapeGivesEveryPairAGroupOfWholeWarps) {
  for (int64_t rows = 1; rows <= 64; ++rows)
    for (int64_t cols = 1; cols <= rows; ++cols) {
      const linalg::JacobiBlockShape shape = linalg::jacobi_block_shape(rows, cols);
      const int lanes = shape.group_lanes;
      EXPECT_TRUE(lanes >= 1 && lanes <= 32 && (lanes & (lanes - 1)) == 0) << rows << "x" << cols;
      EXPECT_LE(rows, 2 * lanes) << rows << "x" << cols;  // at most two rows a lane
      EXPECT_TRUE(shape.threads >= 32 && shape.threads <= 256 && shape.threads % 32 == 0) << rows << "x" << cols;
      const int64_t pairs = (cols + 1) / 2;
      // Every pair of a step has its own group, unless the block is at its 8 warps.
      EXPECT_TRUE(shape.threads == 256 || shape.threads / lanes >= pairs) << rows << "x" << cols;
    }
  EXPECT_EQ(linalg::jacobi_block_shape(32, 32).group_lanes, 16);
  EXPECT_EQ(linalg::jacobi_block_shape(32, 32).threads, 256u);
  EXPECT_EQ(linalg::jacobi_block_shape(16, 16).group_lanes, 8);
  EXPECT_EQ(linalg::jacobi_block_shape(16, 16).threads, 64u);
  EXPECT_EQ(linalg::jacobi_block_shape(64, 64).group_lanes, 32);
  EXPECT_EQ(linalg::jacobi_block_shape(64, 64).threads, 256u);
}

TEST(LinalgErrorChecks, Switch) {
  EXPECT_TRUE(linalg::error_checks());
  linalg::set_error_checks(false);
  EXPECT_FALSE(linalg::error_checks());
  linalg::set_error_checks(true);
  EXPECT_TRUE(linalg::error_checks());
}

// ---- on a GPU: small problems with known answers ----------------------------------------------------

TEST(LinalgGpu, InvSolveDet) {
  CUARRAY_SKIP_WITHOUT_GPU();
  // a = [[4, 7], [2, 6]]: det 10, inverse [[0.6, -0.7], [-0.2, 0.4]].
  const NDArray a = device_array<double>({4, 7, 2, 6}, Shape{2, 2});
  expect_near(host_values<double>(linalg::inv(a)), {0.6, -0.7, -0.2, 0.4});
  expect_near(host_values<double>(linalg::det(a)), {10.0});
  // A row swap flips the sign; the transposed view gives the same determinant.
  expect_near(host_values<double>(linalg::det(device_array<double>({2, 6, 4, 7}, Shape{2, 2}))), {-10.0});
  expect_near(host_values<double>(linalg::det(a.transpose())), {10.0});
  // a x = [1, 2] -> x = [-0.8, 0.6].
  expect_near(host_values<double>(linalg::solve(a, device_array<double>({1, 2}))), {-0.8, 0.6});
  linalg::SlogdetResult r = linalg::slogdet(a);
  expect_near(host_values<double>(r.sign), {1.0});
  expect_near(host_values<double>(r.logabsdet), {std::log(10.0)});
  expect_error(ErrorKind::LinAlg, "Singular matrix",
               [] { linalg::inv(device_array<double>({1, 2, 2, 4}, Shape{2, 2})); });
  // A stack goes to cuBLAS's batched LU: the same answers, the swap's sign included.
  const NDArray stack = device_array<double>({4, 7, 2, 6, 2, 6, 4, 7}, Shape{2, 2, 2});
  expect_near(host_values<double>(linalg::det(stack)), {10.0, -10.0});
  expect_near(host_values<double>(linalg::inv(stack)), {0.6, -0.7, -0.2, 0.4, -0.7, 0.6, 0.4, -0.2});
  expect_near(host_values<double>(linalg::solve(stack, device_array<double>({1, 2}))), {-0.8, 0.6, 0.5, 0.0});
}

TEST(LinalgGpu, CholeskyQrEighSvd) {
  CUARRAY_SKIP_WITHOUT_GPU();
  // [[4, 2], [2, 5]] = L L^T with L = [[2, 0], [1, 2]].
  const NDArray spd = device_array<double>({4, 2, 2, 5}, Shape{2, 2});
  expect_near(host_values<double>(linalg::cholesky(spd)), {2, 0, 1, 2});
  expect_near(host_values<double>(linalg::cholesky(spd, /*upper=*/true)), {2, 1, 0, 2});
  expect_error(ErrorKind::LinAlg, "Matrix is not positive definite",
               [] { linalg::cholesky(device_array<double>({-1, 0, 0, 1}, Shape{2, 2})); });
  // eigh of [[2, 1], [1, 2]]: 1 and 3.
  linalg::EigResult e = linalg::eigh(device_array<double>({2, 1, 1, 2}, Shape{2, 2}));
  expect_near(host_values<double>(e.eigenvalues), {1, 3});
  // svd of diag(3, -4) (2 x 3 with a zero column): singular values 4, 3.
  linalg::SvdResult s = linalg::svd(device_array<double>({3, 0, 0, 0, -4, 0}, Shape{2, 3}));
  expect_near(host_values<double>(s.s), {4, 3});
  EXPECT_EQ(s.u.shape(), (Shape{2, 2}));
  EXPECT_EQ(s.vh.shape(), (Shape{3, 3}));
  // The Jacobi kernel: diag(3, -4) again and a rank-one 3 x 2 matrix, whose full U is completed.
  linalg::force_routine("svd", "jacobi_small");
  linalg::SvdResult j = linalg::svd(device_array<double>({3, 0, 0, 0, -4, 0}, Shape{2, 3}));
  expect_near(host_values<double>(j.s), {4, 3});
  // [[1, 2], [2, 4], [2, 4]] = [1, 2, 2]^T [1, 2]: singular values 3 sqrt(5) and 0.
  linalg::SvdResult r = linalg::svd(device_array<double>({1, 2, 2, 4, 2, 4}, Shape{3, 2}));
  linalg::force_routine("svd", "");
  const std::vector<double> rs = host_values<double>(r.s);
  EXPECT_NEAR(rs[0], 3 * std::sqrt(5.0), 1e-12);
  EXPECT_NEAR(rs[1], 0.0, 1e-12);
  const std::vector<double> u = host_values<double>(r.u);  // 3 x 3, C order: orthonormal columns
  ASSERT_EQ(u.size(), 9u);
  for (int p = 0; p < 3; ++p)
    for (int q = 0; q < 3; ++q) {
      double dot = 0;
      for (int i = 0; i < 3; ++i) dot += u[i * 3 + p] * u[i * 3 + q];
      EXPECT_NEAR(dot, p == q ? 1.0 : 0.0, 1e-12);
    }
  // qr of [[3], [4]]: |R| = 5.
  linalg::QrResult q = linalg::qr(device_array<double>({3, 4}, Shape{2, 1}));
  EXPECT_NEAR(std::abs(host_values<double>(q.second)[0]), 5.0, 1e-12);
}

}  // namespace
}  // namespace cuarray
