// The rows of cuarray.random's parameterised distributions: NumPy's name, its parameters, the
// device sampler (src/kernels/random_distributions.cuh) and NumPy's checks. One generic engine
// (sample.cpp) runs every row on the elementwise engine; nothing else names a distribution.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "cuarray/errors.hpp"
#include "cuarray/random.hpp"
#include "kernels/random_checks.cuh"

namespace cuarray::random {

enum class ParamType : uint8_t { Float, Int };  // loaded as double, or as int64 (NumPy's 'l')
enum class ResultType : uint8_t {
  Float64,
  Int64,
  FloatOfDtype,  // float32 or float64 by dtype= (standard_gamma), parameters in the same type
};

// Which API and which of NumPy's two check paths (all-scalar parameters or any array) a check
// belongs to: NumPy words a few messages differently, and orders poisson's two checks differently.
enum CheckScope : uint8_t {
  kLegacy = 1,
  kGenerator = 2,
  kBothApis = kLegacy | kGenerator,
  kScalarRules = 4,
  kArrayRules = 8,
  kBothRules = kScalarRules | kArrayRules,
  kEverywhere = kBothApis | kBothRules,
};

struct CheckDef {
  random_checks::CheckKind kind;
  std::array<int8_t, 3> args;  // parameter indices (unused ones repeat the first)
  // NumPy's message; "{nan}" reads "is NaN" under the scalar rules and "contains NaNs" for arrays.
  std::string_view message;
  uint8_t scope = kEverywhere;
  ErrorKind error = ErrorKind::Value;
};

// Rows whose all-scalar calls the bulk fill serves (random_fill.hpp): a + b X of its kinds.
enum class ScalarFill : uint8_t {
  None,
  Uniform,      // a = in2 (low), b = in3 - in2
  Normal,       // a = in2 (loc), b = in3 (scale)
  Exponential,  // b = in2 (scale)
  Binomial,     // the inversion kind through binomial_inversion_table(in2, in3), where NumPy inverts
  Poisson,      // the inversion kind through poisson_inversion_table(in2), for lam up to ~55
};

inline constexpr int kMaxParams = 3;
inline constexpr int kMaxChecks = 7;

struct DistributionDef {
  std::string_view name;
  int nparams;
  std::array<std::string_view, kMaxParams> params;
  std::array<ParamType, kMaxParams> types;
  // Device code computing one value from the element's stream `s` and the parameters in2, in3, in4.
  std::string_view sampler;
  ResultType result;
  int nchecks;
  std::array<CheckDef, kMaxChecks> checks;  // in NumPy's order: the first that fails raises
  ScalarFill scalar_fill = ScalarFill::None;
};

std::span<const DistributionDef> distribution_defs();
// The row of NumPy's name; ValueError for an unknown one.
const DistributionDef& distribution_def(std::string_view name);
inline int row_index(const DistributionDef& def) { return static_cast<int>(&def - distribution_defs().data()); }

// The elementwise expression of a row's sampler over in0 = key, in1 = offset, in2.. = parameters,
// and the device code it needs (the stream and every sampler).
const std::string& sampler_expression(const DistributionDef& def);
std::string_view sampler_preamble();

}  // namespace cuarray::random
