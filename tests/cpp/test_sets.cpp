// The set routines of cuarray/sets.hpp on small arrays, against NumPy: each expected value is what
// the NumPy expression beside it gives. Needs a GPU (skips without one), except the axis checks.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "cuarray/sets.hpp"
#include "device_arrays.hpp"
#include "expect_error.hpp"
#include "gpu_test.hpp"

using namespace cuarray;
using cuarray::test::device_array;
using cuarray::test::expect_array;
using cuarray::test::expect_error;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

using I64 = std::vector<int64_t>;

UniqueOptions all_outputs(std::optional<int64_t> axis = std::nullopt, bool equal_nan = true) {
  return {.return_index = true, .return_inverse = true, .return_counts = true, .axis = axis, .equal_nan = equal_nan};
}

}  // namespace

TEST(SetsUnique, IntegersWithEveryOutput) {
  CUARRAY_SKIP_WITHOUT_GPU();
  // a = np.array([[3, 1, 4, 1, 5], [9, 2, 6, 5, 3]], np.int32)
  const NDArray a = device_array<int32_t>({3, 1, 4, 1, 5, 9, 2, 6, 5, 3}, Shape{2, 5});
  // np.unique(a, True, True, True)
  const UniqueResult r = unique(a, all_outputs());
  expect_array<int32_t>(r.values, DType::Int32, {7}, {1, 2, 3, 4, 5, 6, 9});
  expect_array<int64_t>(*r.indices, DType::Int64, {7}, {1, 6, 0, 2, 4, 7, 5});
  expect_array<int64_t>(*r.inverse_indices, DType::Int64, {2, 5}, {2, 0, 3, 0, 4, 6, 1, 5, 4, 2});
  expect_array<int64_t>(*r.counts, DType::Int64, {7}, {2, 1, 2, 1, 2, 1, 1});
  // np.unique(a): the values alone
  const UniqueResult v = unique(a);
  expect_array<int32_t>(v.values, DType::Int32, {7}, {1, 2, 3, 4, 5, 6, 9});
  EXPECT_FALSE(v.indices || v.inverse_indices || v.counts);
  // np.unique(np.int32(7), return_inverse=True): a 0-d input gives values of shape (1,), a 0-d inverse
  const UniqueResult s = unique(device_array<int32_t>({7}, Shape{}), {.return_inverse = true});
  expect_array<int32_t>(s.values, DType::Int32, {1}, {7});
  expect_array<int64_t>(*s.inverse_indices, DType::Int64, {}, {0});
}

TEST(SetsUnique, FloatsWithNaNAndSignedZeros) {
  CUARRAY_SKIP_WITHOUT_GPU();
  // f = np.array([-0.0, 0.0, nan, 1.5, nan, -0.0, inf, -2.0, nan])
  const NDArray f = device_array<double>({-0.0, 0.0, kNaN, 1.5, kNaN, -0.0, kInf, -2.0, kNaN});
  // np.unique(f, True, True, True): every NaN one value; the zeros are one, shown as the first (-0.0)
  const UniqueResult r = unique(f, all_outputs());
  expect_array<double>(r.values, DType::Float64, {5}, {-2.0, -0.0, 1.5, kInf, kNaN}, /*signed_zeros=*/true);
  expect_array<int64_t>(*r.indices, DType::Int64, {5}, {7, 0, 3, 6, 2});
  expect_array<int64_t>(*r.inverse_indices, DType::Int64, {9}, {1, 1, 4, 2, 4, 1, 3, 0, 4});
  expect_array<int64_t>(*r.counts, DType::Int64, {5}, {1, 3, 1, 1, 3});
  // np.unique(f, True, True, True, equal_nan=False): each NaN its own value, in input order
  const UniqueResult apart = unique(f, all_outputs(std::nullopt, false));
  expect_array<double>(apart.values, DType::Float64, {7}, {-2.0, -0.0, 1.5, kInf, kNaN, kNaN, kNaN}, true);
  expect_array<int64_t>(*apart.indices, DType::Int64, {7}, {7, 0, 3, 6, 2, 4, 8});
  expect_array<int64_t>(*apart.inverse_indices, DType::Int64, {9}, {1, 1, 4, 2, 5, 1, 3, 0, 6});
  expect_array<int64_t>(*apart.counts, DType::Int64, {7}, {1, 3, 1, 1, 1, 1, 1});
}

