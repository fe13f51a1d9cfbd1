// dtype facts from NumPy 2 (the expected values are what numpy.promote_types/can_cast return).
#include <gtest/gtest.h>

#include <vector>

#include "cuarray/dtype.hpp"

using namespace cuarray;

TEST(DType, ItemsizeAndChars) {
  EXPECT_EQ(itemsize(DType::Complex128), 16u);
  EXPECT_EQ(itemsize(DType::Float16), 2u);
  EXPECT_EQ(type_char(DType::Int64), 'l');
  EXPECT_EQ(*dtype_from_char('q'), DType::Int64);  // NumPy's longlong alias
  EXPECT_EQ(*dtype_from_char('Q'), DType::UInt64);
  EXPECT_FALSE(dtype_from_char('g').has_value());  // longdouble is not supported
  EXPECT_EQ(*dtype_from_name("complex64"), DType::Complex64);
}

TEST(DType, PromotionMatchesNumPy) {
  struct Case { DType a, b, expected; };  // np.promote_types(a, b)
  const Case cases[] = {
      {DType::Int8, DType::UInt8, DType::Int16},        {DType::Int64, DType::UInt64, DType::Float64},
      {DType::Float16, DType::Int16, DType::Float32},   {DType::Float16, DType::UInt8, DType::Float16},
      {DType::Complex64, DType::Float64, DType::Complex128}, {DType::Bool, DType::Int8, DType::Int8},
      {DType::UInt32, DType::Int32, DType::Int64},      {DType::Int16, DType::Float32, DType::Float32},
      {DType::Int32, DType::Float32, DType::Float64},   {DType::UInt64, DType::Float16, DType::Float64},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(promote_types(c.a, c.b), c.expected) << dtype_name(c.a) << " + " << dtype_name(c.b);
    EXPECT_EQ(promote_types(c.b, c.a), c.expected) << "promotion is symmetric";
  }
}

TEST(DType, SequencePromotionIsNumPysResultType) {
  struct Case { std::vector<DType> dtypes; DType expected; };  // np.result_type(*dtypes)
  const Case cases[] = {
      {{DType::Int8, DType::UInt8, DType::Float16}, DType::Float16},  // a left fold gives float32
      {{DType::Bool, DType::Int8, DType::UInt8, DType::Float16}, DType::Float16},
      {{DType::Float16, DType::Int8, DType::UInt8}, DType::Float16},
      {{DType::Int8, DType::UInt16, DType::Float16}, DType::Float32},
      {{DType::Int8, DType::UInt8, DType::Int16}, DType::Int16},
      {{DType::Int8, DType::UInt64, DType::Float32}, DType::Float64},
      {{DType::Int8, DType::UInt8}, DType::Int16},
      {{DType::Complex64}, DType::Complex64},
  };
  for (const Case& c : cases) EXPECT_EQ(promote_types(std::span<const DType>(c.dtypes)), c.expected);
  // Two dtypes: the pairwise rule.
  for (int i = 0; i < kNumDTypes; ++i)
    for (int j = 0; j < kNumDTypes; ++j) {
      const DType pair[2] = {static_cast<DType>(i), static_cast<DType>(j)};
      EXPECT_EQ(promote_types(std::span<const DType>(pair, 2)), promote_types(pair[0], pair[1]));
    }
}

TEST(DType, PromotionIsSymmetricAndIdempotent) {
  for (int i = 0; i < kNumDTypes; ++i) {
    DType a = static_cast<DType>(i);
    EXPECT_EQ(promote_types(a, a), a);
    for (int j = 0; j < kNumDTypes; ++j) EXPECT_EQ(promote_types(a, static_cast<DType>(j)), promote_types(static_cast<DType>(j), a));
  }
}

TEST(DType, CastingLevels) {
  EXPECT_TRUE(can_cast(DType::Int8, DType::Int16, Casting::Safe));
  EXPECT_FALSE(can_cast(DType::Int16, DType::Int8, Casting::Safe));
  EXPECT_TRUE(can_cast(DType::Int16, DType::Int8, Casting::SameKind));
  EXPECT_FALSE(can_cast(DType::Float64, DType::Int64, Casting::SameKind));
  EXPECT_TRUE(can_cast(DType::Float64, DType::Int64, Casting::Unsafe));
  EXPECT_TRUE(can_cast(DType::UInt64, DType::Float64, Casting::Safe));
  EXPECT_FALSE(can_cast(DType::Complex64, DType::Float64, Casting::SameKind));
  EXPECT_FALSE(can_cast(DType::Int32, DType::UInt32, Casting::Equiv));
  for (int i = 0; i < kNumDTypes; ++i) EXPECT_TRUE(can_cast(static_cast<DType>(i), static_cast<DType>(i), Casting::No));
  EXPECT_EQ(*casting_from_name("same_kind"), Casting::SameKind);
}
