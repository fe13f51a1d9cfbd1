// bincount, digitize and the binning steps of the histograms (cuarray/histograms.hpp); edges,
// ranges, dtypes and density are computed in cuarray/_statistics/histograms.py as NumPy does.
#include <nanobind/stl/optional.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "cuarray/histograms.hpp"
#include "py_array.hpp"

namespace cuarray::py {
namespace {

const NDArray* optional_array(nb::handle h) { return h.is_none() ? nullptr : &array_of(h); }

constexpr const char* kBound = "a histogram range bound";

}  // namespace

void bind_histograms(nb::module_& m) {
  m.def("bincount", [](nb::handle x, nb::handle weights, int64_t minlength) {
    return wrap(bincount(array_of(x), optional_array(weights), minlength));
  }, nb::arg("x"), nb::arg("weights").none(), nb::arg("minlength"));
  m.def("digitize", [](nb::handle x, nb::handle bins, bool right, bool decreasing) {
    return wrap(digitize(array_of(x), array_of(bins), right, decreasing));
  });
  // Equal bins: (keep, sub, div) dtypes and (first_keep, last_keep, first_sub, denom) values, or
  // None for a binary search over `edges`.
  m.def("histogram_bins", [](nb::handle a, nb::handle edges, nb::handle dtypes, nb::handle values) {
    std::optional<UniformBins> uniform;
    if (!dtypes.is_none())
      uniform = UniformBins{dtype_from_py_required(dtypes[0]), dtype_from_py_required(dtypes[1]),
                            dtype_from_py_required(dtypes[2]),        scalar_required(values[0], kBound),
                            scalar_required(values[1], kBound),       scalar_required(values[2], kBound),
                            scalar_required(values[3], kBound)};
    return wrap(histogram_bins(array_of(a), array_of(edges), uniform));
  }, nb::arg("a"), nb::arg("edges"), nb::arg("dtypes").none(), nb::arg("values").none());
  m.def("count_bins", [](nb::handle bins, int64_t nbins, nb::handle weights) {
    return wrap(count_bins(array_of(bins), nbins, optional_array(weights)));
  }, nb::arg("bins"), nb::arg("nbins"), nb::arg("weights").none());
}

}  // namespace cuarray::py
