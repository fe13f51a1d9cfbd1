// numpy.fft's transforms and cupy.fft.config's plan cache (cuarray/fft.hpp). cuarray/fft/__init__.py
// resolves NumPy's defaults and checks in NumPy's order; these take the resolved lengths and axes.
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "bindings.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/fft.hpp"
#include "py_array.hpp"

namespace cuarray::py {
namespace {

fft::Norm norm_of(std::string_view name) {
  std::optional<fft::Norm> norm = fft::norm_from_name(name);
  if (!norm)
    throw_error(ErrorKind::Value,
                "Invalid norm value " + std::string(name) + "; should be \"backward\",\"ortho\" or \"forward\".");
  return *norm;
}

using NdTransform = NDArray (*)(const NDArray&, std::span<const int64_t>, std::span<const int64_t>, fft::Norm);
using OneTransform = NDArray (*)(const NDArray&, int64_t, int64_t, fft::Norm);

template <NdTransform transform>
nb::object nd(nb::handle a, const std::vector<int64_t>& s, const std::vector<int64_t>& axes, std::string_view norm) {
  return wrap(transform(array_of(a), s, axes, norm_of(norm)));
}

template <OneTransform transform>
nb::object one(nb::handle a, int64_t n, int64_t axis, std::string_view norm) {
  return wrap(transform(array_of(a), n, axis, norm_of(norm)));
}

}  // namespace

void bind_fft(nb::module_& m) {
  nb::module_ f = m.def_submodule("fft", "numpy.fft's transforms on cuFFT");
  f.def("fftn", &nd<fft::fftn>);
  f.def("ifftn", &nd<fft::ifftn>);
  f.def("rfftn", &nd<fft::rfftn>);
  f.def(
      "irfftn",
      [](nb::handle a, const std::vector<int64_t>& s, const std::vector<int64_t>& axes, std::string_view norm,
         bool overwrite_input) { return wrap(fft::irfftn(array_of(a), s, axes, norm_of(norm), overwrite_input)); },
      nb::arg("a"), nb::arg("s"), nb::arg("axes"), nb::arg("norm"), nb::arg("overwrite_input") = false);
  f.def("hfft", &one<fft::hfft>);
  f.def("ihfft", &one<fft::ihfft>);

  nb::class_<fft::FftPlanCache>(f, "PlanCache", "cupy.fft.config.get_plan_cache(): one device's cuFFT plans")
      .def(nb::init<int>(), nb::arg("device"))
      .def_prop_ro("device", &fft::FftPlanCache::device)
      .def("set_size", &fft::FftPlanCache::set_size)
      .def("get_size", &fft::FftPlanCache::get_size)
      .def("get_curr_size", &fft::FftPlanCache::get_curr_size)
      .def("set_memsize", &fft::FftPlanCache::set_memsize)
      .def("get_memsize", &fft::FftPlanCache::get_memsize)
      .def("get_curr_memsize", &fft::FftPlanCache::get_curr_memsize)
      .def("clear", &fft::FftPlanCache::clear)
      .def("show_info", [](const fft::FftPlanCache& c) { nb::print(nb::str(c.info().c_str())); })
      .def("__repr__", &fft::FftPlanCache::info);
}

}  // namespace cuarray::py
