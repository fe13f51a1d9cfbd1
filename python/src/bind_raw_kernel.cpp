// RawModule and RawKernel (include/cuarray/raw_kernel.hpp), and the conversion of CuPy-style
// kernel arguments, done here in one pass over the tuple so a launch runs no Python code.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <complex>

#include "bindings.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/raw_kernel.hpp"
#include "jit/image_params.hpp"
#include "ops/user_kernels/raw_arguments.hpp"

namespace cuarray::py {
namespace {

// Classes of other modules, looked up on first use. The handle borrows the module's reference
// (the class lives as long as its module, past any launch): a reference of our own, never
// released, kept cuarray.cuda.memory and its pools alive into interpreter teardown, where nanobind
// reported them leaked after any program that launched a RawKernel.
nb::handle imported(const char* module, const char* name) {
  const nb::object cls = nb::module_::import_(module).attr(name);
  return nb::handle(cls.ptr());
}

// CuPy's rules (cupy/_core/_kernel's _pointer): None is a null pointer; a cuarray array or its
// MemoryPointer, or anything with __cuda_array_interface__, its address; a Python int (bool
// included, as CuPy checks int first) an int64, float a float64, complex a complex128; a NumPy
// scalar, or a NumPy array of one element, its own bytes.
KernelArgument kernel_argument(nb::handle x) {
  static const nb::handle numpy_generic = imported("numpy", "generic");
  static const nb::handle numpy_ndarray = imported("numpy", "ndarray");
  static const nb::handle memory_pointer = imported("cuarray._array.ndarray_methods", "MemoryPointer");
  if (x.is_none()) return KernelArgument::pointer(nullptr);
  if (is_array(x)) return KernelArgument::pointer(array_of(x).raw_data());
  if (PyLong_Check(x.ptr())) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(x.ptr(), &overflow);
    if (overflow) throw_error(ErrorKind::Overflow, "Python int too large to convert to C long");
    return KernelArgument::python_int(v);
  }
  if (PyFloat_Check(x.ptr())) {
    const double v = PyFloat_AS_DOUBLE(x.ptr());
    return KernelArgument::value(&v, sizeof v);
  }
  if (PyComplex_Check(x.ptr())) {
    const std::complex<double> v(PyComplex_RealAsDouble(x.ptr()), PyComplex_ImagAsDouble(x.ptr()));
    return KernelArgument::value(&v, sizeof v);
  }
  if (nb::isinstance(x, numpy_generic) || nb::isinstance(x, numpy_ndarray)) {
    if (nb::isinstance(x, numpy_ndarray) && nb::cast<int64_t>(x.attr("size")) != 1)
      throw_error(ErrorKind::Type, "You are trying to pass a numpy.ndarray of shape " +
                                       nb::cast<std::string>(nb::repr(x.attr("shape"))) +
                                       " as a kernel parameter. Only numpy.ndarrays of size one can be passed by "
                                       "value. If you meant to pass a pointer to __global__ function, you need to "
                                       "pass a cuarray.ndarray instead.");
    const nb::bytes b = nb::borrow<nb::bytes>(x.attr("tobytes")());
    return KernelArgument::value(b.c_str(), b.size());
  }
  if (nb::isinstance(x, memory_pointer))
    return KernelArgument::pointer(reinterpret_cast<void*>(nb::cast<uintptr_t>(x.attr("ptr"))));
  if (nb::hasattr(x, "__cuda_array_interface__")) {
    const nb::object data = x.attr("__cuda_array_interface__")["data"];
    return KernelArgument::pointer(reinterpret_cast<void*>(nb::cast<uintptr_t>(data[0])));
  }
  throw_error(ErrorKind::Type, "Unsupported type " + nb::cast<std::string>(nb::repr(nb::handle(Py_TYPE(x.ptr())))));
}

std::vector<KernelArgument> kernel_arguments(nb::handle args) {
  if (!PyTuple_Check(args.ptr()) && !PyList_Check(args.ptr()))
    throw_error(ErrorKind::Type, "kernel arguments must be a tuple");
  const nb::sequence s = nb::borrow<nb::sequence>(args);
  const size_t n = nb::len(s);
  std::vector<KernelArgument> converted;
  converted.reserve(n);
  for (size_t i = 0; i < n; ++i) converted.push_back(kernel_argument(s[i]));
  return converted;
}

// An int or a tuple of up to three ints, as CuPy takes grid and block.
GridDims dims(nb::handle d, const char* what) {
  GridDims out;
  auto one = [&](nb::handle v) {
    const long long n = nb::cast<long long>(v);
    if (n < 1 || n > 0xffffffffll)
      throw_error(ErrorKind::Value, std::string(what) + " dimensions must be positive 32-bit integers, got " +
                                        std::to_string(n));
    return static_cast<unsigned>(n);
  };
  if (PyLong_Check(d.ptr())) {
    out.x = one(d);
    return out;
  }
  if (!PyTuple_Check(d.ptr()) && !PyList_Check(d.ptr()))
    throw_error(ErrorKind::Type, std::string(what) + " must be an int or a tuple of up to 3 ints");
  const nb::sequence s = nb::borrow<nb::sequence>(d);
  const size_t n = nb::len(s);
  if (n < 1 || n > 3)
    throw_error(ErrorKind::Value, std::string(what) + " must have 1 to 3 dimensions, got " + std::to_string(n));
  unsigned* fields[] = {&out.x, &out.y, &out.z};
  for (size_t i = 0; i < n; ++i) *fields[i] = one(s[i]);
  return out;
}

CompilerBackend backend_of(const std::string& name) {
  if (name == "nvrtc") return CompilerBackend::Nvrtc;
  if (name == "nvcc") return CompilerBackend::Nvcc;
  throw_error(ErrorKind::Value, "Invalid backend " + name);
}

}  // namespace

