// Python index keys (a[key], a[key] = v): parsed into cuarray::IndexItem (cuarray/index_key.hpp).
#pragma once
#include <nanobind/nanobind.h>

#include <optional>
#include <vector>

#include "cuarray/index_key.hpp"
#include "cuarray/ndarray.hpp"

namespace cuarray::py {

// A Python key as index items. Index arrays made from host data (lists, NumPy arrays, tuples
// inside the key) are owned here; the items point at them.
struct ParsedKey {
  SmallVector<IndexItem, 8> items;
  std::vector<NDArray> arrays;
};
ParsedKey parse_key(nanobind::handle key);

// The view a[key] of a basic key; IndexError for out-of-range or too many indices, as NumPy.
NDArray basic_index(const NDArray& a, nanobind::handle key);

// a[key] and a[key] = value when the key holds an index array (cuarray or NumPy array, list,
// tuple inside the key) or a boolean: nullopt / false for basic keys (advanced_indexing.cpp).
std::optional<NDArray> advanced_getitem(const NDArray& a, nanobind::handle key);
bool advanced_setitem(const NDArray& a, nanobind::handle key, nanobind::handle value);
}  // namespace cuarray::py
