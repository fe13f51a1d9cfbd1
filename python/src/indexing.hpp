// Basic indexing (integers, slices, Ellipsis, None, 0-d booleans) as views.
#pragma once
#include <nanobind/nanobind.h>

#include <optional>

#include "cuarray/ndarray.hpp"

namespace cuarray::py {
// The view a[key]; IndexError for out-of-range or too many indices, as NumPy.
NDArray basic_index(const NDArray& a, nanobind::handle key);

// a[key] and a[key] = value when key is one boolean or integer array (a cuarray or NumPy array,
// or a list): nullopt / false for any other key (advanced_indexing.cpp).
std::optional<NDArray> advanced_getitem(const NDArray& a, nanobind::handle key);
bool advanced_setitem(const NDArray& a, nanobind::handle key, nanobind::handle value);
}  // namespace cuarray::py
