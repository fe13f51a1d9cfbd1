// NumPy's reductions: sum, prod, mean, var, std, min, max, argmin, argmax, any, all,
// count_nonzero and their nan-variants, over any axes, on one reduction engine.
#pragma once
#include <optional>
#include <span>
#include <string_view>

#include "cuarray/ndarray.hpp"

namespace cuarray {

// numpy.<name>(a, axis=axes, dtype=dtype, keepdims=keepdims); `param` is ddof for var/std.
// argmin/argmax-style reductions take at most one axis (nullopt: the flattened array).
// Throws ValueError for an empty reduction without identity, AxisError for a bad axis.
NDArray reduce(std::string_view name, const NDArray& a, std::optional<std::span<const int64_t>> axes = std::nullopt,
               std::optional<DType> dtype = std::nullopt, bool keepdims = false, double param = 0);

// Whether `name` is one of the reductions above.
bool is_reduction(std::string_view name);

}  // namespace cuarray