TEST(SetsUnique, AlongAnAxis) {
  CUARRAY_SKIP_WITHOUT_GPU();
  // r = np.array([[2, 7, 2], [1, 5, 1], [2, 7, 2], [1, 3, 9]])
  const NDArray r = device_array<int64_t>({2, 7, 2, 1, 5, 1, 2, 7, 2, 1, 3, 9}, Shape{4, 3});
  // np.unique(r, True, True, True, axis=0): rows compared lexicographically
  const UniqueResult rows = unique(r, all_outputs(0));
  expect_array<int64_t>(rows.values, DType::Int64, {3, 3}, {1, 3, 9, 1, 5, 1, 2, 7, 2});
  expect_array<int64_t>(*rows.indices, DType::Int64, {3}, {3, 1, 0});
  expect_array<int64_t>(*rows.inverse_indices, DType::Int64, {4}, {2, 1, 2, 0});
  expect_array<int64_t>(*rows.counts, DType::Int64, {3}, {1, 1, 2});
  // np.unique(r, True, True, True, axis=-1): the columns
  const UniqueResult columns = unique(r, all_outputs(-1));
  expect_array<int64_t>(columns.values, DType::Int64, {4, 3}, {2, 2, 7, 1, 1, 5, 2, 2, 7, 1, 9, 3});
  expect_array<int64_t>(*columns.indices, DType::Int64, {3}, {0, 2, 1});
  expect_array<int64_t>(*columns.inverse_indices, DType::Int64, {3}, {0, 2, 1});
  expect_array<int64_t>(*columns.counts, DType::Int64, {3}, {1, 1, 1});

  // h = np.array([[1, nan], [1, nan], [0, -0.0], [-0.0, 0.0], [nan, 1]]): rows holding a NaN never
  // merge; -0.0 equals 0.0.
  const std::vector<double> h = {1, kNaN, 1, kNaN, 0, -0.0, -0.0, 0.0, kNaN, 1};
  // np.unique(h, True, True, True, axis=0)
  const UniqueResult doubles = unique(device_array<double>(h, Shape{5, 2}), all_outputs(0));
  expect_array<double>(doubles.values, DType::Float64, {4, 2}, {0, -0.0, 1, kNaN, 1, kNaN, kNaN, 1}, true);
  expect_array<int64_t>(*doubles.indices, DType::Int64, {4}, {2, 0, 1, 4});
  expect_array<int64_t>(*doubles.inverse_indices, DType::Int64, {5}, {1, 2, 0, 0, 3});
  expect_array<int64_t>(*doubles.counts, DType::Int64, {4}, {2, 1, 1, 1});
  // np.unique(h.astype(np.float16), True, True, True, axis=0): NumPy's float16 rows put NaN first
  const UniqueResult halves = unique(device_array<double>(h, Shape{5, 2}).astype(DType::Float16), all_outputs(0));
  ASSERT_EQ(halves.values.dtype(), DType::Float16);
  expect_array<double>(halves.values.astype(DType::Float64), DType::Float64, {4, 2}, {kNaN, 1, 0, -0.0, 1, kNaN, 1, kNaN},
                       true);
  expect_array<int64_t>(*halves.indices, DType::Int64, {4}, {4, 2, 0, 1});
  expect_array<int64_t>(*halves.inverse_indices, DType::Int64, {5}, {2, 3, 1, 1, 0});
  expect_array<int64_t>(*halves.counts, DType::Int64, {4}, {1, 2, 1, 1});
}

// A bad axis is refused before any device work: checked on arrays that are never read, without a GPU.
TEST(SetsUnique, AxisErrors) {
  alignas(8) static char memory[6 * 8];
  const auto unbacked = [](Shape shape) { return NDArray(nullptr, memory, shape, c_strides(shape, 8), DType::Float64); };
  const NDArray m = unbacked(Shape{2, 3}), v = unbacked(Shape{3}), s = unbacked(Shape{});
  expect_error(ErrorKind::Axis, "axis 2 is out of bounds for array of dimension 2", [&] { unique(m, {.axis = 2}); });
  expect_error(ErrorKind::Axis, "axis -2 is out of bounds for array of dimension 1", [&] { unique(v, {.axis = -2}); });
  expect_error(ErrorKind::Axis, "axis 0 is out of bounds for array of dimension 0", [&] { unique(s, {.axis = 0}); });
}

TEST(SetsIsin, CommonDtypeAndInvert) {
  CUARRAY_SKIP_WITHOUT_GPU();
  // e = np.array([[5, -3, 0], [7, 2, 5]], np.int32); t = np.array([2.0, 5.0, 0.5, -3.0], np.float32)
  const NDArray e = device_array<int32_t>({5, -3, 0, 7, 2, 5}, Shape{2, 3});
  const NDArray t = device_array<float>({2.0f, 5.0f, 0.5f, -3.0f});
  // np.isin(e, t), np.isin(e, t, invert=True): compared in float64
  expect_array<uint8_t>(isin(e, t), DType::Bool, {2, 3}, {1, 1, 0, 0, 1, 1});
  expect_array<uint8_t>(isin(e, t, true), DType::Bool, {2, 3}, {0, 0, 1, 1, 0, 0});
  // np.isin([nan, 0.0, -0.0, 1.0, 2.5], [nan, -0.0, 2.5]): NaN is in nothing, -0.0 is 0.0
  const NDArray f = device_array<double>({kNaN, 0.0, -0.0, 1.0, 2.5});
  expect_array<uint8_t>(isin(f, device_array<double>({kNaN, -0.0, 2.5})), DType::Bool, {5}, {0, 1, 1, 0, 1});
  // np.isin(e, np.array([], np.int64)): nothing is in an empty set
  expect_array<uint8_t>(isin(e, device_array<int64_t>({})), DType::Bool, {2, 3}, {0, 0, 0, 0, 0, 0});
}

