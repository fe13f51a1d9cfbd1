// Ufunc calls: resolve the loop, check scalars and casting, broadcast, allocate outputs, run.
#include "cuarray/ufunc.hpp"

#include <array>
#include <string>

#include "core/array_checks.hpp"
#include "cuarray/errors.hpp"
#include "ops/engines/elementwise/elementwise.hpp"
#include "ops/ufunc/ufunc_resolve.hpp"
#include "ops/ufunc/ufunc_table.hpp"

namespace cuarray {
namespace {

using ops::kMaxUfuncArgs;

// NumPy's other names for its ufuncs (numpy.abs is numpy.absolute), the Array API standard's
// spellings among them (numpy.acos is numpy.arccos); Python's namespace is built from this list too.
constexpr UfuncAlias kAliases[] = {
    {"true_divide", "divide"},       {"mod", "remainder"},          {"abs", "absolute"},
    {"conj", "conjugate"},           {"bitwise_not", "invert"},     {"acos", "arccos"},
    {"acosh", "arccosh"},            {"asin", "arcsin"},            {"asinh", "arcsinh"},
    {"atan", "arctan"},              {"atan2", "arctan2"},          {"atanh", "arctanh"},
    {"pow", "power"},                {"bitwise_invert", "invert"},  {"bitwise_left_shift", "left_shift"},
    {"bitwise_right_shift", "right_shift"}};

// Allocated outputs follow the memory order of the first input of the full shape (NumPy's
// order='K'), so a ufunc on transposed arrays writes contiguously.
NDArray allocate_output(std::span<const Operand> inputs, const Shape& shape, DType dtype, Order order) {
  if (order == Order::K || order == Order::A)
    for (const Operand& in : inputs)
      if (!in.is_scalar() && in.array->shape() == shape) return empty_like(*in.array, dtype, order);
  return empty(shape, dtype, order == Order::F ? Order::F : Order::C);
}

// NEP 50: a weak Python int must fit the dtype it is converted to.
void check_python_ints(std::span<const Operand> inputs, const ops::LoopChoice& c) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Operand& in = inputs[i];
    if (!in.is_scalar() || !in.scalar.weak() || in.scalar.kind != Scalar::Kind::Int) continue;
    DType target = is_integer(c.loop->types[i]) ? c.loop->types[i] : c.operand_dtypes[i];
    if (!is_integer(target) || in.scalar.int_fits(target)) continue;
    std::string value = in.scalar.int_is_unsigned ? std::to_string(in.scalar.u) : std::to_string(in.scalar.i);
    throw_error(ErrorKind::Overflow, "Python integer " + value + " out of bounds for " + std::string(dtype_name(target)));
  }
}

}  // namespace

std::span<const Ufunc> Ufunc::all() {
  static const std::vector<Ufunc> all = [] {
    std::vector<Ufunc> v;
    for (size_t i = 0; i < ops::ufunc_defs().size(); ++i) v.emplace_back(static_cast<int>(i));
    return v;
  }();
  return all;
}

std::span<const UfuncAlias> Ufunc::aliases() { return kAliases; }

const Ufunc* Ufunc::find(std::string_view name) {
  for (const UfuncAlias& a : kAliases)
    if (a.alias == name) name = a.name;
  const ops::UfuncDef* def = ops::find_ufunc(name);
  return def ? &all()[static_cast<size_t>(def - ops::ufunc_defs().data())] : nullptr;
}

std::string_view Ufunc::name() const { return ops::ufunc_defs()[index_].name; }
std::string_view Ufunc::doc() const { return ops::ufunc_defs()[index_].doc; }
int Ufunc::nin() const { return ops::ufunc_defs()[index_].nin; }
int Ufunc::nout() const { return ops::ufunc_defs()[index_].nout; }

std::vector<std::string> Ufunc::types() const {
  std::vector<std::string> out;
  for (const auto& l : ops::ufunc_defs()[index_].loops) out.emplace_back(l.types);
  return out;
}

std::vector<DType> Ufunc::resolve_dtypes(std::span<const OperandType> inputs, std::optional<DType> out_dtype,
                                         Casting casting) const {
  if (static_cast<int>(inputs.size()) != nin())
    throw_error(ErrorKind::Value, std::string(name()) + " takes " + std::to_string(nin()) + " input dtypes");
  ops::LoopChoice c = ops::resolve_loop(index_, inputs, out_dtype, casting);
  return std::vector<DType>(c.loop->types, c.loop->types + nin() + nout());
}

