// matmul's GEMM planning (host logic: op flags, leading dimensions, batch strides, when a copy is
// needed) without a GPU, and matmul/dot/tensordot against NumPy's values on one.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "cuarray/products.hpp"
#include "device_arrays.hpp"
#include "expect_error.hpp"
#include "expect_compiles.hpp"
#include "gpu_test.hpp"
#include "libs/cublas.hpp"
#include "ops/linalg/products/digit_plan.hpp"
#include "ops/linalg/products/gemm.hpp"
#include "ops/linalg/products/gemm_plan.hpp"

namespace cuarray {
namespace {

using ops::BlasOperand;
using ops::GemmPlan;
using ops::MatrixOperand;
using ops::plan_gemm;
using ops::transposed_view;

TEST(GemmPlan, TransposedViewOfEachLayout) {
  // A C-ordered (3, 5) matrix is its transpose stored column-major: op N, ld 5.
  EXPECT_EQ(transposed_view(3, 5, 5, 1), (BlasOperand{false, 5, 0}));
  // Rows padded (a[:, :5] of a (3, 8) array): ld is the row stride.
  EXPECT_EQ(transposed_view(3, 5, 8, 1), (BlasOperand{false, 8, 0}));
  // An F-ordered (3, 5) matrix (a C-ordered (5, 3) transposed) is stored column-major: op T, ld 3.
  EXPECT_EQ(transposed_view(3, 5, 1, 3), (BlasOperand{true, 3, 0}));
  // Both strides > 1 (a[::2, ::2]), negative strides (a[::-1]), overlapping rows: no layout.
  EXPECT_FALSE(transposed_view(3, 5, 20, 2));
  EXPECT_FALSE(transposed_view(3, 5, -5, 1));
  EXPECT_FALSE(transposed_view(3, 5, 2, 1));
  EXPECT_FALSE(transposed_view(3, 5, 0, 1));
  // Length-1 dims never stand in the way, whatever their stride.
  EXPECT_EQ(transposed_view(1, 5, -7, 1), (BlasOperand{false, 5, 0}));
  EXPECT_EQ(transposed_view(4, 1, 3, 99), (BlasOperand{false, 3, 0}));
  EXPECT_EQ(transposed_view(1, 1, -1, -1), (BlasOperand{false, 1, 0}));
  EXPECT_FALSE(transposed_view(4, 1, 0, 1));  // a broadcast column: its rows alias
}

TEST(GemmPlan, SingleProductSwapsOperands) {
  // (2, 3) @ (3, 4), both C-ordered: cuBLAS computes C^T (4 x 2) = B^T A^T.
  const GemmPlan p = plan_gemm(2, 3, 4, {}, {{}, 3, 1}, {{}, 4, 1});
  EXPECT_FALSE(p.copy_a || p.copy_b);
  EXPECT_EQ(p.m, 4);
  EXPECT_EQ(p.n, 2);
  EXPECT_EQ(p.k, 3);
  EXPECT_EQ(p.a, (BlasOperand{false, 4, 0}));  // NumPy's B
  EXPECT_EQ(p.b, (BlasOperand{false, 3, 0}));  // NumPy's A
  EXPECT_EQ(p.c, (BlasOperand{false, 4, 8}));
  EXPECT_EQ(p.batch_count, 1);
  EXPECT_TRUE(p.outer_shape.empty());
}

TEST(GemmPlan, TransposedOperandsAreOpFlags) {
  // a.T @ b.T with a (3, 2) and b (4, 3) C-ordered: A = a.T has strides (1, 2), B = b.T (1, 3).
  const GemmPlan p = plan_gemm(2, 3, 4, {}, {{}, 1, 2}, {{}, 1, 3});
  EXPECT_FALSE(p.copy_a || p.copy_b);
  EXPECT_EQ(p.a, (BlasOperand{true, 3, 0}));
  EXPECT_EQ(p.b, (BlasOperand{true, 2, 0}));
}

TEST(GemmPlan, CopiesOnlyTheOperandWithoutALayout) {
  // A = x[::2, ::2] (strides (2k*2, 2)), B C-ordered.
  const GemmPlan p = plan_gemm(2, 3, 4, {}, {{}, 12, 2}, {{}, 4, 1});
  EXPECT_TRUE(p.copy_a);
  EXPECT_FALSE(p.copy_b);
  // A negative batch stride copies too (cuBLAS's batch strides are taken as non-negative).
  const GemmPlan q = plan_gemm(2, 3, 4, {5}, {{-6}, 3, 1}, {{12}, 4, 1});
  EXPECT_TRUE(q.copy_a);
  EXPECT_FALSE(q.copy_b);
}

TEST(GemmPlan, UniformStackIsOneStridedBatch) {
  // (10, 2, 3) @ (10, 3, 4), both C-ordered.
  const GemmPlan p = plan_gemm(2, 3, 4, {10}, {{6}, 3, 1}, {{12}, 4, 1});
  EXPECT_EQ(p.batch_count, 10);
  EXPECT_EQ(p.a.batch_stride, 12);
  EXPECT_EQ(p.b.batch_stride, 6);
  EXPECT_EQ(p.c.batch_stride, 8);
  EXPECT_TRUE(p.outer_shape.empty());
  // (2, 5, 2, 3) @ (2, 5, 3, 4): the two batch dims coalesce into one of 10.
  const GemmPlan q = plan_gemm(2, 3, 4, {2, 5}, {{30, 6}, 3, 1}, {{60, 12}, 4, 1});
  EXPECT_EQ(q.batch_count, 10);
  EXPECT_TRUE(q.outer_shape.empty());
}

TEST(GemmPlan, BroadcastBatchIsStrideZero) {
  // (3, 5) @ (10, 5, 4): A broadcast over the batch.
  const GemmPlan p = plan_gemm(3, 5, 4, {10}, {{0}, 5, 1}, {{20}, 4, 1});
  EXPECT_EQ(p.batch_count, 10);
  EXPECT_EQ(p.b.batch_stride, 0);
  EXPECT_EQ(p.a.batch_stride, 20);
  EXPECT_EQ(p.c.batch_stride, 12);
}

TEST(GemmPlan, StackAgainstOneMatrixFoldsIntoRows) {
  // (10, 3, 5) @ (5, 4), A C-ordered: one (30, 5) @ (5, 4) product.
  const GemmPlan p = plan_gemm(3, 5, 4, {10}, {{15}, 5, 1}, {{0}, 4, 1});
  EXPECT_EQ(p.batch_count, 1);
  EXPECT_EQ(p.m, 4);
  EXPECT_EQ(p.n, 30);
  EXPECT_EQ(p.b, (BlasOperand{false, 5, 0}));
  // A transposed per matrix ((10, 5, 3) transposed to (10, 3, 5)) cannot fold: a strided batch.
  const GemmPlan q = plan_gemm(3, 5, 4, {10}, {{15}, 1, 3}, {{0}, 4, 1});
  EXPECT_EQ(q.batch_count, 10);
  EXPECT_EQ(q.n, 3);
}

TEST(GemmPlan, BatchDimsThatDoNotCoalesceLoopOnTheHost) {
  // (4, 1, 2, 3) @ (1, 6, 3, 5): A broadcast along dim 1, B along dim 0.
  const GemmPlan p = plan_gemm(2, 3, 5, {4, 6}, {{6, 0}, 3, 1}, {{0, 15}, 5, 1});
  EXPECT_FALSE(p.copy_a || p.copy_b);
  EXPECT_EQ(p.batch_count, 6);  // the longer dim
  EXPECT_EQ(p.a.batch_stride, 15);
  EXPECT_EQ(p.b.batch_stride, 0);
  EXPECT_EQ(p.c.batch_stride, 10);
  EXPECT_EQ(p.outer_shape, (Shape{4}));
  EXPECT_EQ(p.outer_a, (Strides{6}));
  EXPECT_EQ(p.outer_b, (Strides{0}));
  EXPECT_EQ(p.outer_c, (Strides{60}));
}

// ---- the plans computed: cuBLAS's column-major GEMM semantics run on host memory ----

// A strided view of host doubles, NumPy-style (element strides), with the broadcast batch strides
// matmul derives.
struct HostMatrix {
  const double* data;
  Shape batch;     // the common batch shape
  Strides batch_strides;
  int64_t rows, cols, row_stride, col_stride;
  double at(const Shape& index, int64_t r, int64_t c) const {
    int64_t off = r * row_stride + c * col_stride;
    for (size_t d = 0; d < index.size(); ++d) off += index[d] * batch_strides[d];
    return data[off];
  }
  MatrixOperand operand() const { return {batch_strides, row_stride, col_stride}; }
};

// C (C-ordered over batch x m x n) as cuBLAS would compute it from the plan: C'(i, j) = sum_l
// op(A')(i, l) op(B')(l, j), A' = NumPy's B, B' = NumPy's A.
std::vector<double> run_plan(const GemmPlan& p, const double* a, const double* b, size_t c_size) {
  std::vector<double> c(c_size, -1.0);
  const auto op = [](const BlasOperand& x, const double* base, int64_t i, int64_t l) {
    return x.transpose ? base[l + i * x.ld] : base[i + l * x.ld];
  };
  ops::for_each_outer_batch(p, [&](int64_t oa, int64_t ob, int64_t oc) {
    for (int64_t z = 0; z < p.batch_count; ++z) {
      const double* ap = b + ob + z * p.a.batch_stride;  // A' is NumPy's B
      const double* bp = a + oa + z * p.b.batch_stride;
      double* cp = c.data() + oc + z * p.c.batch_stride;
      for (int64_t i = 0; i < p.m; ++i)
        for (int64_t j = 0; j < p.n; ++j) {
          double sum = 0;
          for (int64_t l = 0; l < p.k; ++l) sum += op(p.a, ap, i, l) * (p.b.transpose ? bp[j + l * p.b.ld] : bp[l + j * p.b.ld]);
          cp[i + j * p.c.ld] = sum;
        }
    }
  });
  return c;
}

// Checks the plan of A @ B against the product computed by indexing, for every batch index.
void expect_plan_computes_product(const HostMatrix& a, const HostMatrix& b, bool expect_copy = false) {
  const int64_t m = a.rows, k = a.cols, n = b.cols;
  const GemmPlan plan = plan_gemm(m, k, n, a.batch, a.operand(), b.operand());
  ASSERT_EQ(plan.copy_a || plan.copy_b, expect_copy);
  if (expect_copy) return;
  int64_t batch_size = 1;
  for (int64_t d : a.batch) batch_size *= d;
  const std::vector<double> c = run_plan(plan, a.data, b.data, static_cast<size_t>(batch_size * m * n));
  Shape index(a.batch.size(), 0);
  for (int64_t flat = 0; flat < batch_size; ++flat) {
    int64_t rest = flat;
    for (int d = static_cast<int>(a.batch.size()) - 1; d >= 0; --d) {
      index[d] = rest % a.batch[d];
      rest /= a.batch[d];
    }
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t l = 0; l < k; ++l) sum += a.at(index, i, l) * b.at(index, l, j);
        EXPECT_EQ(c[static_cast<size_t>((flat * m + i) * n + j)], sum) << "batch " << flat << " (" << i << ", " << j << ")";
      }
  }
}

