// NumPy's reductions over the reduction engine: the Reduction handles, planning by the table's
// rules (reduction_table.cpp) and reduce() with NumPy's where=, initial= and out=
// (docs/reductions.md).
#include "ops/math/reductions.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/array_checks.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/ufunc.hpp"
#include "ops/engines/elementwise/internal_ops.hpp"
#include "ops/math/reduction_operands.hpp"
#include "ops/ufunc/ufunc_resolve.hpp"

namespace cuarray {
namespace {

using ops::ComputeRule;
using ops::Empty;
using ops::ReductionDef;
using ops::ResultRule;

struct ReductionAlias {
  std::string_view alias, name;
};
constexpr ReductionAlias kAliases[] = {{"amin", "min"}, {"amax", "max"}};

const ReductionDef& def_of(const Reduction& r) { return ops::reduction_defs()[static_cast<size_t>(r.index())]; }
int index_of(const ReductionDef& def) { return static_cast<int>(&def - ops::reduction_defs().data()); }

// The row that runs: without NaNs to skip, NumPy's nan-functions are the plain ones (nanvar of
// ints is var, with var's inf for n - ddof <= 0).
const ReductionDef& run_row(const ReductionDef& asked, DType in) {
  const ReductionDef* plain = ops::reduction_links(asked).plain;
  return plain && !is_inexact(in) ? *plain : asked;
}

DType result_dtype(ResultRule rule, DType in) {
  switch (rule) {
    case ResultRule::SumLike:
      if (in == DType::Bool || kind(in) == DTypeKind::SignedInt) return DType::Int64;
      return kind(in) == DTypeKind::UnsignedInt ? DType::UInt64 : in;
    case ResultRule::Same: return in;
    case ResultRule::Mean: return is_inexact(in) ? in : DType::Float64;
    case ResultRule::Var: return real_dtype(is_inexact(in) ? in : DType::Float64);
    case ResultRule::Bool: return DType::Bool;
    case ResultRule::Index: return DType::Int64;
  }
  return in;
}

DType compute_dtype(ComputeRule rule, DType in, DType result, bool dtype_given) {
  DType t = result;
  switch (rule) {
    case ComputeRule::Result: break;
    case ComputeRule::WideProduct:
      if (t == DType::Float32) t = DType::Float64;
      if (t == DType::Complex64) t = DType::Complex128;
      break;
    case ComputeRule::Input: t = in; break;
    case ComputeRule::Moments:
      if (!dtype_given && is_complex(in)) t = in;
      break;
    case ComputeRule::Int64: t = DType::Int64; break;
  }
  return t == DType::Float16 ? DType::Float32 : t;
}

// Whether the engine's offsets reach every element of `a`: it widens them to 64 bits by the byte
// count, so a strided view written directly must span less than 2 GiB.
bool engine_can_write(const NDArray& a) {
  if (a.size() == 0 || a.c_contiguous() || a.f_contiguous()) return true;
  int64_t span = a.itemsize();
  for (int d = 0; d < a.ndim(); ++d) span += (a.shape()[d] - 1) * std::llabs(a.strides()[d]);
  return span <= 0x7fffffff;
}

// NumPy's initial=: converted to the result's dtype as a Python value (whatever its type, so a
// NumPy int64 out of int8's range is an OverflowError too), then folded in with the ufunc.
void fold_initial(const Ufunc& u, NDArray& result, const Scalar& initial) {
  Scalar value = initial;
  value.dtype.reset();
  value.check_assignable(result.dtype());
  alignas(16) unsigned char bytes[16];
  value.store_as(result.dtype(), bytes);
  const Operand in[] = {Operand::of(result), Operand::of(Scalar::load(result.dtype(), bytes))};
  NDArray* outs[] = {&result};
  u(in, outs);
}

// std's out= must take sqrt's result (NumPy's std is sqrt(var, out=out), same_kind casting).
void check_then_ufunc(int ufunc, DType out) {
  const OperandType in[] = {OperandType{out}};
  const DType produced = ops::resolve_loop(ufunc, in, std::nullopt, Casting::SameKind).loop->types[1];
  if (!can_cast(produced, out, Casting::SameKind))
    throw_error(ErrorKind::Type, "Cannot cast ufunc '" + std::string(ops::ufunc_defs()[ufunc].name) + "' output from " +
                                     dtype_repr(produced) + " to " + dtype_repr(out) +
                                     " with casting rule 'same_kind'");
}

}  // namespace

std::span<const Reduction> Reduction::all() {
  static const std::vector<Reduction> all = [] {
    std::vector<Reduction> v;
    for (size_t i = 0; i < ops::reduction_defs().size(); ++i) v.emplace_back(static_cast<int>(i));
    return v;
  }();
  return all;
}

const Reduction* Reduction::find(std::string_view name) {
  for (const ReductionAlias& a : kAliases)
    if (a.alias == name) name = a.name;
  for (const ReductionDef& d : ops::reduction_defs())
    if (d.name == name) return &all()[static_cast<size_t>(index_of(d))];
  return nullptr;
}

std::string_view Reduction::name() const { return def_of(*this).name; }
bool Reduction::single_axis() const { return def_of(*this).has(ops::kOrdered); }

namespace ops {

ReductionKernelPlan plan_reduction(const Reduction& r, DType in, std::optional<DType> dtype, std::optional<DType> out) {
  const ReductionDef& def = run_row(def_of(r), in);
  const int ufunc = reduction_links(def).ufunc;
  std::optional<DType> loop = dtype;
  std::optional<DType> sum_loop;  // mean/var: the add loop NumPy sums into out= with
  if (out && !dtype && ufunc >= 0) {
    switch (def.result) {
      case ResultRule::SumLike:
      case ResultRule::Same:
        loop = resolve_reduce_like(ufunc, in, std::nullopt, out).types[2];
        break;
      case ResultRule::Mean:
      case ResultRule::Var:
        // NumPy's mean and var pass dtype=float64 for bool and integers (mean: float32 for
        // float16), which out= cannot change; else they sum into out= in the loop it resolves.
        if (is_inexact(in) && !(def.result == ResultRule::Mean && in == DType::Float16))
          sum_loop = resolve_reduce_like(ufunc, result_dtype(def.result, in), std::nullopt, out).types[2];
        break;
      case ResultRule::Bool:   // NumPy's logical reductions take the bool loop whatever out is
      case ResultRule::Index:
        break;
    }
  }
  ReductionKernelPlan plan;
  plan.def = &def;
  plan.out = loop ? *loop : result_dtype(def.result, in);
  plan.compute = compute_dtype(def.compute, in, plan.out, loop.has_value());
  if (sum_loop) plan.compute = promote_types(plan.compute, *sum_loop);
  const ReductionKernel& k = def.kernel;
  plan.spec = ReductionSpec{static_cast<uint64_t>(InternalOp::Reduction) + static_cast<uint64_t>(index_of(def)),
                            k.map, k.combine, k.identity, k.post, k.acc_type, k.step, k.step4};
  return plan;
}

}  // namespace ops

NDArray reduce(const Reduction& r, const NDArray& a, std::optional<std::span<const int64_t>> axes,
               std::optional<DType> dtype, bool keepdims, double param, const ReduceOptions& options) {
  const ReductionDef& asked = def_of(r);
  const ops::ReductionLinks& links = ops::reduction_links(asked);
  const ReductionDef& def = run_row(asked, a.dtype());
  const NDArray* out = options.out;
  const NDArray* where = options.where;
  // NumPy's where= and initial= are arguments of the ufunc reductions.
  if (options.initial && !asked.has(ops::kFoldsInitial))
    throw_error(ErrorKind::Type, std::string(asked.name) + "() got an unexpected keyword argument 'initial'");
  if (where && links.ufunc < 0)
    throw_error(ErrorKind::Type, std::string(asked.name) + "() got an unexpected keyword argument 'where'");
  if (asked.has(ops::kInexactOnly) && is_inexact(a.dtype())) {
    if (dtype && !is_inexact(*dtype)) throw_error(ErrorKind::Type, "If a is inexact, then dtype must be inexact");
    if (out && !is_inexact(out->dtype())) throw_error(ErrorKind::Type, "If a is inexact, then out must be inexact");
  }
  if (def.has(ops::kOrdered) && axes && axes->size() > 1)
    throw_error(ErrorKind::Type, std::string(asked.name) + " takes a single axis (an integer) or None");
  if (def.has(ops::kRejectsAxisOf0d) && a.ndim() == 0 && axes && !axes->empty())
    throw_error(ErrorKind::Axis, "axis " + std::to_string((*axes)[0]) + " is out of bounds for array of dimension 0");
  const auto reduced = ops::reduction_axes(axes, a.ndim());
  if (where && where->dtype() != DType::Bool)
    throw_error(ErrorKind::Type, "Cannot cast array data from " + dtype_repr(where->dtype()) +
                                     " to dtype('bool') according to the rule 'safe'");

  Shape out_shape, keep_shape;
  int64_t count = 1;
  for (int d = 0; d < a.ndim(); ++d) {
    const bool is_reduced = std::find(reduced.begin(), reduced.end(), d) != reduced.end();
    if (is_reduced) count *= a.shape()[d];
    else out_shape.push_back(a.shape()[d]);
    keep_shape.push_back(is_reduced ? 1 : a.shape()[d]);
  }
  // NumPy's order of errors: nanargmin's all-NaN slices, an arg reduction's empty slice, the
  // operands' shapes, the where= mask without initial=, an empty reduction without identity.
  if (def.has(ops::kAllNanError) && is_inexact(a.dtype()) && a.size() > 0) {
    // A second reduction and one small device->host read: the only reductions that synchronize.
    static const Reduction& all_nan = *Reduction::find("_all_nan");
    static const Reduction& any = *Reduction::find("any");
    bool any_all_nan = false;
    reduce(any, reduce(all_nan, a, axes)).copy_to_host(&any_all_nan);
    if (any_all_nan) throw_error(ErrorKind::Value, "All-NaN slice encountered");
  }
  // NumPy's nanargmin is argmin of the NaN-replaced data: its errors name argmin.
  const std::string_view base = links.plain ? links.plain->name : asked.name;
  if (count == 0 && def.empty == Empty::ArgError)
    throw_error(ErrorKind::Value, "attempt to get " + std::string(base) + " of an empty sequence");
  const std::optional<DType> out_dtype = out ? std::optional<DType>(out->dtype()) : std::nullopt;
  const ReductionDef* masked = where ? ops::reduction_links(def).masked : nullptr;
  const ops::ReductionKernelPlan plan =
      ops::plan_reduction(masked ? Reduction::all()[static_cast<size_t>(index_of(*masked))] : r, a.dtype(), dtype,
                          out_dtype);
  if (links.ufunc >= 0) {
    ops::check_reduction_operands(asked.ufunc, a.shape(), std::span<const int>(reduced.data(), reduced.size()), keepdims,
                                  out ? &out->shape() : nullptr,
                                  where ? &where->shape() : nullptr);
  } else if (out) {
    if (out->shape() != (keepdims ? keep_shape : out_shape))
      throw_error(ErrorKind::Value, "output array does not match result of np." + std::string(base) + ".");
    if (!can_cast(out->dtype(), plan.out, Casting::Safe))
      throw_error(ErrorKind::Type, "Cannot cast array data from " + dtype_repr(out->dtype()) + " to " +
                                       dtype_repr(plan.out) + " according to the rule 'safe'");
  }
  if (def.empty == Empty::NoIdentity && !options.initial) {
    if (where)
      throw_error(ErrorKind::Value, "reduction operation '" + std::string(asked.ufunc) +
                                        "' does not have an identity, so to use a where mask one has to specify "
                                        "'initial'");
    if (count == 0)
      throw_error(ErrorKind::Value, "zero-size array to reduction operation " + std::string(asked.ufunc) +
                                        " which has no identity");
  }
  if (out && links.then >= 0) check_then_ufunc(links.then, out->dtype());
  if (out) check_device(*out, a.device(), "output array");
  std::optional<NDArray> mask;
  if (where) mask = where->broadcast_to(a.shape());

  // The kernel writes out= itself unless it overlaps an operand, or initial= must be folded in
  // the loop's dtype first; otherwise a temporary of the loop's (or out's) dtype is copied in.
  NDArray out_view = out ? out->reshape(out_shape) : NDArray();
  const bool direct = out && (!options.initial || out->dtype() == plan.out) && !overlaps(a, *out) &&
                      !(mask && overlaps(*mask, *out)) && engine_can_write(out_view);
  NDArray result = direct ? out_view : empty(out_shape, out && !options.initial ? out->dtype() : plan.out);
  ops::run_reduction(plan.spec, a, std::span(reduced.data(), reduced.size()), plan.compute, result, param,
                     plan.def->has(ops::kOrdered), mask ? &*mask : nullptr);
  if (options.initial) fold_initial(Ufunc::all()[static_cast<size_t>(links.ufunc)], result, *options.initial);
  if (out) {
    if (!direct) out_view.assign(result);
    return *out;
  }
  return keepdims ? result.reshape(keep_shape) : result;
}

NDArray reduce(std::string_view name, const NDArray& a, std::optional<std::span<const int64_t>> axes,
               std::optional<DType> dtype, bool keepdims, double param, const ReduceOptions& options) {
  const Reduction* r = Reduction::find(name);
  if (!r) throw_error(ErrorKind::Value, "no reduction named " + std::string(name));
  return reduce(*r, a, axes, dtype, keepdims, param, options);
}

NDArray NDArray::sum(std::optional<std::span<const int64_t>> axes, std::optional<DType> dtype, bool keepdims) const {
  static const Reduction& sum = *Reduction::find("sum");
  return reduce(sum, *this, axes, dtype, keepdims);
}

}  // namespace cuarray
