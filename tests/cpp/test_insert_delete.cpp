// numpy.insert and numpy.delete (cuarray/manipulation.hpp) with every form of obj, against NumPy:
// each expected value is what the NumPy expression beside it gives, on
// a = np.array([[4, 8, 15], [16, 23, 42], [7, 1, 9], [3, 5, 11]], np.int32). The errors NumPy
// raises from shapes, dtypes and host positions alone are checked on arrays that are never
// dereferenced, so without a GPU; the rest needs one (skips without).
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "cuarray/manipulation.hpp"
#include "device_arrays.hpp"
#include "expect_error.hpp"
#include "gpu_test.hpp"

using namespace cuarray;
using cuarray::test::bool_array;
using cuarray::test::device_array;
using cuarray::test::expect_array;
using cuarray::test::expect_error;

namespace {

using I32 = std::vector<int32_t>;

NDArray sample() { return device_array<int32_t>({4, 8, 15, 16, 23, 42, 7, 1, 9, 3, 5, 11}, Shape{4, 3}); }

NDArray int32_values(const I32& v, std::optional<Shape> shape = std::nullopt) { return device_array<int32_t>(v, shape); }

AxisIndex positions(std::vector<int64_t> p) { return AxisIndex::of(std::move(p)); }

// A C-contiguous array over host memory that is never read: what the host-side checks see.
NDArray unbacked(Shape shape, DType dtype) {
  alignas(16) static char memory[1024];
  const auto item = static_cast<int64_t>(itemsize(dtype));
  return NDArray(nullptr, memory, shape, c_strides(shape, item), dtype);
}

}  // namespace

TEST(Delete, IntegerAndSlice) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const NDArray a = sample();
  // np.delete(a, 1, 0)
  expect_array<int32_t>(delete_(a, AxisIndex::integer(1), 0), DType::Int32, {3, 3}, {4, 8, 15, 7, 1, 9, 3, 5, 11});
  // np.delete(a, -1, 1)
  expect_array<int32_t>(delete_(a, AxisIndex::integer(-1), 1), DType::Int32, {4, 2}, {4, 8, 16, 23, 7, 1, 3, 5});
  // np.delete(a, slice(1, 3), 0)
  expect_array<int32_t>(delete_(a, AxisIndex::slice(1, 3, 1), 0), DType::Int32, {2, 3}, {4, 8, 15, 3, 5, 11});
  // np.delete(a, slice(None, None, 2), 1)
  expect_array<int32_t>(delete_(a, AxisIndex::slice(0, INT64_MAX, 2), 1), DType::Int32, {4, 1}, {8, 23, 1, 5});
  // np.delete(a, slice(3, 0, -2), 0)
  expect_array<int32_t>(delete_(a, AxisIndex::slice(3, 0, -2), 0), DType::Int32, {2, 3}, {4, 8, 15, 7, 1, 9});
  // np.delete(a, slice(None, None, -1), 1): every column
  expect_array<int32_t>(delete_(a, AxisIndex::slice(INT64_MAX, INT64_MIN, -1), 1), DType::Int32, {4, 0}, {});
  // np.delete(a, slice(4, 1), 0): nothing, a copy
  const NDArray all = delete_(a, AxisIndex::slice(4, 1, 1), 0);
  EXPECT_NE(all.raw_data(), a.raw_data());
  expect_array<int32_t>(all, DType::Int32, {4, 3}, {4, 8, 15, 16, 23, 42, 7, 1, 9, 3, 5, 11});
}

