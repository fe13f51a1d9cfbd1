// cuarray.random's engine: the Philox stream and its distributions (cuarray/random/_engine.py
// and the RandomState/Generator classes convert NumPy's arguments; cuarray/random.hpp).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <vector>

#include "bindings.hpp"
#include "convert.hpp"
#include "cuarray/random.hpp"
#include "py_array.hpp"

namespace cuarray::py {
namespace {

std::optional<Shape> size_from_py(nb::handle size) {
  if (size.is_none()) return std::nullopt;
  return shape_from_py(size);
}

}  // namespace

void bind_random(nb::module_& m) {
  using random::Generator;
  nb::class_<Generator>(m, "PhiloxStream", "A Philox4x32-10 stream (seed, offset) and its distributions.")
      .def("__init__", [](Generator* g, uint64_t seed, bool legacy) {
        new (g) Generator(seed, legacy ? random::Api::Legacy : random::Api::Generator);
      }, nb::arg("seed"), nb::arg("legacy"))
      .def_prop_ro("seed", &Generator::seed)
      .def_prop_ro("offset", &Generator::offset)
      .def("set_state", &Generator::set_state)
      .def("random", [](Generator& g, nb::handle shape, nb::handle dtype) {
        return wrap(g.random(shape_from_py(shape), dtype_from_py(dtype).value_or(DType::Float64)));
      })
      .def("standard_normal", [](Generator& g, nb::handle shape, nb::handle dtype) {
        return wrap(g.standard_normal(shape_from_py(shape), dtype_from_py(dtype).value_or(DType::Float64)));
      })
      .def("standard_exponential", [](Generator& g, nb::handle shape, nb::handle dtype) {
        return wrap(g.standard_exponential(shape_from_py(shape), dtype_from_py(dtype).value_or(DType::Float64)));
      })
      .def("random_bits", [](Generator& g, nb::handle shape, nb::handle dtype) {
        return wrap(g.random_bits(shape_from_py(shape), dtype_from_py_required(dtype)));
      })
      .def("permutation_prefix", [](Generator& g, int64_t n, int64_t k) { return wrap(g.permutation_prefix(n, k)); },
           nb::arg("n"), nb::arg("k"))
      .def("integers", [](Generator& g, nb::handle low, nb::handle high, nb::handle size, nb::handle dtype,
                          bool endpoint) {
        return wrap(g.integers(operand_from_py(low, "low"), operand_from_py(high, "high"), size_from_py(size),
                               dtype_from_py_required(dtype), endpoint));
      }, nb::arg("low"), nb::arg("high"), nb::arg("size").none(), nb::arg("dtype"), nb::arg("endpoint"))
      .def("sample", [](Generator& g, std::string_view name, nb::tuple params, nb::handle size, nb::handle dtype) {
        std::vector<Operand> ops;
        for (nb::handle p : params) ops.push_back(operand_from_py(p, "a distribution parameter"));
        return wrap(g.sample(name, ops, size_from_py(size), dtype_from_py(dtype)));
      }, nb::arg("name"), nb::arg("params"), nb::arg("size").none(), nb::arg("dtype").none());
  m.def("default_random_stream", [] { return &random::default_generator(); }, nb::rv_policy::reference);
  m.def("fresh_seed", &random::fresh_seed);
  m.def("distribution_names", [] {
    std::vector<std::string_view> v(random::distribution_names().begin(), random::distribution_names().end());
    return v;
  });
}

}  // namespace cuarray::py
