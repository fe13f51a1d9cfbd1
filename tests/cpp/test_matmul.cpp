// matmul's GEMM planning (host logic: op flags, leading dimensions, batch strides, when a copy is
// needed) without a GPU, and matmul/dot/tensordot against NumPy's values on one.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cuarray/products.hpp"
#include "device_arrays.hpp"
#include "expect_error.hpp"
#include "expect_compiles.hpp"
#include "gpu_test.hpp"
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

TEST(IntegerGemm, KernelCompilesForEveryDTypeAndOpPair) {
  for (DType t : {DType::Bool, DType::Int8, DType::UInt16, DType::Int32, DType::Int64, DType::UInt64})
    for (bool ta : {false, true})
      for (bool tb : {false, true})
        test::expect_compiles(ops::integer_gemm_source(t, ta, tb),
                              std::string("integer gemm ") + std::string(dtype_name(t)) + (ta ? " T" : " N") + (tb ? "T" : "N"),
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

}  // namespace
}  // namespace cuarray
