// ufunc.at and ufunc.reduceat over the scatter-combine engine (cuarray/ufunc_methods.hpp). The index
// normalization NumPy makes first (Ellipsis, boolean masks, lists, slices) is in
// cuarray/_ufunc/methods.py; items arrive here as ints, None, (start, step, length) or arrays.
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/ufunc_methods.hpp"
#include "py_array.hpp"

namespace cuarray::py {
namespace {

AtIndexItem at_item(nb::handle h) {
  AtIndexItem item;
  if (h.is_none()) {
    item.kind = AtIndexItem::Kind::NewAxis;
  } else if (is_array(h)) {
    item.kind = AtIndexItem::Kind::Array;
    item.array = array_of(h);
  } else if (PyTuple_Check(h.ptr())) {
    item.kind = AtIndexItem::Kind::Slice;
    item.start = nb::cast<int64_t>(h[0]);
    item.step = nb::cast<int64_t>(h[1]);
    item.length = nb::cast<int64_t>(h[2]);
  } else {
    item.kind = AtIndexItem::Kind::Integer;
    item.start = nb::cast<int64_t>(h);
  }
  return item;
}

}  // namespace

void bind_ufunc_methods(nb::module_& m) {
  // <ufunc>.at(a, items, b): b is None (unary), an array or a scalar.
  m.def("ufunc_at", [](const char* name, nb::handle a, nb::list items, nb::handle b) {
    std::vector<AtIndexItem> index;
    for (nb::handle h : items) index.push_back(at_item(h));
    Operand value;
    if (!b.is_none()) value = operand_from_py(b, "ufunc.at's b");
    ufunc_at(ufunc(name), array_of(a), index, b.is_none() ? nullptr : &value);
  }, nb::arg("ufunc"), nb::arg("a"), nb::arg("items"), nb::arg("b").none());
  // <ufunc>.reduceat(a, indices, axis, dtype) with host indices (checked against the axis here).
  m.def("ufunc_reduceat", [](const char* name, nb::handle a, std::vector<int64_t> indices, int64_t axis,
                             nb::handle dtype) {
    return wrap(ufunc_reduceat(ufunc(name), array_of(a), indices, axis, dtype_from_py(dtype)));
  }, nb::arg("ufunc"), nb::arg("a"), nb::arg("indices"), nb::arg("axis"), nb::arg("dtype").none());
}

}  // namespace cuarray::py
