// NumPy's cumulative functions: cumsum, cumprod, nancumsum, nancumprod and ufunc.accumulate, all on
// one scan engine (docs/scans.md).
#pragma once
#include <optional>
#include <string_view>

#include "cuarray/ndarray.hpp"
#include "cuarray/ufunc.hpp"

namespace cuarray {

// numpy.<name>(a, axis=axis, dtype=dtype, out=out) for name in cumsum, cumprod, nancumsum,
// nancumprod. axis nullopt scans the flattened array (C order; a 0-d array gives a 1-d result).
// The result dtype is NumPy's: bool and integers narrower than 64 bits give int64 (unsigned:
// uint64), other dtypes keep theirs. `out`, when given, must have the result's shape; it receives
// the values (cast unsafely) and is returned. Throws AxisError for a bad axis, ValueError for an
// unknown name or a wrong out shape.
NDArray cumulative(std::string_view name, const NDArray& a, std::optional<int64_t> axis = std::nullopt,
                   std::optional<DType> dtype = std::nullopt, const NDArray* out = nullptr);

inline NDArray cumsum(const NDArray& a, std::optional<int64_t> axis = std::nullopt,
                      std::optional<DType> dtype = std::nullopt) {
  return cumulative("cumsum", a, axis, dtype);
}
inline NDArray cumprod(const NDArray& a, std::optional<int64_t> axis = std::nullopt,
                       std::optional<DType> dtype = std::nullopt) {
  return cumulative("cumprod", a, axis, dtype);
}

// ufunc.accumulate(a, axis=axis, dtype=dtype, out=out): out[0] = a[0], out[i] = u(out[i-1], a[i])
// along `axis`, for a ufunc with two inputs and one output whose resolved loop has one dtype
// throughout (TypeError otherwise; ValueError for other ufuncs; TypeError for a 0-d `a`).
// Associative ufuncs (add, multiply, maximum, minimum, fmax, fmin, logical_* and bitwise_*) scan in
// parallel; the others fold left to right, step by step as NumPy does.
NDArray accumulate(const Ufunc& u, const NDArray& a, int64_t axis = 0, std::optional<DType> dtype = std::nullopt,
                   const NDArray* out = nullptr);

}  // namespace cuarray
