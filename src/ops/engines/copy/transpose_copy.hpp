// Copies whose input and output run fastest along different dims (ascontiguousarray(a.T),
// a.copy(order='F') of a C array, astype of a transposed view): the elementwise copy would read
// or write with a large stride, so these move through shared-memory tiles instead
// (src/kernels/transpose.cuh), with both the reads and the writes coalesced.
#pragma once
#include <string>

#include "cuarray/ndarray.hpp"

namespace cuarray::ops {

// dst[...] = src (broadcast to dst's shape, cast to dst's dtype) as a tiled transpose when, after
// coalescing, src's fastest dim is not dst's fastest dim and both are long enough to fill tiles.
// Returns false (and does nothing) when the elementwise copy is the better plan.
bool try_transpose_copy(const NDArray& src, const NDArray& dst);

// The kernel for `in` -> `out` elements (a plain copy of raw words when they are equal) with
// `batch_rank` batch dims (at least 1) and 32- or 64-bit index math.
std::string transpose_source(DType in, DType out, int batch_rank, bool index64);

}  // namespace cuarray::ops