TEST(SetsIntersect1d, WithIndices) {
  CUARRAY_SKIP_WITHOUT_GPU();
  // a1 = np.array([4, 1, 9, 1, 7, 3]); a2 = np.array([[3, 8], [1, 4], [4, 0]], np.int16)
  const NDArray a1 = device_array<int64_t>({4, 1, 9, 1, 7, 3});
  const NDArray a2 = device_array<int16_t>({3, 8, 1, 4, 4, 0}, Shape{3, 2});
  // np.intersect1d(a1, a2, return_indices=True): first occurrences in the flattened inputs
  const IntersectResult r = intersect1d(a1, a2, false, true);
  expect_array<int64_t>(r.values, DType::Int64, {3}, {1, 3, 4});
  expect_array<int64_t>(*r.comm1, DType::Int64, {3}, {1, 5, 0});
  expect_array<int64_t>(*r.comm2, DType::Int64, {3}, {2, 0, 3});
  const IntersectResult plain = intersect1d(a1, a2);
  expect_array<int64_t>(plain.values, DType::Int64, {3}, {1, 3, 4});
  EXPECT_FALSE(plain.comm1 || plain.comm2);
  // np.intersect1d([5, 2, 8], [8, 1, 5, 3], assume_unique=True, return_indices=True)
  const IntersectResult u =
      intersect1d(device_array<int64_t>({5, 2, 8}), device_array<int64_t>({8, 1, 5, 3}), true, true);
  expect_array<int64_t>(u.values, DType::Int64, {2}, {5, 8});
  expect_array<int64_t>(*u.comm1, DType::Int64, {2}, {0, 2});
  expect_array<int64_t>(*u.comm2, DType::Int64, {2}, {2, 0});
}

TEST(SetsUnion1d, SortedUniqueOfBoth) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const NDArray a1 = device_array<int64_t>({4, 1, 9, 1, 7, 3});
  const NDArray a2 = device_array<int16_t>({3, 8, 1, 4, 4, 0}, Shape{3, 2});
  // np.union1d(a1, a2): int64, the result_type of the inputs
  expect_array<int64_t>(union1d(a1, a2), DType::Int64, {7}, {0, 1, 3, 4, 7, 8, 9});
  // np.union1d([[0.5, nan, 2.0], [nan, -0.0, 0.5]], [0.0, 3.0]): one NaN (unique's equal_nan)
  const NDArray x = device_array<double>({0.5, kNaN, 2.0, kNaN, -0.0, 0.5}, Shape{2, 3});
  expect_array<double>(union1d(x, device_array<double>({0.0, 3.0})), DType::Float64, {5}, {0.0, 0.5, 2.0, 3.0, kNaN});
}

TEST(SetsSetdiff1d, SortedAndAssumeUnique) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const NDArray a1 = device_array<int64_t>({4, 1, 9, 1, 7, 3});
  const NDArray a2 = device_array<int16_t>({3, 8, 1, 4, 4, 0}, Shape{3, 2});
  // np.setdiff1d(a1, a2)
  expect_array<int64_t>(setdiff1d(a1, a2), DType::Int64, {2}, {7, 9});
  // np.setdiff1d([9, 4, 6, 1], [1, 9], assume_unique=True): ar1's order
  expect_array<int64_t>(setdiff1d(device_array<int64_t>({9, 4, 6, 1}), device_array<int64_t>({1, 9}), true),
                        DType::Int64, {2}, {4, 6});
}

TEST(SetsSetxor1d, ValuesInExactlyOne) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const NDArray a1 = device_array<int64_t>({4, 1, 9, 1, 7, 3});
  const NDArray a2 = device_array<int16_t>({3, 8, 1, 4, 4, 0}, Shape{3, 2});
  // np.setxor1d(a1, a2)
  expect_array<int64_t>(setxor1d(a1, a2), DType::Int64, {4}, {0, 7, 8, 9});
  // np.setxor1d([5, 2, 8], [8, 1, 5, 3], assume_unique=True)
  expect_array<int64_t>(setxor1d(device_array<int64_t>({5, 2, 8}), device_array<int64_t>({8, 1, 5, 3}), true),
                        DType::Int64, {3}, {1, 2, 3});
  // np.setxor1d([[0.5, nan, 2.0], [nan, -0.0, 0.5]], [0.0, 3.0])
  const NDArray x = device_array<double>({0.5, kNaN, 2.0, kNaN, -0.0, 0.5}, Shape{2, 3});
  expect_array<double>(setxor1d(x, device_array<double>({0.0, 3.0})), DType::Float64, {4}, {0.5, 2.0, 3.0, kNaN});
  // np.setxor1d([], []): empty
  expect_array<int64_t>(setxor1d(device_array<int64_t>({}), device_array<int64_t>({})), DType::Int64, {0}, {});
}