TEST(GemmPlan, PlansComputeTheProductForEveryLayout) {
  std::vector<double> x(4096), y(4096);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<double>((i * 7919) % 23) - 11;  // small integers: sums are exact
    y[i] = static_cast<double>((i * 104729) % 19) - 9;
  }
  const double* X = x.data();
  const double* Y = y.data();
  // (3, 4) @ (4, 5), C-ordered.
  expect_plan_computes_product({X, {}, {}, 3, 4, 4, 1}, {Y, {}, {}, 4, 5, 5, 1});
  // Both F-ordered (transposes of C arrays).
  expect_plan_computes_product({X, {}, {}, 3, 4, 1, 3}, {Y, {}, {}, 4, 5, 1, 4});
  // Padded rows (a[:, :4] of a (3, 9) array) and a transposed B.
  expect_plan_computes_product({X, {}, {}, 3, 4, 9, 1}, {Y, {}, {}, 4, 5, 1, 6});
  // A single row and a single column with odd strides (1-D promotions of strided vectors).
  expect_plan_computes_product({X, {}, {}, 1, 6, 0, 3}, {Y, {}, {}, 6, 1, 5, 0});
  expect_plan_computes_product({X, {}, {}, 5, 1, 2, 0}, {Y, {}, {}, 1, 4, 0, 3});
  // A stack (2, 3, 4, 5) with a row-major A: strided batch of 6 (coalesced).
  expect_plan_computes_product({X, {2, 3}, {60, 20}, 4, 5, 5, 1}, {Y, {2, 3}, {90, 30}, 5, 6, 6, 1});
  // A stack against one matrix: folded into rows.
  expect_plan_computes_product({X, {7}, {12}, 3, 4, 4, 1}, {Y, {7}, {0}, 4, 5, 5, 1});
  // One matrix against a stack: B strided, A stride 0.
  expect_plan_computes_product({X, {7}, {0}, 3, 4, 1, 3}, {Y, {7}, {20}, 4, 5, 5, 1});
  // Batch dims that do not coalesce: (4, 1) x (1, 6) broadcast, host loop plus strided batch.
  expect_plan_computes_product({X, {4, 6}, {6, 0}, 2, 3, 3, 1}, {Y, {4, 6}, {0, 15}, 3, 5, 1, 3});
  // Transposed stacks (a.transpose(0, 2, 1) of C arrays) with padded batch strides.
  expect_plan_computes_product({X, {3}, {40}, 4, 5, 1, 4}, {Y, {3}, {50}, 5, 2, 1, 5});
  // The digit path's views: rows of A and columns of B w k = 16 apart, (s + 1) k = 8 deep ("TN").
  expect_plan_computes_product({X, {}, {}, 3, 8, 16, 1}, {Y, {}, {}, 8, 4, 1, 16});
  EXPECT_TRUE(plan_gemm(3, 8, 4, {}, {{}, 16, 1}, {{}, 1, 16}).a.transpose);
  EXPECT_FALSE(plan_gemm(3, 8, 4, {}, {{}, 16, 1}, {{}, 1, 16}).b.transpose);
  // Layouts without op flags: copies.
  expect_plan_computes_product({X, {}, {}, 3, 4, 8, 2}, {Y, {}, {}, 4, 5, 5, 1}, true);
  expect_plan_computes_product({X, {}, {}, 3, 4, 4, 1}, {Y, {}, {}, 4, 5, -5, 1}, true);
}

