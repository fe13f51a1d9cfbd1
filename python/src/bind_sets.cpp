// Set routines (cuarray/sets.hpp). NumPy's signatures, the unique_* namedtuples and isin's kind=
// checks are in cuarray/_sorting/sets.py.
#include <nanobind/stl/optional.h>

#include <initializer_list>
#include <optional>
#include <utility>

#include "bindings.hpp"
#include "cuarray/sets.hpp"
#include "py_array.hpp"

namespace cuarray::py {
namespace {

// `values`, then those of the optional results that are set: NumPy's tuple of what was asked for.
nb::tuple results(NDArray&& values, std::initializer_list<std::optional<NDArray>*> optional) {
  nb::list out;
  out.append(wrap(std::move(values)));
  for (std::optional<NDArray>* r : optional)
    if (*r) out.append(wrap(std::move(**r)));
  return nb::tuple(out);
}

}  // namespace

void bind_sets(nb::module_& m) {
  m.def("unique", [](nb::handle ar, bool return_index, bool return_inverse, bool return_counts,
                     std::optional<int64_t> axis, bool equal_nan) {
    UniqueResult r = unique(array_of(ar), {return_index, return_inverse, return_counts, axis, equal_nan});
    return results(std::move(r.values), {&r.indices, &r.inverse_indices, &r.counts});
  }, nb::arg("ar"), nb::arg("return_index"), nb::arg("return_inverse"), nb::arg("return_counts"),
     nb::arg("axis").none(), nb::arg("equal_nan"));
  m.def("isin", [](nb::handle element, nb::handle test_elements, bool invert) {
    return wrap(isin(array_of(element), array_of(test_elements), invert));
  });
  // (values,) or, with return_indices, (values, comm1, comm2).
  m.def("intersect1d", [](nb::handle ar1, nb::handle ar2, bool assume_unique, bool return_indices) {
    IntersectResult r = intersect1d(array_of(ar1), array_of(ar2), assume_unique, return_indices);
    return results(std::move(r.values), {&r.comm1, &r.comm2});
  });
  m.def("union1d", [](nb::handle ar1, nb::handle ar2) { return wrap(union1d(array_of(ar1), array_of(ar2))); });
  m.def("setdiff1d", [](nb::handle ar1, nb::handle ar2, bool assume_unique) {
    return wrap(setdiff1d(array_of(ar1), array_of(ar2), assume_unique));
  });
  m.def("setxor1d", [](nb::handle ar1, nb::handle ar2, bool assume_unique) {
    return wrap(setxor1d(array_of(ar1), array_of(ar2), assume_unique));
  });
}

}  // namespace cuarray::py
