// Shape and stride arithmetic; expected values are what NumPy gives for the same operation.
#include <gtest/gtest.h>

#include "cuarray/errors.hpp"
#include "cuarray/shape.hpp"
#include "ops/engines/coalesce.hpp"

using namespace cuarray;

TEST(Shape, Broadcast) {
  Shape a{2, 1, 3}, b{4, 1}, c{};
  const Shape* s[] = {&a, &b, &c};
  EXPECT_EQ(broadcast_shapes(s), (Shape{2, 4, 3}));
  Shape d{3}, e{4};
  const Shape* bad[] = {&d, &e};
  try {
    broadcast_shapes(bad);
    FAIL() << "expected ValueError";
  } catch (const Error& err) {
    EXPECT_EQ(err.kind(), ErrorKind::Value);
    EXPECT_NE(std::string(err.what()).find("(3,) (4,)"), std::string::npos) << err.what();
  }
}

TEST(Shape, BroadcastStrides) {
  EXPECT_EQ(broadcast_strides(Shape{1, 3}, Strides{24, 8}, Shape{5, 4, 3}), (Strides{0, 0, 8}));
}

TEST(Shape, Contiguity) {
  EXPECT_TRUE(is_c_contiguous(Shape{2, 3}, Strides{12, 4}, 4));
  EXPECT_FALSE(is_f_contiguous(Shape{2, 3}, Strides{12, 4}, 4));
  EXPECT_TRUE(is_f_contiguous(Shape{2, 3}, Strides{4, 8}, 4));
  EXPECT_TRUE(is_c_contiguous(Shape{1, 3}, Strides{999, 4}, 4));  // length-1 dims don't count
  EXPECT_TRUE(is_c_contiguous(Shape{0, 3}, Strides{-5, 7}, 4));    // empty arrays are contiguous
  EXPECT_EQ(c_strides(Shape{2, 3, 4}, 8), (Strides{96, 32, 8}));
  EXPECT_EQ(f_strides(Shape{2, 3, 4}, 8), (Strides{8, 16, 48}));
}

TEST(Shape, ReshapeViewsWhenNumPyDoes) {
  // np.arange(24).reshape(2,3,4) -> reshape(6,4) is a view.
  auto s = reshape_strides(Shape{2, 3, 4}, Strides{96, 32, 8}, Shape{6, 4}, 8, Order::C);
  ASSERT_TRUE(s);
  EXPECT_EQ(*s, (Strides{32, 8}));
  // Its transpose (4,3,2) with strides (8,32,96) -> reshape(12, 2) in C order needs a copy.
  EXPECT_FALSE(reshape_strides(Shape{4, 3, 2}, Strides{8, 32, 96}, Shape{12, 2}, 8, Order::C));
  // ... but in F order it is a view: strides (8, 96).
  auto f = reshape_strides(Shape{4, 3, 2}, Strides{8, 32, 96}, Shape{12, 2}, 8, Order::F);
  ASSERT_TRUE(f);
  EXPECT_EQ(*f, (Strides{8, 96}));
  // a[:, ::2] of a (4, 6) float64: reshape(8, 1... ) keeps the step.
  auto step = reshape_strides(Shape{4, 3}, Strides{48, 16}, Shape{2, 2, 3}, 8, Order::C);
  ASSERT_TRUE(step);
  EXPECT_EQ(*step, (Strides{96, 48, 16}));
}

TEST(Shape, ResolveReshape) {
  EXPECT_EQ(resolve_reshape(Shape{-1, 4}, 24), (Shape{6, 4}));
  EXPECT_THROW(resolve_reshape(Shape{-1, 5}, 24), Error);
  EXPECT_THROW(resolve_reshape(Shape{-1, -1}, 24), Error);
  EXPECT_THROW(resolve_reshape(Shape{7}, 24), Error);
}

TEST(Shape, NormalizeAxis) {
  EXPECT_EQ(normalize_axis(-1, 3), 2);
  try {
    normalize_axis(3, 3);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Axis);
  }
}

TEST(Shape, SliceRangeIsPythonsSliceIndices) {
  auto expect_range = [](SliceRange r, int64_t start, int64_t step, int64_t length) {
    EXPECT_EQ(r.start, start);
    EXPECT_EQ(r.step, step);
    EXPECT_EQ(r.length, length);
  };
  constexpr int64_t kOpen = INT64_MAX, kOpenLow = INT64_MIN;
  expect_range(slice_range(5, 1, 3, 1), 1, 1, 2);                  // slice(1, 3).indices(5): (1, 3, 1)
  expect_range(slice_range(5, 0, kOpen, 2), 0, 2, 3);              // slice(None, None, 2): 0, 2, 4
  expect_range(slice_range(5, kOpen, kOpenLow, -1), 4, -1, 5);     // slice(None, None, -1): (4, -1, -1)
  expect_range(slice_range(5, 3, 0, -2), 3, -2, 2);                // slice(3, 0, -2): 3, 1
  expect_range(slice_range(5, 4, 1, 1), 4, 1, 0);                  // slice(4, 1): nothing
  expect_range(slice_range(5, -7, 9, 1), 0, 1, 5);                 // bounds past either end clamp
  expect_range(slice_range(5, -2, kOpen, 1), 3, 1, 2);             // negative bounds count from the end
  expect_range(slice_range(0, 0, kOpen, 1), 0, 1, 0);
}

TEST(Shape, ByteExtentWithNegativeStrides) {
  ByteExtent e = byte_extent(Shape{3, 2}, Strides{-16, 8}, 8);
  EXPECT_EQ(e.lo, -32);
  EXPECT_EQ(e.hi, 16);
}

TEST(Coalesce, MergesContiguousDims) {
  ops::StridedView v;
  v.shape = Shape{2, 3, 4};
  v.strides[0] = Strides{96, 32, 8};
  v.strides[1] = Strides{0, 0, 8};  // a broadcast row: only the last dim can merge with nothing
  v.count = 2;
  ops::coalesce(v);
  EXPECT_EQ(v.shape, (Shape{6, 4}));
  EXPECT_EQ(v.strides[0], (Strides{32, 8}));
  EXPECT_EQ(v.strides[1], (Strides{0, 8}));
}

TEST(Coalesce, TransposedOutputIsReordered) {
  ops::StridedView v;
  v.shape = Shape{4, 5};
  v.strides[0] = Strides{4, 16};  // F-ordered
  v.count = 1;
  ops::coalesce(v);
  EXPECT_EQ(v.shape, (Shape{20}));
  EXPECT_EQ(v.strides[0], (Strides{4}));
}
