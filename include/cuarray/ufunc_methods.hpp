// The ufunc methods beyond calling: ufunc.at (unbuffered in-place updates at indices) and
// ufunc.reduceat (reductions over index-delimited slices), with NumPy's semantics.
// ufunc.outer is a broadcast call (python/cuarray/_ufunc_methods.py).
#pragma once
#include <optional>
#include <span>

#include "cuarray/ndarray.hpp"
#include "cuarray/ufunc.hpp"

namespace cuarray {

// One item of ufunc.at's index, as NumPy indexing reads it. The caller expands Ellipsis into
// full slices and turns boolean masks into integer arrays (their nonzero()).
struct AtIndexItem {
  enum class Kind : uint8_t { Integer, Slice, NewAxis, Array };
  Kind kind = Kind::Integer;
  int64_t start = 0;   // Integer: the index (negative counts from the end); Slice: the first position
  int64_t step = 1;    // Slice: normalized as Python's slice.indices() gives it
  int64_t length = 0;  // Slice: the number of positions
  NDArray array;       // Array: an integer index array
};

// np.<ufunc>.at(a, index, b): a[index] = ufunc(a[index], b) for each selected element in turn, so
// repeated indices accumulate. `b` (nullptr for unary ufuncs) broadcasts to the selection; Python
// scalars count as arrays of their default dtype, and the result is cast back to a's dtype
// unsafely, as NumPy does. IndexError for an out-of-range index (nothing is written then).
void ufunc_at(const Ufunc& u, const NDArray& a, std::span<const AtIndexItem> index, const Operand* b);

// np.<ufunc>.reduceat(a, indices, axis, dtype): along `axis`, output i reduces a[indices[i]:indices[i+1]]
// when indices[i] < indices[i+1], else is a[indices[i]]; the last runs to the end. IndexError for
// an index outside [0, a.shape[axis]). add/multiply accumulate small integers and bools in int64
// (uint64 for unsigned) unless `dtype` is given, as NumPy's reductions do.
NDArray ufunc_reduceat(const Ufunc& u, const NDArray& a, std::span<const int64_t> indices, int64_t axis,
                       std::optional<DType> dtype = std::nullopt);

}  // namespace cuarray
