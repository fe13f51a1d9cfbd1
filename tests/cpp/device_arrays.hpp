// Small device arrays for the GPU tests: host vectors to device arrays and back, and the check of
// an array's dtype, shape and values (NaN-aware, optionally sign-of-zero-aware).
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "cuarray/ndarray.hpp"

namespace cuarray::test {

template <class T>
constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, int8_t>) return DType::Int8;
  else if constexpr (std::is_same_v<T, int16_t>) return DType::Int16;
  else if constexpr (std::is_same_v<T, int32_t>) return DType::Int32;
  else if constexpr (std::is_same_v<T, int64_t>) return DType::Int64;
  else if constexpr (std::is_same_v<T, uint8_t>) return DType::UInt8;
  else if constexpr (std::is_same_v<T, uint16_t>) return DType::UInt16;
  else if constexpr (std::is_same_v<T, uint32_t>) return DType::UInt32;
  else if constexpr (std::is_same_v<T, uint64_t>) return DType::UInt64;
  else if constexpr (std::is_same_v<T, float>) return DType::Float32;
  else {
    static_assert(std::is_same_v<T, double>, "a host type with a cuarray dtype");
    return DType::Float64;
  }
}

// A new device array of `values` (C order): 1-D unless a shape is given.
template <class T>
NDArray device_array(const std::vector<T>& values, std::optional<Shape> shape = std::nullopt) {
  return from_host(values.data(), shape.value_or(Shape{static_cast<int64_t>(values.size())}), dtype_of<T>());
}

// A 1-D bool device array.
inline NDArray bool_array(const std::vector<uint8_t>& bits) {
  return from_host(bits.data(), Shape{static_cast<int64_t>(bits.size())}, DType::Bool);
}

// The elements of `a` (C order) as T, which must have a's itemsize.
template <class T>
std::vector<T> host_values(const NDArray& a) {
  EXPECT_EQ(a.itemsize(), static_cast<int64_t>(sizeof(T)));
  std::vector<T> out(static_cast<size_t>(a.size()));
  a.copy_to_host(out.data());
  return out;
}

// `a` has exactly `dtype` and `shape` and the values `expected` (C order, read as T): NaN matches
// NaN; -0.0 matches 0.0 unless `signed_zeros`.
template <class T>
void expect_array(const NDArray& a, DType dtype, const Shape& shape, const std::vector<T>& expected,
                  bool signed_zeros = false) {
  ASSERT_EQ(a.dtype(), dtype) << dtype_name(a.dtype());
  ASSERT_EQ(a.shape(), shape) << shape_repr(a.shape());
  const std::vector<T> got = host_values<T>(a);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(expected[i])) {
        EXPECT_TRUE(std::isnan(got[i])) << "element " << i << ": " << got[i];
        continue;
      }
      if (signed_zeros) EXPECT_EQ(std::signbit(got[i]), std::signbit(expected[i])) << "sign of element " << i;
    }
    EXPECT_EQ(got[i], expected[i]) << "element " << i;
  }
}

}  // namespace cuarray::test