// Loading needs no GPU: where the toolkit or a wheel holds libcublas, every function of the table
// (the GEMM and what the solvers call) resolves; elsewhere the error names cuBLAS and the pip command.
TEST(CublasLibrary, TableResolvesEveryFunction) {
  try {
    const libs::CublasApi& api = libs::cublas();
    EXPECT_NE(api.cublasGemmStridedBatchedEx_64, nullptr);
    EXPECT_NE(api.cublasZmatinvBatched, nullptr);
    EXPECT_STREQ(api.cublasGetStatusName(CUBLAS_STATUS_NOT_SUPPORTED), "CUBLAS_STATUS_NOT_SUPPORTED");
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::CudaRuntime);
    EXPECT_NE(std::string(e.what()).find("cuBLAS"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("pip install nvidia-cublas"), std::string::npos) << e.what();
  }
}

TEST(CublasLibrary, Tf32IsOptIn) {
  const bool before = allow_tf32();
  set_allow_tf32(true);
  EXPECT_TRUE(allow_tf32());
  set_allow_tf32(false);
  EXPECT_FALSE(allow_tf32());
  set_allow_tf32(before);
}

TEST(IntegerGemm, KernelCompilesForEveryDTypeAndOpPair) {
  for (DType t : {DType::Bool, DType::Int8, DType::UInt16, DType::Int32, DType::Int64, DType::UInt64})
    for (bool ta : {false, true})
      for (bool tb : {false, true})
        test::expect_compiles(ops::integer_gemm_source(t, ta, tb),
                              std::string("integer gemm ") + std::string(dtype_name(t)) + (ta ? " T" : " N") + (tb ? "T" : "N"),
                              test::LocalMemory::None);
}