void bind_raw_kernels(nb::module_& m) {
  nb::class_<RawKernel>(m, "_RawFunction")
      .def("launch",
           [](const RawKernel& k, nb::handle grid, nb::handle block, nb::handle args, unsigned shared_mem) {
             const std::vector<KernelArgument> converted = kernel_arguments(args);
             k.launch(dims(grid, "grid"), dims(block, "block"), converted, shared_mem);
           })
      .def("attributes",
           [](const RawKernel& k) {
             const KernelAttributes a = k.attributes();
             nb::dict d;
             d["max_threads_per_block"] = a.max_threads_per_block;
             d["shared_size_bytes"] = a.shared_size_bytes;
             d["const_size_bytes"] = a.const_size_bytes;
             d["local_size_bytes"] = a.local_size_bytes;
             d["num_regs"] = a.num_regs;
             d["ptx_version"] = a.ptx_version;
             d["binary_version"] = a.binary_version;
             d["cache_mode_ca"] = a.cache_mode_ca;
             d["max_dynamic_shared_size_bytes"] = a.max_dynamic_shared_size_bytes;
             d["preferred_shared_memory_carveout"] = a.preferred_shared_memory_carveout;
             return d;
           })
      .def("set_max_dynamic_shared_size_bytes", &RawKernel::set_max_dynamic_shared_size_bytes)
      .def("set_preferred_shared_memory_carveout", &RawKernel::set_preferred_shared_memory_carveout)
      .def_prop_ro("param_count", &RawKernel::param_count)
      .def_prop_ro("name", &RawKernel::name)
      .def_prop_ro("device", &RawKernel::device);

  // The parameter bytes a launch of `kernel` in the module image `image` would pass for `args`,
  // with the launch's checks: the argument rules tested on a machine without a GPU.
  m.def("_raw_kernel_parameters", [](nb::bytes image, const std::string& kernel, nb::handle args) {
    const auto layouts = jit::image_params(std::string_view(image.c_str(), image.size()));
    runtime::KernelInfo info;
    info.name = kernel;
    const auto found = layouts.find(kernel);
    if (found != layouts.end() && found->second.count <= runtime::kMaxKernelParams) {
      info.param_count = found->second.count;
      for (int i = 0; i < info.param_count; ++i) info.param_size[i] = found->second.params[i].size;
    }
    const std::vector<KernelArgument> converted = kernel_arguments(args);
    const ops::RawArguments packed(&info, kernel, converted);
    const runtime::KernelParams p = packed.params();
    nb::list out;
    for (int i = 0; i < p.count; ++i) out.append(nb::bytes(static_cast<const char*>(p.values[i]), p.sizes[i]));
    return out;
  });

  nb::class_<RawModule>(m, "_RawModule")
      .def_static("from_source",
                  [](std::string code, std::vector<std::string> options, const std::string& backend,
                     bool cooperative, std::vector<std::string> name_expressions) {
                    RawModuleOptions how{std::move(options), backend_of(backend), cooperative,
                                         std::move(name_expressions)};
                    return RawModule::from_source(std::move(code), std::move(how));
                  })
      .def_static("from_file",
                  [](const std::string& path, std::vector<std::string> options, const std::string& backend,
                     bool cooperative) {
                    return RawModule::from_file(path, {std::move(options), backend_of(backend), cooperative, {}});
                  })
      .def("compile", &RawModule::compile, nb::call_guard<nb::gil_scoped_release>())
      .def("get_function", &RawModule::get_function)
      .def("get_global", [](const RawModule& mod, const std::string& name) { return wrap(mod.get_global(name)); })
      .def("lowered_names", &RawModule::lowered_names)
      .def("compile_for", &RawModule::compile_for, nb::call_guard<nb::gil_scoped_release>());
}

}  // namespace cuarray::py
