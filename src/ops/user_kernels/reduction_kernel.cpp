// A user ReductionKernel on the reduction engine. One input: the user's map_expr is the engine's
// map, reading the element under the parameter's name. Several array inputs: broadcast views of
// them are the engine's input and extra inputs, read in one pass. Several inputs with a scalar
// among them: an ElementwiseKernel maps (and broadcasts) them into a reduce_type array first,
// which the engine then reduces.
#include <algorithm>
#include <unordered_map>

#include "cuarray/errors.hpp"
#include "cuarray/user_kernels.hpp"
#include "ops/engines/reduction/reduction.hpp"
#include "jit/kernel_source.hpp"
#include "ops/user_kernels/user_source.hpp"

namespace cuarray {
namespace {

constexpr const char* kMapped = "_cuarray_mapped";

// The C type names CuPy users write as reduce_type.
const std::unordered_map<std::string, DType>& c_names() {
  static const std::unordered_map<std::string, DType> kCNames = {
      {"bool", DType::Bool},           {"signed char", DType::Int8},       {"char", DType::Int8},
      {"unsigned char", DType::UInt8}, {"short", DType::Int16},            {"unsigned short", DType::UInt16},
      {"int", DType::Int32},           {"unsigned int", DType::UInt32},    {"long", DType::Int64},
      {"long long", DType::Int64},     {"unsigned long long", DType::UInt64}, {"unsigned long", DType::UInt64},
      {"float16", DType::Float16},     {"float", DType::Float32},          {"double", DType::Float64},
      {"complex<float>", DType::Complex64}, {"complex<double>", DType::Complex128},
      {"int8_t", DType::Int8},         {"uint8_t", DType::UInt8},          {"int16_t", DType::Int16},
      {"uint16_t", DType::UInt16},     {"int32_t", DType::Int32},          {"uint32_t", DType::UInt32},
      {"int64_t", DType::Int64},       {"uint64_t", DType::UInt64},        {"ptrdiff_t", DType::Int64},
      {"size_t", DType::UInt64}};
  return kCNames;
}

// The dtype of a reduce_type CuPy users write: a placeholder, a dtype name, or a C type name.
std::optional<DType> reduce_dtype(const std::string& reduce_type, const KernelParamTypes& types) {
  if (reduce_type.size() == 1)
    for (const auto& [letter, t] : types.placeholders)
      if (letter == reduce_type[0]) return t;
  if (auto it = c_names().find(reduce_type); it != c_names().end()) return it->second;
  return dtype_from_name(reduce_type);
}

// The typedef of _type_reduce: a dtype name ("float32", which CuPy does not accept) becomes its
// C type; a placeholder or a C type is written as given.
std::string reduce_typedef(const std::string& reduce_type) {
  std::string c_type = reduce_type;
  if (reduce_type.size() > 1 && !c_names().contains(reduce_type))
    if (const std::optional<DType> d = dtype_from_name(reduce_type)) c_type = jit::kernel_type_name(*d);
  return "typedef " + c_type + " _type_reduce;\n";
}

}  // namespace

ReductionKernel::ReductionKernel(std::string_view in_params, std::string_view out_params, std::string map_expr,
                                 std::string reduce_expr, std::string post_map_expr,
                                 std::optional<std::string> identity, std::string name,
                                 std::optional<std::string> reduce_type, ReductionKernelOptions options)
    : in_text_(in_params),
      in_(parse_kernel_params(in_params, true)),
      out_(parse_kernel_params(out_params, false)),
      map_(std::move(map_expr)),
      reduce_(std::move(reduce_expr)),
      post_(std::move(post_map_expr)),
      name_(std::move(name)),
      identity_(std::move(identity)),
      options_(std::move(options)) {
  if (!user_kernels::is_identifier(name_)) throw_error(ErrorKind::Value, "Invalid kernel name: \"" + name_ + "\"");
  if (out_.size() != 1)
    throw_error(ErrorKind::NotImplemented, "ReductionKernel: exactly one output parameter is supported");
  if (in_.empty()) throw_error(ErrorKind::Value, "ReductionKernel needs at least one input parameter");
  for (const KernelParam& p : in_)
    if (p.raw) throw_error(ErrorKind::NotImplemented, "ReductionKernel: raw parameters are not supported (" + p.name + ")");
  if (out_[0].raw) throw_error(ErrorKind::NotImplemented, "ReductionKernel: a raw output is not supported");
  // CuPy's default: the output parameter's C type.
  const KernelParam& o = out_[0];
  reduce_type_ = reduce_type ? *reduce_type
                             : o.dtype ? std::string(jit::kernel_type_name(*o.dtype)) : std::string(1, o.placeholder);
  compile_options_ = user_kernels::compile_options(options_.options, {options_.preamble});
  text_hash_ = user_kernels::text_hash({"reduction", map_, reduce_, post_, identity_.value_or(""),
                                        identity_ ? "1" : "0", reduce_type_, options_.preamble},
                                       in_, out_, compile_options_);
}

const ReductionKernel::Parts& ReductionKernel::parts(const KernelParamTypes& types, bool premapped) const {
  std::lock_guard<std::mutex> lock(parts_mutex_);
  for (const auto& [key, made] : parts_)
    if (key.second == premapped && key.first == types.placeholders) return *made;
  parts_.emplace_back(std::make_pair(types.placeholders, premapped),
                      std::make_unique<const Parts>(make_parts(types, premapped)));
  return *parts_.back().second;
}

const ElementwiseKernel& ReductionKernel::premap(DType mapped) const {
  std::lock_guard<std::mutex> lock(parts_mutex_);
  for (const auto& [dtype, kernel] : premaps_)
    if (dtype == mapped) return *kernel;
  ElementwiseKernelOptions options{true, reduce_typedef(reduce_type_) + options_.preamble,
                                   options_.options, "", ""};
  premaps_.emplace_back(mapped, std::make_unique<const ElementwiseKernel>(
                                    in_text_, std::string(dtype_name(mapped)) + " " + kMapped,
                                    std::string(kMapped) + " = static_cast<_type_reduce>(" + map_ + ");", name_,
                                    std::move(options)));
  return *premaps_.back().second;
}

ReductionKernel::Parts ReductionKernel::make_parts(const KernelParamTypes& types, bool premapped) const {
  Parts p;
  const std::string identity = identity_.value_or("");
  p.fragment_dtypes = user_kernels::fragment_dtypes(
      types, user_kernels::NamedTypes::in({map_, reduce_, post_, identity, reduce_type_, options_.preamble}));
  p.preamble = user_kernels::preamble(types, p.fragment_dtypes, reduce_typedef(reduce_type_),
                                      options_.preamble);
  if (premapped) {
    p.map = "static_cast<acc_t>(v)";
  } else {
    // The engine's element `v` and extra inputs v1, v2, .. under the parameters' names.
    std::string params = "const in_t " + in_[0].name, args = "v";
    for (size_t k = 1; k < in_.size(); ++k) {
      params += ", const in" + std::to_string(k) + "_t " + in_[k].name;
      args += ", v" + std::to_string(k);
    }
    p.map = "([](" + params + ") { return static_cast<acc_t>(" + map_ + "); })(" + args + ")";
  }
  p.combine = "static_cast<acc_t>(" + reduce_ + ")";
  p.identity = identity_ ? "static_cast<acc_t>(" + *identity_ + ")" : std::string("acc_t()");
  const std::string& y = out_[0].name;
  // The engine's post-map gets `count` (elements per output) and, from this kernel, `param`
  // (the number of outputs): CuPy's _in_ind.size() and _out_ind.size().
  p.post = "([&](const acc_t a) { out_t " + y + "{}; const CIndexer _out_ind = {(ptrdiff_t)param, 0}; " +
           "const CIndexer _in_ind = {(ptrdiff_t)(count * param), 0}; " + post_ + "; return " + y + "; })(a)";
  p.compute = reduce_dtype(reduce_type_, types).value_or(types.out[0]);
  p.op_id = user_kernels::op_id(text_hash_, types, premapped);
  return p;
}

NDArray ReductionKernel::operator()(std::span<const Operand> inputs, const NDArray* out,
                                    std::optional<std::span<const int64_t>> axis, bool keepdims) const {
  if (inputs.size() != in_.size()) throw_error(ErrorKind::Type, "Wrong number of arguments for " + name_);
  std::vector<std::optional<DType>> in_dtypes(inputs.size());
  bool any_array = false;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (inputs[k].is_scalar()) continue;
    in_dtypes[k] = inputs[k].array->dtype();
    any_array = true;
  }
  if (!any_array) throw_error(ErrorKind::Value, "Loop size is undecided.");
  std::vector<DType> out_dtypes;
  if (out) out_dtypes.push_back(out->dtype());
  const KernelParamTypes types = decide_param_types(in_, out_, in_dtypes, out_dtypes);

