// The view manipulations (flip, rot90, moveaxis, split) on a float64 array of shape (2, 3, 4)
// that is never dereferenced, so no GPU is needed. Expected shapes, byte strides and data offsets
// are NumPy's for the same call on np.empty((2, 3, 4)).
#include <gtest/gtest.h>

#include <vector>

#include "cuarray/errors.hpp"
#include "cuarray/manipulation.hpp"
#include "expect_error.hpp"

using namespace cuarray;
using cuarray::test::expect_error;

namespace {

alignas(8) char g_fake_data[2 * 3 * 4 * 8];

NDArray fake_array() { return NDArray(nullptr, g_fake_data, Shape{2, 3, 4}, Strides{96, 32, 8}, DType::Float64); }

void expect_view(const NDArray& v, Shape shape, Strides strides, int64_t offset) {
  EXPECT_EQ(v.shape(), shape) << shape_repr(v.shape());
  EXPECT_EQ(v.strides(), strides);
  EXPECT_EQ(v.data() - g_fake_data, offset);
}

std::span<const int64_t> axes(const std::vector<int64_t>& v) { return {v.data(), v.size()}; }

}  // namespace

TEST(ManipulationViews, Flip) {
  const NDArray a = fake_array();
  expect_view(flip(a), {2, 3, 4}, {-96, -32, -8}, 184);             // np.flip(a)
  std::vector<int64_t> ends = {0, -1};
  expect_view(flip(a, axes(ends)), {2, 3, 4}, {-96, 32, -8}, 120);  // np.flip(a, (0, -1))
  std::vector<int64_t> twice = {0, 0};
  expect_error(ErrorKind::Value, "repeated axis", [&] { flip(a, axes(twice)); });
  std::vector<int64_t> bad = {3};
  expect_error(ErrorKind::Axis, "axis 3 is out of bounds for array of dimension 3", [&] { flip(a, axes(bad)); });
}

TEST(ManipulationViews, Rot90) {
  const NDArray a = fake_array();
  expect_view(rot90(a), {3, 2, 4}, {-32, 96, 8}, 64);           // np.rot90(a)
  expect_view(rot90(a, 2, 1, 2), {2, 3, 4}, {96, -32, -8}, 88);  // np.rot90(a, 2, (1, 2))
  expect_view(rot90(a, 3, 2, 0), {4, 3, 2}, {-8, 32, 96}, 24);   // np.rot90(a, 3, (2, 0))
  expect_view(rot90(a, -1), {3, 2, 4}, {32, -96, 8}, 96);        // np.rot90(a, -1)
  expect_view(rot90(a, 4), {2, 3, 4}, {96, 32, 8}, 0);
  expect_error(ErrorKind::Value, "Axes must be different.", [&] { rot90(a, 1, 0, 3); });
  expect_error(ErrorKind::Value, "Axes=(0, 5) out of range for array of ndim=3.", [&] { rot90(a, 1, 0, 5); });
}

TEST(ManipulationViews, Moveaxis) {
  const NDArray a = fake_array();
  std::vector<int64_t> zero = {0}, last = {-1}, src = {0, 1}, dst = {2, 0}, bad = {3}, same = {1, 1};
  expect_view(moveaxis(a, axes(zero), axes(last)), {3, 4, 2}, {32, 8, 96}, 0);  // np.moveaxis(a, 0, -1)
  expect_view(moveaxis(a, axes(src), axes(dst)), {3, 4, 2}, {32, 8, 96}, 0);    // np.moveaxis(a, (0, 1), (2, 0))
  expect_error(ErrorKind::Value, "`source` and `destination` arguments must have the same number of elements",
               [&] { moveaxis(a, axes(src), axes(zero)); });
  expect_error(ErrorKind::Value, "repeated axis in `destination` argument", [&] { moveaxis(a, axes(src), axes(same)); });
  expect_error(ErrorKind::Axis, "source: axis 3 is out of bounds for array of dimension 3",
               [&] { moveaxis(a, axes(bad), axes(zero)); });
}

TEST(ManipulationViews, Split) {
  const NDArray a = fake_array();
  std::vector<NDArray> thirds = array_split(a, 3, 2);  // np.array_split(a, 3, axis=2)
  ASSERT_EQ(thirds.size(), 3u);
  expect_view(thirds[0], {2, 3, 2}, {96, 32, 8}, 0);
  expect_view(thirds[1], {2, 3, 1}, {96, 32, 8}, 16);
  expect_view(thirds[2], {2, 3, 1}, {96, 32, 8}, 24);
  std::vector<int64_t> at = {-2, 10, 1};
  std::vector<NDArray> pieces = split(a, axes(at), 1);  // np.split(a, [-2, 10, 1], axis=1)
  ASSERT_EQ(pieces.size(), 4u);
  expect_view(pieces[0], {2, 1, 4}, {96, 32, 8}, 0);
  expect_view(pieces[1], {2, 2, 4}, {96, 32, 8}, 32);
  EXPECT_EQ(pieces[2].shape(), (Shape{2, 0, 4}));
  expect_view(pieces[3], {2, 2, 4}, {96, 32, 8}, 32);
  expect_error(ErrorKind::Value, "array split does not result in an equal division", [&] { split(a, int64_t{3}, 2); });
  expect_error(ErrorKind::Value, "number sections must be larger than 0.", [&] { array_split(a, 0, 0); });
  expect_error(ErrorKind::Axis, "axis 3 is out of bounds for array of dimension 3", [&] { array_split(a, 2, 3); });
}
