// User-defined kernels, as CuPy defines them: ElementwiseKernel (a loop body over named
// parameters, run by the elementwise engine) and ReductionKernel (on the reduction engine).
// Parameter lists read like CuPy's, "float32 x, T y, raw T z": a dtype name or a one-letter type
// placeholder, then the name, with the modifiers `raw` (the body indexes the array itself) and
// `_non_const` before the type. docs/user_kernels.md has the design.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuarray/ndarray.hpp"
#include "cuarray/ufunc.hpp"

namespace cuarray {
namespace ops {
struct ReductionSpec;
}

struct KernelParam {
  std::string name;
  std::optional<DType> dtype;  // a fixed dtype, or
  char placeholder = 0;        // a one-letter type placeholder bound at call time
  bool raw = false;
  bool is_const = true;        // inputs are const unless `_non_const`; outputs never
};

// Parses a comma-separated parameter list; throws ValueError naming the bad parameter.
std::vector<KernelParam> parse_kernel_params(std::string_view params, bool is_const);

// The dtypes a call binds: each parameter's, and each placeholder's (sorted by letter).
struct KernelParamTypes {
  std::vector<DType> in, out;
  std::vector<std::pair<char, DType>> placeholders;
};

// CuPy's rule: a placeholder takes the dtype of the first array bound to it, outputs first; every
// other array bound to it, or to a fixed dtype, must have exactly that dtype (TypeError naming the
// parameter). Scalars (nullopt) bind nothing: they convert to their parameter's type. A placeholder
// only scalars use raises TypeError, and so do in_dtypes of another length than in_params and
// out_dtypes neither empty (outputs to allocate) nor one per output parameter.
KernelParamTypes decide_param_types(std::span<const KernelParam> in_params, std::span<const KernelParam> out_params,
                                    std::span<const std::optional<DType>> in_dtypes,
                                    std::span<const DType> out_dtypes);

struct ElementwiseKernelOptions {
  bool reduce_dims = true;  // dimensions are always coalesced; `i` stays the C-order index either way
  std::string preamble;
  std::vector<std::string> options;  // NVRTC options
  std::string loop_prep, after_loop;  // code before and after the kernel's loops (per thread)
};

class ElementwiseKernel {
 public:
  ElementwiseKernel(std::string_view in_params, std::string_view out_params, std::string operation,
                    std::string name = "kernel", ElementwiseKernelOptions options = {});

  // Runs the kernel on the current stream. `inputs` are arrays or scalars, one per input
  // parameter; `outputs` is empty (allocated, of the broadcast shape or `size`) or one array per
  // output parameter (written in place). `size` is the iteration size when every array is raw.
  // Returns the outputs.
  std::vector<NDArray> operator()(std::span<const Operand> inputs, std::span<const NDArray> outputs,
                                  std::optional<int64_t> size = std::nullopt) const;

  // TypeError with CuPy's message unless `given` arguments are the inputs, or inputs and outputs.
  void check_argument_count(size_t given) const;

  const std::vector<KernelParam>& in_params() const { return in_; }
  const std::vector<KernelParam>& out_params() const { return out_; }
  const std::string& name() const { return name_; }
  // Bit k set: input k is a non-raw `_non_const` parameter. A call that gives an array for it
  // writes the body's changes back into that array (CuPy binds a reference to the element); a
  // scalar given for it stays a local copy.
  uint32_t non_const_inputs() const { return non_const_inputs_; }
  // What the engine compiles, made once per kernel object (a call builds no strings until its
  // kernel is new): the body (parameter bindings, then the operation) and the code before the
  // kernel's loops (the raw parameters by name, then loop_prep). The body binds the inputs in
  // `written_inputs` (those of non_const_inputs() given as arrays) as references to engine
  // outputs placed after the non-raw outputs; the variant where every one is an array is made
  // with the kernel, the others on first use and kept.
  const std::string& body(uint32_t written_inputs) const;
  const std::string& kernel_prep() const { return prep_; }
  const std::string& after_loop() const { return options_.after_loop; }
  const std::vector<std::string>& compile_options() const { return compile_options_; }
  // For a call that binds `types`: the preamble (CuPy's names, the placeholders' typedefs, then
  // the user's) and the dtypes whose fragments it needs, made once per binding and kept; the op id.
  struct Preamble {
    std::string text;
    std::vector<DType> fragment_dtypes;
  };
  const Preamble& preamble(const KernelParamTypes& types) const;
  // `outputs_given`: the body reads the outputs' elements; `written_inputs` as for body().
  uint64_t op_id(const KernelParamTypes& types, bool outputs_given, uint32_t written_inputs) const;
  // The engine's source for a call binding `types` over contiguous arrays (`vec` elements per
  // load, allocated outputs; raw parameters as 1-d arrays; bit k of `scalar_inputs`: input k is
  // a scalar): what such a call compiles. NVRTC needs no GPU, so host tests compile it.
  std::string source(const KernelParamTypes& types, int vec = 1, uint32_t scalar_inputs = 0) const;

