// ufunc.accumulate with an element map: the one path of ufunc.accumulate and cumsum & co.
#pragma once
#include <optional>

#include "cuarray/ndarray.hpp"
#include "cuarray/ufunc.hpp"
#include "ops/engines/scan/scan.hpp"

namespace cuarray::ops {

// u.accumulate(a, axis, dtype, out) with each element mapped by `map` before it is combined
// (cuarray::accumulate's checks and result dtype).
NDArray accumulate_mapped(const Ufunc& u, ScanElementMap map, const NDArray& a, int64_t axis,
                          std::optional<DType> dtype, const NDArray* out);

}  // namespace cuarray::ops