TEST(Delete, PositionsAndMasks) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const NDArray a = sample();
  // np.delete(a, [0, 2, 2, -1], 0): repeated positions count once
  expect_array<int32_t>(delete_(a, positions({0, 2, 2, -1}), 0), DType::Int32, {1, 3}, {16, 23, 42});
  // np.delete(a, [5, 0, 11]): the flattened array
  expect_array<int32_t>(delete_(a, positions({5, 0, 11})), DType::Int32, {9}, {8, 15, 16, 23, 7, 1, 9, 3, 5});
  // np.delete(a, [2], 1): one position
  expect_array<int32_t>(delete_(a, positions({2}), 1), DType::Int32, {4, 2}, {4, 8, 16, 23, 7, 1, 3, 5});
  // np.delete(a, [], 0)
  expect_array<int32_t>(delete_(a, positions({}), 0), DType::Int32, {4, 3}, {4, 8, 15, 16, 23, 42, 7, 1, 9, 3, 5, 11});
  // np.delete(a, np.array([0, 3]), axis=0) with the positions on the device
  expect_array<int32_t>(delete_(a, AxisIndex::of(device_array<int64_t>({0, 3})), 0), DType::Int32, {2, 3},
                        {16, 23, 42, 7, 1, 9});
  // np.delete(a, np.array([True, False, True]), 1)
  expect_array<int32_t>(delete_(a, AxisIndex::of(bool_array({1, 0, 1})), 1), DType::Int32, {4, 1}, {8, 23, 1, 5});
}

TEST(Delete, HostErrors) {
  const NDArray a = unbacked(Shape{4, 3}, DType::Int32);
  expect_error(ErrorKind::Index, "index 4 is out of bounds for axis 0 with size 4",
               [&] { delete_(a, AxisIndex::integer(4), 0); });
  // a list of one position takes the single-position path, which names the axis
  expect_error(ErrorKind::Index, "index -9 is out of bounds for axis 1 with size 3", [&] { delete_(a, positions({-9}), 1); });
  // several positions index the keep mask, whose message names its axis 0
  expect_error(ErrorKind::Index, "index 9 is out of bounds for axis 0 with size 3",
               [&] { delete_(a, positions({0, 9}), 1); });
  expect_error(ErrorKind::Value,
               "boolean array argument obj to delete must be one dimensional and match the axis length of 4",
               [&] { delete_(a, AxisIndex::of(unbacked(Shape{2}, DType::Bool)), 0); });
  expect_error(ErrorKind::Value,
               "boolean array argument obj to delete must be one dimensional and match the axis length of 12",
               [&] { delete_(a, AxisIndex::of(unbacked(Shape{4, 3}, DType::Bool))); });
  expect_error(ErrorKind::Index, "arrays used as indices must be of integer (or boolean) type",
               [&] { delete_(a, AxisIndex::of(unbacked(Shape{1}, DType::Float64)), 0); });
  expect_error(ErrorKind::Axis, "axis 2 is out of bounds for array of dimension 2",
               [&] { delete_(a, AxisIndex::integer(0), 2); });
  expect_error(ErrorKind::Axis, "axis -3 is out of bounds for array of dimension 2",
               [&] { delete_(a, positions({0, 1}), -3); });
}

TEST(Insert, OnePosition) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const NDArray a = sample();
  // np.insert(a, 1, [70, 71, 72], 0)
  expect_array<int32_t>(insert(a, AxisIndex::integer(1), int32_values({70, 71, 72}), 0), DType::Int32, {5, 3},
                        {4, 8, 15, 70, 71, 72, 16, 23, 42, 7, 1, 9, 3, 5, 11});
  // np.insert(a, 3, [[1], [2], [3], [4]], 1): a scalar position inserts values' first axis along axis 1
  expect_array<int32_t>(insert(a, AxisIndex::integer(3), int32_values({1, 2, 3, 4}, Shape{4, 1}), 1), DType::Int32,
                        {4, 7}, {4, 8, 15, 1, 2, 3, 4, 16, 23, 42, 1, 2, 3, 4, 7, 1, 9, 1, 2, 3, 4, 3, 5, 11, 1, 2, 3, 4});
  // np.insert(a, 0, 5, 1)
  expect_array<int32_t>(insert(a, AxisIndex::integer(0), int32_values({5}, Shape{}), 1), DType::Int32, {4, 4},
                        {5, 4, 8, 15, 5, 16, 23, 42, 5, 7, 1, 9, 5, 3, 5, 11});
  // np.insert(a, [1], [[9, 8, 7]], 0): a one-element list inserts as a[[1]] = values
  expect_array<int32_t>(insert(a, positions({1}), int32_values({9, 8, 7}, Shape{1, 3}), 0), DType::Int32, {5, 3},
                        {4, 8, 15, 9, 8, 7, 16, 23, 42, 7, 1, 9, 3, 5, 11});
  // np.insert(a, -3, 2.9): the flattened array; values cast to a's dtype as NumPy's array(values, dtype)
  expect_array<int32_t>(insert(a, AxisIndex::integer(-3), device_array<double>({2.9}, Shape{})), DType::Int32, {13},
                        {4, 8, 15, 16, 23, 42, 7, 1, 9, 2, 3, 5, 11});
  // np.insert(a, 1, np.ones((1, 1, 3), np.int32), 0): setitem drops the extra leading length-1 axis
  expect_array<int32_t>(insert(a, AxisIndex::integer(1), int32_values({1, 1, 1}, Shape{1, 1, 3}), 0), DType::Int32,
                        {5, 3}, {4, 8, 15, 1, 1, 1, 16, 23, 42, 7, 1, 9, 3, 5, 11});
  // np.insert(a, 12, [1, 2]): at the end
  expect_array<int32_t>(insert(a, AxisIndex::integer(12), int32_values({1, 2})), DType::Int32, {14},
                        {4, 8, 15, 16, 23, 42, 7, 1, 9, 3, 5, 11, 1, 2});
}

