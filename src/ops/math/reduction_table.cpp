// The NumPy reductions as data: per row the map/combine/identity/post expressions over the
// reduction engine, an optional accumulator struct (src/kernels/reduce.cuh) and NumPy's rules
// (reduction_table.hpp, docs/reductions.md).
#include "ops/math/reduction_table.hpp"

#include <array>
#include <vector>

#include "ops/ufunc/ufunc_table.hpp"

namespace cuarray::ops {
namespace {

constexpr const char* kCastMap = "cuarray_cast<acc_t>(v)";
constexpr const char* kCastPost = "cuarray_cast<out_t>(a)";
constexpr const char* kZero = "cuarray_cast<acc_t>(0)";
constexpr const char* kOne = "cuarray_cast<acc_t>(1)";
constexpr const char* kNanZero = "cuarray_isnan(v) ? cuarray_cast<acc_t>(0) : cuarray_cast<acc_t>(v)";
constexpr const char* kNanOne = "cuarray_isnan(v) ? cuarray_cast<acc_t>(1) : cuarray_cast<acc_t>(v)";
constexpr const char* kMeanPost = "cuarray_cast<out_t>(a / cuarray_cast<compute_t>(count))";
constexpr const char* kWelfordMap = "cuarray::welford_of(cuarray_cast<compute_t>(v), false)";
constexpr const char* kWelfordNanMap = "cuarray::welford_of(cuarray_cast<compute_t>(v), cuarray_isnan(v))";
constexpr const char* kWelfordMerge = "cuarray::welford_merge(a, b)";
constexpr const char* kWelfordIdentity = "cuarray::welford_of(cuarray_cast<compute_t>(0), true)";
constexpr const char* kWelford = "cuarray::Welford<compute_t>";
constexpr const char* kVarPost = "cuarray_cast<out_t>(cuarray::welford_var<false>(a, param))";
constexpr const char* kStdPost = "cuarray_cast<out_t>(sqrt(cuarray::welford_var<false>(a, param)))";
constexpr const char* kNanVarPost = "cuarray_cast<out_t>(cuarray::welford_var<true>(a, param))";
constexpr const char* kNanStdPost = "cuarray_cast<out_t>(sqrt(cuarray::welford_var<true>(a, param)))";
constexpr const char* kWelfordStep = "cuarray::welford_step(a, cuarray_cast<compute_t>(v))";
constexpr const char* kWelfordStep4 =
    "cuarray::welford_step4(a, cuarray_cast<compute_t>(v0), cuarray_cast<compute_t>(v1), cuarray_cast<compute_t>(v2), "
    "cuarray_cast<compute_t>(v3))";
constexpr const char* kWelfordNanStep = "cuarray_isnan(v) ? a : cuarray::welford_step(a, cuarray_cast<compute_t>(v))";
constexpr const char* kArgMap = "acc_t{cuarray_cast<compute_t>(v), r}";
constexpr const char* kArg = "cuarray::ArgAcc<compute_t>";
constexpr const char* kIndexPost = "cuarray_cast<out_t>(a.index)";
constexpr const char* kArgMinIdentity = "acc_t{cuarray::highest<compute_t>(), 0x7fffffffffffffffll}";
constexpr const char* kArgMaxIdentity = "acc_t{cuarray::lowest<compute_t>(), 0x7fffffffffffffffll}";
constexpr const char* kSumCount = "cuarray::SumCount<compute_t>";
constexpr const char* kSumCountMerge = "acc_t{a.sum + b.sum, a.count + b.count}";
constexpr const char* kSumCountIdentity = "acc_t{cuarray_cast<compute_t>(0), 0.0}";
constexpr const char* kSumCountPost = "cuarray_cast<out_t>(a.sum / cuarray_cast<compute_t>(a.count))";

using R = ResultRule;
using C = ComputeRule;
constexpr uint8_t kArgFlags = kOrdered;
constexpr uint8_t kNanArgFlags = kOrdered | kAllNanError;

// Every post-map converts with cuarray_cast<out_t>, so a kernel can write any dtype (out= of any
// dtype is written directly, cast as NumPy's unsafe casting).
constexpr std::array<ReductionDef, 24> kReductions = {{
    {"sum", "add", R::SumLike, C::Result, Empty::Identity, kFoldsInitial, {}, {kCastMap, "a + b", kZero, kCastPost}},
    {"prod", "multiply", R::SumLike, C::WideProduct, Empty::Identity, kFoldsInitial, {},
     {kCastMap, "a * b", kOne, kCastPost}},
    {"mean", "add", R::Mean, C::Result, Empty::Identity, kRejectsAxisOf0d, {.masked = "_masked_mean"},
     {kCastMap, "a + b", kZero, kMeanPost}},
    {"min", "minimum", R::Same, C::Input, Empty::NoIdentity, kFoldsInitial, {},
     {kCastMap, "cuarray_minimum(a, b)", "cuarray::highest<acc_t>()", kCastPost}},
    {"max", "maximum", R::Same, C::Input, Empty::NoIdentity, kFoldsInitial, {},
     {kCastMap, "cuarray_maximum(a, b)", "cuarray::lowest<acc_t>()", kCastPost}},
    {"var", "add", R::Var, C::Moments, Empty::Identity, kRejectsAxisOf0d, {},
     {kWelfordMap, kWelfordMerge, kWelfordIdentity, kVarPost, kWelford, kWelfordStep, kWelfordStep4}},
    {"std", "add", R::Var, C::Moments, Empty::Identity, kRejectsAxisOf0d, {.then = "sqrt"},
     {kWelfordMap, kWelfordMerge, kWelfordIdentity, kStdPost, kWelford, kWelfordStep, kWelfordStep4}},
    {"argmin", nullptr, R::Index, C::Input, Empty::ArgError, kArgFlags, {},
     {kArgMap, "cuarray::arg_better<false>(a, b)", kArgMinIdentity, kIndexPost, kArg,
      "cuarray::arg_step<false>(a, cuarray_cast<compute_t>(v), r)"}},
    {"argmax", nullptr, R::Index, C::Input, Empty::ArgError, kArgFlags, {},
     {kArgMap, "cuarray::arg_better<true>(a, b)", kArgMaxIdentity, kIndexPost, kArg,
      "cuarray::arg_step<true>(a, cuarray_cast<compute_t>(v), r)"}},
    {"any", "logical_or", R::Bool, C::Input, Empty::Identity, kNoReductionFlags, {},
     {"cuarray_cast<bool>(v)", "a || b", "false", kCastPost, "bool"}},
    {"all", "logical_and", R::Bool, C::Input, Empty::Identity, kNoReductionFlags, {},
     {"cuarray_cast<bool>(v)", "a && b", "true", kCastPost, "bool"}},
    {"count_nonzero", nullptr, R::Index, C::Int64, Empty::Identity, kNoReductionFlags, {},
     {"cuarray_cast<bool>(v) ? 1ll : 0ll", "a + b", "0ll", kCastPost, "long long"}},
    {"nansum", "add", R::SumLike, C::Result, Empty::Identity, kFoldsInitial, {.plain = "sum"},
     {kNanZero, "a + b", kZero, kCastPost}},
    {"nanprod", "multiply", R::SumLike, C::WideProduct, Empty::Identity, kFoldsInitial, {.plain = "prod"},
     {kNanOne, "a * b", kOne, kCastPost}},
    {"nanmean", "add", R::Mean, C::Result, Empty::Identity, kInexactOnly, {.plain = "mean"},
     {"cuarray_isnan(v) ? acc_t{cuarray_cast<compute_t>(0), 0.0} : acc_t{cuarray_cast<compute_t>(v), 1.0}",
      kSumCountMerge, kSumCountIdentity, kSumCountPost, kSumCount}},
    {"nanvar", "add", R::Var, C::Moments, Empty::Identity, kInexactOnly, {.plain = "var"},
     {kWelfordNanMap, kWelfordMerge, kWelfordIdentity, kNanVarPost, kWelford, kWelfordNanStep}},
    {"nanstd", "add", R::Var, C::Moments, Empty::Identity, kInexactOnly, {.plain = "std", .then = "sqrt"},
     {kWelfordNanMap, kWelfordMerge, kWelfordIdentity, kNanStdPost, kWelford, kWelfordNanStep}},
    {"nanmin", "fmin", R::Same, C::Input, Empty::NoIdentity, kFoldsInitial, {.plain = "min"},
     {kCastMap, "cuarray_fmin(a, b)", "cuarray::nan_or_highest<acc_t>()", kCastPost}},
    {"nanmax", "fmax", R::Same, C::Input, Empty::NoIdentity, kFoldsInitial, {.plain = "max"},
     {kCastMap, "cuarray_fmax(a, b)", "cuarray::nan_or_lowest<acc_t>()", kCastPost}},
    {"nanargmin", nullptr, R::Index, C::Input, Empty::ArgError, kNanArgFlags, {.plain = "argmin"},
     {"acc_t{cuarray::nan_as_worst<false>(cuarray_cast<compute_t>(v)), r}", "cuarray::arg_better<false>(a, b)",
      kArgMinIdentity, kIndexPost, kArg,
      "cuarray::arg_step<false>(a, cuarray::nan_as_worst<false>(cuarray_cast<compute_t>(v)), r)"}},
    {"nanargmax", nullptr, R::Index, C::Input, Empty::ArgError, kNanArgFlags, {.plain = "argmax"},
     {"acc_t{cuarray::nan_as_worst<true>(cuarray_cast<compute_t>(v)), r}", "cuarray::arg_better<true>(a, b)",
      kArgMaxIdentity, kIndexPost, kArg,
      "cuarray::arg_step<true>(a, cuarray::nan_as_worst<true>(cuarray_cast<compute_t>(v)), r)"}},
    // mean with where=: the count differs per output, so it is reduced beside the sum.
    {"_masked_mean", "add", R::Mean, C::Result, Empty::Identity, kRejectsAxisOf0d, {},
     {"acc_t{cuarray_cast<compute_t>(v), 1.0}", kSumCountMerge, kSumCountIdentity, kSumCountPost, kSumCount}},
    // The 2-norm, sqrt(sum(|x|^2)), in one pass (linalg.norm; real result as var's).
    {"_norm", nullptr, R::Var, C::Moments, Empty::Identity, kRejectsAxisOf0d, {},
     {"cuarray::abs_squared(cuarray_cast<compute_t>(v))", "a + b", "acc_t(0)", "cuarray_cast<out_t>(sqrt(a))",
      "cuarray::real_t<compute_t>"}},
    // isnan over the reduced axes, all(): the all-NaN-slice check of nanargmin/nanargmax.
    {"_all_nan", nullptr, R::Bool, C::Input, Empty::Identity, kNoReductionFlags, {},
     {"cuarray_isnan(v)", "a && b", "true", kCastPost, "bool"}},
}};

const ReductionDef* row_named(const char* name) {
  if (!name) return nullptr;
  for (const ReductionDef& d : kReductions)
    if (d.name == name) return &d;
  return nullptr;
}

int ufunc_named(const char* name) {
  const UfuncDef* def = name ? find_ufunc(name) : nullptr;
  return def ? static_cast<int>(def - ufunc_defs().data()) : -1;
}

}  // namespace

std::span<const ReductionDef> reduction_defs() { return kReductions; }

const ReductionLinks& reduction_links(const ReductionDef& def) {
  static const std::vector<ReductionLinks> links = [] {
    std::vector<ReductionLinks> v;
    for (const ReductionDef& d : kReductions)
      v.push_back({row_named(d.refs.plain), row_named(d.refs.masked), ufunc_named(d.ufunc), ufunc_named(d.refs.then)});
    return v;
  }();
  return links[static_cast<size_t>(&def - kReductions.data())];
}

}  // namespace cuarray::ops
