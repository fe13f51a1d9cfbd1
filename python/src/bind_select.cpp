// Selections and index arrays (cuarray/indexing.hpp); the NumPy-shaped signatures, argument
// conversion and ndarray methods live in cuarray/_indexing/indexing.py.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/indexing.hpp"
#include "py_array.hpp"

namespace cuarray::py {
namespace {

IndexMode mode_from_py(const std::string& mode) {
  if (mode == "raise") return IndexMode::Raise;
  if (mode == "wrap") return IndexMode::Wrap;
  if (mode == "clip") return IndexMode::Clip;
  throw_error(ErrorKind::Value, "clipmode must be one of 'clip', 'raise', or 'wrap' (got '" + mode + "')");
}

}  // namespace

void bind_select(nb::module_& m) {
  m.def("nonzero", [](nb::handle a) {
    nb::list out;
    for (NDArray& r : nonzero(array_of(a))) out.append(wrap(std::move(r)));
    return nb::tuple(out);
  });
  m.def("flatnonzero", [](nb::handle a) { return wrap(flatnonzero(array_of(a))); });
  m.def("argwhere", [](nb::handle a) { return wrap(argwhere(array_of(a))); });
  m.def("extract", [](nb::handle c, nb::handle a) { return wrap(extract(array_of(c), array_of(a))); });
  m.def("compress", [](nb::handle c, nb::handle a, std::optional<int64_t> axis) {
    return wrap(compress(array_of(c), array_of(a), axis));
  }, nb::arg("condition"), nb::arg("a"), nb::arg("axis").none());
  m.def("take", [](nb::handle a, nb::handle indices, std::optional<int64_t> axis, const std::string& mode) {
    return wrap(take(array_of(a), array_of(indices), axis, mode_from_py(mode)));
  }, nb::arg("a"), nb::arg("indices"), nb::arg("axis").none(), nb::arg("mode"));
  m.def("put", [](nb::handle a, nb::handle indices, nb::handle values, const std::string& mode) {
    put(array_of(a), array_of(indices), array_of(values), mode_from_py(mode));
  });
  m.def("take_along_axis", [](nb::handle a, nb::handle indices, std::optional<int64_t> axis) {
    return wrap(take_along_axis(array_of(a), array_of(indices), axis));
  }, nb::arg("a"), nb::arg("indices"), nb::arg("axis").none());
}

}  // namespace cuarray::py