TEST(DigitGemm, KernelsCompileForEveryWidthAndDirection) {
  for (int64_t w : {2, 4, 8})
    for (bool in_rows : {false, true})
      for (bool out_rows : {false, true})
        test::expect_compiles(ops::digit_gemm_source(w, in_rows, out_rows),
                              "digit planes and sums, " + std::to_string(w) + " bytes" + (in_rows ? ", read down" : ", read across") +
                                  (out_rows ? ", written down" : ", written across"),
                              test::LocalMemory::None);
}

TEST(Matmul, ShapeErrorsBeforeAnyGpuWork) {
  // NumPy: np.matmul(np.ones(()), np.ones(3)) and friends; raised from shapes alone.
  const NDArray scalar(nullptr, nullptr, Shape{}, Strides{}, DType::Float64);
  const NDArray a(nullptr, nullptr, Shape{2, 3}, Strides{24, 8}, DType::Float64);
  const NDArray b(nullptr, nullptr, Shape{2, 3}, Strides{24, 8}, DType::Float64);
  test::expect_error(ErrorKind::Value,
                     "matmul: Input operand 0 does not have enough dimensions (has 0, gufunc core with "
                     "signature (n?,k),(k,m?)->(n?,m?) requires 1)",
                     [&] { matmul(scalar, a); });
  test::expect_error(ErrorKind::Value,
                     "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                     "(n?,k),(k,m?)->(n?,m?) (size 2 is different from 3)",
                     [&] { matmul(a, b); });
  test::expect_error(ErrorKind::Value, "shapes (2,3) and (2,3) not aligned: 3 (dim 1) != 2 (dim 0)",
                     [&] { dot(a, b); });
}

TEST(Matmul, Float64MatchesNumPy) {
  CUARRAY_SKIP_WITHOUT_GPU();
  // a = np.arange(6.).reshape(2, 3) - 2.5; b = np.arange(12.).reshape(3, 4) * 0.5
  std::vector<double> av = {-2.5, -1.5, -0.5, 0.5, 1.5, 2.5};
  std::vector<double> bv(12);
  for (int i = 0; i < 12; ++i) bv[i] = 0.5 * i;
  const NDArray a = test::device_array<double>(av, Shape{2, 3});
  const NDArray b = test::device_array<double>(bv, Shape{3, 4});
  // a @ b
  test::expect_array<double>(matmul(a, b), DType::Float64, {2, 4}, {-5., -7.25, -9.5, -11.75, 13., 15.25, 17.5, 19.75});
  // a.T @ a (a transposed operand, no copy)
  test::expect_array<double>(matmul(a.transpose(), a), DType::Float64, {3, 3},
                             {6.5, 4.5, 2.5, 4.5, 4.5, 4.5, 2.5, 4.5, 6.5});
  // np.dot(a[0], b): 1-D @ 2-D drops the row
  test::expect_array<double>(dot(a.index(0, 0), b), DType::Float64, {4}, {-5., -7.25, -9.5, -11.75});
  // np.tensordot(a, b, axes=([1], [0])) is a @ b
  const int64_t x = 1, y = 0;
  test::expect_array<double>(tensordot(a, b, std::span<const int64_t>(&x, 1), std::span<const int64_t>(&y, 1)),
                             DType::Float64, {2, 4}, {-5., -7.25, -9.5, -11.75, 13., 15.25, 17.5, 19.75});
}

