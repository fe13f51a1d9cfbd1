// Sorting, searching and order statistics; NumPy's signatures, argument checks and dtype rules
// live in cuarray/_sorting/sorting.py.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <vector>

#include "bindings.hpp"
#include "convert.hpp"
#include "cuarray/sorting.hpp"
#include "py_array.hpp"

namespace cuarray::py {

void bind_sorting(nb::module_& m) {
  // axis: None (the flattened array) or an int.
  m.def("sort", [](nb::handle a, std::optional<int64_t> axis) { return wrap(sort(array_of(a), axis)); },
        nb::arg("a"), nb::arg("axis").none());
  m.def("argsort", [](nb::handle a, std::optional<int64_t> axis) { return wrap(argsort(array_of(a), axis)); },
        nb::arg("a"), nb::arg("axis").none());
  m.def("lexsort", [](const std::vector<nb::handle>& keys, int64_t axis) {
    std::vector<NDArray> arrays;
    arrays.reserve(keys.size());
    for (nb::handle k : keys) arrays.push_back(array_of(k));
    return wrap(lexsort(arrays, axis));
  });
  m.def("take_sorted", [](nb::handle a, nb::handle index, int64_t axis) {
    return wrap(take_sorted(array_of(a), array_of(index), axis));
  });
  m.def("searchsorted", [](nb::handle a, nb::handle v, bool right, nb::handle sorter) {
    return wrap(searchsorted(array_of(a), array_of(v), right, sorter.is_none() ? nullptr : &array_of(sorter)));
  }, nb::arg("a"), nb::arg("v"), nb::arg("right"), nb::arg("sorter").none());
  // q: a float64 array of quantiles in [0, 1]; out: the result dtype.
  m.def("quantile", [](nb::handle a, nb::handle q, nb::handle axis, const std::string& method, bool skip_nan,
                       nb::handle out) {
    auto axes = axes_from_py(axis);
    const DType out_dtype = dtype_from_py_required(out);
    return wrap(axes ? quantile(array_of(a), array_of(q), std::span<const int64_t>(axes->data(), axes->size()), method,
                                skip_nan, out_dtype)
                     : quantile(array_of(a), array_of(q), std::nullopt, method, skip_nan, out_dtype));
  }, nb::arg("a"), nb::arg("q"), nb::arg("axis").none(), nb::arg("method"), nb::arg("skip_nan"), nb::arg("out"));
}

}  // namespace cuarray::py
