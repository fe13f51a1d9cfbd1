// numpy.pad's one-pass modes (cuarray/pad.hpp); argument normalization, the casting of constants
// and the composed modes live in cuarray/_manipulation/pad.py.
#include <string_view>
#include <utility>
#include <vector>

#include <nanobind/stl/string_view.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/pad.hpp"
#include "py_array.hpp"

namespace cuarray::py {
namespace {

PadMode pad_mode_from_name(std::string_view name) {
  if (name == "constant") return PadMode::Constant;
  if (name == "edge") return PadMode::Edge;
  if (name == "reflect") return PadMode::Reflect;
  if (name == "symmetric") return PadMode::Symmetric;
  if (name == "wrap") return PadMode::Wrap;
  throw_error(ErrorKind::Value, "mode '" + std::string(name) + "' is not a one-pass pad mode");
}

}  // namespace

void bind_pad(nb::module_& m) {
  // pad(a, [(before, after), ...], mode, [(c_before, c_after), ...] or None): the constants
  // already hold values of a's dtype (cuarray/_manipulation/pad.py casts them with NumPy's setitem).
  m.def("pad", [](nb::handle a, nb::handle widths, std::string_view mode, nb::handle constants) {
    std::vector<PadWidth> w;
    for (nb::handle pair : widths) w.push_back({nb::cast<int64_t>(pair[0]), nb::cast<int64_t>(pair[1])});
    std::vector<std::pair<Scalar, Scalar>> c;
    if (!constants.is_none())
      for (nb::handle pair : constants)
        c.emplace_back(scalar_required(pair[0], "a pad constant"), scalar_required(pair[1], "a pad constant"));
    return wrap(pad(array_of(a), w, pad_mode_from_name(mode), c));
  }, nb::arg("a"), nb::arg("widths"), nb::arg("mode"), nb::arg("constants").none());
}

}  // namespace cuarray::py
