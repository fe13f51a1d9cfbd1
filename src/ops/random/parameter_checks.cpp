#include "ops/random/parameter_checks.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "cuarray/reduction.hpp"
#include "kernels/fragments.hpp"
#include "ops/engines/elementwise/internal_ops.hpp"

namespace cuarray::random {
namespace {

bool all_scalar(std::span<const Operand> params) {
  for (const Operand& p : params)
    if (!p.is_scalar() && p.array->ndim() != 0) return false;
  return true;
}

bool in_scope(const CheckDef& c, Api api, bool scalar_rules) {
  const uint8_t api_bit = api == Api::Legacy ? kLegacy : kGenerator;
  return (c.scope & api_bit) && (c.scope & (scalar_rules ? kScalarRules : kArrayRules));
}

[[noreturn]] void raise(const CheckDef& c, bool scalar_rules) {
  std::string message(c.message);
  const size_t at = message.find("{nan}");
  if (at != std::string::npos) message.replace(at, 5, scalar_rules ? "is NaN" : "contains NaNs");
  throw_error(c.error, message);
}

// A parameter's value as NumPy checks it: converted to int64 first for integer parameters.
double host_value(const Operand& p, ParamType t) {
  double v;
  if (p.is_scalar()) {
    v = p.scalar.real_value();
  } else {
    p.array->astype(DType::Float64).copy_to_host(&v);  // a 0-d array: one value
  }
  return t == ParamType::Int ? std::trunc(v) : v;
}

}  // namespace

std::string check_expression(const DistributionDef& def, Api api) {
  std::string e = "out0 = ";
  for (int k = 0; k < def.nchecks; ++k) {
    const CheckDef& c = def.checks[k];
    if (!in_scope(c, api, false)) continue;
    e += "cuarray::random_checks::violates(cuarray::random_checks::CheckKind(" +
         std::to_string(static_cast<int>(c.kind)) + ")";
    for (int8_t a : c.args) e += ", static_cast<double>(in" + std::to_string(a) + ")";
    e += ") ? " + std::to_string(k) + " : ";
  }
  return e + "255;";
}

DType param_dtype(ParamType t, DType result) {
  if (t == ParamType::Int) return DType::Int64;
  return result == DType::Float32 ? DType::Float32 : DType::Float64;
}

void check_parameters(const DistributionDef& def, Api api, std::span<const Operand> params) {
  if (def.nchecks == 0) return;
  if (all_scalar(params)) {
    double v[kMaxParams] = {};
    for (int k = 0; k < def.nparams; ++k) v[k] = host_value(params[k], def.types[k]);
    for (int k = 0; k < def.nchecks; ++k) {
      const CheckDef& c = def.checks[k];
      if (in_scope(c, api, true) && random_checks::violates(c.kind, v[c.args[0]], v[c.args[1]], v[c.args[2]]))
        raise(c, true);
    }
    return;
  }
  // The parameters' broadcast, with np.broadcast's message when they do not.
  const NDArray failed = empty(output_shape(params, std::nullopt), DType::UInt8);
  if (failed.size() == 0) return;
  // One expression per (row, api): compiled once, found by op id after.
  static std::vector<std::string> exprs = [] {
    std::vector<std::string> v;
    for (const DistributionDef& d : distribution_defs())
      for (Api a : {Api::Legacy, Api::Generator}) v.push_back(check_expression(d, a));
    return v;
  }();
  const int slot = row_index(def) * 2 + (api == Api::Generator);
  std::vector<DType> loop;
  for (int k = 0; k < def.nparams; ++k) loop.push_back(param_dtype(def.types[k], DType::Float64));
  loop.push_back(DType::UInt8);
  ops::ElementwiseSpec spec{static_cast<uint64_t>(ops::InternalOp::RandomCheck) + static_cast<uint64_t>(slot),
                            exprs[static_cast<size_t>(slot)],
                            def.nparams,
                            1,
                            loop.data(),
                            kernels::random_checks_cuh};
  ops::run_elementwise(spec, params, std::span(&failed, 1));
  uint8_t first = 255;
  reduce("min", failed).copy_to_host(&first);
  if (first != 255) raise(def.checks[first], false);
}

Shape output_shape(std::span<const Operand> params, const std::optional<Shape>& size, bool size_last) {
  static const Shape scalar_shape = Shape();
  std::vector<const Shape*> shapes;
  if (size && !size_last) shapes.push_back(&*size);
  for (const Operand& p : params) shapes.push_back(p.is_scalar() ? &scalar_shape : &p.array->shape());
  if (size && size_last) shapes.push_back(&*size);
  // np.broadcast's algorithm and message: the first argument that set a dim is named with the
  // one that disagrees.
  size_t nd = 0;
  for (const Shape* s : shapes) nd = std::max(nd, s->size());
  Shape out(nd, 1);
  std::vector<size_t> source(nd, 0);
  for (size_t i = 0; i < nd; ++i) {
    for (size_t j = 0; j < shapes.size(); ++j) {
      const Shape& s = *shapes[j];
      if (i + s.size() < nd) continue;
      const int64_t d = s[i + s.size() - nd];
      if (d == 1) continue;
      if (out[i] == 1) {
        out[i] = d;
        source[i] = j;
      } else if (out[i] != d) {
        throw_error(ErrorKind::Value,
                    "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg " +
                        std::to_string(source[i]) + " with shape " + shape_repr(*shapes[source[i]]) + " and arg " +
                        std::to_string(j) + " with shape " + shape_repr(s) + ".");
      }
    }
  }
  if (size && !(out == *size))
    throw_error(ErrorKind::Value, "Output size " + shape_repr(*size) +
                                      " is not compatible with broadcast dimensions of inputs " + shape_repr(out) +
                                      ".");
  return out;
}

}  // namespace cuarray::random