TEST(Matmul, StackedFloat32WithBroadcast) {
  CUARRAY_SKIP_WITHOUT_GPU();
  // s = np.arange(8, dtype=np.float32).reshape(2, 2, 2); m = np.array([[1, 2], [3, 4]], np.float32)
  const NDArray s = test::device_array<float>({0, 1, 2, 3, 4, 5, 6, 7}, Shape{2, 2, 2});
  const NDArray m = test::device_array<float>({1, 2, 3, 4}, Shape{2, 2});
  // s @ m (folds into one product)
  test::expect_array<float>(matmul(s, m), DType::Float32, {2, 2, 2}, {3, 4, 11, 16, 19, 28, 27, 40});
  // m @ s (m broadcast with batch stride 0)
  test::expect_array<float>(matmul(m, s), DType::Float32, {2, 2, 2}, {4, 7, 8, 15, 16, 19, 36, 43});
}

TEST(Matmul, IntegersWrapAroundAsNumPy) {
  CUARRAY_SKIP_WITHOUT_GPU();
  // a = np.array([[100, -100], [127, 1]], np.int8); b = np.array([[2, 3], [1, -128]], np.int8)
  const NDArray a = test::device_array<int8_t>({100, -100, 127, 1}, Shape{2, 2});
  const NDArray b = test::device_array<int8_t>({2, 3, 1, -128}, Shape{2, 2});
  // a @ b: 200-100 = 100; 300+12800 -> 13100 % 256 = 44; 254+1 -> -1; 381-128 = 253 -> -3
  test::expect_array<int8_t>(matmul(a, b), DType::Int8, {2, 2}, {100, 44, -1, -3});
  // a.T @ b (op flag on a)
  test::expect_array<int8_t>(matmul(a.transpose(), b), DType::Int8, {2, 2}, {71, -84, 57, 84});
}

// The products by index on the host, wrapping as NumPy's integer loops do (unsigned arithmetic).
template <class T>
std::vector<T> host_product(const std::vector<T>& a, const std::vector<T>& b, int64_t m, int64_t k, int64_t n) {
  using U = std::make_unsigned_t<T>;
  std::vector<T> c(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      U sum = 0;
      for (int64_t l = 0; l < k; ++l) sum += static_cast<U>(static_cast<U>(a[i * k + l]) * static_cast<U>(b[l * n + j]));
      c[static_cast<size_t>(i * n + j)] = static_cast<T>(sum);
    }
  return c;
}

template <class T>
std::vector<T> full_range(size_t count, uint64_t seed) {
  std::vector<T> v(count);
  uint64_t x = seed;
  for (T& e : v) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;  // every bit pattern of T occurs
    e = static_cast<T>(x >> 17);
  }
  return v;
}

// Sizes on the tensor-core paths: int8 directly (m', k multiples of 4), int32 and int64 through
// their base-256 digits (n, k multiples of 4, sizes digit_path_pays sends there).
TEST(Matmul, IntegersOnTensorCoresWrapAroundAsNumPy) {
  CUARRAY_SKIP_WITHOUT_GPU();
  {
    const int64_t m = 12, k = 64, n = 16;
    const auto a = full_range<int8_t>(m * k, 1), b = full_range<int8_t>(k * n, 2);
    test::expect_array<int8_t>(matmul(test::device_array(a, Shape{m, k}), test::device_array(b, Shape{k, n})),
                               DType::Int8, {m, n}, host_product(a, b, m, k, n));
  }
  {
    const int64_t m = 64, k = 256, n = 1024;
    const auto a = full_range<int32_t>(m * k, 3), b = full_range<int32_t>(k * n, 4);
    test::expect_array<int32_t>(matmul(test::device_array(a, Shape{m, k}), test::device_array(b, Shape{k, n})),
                                DType::Int32, {m, n}, host_product(a, b, m, k, n));
    const auto a64 = full_range<int64_t>(m * k, 5), b64 = full_range<int64_t>(k * n, 6);
    test::expect_array<int64_t>(matmul(test::device_array(a64, Shape{m, k}), test::device_array(b64, Shape{k, n})),
                                DType::Int64, {m, n}, host_product(a64, b64, m, k, n));
  }
}

