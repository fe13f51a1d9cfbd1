// Array manipulation (cuarray/manipulation.hpp). The NumPy signatures, argument normalization and
// the functions composed from these (vstack, block, ...) are in cuarray/_manipulation/manipulation.py.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/manipulation.hpp"
#include "py_array.hpp"

namespace cuarray::py {
namespace {

std::vector<NDArray> arrays_from_py(nb::handle seq) {
  std::vector<NDArray> arrays;
  for (nb::handle item : nb::iter(seq)) {
    if (!is_array(item)) throw_error(ErrorKind::Type, "expected a sequence of cuarray.ndarray");
    arrays.push_back(array_of(item));
  }
  return arrays;
}

nb::list views_to_py(std::vector<NDArray>&& views, nb::handle of) {
  nb::list out;
  for (NDArray& v : views) out.append(wrap_view(std::move(v), of));
  return out;
}

const NDArray* out_from_py(nb::handle out) {
  if (out.is_none()) return nullptr;
  if (!is_array(out)) throw_error(ErrorKind::Type, "out must be a cuarray.ndarray");
  return &array_of(out);
}

// The result, or `out` itself when the values went there.
nb::object result_to_py(NDArray&& r, nb::handle out) { return out.is_none() ? wrap(std::move(r)) : nb::borrow(out); }

using Ints = std::vector<int64_t>;
std::span<const int64_t> span_of(const Ints& v) { return {v.data(), v.size()}; }

// insert's and delete's obj as cuarray/_manipulation/manipulation.py hands it over: an int, a slice, a list of
// ints (positions on the host) or a cuarray array.
AxisIndex axis_index_from_py(nb::handle obj) {
  PyObject* o = obj.ptr();
  if (PySlice_Check(o)) {
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(o, &start, &stop, &step) < 0) throw nb::python_error();
    return AxisIndex::slice(start, stop, step);
  }
  if (is_array(obj)) return AxisIndex::of(array_of(obj));
  if (PyLong_Check(o)) return AxisIndex::integer(nb::cast<int64_t>(obj));
  return AxisIndex::of(nb::cast<Ints>(obj));
}

}  // namespace

