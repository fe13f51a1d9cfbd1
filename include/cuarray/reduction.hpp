// NumPy's reductions: sum, prod, mean, var, std, min, max, argmin, argmax, any, all,
// count_nonzero and their nan-variants, over any axes, on one reduction engine.
#pragma once
#include <optional>
#include <span>
#include <string_view>

#include "cuarray/ndarray.hpp"

namespace cuarray {

// NumPy's where=, initial= and out= (every argument NumPy's reductions take besides axis, dtype,
// keepdims and ddof).
struct ReduceOptions {
  // Elements where this bool array (broadcastable to the input) is false are left out; means and
  // variances count only the others. TypeError for a non-bool array. min/max need `initial` with
  // it (NumPy's ValueError otherwise).
  const NDArray* where = nullptr;
  // NumPy's initial=, for sum, prod, min, max and their nan forms (TypeError for the others):
  // folded into every result with the reduction's ufunc (add, multiply, minimum, maximum, fmin,
  // fmax) after NumPy's conversion to the loop's dtype, which treats it as a Python value: a float
  // truncates for an integer loop, an integer out of range is an OverflowError, a complex for a
  // real loop a TypeError. An empty min/max then gives `initial` instead of raising.
  std::optional<Scalar> initial;
  // NumPy's out=: the result is written into it (cast unsafely) and it is returned. Its shape must
  // be the result's (keepdims included): NumPy's ValueError otherwise. The ufunc reductions
  // resolve their loop with out's dtype as NumPy does (sum of float32 into a float64 out adds in
  // float64; mean of float32 too); argmin/argmax need an out that casts safely to int64, std an
  // inexact one (TypeError).
  const NDArray* out = nullptr;
};

// One NumPy reduction, found by name once: calling reduce() with it looks nothing up.
class Reduction {
 public:
  // NumPy's name ("sum", "nanargmax", ...) or alias (amin, amax); nullptr for an unknown name.
  // Internal rows start with '_' ("_norm": the 2-norm of linalg.norm).
  static const Reduction* find(std::string_view name);
  static std::span<const Reduction> all();  // every row, in table order

  std::string_view name() const;
  // argmin/argmax and their nan forms: at most one axis, which Python passes as an integer.
  bool single_axis() const;

  int index() const { return index_; }
  explicit Reduction(int index) : index_(index) {}

 private:
  int index_;
};

// numpy.<r>(a, axis=axes, dtype=dtype, keepdims=keepdims, ...); `param` is ddof for var/std.
// Single-axis reductions take at most one axis (nullopt: the flattened array). Returns
// *options.out when it is given. Throws ValueError for an empty reduction without identity,
// AxisError for a bad axis, NumPy's errors for out=, where= and initial= (ReduceOptions).
NDArray reduce(const Reduction& r, const NDArray& a, std::optional<std::span<const int64_t>> axes = std::nullopt,
               std::optional<DType> dtype = std::nullopt, bool keepdims = false, double param = 0,
               const ReduceOptions& options = {});
// The same by name (Reduction::find on every call); ValueError for an unknown name.
NDArray reduce(std::string_view name, const NDArray& a, std::optional<std::span<const int64_t>> axes = std::nullopt,
               std::optional<DType> dtype = std::nullopt, bool keepdims = false, double param = 0,
               const ReduceOptions& options = {});

}  // namespace cuarray
