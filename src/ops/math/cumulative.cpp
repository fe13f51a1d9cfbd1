// NumPy's cumulative sums and products: cumsum, cumprod, nancumsum, nancumprod as add/multiply
// accumulates with an element map (docs/scans.md).
#include <string>

#include "cuarray/errors.hpp"
#include "cuarray/scan.hpp"
#include "ops/ufunc/accumulate.hpp"

namespace cuarray {
namespace {

using ops::ScanElementMap;

struct CumulativeDef {
  std::string_view name, ufunc;
  ScanElementMap map;
};
constexpr CumulativeDef kCumulative[] = {
    {"cumsum", "add", ScanElementMap::Plain},
    {"cumprod", "multiply", ScanElementMap::Plain},
    {"nancumsum", "add", ScanElementMap::NanAsZero},
    {"nancumprod", "multiply", ScanElementMap::NanAsOne},
};

}  // namespace

NDArray cumulative(std::string_view name, const NDArray& a, std::optional<int64_t> axis, std::optional<DType> dtype,
                   const NDArray* out) {
  const CumulativeDef* def = nullptr;
  for (const CumulativeDef& d : kCumulative)
    if (d.name == name) def = &d;
  if (!def) throw_error(ErrorKind::Value, "no cumulative function named " + std::string(name));
  // NumPy flattens for axis=None, and scans a 0-d array as its 1-element ravel.
  const NDArray flat = !axis || a.ndim() == 0 ? a.ravel() : a;
  const int64_t ax = axis ? *axis : 0;
  if (out && out->shape() != flat.shape())
    throw_error(ErrorKind::Value, "provided out is the wrong size for the accumulation: " + shape_repr(out->shape()) +
                                      " instead of " + shape_repr(flat.shape()));
  return ops::accumulate_mapped(ufunc(def->ufunc), def->map, flat, ax, dtype, out);
}

}  // namespace cuarray