UfuncResult Ufunc::operator()(std::span<const Operand> inputs, std::span<NDArray* const> outs,
                              const UfuncOptions& options) const {
  const ops::UfuncDef& def = ops::ufunc_defs()[index_];
  const int nin = def.nin, nout = def.nout;
  if (static_cast<int>(inputs.size()) != nin)
    throw_error(ErrorKind::Type, std::string(def.name) + "() takes from " + std::to_string(nin) + " to " +
                                     std::to_string(nin + nout) + " positional arguments but " +
                                     std::to_string(inputs.size()) + " were given");

  OperandType types[kMaxUfuncArgs];
  for (int i = 0; i < nin; ++i) types[i] = OperandType::of(inputs[i]);
  ops::LoopChoice choice = ops::resolve_loop_memo(index_, std::span(types, nin), options.dtype, options.casting);
  if (def.resolver == ops::TypeResolver::Comparison) {
    // NumPy compares with an out-of-range Python int exactly (uint8_array == 300 is all False):
    // give that int its own strong int64/uint64 dtype instead of raising.
    bool changed = false;
    for (int i = 0; i < nin; ++i) {
      const Operand& in = inputs[i];
      if (in.is_scalar() && in.scalar.weak() && in.scalar.kind == Scalar::Kind::Int &&
          is_integer(choice.operand_dtypes[i]) && !in.scalar.int_fits(choice.operand_dtypes[i])) {
        types[i].weak = false;
        changed = true;
      }
    }
    if (changed) choice = ops::resolve_loop(index_, std::span(types, nin), options.dtype, options.casting);
  }
  check_python_ints(inputs, choice);
  const ops::ParsedLoop& loop = *choice.loop;

  if (def.has(ops::kRejectsNegativeIntegerPower) && is_integer(loop.types[1]) && inputs[1].is_scalar() &&
      inputs[1].scalar.kind == Scalar::Kind::Int && !inputs[1].scalar.int_is_unsigned && inputs[1].scalar.i < 0)
    throw_error(ErrorKind::Value, "Integers to negative integer powers are not allowed.");

  // Broadcast the array inputs (and where=) to the result shape.
  const Shape* shapes[kMaxUfuncArgs + 1];
  int nshapes = 0;
  for (const Operand& in : inputs)
    if (!in.is_scalar()) shapes[nshapes++] = &in.array->shape();
  if (options.where) shapes[nshapes++] = &options.where->shape();
  const Shape shape = nshapes ? broadcast_shapes(std::span(shapes, nshapes)) : Shape{};

  const int device = current_device();
  for (const Operand& in : inputs)
    if (!in.is_scalar()) check_device(*in.array, device);

  UfuncResult result;
  result.count = nout;
  for (int k = 0; k < nout; ++k) {
    const DType loop_out = loop.types[nin + k];
    NDArray* given = k < static_cast<int>(outs.size()) ? outs[k] : nullptr;
    if (!given) {
      result.out[k] = allocate_output(inputs, shape, loop_out, options.order);
      continue;
    }
    if (given->shape() != shape) {
      // NumPy allows out= only at exactly the broadcast shape.
      throw_error(ErrorKind::Value, "non-broadcastable output operand with shape " + shape_repr(given->shape()) +
                                        " doesn't match the broadcast shape " + shape_repr(shape));
    }
    if (!can_cast(loop_out, given->dtype(), options.casting))
      throw_error(ErrorKind::Type, "Cannot cast ufunc '" + std::string(def.name) + "' output from " +
                                       dtype_repr(loop_out) + " to " + dtype_repr(given->dtype()) +
                                       " with casting rule '" + std::string(casting_name(options.casting)) + "'");
    check_device(*given, device, "output array");
    result.out[k] = *given;
  }
  // An input that partly overlaps an output (a[1:] += a[:-1]) is read from a copy, as NumPy does.
  Operand staged[kMaxUfuncArgs];
  NDArray copies[kMaxUfuncArgs];
  for (int i = 0; i < nin; ++i) {
    staged[i] = inputs[i];
    if (inputs[i].is_scalar()) continue;
    for (int k = 0; k < nout; ++k) {
      if (overlaps(*inputs[i].array, result.out[k]) && !same_view(*inputs[i].array, result.out[k])) {
        copies[i] = inputs[i].array->copy();
        staged[i] = Operand::of(copies[i]);
        break;
      }
    }
  }

  NDArray where_mask;
  if (options.where) where_mask = options.where->dtype() == DType::Bool ? *options.where : options.where->astype(DType::Bool);
  ops::ElementwiseSpec spec{static_cast<uint32_t>(index_), loop.expr, nin, nout, loop.types};
  ops::run_elementwise(spec, std::span(staged, nin), std::span(result.out, nout), options.where ? &where_mask : nullptr);
  return result;
}

NDArray Ufunc::operator()(const NDArray& a) const {
  Operand in[] = {Operand::of(a)};
  return (*this)(in).out[0];
}

NDArray Ufunc::operator()(const NDArray& a, const NDArray& b) const {
  Operand in[] = {Operand::of(a), Operand::of(b)};
  return (*this)(in).out[0];
}

const Ufunc& ufunc(std::string_view name) {
  const Ufunc* u = Ufunc::find(name);
  if (!u) throw_error(ErrorKind::Value, "no ufunc named " + std::string(name));
  return *u;
}

NDArray apply(const Ufunc& u, std::initializer_list<Operand> inputs) {
  return u(std::span(inputs.begin(), inputs.size())).out[0];
}

#define CUARRAY_BINARY(name)                                \
  NDArray name(const NDArray& a, const NDArray& b) {        \
    static const Ufunc& u = ufunc(#name);                   \
    return u(a, b);                                         \
  }
#define CUARRAY_UNARY(name)                                 \
  NDArray name(const NDArray& a) {                          \
    static const Ufunc& u = ufunc(#name);                   \
    return u(a);                                            \
  }
CUARRAY_BINARY(add) CUARRAY_BINARY(subtract) CUARRAY_BINARY(multiply) CUARRAY_BINARY(divide)
CUARRAY_BINARY(power) CUARRAY_BINARY(maximum) CUARRAY_BINARY(minimum)
CUARRAY_UNARY(negative) CUARRAY_UNARY(sqrt) CUARRAY_UNARY(exp) CUARRAY_UNARY(log) CUARRAY_UNARY(sin) CUARRAY_UNARY(cos)
#undef CUARRAY_BINARY
#undef CUARRAY_UNARY

}  // namespace cuarray