// Stacks of C-ordered (count, m, k) @ (count, k, n) by index on the host, wrapping as NumPy's integer
// loops do (64-bit unsigned arithmetic, narrowed: no int promotion of 16-bit products).
template <class T>
std::vector<T> host_stacked_product(const std::vector<T>& a, const std::vector<T>& b, int64_t count, int64_t m,
                                    int64_t k, int64_t n) {
  using U = std::make_unsigned_t<T>;
  std::vector<T> c(static_cast<size_t>(count * m * n));
  for (int64_t z = 0; z < count; ++z)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        uint64_t sum = 0;
        for (int64_t l = 0; l < k; ++l)
          sum += static_cast<uint64_t>(static_cast<U>(a[(z * m + i) * k + l])) * static_cast<U>(b[(z * k + l) * n + j]);
        c[static_cast<size_t>((z * m + i) * n + j)] = static_cast<T>(static_cast<U>(sum));
      }
  return c;
}

// The digit path on the GPU for each width and signedness: odd m, a stack, a matrix broadcast
// against a stack, and the dtype's extremes (sizes digit_path_pays sends to it).
template <class T>
void expect_digit_products_match_host(uint64_t seed) {
  const int64_t count = 4, m = 33, k = 256, n = 516;
  auto a = full_range<T>(static_cast<size_t>(count * m * k), seed), b = full_range<T>(static_cast<size_t>(count * k * n), seed + 1);
  a[0] = std::numeric_limits<T>::min(), a[1] = std::numeric_limits<T>::max(), a[2] = std::numeric_limits<T>::max();
  b[0] = std::numeric_limits<T>::max(), b[static_cast<size_t>(n)] = std::numeric_limits<T>::min(), b[static_cast<size_t>(2 * n)] = T(1);
  const DType t = test::dtype_of<T>();
  const NDArray ga = test::device_array(a, Shape{count, m, k}), gb = test::device_array(b, Shape{count, k, n});
  test::expect_array<T>(matmul(ga, gb), t, {count, m, n}, host_stacked_product(a, b, count, m, k, n));
  // ga[1] @ gb: one matrix against the stack (its planes written once, batch stride 0).
  std::vector<T> a1(a.begin() + m * k, a.begin() + 2 * m * k), a_rep;
  for (int64_t z = 0; z < count; ++z) a_rep.insert(a_rep.end(), a1.begin(), a1.end());
  test::expect_array<T>(matmul(ga.index(0, 1), gb), t, {count, m, n}, host_stacked_product(a_rep, b, count, m, k, n));
  // One product of 16 * 33 rows.
  const auto big_a = full_range<T>(static_cast<size_t>(16 * m * k), seed + 2);
  const std::vector<T> b0(b.begin(), b.begin() + k * n);
  test::expect_array<T>(matmul(test::device_array(big_a, Shape{16 * m, k}), gb.index(0, 0)), t, {16 * m, n},
                        host_stacked_product(big_a, b0, 1, 16 * m, k, n));
}

TEST(Matmul, WideIntegersOnInt8DigitsMatchHost) {
  CUARRAY_SKIP_WITHOUT_GPU();
  expect_digit_products_match_host<int16_t>(21);
  expect_digit_products_match_host<uint16_t>(22);
  expect_digit_products_match_host<int32_t>(23);
  expect_digit_products_match_host<uint32_t>(24);
  expect_digit_products_match_host<int64_t>(25);
  expect_digit_products_match_host<uint64_t>(26);
}

// ---- the digit path (digit_plan.hpp) run on host memory: planes written as kernels/digit_gemm.cuh
// writes them, the w GEMMs with cuBLAS's semantics (run_plan: int8 products, sums exact in double),
// the sums combined as the sums kernel does; against the wrapped product by indexing ----

// A stack of NumPy matrices over the batch shape, element strides (broadcast strides 0).
struct IntOperand {
  Shape batch;
  Strides batch_strides;
  int64_t row_stride, col_stride;
  MatrixOperand operand() const { return {batch_strides, row_stride, col_stride}; }
  int64_t offset(int64_t flat, int64_t r, int64_t c) const {
    int64_t off = r * row_stride + c * col_stride;
    for (int d = static_cast<int>(batch.size()) - 1; d >= 0; --d) {
      off += (flat % batch[d]) * batch_strides[d];
      flat /= batch[d];
    }
    return off;
  }
};

template <class T>
std::vector<double> host_planes(const T* x, const IntOperand& mx, const ops::DigitPlanes& to, int64_t rows, int64_t cols) {
  using U = std::make_unsigned_t<T>;
  std::vector<double> planes(static_cast<size_t>(to.size), 999.0);  // every byte read must be written
  for (int64_t z = 0; z < to.count; ++z)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        const U y = static_cast<U>(static_cast<U>(x[z * to.source_batch + r * mx.row_stride + c * mx.col_stride]) +
                                   static_cast<U>(0x8080808080808080ull));
        for (size_t i = 0; i < sizeof(T); ++i)
          planes[static_cast<size_t>(to.digit0 + z * to.out_batch + r * to.out_row + c * to.out_col +
                                     static_cast<int64_t>(i) * to.out_digit)] =
              static_cast<int8_t>(static_cast<uint8_t>(y >> (8 * i)) ^ 0x80);
      }
  return planes;
}

