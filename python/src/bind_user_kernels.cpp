// cuarray.ElementwiseKernel's and cuarray.ReductionKernel's engines (cuarray/user_kernels.hpp); the Python classes in
// cuarray/_kernels/user_kernels.py keeps CuPy's keywords and return conventions.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <span>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "convert.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/user_kernels.hpp"
#include "py_array.hpp"

namespace cuarray::py {
namespace {

// The dtypes a call with arrays of `in_dtypes` (None: a scalar) and outputs of `out_dtypes`
// (empty: allocated) binds: what a kernel's source is made for.
template <class Kernel>
KernelParamTypes call_types(const Kernel& k, nb::handle in_dtypes, nb::handle out_dtypes) {
  std::vector<std::optional<DType>> in;
  for (nb::handle d : in_dtypes) in.push_back(d.is_none() ? std::nullopt : std::optional(dtype_from_py_required(d)));
  std::vector<DType> out;
  for (nb::handle d : out_dtypes) out.push_back(dtype_from_py_required(d));
  return decide_param_types(k.in_params(), k.out_params(), in, out);
}

}  // namespace

void bind_user_kernels(nb::module_& m) {
  nb::class_<ElementwiseKernel>(m, "_ElementwiseKernel")
      .def(
          "__init__",
          [](ElementwiseKernel* self, const std::string& in_params, const std::string& out_params,
             const std::string& operation, const std::string& name, bool reduce_dims, const std::string& preamble,
             const std::vector<std::string>& options, const std::string& loop_prep, const std::string& after_loop) {
            new (self) ElementwiseKernel(in_params, out_params, operation, name,
                                         {reduce_dims, preamble, options, loop_prep, after_loop});
          },
          nb::arg("in_params"), nb::arg("out_params"), nb::arg("operation"), nb::arg("name"), nb::arg("reduce_dims"),
          nb::arg("preamble"), nb::arg("options"), nb::arg("loop_prep"), nb::arg("after_loop"))
      .def_prop_ro("nin", [](const ElementwiseKernel& k) { return k.in_params().size(); })
      .def_prop_ro("nout", [](const ElementwiseKernel& k) { return k.out_params().size(); })
      // args: the inputs, then either no outputs or all of them. Returns the outputs.
      .def("__call__", [](const ElementwiseKernel& k, nb::tuple args, std::optional<int64_t> size) {
        const size_t nin = k.in_params().size();
        const size_t n = nb::len(args);
        k.check_argument_count(n);
        std::vector<Operand> inputs;
        std::vector<NDArray> outputs;
        for (size_t j = 0; j < n; ++j) {
          if (j < nin) {
            inputs.push_back(operand_from_py(args[j], k.in_params()[j].name.c_str()));
          } else if (is_array(args[j])) {
            outputs.push_back(array_of(args[j]));
          } else {
            throw_error(ErrorKind::Type, "Output arguments type must be cuarray.ndarray");
          }
        }
        nb::list result;
        for (NDArray& a : k(inputs, outputs, size)) result.append(wrap(std::move(a)));
        return result;
      }, nb::arg("args"), nb::arg("size").none())
      // The source a call over contiguous arrays of these dtypes (None: a scalar) compiles (host
      // tests; no GPU).
      .def("_source", [](const ElementwiseKernel& k, nb::handle in_dtypes, nb::handle out_dtypes, int vec) {
        uint32_t scalar_inputs = 0, bit = 1;
        for (nb::handle d : in_dtypes) {
          if (d.is_none()) scalar_inputs |= bit;
          bit <<= 1;
        }
        return k.source(call_types(k, in_dtypes, out_dtypes), vec, scalar_inputs);
      }, nb::arg("in_dtypes"), nb::arg("out_dtypes"), nb::arg("vec") = 1);

  nb::class_<ReductionKernel>(m, "_ReductionKernel")
      .def(
          "__init__",
          [](ReductionKernel* self, const std::string& in_params, const std::string& out_params,
             const std::string& map_expr, const std::string& reduce_expr, const std::string& post_map_expr,
             std::optional<std::string> identity, const std::string& name, std::optional<std::string> reduce_type,
             bool reduce_dims, const std::string& preamble, const std::vector<std::string>& options) {
            new (self) ReductionKernel(in_params, out_params, map_expr, reduce_expr, post_map_expr, std::move(identity),
                                       name, std::move(reduce_type), {reduce_dims, preamble, options});
          },
          nb::arg("in_params"), nb::arg("out_params"), nb::arg("map_expr"), nb::arg("reduce_expr"),
          nb::arg("post_map_expr"), nb::arg("identity").none(), nb::arg("name"), nb::arg("reduce_type").none(),
          nb::arg("reduce_dims"), nb::arg("preamble"), nb::arg("options"))
      .def_prop_ro("nin", [](const ReductionKernel& k) { return k.in_params().size(); })
      .def_prop_ro("nout", [](const ReductionKernel& k) { return k.out_params().size(); })
      .def("__call__", [](const ReductionKernel& k, nb::tuple args, nb::handle out, nb::handle axis, bool keepdims) {
        std::vector<Operand> inputs;
        for (size_t j = 0; j < nb::len(args); ++j)
          inputs.push_back(operand_from_py(args[j], k.in_params()[j].name.c_str()));
        if (!out.is_none() && !is_array(out)) throw_error(ErrorKind::Type, "Output arguments type must be cuarray.ndarray");
        const auto axes = axes_from_py(axis);
        std::optional<std::span<const int64_t>> axis_span;
        if (axes) axis_span = std::span<const int64_t>(axes->data(), axes->size());
        return wrap(k(inputs, out.is_none() ? nullptr : &array_of(out), axis_span, keepdims));
      }, nb::arg("args"), nb::arg("out").none(), nb::arg("axis").none(), nb::arg("keepdims"))
      // The sources a call with inputs of these dtypes (None: a scalar) compiles: the map of
      // several inputs with a scalar among them (else None) and the reduction's first pass (host
      // tests; no GPU).
      .def("_source", [](const ReductionKernel& k, nb::handle in_dtypes, nb::handle out_dtypes) {
        const KernelParamTypes types = call_types(k, in_dtypes, out_dtypes);
        bool scalar = false;
        for (nb::handle d : in_dtypes) scalar = scalar || d.is_none();
        const bool premapped = k.in_params().size() > 1 && scalar;
        nb::object premap = premapped ? nb::cast(k.premap_source(types)) : nb::none();
        return nb::make_tuple(premap, k.source(types, premapped));
      }, nb::arg("in_dtypes"), nb::arg("out_dtypes"));
}

}  // namespace cuarray::py
