// ufunc objects: cuarray.add etc., with NumPy's call signature and attributes.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/ufunc.hpp"
#include "jit/kernel_source.hpp"
#include "ops/ufunc/ufunc_resolve.hpp"
#include "py_array.hpp"

namespace cuarray::py {
namespace {

struct PyUfunc {
  const Ufunc* u;
};

// ufunc(*inputs, *outputs, out=, dtype=, casting=, where=, order=, subok=, signature=)
nb::object call(const PyUfunc& self, nb::args args, nb::kwargs kwargs) {
  const Ufunc& u = *self.u;
  const int nin = u.nin(), nout = u.nout();
  const int nargs = static_cast<int>(args.size());
  if (nargs < nin || nargs > nin + nout)
    throw_error(ErrorKind::Type, std::string(u.name()) + "() takes from " + std::to_string(nin) + " to " +
                                     std::to_string(nin + nout) + " positional arguments but " +
                                     std::to_string(nargs) + " were given");
  Operand inputs[8];
  for (int i = 0; i < nin; ++i) inputs[i] = operand_from_py(args[i], "a ufunc input");

  nb::object out_obj = nb::none();
  UfuncOptions options;
  NDArray where_false;
  for (auto [key, value] : kwargs) {
    std::string k = nb::cast<std::string>(key);
    if (k == "out") out_obj = nb::borrow(value);
    else if (k == "dtype") options.dtype = dtype_from_py(value);
    else if (k == "casting") options.casting = casting_from_py(value);
    else if (k == "where") {
      if (value.ptr() == Py_False) {  // nothing is written: a 0-d False mask
        where_false = full(Shape{}, Scalar::from_bool(false), DType::Bool);
        options.where = &where_false;
      } else if (value.ptr() != Py_True) {
        if (!is_array(value)) throw_error(ErrorKind::Type, "where= must be a cuarray boolean array or a bool");
        options.where = &array_of(value);
      }
    } else if (k == "order") options.order = order_from_py(value, Order::K);
    else if (k == "subok" || k == "signature") continue;
    else throw_error(ErrorKind::Type, "'" + k + "' is an invalid keyword to ufunc '" + std::string(u.name()) + "'");
  }
  NDArray* outs[2] = {nullptr, nullptr};
  nb::object out_handles[2];
  auto take_out = [&](int k, nb::handle h) {
    if (h.is_none()) return;
    if (!is_array(h))
      throw_error(ErrorKind::Type, "return arrays must be of ArrayType (a cuarray.ndarray), got " +
                                       std::string(nb::str(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(h.ptr())))).c_str()));
    outs[k] = &array_of(h);
    out_handles[k] = nb::borrow(h);
  };
  for (int k = 0; k < nargs - nin; ++k) take_out(k, args[nin + k]);
  if (!out_obj.is_none()) {
    if (nargs > nin) throw_error(ErrorKind::Type, "cannot specify 'out' as both a positional and keyword argument");
    if (PyTuple_Check(out_obj.ptr())) {
      if (static_cast<int>(nb::len(out_obj)) != nout)
        throw_error(ErrorKind::Value, "The 'out' tuple must have exactly one entry per ufunc output");
      for (int k = 0; k < nout; ++k) take_out(k, out_obj[k]);
    } else {
      take_out(0, out_obj);
    }
  }
  UfuncResult r = u(std::span(inputs, nin), std::span(outs, nout), options);
  auto result = [&](int k) { return outs[k] ? out_handles[k] : wrap(std::move(r.out[k])); };
  if (nout == 1) return result(0);
  return nb::make_tuple(result(0), result(1));
}

// np.ufunc.resolve_dtypes((dtype | int | float | complex | None, ...))
nb::tuple resolve_dtypes(const PyUfunc& self, nb::handle dtypes, nb::handle signature, nb::handle casting,
                         bool reduction) {
  const Ufunc& u = *self.u;
  if (static_cast<int>(nb::len(dtypes)) != u.nin() + u.nout())
    throw_error(ErrorKind::Value, "resolve_dtypes: the number of dtypes must match the number of operands");
  std::vector<OperandType> in;
  for (int i = 0; i < u.nin(); ++i) {
    nb::handle d = dtypes[i];
    using K = Scalar::Kind;
    if (d.ptr() == reinterpret_cast<PyObject*>(&PyLong_Type)) in.push_back({DType::Int64, true, K::Int});
    else if (d.ptr() == reinterpret_cast<PyObject*>(&PyFloat_Type)) in.push_back({DType::Float64, true, K::Float});
    else if (d.ptr() == reinterpret_cast<PyObject*>(&PyComplex_Type)) in.push_back({DType::Complex128, true, K::Complex});
    else if (!nb::isinstance(d, numpy().attr("dtype")))
      throw_error(ErrorKind::Type, "Provided dtype must be a valid NumPy dtype, int, float, complex, or None.");
    else in.push_back({dtype_from_py_required(d)});
  }
  // Output dtypes act as out= arrays would: the loop comes from the inputs, then each output must
  // accept the loop's result under `casting` (NumPy's resolve_dtypes).
  const Casting rule = casting.is_none() ? Casting::SameKind : casting_from_py(casting);
  std::vector<DType> r = u.resolve_dtypes(in);
  for (int k = 0; k < u.nout(); ++k) {
    nb::handle out_spec = dtypes[u.nin() + k];
    if (out_spec.is_none()) continue;
    if (!nb::isinstance(out_spec, numpy().attr("dtype")))
      throw_error(ErrorKind::Type, "Provided dtype must be a valid NumPy dtype, int, float, complex, or None.");
    DType out = dtype_from_py_required(out_spec);
    DType loop_out = r[static_cast<size_t>(u.nin() + k)];
    if (!can_cast(loop_out, out, rule))
      throw_error(ErrorKind::Type, "Cannot cast ufunc '" + std::string(u.name()) + "' output from dtype('" +
                                       std::string(dtype_name(loop_out)) + "') to dtype('" +
                                       std::string(dtype_name(out)) + "') with casting rule '" +
                                       std::string(casting_name(rule)) + "'");
  }
  nb::list l;
  for (DType t : r) l.append(dtype_to_py(t));
  return nb::tuple(l);
}

