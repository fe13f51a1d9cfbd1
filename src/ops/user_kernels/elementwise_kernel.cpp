// A user ElementwiseKernel on the elementwise engine: the call decides the parameters' dtypes,
// allocates or checks the outputs, and hands the engine a body that binds the user's names to
// the engine's operands (non-raw inputs and outputs) and raw arrays.
#include "cuarray/errors.hpp"
#include "cuarray/runtime.hpp"
#include "cuarray/user_kernels.hpp"
#include "ops/engines/coalesce.hpp"
#include "ops/engines/elementwise/elementwise.hpp"
#include "ops/engines/elementwise/elementwise_source.hpp"
#include "ops/user_kernels/user_source.hpp"

namespace cuarray {
namespace {

std::string idx(size_t k) { return std::to_string(k); }

bool has(uint32_t mask, size_t k) { return (mask >> k) & 1u; }

// How a call's parameters become the engine's operands: non-raw inputs are engine inputs, except
// the written ones (`_non_const` arrays), which are engine outputs after the non-raw outputs,
// loaded and stored back so that the body's writes reach the array; raw arrays are the engine's
// raw operands, inputs first. Returns the loop dtypes: engine inputs, then engine outputs.
std::vector<DType> engine_loop(const ElementwiseKernel& k, const KernelParamTypes& types, uint32_t written_inputs) {
  std::vector<DType> loop;
  for (size_t j = 0; j < k.in_params().size(); ++j)
    if (!k.in_params()[j].raw && !has(written_inputs, j)) loop.push_back(types.in[j]);
  for (size_t j = 0; j < k.out_params().size(); ++j)
    if (!k.out_params()[j].raw) loop.push_back(types.out[j]);
  for (size_t j = 0; j < k.in_params().size(); ++j)
    if (has(written_inputs, j)) loop.push_back(types.in[j]);
  return loop;
}

// The engine's spec for a call of `k` binding `types` with `nin` engine inputs, `nout` non-raw
// outputs and then the written inputs; `loop` (engine_loop's) must outlive it.
ops::ElementwiseSpec engine_spec(const ElementwiseKernel& k, const KernelParamTypes& types, std::span<const DType> loop,
                                 size_t nin, size_t nout, bool outputs_given, uint32_t written_inputs) {
  const ElementwiseKernel::Preamble& pre = k.preamble(types);
  const int engine_out = static_cast<int>(loop.size() - nin);
  ops::ElementwiseSpec spec{k.op_id(types, outputs_given, written_inputs), k.body(written_inputs),
                            static_cast<int>(nin), engine_out, loop.data(), pre.text};
  spec.user = true;
  // Given outputs may hold values the body reads, written inputs do. Allocated outputs are not
  // loaded (a copy's bandwidth for the seed's kernel, not 4/3 of it).
  const uint32_t all = (1u << engine_out) - 1, outputs = (1u << nout) - 1;
  spec.read_outputs = outputs_given ? all : all & ~outputs;
  spec.fragment_dtypes = pre.fragment_dtypes;
  spec.options = k.compile_options();
  spec.loop_prep = k.kernel_prep();
  spec.after_loop = k.after_loop();
  return spec;
}

}  // namespace

ElementwiseKernel::ElementwiseKernel(std::string_view in_params, std::string_view out_params, std::string operation,
                                     std::string name, ElementwiseKernelOptions options)
    : in_(parse_kernel_params(in_params, true)),
      out_(parse_kernel_params(out_params, false)),
      operation_(std::move(operation)),
      name_(std::move(name)),
      options_(std::move(options)) {
  if (!user_kernels::is_identifier(name_)) throw_error(ErrorKind::Value, "Invalid kernel name: \"" + name_ + "\"");
  // The engine's operand limit, which also keeps the kernel key within its 56 bytes.
  if (in_.size() + out_.size() > ops::kMaxOperands)
    throw_error(ErrorKind::Value, "ElementwiseKernel '" + name_ + "' has " + idx(in_.size() + out_.size()) +
                                      " parameters; at most " + idx(ops::kMaxOperands) + " are supported");
  for (size_t k = 0; k < in_.size(); ++k)
    if (!in_[k].raw && !in_[k].is_const) non_const_inputs_ |= 1u << k;
  body_ = make_body(non_const_inputs_);
  prep_ = make_kernel_prep();
  compile_options_ = user_kernels::compile_options(
      options_.options, {operation_, options_.preamble, options_.loop_prep, options_.after_loop});
  text_hash_ = user_kernels::text_hash(
      {"elementwise", operation_, options_.preamble, options_.loop_prep, options_.after_loop}, in_, out_,
      compile_options_);
}

const ElementwiseKernel::Preamble& ElementwiseKernel::preamble(const KernelParamTypes& types) const {
  std::lock_guard<std::mutex> lock(variants_mutex_);
  for (const auto& [binding, made] : preambles_)
    if (binding == types.placeholders) return *made;
  auto made = std::make_unique<Preamble>();
  made->fragment_dtypes = user_kernels::fragment_dtypes(
      types, user_kernels::NamedTypes::in({operation_, options_.preamble, options_.loop_prep, options_.after_loop}));
  made->text = user_kernels::preamble(types, made->fragment_dtypes, "", options_.preamble);
  preambles_.emplace_back(types.placeholders, std::move(made));
  return *preambles_.back().second;
}

const std::string& ElementwiseKernel::body(uint32_t written_inputs) const {
  if (written_inputs == non_const_inputs_) return body_;
  std::lock_guard<std::mutex> lock(variants_mutex_);
  for (const auto& [written, made] : bodies_)
    if (written == written_inputs) return *made;
  bodies_.emplace_back(written_inputs, std::make_unique<const std::string>(make_body(written_inputs)));
  return *bodies_.back().second;
}

std::string ElementwiseKernel::make_body(uint32_t written_inputs) const {
  // The engine's names go to unique aliases first, so that a parameter may be called in0 or out0.
  std::string outer = "const ptrdiff_t _cuarray_i = static_cast<ptrdiff_t>(i);\n"
                      "const CIndexer _ind = {static_cast<ptrdiff_t>(n), _cuarray_i};\n";
  std::string inner = "const ptrdiff_t i = _cuarray_i;\n";
  // Written inputs are the engine outputs after the non-raw outputs (engine_loop).
  size_t engine_in = 0, engine_out = 0, raw = 0, written = 0;
  for (const KernelParam& p : out_) written += !p.raw;
  auto bind_raw = [&](const KernelParam& p) {
    const std::string alias = "_cuarray_raw" + idx(raw);
    outer += "const auto& " + alias + " = raw" + idx(raw++) + ";\n";
    inner += "const auto& " + p.name + " = " + alias + ";\n";
  };
  // The user's name is a reference into an engine output, ...
  auto bind_output = [&](const KernelParam& p, size_t k) {
    const std::string var = "out" + idx(k), alias = "_cuarray_" + var;
    outer += var + "_t& " + alias + " = " + var + ";\n";
    inner += var + "_t& " + p.name + " = " + alias + ";\n";
  };
  // ... a const reference to an engine input, or (a scalar given for a _non_const input) a copy
  // the body may change.
  auto bind_input = [&](const KernelParam& p, size_t k) {
    const std::string var = "in" + idx(k), alias = "_cuarray_" + var;
    outer += "const " + var + "_t& " + alias + " = " + var + ";\n";
    inner += (p.is_const ? "const " + var + "_t& " : var + "_t ") + p.name + " = " + alias + ";\n";
  };
  for (size_t k = 0; k < in_.size(); ++k) {
    if (in_[k].raw) bind_raw(in_[k]);
    else if (has(written_inputs, k)) bind_output(in_[k], written++);
    else bind_input(in_[k], engine_in++);
  }
  for (const KernelParam& p : out_) {
    if (p.raw) bind_raw(p);
    else bind_output(p, engine_out++);
  }
  // CuPy ends the operation with ';' (its loop writes `${operation};`): `z = x + y` is a whole body.
  return outer + "{\n" + inner + operation_ + "\n;\n}\n";
}

std::string ElementwiseKernel::make_kernel_prep() const {
  if (options_.loop_prep.empty() && options_.after_loop.empty()) return {};
  // CuPy's loop_prep and after_loop see the raw parameters by name, at the kernel's scope.
  std::string s;
  size_t raw = 0;
  for (const auto* params : {&in_, &out_})
    for (const KernelParam& p : *params)
      if (p.raw) s += "const auto& " + p.name + " = raw" + idx(raw++) + ";\n";
  return s + options_.loop_prep;
}

uint64_t ElementwiseKernel::op_id(const KernelParamTypes& types, bool outputs_given, uint32_t written_inputs) const {
  return user_kernels::op_id(text_hash_, types, static_cast<uint32_t>(outputs_given) | written_inputs << 1);
}

void ElementwiseKernel::check_argument_count(size_t given) const {
  const size_t nin = in_.size(), nout = out_.size();
  if (given != nin && given != nin + nout)
    throw_error(ErrorKind::Type, "Wrong number of arguments for '" + name_ + "'. It must be either " + idx(nin) +
                                     " or " + idx(nin + nout) + " (with outputs), but given " + idx(given) + ".");
}

std::vector<NDArray> ElementwiseKernel::operator()(std::span<const Operand> inputs, std::span<const NDArray> outputs,
                                                   std::optional<int64_t> size) const {
  const size_t nin = in_.size(), nout = out_.size();
  check_argument_count(inputs.size() + outputs.size());
  if (inputs.size() != nin)  // a count that is right but split wrongly (C++ callers)
    throw_error(ErrorKind::Type, "ElementwiseKernel '" + name_ + "' takes " + idx(nin) + " inputs, given " +
                                     idx(inputs.size()));
  std::vector<const Shape*> shapes;
  std::vector<std::optional<DType>> in_dtypes(nin);
  int device = -1;
  for (size_t k = 0; k < nin; ++k) {
    if (inputs[k].is_scalar()) {
      if (in_[k].raw) throw_error(ErrorKind::Type, "raw parameter " + in_[k].name + " needs an array, not a scalar");
      continue;
    }
    const NDArray& a = *inputs[k].array;
    in_dtypes[k] = a.dtype();
    if (device < 0) device = a.device();
    if (!in_[k].raw) shapes.push_back(&a.shape());
  }
  std::vector<DType> out_dtypes;
  for (size_t k = 0; k < outputs.size(); ++k) {
    out_dtypes.push_back(outputs[k].dtype());
    if (device < 0) device = outputs[k].device();
    if (!out_[k].raw) shapes.push_back(&outputs[k].shape());
  }
  if (size) {
    if (!shapes.empty())
      throw_error(ErrorKind::Value, "Specified 'size' can be used only if all of the ndarray are 'raw'.");
    if (*size < 0) throw_error(ErrorKind::Value, "size must be nonnegative, got " + std::to_string(*size));
  } else if (shapes.empty()) {
    throw_error(ErrorKind::Value, "Loop size is undecided.");
  }
  const Shape shape = size ? Shape{*size} : broadcast_shapes(shapes);
  const KernelParamTypes types = decide_param_types(in_, out_, in_dtypes, out_dtypes);

  std::vector<NDArray> result;
  if (outputs.empty()) {
    for (size_t k = 0; k < nout; ++k)
      if (out_[k].raw && !size) throw_error(ErrorKind::Value, "Output array size is Undecided");
    for (size_t k = 0; k < nout; ++k) result.push_back(empty(shape, types.out[k]));
  } else {
    for (size_t k = 0; k < nout; ++k) {
      if (!out_[k].raw && outputs[k].shape() != shape)
        throw_error(ErrorKind::Value, "Out shape is mismatched: " + out_[k].name + " has shape " +
                                          shape_repr(outputs[k].shape()) + ", the loop " + shape_repr(shape));
      result.push_back(outputs[k]);
    }
  }
  if (shape_size(shape) == 0) return result;
  if (device < 0) device = result.empty() ? current_device() : result[0].device();

  // The engine's operands (engine_loop): non-raw inputs (arrays or scalars), non-raw outputs and
  // written inputs, raw arrays.
  uint32_t written = 0;
  if (non_const_inputs_)
    for (size_t k = 0; k < nin; ++k)
      if (has(non_const_inputs_, k) && !inputs[k].is_scalar()) written |= 1u << k;
  std::vector<Operand> engine_in;
  std::vector<NDArray> engine_out, raw_arrays;
  for (size_t k = 0; k < nin; ++k) {
    if (in_[k].raw) raw_arrays.push_back(*inputs[k].array);
    else if (!has(written, k)) engine_in.push_back(inputs[k]);
  }
  for (size_t k = 0; k < nout; ++k) (out_[k].raw ? raw_arrays : engine_out).push_back(result[k]);
  const size_t nout_engine = engine_out.size();
  if (written)
    for (size_t k = 0; k < nin; ++k)
      if (has(written, k)) engine_out.push_back(*inputs[k].array);

  const std::vector<DType> loop = engine_loop(*this, types, written);
  const ops::ElementwiseSpec spec =
      engine_spec(*this, types, loop, engine_in.size(), nout_engine, !outputs.empty(), written);
  const ops::RawOperands raw{raw_arrays, shape, device};
  user_kernels::reporting_compile_errors("ElementwiseKernel", name_,
                                         [&] { ops::run_elementwise(spec, engine_in, engine_out, nullptr, &raw); });
  return result;
}

std::string ElementwiseKernel::source(const KernelParamTypes& types, int vec, uint32_t scalar_inputs) const {
  const uint32_t written = non_const_inputs_ & ~scalar_inputs;
  std::vector<std::optional<DType>> in_storage;
  std::vector<DType> out_storage;
  std::vector<ops::RawArrayType> raw;
  for (size_t k = 0; k < in_.size(); ++k) {
    if (in_[k].raw) raw.push_back({types.in[k], 1});
    else if (!has(written, k)) in_storage.push_back(has(scalar_inputs, k) ? std::nullopt : std::optional(types.in[k]));
  }
  for (size_t k = 0; k < out_.size(); ++k) {
    if (out_[k].raw) raw.push_back({types.out[k], 1});
    else out_storage.push_back(types.out[k]);
  }
  const size_t nout = out_storage.size();
  for (size_t k = 0; k < in_.size(); ++k)
    if (has(written, k)) out_storage.push_back(types.in[k]);
  const std::vector<DType> loop = engine_loop(*this, types, written);
  const ops::ElementwiseSpec spec = engine_spec(*this, types, loop, in_storage.size(), nout, false, written);
  return ops::elementwise_source(spec, in_storage, out_storage, {true, vec, 1, false, false}, raw);
}

}  // namespace cuarray
