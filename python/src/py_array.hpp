// The Python ndarray object: an NDArray plus the Python object it views (NumPy's .base).
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "cuarray/ndarray.hpp"

namespace cuarray::py {
namespace nb = nanobind;

struct PyArray {
  NDArray array;
  nb::object base;  // None for arrays that own their memory
};

// A new Python ndarray. `view_of` is the array this one views (its base is collapsed to the owner).
nb::object wrap(NDArray&& array);
nb::object wrap_view(NDArray&& array, nb::handle view_of);

// The ndarray type object, cached when the type is bound: the per-call checks compare type
// pointers instead of going through nanobind's typeid lookup.
extern PyTypeObject* g_ndarray_type;
inline bool is_array(nb::handle h) { return Py_TYPE(h.ptr()) == g_ndarray_type; }
inline NDArray& array_of(nb::handle h) { return nb::inst_ptr<PyArray>(h)->array; }

}  // namespace cuarray::py
