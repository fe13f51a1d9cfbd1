// ufunc.accumulate over the scan engine, with NumPy's loop resolution for reduce-like calls
// (docs/scans.md); cumsum & co. (src/ops/math/cumulative.cpp) are accumulates with an element map.
#include <array>
#include <string>

#include "core/array_checks.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/scan.hpp"
#include "ops/ufunc/accumulate.hpp"
#include "ops/engines/scan/scan.hpp"
#include "ops/ufunc/ufunc_resolve.hpp"
#include "ops/ufunc/ufunc_table.hpp"

namespace cuarray {
namespace {

using ops::ScanElementMap;
constexpr std::array<std::string_view, 3> kMaps = {
    "cuarray_cast<acc_t>(cuarray_cast<loop_t>(v))",
    "cuarray_isnan(v) ? cuarray_cast<acc_t>(0) : cuarray_cast<acc_t>(cuarray_cast<loop_t>(v))",
    "cuarray_isnan(v) ? cuarray_cast<acc_t>(1) : cuarray_cast<acc_t>(cuarray_cast<loop_t>(v))",
};

}  // namespace

namespace ops {

NDArray accumulate_mapped(const Ufunc& u, ScanElementMap map, const NDArray& a, int64_t axis_arg,
                          std::optional<DType> dtype, const NDArray* out) {
  const ops::UfuncDef& def = ops::ufunc_defs()[u.index()];
  if (def.nin != 2) throw_error(ErrorKind::Value, "accumulate only supported for binary functions");
  if (def.nout != 1) throw_error(ErrorKind::Value, "accumulate only supported for functions returning a single value");
  if (a.ndim() == 0) throw_error(ErrorKind::Type, "cannot accumulate on a scalar");
  const int axis = normalize_axis(axis_arg, a.ndim());

  const ops::ParsedLoop& parsed = ops::resolve_reduce_like(
      u.index(), a.dtype(), dtype, out ? std::optional<DType>(out->dtype()) : std::nullopt);
  const DType loop = parsed.types[2];

  NDArray result;
  if (out) {
    if (out->shape() != a.shape())
      throw_error(ErrorKind::Value, "output array of shape " + shape_repr(out->shape()) +
                                        " does not match the accumulation's shape " + shape_repr(a.shape()));
    check_device(*out, a.device(), "output array");
    result = *out;
  } else {
    result = empty_like(a, loop);
  }
  const ops::AccumulatePlan plan = ops::plan_accumulate(u.index(), parsed, map);
  ops::run_scan(plan.spec, a, axis, plan.loop, plan.acc, result);
  return result;
}

AccumulatePlan plan_accumulate(int ufunc_index, const ParsedLoop& loop, ScanElementMap map) {
  // Associative ufuncs scan in parallel; the others fold left to right as NumPy does.
  const bool associative = ufunc_defs()[ufunc_index].has(kAssociative);
  const DType t = loop.types[2];
  // A parallel float16 scan combines in float32 (rounding once per output, not once per step as
  // NumPy's loop does); the sequential fold keeps the loop dtype and NumPy's per-step rounding.
  const DType acc = associative && t == DType::Float16 ? DType::Float32 : t;
  const ScanSpec spec{static_cast<uint64_t>(ufunc_index) * kMaps.size() + static_cast<uint64_t>(map),
                      kMaps[static_cast<size_t>(map)], loop.expr, associative};
  return {spec, t, acc};
}

}  // namespace ops

NDArray accumulate(const Ufunc& u, const NDArray& a, int64_t axis, std::optional<DType> dtype, const NDArray* out) {
  return ops::accumulate_mapped(u, ScanElementMap::Plain, a, axis, dtype, out);
}

}  // namespace cuarray
