// The copy/cast engine's entry: every array-to-array copy (astype, copy, setitem, the pieces of
// concatenate) picks the tiled transpose when the layouts run along different dims, else the
// elementwise engine's copy expression.
#pragma once
#include "cuarray/ndarray.hpp"

namespace cuarray::ops {

// dst[...] = src, broadcasting src and casting unsafely (NumPy's setitem and astype semantics).
void copy_into(const NDArray& src, const NDArray& dst);

}  // namespace cuarray::ops
