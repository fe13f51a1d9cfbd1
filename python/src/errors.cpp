// Translates cuarray::Error into the Python exception NumPy/CuPy would raise.
#include "errors.hpp"

#include <typeinfo>

#include "convert.hpp"
#include "cuarray/errors.hpp"

namespace cuarray::py {
namespace {

PyObject* g_runtime_error = nullptr;
PyObject* g_driver_error = nullptr;
PyObject* g_out_of_memory = nullptr;

// CuPy's CUDARuntimeError / CUDADriverError(status): the code and the message (None: no code).
void raise_status_error(PyObject* cls, const Error& e) {
  nb::object status = e.status() ? nb::object(nb::int_(e.status())) : nb::none();
  nb::object exc = nb::steal(PyObject_CallFunctionObjArgs(cls, status.ptr(), nb::str(e.what()).ptr(), nullptr));
  if (exc.is_valid()) PyErr_SetObject(cls, exc.ptr());  // else the call's own error is set
}

void raise(const Error& e) {
  switch (e.kind()) {
    case ErrorKind::Value: PyErr_SetString(PyExc_ValueError, e.what()); return;
    case ErrorKind::Type: PyErr_SetString(PyExc_TypeError, e.what()); return;
    case ErrorKind::Index: PyErr_SetString(PyExc_IndexError, e.what()); return;
    case ErrorKind::Overflow: PyErr_SetString(PyExc_OverflowError, e.what()); return;
    case ErrorKind::NotImplemented: PyErr_SetString(PyExc_NotImplementedError, e.what()); return;
    case ErrorKind::Buffer: PyErr_SetString(PyExc_BufferError, e.what()); return;
    case ErrorKind::OutOfMemory: PyErr_SetString(g_out_of_memory, e.what()); return;
    case ErrorKind::CudaDriver: raise_status_error(g_driver_error, e); return;
    case ErrorKind::CudaRuntime: raise_status_error(g_runtime_error, e); return;
    case ErrorKind::LinAlg: {
      nb::object linalg_error = nb::module_::import_("numpy.linalg").attr("LinAlgError");
      PyErr_SetObject(linalg_error.ptr(), nb::str(e.what()).ptr());
      return;
    }
    case ErrorKind::Axis: {
      nb::object axis_error = nb::module_::import_("numpy.exceptions").attr("AxisError");
      PyErr_SetObject(axis_error.ptr(), nb::str(e.what()).ptr());
      return;
    }
    case ErrorKind::Compile: {
      const auto& ce = static_cast<const CompileError&>(e);
      nb::object cls = nb::module_::import_("cuarray.cuda.compiler").attr("CompileException");
      nb::object exc = cls(nb::str(ce.what()), nb::str(ce.source().c_str()), nb::str(ce.name().c_str()));
      PyErr_SetObject(cls.ptr(), exc.ptr());
      return;
    }
  }
}

}  // namespace

void register_errors(nb::module_& m) {
  // Defined in Python (the status, CuPy's constructor and pickling); the package is importing us.
  nb::module_ classes = nb::module_::import_("cuarray._cuda_errors");
  g_runtime_error = nb::object(classes.attr("CUDARuntimeError")).release().ptr();
  g_driver_error = nb::object(classes.attr("CUDADriverError")).release().ptr();
  g_out_of_memory = PyErr_NewException("cuarray.cuda.memory.OutOfMemoryError", PyExc_MemoryError, nullptr);
  m.attr("CUDARuntimeError") = nb::handle(g_runtime_error);
  m.attr("CUDADriverError") = nb::handle(g_driver_error);
  m.attr("OutOfMemoryError") = nb::handle(g_out_of_memory);
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const Error& e) {
      raise(e);
    } catch (const std::bad_cast&) {
      // A failed nb::cast inside a binding (nanobind's cast_error is std::bad_cast): a TypeError
      // rather than RuntimeError("std::bad_cast").
      PyErr_SetString(PyExc_TypeError, "an argument could not be converted to the type cuarray expects");
    }
  });
}

}  // namespace cuarray::py
