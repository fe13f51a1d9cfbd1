// Set routines: numpy.unique, isin, intersect1d, union1d, setdiff1d and setxor1d, with NumPy's
// sort-based algorithms over the radix sort, compares, scans and the compaction engine
// (docs/sets.md). The only device->host reads are the result sizes the compactions read.
#pragma once
#include <cstdint>
#include <optional>

#include "cuarray/ndarray.hpp"

namespace cuarray {

// numpy.unique's arguments beyond the array. With `axis`, the subarrays along it (flattened in C
// order) are the elements, compared lexicographically, first element most significant.
struct UniqueOptions {
  bool return_index = false;    // the first occurrence of each unique value
  bool return_inverse = false;  // where each input element went
  bool return_counts = false;   // how often each unique value occurs
  std::optional<int64_t> axis = std::nullopt;  // nullopt: the flattened array
  // Every NaN in one run (axis=nullopt only; rows holding a NaN never equal each other, as NumPy).
  bool equal_nan = true;
};

// What numpy.unique returns: the fields asked for by UniqueOptions are set (int64 indices), named
// as numpy.unique_all's result.
struct UniqueResult {
  NDArray values;                         // sorted; -0.0 and 0.0 are one value, shown as the first seen
  std::optional<NDArray> indices = {};          // values == a.ravel()[indices] (or a's subarrays along axis)
  std::optional<NDArray> inverse_indices = {};  // a == values[inverse_indices]: a's shape (axis=nullopt), else 1-D
  std::optional<NDArray> counts = {};
};

// numpy.unique(a, return_index, return_inverse, return_counts, axis, equal_nan): the sorted unique
// elements. A 0-d `a` counts as its one element. Throws AxisError for a bad axis.
UniqueResult unique(const NDArray& a, const UniqueOptions& options = {});

// numpy.isin(element, test_elements, invert): whether each element of `element` equals an
// element of `test_elements` (flattened), compared in their common dtype; bool, of element's shape.
// NaN is in nothing and -0.0 is 0.0, as NumPy's ==. `invert` gives `not in` in the same pass.
NDArray isin(const NDArray& element, const NDArray& test_elements, bool invert = false);

// What numpy.intersect1d returns: the common values, and with return_indices the indices of their
// first occurrences in the flattened ar1 and ar2.
struct IntersectResult {
  NDArray values;
  std::optional<NDArray> comm1 = {}, comm2 = {};
};

// numpy.intersect1d(ar1, ar2, assume_unique, return_indices): the sorted values in both arrays.
// assume_unique promises that both (flattened) arrays are unique and skips their unique().
IntersectResult intersect1d(const NDArray& ar1, const NDArray& ar2, bool assume_unique = false,
                            bool return_indices = false);

// numpy.union1d(ar1, ar2): the sorted unique values in either array.
NDArray union1d(const NDArray& ar1, const NDArray& ar2);

// numpy.setdiff1d(ar1, ar2, assume_unique): the unique values of ar1 that are not in ar2, sorted;
// with assume_unique, ar1's values (flattened) in ar1's order.
NDArray setdiff1d(const NDArray& ar1, const NDArray& ar2, bool assume_unique = false);

// numpy.setxor1d(ar1, ar2, assume_unique): the sorted values that are in exactly one of the arrays.
NDArray setxor1d(const NDArray& ar1, const NDArray& ar2, bool assume_unique = false);

}  // namespace cuarray
