// Array creation; the NumPy-shaped signatures live in cuarray/_creation/creation.py.
#include <nanobind/stl/optional.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "py_array.hpp"

namespace cuarray::py {

void bind_creation(nb::module_& m) {
  m.def("empty", [](nb::handle shape, nb::handle dtype, nb::handle order) {
    return wrap(empty(shape_from_py(shape), dtype_from_py(dtype).value_or(DType::Float64), order_from_py(order, Order::C)));
  });
  m.def("zeros", [](nb::handle shape, nb::handle dtype, nb::handle order) {
    return wrap(zeros(shape_from_py(shape), dtype_from_py(dtype).value_or(DType::Float64), order_from_py(order, Order::C)));
  });
  m.def("full", [](nb::handle shape, nb::handle value, nb::handle dtype, nb::handle order) {
    return wrap(full(shape_from_py(shape), scalar_required(value, "fill_value"), dtype_from_py(dtype),
                     order_from_py(order, Order::C)));
  }, nb::arg("shape"), nb::arg("fill_value"), nb::arg("dtype").none(), nb::arg("order"));
  m.def("arange", [](nb::handle start, nb::handle stop, nb::handle step, nb::handle dtype) {
    return wrap(arange(scalar_required(start, "start"), scalar_required(stop, "stop"), scalar_required(step, "step"),
                       dtype_from_py(dtype)));
  }, nb::arg("start"), nb::arg("stop"), nb::arg("step"), nb::arg("dtype").none());
  m.def("linspace", [](double start, double stop, int64_t num, bool endpoint, nb::handle dtype) {
    return wrap(linspace(start, stop, num, endpoint, dtype_from_py(dtype).value_or(DType::Float64)));
  });
  m.def("eye", [](int64_t n, int64_t mm, int64_t k, nb::handle dtype) {
    return wrap(eye(n, mm, k, dtype_from_py(dtype).value_or(DType::Float64)));
  });
  m.def("tri", [](int64_t n, int64_t mm, int64_t k, nb::handle dtype) {
    return wrap(tri(n, mm, k, dtype_from_py(dtype).value_or(DType::Float64)));
  });
  // A device array with the given shape and dtype, filled from C-contiguous host memory.
  // A device array filled from contiguous host memory (C order, or F order when `fortran`).
  m.def("from_host", [](uintptr_t ptr, nb::handle shape, nb::handle dtype, bool fortran) {
    return wrap(from_host(reinterpret_cast<const void*>(ptr), shape_from_py(shape), dtype_from_py_required(dtype),
                          fortran ? Order::F : Order::C));
  });
  m.def("empty_like", [](nb::handle a, nb::handle dtype, nb::handle order) {
    return wrap(empty_like(array_of(a), dtype_from_py(dtype), order_from_py(order, Order::K)));
  }, nb::arg("a"), nb::arg("dtype").none(), nb::arg("order").none());
  m.def("to_device", [](nb::handle a, int device) { return wrap(to_device(array_of(a), device)); });
}

}  // namespace cuarray::py
