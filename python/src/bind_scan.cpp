// The cumulative functions and ufunc.accumulate over the scan engine (cuarray/scan.hpp). Argument
// checks NumPy makes before any work (axis types, out= being an array) are in cuarray/_statistics/scans.py.
#include <nanobind/stl/optional.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/scan.hpp"
#include "py_array.hpp"

namespace cuarray::py {

void bind_scans(nb::module_& m) {
  // numpy.<name>(a, axis, dtype, out) for cumsum, cumprod, nancumsum, nancumprod; axis None
  // scans the flattened array. Returns `out` itself when given.
  m.def("cumulative", [](const char* name, nb::handle a, std::optional<int64_t> axis, nb::handle dtype,
                         nb::handle out) -> nb::object {
    const NDArray* o = out.is_none() ? nullptr : &array_of(out);
    NDArray r = cumulative(name, array_of(a), axis, dtype_from_py(dtype), o);
    return o ? nb::borrow(out) : wrap(std::move(r));
  }, nb::arg("name"), nb::arg("a"), nb::arg("axis").none(), nb::arg("dtype").none(), nb::arg("out").none());
  // <ufunc name>.accumulate(a, axis, dtype, out).
  m.def("accumulate", [](const char* ufunc_name, nb::handle a, int64_t axis, nb::handle dtype,
                         nb::handle out) -> nb::object {
    const NDArray* o = out.is_none() ? nullptr : &array_of(out);
    NDArray r = accumulate(ufunc(ufunc_name), array_of(a), axis, dtype_from_py(dtype), o);
    return o ? nb::borrow(out) : wrap(std::move(r));
  }, nb::arg("ufunc"), nb::arg("a"), nb::arg("axis"), nb::arg("dtype").none(), nb::arg("out").none());
}

}  // namespace cuarray::py
