// a[key] and a[key] = values for every NumPy 2 index key: integers, slices, None, Ellipsis,
// 0-d booleans, and integer or boolean index arrays of any rank, mixed in one key.
//
// NumPy's rules, kept exactly: a boolean array of rank k consumes k axes and stands for its
// nonzero() arrays; index arrays broadcast together (IndexError "shape mismatch: indexing arrays
// could not be broadcast together with shapes ..."); once a key holds an array or a 0-d
// boolean, its integers are advanced indices too; when the advanced indices are adjacent in the
// key their broadcast dims replace them in place, else they come first. Out-of-range indices
// raise IndexError naming the index, the axis and its size, and are never dereferenced.
#pragma once
#include <cstdint>
#include <span>

#include "cuarray/ndarray.hpp"

namespace cuarray {

// One item of an index key (a Python tuple's entry).
struct IndexItem {
  enum class Kind : uint8_t { Integer, Slice, NewAxis, Ellipsis, Boolean, Array };
  Kind kind = Kind::Ellipsis;
  int64_t value = 0;  // Integer: the index (negative counts from the end); Boolean: 0 or 1
  // Slice: start, stop, step as Python's PySlice_Unpack gives them: bounds past either end clamp
  // as in Python, so an open end is INT64_MIN or INT64_MAX (step != 0).
  int64_t start = 0, stop = 0, step = 1;
  const NDArray* array = nullptr;  // Array: integer or bool dtype, any rank (not owned)

  static IndexItem integer(int64_t i) { return {Kind::Integer, i}; }
  static IndexItem slice(int64_t start, int64_t stop, int64_t step) { return {Kind::Slice, 0, start, stop, step}; }
  static IndexItem new_axis() { return {Kind::NewAxis}; }
  static IndexItem ellipsis() { return {Kind::Ellipsis}; }
  static IndexItem boolean(bool b) { return {Kind::Boolean, b ? 1 : 0}; }
  static IndexItem index_array(const NDArray& a) { return {Kind::Array, 0, 0, 0, 1, &a}; }
};
using IndexKey = std::span<const IndexItem>;

// Whether the key is basic (integers, slices, None, Ellipsis only): a[key] is then a view.
bool is_basic_key(IndexKey key);

// a[key] for a basic key: a view of `a`.
NDArray basic_view(const NDArray& a, IndexKey key);

// a[key]: the view of a basic key, else a new array (advanced indexing copies, as NumPy).
// Synchronizes once per boolean array (its count) and once to check the indices.
NDArray getitem(const NDArray& a, IndexKey key);

// a[key] = values: `values` broadcast to the shape a[key] has (extra leading length-1 dims
// allowed) and cast to a's dtype (unsafe, as NumPy's setitem); where several positions of
// the index address one element, the last in C order wins. Nothing is written when an index
// is out of range. Writes through views reach their base.
void setitem(const NDArray& a, IndexKey key, const NDArray& values);

}  // namespace cuarray
