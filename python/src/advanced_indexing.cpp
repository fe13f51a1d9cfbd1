// a[idx] and a[idx] = v for one boolean or integer index array (cuarray, NumPy or a list); the
// other advanced forms raise NotImplementedError from basic_index.
#include <optional>

#include "convert.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/indexing.hpp"
#include "indexing.hpp"

namespace cuarray::py {
namespace {

// The index array of a key made of one array-like item (alone or in a 1-tuple), else nullopt.
std::optional<NDArray> index_array(nb::handle key) {
  PyObject* o = key.ptr();
  if (PyTuple_Check(o)) {
    if (PyTuple_GET_SIZE(o) != 1) return std::nullopt;
    o = PyTuple_GET_ITEM(o, 0);
  }
  nb::handle item(o);
  if (is_array(item)) {
    const NDArray& a = array_of(item);
    if (a.dtype() != DType::Bool && !is_integer(a.dtype()))
      throw_error(ErrorKind::Index, "arrays used as indices must be of integer (or boolean) type");
    return a;
  }
  static PyTypeObject* const numpy_ndarray = reinterpret_cast<PyTypeObject*>(numpy().attr("ndarray").ptr());
  if (!PyList_Check(o) && !PyObject_TypeCheck(o, numpy_ndarray)) return std::nullopt;
  nb::object host = numpy().attr("asarray")(item);
  const char kind = nb::cast<std::string>(host.attr("dtype").attr("kind"))[0];
  const bool empty_list = PyList_Check(o) && PyList_GET_SIZE(o) == 0;
  if (empty_list) host = numpy().attr("asarray")(item, numpy().attr("intp"));
  else if (kind != 'b' && kind != 'i' && kind != 'u')
    throw_error(ErrorKind::Index, "arrays used as indices must be of integer (or boolean) type");
  nb::object device = nb::module_::import_("cuarray._ndarray_py").attr("host_to_device")(host);
  return array_of(device);
}

// The value of a[...] = value as a device array of a's dtype (scalars checked as NumPy does).
NDArray value_array(const NDArray& a, nb::handle value) {
  if (is_array(value)) return array_of(value);
  if (auto s = scalar_from_py(value)) {
    s->check_assignable(a.dtype());
    return full(Shape{}, *s, a.dtype());
  }
  nb::object host = numpy().attr("asarray")(value, dtype_to_py(a.dtype()));
  nb::object device = nb::module_::import_("cuarray._ndarray_py").attr("host_to_device")(host);
  return array_of(device);
}

}  // namespace

std::optional<NDArray> advanced_getitem(const NDArray& a, nb::handle key) {
  std::optional<NDArray> index = index_array(key);
  if (!index) return std::nullopt;
  if (index->dtype() == DType::Bool) return boolean_index(a, *index);
  if (a.ndim() == 0)
    throw_error(ErrorKind::Index, "too many indices for array: array is 0-dimensional, but 1 were indexed");
  return take(a, *index, 0);
}

bool advanced_setitem(const NDArray& a, nb::handle key, nb::handle value) {
  std::optional<NDArray> index = index_array(key);
  if (!index) return false;
  NDArray v = value_array(a, value);
  if (index->dtype() == DType::Bool) boolean_assign(a, *index, v);
  else index_assign(a, *index, v);
  return true;
}

}  // namespace cuarray::py
