// numpy.einsum and numpy.einsum_path (cuarray/einsum.hpp). The interleaved sublist form and the
// keyword checks are in cuarray/_math/einsum.py; optimize= is read here, as NumPy's einsum_path reads it.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "bindings.hpp"
#include "convert.hpp"
#include "cuarray/einsum.hpp"
#include "py_array.hpp"

namespace cuarray::py {
namespace {

// False/None, True, 'greedy', 'optimal', (name, memory_limit) or ['einsum_path', (i, j), ...].
EinsumOptimize optimize_from_py(nb::handle obj) {
  using Kind = EinsumOptimize::Kind;
  EinsumOptimize o;
  if (obj.is_none() || obj.is(Py_False)) return o;
  if (obj.is(Py_True)) {
    o.kind = Kind::Greedy;
    return o;
  }
  auto named = [](nb::handle name) {
    std::string s = nb::cast<std::string>(name);
    if (s == "greedy") return Kind::Greedy;
    if (s == "optimal") return Kind::Optimal;
    throw nb::key_error(("Path name " + s + " not found").c_str());
  };
  if (nb::isinstance<nb::str>(obj)) {
    o.kind = named(obj);
    return o;
  }
  if (nb::isinstance<nb::list>(obj) || nb::isinstance<nb::tuple>(obj)) {
    nb::sequence seq = nb::borrow<nb::sequence>(obj);
    const size_t n = nb::len(seq);
    if (n > 0 && nb::isinstance<nb::str>(seq[0]) && nb::cast<std::string>(seq[0]) == "einsum_path") {
      o.kind = Kind::Explicit;
      for (size_t i = 1; i < n; ++i) o.path.push_back(nb::cast<std::vector<int64_t>>(seq[i]));
      return o;
    }
    if (n == 2 && nb::isinstance<nb::str>(seq[0]) &&
        (nb::isinstance<nb::int_>(seq[1]) || nb::isinstance<nb::float_>(seq[1]))) {
      o.kind = named(seq[0]);
      o.memory_limit = static_cast<int64_t>(nb::cast<double>(seq[1]));
      return o;
    }
  }
  throw nb::type_error(("Did not understand the path: " + std::string(nb::str(obj).c_str())).c_str());
}

std::vector<NDArray> arrays_of(nb::list operands) {
  std::vector<NDArray> arrays;
  for (nb::handle h : operands) {
    if (!is_array(h)) throw nb::type_error("einsum operands must be cuarray.ndarray (cuarray.einsum converts others)");
    arrays.push_back(array_of(h));
  }
  return arrays;
}

}  // namespace

void bind_einsum(nb::module_& m) {
  // einsum(subscripts, operands: list of ndarray, dtype, casting, order, out, optimize)
  m.def("einsum", [](const std::string& subscripts, nb::list operands, nb::handle dtype, nb::handle casting,
                     nb::handle order, nb::handle out, nb::handle optimize) {
    std::vector<NDArray> arrays = arrays_of(operands);
    EinsumOptions options;
    options.dtype = dtype_from_py(dtype);
    options.casting = casting_from_py(casting);
    options.order = order_from_py(order, Order::K);
    if (!out.is_none() && !is_array(out)) throw nb::type_error("out must be a cuarray.ndarray");
    options.out = out.is_none() ? nullptr : &array_of(out);
    options.optimize = optimize_from_py(optimize);
    NDArray result = einsum(subscripts, arrays, options);
    if (options.out) return nb::borrow<nb::object>(out);
    // A lone operand's transpose or diagonal is a view of it, with it as base (NumPy's).
    if (arrays.size() == 1 && result.buffer() == arrays[0].buffer()) return wrap_view(std::move(result), operands[0]);
    return wrap(std::move(result));
  }, nb::arg("subscripts"), nb::arg("operands"), nb::arg("dtype").none(), nb::arg("casting").none(),
     nb::arg("order").none(), nb::arg("out").none(), nb::arg("optimize").none());
  // einsum_path(subscripts, shapes, optimize) -> (['einsum_path', (i, j), ...], report)
  m.def("einsum_path", [](const std::string& subscripts, nb::list shapes, nb::handle optimize) {
    std::vector<Shape> converted;
    for (nb::handle s : shapes) converted.push_back(shape_from_py(s));
    EinsumPath p = einsum_path(subscripts, converted, optimize_from_py(optimize));
    nb::list path;
    path.append(nb::str("einsum_path"));
    for (const std::vector<int64_t>& step : p.path) {
      nb::list positions;
      for (int64_t i : step) positions.append(nb::int_(i));
      path.append(nb::tuple(positions));
    }
    return nb::make_tuple(path, nb::str(p.report.c_str()));
  }, nb::arg("subscripts"), nb::arg("shapes"), nb::arg("optimize").none());
}

}  // namespace cuarray::py