// The digit plan of x (ma) @ y (mb) run on the host equals NumPy's wrapped product.
template <class T>
void expect_digit_plan_computes_product(const T* x, const IntOperand& ma, const T* y, const IntOperand& mb, int64_t m,
                                        int64_t k, int64_t n) {
  using U = std::make_unsigned_t<T>;
  const int64_t w = sizeof(T);
  const std::optional<ops::DigitPlan> plan = ops::plan_digit_gemm(w, m, k, n, ma.batch, ma.operand(), mb.operand());
  ASSERT_TRUE(plan);
  ASSERT_FALSE(plan->gemm.copy_a || plan->gemm.copy_b);
  const int64_t size = plan->count * m * n;
  const std::vector<double> pa = host_planes(x, ma, plan->a, m, k), pb = host_planes(y, mb, plan->b, k, n);
  std::vector<uint64_t> total(static_cast<size_t>(size), 0);
  for (int64_t s = 0; s < w; ++s) {
    const GemmPlan step = plan->step(s);
    // cuBLAS's argument rules, which run_plan does not need: ld of op N (rows x cols) >= rows, of op T >= cols.
    EXPECT_GE(step.a.ld, step.a.transpose ? step.k : step.m) << "GEMM " << s;
    EXPECT_GE(step.b.ld, step.b.transpose ? step.n : step.k) << "GEMM " << s;
    EXPECT_GE(step.c.ld, step.m) << "GEMM " << s;
    const std::vector<double> sums = run_plan(step, pa.data() + plan->a_offset(s), pb.data(), static_cast<size_t>(size));
    for (int64_t e = 0; e < size; ++e) {
      const double v = sums[static_cast<size_t>(e)];
      ASSERT_TRUE(v == static_cast<double>(static_cast<int32_t>(v))) << "int32 sum " << v << " of GEMM " << s;
      total[static_cast<size_t>(e)] += static_cast<uint64_t>(static_cast<int64_t>(v)) << (8 * s);
    }
  }
  for (int64_t z = 0; z < plan->count; ++z)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        uint64_t sum = 0;
        for (int64_t l = 0; l < k; ++l)
          sum += static_cast<uint64_t>(static_cast<U>(x[ma.offset(z, i, l)])) * static_cast<uint64_t>(static_cast<U>(y[mb.offset(z, l, j)]));
        const size_t e = static_cast<size_t>((z * m + i) * n + j);
        EXPECT_EQ(static_cast<T>(static_cast<U>(total[e])), static_cast<T>(static_cast<U>(sum)))
            << "batch " << z << " (" << i << ", " << j << ")";
      }
}

TEST(DigitPlan, SingleBatchStrideOfEachBatchLayout) {
  EXPECT_EQ(ops::single_batch_stride({}, {}), 0);
  EXPECT_EQ(ops::single_batch_stride({10}, {12}), 12);
  EXPECT_EQ(ops::single_batch_stride({2, 5}, {60, 12}), 12);    // coalesces
  EXPECT_EQ(ops::single_batch_stride({2, 1, 5}, {60, 7, 12}), 12);  // length-1 dims never matter
  EXPECT_EQ(ops::single_batch_stride({2, 5}, {0, 0}), 0);       // broadcast along all of it
  EXPECT_EQ(ops::single_batch_stride({5}, {-12}), -12);         // a reversed stack
  EXPECT_FALSE(ops::single_batch_stride({4, 6}, {6, 0}));       // partly broadcast
  EXPECT_FALSE(ops::single_batch_stride({4, 6}, {0, 15}));
  EXPECT_FALSE(ops::single_batch_stride({2, 5}, {12, 60}));     // transposed batch dims
}

TEST(DigitPlan, AppliesWhereCublasInt8RulesAndExactSumsHold) {
  const MatrixOperand a{{}, 64, 1}, b{{}, 64, 1};
  EXPECT_TRUE(ops::plan_digit_gemm(4, 256, 64, 64, {}, a, b));
  EXPECT_FALSE(ops::plan_digit_gemm(4, 256, 64, 62, {}, a, b));  // n not a multiple of 4
  EXPECT_FALSE(ops::plan_digit_gemm(4, 256, 62, 64, {}, a, b));  // k not a multiple of 4
  EXPECT_FALSE(ops::plan_digit_gemm(1, 256, 64, 64, {}, a, b));  // bytes go to the int8 GEMM itself
  EXPECT_FALSE(ops::plan_digit_gemm(8, 16, int64_t{1} << 14, 16, {}, a, b));  // w k = 2^17: sums may overflow
  EXPECT_TRUE(ops::plan_digit_gemm(8, 16, (int64_t{1} << 14) - 4, 16, {}, a, b));
  EXPECT_TRUE(ops::plan_digit_gemm(4, 64, 64, 64, {64}, {{4096}, 64, 1}, {{4096}, 64, 1}));
  EXPECT_FALSE(ops::plan_digit_gemm(4, 256, 256, 256, {4, 6}, {{6, 0}, 3, 1}, {{0, 15}, 5, 1}));  // no single batch
}