void bind_manipulation(nb::module_& m) {
  // numpy.result_type of dtypes alone (no weak scalars): the rule concatenate, stack and the other
  // joins use, over all operands at once (cuarray::promote_types of a sequence).
  m.def("result_type_of_dtypes", [](nb::sequence dtypes) {
    std::vector<DType> ts;
    for (nb::handle d : dtypes) ts.push_back(dtype_from_py_required(d));
    if (ts.empty()) throw_error(ErrorKind::Value, "at least one array or dtype is required");
    return dtype_to_py(promote_types(std::span<const DType>(ts)));
  });
  m.def("concatenate", [](nb::handle arrays, std::optional<int64_t> axis, nb::handle dtype, nb::handle casting, nb::handle out) {
    std::vector<NDArray> a = arrays_from_py(arrays);
    return result_to_py(concatenate(a, axis, dtype_from_py(dtype), casting_from_py(casting), out_from_py(out)), out);
  }, nb::arg("arrays"), nb::arg("axis").none(), nb::arg("dtype").none(), nb::arg("casting"), nb::arg("out").none());
  m.def("stack", [](nb::handle arrays, int64_t axis, nb::handle dtype, nb::handle casting, nb::handle out) {
    std::vector<NDArray> a = arrays_from_py(arrays);
    return result_to_py(stack(a, axis, dtype_from_py(dtype), casting_from_py(casting), out_from_py(out)), out);
  }, nb::arg("arrays"), nb::arg("axis"), nb::arg("dtype").none(), nb::arg("casting"), nb::arg("out").none());
  m.def("split_at", [](nb::handle a, const Ints& indices, int64_t axis) {
    return views_to_py(split(array_of(a), span_of(indices), axis), a);
  });
  m.def("array_split", [](nb::handle a, int64_t sections, int64_t axis) {
    return views_to_py(array_split(array_of(a), sections, axis), a);
  });
  m.def("split", [](nb::handle a, int64_t sections, int64_t axis) {
    return views_to_py(split(array_of(a), sections, axis), a);
  });
  m.def("tile", [](nb::handle a, const Ints& reps) { return wrap(tile(array_of(a), span_of(reps))); });
  m.def("repeat", [](nb::handle a, nb::handle repeats, std::optional<int64_t> axis) {
    if (is_array(repeats)) return wrap(repeat(array_of(a), array_of(repeats), axis));
    return wrap(repeat(array_of(a), nb::cast<int64_t>(repeats), axis));
  }, nb::arg("a"), nb::arg("repeats"), nb::arg("axis").none());
  m.def("flip", [](nb::handle a, std::optional<Ints> axes) {
    if (!axes) return wrap_view(flip(array_of(a)), a);
    return wrap_view(flip(array_of(a), span_of(*axes)), a);
  }, nb::arg("a"), nb::arg("axes").none());
  m.def("roll", [](nb::handle a, const Ints& shifts, std::optional<Ints> axes) {
    if (!axes) return wrap(roll(array_of(a), span_of(shifts)));
    return wrap(roll(array_of(a), span_of(shifts), span_of(*axes)));
  }, nb::arg("a"), nb::arg("shifts"), nb::arg("axes").none());
  m.def("rot90", [](nb::handle a, int64_t k, int64_t axis0, int64_t axis1) {
    return wrap_view(rot90(array_of(a), k, axis0, axis1), a);
  });
  m.def("moveaxis", [](nb::handle a, const Ints& source, const Ints& destination) {
    return wrap_view(moveaxis(array_of(a), span_of(source), span_of(destination)), a);
  });
  // values: a cuarray array (in arr's dtype).
  m.def("insert", [](nb::handle arr, nb::handle obj, nb::handle values, std::optional<int64_t> axis) {
    return wrap(insert(array_of(arr), axis_index_from_py(obj), array_of(values), axis));
  }, nb::arg("arr"), nb::arg("obj"), nb::arg("values"), nb::arg("axis").none());
  m.def("delete", [](nb::handle arr, nb::handle obj, std::optional<int64_t> axis) {
    return wrap(delete_(array_of(arr), axis_index_from_py(obj), axis));
  }, nb::arg("arr"), nb::arg("obj"), nb::arg("axis").none());
  m.def("resize", [](nb::handle a, nb::handle shape) { return wrap(resize(array_of(a), shape_from_py(shape))); });
  // ndarray.resize: the array itself takes the new shape; kept elements in memory order, new ones
  // zero. Views of the old data keep the old buffer alive (refcheck has nothing to protect).
  m.def("resize_inplace", [](nb::handle a, nb::handle shape) {
    PyArray* self = nb::inst_ptr<PyArray>(a);
    const NDArray& old = self->array;
    if (!old.c_contiguous() && !old.f_contiguous())
      throw_error(ErrorKind::Value, "resize only works on single-segment arrays");
    if (!self->base.is_none()) throw_error(ErrorKind::Value, "cannot resize this array: it does not own its data");
    Shape new_shape = shape_from_py(shape);
    for (int64_t s : new_shape)
      if (s < 0) throw_error(ErrorKind::Value, "negative dimensions not allowed");
    // NumPy reallocates the bytes, so a Fortran-ordered array (not also C-contiguous) stays Fortran.
    const Order order = old.f_contiguous() && !old.c_contiguous() ? Order::F : Order::C;
    NDArray resized = zeros(new_shape, old.dtype(), order);
    const int64_t kept = std::min(old.size(), resized.size());
    if (kept > 0) {  // both sides viewed 1-d in memory order
      const Strides unit{old.itemsize()};
      NDArray from = old.view_as(Shape{old.size()}, unit, old.raw_data());
      NDArray to = resized.view_as(Shape{resized.size()}, unit, resized.raw_data());
      to.slice(0, 0, kept, 1).assign(from.slice(0, 0, kept, 1));
    }
    self->array = std::move(resized);
  });
}

}  // namespace cuarray::py
