// cuarray::einsum through the C++ API on a GPU (skipped without one), against NumPy's values:
// a batched GEMM, a dot product, a diagonal view, a product laid out transposed, an outer product
// and integer wraparound over a 3-operand path. The host side (parser, planner) is
// test_einsum_plan.cpp; the full comparison with NumPy is tests/python/test_einsum.py.
#include <gtest/gtest.h>

#include <vector>

#include "cuarray/einsum.hpp"
#include "device_arrays.hpp"
#include "gpu_test.hpp"

namespace cuarray {
namespace {

NDArray run(const char* subscripts, std::vector<NDArray> operands, EinsumOptimize::Kind kind = EinsumOptimize::Kind::None) {
  EinsumOptions options;
  options.optimize.kind = kind;
  return einsum(subscripts, operands, options);
}

TEST(EinsumGpu, ContractionsMatchNumPy) {
  CUARRAY_SKIP_WITHOUT_GPU();
  // a = np.arange(12.).reshape(2, 2, 3) - 5; b = np.arange(12.).reshape(2, 3, 2) * 0.5
  std::vector<double> av(12), bv(12), mv(9);
  for (int i = 0; i < 12; ++i) av[i] = i - 5, bv[i] = 0.5 * i;
  for (int i = 0; i < 9; ++i) mv[i] = i - 4;  // m = np.arange(9.).reshape(3, 3) - 4
  const NDArray a = test::device_array<double>(av, Shape{2, 2, 3});
  const NDArray b = test::device_array<double>(bv, Shape{2, 3, 2});
  const NDArray m = test::device_array<double>(mv, Shape{3, 3});
  for (auto kind : {EinsumOptimize::Kind::None, EinsumOptimize::Kind::Greedy}) {
    test::expect_array<double>(run("bij,bjk->bik", {a, b}, kind), DType::Float64, {2, 2, 2},
                               {-10, -16, -1, -2.5, 26, 29, 62, 69.5});
    test::expect_array<double>(run("ij,ij->", {m, m}, kind), DType::Float64, {}, {60});
    test::expect_array<double>(run("ii", {m}, kind), DType::Float64, {}, {0});
    const NDArray t = run("ij,jk->ki", {m, m}, kind);  // (m @ m).T, laid out C-contiguous
    EXPECT_TRUE(t.c_contiguous());
    test::expect_array<double>(t, DType::Float64, {3, 3}, {15, 6, -3, 6, 6, 6, -3, 6, 15});
    test::expect_array<double>(run("i,j->ij", {m.index(0, 1), m.index(0, 2).slice(0, 0, 2, 1)}, kind),
                               DType::Float64, {3, 2}, {-2, -3, 0, 0, 2, 3});  // np.outer(m[1], m[2][:2])
  }
  const NDArray d = run("ii->i", {m});  // a strided view of m's diagonal
  EXPECT_EQ(d.buffer(), m.buffer());
  test::expect_array<double>(d, DType::Float64, {3}, {-4, 0, 4});
}

TEST(EinsumGpu, IntegersWrapAround) {
  CUARRAY_SKIP_WITHOUT_GPU();
  // x = np.array([[100, -100], [127, 1]], np.int8); y = np.array([[2, 3], [1, -128]], np.int8)
  const NDArray x = test::device_array<int8_t>({100, -100, 127, 1}, Shape{2, 2});
  const NDArray y = test::device_array<int8_t>({2, 3, 1, -128}, Shape{2, 2});
  test::expect_array<int8_t>(run("ij,jk,kl->il", {x, y, x}), DType::Int8, {2, 2}, {-28, 28, 31, 97});
  test::expect_array<int8_t>(run("ij->", {x}), DType::Int8, {}, {-128});
}

}  // namespace
}  // namespace cuarray
