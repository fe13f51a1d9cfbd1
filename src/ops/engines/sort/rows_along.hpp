// Moving the axes an operation works along to the end of a contiguous copy, and back.
#pragma once
#include <span>

#include "cuarray/ndarray.hpp"

namespace cuarray::ops {

// `rows`: `a` with the dims in `reduced` (normalized, ascending) moved last, C-contiguous (a view
// when it already is), seen as rows of `row_len` elements; `perm` the axis order used.
struct RowsAlong {
  NDArray rows;
  Axes perm;
  int kept;  // dims before the reduced ones
  int64_t row_len;
};
RowsAlong rows_along(const NDArray& a, std::span<const int> reduced);

// A C-contiguous array of rows_along's shape moved back to the original axis order (C order).
NDArray restore_axes(const NDArray& moved, const RowsAlong& r);

}  // namespace cuarray::ops
