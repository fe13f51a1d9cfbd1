// cuarray._core: the compiled half of the Python package. Kept free of import-time work beyond
// creating types, so `import cuarray` stays fast and works with no GPU.
#include <nanobind/nanobind.h>

#include <cstdlib>
#include <string_view>

#include "bindings.hpp"
#include "errors.hpp"

NB_MODULE(_core, m) {
  // nanobind reports the objects of ours still alive when the interpreter ends. Libraries that keep
  // cuarray's types and ufuncs in their own registries until then (Dask's dispatch tables, a
  // Distributed client) turn that report into noise at the end of users' programs, so it is off
  // unless CUARRAY_LEAK_WARNINGS is set (tests/python/test_interpreter_exit.py sets it for a program
  // of its own, to catch real leaks of ours).
  const char* leak_warnings = std::getenv("CUARRAY_LEAK_WARNINGS");
  nanobind::set_leak_warnings(leak_warnings != nullptr && *leak_warnings && std::string_view(leak_warnings) != "0");
  cuarray::py::register_errors(m);
  cuarray::py::bind_ndarray(m);
  cuarray::py::bind_ufuncs(m);
  cuarray::py::bind_reductions(m);
  cuarray::py::bind_creation(m);
  cuarray::py::bind_random(m);
  cuarray::py::bind_cuda(m);
  cuarray::py::bind_raw_kernels(m);
  cuarray::py::bind_select(m);
  cuarray::py::bind_sorting(m);
  cuarray::py::bind_scans(m);
  cuarray::py::bind_ufunc_methods(m);
  cuarray::py::bind_histograms(m);
  cuarray::py::bind_pad(m);
  cuarray::py::bind_manipulation(m);
  cuarray::py::bind_sets(m);
  cuarray::py::bind_products(m);
  cuarray::py::bind_einsum(m);
  cuarray::py::bind_linalg(m);
  cuarray::py::bind_fft(m);
  cuarray::py::bind_nccl(m);
  cuarray::py::bind_user_kernels(m);
  cuarray::py::bind_interop(m);
  cuarray::py::bind_profiling(m);
}