  // The arrays the engine reduces: the inputs (broadcast together), or, with a scalar among
  // several inputs, the inputs mapped into reduce_type.
  const bool premapped = in_.size() > 1 && std::any_of(inputs.begin(), inputs.end(), [](const Operand& in) {
                           return in.is_scalar();
                         });
  NDArray src;
  std::vector<NDArray> extra;
  if (premapped) {
    const std::optional<DType> mapped = reduce_dtype(reduce_type_, types);
    if (!mapped)
      throw_error(ErrorKind::NotImplemented, "ReductionKernel with several inputs needs a reduce_type that names a "
                                                 "dtype, not '" + reduce_type_ + "'");
    src = premap(*mapped)(inputs, {})[0];
  } else if (in_.size() > 1) {
    std::vector<const Shape*> shapes;
    for (const Operand& in : inputs) shapes.push_back(&in.array->shape());
    const Shape shape = broadcast_shapes(shapes);
    src = inputs[0].array->broadcast_to(shape);
    for (size_t k = 1; k < inputs.size(); ++k) extra.push_back(inputs[k].array->broadcast_to(shape));
  } else {
    src = *inputs[0].array;
  }

  const SmallVector<int, 8> axes = ops::reduction_axes(axis, src.ndim());
  Shape reduced, kept_dims;
  for (int d = 0; d < src.ndim(); ++d) {
    const bool is_reduced = std::find(axes.begin(), axes.end(), d) != axes.end();
    if (!is_reduced) reduced.push_back(src.shape()[d]);
    kept_dims.push_back(is_reduced ? 1 : src.shape()[d]);
  }
  std::vector<int64_t> axes64(axes.begin(), axes.end());
  NDArray result, target;
  if (out) {
    const Shape& want = keepdims ? kept_dims : reduced;
    if (out->shape() != want)
      throw_error(ErrorKind::Value, "Out shape is mismatched: out has shape " + shape_repr(out->shape()) +
                                        ", the reduction gives " + shape_repr(want));
    result = *out;
    target = keepdims ? out->squeeze(std::span<const int64_t>(axes64)) : *out;
  } else {
    target = empty(reduced, types.out[0]);
    result = keepdims ? target.reshape(kept_dims) : target;
  }
  if (target.size() == 0) return result;
  if (src.size() == 0 && !identity_)
    throw_error(ErrorKind::Value, "zero-size array to reduction operation " + name_ + " which has no identity");

