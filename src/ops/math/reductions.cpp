// The NumPy reductions as data over the reduction engine: each is a map/combine/identity/post
// expression set plus NumPy's result-dtype rule (docs/reductions.md).
#include <algorithm>
#include <array>
#include <string>

#include "cuarray/errors.hpp"
#include "cuarray/reduction.hpp"
#include "ops/engines/elementwise/internal_ops.hpp"
#include "ops/engines/reduction/reduction.hpp"

namespace cuarray {
namespace {

// How NumPy picks a reduction's result dtype from the input's (when dtype= is not given).
enum class ResultRule : uint8_t {
  SumLike,  // sum/prod: bool and signed ints give int64, unsigned ints uint64, others keep theirs
  Same,     // min/max
  Mean,     // mean: bool and ints give float64
  Var,      // var/std: the real dtype of the Mean rule (complex64 gives float32)
  Bool,     // any/all
  Index,    // argmin/argmax/count_nonzero: int64
};

enum class Empty : uint8_t { Identity, NoIdentity, ArgError };

struct ReductionDef {
  std::string_view name;
  ResultRule result;
  Empty empty;
  bool ordered;        // indices are C-order flat indices (arg reductions)
  bool all_nan_error;  // nanargmin/nanargmax: an all-NaN slice raises ValueError
  std::string_view map, combine, identity, post, acc_type;
  std::string_view step = {};   // ReductionSpec::step
  std::string_view step4 = {};  // ReductionSpec::step4
};

constexpr const char* kCastMap = "cuarray_cast<acc_t>(v)";
constexpr const char* kCastPost = "cuarray_cast<out_t>(a)";
constexpr const char* kZero = "cuarray_cast<acc_t>(0)";
constexpr const char* kNanZero = "cuarray_isnan(v) ? cuarray_cast<acc_t>(0) : cuarray_cast<acc_t>(v)";
constexpr const char* kNanOne = "cuarray_isnan(v) ? cuarray_cast<acc_t>(1) : cuarray_cast<acc_t>(v)";
constexpr const char* kWelfordMap = "cuarray::welford_of(cuarray_cast<compute_t>(v), false)";
constexpr const char* kWelfordNanMap = "cuarray::welford_of(cuarray_cast<compute_t>(v), cuarray_isnan(v))";
constexpr const char* kWelfordIdentity = "cuarray::welford_of(cuarray_cast<compute_t>(0), true)";
constexpr const char* kWelford = "cuarray::Welford<compute_t>";
constexpr const char* kVarPost = "cuarray_cast<out_t>(cuarray::welford_var<false>(a, param))";
constexpr const char* kStdPost = "cuarray_cast<out_t>(sqrt(cuarray::welford_var<false>(a, param)))";
constexpr const char* kNanVarPost = "cuarray_cast<out_t>(cuarray::welford_var<true>(a, param))";
constexpr const char* kNanStdPost = "cuarray_cast<out_t>(sqrt(cuarray::welford_var<true>(a, param)))";
constexpr const char* kArgMap = "acc_t{cuarray_cast<compute_t>(v), r}";
constexpr const char* kArg = "cuarray::ArgAcc<compute_t>";
constexpr const char* kIndexPost = "(out_t)a.index";
constexpr const char* kWelfordStep = "cuarray::welford_step(a, cuarray_cast<compute_t>(v))";
constexpr const char* kWelfordStep4 =
    "cuarray::welford_step4(a, cuarray_cast<compute_t>(v0), cuarray_cast<compute_t>(v1), cuarray_cast<compute_t>(v2), "
    "cuarray_cast<compute_t>(v3))";
constexpr const char* kWelfordNanStep = "cuarray_isnan(v) ? a : cuarray::welford_step(a, cuarray_cast<compute_t>(v))";
constexpr const char* kSumCount = "cuarray::SumCount<compute_t>";

using R = ResultRule;
constexpr std::array<ReductionDef, 24> kReductions = {{
    {"sum", R::SumLike, Empty::Identity, false, false, kCastMap, "a + b", kZero, kCastPost, ""},
    {"prod", R::SumLike, Empty::Identity, false, false, kCastMap, "a * b", "cuarray_cast<acc_t>(1)", kCastPost, ""},
    {"mean", R::Mean, Empty::Identity, false, false, kCastMap, "a + b", kZero,
     "cuarray_cast<out_t>(a / cuarray_cast<compute_t>(count))", ""},
    {"min", R::Same, Empty::NoIdentity, false, false, kCastMap, "cuarray_minimum(a, b)", "cuarray::highest<acc_t>()",
     kCastPost, ""},
    {"max", R::Same, Empty::NoIdentity, false, false, kCastMap, "cuarray_maximum(a, b)", "cuarray::lowest<acc_t>()",
     kCastPost, ""},
    {"var", R::Var, Empty::Identity, false, false, kWelfordMap, "cuarray::welford_merge(a, b)", kWelfordIdentity,
     kVarPost, kWelford, kWelfordStep, kWelfordStep4},
    {"std", R::Var, Empty::Identity, false, false, kWelfordMap, "cuarray::welford_merge(a, b)", kWelfordIdentity,
     kStdPost, kWelford, kWelfordStep, kWelfordStep4},
    {"argmin", R::Index, Empty::ArgError, true, false, kArgMap, "cuarray::arg_better<false>(a, b)",
     "acc_t{cuarray::highest<compute_t>(), 0x7fffffffffffffffll}", kIndexPost, kArg,
     "cuarray::arg_step<false>(a, cuarray_cast<compute_t>(v), r)"},
    {"argmax", R::Index, Empty::ArgError, true, false, kArgMap, "cuarray::arg_better<true>(a, b)",
     "acc_t{cuarray::lowest<compute_t>(), 0x7fffffffffffffffll}", kIndexPost, kArg,
     "cuarray::arg_step<true>(a, cuarray_cast<compute_t>(v), r)"},
    {"any", R::Bool, Empty::Identity, false, false, "cuarray_cast<bool>(v)", "a || b", "false", "a", "bool"},
    {"all", R::Bool, Empty::Identity, false, false, "cuarray_cast<bool>(v)", "a && b", "true", "a", "bool"},
    {"count_nonzero", R::Index, Empty::Identity, false, false, "cuarray_cast<bool>(v) ? 1ll : 0ll", "a + b", "0ll",
     kCastPost, "long long"},
    {"nansum", R::SumLike, Empty::Identity, false, false, kNanZero, "a + b", kZero, kCastPost, ""},
    {"nanprod", R::SumLike, Empty::Identity, false, false, kNanOne, "a * b", "cuarray_cast<acc_t>(1)", kCastPost, ""},
    {"nanmean", R::Mean, Empty::Identity, false, false,
     "cuarray_isnan(v) ? acc_t{cuarray_cast<compute_t>(0), 0.0} : acc_t{cuarray_cast<compute_t>(v), 1.0}",
     "acc_t{a.sum + b.sum, a.count + b.count}", "acc_t{cuarray_cast<compute_t>(0), 0.0}",
     "cuarray_cast<out_t>(a.sum / cuarray_cast<compute_t>(a.count))", kSumCount},
    {"nanvar", R::Var, Empty::Identity, false, false, kWelfordNanMap, "cuarray::welford_merge(a, b)",
     kWelfordIdentity, kNanVarPost, kWelford, kWelfordNanStep},
    {"nanstd", R::Var, Empty::Identity, false, false, kWelfordNanMap, "cuarray::welford_merge(a, b)",
     kWelfordIdentity, kNanStdPost, kWelford, kWelfordNanStep},
    {"nanmin", R::Same, Empty::NoIdentity, false, false, kCastMap, "cuarray_fmin(a, b)",
     "cuarray::nan_or_highest<acc_t>()", kCastPost, ""},
    {"nanmax", R::Same, Empty::NoIdentity, false, false, kCastMap, "cuarray_fmax(a, b)",
     "cuarray::nan_or_lowest<acc_t>()", kCastPost, ""},
    {"nanargmin", R::Index, Empty::ArgError, true, true,
     "acc_t{cuarray::nan_as_worst<false>(cuarray_cast<compute_t>(v)), r}", "cuarray::arg_better<false>(a, b)",
     "acc_t{cuarray::highest<compute_t>(), 0x7fffffffffffffffll}", kIndexPost, kArg,
     "cuarray::arg_step<false>(a, cuarray::nan_as_worst<false>(cuarray_cast<compute_t>(v)), r)"},
    {"nanargmax", R::Index, Empty::ArgError, true, true,
     "acc_t{cuarray::nan_as_worst<true>(cuarray_cast<compute_t>(v)), r}", "cuarray::arg_better<true>(a, b)",
     "acc_t{cuarray::lowest<compute_t>(), 0x7fffffffffffffffll}", kIndexPost, kArg,
     "cuarray::arg_step<true>(a, cuarray::nan_as_worst<true>(cuarray_cast<compute_t>(v)), r)"},
    // mean with where=: the count differs per output, so it is reduced beside the sum.
    {"_masked_mean", R::Mean, Empty::Identity, false, false, "acc_t{cuarray_cast<compute_t>(v), 1.0}",
     "acc_t{a.sum + b.sum, a.count + b.count}", "acc_t{cuarray_cast<compute_t>(0), 0.0}",
     "cuarray_cast<out_t>(a.sum / cuarray_cast<compute_t>(a.count))", kSumCount},
    // The 2-norm, sqrt(sum(|x|^2)), in one pass (linalg.norm; real result as var's).
    {"_norm", R::Var, Empty::Identity, false, false, "cuarray::abs_squared(cuarray_cast<compute_t>(v))", "a + b",
     "acc_t(0)", "cuarray_cast<out_t>(sqrt(a))", "cuarray::real_t<compute_t>"},
    // isnan over the reduced axes, all(): the all-NaN-slice check of nanargmin/nanargmax.
    {"_all_nan", R::Bool, Empty::Identity, false, false, "cuarray_isnan(v)", "a && b", "true", "a", "bool"},
}};

const ReductionDef* find(std::string_view name) {
  if (name == "amin") name = "min";
  if (name == "amax") name = "max";
  for (const ReductionDef& d : kReductions)
    if (d.name == name) return &d;
  return nullptr;
}

DType result_dtype(ResultRule rule, DType in) {
  switch (rule) {
    case R::SumLike:
      if (in == DType::Bool || kind(in) == DTypeKind::SignedInt) return DType::Int64;
      return kind(in) == DTypeKind::UnsignedInt ? DType::UInt64 : in;
    case R::Same: return in;
    case R::Mean: return is_inexact(in) ? in : DType::Float64;
    case R::Var: return real_dtype(is_inexact(in) ? in : DType::Float64);
    case R::Bool: return DType::Bool;
    case R::Index: return DType::Int64;
  }
  return in;
}

// The dtype the reduction computes in: float16 work happens in float32 (NumPy's accumulators);
// var/std of complex computes in complex; comparisons and indices in the input's dtype.
DType compute_dtype(const ReductionDef& def, DType in, DType result, bool dtype_given) {
  DType t = result;
  if (def.result == R::Same || def.result == R::Index || def.result == R::Bool) t = in;
  if (def.result == R::Var && !dtype_given) t = is_complex(in) ? in : result;
  if (def.name == "count_nonzero") t = DType::Int64;
  // A long float32 product loses digits at every step (there is no pairwise trick for it):
  // multiply in double and round once.
  if (def.name.find("prod") != std::string_view::npos && (t == DType::Float32 || t == DType::Complex64))
    t = t == DType::Float32 ? DType::Float64 : DType::Complex128;
  return t == DType::Float16 ? DType::Float32 : t;
}

}  // namespace

namespace ops {

std::span<const std::string_view> reduction_names() {
  static const std::array<std::string_view, kReductions.size()> names = [] {
    std::array<std::string_view, kReductions.size()> n{};
    for (size_t i = 0; i < kReductions.size(); ++i) n[i] = kReductions[i].name;
    return n;
  }();
  return names;
}

ReductionKernelPlan plan_reduction(std::string_view name, DType in, std::optional<DType> dtype) {
  // Without NaNs to skip, NumPy's nan-functions are the plain ones (nanvar of ints is var, with
  // var's inf for n - ddof <= 0); the internal rows (_all_nan, ...) keep their names.
  if (name.starts_with("nan") && !is_inexact(in)) name.remove_prefix(3);
  const ReductionDef* def = find(name);
  if (!def) throw_error(ErrorKind::Value, "no reduction named " + std::string(name));
  ReductionKernelPlan plan;
  plan.out = dtype ? *dtype : result_dtype(def->result, in);
  plan.compute = compute_dtype(*def, in, plan.out, dtype.has_value());
  plan.spec = ReductionSpec{static_cast<uint64_t>(InternalOp::Reduction) + static_cast<uint64_t>(def - kReductions.data()),
                            def->map, def->combine, def->identity, def->post, def->acc_type, def->step,
                            def->step4};
  plan.ordered = def->ordered;
  plan.has_identity = def->empty == Empty::Identity;
  plan.all_nan_error = def->all_nan_error;
  // NumPy's nanmean/nanvar/nanstd of floats are built from ufunc reductions (which take axis 0 on
  // a 0-d array); of integers they are mean/var/std (mapped above).
  const bool via_ufunc_reductions = def->name.starts_with("nan");
  plan.counts_items = (def->result == R::Mean || def->result == R::Var) && !via_ufunc_reductions;
  return plan;
}

}  // namespace ops

NDArray reduce(std::string_view name, const NDArray& a, std::optional<std::span<const int64_t>> axes,
               std::optional<DType> dtype, bool keepdims, double param, const ReduceOptions& options) {
  // Under a mask the mean counts the selected elements; nanmean of an exact dtype is the mean.
  const bool masked_mean = options.where && (name == "mean" || (name == "nanmean" && !is_inexact(a.dtype())));
  const ops::ReductionKernelPlan plan = ops::plan_reduction(masked_mean ? "_masked_mean" : name, a.dtype(), dtype);
  if (plan.ordered && axes && axes->size() > 1)
    throw_error(ErrorKind::Type, std::string(name) + " takes a single axis (an integer) or None");
  // NumPy's ufunc reductions accept axis 0 on a 0-d array; mean/var/std (and their nan forms) do not.
  if (plan.counts_items && a.ndim() == 0 && axes && !axes->empty())
    throw_error(ErrorKind::Axis, "axis " + std::to_string((*axes)[0]) + " is out of bounds for array of dimension 0");
  const auto reduced = ops::reduction_axes(axes, a.ndim());
  const bool is_min = name.find("min") != std::string_view::npos;
  if (options.where && !plan.has_identity && !options.has_initial)
    throw_error(ErrorKind::Value, std::string("reduction operation '") + (is_min ? "minimum" : "maximum") +
                                      "' does not have an identity, so to use a where mask one has to specify 'initial'");
  std::optional<NDArray> mask;
  if (options.where) {
    if (options.where->dtype() != DType::Bool)
      throw_error(ErrorKind::Type, "Cannot cast array data from dtype('" + std::string(dtype_name(options.where->dtype())) +
                                       "') to dtype('bool') according to the rule 'safe'");
    mask = options.where->broadcast_to(a.shape());
  }

  Shape out_shape, keep_shape;
  int64_t count = 1;
  for (int d = 0; d < a.ndim(); ++d) {
    bool is_reduced = std::find(reduced.begin(), reduced.end(), d) != reduced.end();
    if (is_reduced) count *= a.shape()[d];
    else out_shape.push_back(a.shape()[d]);
    keep_shape.push_back(is_reduced ? 1 : a.shape()[d]);
  }
  if (count == 0 && !plan.has_identity && !options.has_initial) {
    if (plan.ordered) throw_error(ErrorKind::Value, "attempt to get " + std::string(name) + " of an empty sequence");
    throw_error(ErrorKind::Value, std::string("zero-size array to reduction operation ") +
                                      (is_min ? "minimum" : "maximum") + " which has no identity");
  }
  NDArray out = empty(out_shape, plan.out);
  ops::run_reduction(plan.spec, a, std::span(reduced.data(), reduced.size()), plan.compute, out, param, plan.ordered,
                     mask ? &*mask : nullptr);
  if (plan.all_nan_error && is_inexact(a.dtype()) && out.size() > 0) {
    // NumPy raises for an all-NaN slice: a second reduction and one small device->host read.
    NDArray all_nan = reduce("_all_nan", a, axes);
    bool any_all_nan = false;
    reduce("any", all_nan).copy_to_host(&any_all_nan);
    if (any_all_nan) throw_error(ErrorKind::Value, "All-NaN slice encountered");
  }
  return keepdims ? out.reshape(keep_shape) : out;
}

NDArray NDArray::sum(std::optional<std::span<const int64_t>> axes, std::optional<DType> dtype, bool keepdims) const {
  return reduce("sum", *this, axes, dtype, keepdims);
}

}  // namespace cuarray