// The table's expression (over in0.., out0..) of the loop with exactly these dtypes (inputs then
// outputs, as resolve_dtypes gives them): cuarray.fuse writes one ufunc call into a kernel body.
std::string loop_expr(const PyUfunc& self, nb::handle dtypes) {
  const Ufunc& u = *self.u;
  const size_t nargs = static_cast<size_t>(u.nin() + u.nout());
  if (nb::len(dtypes) != nargs)
    throw_error(ErrorKind::Value, "_loop_expr: the number of dtypes must match the number of operands");
  for (const ops::ParsedLoop& loop : ops::parsed_loops(u.index())) {
    size_t k = 0;
    while (k < nargs && loop.types[k] == dtype_from_py_required(dtypes[k])) ++k;
    if (k == nargs) return loop.expr;
  }
  throw_error(ErrorKind::Type, "ufunc '" + std::string(u.name()) + "' has no loop for these dtypes");
}

}  // namespace

void bind_ufuncs(nb::module_& m) {
  // dynamic_attr: each object carries its own __name__ and __doc__, as NumPy's ufuncs do.
  nb::class_<PyUfunc>(m, "ufunc", nb::dynamic_attr(), "A universal function running elementwise on the GPU.")
      .def("__call__", &call)
      .def_prop_ro("nin", [](const PyUfunc& s) { return s.u->nin(); })
      .def_prop_ro("nout", [](const PyUfunc& s) { return s.u->nout(); })
      .def_prop_ro("nargs", [](const PyUfunc& s) { return s.u->nin() + s.u->nout(); })
      .def_prop_ro("ntypes", [](const PyUfunc& s) { return s.u->types().size(); })
      .def_prop_ro("types", [](const PyUfunc& s) { return s.u->types(); })
      // NumPy's own identity for the ufunc of the same name (0 for add, -1 for bitwise_and, None for
      // maximum): cuarray's ufuncs are NumPy's, and reductions read it.
      .def_prop_ro("identity", [](const PyUfunc& s) -> nb::object {
        const std::string name(s.u->name());
        return nb::hasattr(numpy(), name.c_str()) ? nb::object(numpy().attr(name.c_str()).attr("identity")) : nb::none();
      })
      .def("resolve_dtypes", &resolve_dtypes, nb::arg("dtypes"), nb::kw_only(), nb::arg("signature").none() = nb::none(),
           nb::arg("casting").none() = nb::none(), nb::arg("reduction") = false)
      .def("_loop_expr", &loop_expr, nb::arg("dtypes"))
      .def("__repr__", [](const PyUfunc& s) { return "<ufunc '" + std::string(s.u->name()) + "'>"; });
  // One object per table entry; Python exposes them under NumPy's names and aliases.
  nb::dict ufuncs;
  for (const Ufunc& u : Ufunc::all()) {
    nb::object obj = nb::cast(PyUfunc{&u});
    nb::str name(u.name().data(), u.name().size());
    obj.attr("__name__") = name;
    obj.attr("__doc__") = nb::str(u.doc().data(), u.doc().size());
    ufuncs[name] = obj;
  }
  m.attr("ufuncs") = ufuncs;
  // The C++ type a dtype has in generated kernels ("float", "cuarray::complex<double>", ...).
  m.def("_kernel_type_name", [](nb::handle dtype) { return std::string(jit::kernel_type_name(dtype_from_py_required(dtype))); });
  // NumPy's other names (abs for absolute, ...): alias -> name of an entry of `ufuncs`.
  nb::dict aliases;
  for (const UfuncAlias& a : Ufunc::aliases())
    aliases[nb::str(a.alias.data(), a.alias.size())] = nb::str(a.name.data(), a.name.size());
  m.attr("ufunc_aliases") = aliases;
}

}  // namespace cuarray::py
