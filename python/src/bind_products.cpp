// Matrix products (cuarray/products.hpp): matmul with its ufunc arguments, dot, tensordot, the
// `@` operators and the TF32 switch. The ufunc-like matmul object, vdot/inner/outer/kron/cross/
// vecdot and cuarray.linalg's products are in cuarray/_math/products.py and cuarray/linalg/_products.py.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <vector>

#include "bindings.hpp"
#include "convert.hpp"
#include "cuarray/products.hpp"
#include "py_array.hpp"

namespace cuarray::py {
namespace {

// An operand of `@`: a cuarray array, or a Python/NumPy scalar (0-d, which matmul rejects with
// NumPy's ValueError); nullopt for anything else, so that Python tries the reflected operator.
std::optional<NDArray> matmul_operand(nb::handle h) {
  if (is_array(h)) return array_of(h);
  if (std::optional<Scalar> s = scalar_from_py(h)) return full(Shape{}, *s);
  return std::nullopt;
}

nb::object matmul_operator(nb::handle a, nb::handle b) {
  std::optional<NDArray> x = matmul_operand(a), y = matmul_operand(b);
  if (!x || !y) return nb::borrow(Py_NotImplemented);
  return wrap(matmul(*x, *y));
}

}  // namespace

void bind_matmul_operators(nb::class_<PyArray>& cls) {
  cls.def("__matmul__", [](nb::handle a, nb::handle b) { return matmul_operator(a, b); });
  cls.def("__rmatmul__", [](nb::handle a, nb::handle b) { return matmul_operator(b, a); });
  // a @= b is matmul(a, b, out=a): NumPy's error when the product's shape is not a's.
  cls.def("__imatmul__", [](nb::handle a, nb::handle b) -> nb::object {
    std::optional<NDArray> y = matmul_operand(b);
    if (!y) return nb::borrow(Py_NotImplemented);
    MatmulOptions options;
    options.out = &array_of(a);
    matmul(array_of(a), *y, options);
    return nb::borrow(a);
  });
  // ndarray.dot(b, out=None) is cuarray.dot (its argument checks and out= rules).
  cls.def("dot", [](nb::handle a, nb::handle b, nb::handle out) {
    // Borrowed from its module, which outlives every call: a reference of our own, never released,
    // kept the package's modules (and their pools) alive into teardown, reported there as leaks.
    static const nb::handle python_dot = nb::module_::import_("cuarray._math.products").attr("dot").ptr();
    return python_dot(a, b, out);
  }, nb::arg("b"), nb::arg("out").none() = nb::none());
}

void bind_products(nb::module_& m) {
  m.def("matmul", [](nb::handle a, nb::handle b, nb::handle out, nb::handle dtype, nb::handle casting) -> nb::object {
    MatmulOptions options;
    options.dtype = dtype_from_py(dtype);
    options.casting = casting_from_py(casting);
    if (!out.is_none()) options.out = &array_of(out);
    NDArray r = matmul(array_of(a), array_of(b), options);
    return out.is_none() ? wrap(std::move(r)) : nb::borrow(out);
  }, nb::arg("a"), nb::arg("b"), nb::arg("out").none(), nb::arg("dtype").none(), nb::arg("casting"));
  m.def("dot", [](nb::handle a, nb::handle b) { return wrap(dot(array_of(a), array_of(b))); });
  m.def("tensordot", [](nb::handle a, nb::handle b, std::vector<int64_t> a_axes, std::vector<int64_t> b_axes) {
    return wrap(tensordot(array_of(a), array_of(b), a_axes, b_axes));
  });
  m.def("allow_tf32", [] { return allow_tf32(); });
  m.def("set_allow_tf32", [](bool allowed) { set_allow_tf32(allowed); });
}

}  // namespace cuarray::py
