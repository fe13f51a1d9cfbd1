// Basic indexing (integers, slices, Ellipsis, None, 0-d booleans) as views.
#pragma once
#include <nanobind/nanobind.h>

#include "cuarray/ndarray.hpp"

namespace cuarray::py {
// The view a[key]; IndexError for out-of-range or too many indices, as NumPy.
NDArray basic_index(const NDArray& a, nanobind::handle key);
}  // namespace cuarray::py
