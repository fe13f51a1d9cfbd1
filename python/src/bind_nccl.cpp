// cuarray.cuda.nccl's compiled half: the communicator and NCCL's module-level calls, over
// cuarray::nccl (include/cuarray/nccl.hpp). Pointers and streams are Python ints, as in CuPy.
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "cuarray/nccl.hpp"

namespace cuarray::py {
namespace {

PyObject* g_nccl_error = nullptr;

// CuPy's NcclError(status): a RuntimeError whose .status is NCCL's ncclResult_t.
void raise_nccl_error(const nccl::NcclError& e) {
  nb::object exc = nb::steal(PyObject_CallFunction(g_nccl_error, "s", e.what()));
  if (!exc.is_valid()) return;  // the call's own error is set
  nb::setattr(exc, "status", nb::int_(e.status()));
  PyErr_SetObject(g_nccl_error, exc.ptr());
}

nb::tuple unique_id_tuple(const nccl::UniqueId& id) {
  nb::list bytes;
  for (char c : id) bytes.append(static_cast<int>(c));  // signed, as CuPy's tuple of chars
  return nb::tuple(bytes);
}

nccl::UniqueId unique_id_from(nb::handle obj) {
  nccl::UniqueId id{};
  if (nb::len(obj) != id.size()) throw nb::value_error("NCCL unique id must have 128 entries");
  size_t i = 0;
  for (nb::handle item : obj) id[i++] = static_cast<char>(nb::cast<int>(item));
  return id;
}

}  // namespace

void bind_nccl(nb::module_& m) {
  g_nccl_error = PyErr_NewException("cuarray.cuda.nccl.NcclError", PyExc_RuntimeError, nullptr);
  m.attr("NcclError") = nb::handle(g_nccl_error);
  // Registered after register_errors' translator, so it is tried first (nanobind tries the most
  // recent first); NcclError would otherwise become CUDARuntimeError.
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const nccl::NcclError& e) {
      raise_nccl_error(e);
    }
  });

  m.def("nccl_available", &nccl::available);
  m.def("nccl_version", &nccl::version);
  m.def("nccl_unique_id", [] { return unique_id_tuple(nccl::unique_id()); });
  m.def("nccl_group_start", &nccl::group_start);
  m.def("nccl_group_end", &nccl::group_end, nb::call_guard<nb::gil_scoped_release>());

  using C = nccl::Communicator;
  nb::class_<C>(m, "NcclComm")
      .def("__init__",
           [](C* self, int nranks, nb::handle id, int rank) {
             nccl::UniqueId uid = unique_id_from(id);
             nb::gil_scoped_release released;  // blocks until every rank has joined
             new (self) C(nranks, uid, rank);
           })
      .def_static("init_all", &C::init_all, nb::call_guard<nb::gil_scoped_release>())
      .def_prop_ro("device", &C::device)
      .def_prop_ro("rank", &C::rank)
      .def_prop_ro("size", &C::size)
      .def_prop_ro("handle", &C::handle)
      .def("destroy", &C::destroy, nb::call_guard<nb::gil_scoped_release>())
      .def("abort", &C::abort, nb::call_guard<nb::gil_scoped_release>())
      .def("all_reduce", &C::all_reduce, nb::call_guard<nb::gil_scoped_release>())
      .def("reduce", &C::reduce, nb::call_guard<nb::gil_scoped_release>())
      .def("broadcast", &C::broadcast, nb::call_guard<nb::gil_scoped_release>())
      .def("all_gather", &C::all_gather, nb::call_guard<nb::gil_scoped_release>())
      .def("reduce_scatter", &C::reduce_scatter, nb::call_guard<nb::gil_scoped_release>())
      .def("send", &C::send, nb::call_guard<nb::gil_scoped_release>())
      .def("recv", &C::recv, nb::call_guard<nb::gil_scoped_release>());
}

}  // namespace cuarray::py
