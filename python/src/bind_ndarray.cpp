// The ndarray type: attributes, views, conversions and Python operators. Operators go straight to
// the C++ ufuncs (no Python frames on the hot path); cold methods (repr, tolist, NumPy protocol
// hooks) call into cuarray._array.ndarray_methods.
#include <nanobind/stl/string.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/reduction.hpp"
#include "cuarray/ufunc.hpp"
#include "indexing.hpp"
#include "py_array.hpp"
#include "reduction_args.hpp"

namespace cuarray::py {

PyTypeObject* g_ndarray_type = nullptr;

namespace {
// Constructs the instance in place (no typeid lookup, no temporary PyArray).
nb::object make_instance(NDArray&& array, nb::object base) {
  nb::object obj = nb::inst_alloc(nb::handle(reinterpret_cast<PyObject*>(g_ndarray_type)));
  new (nb::inst_ptr<PyArray>(obj)) PyArray{std::move(array), std::move(base)};
  nb::inst_mark_ready(obj);
  return obj;
}
}  // namespace

nb::object wrap(NDArray&& array) { return make_instance(std::move(array), nb::none()); }

nb::object wrap_view(NDArray&& array, nb::handle view_of) {
  // NumPy collapses .base to the array that owns the memory.
  PyArray* parent = nb::inst_ptr<PyArray>(view_of);
  return make_instance(std::move(array), parent->base.is_none() ? nb::borrow(view_of) : parent->base);
}

namespace {

nb::object py_helper(const char* name) { return nb::module_::import_("cuarray._array.ndarray_methods").attr(name); }

// The operands of a Python operator; false for one cuarray does not take, so that the operator
// returns NotImplemented and Python tries the reflected method (which, for NumPy arrays, ends in
// a clear TypeError).
bool operator_operands(nb::handle a, nb::handle b, Operand (&in)[2]) {
  for (int k = 0; k < 2; ++k) {
    nb::handle h = k ? b : a;
    if (is_array(h)) in[k] = Operand::of(array_of(h));
    else if (auto s = scalar_from_py(h)) in[k] = Operand::of(*s);
    else return false;
  }
  return true;
}

nb::object binary(const Ufunc& u, nb::handle a, nb::handle b) {
  Operand in[2];
  if (!operator_operands(a, b, in)) return nb::borrow(Py_NotImplemented);
  return wrap(std::move(u(std::span(in, 2)).out[0]));
}

nb::object inplace(const Ufunc& u, nb::handle self, nb::handle other) {
  Operand in[2];
  if (!operator_operands(self, other, in)) return nb::borrow(Py_NotImplemented);
  NDArray* out[1] = {&array_of(self)};
  u(std::span(in, 2), std::span(out, 1));
  return nb::borrow(self);
}

const Ufunc& U(const char* name) { return *Ufunc::find(name); }

// The reductions NumPy has as ndarray methods, with NumPy's signatures; var and std (mean=,
// correction=) are the Python functions (cuarray/_statistics/reductions.py).
void bind_reduction_methods(nb::class_<PyArray>& cls) {
  for (const char* name : {"sum", "prod"}) {
    const Reduction* r = Reduction::find(name);
    cls.def(name, [r](nb::handle s, nb::handle axis, nb::handle dtype, nb::handle out, nb::handle keepdims,
                      nb::handle initial, nb::handle where) {
      return call_reduction(*r, s, axis, dtype, out, keepdims, 0, where, initial);
    }, nb::arg("axis").none() = nb::none(), nb::arg("dtype").none() = nb::none(), nb::arg("out").none() = nb::none(),
       nb::arg("keepdims") = false, nb::arg("initial").none() = nb::none(), nb::arg("where").none() = true);
  }
  const Reduction* mean = Reduction::find("mean");
  cls.def("mean", [mean](nb::handle s, nb::handle axis, nb::handle dtype, nb::handle out, nb::handle keepdims,
                         nb::handle where) {
    return call_reduction(*mean, s, axis, dtype, out, keepdims, 0, where, nb::none());
  }, nb::arg("axis").none() = nb::none(), nb::arg("dtype").none() = nb::none(), nb::arg("out").none() = nb::none(),
     nb::arg("keepdims") = false, nb::kw_only(), nb::arg("where").none() = true);
  for (const char* name : {"min", "max"}) {
    const Reduction* r = Reduction::find(name);
    cls.def(name, [r](nb::handle s, nb::handle axis, nb::handle out, nb::handle keepdims, nb::handle initial,
                      nb::handle where) {
      return call_reduction(*r, s, axis, nb::none(), out, keepdims, 0, where, initial);
    }, nb::arg("axis").none() = nb::none(), nb::arg("out").none() = nb::none(), nb::arg("keepdims") = false,
       nb::arg("initial").none() = nb::none(), nb::arg("where").none() = true);
  }
  for (const char* name : {"argmin", "argmax"}) {
    const Reduction* r = Reduction::find(name);
    cls.def(name, [r](nb::handle s, nb::handle axis, nb::handle out, nb::handle keepdims) {
      return call_reduction(*r, s, axis, nb::none(), out, keepdims, 0, nb::bool_(true), nb::none());
    }, nb::arg("axis").none() = nb::none(), nb::arg("out").none() = nb::none(), nb::kw_only(),
       nb::arg("keepdims") = false);
  }
  for (const char* name : {"any", "all"}) {
    const Reduction* r = Reduction::find(name);
    cls.def(name, [r](nb::handle s, nb::handle axis, nb::handle out, nb::handle keepdims, nb::handle where) {
      return call_reduction(*r, s, axis, nb::none(), out, keepdims, 0, where, nb::none());
    }, nb::arg("axis").none() = nb::none(), nb::arg("out").none() = nb::none(), nb::arg("keepdims") = false,
       nb::kw_only(), nb::arg("where").none() = true);
  }
}

nb::object divmod(nb::handle a, nb::handle b) {
  static const Ufunc& u = U("divmod");
  Operand in[2];
  if (!operator_operands(a, b, in)) return nb::borrow(Py_NotImplemented);
  UfuncResult r = u(std::span(in, 2));
  return nb::make_tuple(wrap(std::move(r.out[0])), wrap(std::move(r.out[1])));
}

// NumPy's `**` on float and complex arrays: a Python 2 squares, -1 takes the reciprocal and 0.5 the
// square root (fast_scalar_power), which round differently from pow().
const Ufunc* fast_power(nb::handle base, nb::handle exponent) {
  if (!is_array(base) || !is_inexact(array_of(base).dtype())) return nullptr;
  PyObject* e = exponent.ptr();
  if (PyLong_CheckExact(e)) {
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(e, &overflow);
    if (overflow) return nullptr;
    if (v == 2) return &U("square");
    if (v == -1) return &U("reciprocal");
  } else if (PyFloat_CheckExact(e) && PyFloat_AS_DOUBLE(e) == 0.5) {
    return &U("sqrt");
  }
  return nullptr;
}

// The single element of a size-1 array, as a Python scalar (synchronizes).
nb::object element(const NDArray& a) {
  if (a.size() != 1) throw_error(ErrorKind::Value, "can only convert an array of size 1 to a Python scalar");
  alignas(16) unsigned char bytes[16];
  a.copy_to_host(bytes);
  return scalar_to_py(a.dtype(), bytes);
}

// float(a), int(a), complex(a): NumPy 2.5 converts only 0-d arrays.
nb::object python_scalar(const NDArray& a) {
  if (a.ndim() != 0) throw_error(ErrorKind::Type, "only 0-dimensional arrays can be converted to Python scalars");
  return element(a);
}

nb::tuple to_tuple(const SmallVector<int64_t, 6>& v) {
  nb::list l;
  for (int64_t x : v) l.append(nb::int_(x));
  return nb::tuple(l);
}

// reshape(2, 3), reshape((2, 3)) and transpose(1, 0), transpose((1, 0)) spellings.
Shape dims_from_args(const nb::args& args) {
  if (args.size() == 1 && !PyLong_Check(args[0].ptr()) && !nb::hasattr(args[0], "__index__"))
    return args[0].is_none() ? Shape{} : shape_from_py(args[0]);
  return shape_from_py(args);
}

void setitem(nb::handle self, nb::handle key, nb::handle value) {
  if (advanced_setitem(array_of(self), key, value)) return;
  NDArray view = basic_index(array_of(self), key);
  if (is_array(value)) {
    view.assign(array_of(value));
  } else if (auto s = scalar_from_py(value)) {
    s->check_assignable(view.dtype());
    view.fill(*s);
  } else {
    // Host data (lists, NumPy arrays): move it to the device in the target dtype, then broadcast.
    nb::object host = numpy().attr("asarray")(value, dtype_to_py(view.dtype()));
    nb::object device = py_helper("host_to_device")(host);
    view.assign(array_of(device));
  }
}

}  // namespace

void bind_ndarray(nb::module_& m) {
  auto cls = nb::class_<PyArray>(m, "ndarray", "An N-dimensional array in GPU memory (numpy.ndarray's interface).");
  g_ndarray_type = reinterpret_cast<PyTypeObject*>(cls.ptr());

  // ---- attributes ----
  cls.def_prop_ro("shape", [](nb::handle s) { return to_tuple(array_of(s).shape()); })
      .def_prop_ro("strides", [](nb::handle s) { return to_tuple(array_of(s).strides()); })
      .def_prop_ro("ndim", [](nb::handle s) { return array_of(s).ndim(); })
      .def_prop_ro("size", [](nb::handle s) { return array_of(s).size(); })
      .def_prop_ro("itemsize", [](nb::handle s) { return array_of(s).itemsize(); })
      .def_prop_ro("nbytes", [](nb::handle s) { return array_of(s).nbytes(); })
      .def_prop_ro("dtype", [](nb::handle s) { return dtype_to_py(array_of(s).dtype()); })
      .def_prop_ro("base", [](nb::handle s) { return nb::inst_ptr<PyArray>(s)->base; })
      .def_prop_ro("_device_id", [](nb::handle s) { return array_of(s).device(); })
      .def_prop_ro("_ptr", [](nb::handle s) { return reinterpret_cast<uintptr_t>(array_of(s).data()); })
      .def_prop_ro("_c_contiguous", [](nb::handle s) { return array_of(s).c_contiguous(); })
      .def_prop_ro("_f_contiguous", [](nb::handle s) { return array_of(s).f_contiguous(); })
      .def_prop_ro("T", [](nb::handle s) { return wrap_view(array_of(s).transpose(), s); })
      .def_prop_ro("mT", [](nb::handle s) {
        const NDArray& a = array_of(s);
        if (a.ndim() < 2) throw_error(ErrorKind::Value, "matrix transpose with ndim < 2 is undefined");
        return wrap_view(a.swapaxes(-1, -2), s);
      });

  // ---- views ----
  cls.def("reshape", [](nb::handle s, nb::args args, nb::kwargs kw) {
        Order order = kw.contains("order") ? order_from_py(kw["order"], Order::C) : Order::C;
        const NDArray& a = array_of(s);
        NDArray r = a.reshape(dims_from_args(args), order);
        bool is_view = r.buffer() == a.buffer();
        return is_view ? wrap_view(std::move(r), s) : wrap(std::move(r));
      })
      .def("transpose", [](nb::handle s, nb::args args) {
        const NDArray& a = array_of(s);
        if (args.size() == 0 || (args.size() == 1 && args[0].is_none())) return wrap_view(a.transpose(), s);
        Shape axes = dims_from_args(args);
        return wrap_view(a.transpose(axes), s);
      })
      .def("swapaxes", [](nb::handle s, int64_t a1, int64_t a2) { return wrap_view(array_of(s).swapaxes(a1, a2), s); },
           nb::arg("axis1"), nb::arg("axis2"))
      .def("squeeze", [](nb::handle s, nb::handle axis) {
        auto axes = axes_from_py(axis);
        return wrap_view(axes ? array_of(s).squeeze(std::span<const int64_t>(axes->data(), axes->size()))
                              : array_of(s).squeeze(), s);
      }, nb::arg("axis").none() = nb::none())
      .def("ravel", [](nb::handle s, nb::handle order) {
        const NDArray& a = array_of(s);
        NDArray r = a.ravel(order_from_py(order, Order::C));
        bool is_view = r.buffer() == a.buffer();
        return is_view ? wrap_view(std::move(r), s) : wrap(std::move(r));
      }, nb::arg("order") = "C")
      .def("flatten", [](nb::handle s, nb::handle order) { return wrap(array_of(s).flatten(order_from_py(order, Order::C))); },
           nb::arg("order") = "C")
      .def("view", [](nb::handle s, nb::handle dtype) {
        if (dtype.is_none()) return wrap_view(NDArray(array_of(s)), s);
        return wrap_view(array_of(s).view(dtype_from_py_required(dtype)), s);
      }, nb::arg("dtype").none() = nb::none())
      .def("_broadcast_to", [](nb::handle s, nb::handle shape) { return wrap_view(array_of(s).broadcast_to(shape_from_py(shape)), s); })
      .def("diagonal", [](nb::handle s, int64_t offset, int64_t axis1, int64_t axis2) {
        return wrap_view(array_of(s).diagonal(offset, axis1, axis2), s);
      }, nb::arg("offset") = 0, nb::arg("axis1") = 0, nb::arg("axis2") = 1)
      .def("_complex_part", [](nb::handle s, bool imag) { return wrap_view(array_of(s).complex_part(imag), s); })
      .def("__getitem__", [](nb::handle s, nb::handle key) {
        if (std::optional<NDArray> r = advanced_getitem(array_of(s), key)) return wrap(std::move(*r));  // a copy
        return wrap_view(basic_index(array_of(s), key), s);
      },
           nb::arg("key").none())
      .def("__setitem__", &setitem, nb::arg("key").none(), nb::arg("value").none());

  // ---- copies and conversions ----
  cls.def("astype", [](nb::handle s, nb::handle dtype, nb::handle order, nb::handle casting, nb::handle subok, bool copy) {
        const NDArray& a = array_of(s);
        DType t = dtype_from_py_required(dtype);
        Casting c = casting.is_none() ? Casting::Unsafe : casting_from_py(casting);
        if (!can_cast(a.dtype(), t, c))
          throw_error(ErrorKind::Type, "Cannot cast array data from dtype('" + std::string(dtype_name(a.dtype())) +
                                           "') to dtype('" + std::string(dtype_name(t)) + "') according to the rule '" +
                                           std::string(casting_name(c)) + "'");
        NDArray r = a.astype(t, copy, order_from_py(order, Order::K));
        return r.raw_data() == a.raw_data() && r.dtype() == a.dtype() && !copy ? nb::borrow(s) : wrap(std::move(r));
      }, nb::arg("dtype"), nb::arg("order") = "K", nb::arg("casting").none() = nb::none(), nb::arg("subok").none() = nb::none(),
      nb::arg("copy") = true)
      // CuPy's rule: the copy lands on the current device, also for an array of another device.
      .def("copy", [](nb::handle s, nb::handle order) {
        const NDArray& a = array_of(s);
        const Order o = order_from_py(order, Order::C);
        const int here = current_device();
        return wrap(a.device() == here ? a.copy(o) : to_device(a, here, o));
      }, nb::arg("order") = "C")
      .def("fill", [](nb::handle s, nb::handle value) {
        auto v = scalar_from_py(is_array(value) ? element(array_of(value)) : nb::borrow(value));
        if (!v) throw_error(ErrorKind::Type, "fill() needs a scalar value");
        v->check_assignable(array_of(s).dtype());
        array_of(s).fill(*v);
      }, nb::arg("value"))
      .def("item", [](nb::handle s, nb::args args) {
        const NDArray& a = array_of(s);
        if (args.size() == 0) return element(a);
        if (args.size() == 1 && PyLong_Check(args[0].ptr())) {
          int64_t i = nb::cast<int64_t>(args[0]);
          if (i < -a.size() || i >= a.size()) throw_error(ErrorKind::Index, "index " + std::to_string(i) + " is out of bounds for size " + std::to_string(a.size()));
          NDArray flat = a.reshape(Shape{a.size()});
          return element(flat.index(0, i));
        }
        return element(basic_index(a, nb::tuple(args)));
      })
      .def("__bool__", [](nb::handle s) {
        const NDArray& a = array_of(s);
        if (a.size() != 1)
          throw_error(ErrorKind::Value, a.size() == 0 ? "The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an array is not empty."
                                                      : "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
        int truth = PyObject_IsTrue(element(a).ptr());
        if (truth < 0) throw nb::python_error();
        return truth == 1;
      })
      .def("__float__", [](nb::handle s) { return nb::float_(python_scalar(array_of(s))); })
      .def("__int__", [](nb::handle s) { return nb::int_(python_scalar(array_of(s))); })
      .def("__complex__", [](nb::handle s) {
        nb::object v = python_scalar(array_of(s));
        return nb::steal(PyComplex_FromCComplex(PyComplex_AsCComplex(v.ptr())));
      })
      .def("__index__", [](nb::handle s) {
        const NDArray& a = array_of(s);
        if (!is_integer(a.dtype()) || a.ndim() != 0)
          throw_error(ErrorKind::Type, "only integer scalar arrays can be converted to a scalar index");
        return element(a);
      })
      .def("__len__", [](nb::handle s) {
        const NDArray& a = array_of(s);
        if (a.ndim() == 0) throw_error(ErrorKind::Type, "len() of unsized object");
        return a.shape()[0];
      })
      .def("_copy_to_host", [](nb::handle s, uintptr_t dst) { array_of(s).copy_to_host(reinterpret_cast<void*>(dst)); })
      .def("_copy_from_host", [](nb::handle s, uintptr_t src) { array_of(s).copy_from_host(reinterpret_cast<const void*>(src)); });

  // Cold paths (repr, tolist, NumPy protocol hooks, flags, ...) are attached in cuarray/_array/ndarray_methods.py.

  // The reductions as C++ methods (the per-call path of small reductions), through the converter
  // the functions use.
  bind_reduction_methods(cls);

  // ---- operators ----
  bind_matmul_operators(cls);
  bind_memory(m, cls);
#define CUARRAY_BINOP(py, ufunc)                                                                       \
  cls.def("__" py "__", [](nb::handle a, nb::handle b) { static const Ufunc& u = U(ufunc); return binary(u, a, b); }); \
  cls.def("__r" py "__", [](nb::handle a, nb::handle b) { static const Ufunc& u = U(ufunc); return binary(u, b, a); }); \
  cls.def("__i" py "__", [](nb::handle a, nb::handle b) { static const Ufunc& u = U(ufunc); return inplace(u, a, b); });
  CUARRAY_BINOP("add", "add")
  CUARRAY_BINOP("sub", "subtract")
  CUARRAY_BINOP("mul", "multiply")
  CUARRAY_BINOP("truediv", "divide")
  CUARRAY_BINOP("floordiv", "floor_divide")
  CUARRAY_BINOP("mod", "remainder")
  CUARRAY_BINOP("and", "bitwise_and")
  CUARRAY_BINOP("or", "bitwise_or")
  CUARRAY_BINOP("xor", "bitwise_xor")
  CUARRAY_BINOP("lshift", "left_shift")
  CUARRAY_BINOP("rshift", "right_shift")
#undef CUARRAY_BINOP
  cls.def("__pow__", [](nb::handle a, nb::handle b) {
    static const Ufunc& u = U("power");
    if (const Ufunc* fast = fast_power(a, b)) return wrap((*fast)(array_of(a)));
    return binary(u, a, b);
  });
  cls.def("__rpow__", [](nb::handle a, nb::handle b) { static const Ufunc& u = U("power"); return binary(u, b, a); });
  cls.def("__ipow__", [](nb::handle a, nb::handle b) {
    static const Ufunc& u = U("power");
    if (const Ufunc* fast = fast_power(a, b)) {
      Operand in[1] = {Operand::of(array_of(a))};
      NDArray* out[1] = {&array_of(a)};
      (*fast)(std::span(in, 1), std::span(out, 1));
      return nb::borrow(a);
    }
    return inplace(u, a, b);
  });
#define CUARRAY_CMP(py, ufunc) \
  cls.def("__" py "__", [](nb::handle a, nb::handle b) { static const Ufunc& u = U(ufunc); return binary(u, a, b); });
  CUARRAY_CMP("eq", "equal")
  CUARRAY_CMP("ne", "not_equal")
  CUARRAY_CMP("lt", "less")
  CUARRAY_CMP("le", "less_equal")
  CUARRAY_CMP("gt", "greater")
  CUARRAY_CMP("ge", "greater_equal")
#undef CUARRAY_CMP
#define CUARRAY_UNOP(py, ufunc) \
  cls.def("__" py "__", [](nb::handle a) { static const Ufunc& u = U(ufunc); return wrap(u(array_of(a))); });
  CUARRAY_UNOP("neg", "negative")
  CUARRAY_UNOP("pos", "positive")
  CUARRAY_UNOP("abs", "absolute")
  CUARRAY_UNOP("invert", "invert")
#undef CUARRAY_UNOP
  cls.def("__divmod__", [](nb::handle a, nb::handle b) { return divmod(a, b); });
  cls.def("__rdivmod__", [](nb::handle a, nb::handle b) { return divmod(b, a); });
  cls.attr("__array_priority__") = 100;
  cls.attr("__hash__") = nb::none();
}

}  // namespace cuarray::py