TEST(Insert, SeveralPositions) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const NDArray a = sample();
  // np.insert(a, [0, 2, 2], [100, 200, 300], 1): equal positions keep obj's order
  expect_array<int32_t>(insert(a, positions({0, 2, 2}), int32_values({100, 200, 300}), 1), DType::Int32, {4, 6},
                        {100, 4, 8, 200, 300, 15, 100, 16, 23, 200, 300, 42, 100, 7, 1, 200, 300, 9, 100, 3, 5, 200, 300, 11});
  // np.insert(a, [3, 0], [[-1, -2, -3], [-4, -5, -6]], 0): values follow obj's order
  expect_array<int32_t>(insert(a, positions({3, 0}), int32_values({-1, -2, -3, -4, -5, -6}, Shape{2, 3}), 0),
                        DType::Int32, {6, 3}, {-4, -5, -6, 4, 8, 15, 16, 23, 42, 7, 1, 9, -1, -2, -3, 3, 5, 11});
  // np.insert(a, slice(1, 3), 0, 0)
  expect_array<int32_t>(insert(a, AxisIndex::slice(1, 3, 1), int32_values({0}, Shape{}), 0), DType::Int32, {6, 3},
                        {4, 8, 15, 0, 0, 0, 16, 23, 42, 0, 0, 0, 7, 1, 9, 3, 5, 11});
  // np.insert(a, np.array([True, False, True, False]), 6, 0): the mask's nonzero positions
  expect_array<int32_t>(insert(a, AxisIndex::of(bool_array({1, 0, 1, 0})), int32_values({6}, Shape{}), 0), DType::Int32,
                        {6, 3}, {6, 6, 6, 4, 8, 15, 16, 23, 42, 6, 6, 6, 7, 1, 9, 3, 5, 11});
  // np.insert(a, [0, 2], np.array([[[5], [6], [7], [8]]], np.int32), 1): values of shape (1, 4, 1)
  // lose their leading axis and broadcast to the (4, 2) slots
  expect_array<int32_t>(insert(a, positions({0, 2}), int32_values({5, 6, 7, 8}, Shape{1, 4, 1}), 1), DType::Int32,
                        {4, 5}, {5, 4, 8, 5, 15, 6, 16, 23, 6, 42, 7, 7, 1, 7, 9, 8, 3, 5, 8, 11});
  // np.insert(a, np.array([5, 1, 5]), [7, 8, 9]): positions on the device, the flattened array
  expect_array<int32_t>(insert(a, AxisIndex::of(device_array<int64_t>({5, 1, 5})), int32_values({7, 8, 9})), DType::Int32,
                        {15}, {4, 8, 8, 15, 16, 23, 7, 9, 42, 7, 1, 9, 3, 5, 11});
}