TEST(DigitPlan, PaysWhereTheEstimateSaysTensorCoresWin) {
  // The case, int32 2048^3: ~0.2 ms of digit GEMMs and passes against ~1 ms of SIMT kernel.
  EXPECT_TRUE(ops::digit_path_pays(4, 1, 2048, 2048, 2048));
  EXPECT_TRUE(ops::digit_path_pays(8, 1, 2048, 2048, 2048));
  // Tiny products: one launch beats w + 3.
  EXPECT_FALSE(ops::digit_path_pays(4, 1, 16, 16, 16));
  EXPECT_FALSE(ops::digit_path_pays(8, 1, 32, 32, 32));
  // Shallow products: the sums pass costs 36 bytes per element of C, whatever k is.
  EXPECT_FALSE(ops::digit_path_pays(4, 1000, 64, 4, 64));
  EXPECT_TRUE(ops::digit_path_pays(4, 1000, 256, 256, 256));
  // The model's inputs move the answer as they should: free launches favour the digit path, a
  // SIMT kernel as fast as the tensor cores never loses.
  ops::DigitCostModel model;
  model.launch_s = 0;
  EXPECT_TRUE(ops::digit_path_pays(4, 1, 16, 16, 16, model));
  model.simt_rate_32 = model.imma_rate;
  EXPECT_FALSE(ops::digit_path_pays(4, 1, 2048, 2048, 2048, model));
}

TEST(DigitPlan, PlansComputeTheWrappedProduct) {
  // Full-range values: every sum wraps, and the extremes (0x80.., 0x7f.., 0xff..) occur.
  auto x32 = full_range<int32_t>(4096, 11), y32 = full_range<int32_t>(4096, 12);
  x32[0] = INT32_MIN, x32[1] = INT32_MAX, x32[2] = -1, y32[0] = INT32_MIN, y32[1] = INT32_MAX, y32[4] = -1;
  // (5, 12) @ (12, 8), C-ordered.
  expect_digit_plan_computes_product(x32.data(), {{}, {}, 12, 1}, y32.data(), {{}, {}, 8, 1}, 5, 12, 8);
  // F-ordered A (a transposed C array) and B with its rows reversed (b[::-1]: negative stride, read in
  // place from its last row).
  expect_digit_plan_computes_product(x32.data(), {{}, {}, 1, 7}, y32.data() + 88, {{}, {}, -8, 1}, 7, 12, 8);
  // A stack (2, 3) of (3, 8) @ (8, 4) that coalesces, and B broadcast (stride 0) against it.
  const auto x16 = full_range<int16_t>(4096, 13), y16 = full_range<int16_t>(4096, 14);
  expect_digit_plan_computes_product(x16.data(), {{2, 3}, {72, 24}, 8, 1}, y16.data(), {{2, 3}, {96, 32}, 4, 1}, 3, 8, 4);
  expect_digit_plan_computes_product(x16.data(), {{2, 3}, {72, 24}, 8, 1}, y16.data(), {{2, 3}, {0, 0}, 4, 1}, 3, 8, 4);
  // A reversed stack (s[::-1]: negative batch stride).
  expect_digit_plan_computes_product(x16.data() + 4 * 24, {{5}, {-24}, 8, 1}, y16.data(), {{5}, {32}, 4, 1}, 3, 8, 4);
  // A single row (a 1-D a promoted to (1, k), whose ld cuBLAS takes from the depth).
  expect_digit_plan_computes_product(x32.data(), {{}, {}, 0, 1}, y32.data(), {{}, {}, 8, 1}, 1, 12, 8);
  // int64: A broadcast against transposed B matrices; uint64; uint16 with odd m.
  const auto x64 = full_range<int64_t>(4096, 15), y64 = full_range<int64_t>(4096, 16);
  expect_digit_plan_computes_product(x64.data(), {{3}, {0}, 4, 1}, y64.data(), {{3}, {40}, 1, 5}, 5, 4, 8);
  const auto xu = full_range<uint64_t>(4096, 17), yu = full_range<uint64_t>(4096, 18);
  expect_digit_plan_computes_product(xu.data(), {{}, {}, 16, 1}, yu.data(), {{}, {}, 12, 1}, 3, 16, 12);
  const auto xu16 = full_range<uint16_t>(4096, 19), yu16 = full_range<uint16_t>(4096, 20);
  expect_digit_plan_computes_product(xu16.data(), {{}, {}, 20, 1}, yu16.data(), {{}, {}, 4, 1}, 9, 20, 4);
}

}  // namespace
}  // namespace cuarray
