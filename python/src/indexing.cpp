#include "indexing.hpp"

#include <string>

#include "convert.hpp"
#include "cuarray/errors.hpp"

namespace cuarray::py {
namespace {

enum class ItemKind { Integer, Slice, Ellipsis, NewAxis, Bool };

ItemKind classify(nb::handle item) {
  PyObject* o = item.ptr();
  if (o == Py_None) return ItemKind::NewAxis;
  if (o == Py_Ellipsis) return ItemKind::Ellipsis;
  if (PySlice_Check(o)) return ItemKind::Slice;
  if (PyBool_Check(o) || nb::isinstance(item, numpy().attr("bool_"))) return ItemKind::Bool;
  if (PyLong_Check(o) || nb::isinstance(item, numpy().attr("integer"))) return ItemKind::Integer;
  if (is_array(item) || nb::isinstance(item, numpy().attr("ndarray")) || PyList_Check(o))
    throw_error(ErrorKind::NotImplemented, "advanced (integer or boolean array) indexing is not supported yet");
  if (PyObject_HasAttrString(o, "__index__")) return ItemKind::Integer;
  throw_error(ErrorKind::Index,
              "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays "
              "are valid indices");
}

}  // namespace

NDArray basic_index(const NDArray& a, nb::handle key) {
  nb::tuple items = PyTuple_Check(key.ptr()) ? nb::borrow<nb::tuple>(key) : nb::make_tuple(key);
  const size_t n = nb::len(items);
  SmallVector<uint8_t, 8> kinds;
  int consumed = 0, ellipses = 0;
  for (size_t i = 0; i < n; ++i) {
    ItemKind k = classify(items[i]);
    kinds.push_back(static_cast<uint8_t>(k));
    if (k == ItemKind::Integer || k == ItemKind::Slice) ++consumed;
    if (k == ItemKind::Ellipsis && ++ellipses > 1)
      throw_error(ErrorKind::Index, "an index can only have a single ellipsis ('...')");
  }
  if (consumed > a.ndim())
    throw_error(ErrorKind::Index, "too many indices for array: array is " + std::to_string(a.ndim()) +
                                      "-dimensional, but " + std::to_string(consumed) + " were indexed");
  Shape shape;
  Strides strides;
  char* data = a.data();
  int dim = 0;  // next source dim
  for (size_t i = 0; i < n; ++i) {
    nb::handle item = items[i];
    switch (static_cast<ItemKind>(kinds[i])) {
      case ItemKind::NewAxis:
        shape.push_back(1);
        strides.push_back(0);
        break;
      case ItemKind::Bool: {  // a 0-d mask: a new axis of length 1 (True) or 0 (False)
        // PyObject_IsTrue, not nb::cast<bool>: nanobind's bool caster accepts only True/False and
        // throws std::bad_cast for numpy.bool_ (d[np.False_], a 0-d NumPy mask).
        const int truth = PyObject_IsTrue(item.ptr());
        if (truth < 0) throw nb::python_error();
        shape.push_back(truth ? 1 : 0);
        strides.push_back(0);
        break;
      }
      case ItemKind::Ellipsis:
        for (int e = 0; e < a.ndim() - consumed; ++e, ++dim) {
          shape.push_back(a.shape()[dim]);
          strides.push_back(a.strides()[dim]);
        }
        break;
      case ItemKind::Integer: {
        PyObject* idx = PyNumber_Index(item.ptr());
        if (!idx) throw nb::python_error();
        long long v = PyLong_AsLongLong(idx);
        Py_DECREF(idx);
        if (v == -1 && PyErr_Occurred()) throw nb::python_error();
        const int64_t len = a.shape()[dim];
        if (v < -len || v >= len)
          throw_error(ErrorKind::Index, "index " + std::to_string(v) + " is out of bounds for axis " +
                                            std::to_string(dim) + " with size " + std::to_string(len));
        if (v < 0) v += len;
        data += v * a.strides()[dim];
        ++dim;
        break;
      }
      case ItemKind::Slice: {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(item.ptr(), &start, &stop, &step) < 0) throw nb::python_error();
        Py_ssize_t len = PySlice_AdjustIndices(static_cast<Py_ssize_t>(a.shape()[dim]), &start, &stop, step);
        shape.push_back(len);
        strides.push_back(a.strides()[dim] * step);
        if (len > 0) data += start * a.strides()[dim];
        ++dim;
        break;
      }
    }
  }
  for (; dim < a.ndim(); ++dim) {  // trailing dims not indexed
    shape.push_back(a.shape()[dim]);
    strides.push_back(a.strides()[dim]);
  }
  return a.view_as(std::move(shape), std::move(strides), data);
}

}  // namespace cuarray::py
