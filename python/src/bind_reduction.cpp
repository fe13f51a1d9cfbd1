// Reductions: cuarray._core.reductions maps each name of cuarray/reduction.hpp (NumPy's, and the
// internal "_norm") to an object holding the Reduction found once, so a call looks nothing up.
#include "reduction_args.hpp"

#include <nanobind/stl/string.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "cuarray/errors.hpp"
#include "py_array.hpp"

namespace cuarray::py {
namespace {

struct PyReduction {
  const Reduction* r;
};

std::optional<SmallVector<int64_t, 6>> single_axis_from_py(nb::handle axis) {
  if (axis.is_none()) return std::nullopt;
  PyObject* index = PyNumber_Index(axis.ptr());  // NumPy's TypeError for a tuple
  if (!index) throw nb::python_error();
  const long long v = PyLong_AsLongLong(index);
  Py_DECREF(index);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return SmallVector<int64_t, 6>{v};
}

bool truth(const Scalar& s) {
  switch (s.kind) {
    case Scalar::Kind::Bool: return s.b;
    case Scalar::Kind::Int: return s.int_is_unsigned ? s.u != 0 : s.i != 0;
    case Scalar::Kind::Float: return s.f != 0;  // NaN is true
    case Scalar::Kind::Complex: return s.f != 0 || s.imag != 0;
  }
  return true;
}

// where= as a bool mask, nullptr for NumPy's default (everything). `holder` keeps a made mask.
const NDArray* where_from_py(nb::handle where, NDArray& holder) {
  if (where.ptr() == Py_True) return nullptr;
  if (is_array(where)) return &array_of(where);
  bool value = false;  // NumPy: where=None selects nothing
  if (!where.is_none()) {
    std::optional<Scalar> s = scalar_from_py(where);
    if (!s) {
      // Host data (a NumPy mask, a list): to the device as it is, so a non-bool dtype still raises.
      holder = array_of(nb::module_::import_("cuarray._creation.creation").attr("asarray")(where));
      return &holder;
    }
    value = truth(*s);
  }
  if (value) return nullptr;
  holder = full(Shape{}, Scalar::from_bool(false), DType::Bool);
  return &holder;
}

// initial= as NumPy sets it into the loop's dtype: a number, or a 0-d array's element; an array
// of any other rank is NumPy's ValueError. NumPy hands other objects to int()/float()/complex()
// of the loop's dtype, which the binding does not know yet: they are a TypeError here, as int()
// and complex() make of a list (float() of a list is NumPy's ValueError, and it parses strings).
std::optional<Scalar> initial_from_py(nb::handle initial) {
  if (initial.is_none()) return std::nullopt;
  if (std::optional<Scalar> s = scalar_from_py(initial)) return s;
  if (is_array(initial) || nb::isinstance(initial, numpy().attr("ndarray"))) {
    if (nb::cast<int>(initial.attr("ndim")) != 0)
      throw_error(ErrorKind::Value, "setting an array element with a sequence.");
    return scalar_required(initial.attr("item")(), "initial");
  }
  throw_error(ErrorKind::Type, "initial must be a real or complex number, not '" +
                                   std::string(Py_TYPE(initial.ptr())->tp_name) + "'");
}

// out= (or a 1-tuple holding it, as NumPy's ufunc.reduce takes).
nb::handle out_from_py(nb::handle out) {
  if (out.is_none()) return out;
  nb::handle h = out;
  if (PyTuple_Check(out.ptr())) {
    if (PyTuple_GET_SIZE(out.ptr()) != 1)
      throw_error(ErrorKind::Value, "The 'out' tuple must have exactly one entry per ufunc output");
    h = PyTuple_GET_ITEM(out.ptr(), 0);
  }
  if (!is_array(h))
    throw_error(ErrorKind::Type, "return arrays must be of ArrayType (a cuarray.ndarray), got " +
                                     std::string(nb::str(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(h.ptr())))).c_str()));
  return h;
}

}  // namespace

nb::object call_reduction(const Reduction& r, nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out,
                          nb::handle keepdims, double ddof, nb::handle where, nb::handle initial) {
  if (!is_array(a)) throw_error(ErrorKind::Type, std::string(r.name()) + "() needs a cuarray.ndarray");
  const auto axes = r.single_axis() ? single_axis_from_py(axis) : axes_from_py(axis);
  const int keep = PyObject_IsTrue(keepdims.ptr());
  if (keep < 0) throw nb::python_error();
  ReduceOptions options;
  NDArray mask;
  options.where = where_from_py(where, mask);
  options.initial = initial_from_py(initial);
  const nb::handle out_array = out_from_py(out);
  if (!out_array.is_none()) options.out = &array_of(out_array);
  const std::optional<std::span<const int64_t>> axes_span =
      axes ? std::optional<std::span<const int64_t>>(std::span<const int64_t>(axes->data(), axes->size()))
           : std::nullopt;
  NDArray result = reduce(r, array_of(a), axes_span, dtype_from_py(dtype), keep == 1, ddof, options);
  return options.out ? nb::borrow(out_array) : wrap(std::move(result));
}

void bind_reductions(nb::module_& m) {
  nb::class_<PyReduction>(m, "Reduction", "A NumPy reduction, found once by name (cuarray/reduction.hpp).")
      .def("__call__",
           [](const PyReduction& self, nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out,
              nb::handle keepdims, double ddof, nb::handle where, nb::handle initial) {
             return call_reduction(*self.r, a, axis, dtype, out, keepdims, ddof, where, initial);
           },
           nb::arg("a"), nb::arg("axis").none() = nb::none(), nb::arg("dtype").none() = nb::none(),
           nb::arg("out").none() = nb::none(), nb::arg("keepdims").none() = false, nb::arg("ddof") = 0.0,
           nb::arg("where").none() = true, nb::arg("initial").none() = nb::none())
      .def_prop_ro("name", [](const PyReduction& self) { return std::string(self.r->name()); })
      .def("__repr__", [](const PyReduction& self) { return "<reduction '" + std::string(self.r->name()) + "'>"; });
  nb::dict reductions;
  for (const Reduction& r : Reduction::all())
    reductions[nb::str(r.name().data(), r.name().size())] = nb::cast(PyReduction{&r});
  m.attr("reductions") = reductions;
}

}  // namespace cuarray::py
