// Python keys to index items: ints (and __index__ objects), slices, None, Ellipsis, booleans,
// and index arrays from cuarray arrays, NumPy arrays, lists and tuples inside the key.
#include "indexing.hpp"

#include <string>

#include "convert.hpp"
#include "cuarray/errors.hpp"

namespace cuarray::py {
namespace {

constexpr const char* kValidIndices =
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid "
    "indices";

PyTypeObject* numpy_type(const char* name) {
  return reinterpret_cast<PyTypeObject*>(numpy().attr(name).ptr());
}

int64_t integer_of(PyObject* o) {
  PyObject* idx = PyNumber_Index(o);
  if (!idx) throw nb::python_error();
  long long v = PyLong_AsLongLong(idx);
  Py_DECREF(idx);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return v;
}

// A NumPy array (or host sequence, already converted) as an index: 0-d ints and bools are
// scalars, as NumPy treats them; other arrays move to the device.
IndexItem host_index(nb::handle host, ParsedKey& k, bool from_list) {
  const char kind = nb::cast<std::string>(host.attr("dtype").attr("kind"))[0];
  if (kind != 'b' && kind != 'i' && kind != 'u')
    throw_error(ErrorKind::Index, from_list ? kValidIndices : "arrays used as indices must be of integer (or boolean) type");
  if (nb::cast<int>(host.attr("ndim")) == 0) {
    if (kind == 'b') return IndexItem::boolean(PyObject_IsTrue(host.ptr()) == 1);
    return IndexItem::integer(integer_of(host.ptr()));
  }
  nb::object device = nb::module_::import_("cuarray._array.ndarray_methods").attr("host_to_device")(host);
  k.arrays.push_back(array_of(device));
  IndexItem item = IndexItem::index_array(k.arrays.back());
  item.value = static_cast<int64_t>(k.arrays.size() - 1);  // the pointer is set once `arrays` stops growing
  return item;
}

IndexItem parse_item(nb::handle item, ParsedKey& k) {
  PyObject* o = item.ptr();
  if (o == Py_None) return IndexItem::new_axis();
  if (o == Py_Ellipsis) return IndexItem::ellipsis();
  if (PySlice_Check(o)) {
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(o, &start, &stop, &step) < 0) throw nb::python_error();
    return IndexItem::slice(start, stop, step);
  }
  if (PyLong_CheckExact(o)) return IndexItem::integer(integer_of(o));
  if (is_array(item)) {
    k.arrays.push_back(array_of(item));
    IndexItem a = IndexItem::index_array(k.arrays.back());
    a.value = static_cast<int64_t>(k.arrays.size() - 1);
    return a;
  }
  static PyTypeObject* const np_bool = numpy_type("bool_");
  if (PyBool_Check(o) || PyObject_TypeCheck(o, np_bool)) {
    const int truth = PyObject_IsTrue(o);
    if (truth < 0) throw nb::python_error();
    return IndexItem::boolean(truth);
  }
  static PyTypeObject* const np_integer = numpy_type("integer");
  if (PyLong_Check(o) || PyObject_TypeCheck(o, np_integer)) return IndexItem::integer(integer_of(o));
  static PyTypeObject* const np_ndarray = numpy_type("ndarray");
  if (PyObject_TypeCheck(o, np_ndarray)) return host_index(item, k, false);
  if (PyList_Check(o) || PyTuple_Check(o)) {
    nb::object host;
    try {
      host = numpy().attr("asarray")(item);
    } catch (const nb::python_error&) {
      throw_error(ErrorKind::Index, kValidIndices);
    }
    // NumPy casts a sequence holding no elements ([], [[]], ((), ())) to intp: it would default to float.
    if (nb::cast<int64_t>(host.attr("size")) == 0) host = host.attr("astype")(numpy().attr("intp"));
    return host_index(host, k, true);
  }
  if (PyFloat_Check(o) || PyComplex_Check(o) || !PyObject_HasAttrString(o, "__index__"))
    throw_error(ErrorKind::Index, kValidIndices);
  return IndexItem::integer(integer_of(o));
}

}  // namespace

ParsedKey parse_key(nb::handle key) {
  ParsedKey k;
  if (PyTuple_Check(key.ptr())) {
    const Py_ssize_t n = PyTuple_GET_SIZE(key.ptr());
    for (Py_ssize_t i = 0; i < n; ++i) k.items.push_back(parse_item(PyTuple_GET_ITEM(key.ptr(), i), k));
  } else {
    k.items.push_back(parse_item(key, k));
  }
  for (IndexItem& item : k.items)
    if (item.kind == IndexItem::Kind::Array) item.array = &k.arrays[static_cast<size_t>(item.value)];
  return k;
}

NDArray basic_index(const NDArray& a, nb::handle key) {
  ParsedKey k = parse_key(key);
  return is_basic_key(k.items) ? basic_view(a, k.items) : getitem(a, k.items);
}

}  // namespace cuarray::py