TEST(Insert, HostErrors) {
  const NDArray a = unbacked(Shape{4, 3}, DType::Int32);
  // values of another dtype: the position is checked before values are cast (which needs a GPU)
  const NDArray one = unbacked(Shape{}, DType::Float64);
  expect_error(ErrorKind::Index, "index 5 is out of bounds for axis 0 with size 4",
               [&] { insert(a, AxisIndex::integer(5), one, 0); });
  expect_error(ErrorKind::Index, "index -13 is out of bounds for axis 0 with size 12",
               [&] { insert(a, AxisIndex::integer(-13), one); });
  expect_error(ErrorKind::Index, "index [5] is out of bounds for axis 0 with size 4",
               [&] { insert(a, positions({5}), one, 0); });
  // the second position moves past the first value: 6 + 1 in a result of 6 rows
  expect_error(ErrorKind::Index, "index 7 is out of bounds for axis 0 with size 6",
               [&] { insert(a, positions({0, 6}), one, 0); });
  expect_error(ErrorKind::Value, "index array argument obj to insert must be one dimensional or scalar",
               [&] { insert(a, AxisIndex::of(unbacked(Shape{1, 1}, DType::Int64)), one, 0); });
  expect_error(ErrorKind::Value, "boolean array argument obj to insert must be one dimensional",
               [&] { insert(a, AxisIndex::of(unbacked(Shape{1, 1}, DType::Bool)), one, 0); });
  expect_error(ErrorKind::Index, "arrays used as indices must be of integer (or boolean) type",
               [&] { insert(a, AxisIndex::of(unbacked(Shape{2}, DType::Float64)), one, 0); });
  expect_error(ErrorKind::Axis, "axis 2 is out of bounds for array of dimension 2",
               [&] { insert(a, AxisIndex::integer(0), one, 2); });
  // values that do not fit the inserted rows: NumPy's setitem errors, checked before any allocation
  expect_error(ErrorKind::Value, "shape mismatch: value array of shape (4,) could not be broadcast to indexing result "
                                 "of shape (2,3)",
               [&] { insert(a, positions({0, 1}), unbacked(Shape{4}, DType::Int32), 0); });
  expect_error(ErrorKind::Value, "could not broadcast input array from shape (2,2) into shape (4,2)",
               [&] { insert(a, AxisIndex::integer(1), unbacked(Shape{2, 2}, DType::Int32), 1); });
  // np.insert(np.arange(5), 1, [[[7, 8]]]): setitem drops the extra leading length-1 axes first
  const NDArray v = unbacked(Shape{5}, DType::Int32);
  expect_error(ErrorKind::Value, "could not broadcast input array from shape (2,) into shape (1,)",
               [&] { insert(v, AxisIndex::integer(1), unbacked(Shape{1, 1, 2}, DType::Int32)); });
  // np.insert(np.arange(5), [1, 2], [[[7, 8, 9]]]): the indexed assignment names values' own shape
  expect_error(ErrorKind::Value, "shape mismatch: value array of shape (1,1,3) could not be broadcast to indexing "
                                 "result of shape (2,)",
               [&] { insert(v, positions({1, 2}), unbacked(Shape{1, 1, 3}, DType::Int32)); });
}

TEST(Insert, FloatPositionErrors) {
  CUARRAY_SKIP_WITHOUT_GPU();
  const NDArray a = sample();
  const NDArray one = int32_values({1}, Shape{});
  // one float position is read back, compared with the bounds, then refused as a slice bound
  // (NumPy's errors)
  expect_error(ErrorKind::Index, "index [7.5] is out of bounds for axis 0 with size 4",
               [&] { insert(a, AxisIndex::of(device_array<double>({7.5})), one, 0); });
  expect_error(ErrorKind::Index, "index -4.25 is out of bounds for axis 0 with size 4",
               [&] { insert(a, AxisIndex::of(device_array<double>({-4.25}, Shape{})), one, 0); });
  expect_error(ErrorKind::Type, "slice indices must be integers or None or have an __index__ method",
               [&] { insert(a, AxisIndex::of(device_array<double>({2.0})), one, 0); });
}