  const Parts& p = parts(types, premapped);
  const ops::ReductionSpec spec = engine_spec(p);
  user_kernels::reporting_compile_errors("ReductionKernel", name_, [&] {
    ops::run_reduction(spec, src, axes, p.compute, target, static_cast<double>(target.size()), false, nullptr, extra);
  });
  return result;
}

ops::ReductionSpec ReductionKernel::engine_spec(const Parts& p) const {
  ops::ReductionSpec spec{p.op_id, p.map, p.combine, p.identity, p.post, "_type_reduce"};
  spec.preamble = p.preamble;
  spec.fragment_dtypes = p.fragment_dtypes;
  spec.options = compile_options_;
  return spec;
}

std::string ReductionKernel::source(const KernelParamTypes& types, bool premapped) const {
  const Parts& p = parts(types, premapped);
  const DType in = premapped ? p.compute : types.in[0];
  const std::span<const DType> extra = premapped ? std::span<const DType>() : std::span(types.in).subspan(1);
  const ops::ReducePlan plan{32, 8, 1, 64, false};
  return ops::reduction_source(engine_spec(p), in, p.compute, types.out[0], false, false, 2, 1, plan, extra);
}

std::string ReductionKernel::premap_source(const KernelParamTypes& types) const {
  const DType mapped = parts(types, true).compute;
  return premap(mapped).source(KernelParamTypes{types.in, {mapped}, types.placeholders});
}

}  // namespace cuarray
