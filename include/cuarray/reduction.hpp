// NumPy's reductions: sum, prod, mean, var, std, min, max, argmin, argmax, any, all,
// count_nonzero and their nan-variants, over any axes, on one reduction engine.
#pragma once
#include <optional>
#include <span>
#include <string_view>

#include "cuarray/ndarray.hpp"

namespace cuarray {

// NumPy's where= and the part of initial= the engine needs to know of.
struct ReduceOptions {
  // Elements where this bool array (broadcastable to the input) is false are left out; means and
  // variances count only the others. Not for the arg reductions and count_nonzero (as NumPy).
  const NDArray* where = nullptr;
  // The caller folds an initial value into the result (NumPy's initial=, applied with the
  // reduction's ufunc): an empty reduction without identity (min/max) then gives the identity
  // instead of raising, and a where= mask is allowed for them.
  bool has_initial = false;
};

// numpy.<name>(a, axis=axes, dtype=dtype, keepdims=keepdims); `param` is ddof for var/std.
// argmin/argmax-style reductions take at most one axis (nullopt: the flattened array).
// Throws ValueError for an empty reduction without identity, AxisError for a bad axis.
NDArray reduce(std::string_view name, const NDArray& a, std::optional<std::span<const int64_t>> axes = std::nullopt,
               std::optional<DType> dtype = std::nullopt, bool keepdims = false, double param = 0,
               const ReduceOptions& options = {});

}  // namespace cuarray
