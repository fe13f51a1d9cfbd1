// a[key] and a[key] = v for keys holding index arrays or booleans (cuarray::getitem/setitem,
// src/ops/indexing/index_key.cpp); basic keys stay on the view path of bind_ndarray.cpp.
#include <optional>

#include "convert.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/index_key.hpp"
#include "indexing.hpp"

namespace cuarray::py {
namespace {

// Whether a key item may be advanced: cheap type checks, so basic keys are parsed only once.
bool maybe_advanced_item(PyObject* o) {
  if (o == Py_None || o == Py_Ellipsis || PySlice_Check(o) || PyLong_CheckExact(o)) return false;
  static PyTypeObject* const np_ndarray = reinterpret_cast<PyTypeObject*>(numpy().attr("ndarray").ptr());
  static PyTypeObject* const np_bool = reinterpret_cast<PyTypeObject*>(numpy().attr("bool_").ptr());
  return is_array(o) || PyBool_Check(o) || PyList_Check(o) || PyTuple_Check(o) || PyObject_TypeCheck(o, np_ndarray) ||
         PyObject_TypeCheck(o, np_bool);
}

bool maybe_advanced(nb::handle key) {
  PyObject* o = key.ptr();
  if (!PyTuple_Check(o)) return maybe_advanced_item(o);
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(o); ++i)
    if (maybe_advanced_item(PyTuple_GET_ITEM(o, i))) return true;
  return false;
}

// The value of a[...] = value as a device array (scalars checked against a's dtype as NumPy does).
NDArray value_array(const NDArray& a, nb::handle value) {
  if (is_array(value)) return array_of(value);
  if (auto s = scalar_from_py(value)) {
    s->check_assignable(a.dtype());
    return full(Shape{}, *s, a.dtype());
  }
  nb::object host = numpy().attr("asarray")(value, dtype_to_py(a.dtype()));
  nb::object device = nb::module_::import_("cuarray._array.ndarray_methods").attr("host_to_device")(host);
  return array_of(device);
}

}  // namespace

std::optional<NDArray> advanced_getitem(const NDArray& a, nb::handle key) {
  if (!maybe_advanced(key)) return std::nullopt;
  ParsedKey k = parse_key(key);
  if (is_basic_key(k.items)) return std::nullopt;
  return getitem(a, k.items);
}

bool advanced_setitem(const NDArray& a, nb::handle key, nb::handle value) {
  if (!maybe_advanced(key)) return false;
  ParsedKey k = parse_key(key);
  if (is_basic_key(k.items)) return false;
  setitem(a, k.items, value_array(a, value));
  return true;
}

}  // namespace cuarray::py