 private:
  std::vector<KernelParam> in_, out_;
  std::string operation_, name_;
  ElementwiseKernelOptions options_;
  uint32_t non_const_inputs_ = 0;
  std::string body_, prep_;  // body_: the variant whose written inputs are all of non_const_inputs_
  std::vector<std::string> compile_options_;  // the user's, plus the CUDA include path when needed
  uint64_t text_hash_ = 0;
  mutable std::mutex variants_mutex_;  // guards preambles_ and bodies_
  mutable std::vector<std::pair<std::vector<std::pair<char, DType>>, std::unique_ptr<const Preamble>>> preambles_;
  mutable std::vector<std::pair<uint32_t, std::unique_ptr<const std::string>>> bodies_;
  std::string make_body(uint32_t written_inputs) const;
  std::string make_kernel_prep() const;
};

struct ReductionKernelOptions {
  bool reduce_dims = true;  // dimensions are always coalesced
  std::string preamble;
  std::vector<std::string> options;  // NVRTC options
};

// CuPy's ReductionKernel on the reduction engine: `map_expr` maps the inputs (by name) to
// `reduce_type` (default: the output's type; the body sees it as _type_reduce), `reduce_expr`
// combines `a` and `b`, `post_map_expr` assigns the output (by name) from `a`; `identity` starts
// every accumulator (nullopt: a value-initialized _type_reduce, and an empty reduction is a
// ValueError). `_in_ind.size()` / `_out_ind.size()` are the input's and the output's sizes.
// The inputs map inside the reduction, several arrays broadcast together and read in one pass;
// several inputs with a scalar among them map first into a temporary of reduce_type through the
// elementwise engine.
class ReductionKernel {
 public:
  ReductionKernel(std::string_view in_params, std::string_view out_params, std::string map_expr,
                  std::string reduce_expr, std::string post_map_expr, std::optional<std::string> identity,
                  std::string name = "reduce_kernel", std::optional<std::string> reduce_type = std::nullopt,
                  ReductionKernelOptions options = {});

  // Reduces over `axis` (nullopt: every axis) into `out` (written in place) or a new array.
  NDArray operator()(std::span<const Operand> inputs, const NDArray* out = nullptr,
                     std::optional<std::span<const int64_t>> axis = std::nullopt, bool keepdims = false) const;

  const std::vector<KernelParam>& in_params() const { return in_; }
  const std::vector<KernelParam>& out_params() const { return out_; }
  const std::string& name() const { return name_; }

  // What the reduction engine compiles for a call binding `types`, `premapped` when several
  // inputs were mapped first; made once per binding and kept.
  struct Parts {
    std::string preamble, map, combine, identity, post;
    std::vector<DType> fragment_dtypes;
    DType compute;
    uint64_t op_id;
  };
  const Parts& parts(const KernelParamTypes& types, bool premapped) const;
  // The reduction engine's source of a call's first pass (two kept, one reduced dimension): over
  // the inputs, or `premapped` (several inputs with a scalar among them) over the mapped values,
  // which premap_source's ElementwiseKernel writes. What host tests compile (NVRTC needs no GPU).
  std::string source(const KernelParamTypes& types, bool premapped = false) const;
  std::string premap_source(const KernelParamTypes& types) const;

 private:
  std::string in_text_;  // several inputs map through an ElementwiseKernel of these parameters
  std::vector<KernelParam> in_, out_;
  std::string map_, reduce_, post_, name_, reduce_type_;
  std::optional<std::string> identity_;
  ReductionKernelOptions options_;
  std::vector<std::string> compile_options_;  // the user's, plus the CUDA include path when needed
  uint64_t text_hash_ = 0;
  mutable std::mutex parts_mutex_;
  mutable std::vector<std::pair<std::pair<std::vector<std::pair<char, DType>>, bool>, std::unique_ptr<const Parts>>>
      parts_;
  mutable std::vector<std::pair<DType, std::unique_ptr<const ElementwiseKernel>>> premaps_;  // by mapped dtype
  Parts make_parts(const KernelParamTypes& types, bool premapped) const;
  ops::ReductionSpec engine_spec(const Parts& p) const;
  const ElementwiseKernel& premap(DType mapped) const;
};

// "  1 | first line\n  2 | ..." for compile errors.
std::string numbered_source(std::string_view source);

}  // namespace cuarray
